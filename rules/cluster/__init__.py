"""Cluster change rules: one module per rule; this tuple is the catalogue of this half."""

from __future__ import annotations

from rules.framework import Rule

CLUSTER_RULES: tuple[Rule, ...] = ()
