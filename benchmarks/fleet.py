"""Fleet scan throughput: Spark on ``local[2]`` against the same library code in one process.

Builds synthetic fleets from the shapes of the real describe() texts in
``../shared/corpus/topologies`` (read in place): each app is one or two corpus topologies joined
(~40 nodes), its topics renamed per app, about a third of its inputs wired to other apps' outputs
(lineage), and a second version with a realistic upgrade edit: reprinted unchanged, a named
``peek`` inserted, a ``filter`` inserted early (every later generated index shifts), a store
renamed, an output topic renamed, or a ``selectKey`` before a sink. Every app has ``v1``
(deployed) and ``v2``. Sizes are counted in descriptions (2 per app).

For each size it writes the fleet as one Parquet file. First, before this benchmark starts a
JVM, fresh ``python -m linter.fleet scan`` processes are timed from start to exit (what a user
waits for): a 4-app directory tree on Spark and with ``--engine local``, and the largest size on
Spark. Then the single-process loop (:func:`linter.fleet.local.scan_fleet`, reading the same
Parquet with pyarrow and writing the same three sorted tables) gives one app's check in
milliseconds, and the Spark scan (:func:`linter.fleet.job.run_scan`, every output written) runs
each size on ``local[1]`` and on ``--master``, each in a session of its own whose start-up is
timed apart. Last, the smallest size is scanned by one single-process loop alone and by two side
by side: how much slower a process runs when it shares the machine, and so the most that two
Spark workers could gain over one process. It ends with one line per figure of the fleet table.

    python benchmarks/fleet.py [--sizes 2000,20000] [--master local[2]] [--seed 7]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linter.fleet.lineage import is_internal_name  # noqa: E402
from linter.topology.model import Description, Node, Processor, Sink, Source, Subtopology  # noqa: E402
from linter.topology.parse import parse  # noqa: E402
from linter.topology.render import render  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "topologies"
MARKER = "# --- describe() text starts on the next line ---\n"
_INDEX = re.compile(r"(\d{10,})")
_NODE_LINE = re.compile(r"^ +(?:Source|Processor|Sink): ", re.MULTILINE)


def corpus_shapes() -> list[Description]:
    """Every exact corpus text that parses, as a single (unnamed) topology."""
    shapes = []
    for path in sorted(CORPUS.rglob("*.txt")):
        text = path.read_text(encoding="utf-8")
        head, sep, body = text.partition(MARKER)
        if not sep or "exact: no" in head or "variants/" in str(path):
            continue
        try:
            model = parse(body, str(path))
        except ValueError:
            continue
        if len(model.topologies) == 1 and model.topologies[0].name is None:
            shapes.append(model)
    return shapes


def _nodes_of(d: Description) -> int:
    return sum(1 for _ in d.nodes())


def transform(
    d: Description,
    name: Callable[[str], str] = lambda s: s,
    store: Callable[[str], str] = lambda s: s,
    topic: Callable[[str], str] = lambda s: s,
    sub_offset: int = 0,
) -> Description:
    """The same graph with nodes, stores and topics renamed and sub-topologies renumbered."""

    def node(n: Node) -> Node:
        if isinstance(n, Source):
            return replace(n, name=name(n.name), topics=frozenset(map(topic, n.topics)),
                           successors=frozenset(map(name, n.successors)))  # fmt: skip
        if isinstance(n, Sink):
            return replace(n, name=name(n.name), topic=topic(n.topic) if n.topic else None,
                           predecessors=frozenset(map(name, n.predecessors)))  # fmt: skip
        return replace(n, name=name(n.name), stores=frozenset(map(store, n.stores)),
                       successors=frozenset(map(name, n.successors)),
                       predecessors=frozenset(map(name, n.predecessors)))  # fmt: skip

    (top,) = d.topologies
    subs = tuple(
        Subtopology(id=sub.id + sub_offset, nodes=frozenset(map(node, sub.nodes)),
                    is_global=sub.is_global)
        for sub in top.subtopologies
    )
    return Description(topologies=(replace(top, subtopologies=subs),))


def shift_indices(by: int, at_least: int = 0) -> Callable[[str], str]:
    def shift(s: str) -> str:
        return _INDEX.sub(
            lambda m: f"{int(m.group(1)) + by:0{len(m.group(1))}d}"
            if int(m.group(1)) >= at_least else m.group(1), s)  # fmt: skip

    return shift


def join(a: Description, b: Description) -> Description:
    """``b``'s sub-topologies appended to ``a``'s, names made distinct."""
    offset = len(a.topologies[0].subtopologies)
    def apart(s: str) -> str:
        return shift_indices(500)(s) + ("" if _INDEX.search(s) else "-b")

    shifted = transform(b, name=apart, store=apart, sub_offset=offset)
    top = a.topologies[0]
    subs = top.subtopologies + shifted.topologies[0].subtopologies
    return Description(topologies=(replace(top, subtopologies=subs),))


def external_topics(d: Description) -> tuple[list[str], list[str]]:
    sources = sorted({t for _, _, n in d.nodes() if isinstance(n, Source) for t in n.topics})
    sinks = sorted({n.topic for _, _, n in d.nodes() if isinstance(n, Sink) and n.topic})
    internal = {t for t in set(sources) & set(sinks) if is_internal_name(t)}
    return [t for t in sources if t not in internal], [t for t in sinks if t not in internal]


def insert_after_source(d: Description, new: str) -> Description:
    """A stateless processor ``new`` between the first source and its successors."""
    (top,) = d.topologies
    for i, sub in enumerate(top.subtopologies):
        src = next((n for n in sorted(sub.nodes, key=lambda n: n.name)
                    if isinstance(n, Source) and n.successors), None)  # fmt: skip
        if src is None or sub.is_global:
            continue
        nodes = set()
        for n in sub.nodes:
            if n is src:
                nodes.add(replace(n, successors=frozenset({new})))
            elif n.name in src.successors and not isinstance(n, Source):
                preds = (n.predecessors - {src.name}) | {new}
                nodes.add(replace(n, predecessors=frozenset(preds)))
            else:
                nodes.add(n)
        nodes.add(Processor(name=new, successors=src.successors,
                            predecessors=frozenset({src.name})))  # fmt: skip
        subs = list(top.subtopologies)
        subs[i] = replace(sub, nodes=frozenset(nodes))
        return Description(topologies=(replace(top, subtopologies=tuple(subs)),))
    return d


def upgrade(d: Description, rng: random.Random) -> tuple[str, Description]:
    """One realistic upgrade edit (name, new version)."""
    roll = rng.random()
    stores = sorted({s for _, _, n in d.nodes() for s in n.stores})
    _, sinks = external_topics(d)
    if roll < 0.30:
        return "unchanged", d
    if roll < 0.50:
        return "named-peek", insert_after_source(d, "audit-peek")
    if roll < 0.65:
        shifted = transform(d, name=shift_indices(1, 1), store=shift_indices(1, 1))
        return "filter-shift", insert_after_source(shifted, "KSTREAM-FILTER-0000000001")
    if roll < 0.78 and stores:
        old = rng.choice(stores)
        return "store-renamed", transform(d, store=lambda s: s + "-v2" if s == old else s)
    if roll < 0.90 and sinks:
        old = rng.choice(sinks)
        return "topic-renamed", transform(d, topic=lambda t: t + "-v2" if t == old else t)
    return "select-key", insert_after_source(d, "KSTREAM-KEY-SELECT-0000000999")


def fleet(descriptions: int, seed: int, shapes: list[Description]) -> Iterator[dict[str, object]]:
    """Rows of the fleet table: ``descriptions // 2`` apps, v1 deployed and v2."""
    rng = random.Random(seed)
    big = [s for s in shapes if _nodes_of(s) >= 20]
    small = [s for s in shapes if 5 <= _nodes_of(s) < 20]
    produced: list[str] = []
    for i in range(descriptions // 2):
        app = f"app-{i:05d}"
        base = rng.choice(big)
        if _nodes_of(base) < 34:
            base = join(base, rng.choice(small))
        sources, sinks = external_topics(base)
        mapping = {t: f"{app}.{t}" for t in sinks}
        for t in sources:
            wired = produced and rng.random() < 0.33
            mapping[t] = rng.choice(produced) if wired else f"ext.{app}.{t}"
        v1 = transform(base, topic=lambda t, m=mapping: m.get(t, t))  # type: ignore[misc]
        produced.extend(mapping[t] for t in sinks)
        _, v2 = upgrade(v1, rng)
        props = f"application.id={app}\n"
        yield {"app_id": app, "version": "v1", "description": render(v1), "properties": props,
               "deployed": True, "timestamp": None}  # fmt: skip
        yield {"app_id": app, "version": "v2", "description": render(v2), "properties": props,
               "deployed": False, "timestamp": None}  # fmt: skip


def write_parquet(rows: list[dict[str, object]], path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows), path)


