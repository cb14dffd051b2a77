"""describe() text -> :class:`~linter.topology.model.Description`.

Real output, as Kafka prints it, is read by :mod:`linter.topology.parse_fast` without Lark.
Everything else goes through ``grammar.lark`` (Lark, LALR), which gives the structure:
headers, sub-topology blocks, the AK 1.0 sections. Its terminals are whole lines, and a block's
nodes (node lines with their ``-->`` / ``<--`` lines) are one token, so the parser handles a few
tokens per sub-topology. The lexer (:mod:`linter.topology.parse_lexer`) drives the grammar's
terminals as one regex over the text, the transformer runs inside the parser
(``transformer=``, no tree), and a node run is read by the fast path's node reader when it is
real output, else by :mod:`linter.topology.parse_nodes`, which tolerates anything hand-edited
and explains errors. :func:`parse_plain` is that grammar path with no fast path at all: the
reference a property test holds the fast path to. Every model object records the line and
column where it starts.

Tolerated besides real output of AK 1.0 - 4.4: text around the description (a log prefix on
the header line, log lines before and after it), a prefix pasted on every line (a log's
timestamp or container name, a comment marker: :mod:`linter.topology.margin`), a missing
``Topologies:`` line, CRLF, tabs and ragged indentation, trailing spaces, arrows on the node
line (the condensed layout the Kafka tutorial shows), and the AK 4.4 CLI formatter's
``(topic: null)``. Anything else raises :class:`TopologyParseError`; a partial model is never
returned: a node, ``Sub-topology:`` or arrow line outside the part read as the description is
an error at that line.
"""

from __future__ import annotations

import codecs
import functools
import re
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.utils import TextSlice

from linter.inputs import label, read_bytes
from linter.topology import margin, parse_fast, parse_nodes
from linter.topology.arrows import one_sided
from linter.topology.errors import TopologyParseError
from linter.topology.model import (
    Description,
    Node,
    Position,
    Processor,
    Source,
    Subtopology,
    Topology,
)
from linter.topology.parse_lexer import TERMINALS, LineLexer, expected_text
from linter.topology.parse_nodes import EMPTY, TOPIC_LIST, Located, as_set, quote

__all__ = ["TopologyParseError", "decode", "parse", "parse_file", "parse_plain"]

_GLOBAL_SUFFIX = "for global store (will not generate tasks)"
# describe() prints the id of a sub-topology, a Java int
_MAX_ID = 2**31 - 1
_SUBTOPOLOGY_ID = re.compile(r"Sub-topology:[ \t]*([0-9]+)")

# Where the description starts: the first header, possibly behind a log prefix on its line...
# Lines ending in `:`: the candidates for a header line, found in linear time (one regex with a
# lazy prefix and `Topology: [^\n]*:` backtracked quadratically on a long line of headers).
_COLON_LINE = re.compile(r"^[^\n]*:[ \t]*$", re.MULTILINE)
# ...or, pasted without its header, the first `Sub-topology:` line (possibly behind a prefix).
_HEADLESS = re.compile(r"^[^\n]*?(?<![\w-])Sub-topology:[ \t]*[0-9]", re.MULTILINE)
# --- structure ---------------------------------------------------------------------------------


def _position(token: Token) -> Position:
    text = str(token)
    indent = len(text) - len(text.lstrip(" \t"))
    return Position(token.line, token.column + indent)  # type: ignore[operator,arg-type]


