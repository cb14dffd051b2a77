"""Node text -> model nodes: the part of the describe() parser that reads node lines.

A NODES token (consecutive nodes of a sub-topology) that is not real output byte for byte
(:mod:`linter.topology.parse_fast` reads those) is cut node by node by :func:`split_run` and
built by :func:`build`, which tolerate hand-edited spacing and inline arrows, resolve neighbour
names that contain ``, `` and explain what is wrong. Used by :mod:`linter.topology.parse` only.
"""

from __future__ import annotations

import re

from lark import Token

from linter.topology.model import Node, Position, Processor, Sink, Source

EMPTY: frozenset[str] = frozenset()
# Kafka's rule for topic names. A bracket-less Source payload made of such names is a topic list
# where Kafka printed topics without brackets (AK 1.0, global stores before AK 2.1), else a regex.
TOPIC_LIST = re.compile(r"[a-zA-Z0-9._-]+(?:, [a-zA-Z0-9._-]+)*")


class Located(Exception):
    """A parse error before its path is known (raised by the lexer and the callbacks)."""

    def __init__(self, line: int, column: int, expected: str, found: str):
        super().__init__(line, column, expected, found)
        self.line, self.column, self.expected, self.found = line, column, expected, found


def quote(text: str, limit: int = 60) -> str:
    text = text.rstrip("\n")
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


# A node cut into parts: kind, payload keyword, name, payload, raw `-->` list, raw `<--` list,
# position, and the node's text (to locate a wrong name in an error). A tuple: it is built
# once per node on the hot path.
Raw = tuple[str, str, str, str, str | None, str | None, Position, str]

_ONE_NODE = re.compile(
    r"[ \t]*(?:Source|Processor|Sink):.*(?:\n|\Z)(?:[ \t]*(?:-->|<--).*(?:\n|\Z))*"
)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "Source": ("(topics:",),
    "Processor": ("(stores:",),
    "Sink": ("(topic:", "(extractor class:"),
}


def split_run(token: Token) -> list[Raw]:
    """Cut a NODES token into raw nodes, whatever their spacing (the careful path)."""
    raws: list[Raw] = []
    text = str(token)
    line: int = token.line  # type: ignore[assignment]
    pos, end = 0, len(text)
    while pos < end:
        one = _ONE_NODE.match(text, pos)
        assert one is not None  # the NODES terminal is a run of these
        node_text = one.group()
        raws.append(_split_node_slowly(node_text, line))
        line += node_text.count("\n")
        pos = one.end()
    return raws


def _split_node_slowly(text: str, line: int) -> Raw:
    lines = text.split("\n")
    head = lines[0].rstrip(" \t")
    body = head.lstrip(" \t")
    column = len(head) - len(body) + 1
    kind, _, rest = body.partition(":")
    rest = rest.lstrip(" \t")

    # The payload is the LAST `(keyword ...)` group: names are not validated and may contain
    # ` (`, `)` and `, `; text after the group's `)` is the condensed layout's inline arrows.
    keyword, at = _payload_start(rest, _KEYWORDS[kind])
    groups = " or ".join(f"`{k} ...)`" for k in _KEYWORDS[kind])
    if at < 0:
        raise Located(line, column, f"{groups} at the end of the {kind} line", quote(body))
    if at == 0:
        raise Located(line, column, f"a {kind} name before {groups}", quote(body))
    name = rest[:at].rstrip(" \t")
    tail = rest[at + len(keyword) :]
    if tail.startswith(" "):
        tail = tail[1:]
    successors: str | None = None
    predecessors: str | None = None
    if tail.endswith(")"):
        payload = tail[:-1]
    else:
        inline = _inline_arrows(tail)
        if inline is None:
            where = len(head) - len(tail) + 1
            raise Located(line, where, f"`)` closing `{keyword} ...`", quote(tail))
        payload, successors, predecessors = inline

    for index in range(1, len(lines)):
        arrow_line = lines[index]
        stripped = arrow_line.strip(" \t")
        if not stripped:
            continue
        arrow_column = len(arrow_line) - len(arrow_line.lstrip(" \t")) + 1
        names = stripped[3:].lstrip(" \t")
        if stripped[0] == "-":
            if successors is not None or kind == "Sink":
                raise Located(line + index, arrow_column, _arrows_of(kind), quote(stripped))
            successors = names
        else:
            if predecessors is not None or kind == "Source":
                raise Located(line + index, arrow_column, _arrows_of(kind), quote(stripped))
            predecessors = names
    if successors is None and kind != "Sink":
        raise Located(line, column, f"a `-->` line under {kind} {quote(name)}", "no `-->` line")
    if predecessors is None and kind != "Source":
        raise Located(line, column, f"a `<--` line under {kind} {quote(name)}", "no `<--` line")
    return kind, keyword, name, payload, successors, predecessors, Position(line, column), text


def _payload_start(rest: str, keywords: tuple[str, ...]) -> tuple[str, int]:
    """The keyword and offset of the payload group: the `(` that balances the line's final `)`
    when it opens a keyword (so a payload may hold `(topic: x)`), else the last keyword."""
    if rest.endswith(")"):
        depth = 0
        for index in range(len(rest) - 1, -1, -1):
            char = rest[index]
            if char == ")":
                depth += 1
            elif char == "(":
                depth -= 1
                if depth == 0:
                    for keyword in keywords:
                        if rest.startswith(keyword, index):
                            return keyword, index
                    break
    keyword, at = "", -1
    for candidate in keywords:
        found = rest.rfind(candidate)
        if found > at:
            keyword, at = candidate, found
    return keyword, at


