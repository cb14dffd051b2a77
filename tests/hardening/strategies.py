"""Hypothesis strategies for valid topology models, and an independent describe() printer.

``descriptions()`` draws :class:`~linter.topology.model.Description` objects that a real
``Topology#describe()`` could print *and* that the text format represents unambiguously.
The constraints and why:

* Node names: Kafka validates DSL names (``[a-zA-Z0-9._-]``) but not Processor-API names, so we
  draw both, PAPI names with single spaces, parentheses and non-ASCII letters. Excluded, because
  the text cannot tell them apart from structure:
  - ``, `` only where the names of the topology leave no doubt: ``--> a, b`` is one node
    ``a, b`` or two nodes ``a`` and ``b`` depending on which are declared, so no name equals a
    ``, ``-joined run of another's parts (``a``, ``b`` or ``a, b`` next to ``a, b, c``);
  - ``[``, ``]``, ``:`` (a name ending in ``(stores: [x])`` would hide the real payload);
  - ``-->``/``<--`` (the hand-condensed layout puts arrows on the node line);
  - leading/trailing or doubled whitespace, control characters, newlines (lines are stripped,
    a newline splits the node line);
  - the name ``none`` (it is how an empty ``-->`` list prints).
* Store names: as node names but never with ``, ``: they sit in a ``[a, b]`` set and are
  declared nowhere else, so nothing could resolve the split.
* Topics follow Kafka's topic rule ``[a-zA-Z0-9._-]{1,249}``: a real topic list item contains
  nothing else, which is what separates ``(topics: [a, b])`` from a pattern. Not ``null``: the
  AK 4.4 CLI formatter prints a sink without a static topic as ``(topic: null)``.
* Patterns are raw regexes that contain at least one metacharacter outside brackets and never
  look like a topic list (they do not both start with ``[`` and end with ``]``); no newline.
* Extractor ``toString()`` values look like Java objects and lambdas (``$$Lambda/0x..@hash``,
  ``Router(by=region)``): anything but a newline, ``, `` is fine there, but we keep to one line.
* Graph shape: what ``Topology`` accepts. Every sub-topology is one weakly connected DAG (Kafka
  groups nodes by union-find); Sources have no predecessors, Sinks no successors, Processors at
  least one predecessor (``addProcessor`` rejects orphans); a Source alone prints ``--> none``.
  Node names are unique within a topology; a store belongs to one sub-topology.
* Global stores: exactly one Source (one topic) and one Processor with one store and ``--> none``.
* Several topologies in one description only when all are named (concatenated named topologies);
  an empty topology (``Topologies:\\n ``) only on its own.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from hypothesis import strategies as st

from linter.topology.model import Description, Node, Processor, Sink, Source, Subtopology, Topology

DSL_CHARS = string.ascii_letters + string.digits + "._-"
# Punctuation a Processor-API name may plausibly carry and the format still shows unambiguously.
PAPI_PUNCT = "()._-#/'@$+=!?&<>\"`%*"
GENERATED_PREFIXES = (
    "KSTREAM-SOURCE-",
    "KSTREAM-MAPVALUES-",
    "KSTREAM-FILTER-",
    "KSTREAM-AGGREGATE-",
    "KSTREAM-BRANCH-",
    "KTABLE-SOURCE-",
    "KTABLE-TOSTREAM-",
    "KSTREAM-SINK-",
    "KSTREAM-KEY-SELECT-",
)

_letters = st.characters(categories=("Lu", "Ll", "Nd"), max_codepoint=0x9FFF)


def _generated_name() -> st.SearchStrategy[str]:
    digits = st.integers(min_value=0, max_value=10**11 - 1).map(lambda i: f"{i:010d}")
    return st.builds(lambda p, d: p + d, st.sampled_from(GENERATED_PREFIXES), digits)


def _dsl_name() -> st.SearchStrategy[str]:
    return st.text(alphabet=DSL_CHARS, min_size=1, max_size=24).filter(
        lambda s: s not in {".", ".."}
    )


def _papi_word() -> st.SearchStrategy[str]:
    return st.text(
        alphabet=st.one_of(_letters, st.sampled_from(PAPI_PUNCT)), min_size=1, max_size=10
    )


def _papi_name() -> st.SearchStrategy[str]:
    """Words joined by single spaces, starting with a letter or digit."""
    head = st.text(alphabet=_letters, min_size=1, max_size=6)
    return st.builds(
        lambda h, words: " ".join([h, *words]),
        head,
        st.lists(_papi_word(), max_size=3),
    ).filter(lambda s: "-->" not in s and "<--" not in s and "  " not in s)


def _papi_list_name() -> st.SearchStrategy[str]:
    """A Processor-API name with ``, `` in it (``join(left), right``)."""
    return st.lists(_papi_name(), min_size=2, max_size=3).map(", ".join)


def node_names() -> st.SearchStrategy[str]:
    """Names a describe() text shows unambiguously (see the module docstring)."""
    listed = _papi_list_name().filter(lambda n: _is_showable_name(n.replace(", ", " ")))
    return st.one_of(
        _generated_name(),
        _dsl_name().filter(_is_showable_name),
        _papi_name().filter(_is_showable_name),
        listed,
    )


def _runs(name: str) -> set[str]:
    """Every ``, ``-joined run of ``name``'s parts, ``name`` itself excluded."""
    parts = name.split(", ")
    runs = {", ".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)}
    return runs - {name}


