"""Throughput of the describe() parser, next to ``str.splitlines()`` on the same text.

    python benchmarks/parse.py [--repeat 25] [--nodes 5000] [--lark] [--peer PATH/main.js]

Inputs are generated here (deterministic): a corpus-like topology of about 40 nodes (three
sub-topologies joined by a repartition topic, stores, a global store) and a synthetic one of
5,000 nodes built the same way. For each it prints ms per parse, MB/s, the time of
``text.splitlines()`` measured in the same run, and parse time / splitlines time (the target is
at most 30 on the 5,000-node input). ``--lark`` adds, for reference, Lark alone (no-op callbacks)
on the same grammar with one token per node, with Lark's own lexer and with lark-cython.
Times are CPU time of this process, best of ``--repeat`` rounds, with the garbage collector on
(real use) and off (``timeit``'s default).

``--peer`` also times the de-facto peer, the ``convertTopoToDot`` line-regex parser of the
kafka-streams-viz web page (zz85/kafka-streams-viz ``main.js``, read from the given path at run
time), in node on the same two inputs in the same run: the rounds of both alternate, each
runtime times its own calls (CPU time of its process), best of ``--repeat``, and the ratio is
printed. The peer only turns lines into DOT text; ksafe's parse builds the full typed model
with positions, garbage collector on.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from linter.topology.parse import parse

OPERATORS = ("MAPVALUES", "FILTER", "PEEK", "FLATMAPVALUES", "PROCESSVALUES", "TRANSFORMVALUES")


def generate(nodes: int, seed: int = 1) -> str:
    """A describe() text of about ``nodes`` nodes, shaped like real DSL output: chains of
    operators with side branches to sinks, an aggregation feeding a repartition topic read by
    the next sub-topology, and now and then a global store."""
    rnd = random.Random(seed)
    counter = 0

    def name(prefix: str) -> str:
        nonlocal counter
        counter += 1
        return f"{prefix}-{counter:010d}"

    blocks: list[str] = []
    made, sub = 0, 0
    repartition: str | None = None
    while made < nodes:
        if sub % 7 == 3:
            source, processor = name("KSTREAM-SOURCE"), name("KTABLE-SOURCE")
            blocks.append(
                f"Sub-topology: {sub} for global store (will not generate tasks)\n"
                f"    Source: {source} (topics: [global-{sub}])\n      --> {processor}\n"
                f"    Processor: {processor} (stores: [global-{sub}-STATE-STORE-{counter:010d}])\n"
                f"      --> none\n      <-- {source}\n"
            )
            made, sub = made + 2, sub + 1
            continue
        size = max(min(rnd.randint(8, 30), nodes - made), 4)
        topics = f"[{repartition}]" if repartition else f"[input-{sub}-a, input-{sub}-b]"
        chain = [name("KSTREAM-SOURCE")]
        chain += [name("KSTREAM-" + rnd.choice(OPERATORS)) for _ in range(size - 4)]
        chain += [name("KSTREAM-AGGREGATE"), name("KTABLE-TOSTREAM"), name("KSTREAM-SINK")]
        store = f"KSTREAM-AGGREGATE-STATE-STORE-{counter:010d}"
        repartition = f"{store}-repartition"
        side: dict[str, str] = {}  # processor -> the sink of its side branch
        for node in chain[1:-3]:
            if rnd.random() < 0.15 and made + len(chain) + len(side) < nodes:
                side[node] = name("KSTREAM-SINK")
        lines = [f"Sub-topology: {sub}\n"]
        for index, node in enumerate(chain):
            after = ", ".join(n for n in (*chain[index + 1 : index + 2], side.get(node, "")) if n)
            before = chain[index - 1] if index else ""
            if index == 0:
                lines.append(f"    Source: {node} (topics: {topics})\n      --> {after}\n")
            elif index == len(chain) - 1:
                lines.append(f"    Sink: {node} (topic: {repartition})\n      <-- {before}\n")
            else:
                stores = store if node.startswith("KSTREAM-AGGREGATE") else ""
                lines.append(
                    f"    Processor: {node} (stores: [{stores}])\n      --> {after}\n"
                    f"      <-- {before}\n"
                )
        for node, sink in side.items():
            lines.append(f"    Sink: {sink} (topic: audit-{sub})\n      <-- {node}\n")
        blocks.append("".join(lines) + "\n")
        made, sub = made + len(chain) + len(side), sub + 1
    return "Topologies:\n " + "".join("  " + block for block in blocks)


def _calls_per_round(timer: timeit.Timer) -> int:
    number = 1
    while timer.timeit(number) < 0.002:  # rounds of a few ms: see best_seconds
        number *= 2
    return number


def best_seconds(calls: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Best time of one call of each, in CPU seconds of this process (the machine may be
    shared), the calls measured in turn in every round so that they see the same machine.

    A name ending in ``[no gc]`` runs with the garbage collector off (``timeit``'s default);
    the others with it on, as in real use. Rounds are short: long rounds of
    ``splitlines`` churn memory and make it look slower than it is, flattering the ratio.
    """
    timers = {
        name: timeit.Timer(
            call,
            setup="pass" if name.endswith("[no gc]") else "gc.enable()",
            timer=time.process_time,
        )
        for name, call in calls.items()
    }
    numbers = {name: _calls_per_round(timer) for name, timer in timers.items()}
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(repeat):
        for name, timer in timers.items():
            best[name] = min(best[name], timer.timeit(numbers[name]) / numbers[name])
    return best


