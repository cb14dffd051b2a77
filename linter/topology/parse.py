"""describe() text -> :class:`~linter.topology.model.Description`.

``grammar.lark`` (Lark, LALR) gives the structure: headers, sub-topology blocks, the AK 1.0
sections. Its terminals are whole lines, and a block's nodes (node lines with their ``-->`` /
``<--`` lines) are one token, so the parser handles a few tokens per sub-topology. A small
lexer drives the grammar's terminals as one regex over the text, the transformer runs inside the
parser (``transformer=``, no tree), and the block callback cuts the node run into nodes: one
regex match per node in real output, a slower path for anything hand-edited, which also
explains errors. Every model object records the line and column where it starts.

Tolerated besides real output of AK 1.0 - 4.4: text around the description (a log prefix on
the header line, log lines before and after it), a missing ``Topologies:`` line, CRLF, tabs and
ragged indentation, trailing spaces, arrows on the node line (the condensed layout the Kafka
tutorial shows), and the AK 4.4 CLI formatter's ``(topic: null)``. Anything else raises
:class:`TopologyParseError`; a partial model is never returned.
"""

from __future__ import annotations

import codecs
import functools
import gc
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from lark import Lark, Token, Transformer
from lark.common import LexerConf
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState
from lark.utils import TextSlice

from linter.topology.errors import TopologyParseError
from linter.topology.model import (
    Description,
    Node,
    Position,
    Processor,
    Sink,
    Source,
    Subtopology,
    Topology,
)

__all__ = ["TopologyParseError", "decode", "parse", "parse_file"]

_GLOBAL_SUFFIX = "for global store (will not generate tasks)"
_EMPTY: frozenset[str] = frozenset()
_SUBTOPOLOGY_ID = re.compile(r"Sub-topology:[ \t]*([0-9]+)")
# Kafka's rule for topic names. A bracket-less Source payload made of such names is a topic list
# where Kafka printed topics without brackets (AK 1.0, global stores before AK 2.1), else a regex.
_TOPIC_LIST = re.compile(r"[a-zA-Z0-9._-]+(?:, [a-zA-Z0-9._-]+)*")

# Where the description starts: the first header, possibly behind a log prefix on its line...
_HEADER = re.compile(
    r"^[^\n]*?(?:Sub-topologies:|Topologies:|Topology(?::| -) [^\n]*:)[ \t]*$", re.MULTILINE
)
# ...or, pasted without its header, the first `Sub-topology:` line.
_HEADLESS = re.compile(r"^[ \t]*Sub-topology:", re.MULTILINE)
# Where it ends: a line in column 1 without a keyword (a log line), if no description follows.
_FOREIGN = re.compile(
    r"(?![ \t\n]|Topolog|Sub-topolog|Source:|Processor:|Sink:|-->|<--|Global|none)"
)
_CONTENT = re.compile(r"^[ \t]*(?:Sub-topology:|Source:|Processor:|Sink:|-->|<--)", re.MULTILINE)

# What each terminal is, in error messages ("expected ... but found ...").
_TERMINALS = {
    "NODES": "a node line (`Source:`, `Processor:` or `Sink:`)",
    "SUBTOPOLOGY": "`Sub-topology: <id>`",
    "TOPOLOGIES": "`Topologies:`",
    "NAMED_TOPOLOGY": "`Topology: <name>:`",
    "LEGACY_TOPOLOGY": "`Sub-topologies:`",
    "GLOBAL_STORES": "`Global Stores:`",
    "GLOBAL_STORE": "`GlobalStore: <source> (topic: <t>) --> <processor> (store: <s>)`",
    "NONE": "`none`",
    "$END": "the end of the text",
}


class _Located(Exception):
    """A parse error before its path is known (raised by the lexer and the callbacks)."""

    def __init__(self, line: int, column: int, expected: str, found: str):
        super().__init__(line, column, expected, found)
        self.line, self.column, self.expected, self.found = line, column, expected, found


def _quote(text: str, limit: int = 60) -> str:
    text = text.rstrip("\n")
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


# --- nodes -------------------------------------------------------------------------------------

# A node cut into parts: kind, payload keyword, name, payload, raw `-->` list, raw `<--` list,
# position, and the node's text (to locate a wrong name in an error). A tuple: it is built
# once per node on the hot path.
_Raw = tuple[str, str, str, str, str | None, str | None, Position, str]