def _arrows_of(kind: str) -> str:
    arrows = {"Source": "one `-->` line", "Processor": "one `-->` and one `<--` line"}
    return f"{arrows.get(kind, 'one `<--` line')} under a {kind}, then the next node"


def _inline_arrows(tail: str) -> tuple[str, str | None, str | None] | None:
    """``x) --> a <-- b`` (the condensed layout): the payload and both raw lists, or None."""
    cuts = [i for i in (tail.find(") -->"), tail.find(") <--")) if i >= 0]
    if not cuts:
        return None
    cut = min(cuts)
    payload, arrows = tail[:cut], tail[cut + 1 :].strip(" \t")
    successors: str | None = None
    predecessors: str | None = None
    if arrows.startswith("-->"):
        left, sep, right = arrows[3:].partition(" <-- ")
        successors = left.strip(" \t")
        if sep:
            predecessors = right.strip(" \t")
    else:
        predecessors = arrows[3:].strip(" \t")
    return payload, successors, predecessors


def _names(raw: str | None, declared: set[str], node: Raw, strict: bool) -> frozenset[str]:
    """A ``-->``/``<--`` list as a set of node names of the same sub-topology."""
    if raw is None or raw == "none" or not raw:
        return EMPTY
    names = frozenset(raw.split(", "))
    if names <= declared:
        return names
    resolved = _resolve(raw, declared)
    if resolved is not None:
        return resolved
    if not strict:
        return names
    missing = next(item for item in raw.split(", ") if item not in declared)
    line, column = _locate(node, raw, missing)
    raise Located(line, column, "the name of a node of this sub-topology", quote(missing))


def _resolve(raw: str, declared: set[str]) -> frozenset[str] | None:
    """Cut ``raw`` into declared names joined by ``, `` when names themselves contain ``, ``.

    Shortest piece first, as long as the rest can be cut too. Iterative, from the end of the
    list (a recursion per item hit the recursion limit on long lists), and a piece spans at most
    as many ``, ``-parts as the longest declared name, so the work is linear in the list."""
    ends: list[int] = []
    at = raw.find(", ")
    while at >= 0:
        ends.append(at)
        at = raw.find(", ", at + 2)
    starts = [0, *(i + 2 for i in ends)]
    ends.append(len(raw))
    count = len(starts)
    most = 1 + max((name.count(", ") for name in declared), default=0)
    after: list[int] = [-1] * count + [count]  # after[k]: where the rest starts, -1: no cut
    for k in range(count - 1, -1, -1):
        for j in range(k + 1, min(k + most, count) + 1):
            if after[j] >= 0 and raw[starts[k] : ends[j - 1]] in declared:
                after[k] = j
                break
    if after[0] < 0:
        return None
    pieces: list[str] = []
    k = 0
    while k < count:
        pieces.append(raw[starts[k] : ends[after[k] - 1]])
        k = after[k]
    return frozenset(pieces)


def _locate(node: Raw, raw: str, item: str) -> tuple[int, int]:
    """Line and column of ``item`` of the list ``raw`` in a node's text (error path only)."""
    position, lines = node[6], node[7].split("\n")
    for index in reversed(range(len(lines))):
        at = lines[index].rfind(raw)
        if at >= 0:
            return position.line + index, at + raw.find(item) + 1
    return position.line, position.column


def as_set(inner: str) -> frozenset[str]:
    return frozenset(inner.split(", ")) if inner else EMPTY


def _items(payload: str, position: Position) -> frozenset[str]:
    """The items of a bracketed ``[a, b]`` payload; a Java Set never prints an empty one, and an
    empty name would print as ``[]`` (no item at all)."""
    items = as_set(payload[1:-1])
    if "" in items:
        expected = "names separated by `, ` inside `[...]`"
        raise Located(position.line, position.column, expected, quote(payload))
    return items


def build(raws: list[Raw], declared: set[str], strict: bool, bare_topics: bool) -> list[Node]:
    nodes: list[Node] = []
    append = nodes.append
    for raw in raws:
        kind, keyword, name, payload, successors, predecessors, position, _ = raw
        # the neighbour lists, inline for the common case: every name declared in the block
        if successors is None or successors == "none":
            after = EMPTY
        else:
            after = frozenset(successors.split(", "))
            if not after <= declared:
                after = _names(successors, declared, raw, strict)
        if predecessors is None or predecessors == "none":
            before = EMPTY
        else:
            before = frozenset(predecessors.split(", "))
            if not before <= declared:
                before = _names(predecessors, declared, raw, strict)
        bracketed = payload[:1] == "[" and payload[-1:] == "]"
        if kind == "Processor":
            if not bracketed:
                expected = "`(stores: [...])`"
                raise Located(position.line, position.column, expected, quote(payload))
            append(Processor(name, _items(payload, position), after, before, position))
        elif kind == "Source":
            if bracketed:
                append(Source(name, _items(payload, position), None, after, position))
            elif bare_topics and TOPIC_LIST.fullmatch(payload):
                append(Source(name, as_set(payload), None, after, position))
            else:
                append(Source(name, EMPTY, payload, after, position))
        else:
            if keyword == "(extractor class:":
                append(Sink(name, None, payload, before, position))
            else:
                # the AK 4.4 CLI formatter prints a dynamically routed sink as `(topic: null)`
                append(Sink(name, None if payload == "null" else payload, None, before, position))
    return nodes
