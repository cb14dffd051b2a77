"""The types and validators of the broker and topic configs plans change most, and the message
Kafka's ``ConfigDef`` gives for a value it refuses (INVALID_CONFIG).

``ConfigDef.parseType`` trims the text and parses it as the config's type; a
``NumberFormatException`` becomes ``Not a number of type INT``; booleans accept ``true``/``false``
in any case; a ``Range`` validator says ``Value must be at least N``. The exception reads
``Invalid value <v> for configuration <name>: <why>`` (clients/.../config/ConfigDef.java
parseType, Range, ValidString; clients/.../config/ConfigException.java). Configs not listed here
are not judged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

INT_RANGE = (-(2**31), 2**31 - 1)
LONG_RANGE = (-(2**63), 2**63 - 1)


@dataclass(frozen=True, slots=True)
class ConfigType:
    type: str  # ConfigDef.Type name: INT, LONG, DOUBLE, BOOLEAN, STRING
    at_least: float | None = None
    at_most: float | None = None
    one_of: tuple[str, ...] = ()
    source: str = ""


_LOG = "4.x:storage/.../LogConfig.java, the static CONFIG definitions"
_QUOTA = "4.1:server-common/.../QuotaConfig.java:75-86"

CONFIG_TYPES: Mapping[str, ConfigType] = MappingProxyType(
    {
        # topic configs and their broker synonyms
        "min.insync.replicas": ConfigType(
            "INT", at_least=1, source=f"{_LOG}:221; ServerLogConfigs.java:138-139"
        ),
        "unclean.leader.election.enable": ConfigType(
            "BOOLEAN", source=f"{_LOG}:133; ReplicationConfigs.java:118,158"
        ),
        "retention.ms": ConfigType("LONG", at_least=-1, source=_LOG),
        "retention.bytes": ConfigType("LONG", source=_LOG),
        "segment.ms": ConfigType("LONG", at_least=1, source=_LOG),
        # its lower bound moved (14 bytes in 3.x, 1 MiB in 4.x): only the type is judged
        "segment.bytes": ConfigType("INT", source=_LOG),
        "segment.jitter.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "segment.index.bytes": ConfigType("INT", at_least=4, source=_LOG),
        "flush.messages": ConfigType("LONG", at_least=1, source=_LOG),
        "flush.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "index.interval.bytes": ConfigType("INT", at_least=0, source=_LOG),
        "file.delete.delay.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "max.compaction.lag.ms": ConfigType("LONG", at_least=1, source=_LOG),
        "message.timestamp.before.max.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "message.timestamp.after.max.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "local.retention.ms": ConfigType("LONG", at_least=-2, source=_LOG),
        "local.retention.bytes": ConfigType("LONG", at_least=-2, source=_LOG),
        "max.message.bytes": ConfigType("INT", at_least=0, source=_LOG),
        "delete.retention.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "min.compaction.lag.ms": ConfigType("LONG", at_least=0, source=_LOG),
        "min.cleanable.dirty.ratio": ConfigType("DOUBLE", at_least=0, at_most=1, source=_LOG),
        "preallocate": ConfigType("BOOLEAN", source=_LOG),
        "message.timestamp.type": ConfigType(
            "STRING", one_of=("CreateTime", "LogAppendTime"), source=_LOG
        ),
        # replication throttles (broker, dynamic only)
        "leader.replication.throttled.rate": ConfigType("LONG", at_least=0, source=_QUOTA),
        "follower.replication.throttled.rate": ConfigType("LONG", at_least=0, source=_QUOTA),
        "replica.alter.log.dirs.io.max.bytes.per.second": ConfigType(
            "LONG", at_least=0, source=_QUOTA
        ),
    }
)

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DOUBLE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?")


def invalid_config_value(key: str, value: str) -> str | None:
    """Kafka's message refusing ``key=value``, or None when it is valid or not judged (the
    listed keys have the same type at broker and topic level)."""
    spec = CONFIG_TYPES.get(key)
    if spec is None:
        return None
    why = _why(spec, value.strip())
    return None if why is None else f"Invalid value {value} for configuration {key}: {why}"


def _why(spec: ConfigType, text: str) -> str | None:
    if spec.type == "BOOLEAN":
        ok = text.lower() in ("true", "false")
        return None if ok else "Expected value to be either true or false"
    if spec.type == "STRING":
        if spec.one_of and text not in spec.one_of:
            return "String must be one of: " + ", ".join(spec.one_of)
        return None
    number: float
    if spec.type in ("INT", "LONG"):
        low, high = INT_RANGE if spec.type == "INT" else LONG_RANGE
        if not _INTEGER.fullmatch(text) or not low <= int(text) <= high:
            return f"Not a number of type {spec.type}"
        number = int(text)
    else:
        if not _DOUBLE.fullmatch(text):
            return f"Not a number of type {spec.type}"
        number = float(text.rstrip("fFdD"))
    if spec.at_least is not None and number < spec.at_least:
        return f"Value must be at least {_show(spec.at_least)}"
    if spec.at_most is not None and number > spec.at_most:
        return f"Value must be no more than {_show(spec.at_most)}"
    return None


def _show(bound: float) -> str:
    """As Java prints the bound: ints as ints, doubles with a fraction (``1.0``)."""
    return str(int(bound)) if float(bound).is_integer() and isinstance(bound, int) else str(bound)