# All nodes of a run, as real output prints them (greedy `.*`: the payload is the last group).
# Nodes exactly as Kafka prints them: names without `(`, single spaces, no trailing spaces,
# space-indented. Anything else does not match, and the careful path reads the block.
_FAST_NODES = re.compile(
    r"(( *)(Source|Processor|Sink): ([^\s(](?:[^(\n]*[^\s(])?) "
    r"\((topics|stores|topic|extractor class): (.*)\)\n"
    r"(?: *--> (\S(?:.*\S)?)\n)?(?: *<-- (\S(?:.*\S)?)\n)?)"
)
# The end of a run of nodes: the first line that is neither a node line nor an arrow line.
_RUN_END = re.compile(r"\n(?![ \t]*(?:Source:|Processor:|Sink:|-->|<--))")
_ONE_NODE = re.compile(
    r"[ \t]*(?:Source|Processor|Sink):.*(?:\n|\Z)(?:[ \t]*(?:-->|<--).*(?:\n|\Z))*"
)
_first = operator.itemgetter(0)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "Source": ("(topics:",),
    "Processor": ("(stores:",),
    "Sink": ("(topic:", "(extractor class:"),
}


def _slot_setters() -> tuple[Callable[[Any, Any], None], ...] | None:
    """Setters of the slots of Position and Processor, for building them without ``__init__``.

    A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``; setting
    the slots directly makes the same object in half the time, which matters for the many
    processors of a large topology. Only while the classes are what this code expects (a test
    compares such objects with constructed ones); otherwise the careful path constructs them.
    """
    expected = {
        Position: ("line", "column"),
        Processor: ("name", "stores", "successors", "predecessors", "position", "kind"),
    }
    for cls, names in expected.items():
        if tuple(f.name for f in fields(cls)) != names or hasattr(cls, "__post_init__"):
            return None
    descriptors = [getattr(Position, name) for name in expected[Position]]
    descriptors += [getattr(Processor, name) for name in expected[Processor]]
    if not all(type(d).__name__ == "member_descriptor" for d in descriptors):
        return None
    return tuple(descriptor.__set__ for descriptor in descriptors)


_SETTERS = _slot_setters()


def _fast_nodes(token: Token, nodes: list[Node], mentioned: set[str]) -> bool:
    """Build the nodes of a NODES token in one pass when all of them are real output, byte for
    byte, and collect the names their lists mention (the caller checks them against the block).
    False when a node needs the careful path (``nodes`` then holds a partial result)."""
    text = str(token)
    found = _FAST_NODES.findall(text)
    # findall skips what does not match: the pieces cover the token only if none was skipped.
    # One `(` per node: no payload holds one either, so there is no doubt where payloads start.
    if sum(map(len, map(_first, found))) != len(text) or text.count("(") != len(found):
        return False
    if _SETTERS is None:
        return False
    new = object.__new__
    set_line, set_column, set_name, set_stores, set_after, set_before, set_at, set_kind = _SETTERS
    append = nodes.append
    lists: list[str] = []
    mention = lists.append
    empty = _EMPTY
    line: int = token.line  # type: ignore[assignment]
    for _, indent, kind, name, keyword, payload, successors, predecessors in found:
        position = new(Position)
        set_line(position, line)
        set_column(position, len(indent) + 1)
        if kind == "Processor":
            if (
                keyword != "stores"
                or not successors
                or not predecessors
                or payload[:1] != "["
                or payload[-1:] != "]"
            ):
                return False
            line += 3
            after = empty if successors == "none" else frozenset(successors.split(", "))
            before = empty if predecessors == "none" else frozenset(predecessors.split(", "))
            stores = frozenset(payload[1:-1].split(", ")) if len(payload) > 2 else empty
            processor = new(Processor)
            set_name(processor, name)
            set_stores(processor, stores)
            set_after(processor, after)
            set_before(processor, before)
            set_at(processor, position)
            set_kind(processor, "processor")
            append(processor)
            if after:
                mention(successors)
            if before:
                mention(predecessors)
        elif kind == "Source":
            if keyword != "topics" or not successors or predecessors:
                return False
            line += 2
            after = empty if successors == "none" else frozenset(successors.split(", "))
            if after:
                mention(successors)
            if payload[:1] == "[" and payload[-1:] == "]":
                append(Source(name, _set(payload[1:-1]), None, after, position))
            else:
                append(Source(name, empty, payload, after, position))
        else:
            if successors or not predecessors:
                return False
            line += 2
            before = empty if predecessors == "none" else frozenset(predecessors.split(", "))
            if before:
                mention(predecessors)
            if keyword == "topic":
                # the AK 4.4 CLI formatter prints a dynamically routed sink as `(topic: null)`
                append(Sink(name, None if payload == "null" else payload, None, before, position))
            elif keyword == "extractor class":
                append(Sink(name, None, payload, before, position))
            else:
                return False
    if lists:
        mentioned.update(", ".join(lists).split(", "))
    return True


