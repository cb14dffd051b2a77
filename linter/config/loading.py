"""Finding and loading the configuration file: the nearest ``ksafe.toml`` or ``pyproject.toml``
with a ``[tool.ksafe]`` table, decoded and parsed as TOML with located errors."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from linter.config.lines import toml_error_line
from linter.config.model import Config, ConfigError
from linter.config.reader import Reader
from linter.inputs import read_bytes


def find_config(start: Path | None = None) -> Path | None:
    """The nearest ``ksafe.toml``, or ``pyproject.toml`` with a ``[tool.ksafe]`` table, walking
    up from ``start`` (default: the current directory)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "ksafe.toml"
        # not is_file(): a ksafe.toml that is a FIFO or a device is refused when read, not passed by
        if candidate.exists() and not candidate.is_dir():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.exists() and not pyproject.is_dir() and _has_ksafe_table(pyproject):
            return pyproject
    return None


def _has_ksafe_table(pyproject: Path) -> bool:
    """Whether ``pyproject`` holds ``[tool.ksafe]``; a file that mentions ksafe but is not valid
    TOML counts, so :func:`load_config` reports it (``file:line``) rather than ksafe running on
    defaults without a word. A broken file that never mentions ksafe cannot configure it."""
    # undecodable bytes are load_config's to report (located) if the table is there
    text = read_bytes(pyproject).decode("utf-8", errors="replace")
    if "ksafe" not in text:
        return False
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError):  # TOMLDecodeError, or a number too long to convert
        return True
    return isinstance(data.get("tool"), dict) and "ksafe" in data["tool"]


def load_config(
    path: Path | None = None, *, start: Path | None = None, allow_outside: bool = False
) -> Config:
    """Load ``path`` (``--config``), or the file :func:`find_config` finds, or the defaults.

    Paths in the file resolve inside the directory holding it; one that leads outside (``..``,
    an absolute path, a symbolic link) is an error unless ``allow_outside`` (the user's own
    command-line flag: a configuration file alone must not make ksafe read ``/etc``)."""
    found = path if path is not None else find_config(start)
    if found is None:
        return Config(root=(start or Path.cwd()).resolve())
    shown = found if path is not None else _shown(found)
    return parse_config(_decode(read_bytes(found), shown), shown, allow_outside=allow_outside)


def _decode(data: bytes, path: Path) -> str:
    """TOML is UTF-8 (a BOM is tolerated); anything else is a located :class:`ConfigError`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        found = f"byte 0x{data[error.start]:02x}"
        raise ConfigError(path, line, f"{found} is not UTF-8; TOML files are UTF-8") from None


def _shown(path: Path) -> Path:
    """A discovered file at or below the current directory, named relative to it as the user's
    other paths are (``acknowledgement-*`` findings then point where review tools can follow)."""
    try:
        return path.relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def parse_config(text: str, path: Path, *, allow_outside: bool = False) -> Config:
    """Parse a config file's text; ``pyproject.toml`` files are read under ``[tool.ksafe]``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = toml_error_line(str(error), text)
        raise ConfigError(path, line, f"invalid TOML: {error}") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ConfigError(path, None, "invalid TOML: nested too deeply to read") from None
    except ValueError:  # a number past Python's int-conversion limit (not a TOMLDecodeError)
        long = re.search(r"[0-9_]{100,}", text)
        line = text.count("\n", 0, long.start()) + 1 if long else None
        raise ConfigError(path, line, "invalid TOML: a number too long for any setting") from None
    prefix: tuple[str, ...] = ()
    if path.name == "pyproject.toml":
        prefix = ("tool", "ksafe")
        table = data.get("tool", {}).get("ksafe", {})
    else:
        table = data
    return Reader(text, path, prefix, allow_outside).read(table)
