"""The doc page example of each rule listed here is run on the captured three-broker cluster
(``fixtures/cluster/snapshots/three-brokers/``, Kafka 4.1) and must make its rule fire. The other
rules' examples need a cluster in another state (a reassignment in flight, a fourth broker);
their cases cover them."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cluster_engine.ingest import assemble, read_file
from cluster_engine.plan import parse_plan
from linter import api
from rules.cluster import CLUSTER_RULES
from tests.conftest import ROOT

CAPTURES = ROOT / "fixtures" / "cluster" / "snapshots" / "three-brokers"
ALL_FILES = tuple(sorted(p.name for p in CAPTURES.iterdir()))
WITHOUT_FEATURES = tuple(f for f in ALL_FILES if f != "features.txt")

# rule name -> the capture files its example runs on
EXAMPLES_ON_CAPTURES: dict[str, tuple[str, ...]] = {
    "metadata-version-unsupported": ALL_FILES,
    "metadata-version-unverified": WITHOUT_FEATURES,
    "node-cannot-register": ALL_FILES,
    "reassignment-refused": ALL_FILES,
    "topic-change-refused": ALL_FILES,
    "feature-update-refused": ALL_FILES,
    "config-value-invalid": ALL_FILES,
    "restart-breaks-min-isr": ALL_FILES,
    "restart-without-urp-wait": ALL_FILES,
    "release-version-side-effects": ALL_FILES,
}


@pytest.mark.parametrize("name", sorted(EXAMPLES_ON_CAPTURES))
def test_doc_example_fires(name: str, tmp_path: Path) -> None:
    r = next(r for r in CLUSTER_RULES if r.name == name)
    doc = r.doc
    example = textwrap.dedent(doc[doc.index("Example:") + len("Example:") : doc.index("\nFix:")])
    plan = parse_plan(example, f"{name} example", base_dir=tmp_path)
    files = EXAMPLES_ON_CAPTURES[name]
    snapshot = assemble(s for f in files for s in read_file(CAPTURES / f))
    report = api.cluster_check(snapshot, plan)
    fired = [f for f in report.findings if f.name == name]
    assert fired, f"{name}: its example does not fire: {[f.message for f in report.findings]}"
    assert all(f.step is not None for f in fired)