def _split_run(token: Token) -> list[_Raw]:
    """Cut a NODES token into raw nodes, whatever their spacing (the careful path)."""
    raws: list[_Raw] = []
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


def _split_node_slowly(text: str, line: int) -> _Raw:
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
        raise _Located(line, column, f"{groups} at the end of the {kind} line", _quote(body))
    if at == 0:
        raise _Located(line, column, f"a {kind} name before {groups}", _quote(body))
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
            raise _Located(line, where, f"`)` closing `{keyword} ...`", _quote(tail))
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
                raise _Located(line + index, arrow_column, _arrows_of(kind), _quote(stripped))
            successors = names
        else:
            if predecessors is not None or kind == "Source":
                raise _Located(line + index, arrow_column, _arrows_of(kind), _quote(stripped))
            predecessors = names
    if successors is None and kind != "Sink":
        raise _Located(line, column, f"a `-->` line under {kind} {name!r}", "no `-->` line")
    if predecessors is None and kind != "Source":
        raise _Located(line, column, f"a `<--` line under {kind} {name!r}", "no `<--` line")
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


def _names(raw: str | None, declared: set[str], node: _Raw, strict: bool) -> frozenset[str]:
    """A ``-->``/``<--`` list as a set of node names of the same sub-topology."""
    if raw is None or raw == "none" or not raw:
        return _EMPTY
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
    raise _Located(line, column, "the name of a node of this sub-topology", _quote(missing))


def _resolve(raw: str, declared: set[str]) -> frozenset[str] | None:
    """Cut ``raw`` into declared names joined by ``, `` when names themselves contain ``, ``."""

    @functools.cache
    def cut(start: int) -> tuple[str, ...] | None:
        end = raw.find(", ", start)
        while True:
            piece = raw[start:] if end < 0 else raw[start:end]
            if piece in declared:
                if end < 0:
                    return (piece,)
                rest = cut(end + 2)
                if rest is not None:
                    return (piece, *rest)
            if end < 0:
                return None
            end = raw.find(", ", end + 2)

    found = cut(0)
    return None if found is None else frozenset(found)


def _locate(node: _Raw, raw: str, item: str) -> tuple[int, int]:
    """Line and column of ``item`` of the list ``raw`` in a node's text (error path only)."""
    position, lines = node[6], node[7].split("\n")
    for index in reversed(range(len(lines))):
        at = lines[index].rfind(raw)
        if at >= 0:
            return position.line + index, at + raw.find(item) + 1
    return position.line, position.column


def _set(inner: str) -> frozenset[str]:
    return frozenset(inner.split(", ")) if inner else _EMPTY


def _build(raws: list[_Raw], declared: set[str], strict: bool, bare_topics: bool) -> list[Node]:
    nodes: list[Node] = []
    append = nodes.append
    for raw in raws:
        kind, keyword, name, payload, successors, predecessors, position, _ = raw
        # the neighbour lists, inline for the common case: every name declared in the block
        if successors is None or successors == "none":
            after = _EMPTY
        else:
            after = frozenset(successors.split(", "))
            if not after <= declared:
                after = _names(successors, declared, raw, strict)
        if predecessors is None or predecessors == "none":
            before = _EMPTY
        else:
            before = frozenset(predecessors.split(", "))
            if not before <= declared:
                before = _names(predecessors, declared, raw, strict)
        bracketed = payload[:1] == "[" and payload[-1:] == "]"
        if kind == "Processor":
            if not bracketed:
                expected = "`(stores: [...])`"
                raise _Located(position.line, position.column, expected, _quote(payload))
            append(Processor(name, _set(payload[1:-1]), after, before, position))
        elif kind == "Source":
            if bracketed:
                append(Source(name, _set(payload[1:-1]), None, after, position))
            elif bare_topics and _TOPIC_LIST.fullmatch(payload):
                append(Source(name, _set(payload), None, after, position))
            else:
                append(Source(name, _EMPTY, payload, after, position))
        else:
            if keyword == "(extractor class:":
                append(Sink(name, None, payload, before, position))
            else:
                # the AK 4.4 CLI formatter prints a dynamically routed sink as `(topic: null)`
                append(Sink(name, None if payload == "null" else payload, None, before, position))
    return nodes