def ambiguous(name: str, used: set[str]) -> bool:
    """Whether ``name`` next to ``used`` makes a ``-->``/``<--`` list ambiguous."""
    if _runs(name) & used:
        return True
    return ", " in "".join(used) and any(name in _runs(u) for u in used if ", " in u)


def _is_showable_name(name: str) -> bool:
    return (
        name == name.strip()
        and name != "none"
        and ", " not in name
        and not any(c in name for c in "[]:,\n\r\t")
        and "-->" not in name
        and "<--" not in name
    )


def store_names() -> st.SearchStrategy[str]:
    generated = st.builds(
        lambda p, i: f"{p}STATE-STORE-{i:010d}",
        st.sampled_from(("KSTREAM-AGGREGATE-", "KSTREAM-REDUCE-", "KTABLE-SUPPRESS-", "in-")),
        st.integers(min_value=0, max_value=10**10 - 1),
    )
    return st.one_of(generated, _dsl_name(), _papi_name()).filter(_is_showable_name)


def topic_names() -> st.SearchStrategy[str]:
    # `null` is excluded: the AK 4.4 CLI formatter prints an extractor sink as `(topic: null)`,
    # so the parser reads that payload as "no static topic".
    return st.text(alphabet=DSL_CHARS, min_size=1, max_size=30).filter(
        lambda s: s not in {".", "..", "null"}
    )


def patterns() -> st.SearchStrategy[str]:
    """Raw regexes as ``Pattern#toString()`` prints them."""
    pieces = st.sampled_from(
        (
            ".*",
            "-[0-9]+",
            "(a|b)",
            "\\d+",
            "[a-z]+",
            "(?i)x",
            "$",
            "+",
            "\\.",
            "{2,3}",
            "[^,]*",
            "?",
        )
    )
    word = st.text(alphabet=DSL_CHARS, min_size=0, max_size=8)
    regex = st.builds(
        lambda a, p, b, q: a + p + b + q,
        word,
        pieces,
        word,
        st.one_of(st.just(""), pieces),
    )
    return regex.filter(_is_showable_pattern)


def _is_showable_pattern(regex: str) -> bool:
    return (
        regex == regex.strip()
        and bool(regex)
        and "\n" not in regex
        and not (regex.startswith("[") and regex.endswith("]"))
        and any(c in regex for c in "*+?|^$(\\{.")
    )


