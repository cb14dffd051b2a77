"""Advice every rule page must get right, whatever rule it is in."""

from __future__ import annotations

import pytest

from rules.catalogue import ALL_RULES
from rules.framework import Rule


@pytest.mark.parametrize("r", ALL_RULES, ids=lambda r: r.name)
def test_no_deprecated_or_misleading_advice(r: Rule) -> None:
    doc = " ".join((r.func.__doc__ or "").split())
    # kafka-features.sh --metadata is deprecated (the tool's own help says so): advise
    # --release-version or --feature metadata.version=, and name --metadata only as the
    # deprecated flag.
    if "--metadata" in doc:
        assert "deprecated" in doc, f"{r.name} advises the deprecated --metadata flag"
    # Standbys are kept per task id: they cannot help a store whose task id changes.
    assert "consider standby" not in doc.lower(), r.name