# --- structure ---------------------------------------------------------------------------------


def _position(token: Token) -> Position:
    text = str(token)
    indent = len(text) - len(text.lstrip(" \t"))
    return Position(token.line, token.column + indent)  # type: ignore[operator,arg-type]


class _Builder(Transformer[Token, Description]):
    """The parser's callbacks: they build the model while parsing."""

    def __init__(self, strict: bool):
        super().__init__(visit_tokens=False)
        self.strict = strict

    def block(self, children: list[Token]) -> Subtopology:
        header = children[0]
        number = _SUBTOPOLOGY_ID.search(header)
        assert number is not None  # the SUBTOPOLOGY terminal guarantees it
        is_global = _GLOBAL_SUFFIX in header
        nodes: list[Node] = []
        mentioned: set[str] = set()
        fast = not is_global and all(_fast_nodes(run, nodes, mentioned) for run in children[1:])
        declared = {node.name for node in nodes}
        if not fast or not mentioned <= declared or len(declared) != len(nodes):
            # the careful path: hand-edited text, names with `, `, bare topics, or an error
            raws = [raw for run in children[1:] for raw in _split_run(run)]
            declared = {raw[2] for raw in raws}
            if len(declared) != len(raws):
                _reject_duplicate([(raw[2], raw[6]) for raw in raws])
            nodes = _build(raws, declared, self.strict, is_global)
        position = _position(header)
        if is_global and sorted(node.kind for node in nodes) != ["processor", "source"]:
            kinds = ", ".join(node.kind for node in nodes)
            expected = "one Source and one Processor in a global-store block"
            raise _Located(position.line, position.column, expected, kinds)
        return Subtopology(int(number[1]), frozenset(nodes), is_global, position)

    def headless(self, children: list[Subtopology]) -> Topology:
        return _topology(children, None, children[0].position, "describe")

    def plain_topology(self, children: list[Any]) -> Topology:
        return _topology(children[1:], None, _position(children[0]), "describe")

    def named_topology(self, children: list[Any]) -> Topology:
        header = children[0].strip(" \t\n")
        name = header[len("Topology: ") if header[8] == ":" else len("Topology - ") : -1]
        return _topology(children[1:], name, _position(children[0]), "describe")

    def legacy_blocks(self, children: list[Any]) -> list[Subtopology]:
        return [child for child in children if isinstance(child, Subtopology)]

    def legacy_no_globals(self, children: list[Token]) -> list[Subtopology]:
        return []

    def legacy_globals(self, children: list[Token]) -> list[Subtopology]:
        return [_legacy_global_store(token) for token in children[1:]]

    def legacy_topology(self, children: list[Any]) -> Topology:
        subs = [_legacy_topics(sub) for sub in children[1]]
        next_id = max((sub.id for sub in subs), default=-1) + 1
        stores = children[2] if len(children) > 2 else []
        subs.extend(replace(store, id=next_id + index) for index, store in enumerate(stores))
        return _topology(subs, None, _position(children[0]), "legacy-1.0")

    def description(self, children: list[Topology]) -> Description:
        return Description(tuple(children))


def _reject_duplicate(named: list[tuple[str, Position]]) -> None:
    seen: set[str] = set()
    for name, where in named:
        if name in seen:
            found = f"a second node {name!r}"
            raise _Located(where.line, where.column, "node names unique in a topology", found)
        seen.add(name)


def _topology(
    subs: list[Subtopology],
    name: str | None,
    position: Position,
    layout: Literal["describe", "legacy-1.0"],
) -> Topology:
    ids: set[int] = set()
    for sub in subs:
        if sub.id in ids:
            where = sub.position
            expected = "sub-topology ids unique in a topology"
            raise _Located(where.line, where.column, expected, f"a second id {sub.id}")
        ids.add(sub.id)
    if len(subs) > 1 and len({n.name for sub in subs for n in sub.nodes}) != sum(
        len(sub.nodes) for sub in subs
    ):
        named = [(node.name, node.position) for sub in subs for node in sub.nodes]
        _reject_duplicate(sorted(named, key=lambda item: (item[1].line, item[1].column)))
    return Topology(tuple(subs), name, position, layout)


