"""Configuration: discovery, keys, overrides, per-path settings, located errors."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from linter.config import ConfigError, find_config, load_config, parse_config
from rules.framework import Severity

FULL = """\
select = ["KS901", "acknowledgement-expired"]
ignore = ["topology-file-deleted"]
fail-on = "warning"
application-id = "shop"
snapshot = "cluster/prod.json"

[severity]
acknowledgement-unused = "error"
ks902 = "info"

[[paths]]
path = "topology/orders-*.txt"
application-id = "orders"
properties = "config/orders.properties"

[[paths]]
path = "topology/orders-v2.txt"
properties-after = "config/orders-v2.properties"

[[acknowledgements]]
fingerprint = "9c1d0e6f2a3b4c5d"
reason = "rebuilt during the migration"
expires = 2026-09-30

[[acknowledgements]]
rule = "acknowledgement-unused"
resource = "counts"
path = "topology/*.txt"
reason = "known"
expires = "2027-01-01"
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_key(tmp_path: Path) -> None:
    config = parse_config(FULL, write(tmp_path, "ksafe.toml", FULL))
    s = config.settings
    assert s.select == {"KS901", "KS902"}
    assert s.ignore == {"KS903"}
    assert s.fail_on == Severity.WARNING
    assert s.severities == {"KS901": Severity.ERROR, "KS902": Severity.INFO}
    assert s.application_id == "shop"
    assert config.snapshot == str(tmp_path / "cluster/prod.json")
    first, second = s.acknowledgements
    assert first.fingerprint == "9c1d0e6f2a3b4c5d"
    assert first.expires == date(2026, 9, 30)
    assert first.where == f"{tmp_path / 'ksafe.toml'}:20"
    assert second.rule == "KS901"
    assert second.resource == "counts"
    assert second.path == str(tmp_path / "topology/*.txt")
    assert second.expires == date(2027, 1, 1)


def test_per_path_settings_merge_later_wins(tmp_path: Path) -> None:
    config = parse_config(FULL, write(tmp_path, "ksafe.toml", FULL))
    v2 = config.for_path(tmp_path / "topology/orders-v2.txt")
    assert v2.application_id == "orders"
    assert v2.properties_before == str(tmp_path / "config/orders.properties")
    assert v2.properties_after == str(tmp_path / "config/orders-v2.properties")
    other = config.for_path(tmp_path / "topology/payments.txt")
    assert other.application_id == "shop"
    assert other.properties_before is None
    assert other.snapshot == str(tmp_path / "cluster/prod.json")
    assert config.settings_for(tmp_path / "topology/orders-v1.txt").application_id == "orders"


def test_relative_input_paths_match_from_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = parse_config(FULL, write(tmp_path, "ksafe.toml", FULL))
    monkeypatch.chdir(write(tmp_path / "topology", "orders-v1.txt", "").parent)
    assert config.for_path("orders-v1.txt").application_id == "orders"


def test_discovery_walks_up_and_prefers_ksafe_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    pyproject = write(tmp_path / "a", "pyproject.toml", '[tool.ksafe]\nfail-on = "info"\n')
    write(tmp_path / "a" / "b", "pyproject.toml", "[tool.ruff]\nline-length = 90\n")
    assert find_config(deep) == pyproject
    monkeypatch.chdir(deep)
    assert load_config().settings.fail_on == Severity.INFO
    own = write(tmp_path / "a", "ksafe.toml", 'fail-on = "never"\n')
    assert find_config(deep) == own
    assert load_config().settings.fail_on is None


def test_explicit_config_overrides_discovery(tmp_path: Path) -> None:
    write(tmp_path, "ksafe.toml", 'fail-on = "info"\n')
    other = write(tmp_path / "elsewhere", "strict.toml", 'fail-on = "warning"\n')
    assert load_config(other, start=tmp_path).settings.fail_on == Severity.WARNING
    assert load_config(start=tmp_path).settings.fail_on == Severity.INFO


