"""The describe() parser's fast path: real output, byte for byte, read without Lark.

``Topology#describe()`` prints the same few line shapes every time. :func:`read` takes a text
made only of them (a ``Topologies:`` or ``Topology: <name>:`` header at column 1, sub-topology
headers, nodes exactly as Kafka prints them, empty lines between blocks) and builds the model
with one regex per block; :func:`fast_nodes` does the same for one run of nodes inside the Lark
path, which reads everything else. Anything that does not fit, or that the Lark path would
reject or read another way (an empty item, a duplicate, a name no node declares, a ``(`` in a
payload), makes them give up, and the Lark path reads the text: the fast path never raises and
never decides what a text means.

Nodes and their positions are built as instances of mutable twins of the model classes (the
same slots in the same order) whose class is then set to the model class: a frozen dataclass's
``__init__`` sets every field through ``object.__setattr__`` and costs twice as much, which
matters for the many nodes of a large topology. CPython refuses the class assignment unless the
two layouts are the same, and the twins are only made while the model classes are what this
code expects; otherwise the fast path is off. A property test holds the fast path to the plain
reader (the Lark path on its own): equal models, positions included.
"""

from __future__ import annotations

import gc
import re
from dataclasses import fields
from typing import Any

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

# Nodes exactly as Kafka prints them: names without `(`, single spaces, no trailing spaces,
# space-indented, each kind with its payload keyword and its arrow lines. One alternative per
# kind: the regex checks what each kind must look like, so the loop over the nodes only builds
# them. Anchored at line starts: unanchored, findall retried at every `Source:` inside one long
# line, each try scanning to the line's end.
_NAME = r"([^\s(](?:[^(\n]*[^\s(])?)"
_LIST = r"(\S(?:.*\S)?)"
_NODES = re.compile(
    r"^( *)(?:"
    rf"Processor: {_NAME} \(stores: \[(.*)\]\)\n *--> {_LIST}\n *<-- {_LIST}\n"
    rf"|Source: {_NAME} \(topics: (.*)\)\n *--> {_LIST}\n"
    rf"|Sink: {_NAME} \((topic|extractor class): (.*)\)\n *<-- {_LIST}\n)",
    re.MULTILINE,
)
# The name is checked apart (``_NAMED``): one pattern saying "some character is neither a space nor
# a colon" backtracks over every split of a long line, quadratic in its length.
_TOPOLOGY = re.compile(r"(?:Topologies:|Topology: ([^\n]*):)\n")
_NAMED = re.compile(r"[^\s:]")
_SUBTOPOLOGY = re.compile(
    r"( *)Sub-topology: ([0-9]{1,10})( for global store \(will not generate tasks\))?\n"
)


def _twins() -> tuple[type, type, type, type] | None:
    """Mutable classes laid out as Position, Processor, Source and Sink, or None when those are
    not the classes this module was written for (then the fast path is off)."""
    expected: dict[type, tuple[str, ...]] = {
        Position: ("line", "column"),
        Processor: ("name", "stores", "successors", "predecessors", "position", "kind"),
        Source: ("name", "topics", "pattern", "successors", "position", "kind"),
        Sink: ("name", "topic", "extractor", "predecessors", "position", "kind"),
    }
    for cls, names in expected.items():
        slots = getattr(cls, "__slots__", ())
        if (
            tuple(f.name for f in fields(cls)) != names
            or tuple(slots) != names
            or hasattr(cls, "__post_init__")
            or cls.__bases__ != (object,)
        ):
            return None
    made = [type(f"_{cls.__name__}", (), {"__slots__": names}) for cls, names in expected.items()]
    return made[0], made[1], made[2], made[3]


_TWINS = _twins()