def _legacy_topics(sub: Subtopology) -> Subtopology:
    """AK 1.0 printed a source's topics without brackets: read a topic list as topics."""
    nodes = [
        replace(node, topics=_set(node.pattern), pattern=None)
        if isinstance(node, Source) and node.pattern and _TOPIC_LIST.fullmatch(node.pattern)
        else node
        for node in sub.nodes
    ]
    return replace(sub, nodes=frozenset(nodes))


_LEGACY_GLOBAL = re.compile(
    r"GlobalStore:[ \t]*(?P<source>.*?)[ \t]*\(topic: (?P<topic>.*?)\)[ \t]*-->?[ \t]*"
    r"(?P<processor>.*?)[ \t]*\(store: (?P<store>.*)\)"
)


def _legacy_global_store(token: Token) -> Subtopology:
    """AK 1.0 ``GlobalStore: src (topic: t) --> proc (store: s)``, on one line or two; its id
    is made up after the sub-topologies' (the text prints none)."""
    position = _position(token)
    text = " ".join(part.strip(" \t") for part in token.split("\n") if part.strip(" \t"))
    match = _LEGACY_GLOBAL.fullmatch(text)
    if match is None:
        raise _Located(position.line, position.column, _TERMINALS["GLOBAL_STORE"], _quote(text))
    source, processor = match["source"], match["processor"]
    nodes: tuple[Node, ...] = (
        Source(source, frozenset({match["topic"]}), None, frozenset({processor}), position),
        Processor(processor, frozenset({match["store"]}), _EMPTY, frozenset({source}), position),
    )
    return Subtopology(-1, frozenset(nodes), True, position)


# --- lexer and parser --------------------------------------------------------------------------


class _LineLexer(Lexer):
    """The grammar's terminals as one regex driven over the text, one Token per match.

    Lark's own lexer does the same with more bookkeeping per token; with terminals that are
    whole lines or node runs a tight loop is enough, and it can name what the parser expected
    when a line fits no terminal.
    """

    __future_interface__ = 2  # receive the text slice and the parser state

    def __init__(self, conf: LexerConf):
        self.ignore = frozenset(conf.ignore)
        patterns = {t.name: t.pattern.to_regexp() for t in conf.terminals}
        # NODES is NODE+. Matching it line by line is most of the lexing time, so match one
        # NODE and extend the token to the end of the run with one search: the same text.
        nodes = patterns.get("NODES", "")
        self.extend_runs = nodes.startswith("(?:") and nodes.endswith(")+")
        if self.extend_runs:
            patterns["NODES"] = nodes[:-1]
        self.regex = re.compile("|".join(f"(?P<{name}>{p})" for name, p in patterns.items()))

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text_slice = lexer_state.text
        text, pos, end = text_slice.text, text_slice.start, text_slice.end
        assert isinstance(text, str)
        line = text.count("\n", 0, pos) + 1
        line_start = text.rfind("\n", 0, pos) + 1
        match = self.regex.match
        ignore = self.ignore
        extend_runs = self.extend_runs
        while pos < end:
            found = match(text, pos, end)
            if found is None:
                foreign = pos == line_start and _FOREIGN.match(text, pos)
                if foreign and not _CONTENT.search(text, pos):
                    return  # a log line after the description: the end of it
                line_end = text.find("\n", pos, end)
                rest = text[pos : end if line_end < 0 else line_end]
                stripped = rest.lstrip(" \t")
                column = pos - line_start + 1 + len(rest) - len(stripped)
                expected = _expected(_acceptable(parser_state))
                raise _Located(line, column, expected, "an unknown line " + _quote(stripped))
            kind = found.lastgroup
            stop = found.end()
            if kind == "NODES" and extend_runs and text[stop - 1] == "\n" and stop < end:
                run_end = _RUN_END.search(text, stop - 1, end)
                stop = end if run_end is None else run_end.start() + 1
            value = text[pos:stop]
            if kind not in ignore:
                yield Token(kind, value, pos, line, pos - line_start + 1)  # type: ignore[arg-type]
            newlines = value.count("\n")
            if newlines:
                line += newlines
                line_start = pos + value.rfind("\n") + 1
            pos = stop