def test_no_config_means_defaults(tmp_path: Path) -> None:
    if find_config(tmp_path) is not None:
        pytest.skip("a ksafe configuration exists above the temporary directory")
    config = load_config(start=tmp_path)
    assert config.path is None
    assert config.settings.fail_on == Severity.ERROR
    assert config.settings.acknowledgements == ()


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('fail-on = "error"\nfial-on = "x"\n', 2, "unknown key 'fial-on' in the top level"),
        ('[severity]\nstore-renamedd = "info"\n', 2, "unknown rule 'store-renamedd' in [severity]"),
        ('[severity]\nKS901 = "fatal"\n', 2, "severity of KS901 must be error, warning or info"),
        ('select = ["KS999"]\n', 1, "unknown rule 'KS999' in select"),
        ('fail-on = "sometimes"\n', 1, "fail-on must be one of"),
        ('\n[[paths]]\npath = "a"\nproperty = "x"\n', 4, "unknown key 'property' in [paths]"),
        ('[[paths]]\napplication-id = "x"\n', 1, "a paths entry needs a path"),
        ('[[acknowledgements]]\nfingerprint = "x"\n', 1, "needs a reason"),
        ('[[acknowledgements]]\nreason = "x"\n', 1, "names a fingerprint or a rule"),
        (
            '[[acknowledgements]]\nreason = "x"\nrule = "KS901"\n\n'
            '[[acknowledgements]]\nreason = "y"\nrule = "KS901"\nexpires = "soon"\n',
            8,
            "expires must be a date",
        ),
        ('[[acknowledgements]]\nreason = "x"\nrule = "KS901"\nwhy = 1\n', 4, "unknown key 'why'"),
        ("select = [\n", 1, "invalid TOML"),
    ],
)
def test_errors_say_where(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path, "ksafe.toml", text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.line == line
    assert message in str(caught.value)
    assert str(caught.value).startswith(f"{path}:{line}: ")


def test_pyproject_errors_point_into_the_tool_table(tmp_path: Path) -> None:
    text = '[project]\nname = "x"\n\n[tool.ksafe]\nselect = []\nunknown = 1\n'
    path = write(tmp_path, "pyproject.toml", text)
    expected = r"pyproject.toml:6: unknown key 'unknown' in \[tool.ksafe\]"
    with pytest.raises(ConfigError, match=expected):
        load_config(path)


def test_tool_ksafe_must_be_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, "pyproject.toml", "[tool]\nksafe = 1\n")
    with pytest.raises(ConfigError, match=r"pyproject.toml:2: \[tool.ksafe\] must be a table"):
        load_config(path)


def test_home_is_expanded_in_paths(tmp_path: Path) -> None:
    path = write(tmp_path, "ksafe.toml", "")
    config = parse_config('snapshot = "~/snap.json"\n', path, allow_outside=True)
    assert config.snapshot == os.path.expanduser("~/snap.json")
    outside = r"ksafe\.toml:1: snapshot = '~/snap\.json' leads outside"
    with pytest.raises(ConfigError, match=outside):
        parse_config('snapshot = "~/snap.json"\n', path)


@pytest.mark.parametrize("name", ["ksafe.toml", "pyproject.toml"])
def test_regression_config_not_utf8_raised_unicode_decode_error(tmp_path: Path, name: str) -> None:
    # a discovered pyproject.toml in any parent folder made every command crash
    from linter.config import ConfigError, load_config

    (tmp_path / name).write_bytes(b'[tool.ksafe]\nfail-on = "warning"\n# caf\xe9\n')
    with pytest.raises(ConfigError, match=rf"{name}:3: .*UTF-8"):
        load_config(start=tmp_path)


def test_regression_config_utf16_is_a_located_error(tmp_path: Path) -> None:
    from linter.config import ConfigError, load_config

    (tmp_path / "ksafe.toml").write_bytes('fail-on = "warning"\n'.encode("utf-16"))
    with pytest.raises(ConfigError, match=r"ksafe\.toml:1: .*UTF-8"):
        load_config(start=tmp_path)


@pytest.mark.parametrize("name", ["ksafe.toml", "pyproject.toml"])
def test_regression_config_deep_nesting_raised_recursion_error(tmp_path: Path, name: str) -> None:
    from linter.config import ConfigError, find_config, load_config

    (tmp_path / name).write_text("[tool.ksafe]\nselect = " + "[" * 5_000 + "\n", encoding="utf-8")
    # a pyproject.toml that mentions ksafe is found even when it is not valid TOML, and reported
    assert find_config(tmp_path) == tmp_path / name
    with pytest.raises(ConfigError, match=rf"{name.replace('.', '[.]')}: .*nested"):
        load_config(start=tmp_path)
