"""The one door for user files: every file ksafe reads, and every YAML and JSON text it loads.

Reading: ``-`` is standard input (read once, under the same limit, and named ``<stdin>`` in
messages: :func:`label`); any other path must name a regular file (a FIFO would block forever,
``/dev/zero`` would be read until memory runs out, a directory is a mistake), and at most
:func:`input_limit` bytes are read (``KSAFE_MAX_INPUT_BYTES``, default 256 MiB); a larger
file is refused with its size.

Loading: one YAML loader and one JSON loader. Both refuse a key given twice in one mapping (a
second ``steps:`` or ``topics:`` would silently replace the first), naming both lines; the YAML
loader refuses aliases (a few hundred bytes of nested aliases expand to gigabytes) and numbers
too long to be a value of any Kafka field. Every failure is a :class:`MalformedInput` located
``path:line:col``, never a traceback.

This is the lowest layer: it imports nothing of ksafe, so both the topology side and the
cluster engine read through it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from linter.inputs.checks import check_digits, check_nesting, has_digit_run
from linter.inputs.errors import (
    DEFAULT_LIMIT,
    LIMIT_ENV,
    MAX_DEPTH,
    MAX_DIGITS,
    STDIN,
    STDIN_LABEL,
    MalformedInput,
    UnreadableInput,
    quote,
)
from linter.inputs.json_loader import json_position, load_json
from linter.inputs.reading import (
    check_file,
    describe_files,
    input_limit,
    is_stdin,
    label,
    read_bytes,
)

if TYPE_CHECKING:
    from linter.inputs.yaml_loader import compose_yaml, construct_yaml, load_yaml, node_position

# The YAML loader is imported when one of its names is first used: PyYAML costs a command that
# reads no YAML (``ksafe cluster snapshot`` of a capture, a topology check) ~20 ms to import.
_YAML_NAMES = frozenset({"compose_yaml", "construct_yaml", "load_yaml", "node_position"})


def __getattr__(name: str) -> Any:
    if name not in _YAML_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("linter.inputs.yaml_loader"), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_LIMIT",
    "LIMIT_ENV",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "STDIN",
    "STDIN_LABEL",
    "MalformedInput",
    "UnreadableInput",
    "check_digits",
    "check_file",
    "check_nesting",
    "compose_yaml",
    "construct_yaml",
    "describe_files",
    "has_digit_run",
    "input_limit",
    "is_stdin",
    "json_position",
    "label",
    "load_json",
    "load_yaml",
    "node_position",
    "quote",
    "read_bytes",
]
