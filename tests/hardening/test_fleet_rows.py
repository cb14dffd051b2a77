"""Any fleet rows at all: one app's scan never raises, and accounts for every row it was given.

The rows are drawn as a fleet table could hold them (missing or duplicate app ids and versions,
texts that are real describe() output, a mangled copy, or noise; properties that may not parse;
flags and timestamps or not) and as an app directory could (any file names). Whatever comes in,
the app is ``scanned`` or ``quarantined`` with one ``parse`` row saying why, and its ``versions``
count is the number of rows.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from linter.api import Settings
from linter.fleet.inputs import assemble, version_of
from linter.fleet.scan import QUARANTINED, SCANNED, Version, scan_app

SMALL = Path(__file__).resolve().parents[2] / "fixtures" / "fleet" / "small"
TEXTS = sorted(p.read_text(encoding="utf-8") for p in SMALL.glob("*/v*.txt"))

texts = st.one_of(
    st.none(),
    st.sampled_from(TEXTS),
    st.sampled_from(TEXTS).flatmap(
        lambda t: st.integers(0, len(t)).map(lambda cut: t[:cut] + "\n  --> <- ]]\n" + t[cut:])
    ),
    st.text(max_size=80),
)
properties = st.one_of(
    st.none(),
    st.just("application.id=app\n"),
    st.text(alphabet="=:\\ \nabc.u12", max_size=30),
)
rows = st.tuples(
    st.sampled_from(["a", None]),
    st.one_of(st.none(), st.sampled_from(["v1", "v2", "v10", ""])),
    texts,
    properties,
    st.one_of(st.none(), st.booleans()),
    st.one_of(st.none(), st.sampled_from(["2024-01-01T00:00:00Z", "2024-02-01T00:00:00Z"])),
    st.one_of(st.none(), st.just("not a fleet table row: {...")),
)


def _check(app_id: str, versions: list[Version], given_rows: int) -> None:
    result = scan_app(app_id, versions, Settings())
    assert result.app.versions == given_rows
    assert result.app.status in (SCANNED, QUARANTINED)
    if result.app.status == QUARANTINED:
        (row,) = result.findings
        assert row.check == "parse"
        assert row.severity == "error"
        assert result.app.error == row.message
        assert row.message
        assert result.facts is None
    else:
        assert result.facts is not None
        assert all(r.check in ("lint", "diff") for r in result.findings)


@given(st.lists(rows, max_size=5))
def test_table_rows_of_one_app(drawn: list[tuple[object, ...]]) -> None:
    versions = [
        version_of(r[:6], source="fleet.jsonl", problem=r[6] if isinstance(r[6], str) else None)
        for r in drawn
    ]
    app_id = versions[0].app_id if versions else "a"
    same_app = [v for v in versions if v.app_id == app_id]
    _check(app_id, same_app, len(same_app))
    if any(v.problem for v in same_app) or len({v.version for v in same_app}) < len(same_app):
        assert scan_app(app_id, same_app, Settings()).app.status == QUARANTINED


names = st.one_of(
    st.sampled_from(["v1.txt", "v2.txt", "v1.properties", "v3.properties", "DEPLOYED"]),
    st.text(min_size=1, max_size=12),
)


files = st.tuples(names, texts.map(lambda t: t or ""))


@given(st.lists(files, max_size=6, unique_by=lambda f: f[0]))
def test_app_directories(files: list[tuple[str, str]]) -> None:
    versions = assemble("a", files)
    stems = {n.rsplit(".", 1)[0] for n, _ in files if n.endswith((".txt", ".properties"))}
    assert {v.version for v in versions} == (stems or {""})
    _check("a", versions, len(versions))