def arrow_schema(ddl: str) -> object:
    """A pyarrow schema from one of the fleet tables' DDL strings."""
    import pyarrow as pa

    types = {"string": pa.string(), "int": pa.int32(), "boolean": pa.bool_(),
             "array<string>": pa.list_(pa.string())}  # fmt: skip
    return pa.schema([
        (name, types[kind]) for name, kind in (c.strip().split(" ", 1) for c in ddl.split(","))
    ])  # fmt: skip


def single_process(path: Path, out: Path) -> float:
    """Read the fleet, scan every app, judge the whole lineage graph and write the three tables
    (findings, apps, lineage; sorted, one Parquet file each), as the Spark job does."""
    from linter.fleet.local import cycles_uncollected

    with cycles_uncollected():  # as --engine local runs
        return _single_process(path, out, time.perf_counter())


def _single_process(path: Path, out: Path, started: float) -> float:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from linter.fleet.inputs import COLUMNS, version_of
    from linter.fleet.local import scan_fleet
    from linter.fleet.rows import APP_ROW_SCHEMA, EDGES_SCHEMA, FINDINGS_SCHEMA

    table = pq.read_table(path, columns=list(COLUMNS))
    apps: dict[str, list[object]] = {}
    for row in table.to_pylist():
        v = version_of(tuple(row[c] for c in COLUMNS))
        apps.setdefault(v.app_id, []).append(v)
    result = scan_fleet(sorted(apps.items()))  # type: ignore[arg-type]
    assert len(result.apps) == len(apps)
    out.mkdir(parents=True, exist_ok=True)
    tables = (
        ("findings", FINDINGS_SCHEMA, [r.as_tuple() for r in result.findings]),
        ("apps", APP_ROW_SCHEMA, [a.as_tuple() for a in result.apps]),
        ("lineage", EDGES_SCHEMA, [(e.upstream, e.topic, e.downstream, e.stateful, e.key_change,
                                    e.risky) for e in result.edges]),
    )  # fmt: skip
    for name, ddl, rows in tables:
        schema: Any = arrow_schema(ddl)
        columns = {f.name: [r[i] for r in rows] for i, f in enumerate(schema)}
        pq.write_table(pa.table(columns, schema=schema), out / f"{name}.parquet")
    return time.perf_counter() - started


