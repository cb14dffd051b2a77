"""The describe() parser's fast path: real output, byte for byte, read without Lark.

``Topology#describe()`` prints the same few line shapes every time. :func:`read` takes a text
made only of them (a ``Topologies:`` or ``Topology: <name>:`` header at column 1, sub-topology
headers, nodes exactly as Kafka prints them, empty lines between blocks) and builds the model
from one ``findall`` over the whole text, every line of it part of an item of one regex (a line
of no known shape too, which ends the fast path); :func:`fast_nodes` does the same for one run
of nodes inside the Lark path, which reads everything else. Anything that does not fit, or that
the Lark path would reject or read another way (an empty item, a duplicate, a name no node
declares, a ``(`` in a payload, a node named ``none``), makes them give up, and the Lark path
reads the text: the fast path never raises and never decides what a text means.

Nodes are built inline as instances of the model classes' mutable twins, the other objects
through ``fast_model``, which says why and keeps positions across texts. A property test holds
the fast path to the plain reader (the Lark path on its own): equal models, positions included.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from typing import Any

from linter.topology import fast_model
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

__all__ = ["fast_nodes", "read"]

EMPTY: frozenset[str] = frozenset()
_MAX_ID = 2**31 - 1  # describe() prints the id of a sub-topology, a Java int

# Every line of a text is part of one item of `_LINES` (a node is one item with its arrow lines),
# so that one findall reads a whole text and skips no line. A node exactly as Kafka prints it:
# names of printable ASCII without `(` or `,` and with single spaces inside, at four spaces
# (column 5: describe() indents every node so), each kind with its payload keyword and its
# arrow lines; the regex checks what each kind must look like, so the loop over the items only
# builds them. Every repeat is possessive (`*+`, `++`): what it takes ends where the next
# literal starts (a payload ends at its first `]` or `)`), so the engine never backtracks into
# it nor saves a state to come back to. The name's characters are a class of three ranges,
# which sre tests as one bitmap lookup per character (two ranges are tested range by range;
# `\s` calls a category function). A name that does not fit (a comma, a tab, a double space, a
# character outside ASCII) leaves its line to the last alternative, and the text to the Lark
# path. A `-->`/`<--` list is taken as printed: an item with a space around it names no node,
# so the block check sends the text to the Lark path. Any other line (a header, an empty line,
# a line the reader refuses, a node indented otherwise) is the last group, whole: the fewer the
# groups, the less findall and the engine do per item (the indentation of those lines as a
# group of its own was 1% of a parse of a large text, though few lines are of that kind), and
# a node's item has no indentation to make a string of (every node the fast path reads is at
# _COLUMN). Anchored at line starts: unanchored, findall retried at every `Source:` inside one
# long line, each try scanning to the line's end.
_NAME_CHAR = r"[!-')-+\--~]"
_NAME = rf"({_NAME_CHAR}++(?: {_NAME_CHAR}++)*+)"
_LIST = r"(.++)"
_LINES = re.compile(
    r"^(?:    (?:"
    rf"Processor: {_NAME} \(stores: \[([^\]\n]*+)\]\)\n *+--> {_LIST}\n *+<-- {_LIST}\n"
    rf"|Source: {_NAME} \(topics: ([^)\n]*+)\)\n *+--> {_LIST}\n"
    rf"|Sink: {_NAME} \((?:topic: ([^)\n]*+)|extractor class: ([^)\n]*+))\)\n *+<-- {_LIST}\n"
    r")|([^\n]*+\n))",
    re.MULTILINE,
)
_COLUMN = 5  # of every node the fast path reads
# The header lines among the other lines.
_HEADER = re.compile(
    r"Sub-topology: ([0-9]{1,10})( for global store \(will not generate tasks\))?\n"
    r"|(Topologies:|Topology: ([^\n]*):)\n"
)
_NAMED = re.compile(r"[^\s:]")

Item = tuple[str, ...]


def fast_nodes(
    text: str,
    line: int,
    nodes: list[Node],
    names: list[str],
    mentioned: set[str],
    bare_topics: bool = False,
) -> bool:
    """Build the nodes of a run of nodes (``text``, whole lines from line ``line`` on) in one
    pass when all of them are real output, byte for byte, with their names, and collect the
    names their lists mention (the caller checks them against the block; a list naming the
    node printed next to it alone names a node of the block, and is left out). False when a node
    needs the careful path (``nodes`` then holds a partial result), and for a Source without
    brackets where ``bare_topics`` says its payload may be a topic list (a global store's)."""
    found = _LINES.findall(text)
    # One `(` per node: no payload holds one either, so there is no doubt where payloads start.
    if text.count("(") != len(found) or text[-1:] != "\n" or not fast_model.TWINS:
        return False
    sets: dict[str, frozenset[str]] = {"none": EMPTY}
    read = _nodes(iter(found), line, nodes, names, sets, bare_topics, {}, [])
    if read is None or read[1] is not None or "none" in names:
        return False
    mentioned.update(*sets.values())
    return True


# One function on purpose, longer than the others: its loop body runs once per node, and the
# per-kind helpers it would otherwise call cost a call per node, measurably slower on large texts.
def _nodes(
    items: Iterator[Item],
    line: int,
    nodes: list[Node],
    names: list[str],
    sets: dict[str, frozenset[str]],
    bare_topics: bool,
    outs: dict[str, frozenset[str]],
    later: list[tuple[str, str]],
) -> tuple[int, Item | None, int] | None:
    """Build nodes from ``items`` (the first on line ``line``) up to the first item that is not
    a node; answer the line after the nodes, that item (None at the end) and the balance of the
    arrows, or None when a node needs the careful path. ``sets`` maps `-->`/`<--` lists read to
    their sets.

    The arrows: describe() prints each edge at both ends, so the `-->` edges are the `<--` ones
    when there are as many of each (the balance, `-->` edges less `<--` ones, is 0) and each
    `<--` edge is a `-->` one too. An edge printed alone at both ends by two nodes printed one
    after the other (`--> b` under `a`, then `b` with `<-- a`: most nodes of a chain) is both,
    and counts on neither side. A `<--` edge from a node whose `-->` list is read already is
    looked up in that list here (``outs``: those lists, by node, but for the lists of one such
    edge); the others are put in ``later``, for the caller to look up in ``outs`` once the
    block is read. An edge found at one end only answers None.

    A list that names the node printed just after (`-->`) or just before (`<--`) alone is the
    set of that node's name, made from the name (its hash made once, and needed anyway) and
    shared by both lists; only the other lists are looked up in ``sets`` (a lookup hashes the
    new string of the list first). A node's `-->` list is known to be one of these when the
    next node is read, so a node with a `-->` line stays a twin until then."""
    twin_position, twin_processor, twin_source, twin_sink = fast_model.TWINS[:4]
    column = _COLUMN
    rows = fast_model.kept_rows(column)
    kept_lines = fast_model.KEPT_LINES
    empty = EMPTY
    # One set per distinct list: sharing the immutable set saves making it again.
    # The last node: its name, the set of its name alone (None: not made), its `-->` list as
    # printed (None: no list, or set already) and the node itself while its successors are not
    # set (and then the class it is made an instance of).
    last, own, printed = "", None, None
    waiting: Any = None
    waiting_class: type = Processor
    node: Any
    before: frozenset[str] | None
    after = EMPTY  # the last node's `-->` set, once read
    balance = 0
    for item in items:
        (
            name,
            stores,
            successors,
            predecessors,
            source,
            topics,
            source_list,
            sink,
            topic,
            extractor,
            sink_list,
            _,
        ) = item
        this = name or source or sink
        if not this:
            break
        # made as in fast_model.position, inline: a call per node is measurably slower on large
        # texts (and a line past the kept ones is not looked up)
        position = rows.get(line) if line <= kept_lines else None
        if position is None:
            position = twin_position()
            position.line = line
            position.column = column
            position.__class__ = Position
            if line <= kept_lines:
                rows[line] = position
        # The last node's `-->` list: this node alone (never `none`: see _close), or a list to
        # look up. `mine`: the set of this node alone, when that is the list.
        mine = None
        if printed is not None:
            if printed == this:
                after = mine = waiting.successors = frozenset((this,))
            else:
                found = sets.get(printed)
                if found is None:
                    found = sets[printed] = frozenset(printed.split(", "))
                after = found
                waiting.successors = after
            waiting.__class__ = waiting_class
        if source:
            line += 2
            if printed is not None:  # a `-->` to a Source has no other end: unbalanced
                outs[last] = after
                balance += len(after)
            if "(" in topics:
                return None
            node = twin_source()
            node.name = source
            if topics[:1] == "[" and topics[-1:] == "]":
                topic_set = frozenset(topics[1:-1].split(", ")) if len(topics) > 2 else empty
                if "" in topic_set:
                    return None
                node.topics = topic_set
                node.pattern = None
            elif bare_topics:
                return None
            else:
                node.topics = empty
                node.pattern = topics
            node.position = position
            node.kind = "source"
            waiting, waiting_class, printed = node, Source, source_list
        else:
            # a processor or a sink: its `<--` list
            listed_before = predecessors or sink_list  # the one of them the item has
            if listed_before == last:
                before = own or frozenset((last,))
                if mine is None:  # the last node's list is not this node alone
                    if printed is None or this not in after:
                        return None  # the edge is printed at this end only
                    outs[last] = after
                    balance += len(after) - 1
            else:
                before = sets.get(listed_before)
                if before is None:
                    before = sets[listed_before] = frozenset(listed_before.split(", "))
                if printed is not None:
                    outs[last] = after
                    balance += len(after)
                balance -= len(before)
                for other in before:
                    listed = outs.get(other)
                    if listed is None:
                        later.append((other, this))  # not read yet, or no `-->` line
                    elif this not in listed:
                        return None
            if name:
                line += 3
                if stores:
                    store_set = frozenset(stores.split(", "))
                    if "" in store_set or "(" in stores:
                        return None  # an empty item, or no certainty where the payload starts
                else:
                    store_set = empty
                node = twin_processor()
                node.name = name
                node.stores = store_set
                node.predecessors = before
                node.position = position
                node.kind = "processor"
                waiting, waiting_class, printed = node, Processor, successors
            else:
                line += 2
                node = twin_sink()
                node.name = sink
                if "(" in topic or "(" in extractor:
                    return None
                if topic:
                    # the AK 4.4 CLI formatter prints a dynamically routed sink as `(topic: null)`
                    node.topic = None if topic == "null" else topic
                    node.extractor = None
                elif extractor:
                    node.topic = None
                    node.extractor = extractor
                else:
                    return None  # an empty payload: the careful path says what it is
                node.predecessors = before
                node.position = position
                node.kind = "sink"
                node.__class__ = Sink
                printed = None
        last, own = this, mine
        # called as methods, not bound ones kept in locals: CPython inlines such an append
        names.append(this)
        nodes.append(node)
    else:
        item = None
    if printed is not None:  # the last node's `-->` list: no node follows to name alone
        found = sets.get(printed)
        if found is None:
            found = sets[printed] = frozenset(printed.split(", "))
        after = found
        waiting.successors = after
        waiting.__class__ = waiting_class
        outs[last] = after
        balance += len(after)
    return line, item, balance


def read(text: str, path: str) -> Description | None:
    """The model of ``text`` when it is real describe() output throughout, else None (and the
    Lark path reads it). ``text`` has LF line ends, no BOM and no NUL."""
    if not fast_model.TWINS:
        return None
    # The model holds no reference cycles, so collecting while it is built only traverses the
    # many new nodes again and again (a large share of the time on a large text).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _Reader(path).read(text)
    finally:
        if enabled:
            gc.enable()


class _Reader:
    """One pass over the items of a text: headers, empty lines and the blocks' nodes."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.topologies: list[Topology] = []
        self.subs: list[Subtopology] = []  # of the topology being read
        self.names: list[str] = []  # its node names
        self.ids: set[int] = set()

    def read(self, text: str) -> Description | None:
        if text[-1:] != "\n":
            text += "\n"  # nothing follows the last line: positions stay where they were
        items = iter(_LINES.findall(text))
        topology: tuple[str | None, int] | None = None  # the open topology's name and line
        after_nodes = False  # an empty line may follow nodes (or start the text), nothing else
        line = 1
        item = next(items, None)
        while item is not None:
            other = item[-1]
            if other == "\n" and (after_nodes or topology is None):
                line, item = line + 1, next(items, None)  # an empty line
                continue
            rest = other.lstrip(" ")
            parts = _HEADER.fullmatch(rest)
            if parts is None:
                return None  # a node out of a block, or a line of no known shape
            number, suffix, header, name = parts.groups()
            indent = len(other) - len(rest)
            if header and not indent:
                if topology is not None and not self._close(*topology):
                    return None
                if header == "Topologies:":
                    topology = None, line
                elif name.endswith("Topologies") or _NAMED.search(name) is None:
                    return None  # the Lark path reads `Topology: Topologies:` as `Topologies:`
                else:
                    topology = name, line
                after_nodes = False
                line, item = line + 1, next(items, None)
            elif number and topology is not None:
                at = fast_model.position(line, indent + 1)
                block = self._block(items, int(number), bool(suffix), at)
                if block is None:
                    return None
                line, item = block
                after_nodes = True
            else:
                return None  # a line of another shape, or one out of place
        if topology is None or not self._close(*topology):
            return None
        return fast_model.description(self.topologies, self.path)

    def _block(
        self, items: Iterator[Item], number: int, is_global: bool, at: Position
    ) -> tuple[int, Item | None] | None:
        """Read the nodes of the sub-topology whose header is at ``at``; answer the line and
        the item after them, or None when anything in it is not plain real output."""
        if number > _MAX_ID or number in self.ids:
            return None
        nodes: list[Node] = []
        outs: dict[str, frozenset[str]] = {}
        later: list[tuple[str, str]] = []
        sets = {"none": EMPTY}
        read = _nodes(items, at.line + 1, nodes, self.names, sets, is_global, outs, later)
        if read is None or not nodes:
            return None
        # As many `-->` edges as `<--` ones, and each `<--` edge a `-->` one: they are the same,
        # every arrow has its other end and names a node of the block. If not, the Lark path
        # says which arrow has no other end, or names no node.
        line, item, balance = read
        if balance or (later and any(this not in outs.get(n, EMPTY) for n, this in later)):
            return None
        if is_global and sorted(node.kind for node in nodes) != ["processor", "source"]:
            return None
        self.ids.add(number)
        self.subs.append(fast_model.subtopology(number, nodes, is_global, at))
        return line, item

    def _close(self, name: str | None, line: int) -> bool:
        """End the topology being read (its header on line ``line``); False when a node name
        is there twice, in one sub-topology or two (the Lark path says where), or is `none`
        (under an arrow, no list rather than that node: checked here, not per list in the
        loop). One check for the topology: one per block too made a second set of every name."""
        subs, names = self.subs, self.names
        declared = set(names)
        if len(declared) != len(names) or "none" in declared:
            return False
        self.topologies.append(fast_model.topology(subs, name, fast_model.position(line, 1)))
        self.subs, self.names, self.ids = [], [], set()
        return True