def extractors() -> st.SearchStrategy[str]:
    lambda_ = st.builds(
        lambda cls, addr, h: f"com.example.{cls}$$Lambda/0x{addr:016x}@{h:x}",
        st.text(alphabet=string.ascii_letters, min_size=1, max_size=8),
        st.integers(min_value=0, max_value=2**40),
        st.integers(min_value=0, max_value=2**31),
    )
    obj = st.builds(
        lambda cls, arg: f"{cls}(by={arg})" if arg else cls,
        st.text(alphabet=string.ascii_letters + ".", min_size=1, max_size=16).filter(
            lambda s: s[0].isalpha() and s[-1].isalpha()
        ),
        st.text(alphabet=string.ascii_letters, max_size=6),
    )
    return st.one_of(lambda_, obj)


def topology_names() -> st.SearchStrategy[str]:
    return _dsl_name()


# --- graphs --------------------------------------------------------------------------------
# Strategies are built once: constructing them inside a draw makes hypothesis re-validate them
# on every call.

_NODE_NAMES = node_names()
_STORE_NAMES = store_names()
_TOPIC_NAMES = topic_names()
_TOPIC_SETS = st.frozensets(_TOPIC_NAMES, min_size=1, max_size=3)
_PATTERNS = patterns()
_EXTRACTORS = extractors()
_PICK = st.integers(min_value=0, max_value=1 << 16)
_SMALL = st.integers(min_value=0, max_value=5)
_ACTIONS = st.sampled_from(("processor", "processor", "processor+source", "sink"))


def _fresh(draw: st.DrawFn, strategy: st.SearchStrategy[str], used: set[str]) -> str:
    """A drawn name made unique by a suffix (a filter on a growing set would be slow to draw)."""
    name = draw(strategy)
    if ambiguous(name, used):
        name = name.replace(", ", " ")
    base, k = name, 1
    while name in used or ambiguous(name, used):
        k += 1
        name = f"{base}-{k}"
    used.add(name)
    return name


def _pick(draw: st.DrawFn, pool: Sequence[str], most: int) -> set[str]:
    """A non-empty subset of ``pool`` of at most ``most`` items."""
    count = 1 + draw(_PICK) % min(most, len(pool))
    return {pool[draw(_PICK) % len(pool)] for _ in range(count)}


@st.composite
def subtopologies(
    draw: st.DrawFn, sub_id: int, used_names: set[str], max_nodes: int = 8
) -> Subtopology:
    """One weakly connected DAG of Sources, Processors and Sinks (names drawn unique)."""
    order: list[str] = []
    preds: dict[str, set[str]] = {}
    sources: dict[str, tuple[frozenset[str], str | None]] = {}
    processors: dict[str, frozenset[str]] = {}
    sinks: dict[str, tuple[str | None, str | None]] = {}
    stores_pool: list[str] = []

    def new_source() -> str:
        name = _fresh(draw, _NODE_NAMES, used_names)
        if draw(_SMALL) == 0:
            sources[name] = (frozenset(), draw(_PATTERNS))
        else:
            sources[name] = (draw(_TOPIC_SETS), None)
        order.append(name)
        return name

    new_source()
    for _ in range(draw(_PICK) % (max_nodes + 1)):
        action = draw(_ACTIONS)
        parents = _pick(draw, [n for n in order if n not in sinks], 3)
        if action == "processor+source":
            parents.add(new_source())
        name = _fresh(draw, _NODE_NAMES, used_names)
        if action == "sink":
            if draw(_SMALL) == 0:
                sinks[name] = (None, draw(_EXTRACTORS))
            else:
                sinks[name] = (draw(_TOPIC_NAMES), None)
        else:
            stores: set[str] = set()
            for _ in range(draw(_SMALL) % 3):
                if stores_pool and draw(_PICK) % 2:
                    stores.add(stores_pool[draw(_PICK) % len(stores_pool)])
                else:
                    store = _fresh(draw, _STORE_NAMES, set(stores_pool))
                    stores_pool.append(store)
                    stores.add(store)
            processors[name] = frozenset(stores)
        order.append(name)
        preds[name] = parents
    succs: dict[str, set[str]] = {n: set() for n in order}
    for child, parents in preds.items():
        for parent in parents:
            succs[parent].add(child)
    nodes: list[Node] = []
    for name in order:
        if name in sources:
            topics, pattern = sources[name]
            nodes.append(Source(name, topics, pattern, frozenset(succs[name])))
        elif name in processors:
            nodes.append(
                Processor(name, processors[name], frozenset(succs[name]), frozenset(preds[name]))
            )
        else:
            topic, extractor = sinks[name]
            nodes.append(Sink(name, topic, extractor, frozenset(preds[name])))
    return Subtopology(sub_id, frozenset(nodes))