def _acceptable(parser_state: Any) -> set[str]:
    try:
        return set(parser_state.parse_conf.parse_table.states[parser_state.position])
    except (AttributeError, KeyError, TypeError):  # pragma: no cover - Lark internals moved
        return set(_TERMINALS)


def _expected(names: set[str]) -> str:
    ordered = [text for key, text in _TERMINALS.items() if key in names]
    if not ordered:
        return "the end of the text"
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]


@functools.cache
def _parser(strict: bool) -> Lark:
    grammar = resources.files("linter.topology").joinpath("grammar.lark").read_text("utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer=_LineLexer,
        transformer=_Builder(strict),
        # Each model object records the line and column of its token (or of its node inside a
        # run); with no tree built, this only matters for callbacks that would return trees.
        propagate_positions=True,
    )


# --- entry points ------------------------------------------------------------------------------


def parse(text: str, path: str = "<text>", *, strict: bool = True) -> Description:
    """Parse a describe() text (see the module docstring for what is tolerated).

    ``strict=False`` keeps ``-->``/``<--`` names that no node of the sub-topology declares
    (the AK 4.4 CLI formatter's samples have them) instead of rejecting them.
    """
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _line_column(text, nul)
        raise TopologyParseError(path, line, column, "a text character", "a NUL character")
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # a BOM that survived decoding; keep the columns
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    try:
        start = _start(text)
        enabled = gc.isenabled()
        # the model holds no reference cycles: the cycle collector, run again and again while
        # tens of thousands of objects are made, would only add a third to the time
        gc.disable()
        try:
            result = _parser(strict).parse(TextSlice(text, start, len(text)))
        finally:
            if enabled:
                gc.enable()
    except _Located as error:
        raise TopologyParseError(
            path, error.line, error.column, error.expected, error.found
        ) from None
    except UnexpectedInput as error:
        raise _lark_error(error, text, path) from None
    assert isinstance(result, Description)
    return replace(result, path=path)


def parse_file(path: str | Path) -> Description:
    """Read and parse a file: UTF-8 with or without BOM, or UTF-16 with a BOM."""
    p = Path(path)
    return parse(decode(p.read_bytes(), str(p)), str(p))


def decode(data: bytes, path: str = "<bytes>") -> str:
    """Decode a describe() file; undecodable bytes are a located :class:`TopologyParseError`."""
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    encoding = "utf-16" if utf16 else "utf-8-sig"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        good = data[: error.start].decode(encoding, errors="replace")
        line, column = _line_column(good, len(good))
        found = f"byte 0x{data[error.start]:02x}, which is not {'UTF-16' if utf16 else 'UTF-8'}"
        raise TopologyParseError(path, line, column, "UTF-8 or UTF-16 text", found) from None


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _start(text: str) -> int:
    """Where the description starts in text that may come from a log (the lexer finds where
    it ends)."""
    header = _HEADER.search(text)
    if header is not None:
        line = header.group(0).rstrip(" \t")
        if line.endswith("Sub-topologies:"):
            start = header.start() + len(line) - len("Sub-topologies:")
        elif line.endswith("Topologies:"):
            start = header.start() + len(line) - len("Topologies:")
        else:
            found = [i for i in (line.find("Topology: "), line.find("Topology - ")) if i >= 0]
            start = header.start() + min(found)
    else:
        headless = _HEADLESS.search(text)
        if headless is None:
            first = text.lstrip()
            line_no, column = _line_column(text, len(text) - len(first))
            what = _quote(first.split("\n", 1)[0]) if first else "an empty text"
            raise _Located(line_no, column, "a describe() text, from `Topologies:` on", what)
        start = headless.start()
    return start


def _lark_error(error: UnexpectedInput, text: str, path: str) -> TopologyParseError:
    expected = _expected(set(getattr(error, "expected", ()) or ()))
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        position = _position(error.token)
        first = str(error.token).split("\n", 1)[0].strip(" \t")
        return TopologyParseError(path, position.line, position.column, expected, _quote(first))
    line, column = _line_column(text, len(text.rstrip()))
    return TopologyParseError(path, line, column, expected, "the end of the text")
