"""Topology rules: one module per rule; this tuple is the catalogue of this half."""

from __future__ import annotations

from rules.framework import Rule

TOPOLOGY_RULES: tuple[Rule, ...] = ()