@st.composite
def global_stores(draw: st.DrawFn, sub_id: int, used_names: set[str]) -> Subtopology:
    source = _fresh(draw, _NODE_NAMES, used_names)
    proc = _fresh(draw, _NODE_NAMES, used_names)
    return Subtopology(
        sub_id,
        frozenset(
            {
                Source(source, frozenset({draw(_TOPIC_NAMES)}), None, frozenset({proc})),
                Processor(proc, frozenset({draw(_STORE_NAMES)}), frozenset(), frozenset({source})),
            }
        ),
        is_global=True,
    )


@st.composite
def topologies(
    draw: st.DrawFn, name: str | None = None, min_blocks: int = 0, max_blocks: int = 4
) -> Topology:
    used: set[str] = set()
    blocks: list[Subtopology] = []
    count = min_blocks + draw(_PICK) % (max_blocks - min_blocks + 1)
    for sub_id in range(count):
        if draw(_SMALL) % 4 == 0:
            blocks.append(draw(global_stores(sub_id, used)))
        else:
            blocks.append(draw(subtopologies(sub_id, used)))
    return Topology(tuple(blocks), name)


_TOPOLOGY_NAMES = topology_names()


@st.composite
def descriptions(draw: st.DrawFn, max_blocks: int = 4) -> Description:
    """A valid, unambiguously printable describe() model (see the module docstring)."""
    count = 1 + draw(_SMALL) % 3
    if count == 1:
        name = draw(_TOPOLOGY_NAMES) if draw(_PICK) % 2 else None
        return Description((draw(topologies(name, 0, max_blocks)),))
    names: set[str] = set()
    for _ in range(count):
        _fresh(draw, _TOPOLOGY_NAMES, names)
    return Description(tuple(draw(topologies(n, 1, max_blocks)) for n in sorted(names)))


# --- an independent printer ----------------------------------------------------------------

Shuffle = Callable[[Sequence[str]], list[str]]


def sorted_order(items: Iterable[str]) -> list[str]:
    return sorted(items)


def shuffled_by(rng: random.Random) -> Shuffle:
    def shuffle(items: Sequence[str]) -> list[str]:
        out = list(items)
        rng.shuffle(out)
        return out

    return shuffle


def describe_text(description: Description, order: Shuffle = sorted_order) -> str:
    """Print ``description`` exactly as ``TopologyDescription#toString()`` lays it out, with the
    order of nodes, ``-->``/``<--`` lists, topics and stores chosen by ``order`` (Kafka prints
    them in hash order, so any order is a faithful reprint)."""
    return "".join(_topology_text(t, order) for t in description.topologies)


def _names(items: Iterable[str], order: Shuffle) -> str:
    listed = order(list(items))
    return ", ".join(listed) if listed else "none"