class _Builder(Transformer[Token, Description]):
    """The parser's callbacks: they build the model while parsing."""

    def __init__(self, strict: bool, fast: bool):
        super().__init__(visit_tokens=False)
        self.strict = strict
        self.fast = fast

    def block(self, children: list[Token]) -> Subtopology:
        header = children[0]
        number = _SUBTOPOLOGY_ID.search(header)
        assert number is not None  # the SUBTOPOLOGY terminal guarantees it
        position = _position(header)
        digits = number[1].lstrip("0") or "0"
        if len(digits) > len(str(_MAX_ID)) or int(digits) > _MAX_ID:
            expected = f"a sub-topology id from 0 to {_MAX_ID}"
            raise Located(position.line, position.column, expected, quote(number[1]))
        is_global = _GLOBAL_SUFFIX in header
        nodes: list[Node] = []
        mentioned: set[str] = set()
        runs = children[1:]
        names: list[str] = []
        fast = self.fast and all(
            parse_fast.fast_nodes(str(run), run.line, nodes, names, mentioned, is_global)  # type: ignore[arg-type]
            for run in runs
        )
        declared = set(names)
        if not fast or not mentioned <= declared or len(declared) != len(nodes):
            # the careful path: hand-edited text, names with `, `, bare topics, or an error
            raws = [raw for run in runs for raw in parse_nodes.split_run(run)]
            declared = {raw[2] for raw in raws}
            if len(declared) != len(raws):
                _reject_duplicate([(raw[2], raw[6]) for raw in raws])
            nodes = parse_nodes.build(raws, declared, self.strict, is_global)
        # not strict: the AK 4.4 formatter's hand-built samples, whose arrows need not agree
        lone = one_sided(nodes) if self.strict else None
        if lone is not None:
            node, arrow, other = lone
            back = "<--" if arrow == "-->" else "-->"
            expected = "`-->` and `<--` lines that agree (each edge is printed at both ends)"
            found = (
                f"{quote(other)} under `{arrow}` of {quote(node.name)}, which is not under "
                f"`{back}` of {quote(other)}"
            )
            raise Located(node.position.line, node.position.column, expected, found)
        if is_global and sorted(node.kind for node in nodes) != ["processor", "source"]:
            kinds = ", ".join(node.kind for node in nodes)
            expected = "one Source and one Processor in a global-store block"
            raise Located(position.line, position.column, expected, kinds)
        return Subtopology(int(digits), frozenset(nodes), is_global, position)

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
            found = f"a second node {quote(name)}"
            raise Located(where.line, where.column, "node names unique in a topology", found)
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
            raise Located(where.line, where.column, expected, f"a second id {sub.id}")
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
        replace(node, topics=as_set(node.pattern), pattern=None)
        if isinstance(node, Source) and node.pattern and TOPIC_LIST.fullmatch(node.pattern)
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
        raise Located(position.line, position.column, TERMINALS["GLOBAL_STORE"], quote(text))
    source, processor = match["source"], match["processor"]
    nodes: tuple[Node, ...] = (
        Source(source, frozenset({match["topic"]}), None, frozenset({processor}), position),
        Processor(processor, frozenset({match["store"]}), EMPTY, frozenset({source}), position),
    )
    return Subtopology(-1, frozenset(nodes), True, position)


# --- parser ------------------------------------------------------------------------------------


@functools.cache
def _parser(strict: bool, fast: bool) -> Lark:
    grammar = resources.files("linter.topology").joinpath("grammar.lark").read_text("utf-8")
    return Lark(
        grammar,
        parser="lalr",
        lexer=LineLexer,
        transformer=_Builder(strict, fast),
        # Each model object records the line and column of its token (or of its node inside a
        # run). No tree is built, so Lark's own position tracking would only add work.
        propagate_positions=False,
    )


# --- entry points ------------------------------------------------------------------------------


def parse(text: str, path: str = "<text>", *, strict: bool = True) -> Description:
    """Parse a describe() text (see the module docstring for what is tolerated).

    ``strict=False`` keeps ``-->``/``<--`` names that no node of the sub-topology declares
    (the AK 4.4 CLI formatter's samples have them) instead of rejecting them.
    """
    text = _normalized(text, path)
    model = parse_fast.read(text, path)  # real output, as Kafka prints it
    return model if model is not None else _read(text, path, strict, fast=True)


def parse_plain(text: str, path: str = "<text>", *, strict: bool = True) -> Description:
    """What :func:`parse` gives, read by the grammar and the careful node reader alone, without
    any fast path: the reference the fast path is held to."""
    return _read(_normalized(text, path), path, strict, fast=False)


def _normalized(text: str, path: str) -> str:
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _line_column(text, nul)
        raise TopologyParseError(path, line, column, "a text character", "a NUL character")
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # a BOM that survived decoding; keep the columns
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return text