def fresh_command(path: Path, out: Path, *options: str) -> float:
    """Wall time of a fresh ``python -m linter.fleet scan`` on ``path``: interpreter, JVM and
    Spark start-up (none with ``--engine local``), the cold first query, every output written,
    the process gone."""
    import subprocess

    argv = [sys.executable, "-m", "linter.fleet", "scan", str(path), "--out", str(out),
            "--quiet", "--fail-on", "never", *options]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def class_archive() -> bool:
    """Whether the archive of Spark's classes that a fresh local scan of this Python maps is
    there (linter.fleet.classdata: one per Java runtime and Spark install)."""
    from linter.fleet import classdata
    from linter.fleet.environment import _java_version, check_environment

    home = check_environment()
    path = classdata.archive_path(home, _java_version(home)[1])
    return path is not None and os.path.isfile(path)


def write_tree(rows: list[dict[str, object]], root: Path) -> None:
    """The fleet as a directory tree ``<app>/<version>.txt`` (+ properties, DEPLOYED)."""
    for row in rows:
        app = root / str(row["app_id"])
        app.mkdir(parents=True, exist_ok=True)
        (app / f"{row['version']}.txt").write_text(str(row["description"]), encoding="utf-8")
        (app / f"{row['version']}.properties").write_text(str(row["properties"]),
                                                          encoding="utf-8")  # fmt: skip
        if row["deployed"]:
            (app / "DEPLOYED").write_text(f"{row['version']}\n", encoding="utf-8")


def side_by_side(path: Path, out: Path, rounds: int = 2) -> tuple[float, float]:
    """The single-process scan of ``path`` alone, then two of them at once (each in a process of
    its own), ``rounds`` times: the mean wall time alone and the mean of the slower of each pair.
    Their ratio is what sharing the machine costs one process, so ``cores / ratio`` bounds what
    local[cores] can gain over one process even if Spark cost nothing."""
    import subprocess

    def start(i: int) -> subprocess.Popen[str]:
        argv = [sys.executable, __file__, "--single", str(path), str(out / f"side-{i}")]
        return subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)

    alone, together = [], []
    for _ in range(rounds):
        alone.append(float(start(0).communicate()[0]))
        pair = [start(1), start(2)]
        together.append(max(float(p.communicate()[0]) for p in pair))
    return sum(alone) / rounds, sum(together) / rounds


class Rows(list[tuple[str, str]]):
    """The figures, each printed as soon as it is measured (a long run shows what it has)."""

    def append(self, row: tuple[str, str]) -> None:
        print(f"{row[0]}: {row[1]}", flush=True)
        super().append(row)