def _node_text(node: Node, order: Shuffle) -> str:
    if isinstance(node, Source):
        payload = (
            node.pattern
            if node.pattern is not None
            else "[" + ", ".join(order(list(node.topics))) + "]"
        )
        return (
            f"Source: {node.name} (topics: {payload})\n      --> {_names(node.successors, order)}"
        )
    if isinstance(node, Processor):
        stores = ", ".join(order(list(node.stores)))
        return (
            f"Processor: {node.name} (stores: [{stores}])\n"
            f"      --> {_names(node.successors, order)}\n"
            f"      <-- {_names(node.predecessors, order)}"
        )
    payload = (
        f"topic: {node.topic}" if node.topic is not None else f"extractor class: {node.extractor}"
    )
    return f"Sink: {node.name} ({payload})\n      <-- {_names(node.predecessors, order)}"


def _block_text(sub: Subtopology, order: Shuffle) -> str:
    by_name = {n.name: n for n in sub.nodes}
    if sub.is_global:
        source = next(n for n in sub.nodes if isinstance(n, Source))
        proc = next(n for n in sub.nodes if isinstance(n, Processor))
        return (
            f"Sub-topology: {sub.id} for global store (will not generate tasks)\n"
            f"    {_node_text(source, order)}\n    {_node_text(proc, order)}\n"
        )
    body = "".join(f"    {_node_text(by_name[n], order)}\n" for n in order(list(by_name)))
    return f"Sub-topology: {sub.id}\n{body}\n"


def _topology_text(topology: Topology, order: Shuffle) -> str:
    header = "Topologies:\n " if topology.name is None else f"Topology: {topology.name}:\n "
    return header + "".join("  " + _block_text(b, order) for b in topology.subtopologies)


# --- edits: a plausible next version of a model ------------------------------------------

_INDEX = re.compile(r"(?<=-)(\d{10,})$")


def _rename(sub: Subtopology, old: str, new: str) -> Subtopology:
    return _rename_all(sub, {old: new})


def _rename_all(sub: Subtopology, names: dict[str, str]) -> Subtopology:
    """Rename nodes all at once (one by one, ``a-1 -> a-2`` would merge with ``a-2``)."""

    def swap(listed: frozenset[str]) -> frozenset[str]:
        return frozenset(names.get(n, n) for n in listed)

    nodes: list[Node] = []
    for n in sub.nodes:
        name = names.get(n.name, n.name)
        if isinstance(n, Source):
            nodes.append(replace(n, name=name, successors=swap(n.successors)))
        elif isinstance(n, Processor):
            nodes.append(
                replace(
                    n, name=name, successors=swap(n.successors), predecessors=swap(n.predecessors)
                )
            )
        else:
            nodes.append(replace(n, name=name, predecessors=swap(n.predecessors)))
    return replace(sub, nodes=frozenset(nodes))


def shift_indices(topology: Topology, by: int) -> Topology:
    """What inserting an operator early in a DSL app does: every generated index moves."""

    def shift(name: str) -> str:
        return _INDEX.sub(lambda m: f"{int(m.group()) + by:0{len(m.group())}d}", name)

    subs: list[Subtopology] = []
    for sub in topology.subtopologies:
        sub = _rename_all(sub, {n.name: shift(n.name) for n in sub.nodes})
        nodes = frozenset(
            replace(n, stores=frozenset(shift(s) for s in n.stores))
            if isinstance(n, Processor)
            else n
            for n in sub.nodes
        )
        subs.append(replace(sub, nodes=nodes))
    return replace(topology, subtopologies=tuple(subs))