def report(label: str, text: str, repeat: int, fresh: float) -> tuple[float, float]:
    """Print the figures for one input; return the ratio (collector on) and splitlines time.

    ``fresh`` is splitlines on this text timed before anything was parsed."""
    # splitlines before any parse (fresh), alone, then in turn with the parses; the fastest
    # counts: parsing leaves the heap fragmented, which slows splitlines down (by up to half
    # again, even after a small parse) and would flatter the ratio
    alone = best_seconds({"splitlines": text.splitlines}, repeat)["splitlines"]
    count = sum(1 for _ in parse(text).nodes())
    best = best_seconds(
        {
            "splitlines": text.splitlines,
            "parse": lambda: parse(text),
            "parse [no gc]": lambda: parse(text),
        },
        repeat,
    )
    split_s = min(fresh, alone, best["splitlines"])
    megabytes = len(text.encode()) / 1e6
    print(f"{label}: {count} nodes, {megabytes * 1000:.1f} kB")
    print(f"  splitlines        {split_s * 1e3:8.3f} ms")
    for what, key in (("parse, gc on ", "parse"), ("parse, gc off", "parse [no gc]")):
        seconds = best[key]
        print(
            f"  {what}     {seconds * 1e3:8.3f} ms {megabytes / seconds:6.1f} MB/s"
            f"   ratio to splitlines {seconds / split_s:5.1f}"
        )
    return best["parse"] / split_s, split_s


def lark_only(text: str, split_s: float, repeat: int) -> None:
    """Lark with one token per node and no-op callbacks: the cost a node-level design starts at."""
    from importlib import resources

    from lark import Lark, Transformer

    grammar = resources.files("linter.topology").joinpath("grammar.lark").read_text("utf-8")
    for runs, nodes in [
        ("NODES+", "NODE+"),
        ("_legacy_nodes NODES", "_legacy_nodes NODE"),
        ("_legacy_nodes: NODES", "_legacy_nodes: NODE"),
    ]:
        grammar = grammar.replace(runs, nodes)

    class Nothing(Transformer[object, None]):
        def block(self, children: list[object]) -> None:
            return None

    variants: list[tuple[str, dict[str, Any]]] = [("lark lexer", {"lexer": "contextual"})]
    try:
        import lark_cython

        variants.append(("lark-cython", {"_plugins": lark_cython.plugins}))
    except ImportError:
        print("  lark-cython not installed")
    for label, options in variants:
        parser = Lark(grammar, parser="lalr", transformer=Nothing(), **options)
        seconds = best_seconds({label: functools.partial(parser.parse, text)}, repeat)[label]
        print(
            f"  {label:<12} node-level tokens, no callbacks: {seconds * 1e3:8.2f} ms"
            f" (ratio {seconds / split_s:5.1f})"
        )


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    options.add_argument("--repeat", type=int, default=25)
    options.add_argument("--nodes", type=int, default=5000)
    options.add_argument("--lark", action="store_true", help="also time Lark alone, for reference")
    options.add_argument(
        "--peer", type=Path, help="kafka-streams-viz main.js: time its convertTopoToDot in node too"
    )
    args = options.parse_args()
    print(f"python {sys.version.split()[0]}; best of {args.repeat} rounds")
    small, big = generate(40, seed=3), generate(args.nodes, seed=5)
    fresh = best_seconds({"small": small.splitlines, "big": big.splitlines}, args.repeat)
    report("corpus-like", small, args.repeat, fresh["small"])
    ratio, split_s = report(f"synthetic ({args.nodes})", big, args.repeat, fresh["big"])
    if args.lark:
        lark_only(big, split_s, args.repeat)
    print(f"target ratio <= 30 on the big input (gc on): {'met' if ratio <= 30 else 'NOT met'}")
    if args.peer:
        from peer import versus_peer

        inputs = {"corpus-like": small, f"synthetic ({args.nodes})": big}
        versus_peer(args.peer, inputs, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