# One function on purpose, longer than the others: its loop body runs once per node, and the
# per-kind helpers it would otherwise call cost a call per node, measurably slower on large texts.
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
    names their lists mention (the caller checks them against the block). False when a node
    needs the careful path (``nodes`` then holds a partial result), and for a Source without
    brackets where ``bare_topics`` says its payload may be a topic list (a global store's)."""
    found = _NODES.findall(text)
    # One `(` per node: no payload holds one either, so there is no doubt where payloads start.
    if text.count("(") != len(found) or text[-1:] != "\n" or _TWINS is None:
        return False
    twin_position, twin_processor, twin_source, twin_sink = _TWINS
    append = nodes.append
    named = names.append
    empty = EMPTY
    # A `-->`/`<--` list as a set, one set per distinct list: in a chain, a node's successors
    # and the next node's predecessors print the same name. Sharing the immutable set halves
    # the sets made.
    sets: dict[str, frozenset[str]] = {"none": empty}
    known = sets.get
    first = line
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
        position: Any = twin_position()
        position.line = line
        position.column = len(indent) + 1
        position.__class__ = Position
        node: Any
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
            node = twin_processor()
            node.name = name
            node.stores = store_set
            node.successors = after
            node.predecessors = before
            node.position = position
            node.kind = "processor"
            node.__class__ = Processor
            named(name)
        elif source:
            line += 2
            after = known(source_list)
            if after is None:
                after = sets[source_list] = frozenset(source_list.split(", "))
            node = twin_source()
            node.name = source
            if topics[:1] == "[" and topics[-1:] == "]":
                topic_set = frozenset(topics[1:-1].split(", ")) if len(topics) > 2 else empty
                if "" in topic_set:
                    return False
                node.topics = topic_set
                node.pattern = None
            elif bare_topics:
                return False
            else:
                node.topics = empty
                node.pattern = topics
            node.successors = after
            node.position = position
            node.kind = "source"
            node.__class__ = Source
            named(source)
        else:
            line += 2
            before = known(sink_list)
            if before is None:
                before = sets[sink_list] = frozenset(sink_list.split(", "))
            node = twin_sink()
            node.name = sink
            if keyword == "topic":
                # the AK 4.4 CLI formatter prints a dynamically routed sink as `(topic: null)`
                node.topic = None if target == "null" else target
                node.extractor = None
            else:
                node.topic = None
                node.extractor = target
            node.predecessors = before
            node.position = position
            node.kind = "sink"
            node.__class__ = Sink
            named(sink)
        append(node)
    mentioned.update(*sets.values())
    # findall skips what does not match, and every match is whole lines: the nodes cover the
    # text only if they account for all its lines.
    return line - first == text.count("\n")


def read(text: str, path: str) -> Description | None:
    """The model of ``text`` when it is real describe() output throughout, else None (and the
    Lark path reads it). ``text`` has LF line ends, no BOM and no NUL."""
    if _TWINS is None:
        return None
    # The model holds no reference cycles, so collecting while it is built only traverses the
    # many new nodes again and again (a large share of the time on a large text).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read(text, path)
    finally:
        if enabled:
            gc.enable()


def _read(text: str, path: str) -> Description | None:
    start = len(text) - len(text.lstrip("\n"))
    line = 1 + start
    pos = start
    if text[-1:] != "\n":
        text += "\n"  # nothing follows the last line: positions stay where they were
    end = len(text)
    topologies: list[Topology] = []
    while pos < end:
        header = _TOPOLOGY.match(text, pos)
        if header is None or (header[1] is not None and (
            header[1].endswith("Topologies") or _NAMED.search(header[1]) is None
        )):
            return None  # the Lark path reads `Topology: Topologies:` as a `Topologies:` line
        topology_line = line
        pos, line = header.end(), line + 1
        subs: list[Subtopology] = []
        ids: set[int] = set()
        names: list[str] = []
        while pos < end:
            block = _SUBTOPOLOGY.match(text, pos)
            if block is None:
                break
            stop = _run_end(text, block.end(), end)
            sub = _block(text, block, stop, line, names)
            if sub is None or sub.id in ids:
                return None
            ids.add(sub.id)
            subs.append(sub)
            line += text.count("\n", pos, stop)
            pos = stop
            while text.startswith("\n", pos):  # empty lines between blocks
                pos, line = pos + 1, line + 1
        if len(subs) > 1 and len(set(names)) != len(names):
            return None  # a node name twice in the topology: the Lark path says where
        position = Position(topology_line, 1)
        topologies.append(Topology(tuple(subs), header[1], position, "describe"))
    if not topologies:
        return None
    return Description(tuple(topologies), path)


def _run_end(text: str, body: int, end: int) -> int:
    """Where the run of nodes from ``body`` ends: at the empty line that ends the block, or
    before a header line (a global store's block has no empty line after it). A line that only
    looks like a header ends it too; what follows is then not a header, and the text is left to
    the Lark path."""
    stop = text.find("\n\n", body)
    stop = end if stop < 0 else stop + 1
    for keyword in ("Sub-topology:", ":\n"):
        header = text.find(keyword, body, stop)
        if header >= 0:
            stop = text.rfind("\n", body, header) + 1 or body
    return stop


def _block(
    text: str, header: re.Match[str], stop: int, line: int, names: list[str]
) -> Subtopology | None:
    """The sub-topology whose header is ``header`` (on line ``line``), its nodes up to
    ``stop`` (their names added to ``names``); None when anything in it is not plain real
    output."""
    number = int(header[2])
    if number > _MAX_ID:
        return None
    is_global = header[3] is not None
    nodes: list[Node] = []
    mentioned: set[str] = set()
    run = text[header.end() : stop]
    first = len(names)
    if not run or not fast_nodes(run, line + 1, nodes, names, mentioned, is_global):
        return None
    declared = set(names[first:])
    if not mentioned <= declared or len(declared) != len(nodes):
        return None
    if is_global and sorted(node.kind for node in nodes) != ["processor", "source"]:
        return None
    position = Position(line, len(header[1]) + 1)
    return Subtopology(number, frozenset(nodes), is_global, position)
