"""A seeded mutation fuzzer for every parser: mutators, targets, and the verdict on one case.

The only acceptable outcomes of feeding a file to a parser are a model, or our own input error
(:class:`TopologyParseError`, :class:`ClusterInputError`) that says where (``path:line``).
Anything else - an ``IndexError``, a ``RecursionError``, a ``UnicodeDecodeError``, a case that
runs past its time limit - is a failure, identified by exception type and the innermost frame in
our code, so that one bug hit a thousand ways counts once.

Used by ``tests/hardening/test_fuzz_parsers.py`` (a bounded, fixed-seed run) and by
``benchmarks/fuzz.py`` (long campaigns).
"""

from __future__ import annotations

import codecs
import random
import signal
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[2]
OUR_PACKAGES = ("linter", "rules", "cluster_engine")

# --- mutators --------------------------------------------------------------------------------

# Stacked repeats could grow a case to megabytes, which only measures speed: huge inputs are
# benchmarks/huge.py's business, so a case is cut at this size.
MAX_CASE_BYTES = 256 * 1024

Mutator = Callable[[bytes, random.Random, Sequence[bytes]], bytes]

_INVALID_UTF8 = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82")
_TOKENS = (
    b"-->",
    b"<--",
    b" (",
    b")",
    b"[",
    b"]",
    b", ",
    b":",
    b"none",
    b"\t",
    b"\r",
    b"\n",
    b"\n\n",
    b"Sub-topology: 7",
    b"Sub-topology: 99999999999999999999",
    b"Topologies:",
    b"Topology: x:",
    b"Source: ",
    b"Processor: ",
    b"Sink: ",
    b" (topics: ",
    b" (stores: [",
    b" (topic: ",
    b" (extractor class: ",
    b" for global store (will not generate tasks)",
    b"Sub-topologies:",
    b"Global Stores:",
    b"GlobalStore: ",
    b"\xef\xbb\xbf",
    b"{",
    b"}",
    b"- ",
    b"&a ",
    b"*a",
    b"!!python/object:os.system",
    b"'",
    b'"',
    b"~",
    b"null",
    b"-1",
    b"1e309",
    b"NaN",
    b"\x1b[2J",
    b"Topic: ",
    b"Partition: ",
    b"Leader: ",
    b"Replicas: ",
    b"Isr: ",
    b"Elr: ",
    b"N/A",
    b"\x85",
    b"\xe2\x80\xa8",
    b"$ kafka-topics.sh --describe",
    b"<<: *a",
    b'"replicas": [1, 2], ',
    b'"partitions": [',
    b"steps:\n",
    b"topics: []\n",
    b"- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - ",
)
_NUMBERS = (
    b"0",
    b"-1",
    b"99999999999999999999",
    b"9" * 4_400,  # over Python's int-conversion limit
    b"2147483648",
    b"1e400",
    b"0x1f",
    b"",
    b"\xd9\xa3",
)


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def delete_line(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def duplicate_line(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"".join(lines)


def repeat_line(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i:i] = [lines[i]] * rng.randint(10, 300)
    return b"".join(lines)


def swap_lines(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def truncate(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def splice(data: bytes, rng: random.Random, others: Sequence[bytes]) -> bytes:
    """Lines of another seed inserted at a line boundary (or replacing the tail)."""
    other = _lines(rng.choice(others)) if others else _lines(data)
    a = rng.randrange(len(other))
    b = rng.randint(a, min(len(other), a + 12))
    lines = _lines(data)
    at = rng.randrange(len(lines) + 1)
    if rng.random() < 0.3:
        return b"".join(lines[:at] + other[a:])
    return b"".join(lines[:at] + other[a:b] + lines[at:])


def flip_byte(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    if not data:
        return b"\x80"
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]


def insert_nul(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + b"\x00" + data[i:]


def insert_invalid_utf8(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(_INVALID_UTF8) + data[i:]


def insert_token(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(_TOKENS) + data[i:]


def replace_number(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    digits = [i for i, b in enumerate(data) if 48 <= b <= 57]
    if not digits:
        return insert_token(data, rng, ())
    i = rng.choice(digits)
    j = i
    while j < len(data) and 48 <= data[j] <= 57:
        j += 1
    return data[:i] + rng.choice(_NUMBERS) + data[j:]


def reindent(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i] = rng.choice((b"", b" ", b"\t", b"        ", b" \t ")) + lines[i].lstrip(b" \t")
    return b"".join(lines)


def nest(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    """Deep nesting: recursion bombs for YAML/JSON readers."""
    depth = rng.choice((50, 500, 2_500))
    opener = rng.choice((b"[", b"{a: ", b"- ", b"("))
    i = rng.randrange(len(data) + 1)
    return data[:i] + opener * depth + data[i:]


def reencode(data: bytes, rng: random.Random, _: Sequence[bytes]) -> bytes:
    """BOMs and UTF-16 (a PowerShell redirect), with or without a BOM, or a stray BOM."""
    text = data.decode("utf-8", errors="replace")
    choice = rng.randrange(5)
    if choice == 0:
        return codecs.BOM_UTF8 + data
    if choice == 1:
        return text.encode("utf-16")  # BOM + native (LE) order
    if choice == 2:
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    if choice == 3:
        return text.encode("utf-16-le")  # no BOM: must be a located error, not garbage
    return data + codecs.BOM_UTF16_LE


MUTATORS: tuple[Mutator, ...] = (
    delete_line, duplicate_line, repeat_line, swap_lines, truncate, splice, flip_byte, insert_nul,
    insert_invalid_utf8, insert_token, replace_number, reindent, nest, reencode,
)  # fmt: skip


def mutate(data: bytes, rng: random.Random, others: Sequence[bytes] = ()) -> bytes:
    """One to four mutations stacked (weighted towards line-level edits)."""
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        data = rng.choice(MUTATORS)(data, rng, others)[:MAX_CASE_BYTES]
    return data


# --- targets ---------------------------------------------------------------------------------


def topology_located(error: BaseException) -> bool:
    from linter.topology.errors import TopologyParseError

    return (
        isinstance(error, TopologyParseError)
        and error.line >= 1
        and error.column >= 1
        and str(error).startswith(f"{error.path}:{error.line}:{error.column}: ")
    )


def cluster_located(error: BaseException) -> bool:
    from cluster_engine.errors import ClusterInputError

    # A whole-file problem (empty, nested too deeply) names the file only; otherwise a line.
    if not isinstance(error, ClusterInputError) or not str(error).startswith(f"{error.path}:"):
        return False
    return error.line is None or (
        error.line >= 1 and str(error).startswith(f"{error.path}:{error.line}")
    )


@dataclass(frozen=True)
class Target:
    """A parser under fuzz: ``load`` reads a file; ``located`` accepts our own located errors."""

    name: str
    seeds: Callable[[], list[bytes]]
    load: Callable[[Path], object]
    located: Callable[[BaseException], bool]
    suffix: str = ".txt"


def _topology_seeds() -> list[bytes]:
    from tests.conftest import corpus_files, corpus_text

    seeds = [corpus_text(p).encode("utf-8") for p in corpus_files("topologies")]
    seeds += [p.read_bytes() for p in sorted((ROOT / "fixtures").glob("examples/*.txt"))]
    return seeds


def _load_topology(path: Path) -> object:
    from linter.topology.parse import parse_file

    return parse_file(path)


def _cli_seeds() -> list[bytes]:
    from tests.conftest import corpus_files

    seeds = [p.read_bytes() for p in corpus_files("cli", "*")]
    own = ROOT / "fixtures" / "cluster" / "snapshots"
    seeds += [p.read_bytes() for p in sorted(own.glob("*/*.txt"))]
    return seeds


def _load_capture(path: Path) -> object:
    from cluster_engine.ingest import load_snapshot

    return load_snapshot(path)  # a single capture: read, recognised and assembled


def _snapshot_seeds() -> list[bytes]:
    """The native snapshot fixtures, and the snapshot of every capture that assembles (real
    clusters' shapes, written as ``ksafe cluster snapshot -o x.yaml`` writes them)."""
    import tempfile

    import yaml

    from cluster_engine.errors import ClusterInputError
    from cluster_engine.ingest import load_snapshot

    own = ROOT / "fixtures" / "cluster" / "snapshots"
    seeds = [p.read_bytes() for p in sorted(own.glob("*")) if p.suffix in {".yaml", ".yml"}]
    with tempfile.TemporaryDirectory() as tmp:
        for n, capture in enumerate(_cli_seeds()):
            path = Path(tmp) / f"capture{n}.txt"
            path.write_bytes(capture)
            try:
                snapshot = load_snapshot(path)
            except (ClusterInputError, OSError):
                continue
            dumped = yaml.safe_dump(snapshot.model_dump(mode="json"), sort_keys=False)
            seeds.append(dumped.encode("utf-8"))
    return seeds


def _plan_seeds() -> list[bytes]:
    """Every plan of the rule cases (the ``plan:`` texts), and plan files under fixtures."""
    import yaml

    seeds: list[bytes] = []
    paths = [
        *(ROOT / "fixtures" / "cluster").rglob("*.y*ml"),
        *(ROOT / "fixtures" / "rules" / "cluster").glob("*.yml"),
    ]
    for path in sorted(paths):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        if isinstance(data, list):
            seeds.append(path.read_bytes())
        elif isinstance(data, dict):
            for case in data.get("cases") or ():
                if isinstance(case, dict) and isinstance(case.get("plan"), str):
                    seeds.append(case["plan"].encode("utf-8"))
    return seeds


def _load_plan(path: Path) -> object:
    from cluster_engine.plan import load_plan

    return load_plan(path)


def _properties_seeds() -> list[bytes]:
    return [p.read_bytes() for p in sorted((ROOT / "fixtures").rglob("*.properties"))]


def _load_properties(path: Path) -> object:
    from linter.topology.streams_config import parse_properties_file

    return parse_properties_file(path)


def streams_config_located(error: BaseException) -> bool:
    from linter.topology.errors import StreamsConfigError

    return topology_located(error) or (
        isinstance(error, StreamsConfigError)
        and error.line >= 1
        and str(error).startswith(f"{error.path}:{error.line}:")
    )


_CONFIG = b"""\
select = ["KS201", "store-removed"]
ignore = ["generated-processor-name"]
fail-on = "warning"
application-id = "shop"
snapshot = "cluster/prod.json"

[severity]
store-renamed = "error"
ks103 = "info"

[[paths]]
path = "topology/orders-*.txt"
application-id = "orders"
properties = "config/orders.properties"

[[acknowledgements]]
fingerprint = "9c1d0e6f2a3b4c5d"
reason = "rebuilt during the migration"
expires = 2026-09-30

[[acknowledgements]]
rule = "store-removed"
resource = "counts"
path = "topology/*.txt"
reason = "known"
"""


def _config_seeds() -> list[bytes]:
    return [_CONFIG, b"[tool.ksafe]\n" + _CONFIG.replace(b"\n[", b"\n[tool.ksafe.")]


def _load_config(path: Path) -> object:
    from linter.config import load_config

    if path.name != "ksafe.toml":  # discovery reads ksafe.toml by name
        path = path.rename(path.with_name("ksafe.toml"))
    return load_config(path)


def config_located(error: BaseException) -> bool:
    from linter.config import ConfigError

    return isinstance(error, ConfigError) and str(error).startswith(f"{error.path}")


def _reassignment_seeds() -> list[bytes]:
    import json

    seeds = [p.read_bytes() for p in sorted((ROOT / "fixtures" / "cluster").rglob("*.json"))]
    moves: list[dict[str, object]] = [
        {"topic": "orders", "partition": p, "replicas": [1 + p % 3, 1 + (p + 1) % 3]}
        for p in range(4)
    ]
    seeds.append(json.dumps({"version": 1, "partitions": moves}).encode())
    with_dirs = [{**m, "log_dirs": ["any", "any"]} for m in moves]
    seeds.append(json.dumps({"version": 1, "partitions": with_dirs}, indent=2).encode())
    return seeds


_REASSIGN_PLAN = b"steps:\n  - reassign:\n      file: case.json\n      throttle: 10000000\n"


def _load_reassignment(path: Path) -> object:
    """A reassignment JSON as a plan's ``reassign: {file: ...}`` step reads it."""
    from cluster_engine.plan import load_plan

    plan = path.with_name("reassign-plan.yaml")
    plan.write_bytes(_REASSIGN_PLAN)
    return load_plan(plan)


def _snapshot_json_seeds() -> list[bytes]:
    import json

    import yaml

    return [
        json.dumps(yaml.safe_load(seed), indent=2).encode("utf-8")
        for seed in _snapshot_seeds()
    ]


def _load_fleet_snapshot(path: Path) -> object:
    from linter.fleet.cluster import load_snapshot

    return load_snapshot(path)


def _load_fleet_plan(path: Path) -> object:
    from linter.fleet.cluster import load_changes

    return load_changes(str(path), None)


_FLEET_SMALL = ROOT / "fixtures" / "fleet" / "small"


def _fleet_text_seeds() -> list[bytes]:
    return [p.read_bytes() for p in sorted(_FLEET_SMALL.glob("*/*.txt"))]


def _fleet_properties_seeds() -> list[bytes]:
    return [p.read_bytes() for p in sorted(_FLEET_SMALL.glob("*/*.properties"))] or [
        b"application.id=app\n"
    ]


def _scan_app(files: list[tuple[str, str]]) -> object:
    """One app directory through the fleet's own reader and scan (no Spark): it never raises,
    and accounts for every file it was given."""
    from linter.api import Settings
    from linter.fleet.inputs import assemble
    from linter.fleet.scan import QUARANTINED, SCANNED, scan_app

    result = scan_app("app", assemble("app", files), Settings())
    if result.app.status not in (SCANNED, QUARANTINED):
        raise AssertionError(f"app status {result.app.status!r}")
    return result


def _fleet_text(data: bytes) -> str:
    # the directory reader's decoding: the scan judges the text, the reader only carries it
    return data.decode("utf-8", errors="replace")


def _load_fleet_description(path: Path) -> object:
    props = "application.id=app\n"
    return _scan_app([("v1.txt", _fleet_text(path.read_bytes())), ("v1.properties", props)])


def _load_fleet_properties(path: Path) -> object:
    text = _fleet_text(_fleet_text_seeds()[0]) if _fleet_text_seeds() else ""
    props = _fleet_text(path.read_bytes())
    return _scan_app([("v1.txt", text), ("v1.properties", props), ("DEPLOYED", "v1")])


def _fleet_jsonl_seeds() -> list[bytes]:
    import json

    rows = [
        {"app_id": "app", "version": f"v{i}", "description": text.decode("utf-8", "replace"),
         "properties": "application.id=app\n", "deployed": i == 1, "timestamp": "2026-11-25"}
        for i, text in enumerate(_fleet_text_seeds()[:6], 1)
    ]  # fmt: skip
    return [("\n".join(json.dumps(r) for r in rows) + "\n").encode("utf-8")]


def _load_fleet_jsonl(path: Path) -> object:
    """The fleet's JSON Lines row reader, line by line as Spark hands it the lines: a row or a
    row naming its problem, never an exception."""
    from linter.fleet.jsonrows import json_row, utf8_problem

    data = path.read_bytes()
    rows = []
    for raw in data.split(b"\n"):
        problem = utf8_problem(raw, "line")
        rows.append(problem if problem is not None else json_row(raw.decode("utf-8")))
    return rows


def _load_fleet_tree(path: Path) -> object:
    """The fleet's app-directory reader on a real file (its own decoding and size checks), then
    the scan of what it read."""
    from linter.api import Settings
    from linter.fleet.scan import QUARANTINED, SCANNED, scan_app
    from linter.fleet.tree import read_app

    props = path.with_name(path.stem + ".properties")
    props.write_text("application.id=app\n", encoding="utf-8")
    try:
        _, versions = read_app(("app", [str(path), str(props)]))
    finally:
        props.unlink()
    result = scan_app("app", versions, Settings())
    if result.app.status not in (SCANNED, QUARANTINED):
        raise AssertionError(f"app status {result.app.status!r}")
    return result


def never(error: BaseException) -> bool:
    """For readers that must not raise at all (they report problems as rows)."""
    return False


TARGETS: dict[str, Target] = {
    "topology": Target("topology", _topology_seeds, _load_topology, topology_located),
    "cluster-output": Target("cluster-output", _cli_seeds, _load_capture, cluster_located),
    "snapshot": Target("snapshot", _snapshot_seeds, _load_capture, cluster_located, ".yaml"),
    "plan": Target("plan", _plan_seeds, _load_plan, cluster_located, ".yaml"),
    "config": Target("config", _config_seeds, _load_config, config_located, ".toml"),
    "streams-config": Target(
        "streams-config",
        _properties_seeds,
        _load_properties,
        streams_config_located,
        ".properties",
    ),
    "reassignment": Target(
        "reassignment", _reassignment_seeds, _load_reassignment, cluster_located, ".json"
    ),
    "snapshot-json": Target(
        "snapshot-json", _snapshot_json_seeds, _load_capture, cluster_located, ".json"
    ),
    "fleet-snapshot": Target(
        "fleet-snapshot", _snapshot_seeds, _load_fleet_snapshot, cluster_located, ".yaml"
    ),
    "fleet-plan": Target("fleet-plan", _plan_seeds, _load_fleet_plan, cluster_located, ".yaml"),
    "fleet-app": Target("fleet-app", _fleet_text_seeds, _load_fleet_description, never),
    "fleet-properties": Target(
        "fleet-properties", _fleet_properties_seeds, _load_fleet_properties, never, ".properties"
    ),
    "fleet-jsonl": Target("fleet-jsonl", _fleet_jsonl_seeds, _load_fleet_jsonl, never, ".json"),
    "fleet-tree": Target("fleet-tree", _fleet_text_seeds, _load_fleet_tree, never),
}


def register(target: Target) -> None:
    TARGETS[target.name] = target


# --- one case --------------------------------------------------------------------------------


class CaseTimeout(Exception):
    """A case ran past its time limit (raised from a signal handler: a hang is a failure)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` of this process's CPU time (not wall time: on a
    shared, loaded machine a nice'd campaign may get little CPU, and that is not a hang)."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise CaseTimeout(f"no result after {seconds:g} s of CPU")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


@dataclass(frozen=True)
class Failure:
    target: str
    signature: str  # exception type @ innermost frame of ours: one bug, however often hit
    message: str
    data: bytes = field(repr=False)


def signature(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if _ours(f.filename)]
    chosen = ours or list(frames)
    where = f"{_short(chosen[-1].filename)}:{chosen[-1].name}" if chosen else "?"
    return f"{type(error).__name__} @ {where}"


def _ours(filename: str) -> bool:
    try:
        rel = Path(filename).resolve().relative_to(ROOT)
    except ValueError:
        return False
    return rel.parts[0] in OUR_PACKAGES


def _short(filename: str) -> str:
    try:
        return str(Path(filename).resolve().relative_to(ROOT))
    except ValueError:
        return Path(filename).name


def run_case(target: Target, data: bytes, workdir: Path, seconds: float = 2.0) -> Failure | None:
    """Feed ``data`` to ``target`` as a file; None when the outcome is acceptable."""
    path = workdir / f"case{target.suffix}"
    path.write_bytes(data)
    try:
        with time_limit(seconds):
            target.load(path)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        if target.located(error):
            return None
        message = str(error).splitlines()[0][:200] if str(error) else ""
        return Failure(target.name, signature(error), message, data)
    return None


def fuzz(
    target: Target, cases: int, seed: int, workdir: Path, seconds: float = 2.0
) -> Iterator[tuple[bytes, Failure | None]]:
    """``cases`` mutated inputs drawn round-robin over the seeds, with their verdicts."""
    seeds = target.seeds()
    if not seeds:
        return
    # Warm up outside the time limit: imports and building the grammar are not the case's cost.
    (workdir / f"warmup{target.suffix}").write_bytes(seeds[0])
    with suppress(Exception):
        target.load(workdir / f"warmup{target.suffix}")
    rng = random.Random(seed)
    for i in range(cases):
        data = mutate(seeds[i % len(seeds)], rng, seeds)
        yield data, run_case(target, data, workdir, seconds)