def spark_runs(
    master: str, fleets: dict[int, tuple[Path, int, int]], tmp: Path, partitions: int | None
) -> tuple[float, dict[int, float]]:
    """Spark's start-up on ``master``, then one scan per size in that session (seconds)."""
    from linter.fleet.environment import session
    from linter.fleet.job import ScanOptions, run_scan

    started = time.perf_counter()
    spark = session(master, "ksafe fleet benchmark")
    startup = time.perf_counter() - started
    times = {}
    for size, (path, apps, _) in fleets.items():
        t0 = time.perf_counter()
        # no [ ] in the path: Hadoop reads them as a glob when the tables are read back
        name = master.replace("[", "-").replace("]", "")
        options = ScanOptions(input=str(path), out=str(tmp / f"out-{name}-{size}"),
                              partitions=partitions, progress=False)  # fmt: skip
        summary = run_scan(spark, options, lambda _: None).summary
        times[size] = time.perf_counter() - t0
        assert summary["apps_in"] == apps, summary
    spark.stop()
    return startup, times


def main() -> None:
    if sys.argv[1:2] == ["--single"]:  # one side of side_by_side(): print the wall time only
        print(single_process(Path(sys.argv[2]), Path(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--no-fresh", action="store_true",
                        help="skip the fresh `python -m linter.fleet scan` runs")
    parser.add_argument("--no-side-by-side", action="store_true",
                        help="skip the two single-process loops side by side")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"the corpus is not at {CORPUS}")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    shapes = corpus_shapes()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    largest = sizes[-1]
    print(f"{len(shapes)} corpus shapes; {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}")
    rows = Rows()

    with tempfile.TemporaryDirectory(prefix="ksafe-fleet-bench-") as tmp_name:
        tmp = Path(tmp_name)
        fleets = {}
        for size in sizes:
            table = list(fleet(size, args.seed, shapes))
            nodes = sum(len(_NODE_LINE.findall(str(r["description"]))) for r in table[::2])
            fleets[size] = tmp / f"fleet-{size}.parquet", len(table) // 2, nodes
            write_parquet(table, fleets[size][0])
        write_tree(list(fleet(8, args.seed, shapes)), tmp / "four-apps")
        if not args.no_fresh:
            # First, while no other JVM or worker of this benchmark is alive.
            small = fresh_command(tmp / "four-apps", tmp / "fresh-4", "--master", args.master)
            local = fresh_command(tmp / "four-apps", tmp / "fresh-4l", "--engine", "local")
            rows.append(("fresh scan of a 4-app fleet (start to exit)",
                         f"{small:.1f} s on Spark {args.master}; {local:.1f} s --engine local"))
            more = ("--partitions", str(args.partitions)) if args.partitions else ()
            had = class_archive()
            big = fresh_command(fleets[largest][0], tmp / "fresh", "--master", args.master, *more)
            archive = ("class archive mapped" if had else "wrote the class archive (once)"
                       if class_archive() else "no class archive")  # fmt: skip
            rows.append((f"fresh scan of {fleets[largest][1]} apps ({largest} descriptions), "
                         f"{args.master}", f"{big:.1f} s ({archive})"))  # fmt: skip
        loop = {size: single_process(path, tmp / f"single-{size}")
                for size, (path, _, _) in fleets.items()}  # fmt: skip
        for size, (_, apps, nodes) in fleets.items():
            rows.append((f"single-process loop, one app's check ({nodes // max(apps, 1)} "
                         f"nodes/app, {size} descriptions)",
                         f"{1000 * loop[size] / apps:.2f} ms ({loop[size]:.1f} s)"))
        masters = dict.fromkeys(["local[1]", args.master])
        spark = {m: spark_runs(m, fleets, tmp, args.partitions) for m in masters}
        for master, (startup, times) in spark.items():
            for size in sizes:
                rows.append((f"Spark {master} on {size} descriptions (session start-up "
                             f"{startup:.1f} s apart)", f"{times[size]:.1f} s, "
                             f"{times[size] / loop[size]:.2f}x the loop"))  # fmt: skip
        one, two = spark["local[1]"][1][largest], spark[args.master][1][largest]
        rows.append((f"{args.master} vs local[1] on {largest} descriptions",
                     f"{one / two:.2f}x faster"))  # fmt: skip
        if not args.no_side_by_side:
            alone, together = side_by_side(fleets[sizes[0]][0], tmp)
            slower = together / alone
            rows.append((f"two single-process loops side by side ({sizes[0]} descriptions)",
                         f"{alone:.1f} s alone, {together:.1f} s each beside another: at most "
                         f"{2 / slower:.2f}x from two cores, whatever Spark does"))  # fmt: skip
    width = max(len(what) for what, _ in rows)
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    for what, figure in rows:
        print(f"{what:<{width}}  {figure}")


if __name__ == "__main__":
    main()
