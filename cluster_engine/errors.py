"""Errors a user can cause with cluster inputs (captured CLI outputs, snapshots, plans)."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

from linter import inputs


class ClusterInputError(inputs.MalformedInput):
    """Bad input, located: ``path:line[:col]: what was expected but found what``."""


def decode_input(data: bytes, path: str) -> str:
    """The text of an input file: UTF-8 (with or without BOM) or UTF-16 with a BOM (what a
    PowerShell redirect writes). Anything else is a located :class:`ClusterInputError`."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8-sig"
        sample = data[:64]
        if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
            raise ClusterInputError(
                path, 1, "the file looks like UTF-16 without a byte-order mark; save it as UTF-8"
            )
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        head = data[: error.start]
        if encoding == "utf-16":
            line = head.decode("utf-16", errors="replace").count("\n") + 1
        else:
            line = head.count(b"\n") + 1
        name = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise ClusterInputError(
            path, line, f"byte 0x{data[error.start]:02x} is not {name} text; save the file as UTF-8"
        ) from None


def read_input(path: str | Path) -> str:
    """Read an input file (a regular file, bounded: :func:`linter.inputs.read_bytes`) with
    :func:`decode_input`; an unreadable path is an ``OSError`` for the caller."""
    return decode_input(inputs.read_bytes(path), inputs.label(path))


def _as_cluster(error: inputs.MalformedInput) -> ClusterInputError:
    if isinstance(error, ClusterInputError):
        return error
    return ClusterInputError(error.path, error.line, error.detail, error.column)


def load_yaml(text: str, path: str) -> Any:
    """:func:`linter.inputs.load_yaml`, its errors as :class:`ClusterInputError`."""
    try:
        return inputs.load_yaml(text, path)
    except inputs.MalformedInput as error:
        raise _as_cluster(error) from None


def load_json(text: str, path: str) -> Any:
    """:func:`linter.inputs.load_json`, its errors as :class:`ClusterInputError`."""
    try:
        return inputs.load_json(text, path)
    except inputs.MalformedInput as error:
        raise _as_cluster(error) from None
