"""``kafka-broker-api-versions.sh``: one block per node, ``host:port (id: N rack: R
[isFenced: B]) -> (`` then one ``<Api>(<key>): ...`` line per API and ``)``.

Format: 4.1 tools/.../BrokerApiVersionsCommand.java:88-94, clients/.../NodeApiVersions.java
:182-241, common/Node.java:154-156 (`` isFenced:`` from 4.0). A failed node prints
``<node> -> ERROR: <message>``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cluster_engine.ingest.text import Line, fail

_NODE = re.compile(
    r"^(?P<host>.+):(?P<port>\d+) \(id: (?P<id>-?\d+) rack: (?P<rack>\S+)"
    r"(?: isFenced: (?P<fenced>true|false))?\) -> (?P<rest>\(|ERROR: .*)$"
)
_API = re.compile(
    r"^(?P<name>\w+)\((?P<key>\d+)\): (?:(?P<unsupported>UNSUPPORTED)|(?P<min>\d+)"
    r"(?: to (?P<max>\d+))? \[(?:usable: (?P<usable>\d+)|unusable: (?P<why>[^\]]+))\]),?$"
)


@dataclass(frozen=True, slots=True)
class ApiVersion:
    name: str
    key: int
    min: int | None  # None: UNSUPPORTED
    max: int | None
    usable: int | None


@dataclass(frozen=True, slots=True)
class NodeApiVersions:
    line: int
    host: str
    port: int
    node_id: int
    rack: str | None
    fenced: bool | None  # None: not printed (3.x)
    error: str | None
    apis: tuple[ApiVersion, ...]


@dataclass(frozen=True, slots=True)
class ApiVersionsOutput:
    nodes: tuple[NodeApiVersions, ...]


def starts(line: Line) -> bool:
    return _NODE.match(line.stripped) is not None


def parse(path: str, lines: Sequence[Line], start: int) -> tuple[ApiVersionsOutput, int]:
    nodes: list[NodeApiVersions] = []
    i = start
    while i < len(lines) and (i == start or not lines[i].after_break):
        head = _NODE.match(lines[i].stripped)
        if head is None:
            break
        line = lines[i]
        i += 1
        apis: list[ApiVersion] = []
        error = head["rest"][len("ERROR: ") :] if head["rest"] != "(" else None
        if error is None:
            while True:
                if i >= len(lines):
                    raise fail(path, lines[-1], "API list not closed with ')'")
                text = lines[i].stripped
                i += 1
                if text == ")":
                    break
                m = _API.match(text)
                if m is None:
                    raise fail(
                        path,
                        lines[i - 1],
                        "expected '<Api>(<key>): <min> to <max> [usable: <n>]' or 'UNSUPPORTED'",
                    )
                apis.append(_api(m))
        rack = head["rack"]
        nodes.append(
            NodeApiVersions(
                line=line.number,
                host=head["host"],
                port=int(head["port"]),
                node_id=int(head["id"]),
                rack=None if rack == "null" else rack,
                fenced=None if head["fenced"] is None else head["fenced"] == "true",
                error=error,
                apis=tuple(apis),
            )
        )
    return ApiVersionsOutput(tuple(nodes)), i


def _api(m: re.Match[str]) -> ApiVersion:
    if m["unsupported"]:
        return ApiVersion(m["name"], int(m["key"]), None, None, None)
    low = int(m["min"])
    high = int(m["max"]) if m["max"] else low
    return ApiVersion(
        m["name"], int(m["key"]), low, high, int(m["usable"]) if m["usable"] else None
    )
