"""KS212 unexplained-change."""

from __future__ import annotations

from collections.abc import Iterator

from linter.topology.diff import Change, Key, NodeInfo
from rules.framework import Hit, Impact, Severity, rule
from rules.topology.context import TOPOLOGY_DIFF, DiffSubject, after, before, subtopology

_SHOWN = 5


@rule(
    id="KS212",
    name="unexplained-change",
    severity=Severity.INFO,
    impact=Impact.HYGIENE,
    subject=TOPOLOGY_DIFF,
)
def unexplained_change(subject: DiffSubject) -> Iterator[Hit]:
    """Operators were added, removed, renamed or rewired, or a stateless sub-topology renumbered.

    Why: a change that no other rule judges must still be seen, so that nothing passes silently.
    Adding or removing stateless operators is safe when it shifts no store, repartition topic or
    key; this finding lists what changed per sub-topology so a reviewer can confirm it was
    intended.

    Example:

        Before:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> out
                Sink: out (topic: valid-orders)
                  <-- in

        After:
            Topologies:
               Sub-topology: 0
                Source: in (topics: [orders])
                  --> drop-invalid
                Processor: drop-invalid (stores: [])
                  --> out
                  <-- in
                Sink: out (topic: valid-orders)
                  <-- drop-invalid

    Fix: nothing to do when the change is intended.
    """
    diff = subject.diff
    groups: dict[tuple[str, int], dict[str, list[str]]] = {}
    lines: dict[tuple[str, int], tuple[str, int | None]] = {}

    def note(info: NodeInfo, what: str, side: str) -> None:
        k = (info.topology or "", info.subtopology)
        groups.setdefault(k, {}).setdefault(what, []).append(info.name)
        lines.setdefault(k, (side, info.line))

    kept_after: frozenset[Key] | None = None  # once, when asked: per pair it was quadratic
    for n in diff.nodes.added:
        note(n, "added", "after")
    for n in diff.nodes.removed:
        note(n, "removed", "before")
    for p in diff.nodes.pairs:
        if not p.changes:  # most nodes of an upgrade
            continue
        if Change.RENAMED in p.changes:
            note(p.after, "renamed", "after")
        elif not p.changes.isdisjoint(_NEIGHBOURS):
            if kept_after is None:
                kept_after = frozenset(diff.node_map.values())
            if _rewired(subject, p.before, p.after, kept_after):
                note(p.after, "rewired", "after")
    for sp in diff.subtopologies.pairs:
        if Change.RENUMBERED in sp.changes and not sp.after.stores:
            # stateful ones are reported by store-moved-subtopology
            k = (sp.after.topology or "", sp.after.id)
            groups.setdefault(k, {}).setdefault("renumbered", []).append(f"was {sp.before.id}")
            lines.setdefault(k, ("after", sp.after.line))
    for (t, sub), kinds in sorted(groups.items()):
        parts = []
        if "renumbered" in kinds:
            parts.append(f"renumbered ({kinds['renumbered'][0]})")
        listed = {w: sorted(kinds.get(w, ())) for w in _KINDS}  # sorted once, for both
        for what in ("added", "removed", "renamed", "rewired"):
            names = listed[what]
            if names:
                shown = ", ".join(names[:_SHOWN]) + (" ..." if len(names) > _SHOWN else "")
                noun = "operators" if len(names) > 1 else "operator"
                parts.append(f"{len(names)} {noun} {what} ({shown})")
        side, line = lines[(t, sub)]
        loc = before(subject, line) if side == "before" else after(subject, line)
        yield Hit(
            message=f"Sub-topology {sub}: {'; '.join(parts)}.",
            resources=(subtopology(sub, t or None),),
            locations=(loc,),
            remediation="Confirm the change is intended; nothing else to do.",
            key=f"{t}|{sub}|" + "|".join(f"{w}:{','.join(listed[w])}" for w in _KINDS),
        )


_KINDS = ("added", "removed", "renamed", "rewired", "renumbered")  # in the key, in this order


_NEIGHBOURS = frozenset({Change.SUCCESSORS, Change.PREDECESSORS})


def _rewired(
    subject: DiffSubject, b: NodeInfo, a: NodeInfo, kept_after: frozenset[Key]
) -> bool:
    """Neighbours changed other than by operators added or removed next to it."""
    fwd = subject.diff.node_map
    t_b, t_a = b.topology or "", a.topology or ""
    for nb, na in (
        (b.node.successors, a.node.successors),
        (b.node.predecessors, a.node.predecessors),
    ):
        if any((t_b, x) not in fwd for x in nb) or any((t_a, y) not in kept_after for y in na):
            continue  # an operator was added or removed next to it: listed as such
        if {fwd[(t_b, x)] for x in nb} != {(t_a, y) for y in na}:
            return True
    return False
