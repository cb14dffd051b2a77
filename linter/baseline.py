"""``ksafe baseline``: today's findings written as acknowledgements, so an existing fleet can adopt
ksafe and fail only on new problems.

Each entry names its finding by fingerprint, scoped to the file it was found in (relative to the
configuration file's directory), with the rule for readers and a comment quoting the message.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from linter.config import ConfigError
from linter.inputs import read_bytes
from linter.report.model import Report
from rules.framework import Finding

# Findings about the acknowledgements themselves are fixed by editing them, not by more of them.
_NOT_BASELINED = {"KS901", "KS902"}


def toml_string(text: str) -> str:
    """A TOML basic string."""
    out = ['"']
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _path_of(finding: Finding, root: Path) -> str | None:
    """The file a finding belongs to (its "after" side first), relative to ``root``."""
    paths = [loc.path for loc in finding.locations if loc.path and loc.side != "before"]
    paths = paths or [loc.path for loc in finding.locations if loc.path]
    if not paths or paths[0] is None:
        return None
    path = paths[0]
    if "@" in path and not os.path.exists(path):  # ``file@REV``: the old side of --git-base
        path = path.rsplit("@", 1)[0]
    return Path(os.path.relpath(os.path.abspath(path), root)).as_posix()


def entries(
    findings: Iterable[Finding], root: Path, *, reason: str, expires: date | None = None
) -> list[dict[str, str | date]]:
    """One acknowledgement per unacknowledged finding (fingerprint + path, deduplicated)."""
    seen: set[tuple[str, str | None]] = set()
    out: list[dict[str, str | date]] = []
    for f in findings:
        if f.acknowledged is not None or f.rule in _NOT_BASELINED:
            continue
        path = _path_of(f, root)
        if (f.fingerprint, path) in seen:
            continue
        seen.add((f.fingerprint, path))
        entry: dict[str, str | date] = {"fingerprint": f.fingerprint, "rule": f.name}
        if path is not None:
            entry["path"] = path
        entry["reason"] = reason
        if expires is not None:
            entry["expires"] = expires
        entry["#"] = f"{f.rule} {f.name}: {' '.join(f.message.split())}"[:200]
        out.append(entry)
    return out


def to_toml(found: list[dict[str, str | date]], table: str) -> str:
    """``[[table]]`` blocks for ``found`` (``table``: ``acknowledgements`` in a ksafe.toml,
    ``tool.ksafe.acknowledgements`` in a pyproject.toml)."""
    blocks = []
    for entry in found:
        lines = []
        if "#" in entry:
            lines.append(f"# {entry['#']}")
        lines.append(f"[[{table}]]")
        for key, value in entry.items():
            if key == "#":
                continue
            rendered = value.isoformat() if isinstance(value, date) else toml_string(value)
            lines.append(f"{key} = {rendered}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def table_for(config_file: Path) -> str:
    return "tool.ksafe.acknowledgements" if config_file.name == "pyproject.toml" else (
        "acknowledgements"
    )


def append_to(config_file: Path, snippet: str) -> None:
    """Append ``snippet`` to ``config_file``, refusing if the result would not be valid TOML."""
    old = read_bytes(config_file).decode("utf-8") if config_file.exists() else ""
    joined = old + ("\n" if old and not old.endswith("\n") else "") + ("\n" if old else "")
    new = joined + snippet
    try:
        tomllib.loads(new)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            config_file, None, f"cannot append acknowledgements here ({error}); paste them by hand"
        ) from None
    config_file.write_text(new, encoding="utf-8")


def baseline(report: Report, root: Path, *, reason: str, expires: date | None, table: str) -> str:
    return to_toml(entries(report.findings, root, reason=reason, expires=expires), table)
