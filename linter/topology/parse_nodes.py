"""Node text -> model nodes: the part of the describe() parser that reads node lines.

A NODES token (consecutive nodes of a sub-topology) is read by :func:`fast_nodes` when it is
real output byte for byte (one regex for all its nodes), else cut node by node by
:func:`split_run` and built by :func:`build`, which tolerate hand-edited spacing and inline
arrows, resolve neighbour names that contain ``, `` and explain what is wrong. Both read a
node the same way (a test holds them to it). Used by :mod:`linter.topology.parse` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields
from typing import Any

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

# Nodes exactly as Kafka prints them: names without `(`, single spaces, no trailing spaces,
# space-indented, each kind with its payload keyword and its arrow lines. Anything else does not
# match, and the careful path reads the block. One alternative per kind: the regex checks what
# each kind must look like, so the loop over the nodes of a large topology only builds them.
# Anchored at line starts: unanchored, findall retried at every `Source:` inside one long line,
# each try scanning to the line's end: quadratic in the line's length.
_NAME = r"([^\s(](?:[^(\n]*[^\s(])?)"
_LIST = r"(\S(?:.*\S)?)"
_FAST_NODES = re.compile(
    r"^( *)(?:"
    rf"Processor: {_NAME} \(stores: \[(.*)\]\)\n *--> {_LIST}\n *<-- {_LIST}\n"
    rf"|Source: {_NAME} \(topics: (.*)\)\n *--> {_LIST}\n"
    rf"|Sink: {_NAME} \((topic|extractor class): (.*)\)\n *<-- {_LIST}\n)",
    re.MULTILINE,
)
_ONE_NODE = re.compile(
    r"[ \t]*(?:Source|Processor|Sink):.*(?:\n|\Z)(?:[ \t]*(?:-->|<--).*(?:\n|\Z))*"
)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "Source": ("(topics:",),
    "Processor": ("(stores:",),
    "Sink": ("(topic:", "(extractor class:"),
}


def _slot_setters() -> tuple[Callable[[Any, Any], None], ...] | None:
    """Setters of the slots of Position, Processor, Source and Sink, in this order, for building
    them without ``__init__``.

    A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``; setting
    the slots directly makes the same object with less work, which matters for the many
    nodes of a large topology. Only while the classes are what this code expects (a test
    compares such objects with constructed ones); otherwise the careful path constructs them.
    """
    expected: dict[type, tuple[str, ...]] = {
        Position: ("line", "column"),
        Processor: ("name", "stores", "successors", "predecessors", "position", "kind"),
        Source: ("name", "topics", "pattern", "successors", "position", "kind"),
        Sink: ("name", "topic", "extractor", "predecessors", "position", "kind"),
    }
    for cls, names in expected.items():
        if tuple(f.name for f in fields(cls)) != names or hasattr(cls, "__post_init__"):
            return None
    descriptors = [getattr(cls, name) for cls, names in expected.items() for name in names]
    if not all(type(d).__name__ == "member_descriptor" for d in descriptors):
        return None
    return tuple(descriptor.__set__ for descriptor in descriptors)


_SETTERS = _slot_setters()


def fast_nodes(
    token: Token, nodes: list[Node], mentioned: set[str], bare_topics: bool = False
) -> bool:
    """Build the nodes of a NODES token in one pass when all of them are real output, byte for
    byte, and collect the names their lists mention (the caller checks them against the block).
    False when a node needs the careful path (``nodes`` then holds a partial result), and for a
    Source without brackets where ``bare_topics`` says its payload may be a topic list (a global
    store's, see :func:`build`)."""
    text = str(token)
    found = _FAST_NODES.findall(text)
    # One `(` per node: no payload holds one either, so there is no doubt where payloads start.
    if text.count("(") != len(found) or text[-1:] != "\n" or _SETTERS is None:
        return False
    new = object.__new__
    set_line, set_column = _SETTERS[:2]
    set_name, set_stores, set_after, set_before, set_at, set_kind = _SETTERS[2:8]
    src_name, src_topics, src_pattern, src_after, src_at, src_kind = _SETTERS[8:14]
    sink_name, sink_topic, sink_extractor, sink_before, sink_at, sink_kind = _SETTERS[14:]
    append = nodes.append
    empty = EMPTY
    # A `-->`/`<--` list as a set, one set per distinct list: in a chain, a node's successors
    # and the next node's predecessors print the same name. Sharing the immutable set halves
    # the sets made (and the objects the cycle collector scans afterwards).
    sets: dict[str, frozenset[str]] = {"none": empty}
    known = sets.get
    first: int = token.line  # type: ignore[assignment]
    line = first
    for (
        indent,
        name,
        stores,
        successors,
        predecessors,
        source,
        topics,
        source_list,
        sink,
        keyword,
        target,
        sink_list,
    ) in found:
        position = new(Position)
        set_line(position, line)
        set_column(position, len(indent) + 1)
        if name:
            line += 3
            after = known(successors)
            if after is None:
                after = sets[successors] = frozenset(successors.split(", "))
            before = known(predecessors)
            if before is None:
                before = sets[predecessors] = frozenset(predecessors.split(", "))
            store_set = frozenset(stores.split(", ")) if stores else empty
            if "" in store_set:
                return False  # an empty item: the careful path reports it
            processor = new(Processor)
            set_name(processor, name)
            set_stores(processor, store_set)
            set_after(processor, after)
            set_before(processor, before)
            set_at(processor, position)
            set_kind(processor, "processor")
            append(processor)
        elif source:
            line += 2
            after = known(source_list)
            if after is None:
                after = sets[source_list] = frozenset(source_list.split(", "))
            source_node = new(Source)
            src_name(source_node, source)
            if topics[:1] == "[" and topics[-1:] == "]":
                topic_set = as_set(topics[1:-1])
                if "" in topic_set:
                    return False
                src_topics(source_node, topic_set)
                src_pattern(source_node, None)
            elif bare_topics:
                return False
            else:
                src_topics(source_node, empty)
                src_pattern(source_node, topics)
            src_after(source_node, after)
            src_at(source_node, position)
            src_kind(source_node, "source")
            append(source_node)
        else:
            line += 2
            before = known(sink_list)
            if before is None:
                before = sets[sink_list] = frozenset(sink_list.split(", "))
            sink_node = new(Sink)
            sink_name(sink_node, sink)
            if keyword == "topic":
                # the AK 4.4 CLI formatter prints a dynamically routed sink as `(topic: null)`
                sink_topic(sink_node, None if target == "null" else target)
                sink_extractor(sink_node, None)
            else:
                sink_topic(sink_node, None)
                sink_extractor(sink_node, target)
            sink_before(sink_node, before)
            sink_at(sink_node, position)
            sink_kind(sink_node, "sink")
            append(sink_node)
    mentioned.update(*sets.values())
    # findall skips what does not match, and every match is whole lines: the nodes cover the
    # token only if they account for all its lines.
    return line - first == text.count("\n")


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