def _read(text: str, path: str, strict: bool, fast: bool) -> Description:
    try:
        text, start, end = _bounds(text)
        result = _parser(strict, fast).parse(TextSlice(text, start, end))
    except Located as error:
        raise TopologyParseError(
            path, error.line, error.column, error.expected, error.found
        ) from None
    except UnexpectedInput as error:
        raise _lark_error(error, text, path) from None
    assert isinstance(result, Description)
    return replace(result, path=path)


def parse_file(path: str | Path) -> Description:
    """Read and parse a file (``-``: standard input): UTF-8 with or without BOM, or UTF-16 with
    a BOM."""
    p = Path(path)
    name = label(p)
    return parse(decode(read_bytes(p), name), name)


def decode(data: bytes, path: str = "<bytes>") -> str:
    """Decode a describe() file; undecodable bytes are a located :class:`TopologyParseError`."""
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    encoding = "utf-16" if utf16 else "utf-8-sig"
    sample = data[:64]
    if not utf16 and len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
        # every other byte NUL: UTF-16 saved without a BOM; say so rather than "a NUL character"
        expected = "UTF-8 text, or UTF-16 with a byte-order mark"
        raise TopologyParseError(path, 1, 1, expected, "UTF-16 without a byte-order mark")
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


def _bounds(text: str) -> tuple[str, int, int]:
    """The text with a prefix pasted on each line blanked out (see :mod:`.margin`), and where
    the description starts and ends in it (the lexer finds the end of unprefixed text); no line
    outside these bounds may look like a part of a description."""
    line_start, start = _start(text)
    end = len(text)
    stripped = margin.strip_prefix(text, line_start, start)
    if stripped is not None:
        text, end = stripped
    if start > 0:  # the lines before the header's, and the prefix on its line
        first = text.count("\n", 0, line_start) + 1
        margin.reject_stray(text, 0, start, f"before the description (from line {first})")
    if end < len(text):
        last = text.count("\n", 0, end) + 1
        where = f"after the end of the description (at line {last})"
        margin.reject_stray(text, end, len(text), where)
    return text, start, end


def _header(text: str) -> re.Match[str] | None:
    """The first line that holds a header (`Topologies:`, `Sub-topologies:`, `Topology: <name>:`,
    `Topology - <name>:`) at its end, behind any prefix."""
    for match in _COLON_LINE.finditer(text):
        line = match.group(0).rstrip(" \t")
        if line.endswith(("Sub-topologies:", "Topologies:")):
            return match
        for keyword in ("Topology: ", "Topology - "):
            at = line.find(keyword)
            if at >= 0 and at + len(keyword) < len(line):
                return match
    return None


def _start(text: str) -> tuple[int, int]:
    """Where the line of the description's first header starts, and where the header itself
    does (behind a log prefix on its line, say)."""
    header = _header(text)
    if header is not None:
        line = header.group(0).rstrip(" \t")
        if line.endswith("Sub-topologies:"):
            start = header.start() + len(line) - len("Sub-topologies:")
        elif line.endswith("Topologies:"):
            start = header.start() + len(line) - len("Topologies:")
        else:
            found = [i for i in (line.find("Topology: "), line.find("Topology - ")) if i >= 0]
            start = header.start() + min(found)
        return header.start(), start
    headless = _HEADLESS.search(text)
    if headless is None:
        first = text.lstrip()
        line_no, column = _line_column(text, len(text) - len(first))
        what = quote(first.split("\n", 1)[0]) if first else "an empty text"
        raise Located(line_no, column, "a describe() text, from `Topologies:` on", what)
    keyword = headless.group(0).rfind("Sub-topology:")
    return headless.start(), headless.start() + keyword


def _lark_error(error: UnexpectedInput, text: str, path: str) -> TopologyParseError:
    expected = expected_text(set(getattr(error, "expected", ()) or ()))
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        position = _position(error.token)
        first = str(error.token).split("\n", 1)[0].strip(" \t")
        return TopologyParseError(path, position.line, position.column, expected, quote(first))
    line, column = _line_column(text, len(text.rstrip()))
    return TopologyParseError(path, line, column, expected, "the end of the text")