def edit(description: Description, rng: random.Random) -> Description:
    """One change a developer might make, applied to a random topology of ``description``:
    generated indices shift, a store or node is renamed, a leaf node or the last sub-topology
    is removed, a source reads other topics, an operator that sets the key is put below a node
    (so the stateful nodes and sinks downstream read a changed key). The result is still a
    valid, printable model."""
    topologies = list(description.topologies)
    candidates = [i for i, t in enumerate(topologies) if t.subtopologies]
    if not candidates:
        return description
    i = rng.choice(candidates)
    topology = topologies[i]
    subs = list(topology.subtopologies)
    j = rng.randrange(len(subs))
    sub = subs[j]
    kind = rng.choice(("shift", "store", "node", "leaf", "drop", "topics", "key"))
    if kind == "shift":
        topologies[i] = shift_indices(topology, rng.choice((1, 2)))
        return replace(description, topologies=tuple(topologies))
    if kind == "drop" and len(subs) > 1:
        topologies[i] = replace(topology, subtopologies=tuple(subs[:-1]))
        return replace(description, topologies=tuple(topologies))
    nodes = sorted(sub.nodes, key=lambda n: n.name)
    if kind == "store" and sub.stores:
        old = rng.choice(sorted(sub.stores))
        new = old + "-v2"
        sub = replace(
            sub,
            nodes=frozenset(
                replace(n, stores=frozenset(new if s == old else s for s in n.stores))
                if isinstance(n, Processor)
                else n
                for n in sub.nodes
            ),
        )
    elif kind == "node":
        old = rng.choice(nodes).name
        taken = {n.name for _, n in topology.nodes()}
        new = old + "-renamed"
        if new not in taken and not ambiguous(new, taken - {old}):
            sub = _rename(sub, old, new)
    elif kind == "leaf" and not sub.is_global:
        by_name = {n.name: n for n in nodes}
        # a leaf whose removal would leave a Source with no successor would split the block,
        # which Kafka would print as two sub-topologies
        leaves = [
            n
            for n in nodes
            if not n.successors
            and not isinstance(n, Source)
            and all(
                not isinstance(by_name.get(p), Source) or len(by_name[p].successors) > 1
                for p in n.predecessors
            )
        ]
        if leaves:
            gone = rng.choice(leaves).name
            kept: list[Node] = []
            for n in sub.nodes:
                if n.name == gone:
                    continue
                if isinstance(n, Source | Processor) and gone in n.successors:
                    n = replace(n, successors=n.successors - {gone})
                kept.append(n)
            sub = replace(sub, nodes=frozenset(kept))
    elif kind == "topics":
        sources = [n for n in nodes if isinstance(n, Source) and n.pattern is None]
        if sources:
            victim = rng.choice(sources)
            moved = replace(victim, topics=frozenset({*victim.topics, "new-input"}))
            sub = replace(sub, nodes=(sub.nodes - {victim}) | {moved})
    elif kind == "key" and not sub.is_global:
        taken = {n.name for _, n in topology.nodes()}
        new = f"KSTREAM-KEY-SELECT-{rng.randrange(10**10):010d}"
        above = [n for n in nodes if isinstance(n, Source | Processor) and n.successors]
        if above and new not in taken and not ambiguous(new, taken):
            sub = _put_below(sub, rng.choice(above), new)
    subs[j] = sub
    topologies[i] = replace(topology, subtopologies=tuple(subs))
    return replace(description, topologies=tuple(topologies))


def _put_below(sub: Subtopology, above: Source | Processor, new: str) -> Subtopology:
    """``new`` between ``above`` and all of its successors."""
    nodes: list[Node] = [Processor(new, frozenset(), above.successors, frozenset({above.name}))]
    for n in sub.nodes:
        if n is above:
            n = replace(n, successors=frozenset({new}))
        elif isinstance(n, Processor | Sink) and above.name in n.predecessors:
            n = replace(n, predecessors=(n.predecessors - {above.name}) | {new})
        nodes.append(n)
    return replace(sub, nodes=frozenset(nodes))


@st.composite
def versions(draw: st.DrawFn) -> tuple[Description, Description]:
    """A model and a next version of it (one to three edits)."""
    before = draw(descriptions())
    rng = draw(st.randoms(use_true_random=False))
    after = before
    for _ in range(rng.randint(1, 3)):
        after = edit(after, rng)
    return before, after
