"""What the topology diagram draws: the scene (boxes, nodes, edges with coordinates) and the diff
marks on it, plus the text metrics the layout sizes nodes with. Plain frozen data: the template
reads it, the golden tests pin it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.framework import Finding

CHAR_W = 6.6  # width of one character at the diagram's 11px monospace font
LINE_H = 14.0
PAD_X = 10.0
NODE_H = 26.0
BOX_PAD = 14.0
BOX_HEAD = 28.0
BOX_COLLAPSED = 46.0  # height of a collapsed box: its label and a one-line summary
LABEL_MAX = 60


@dataclass(frozen=True, slots=True)
class Mark:
    """How one element of one side relates to the other side of a diff."""

    status: str  # added | removed | renamed | moved | changed
    other: str | None = None  # the counterpart's name, for renamed elements
    note: str = ""


@dataclass(frozen=True, slots=True)
class Marks:
    """Diff marks of one side, by element name (sub-topologies by id)."""

    nodes: Mapping[str, Mark] = field(default_factory=dict)
    stores: Mapping[str, Mark] = field(default_factory=dict)
    topics: Mapping[str, Mark] = field(default_factory=dict)
    subtopologies: Mapping[int, Mark] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.nodes or self.stores or self.topics or self.subtopologies)


@dataclass(frozen=True, slots=True)
class SceneNode:
    id: str
    kind: str  # source | processor | sink | store | topic
    name: str
    label: str
    x: float
    y: float
    w: float
    h: float
    box: str | None  # the sub-topology box it is drawn in (topics: None)
    status: str = ""
    other: str | None = None
    note: str = ""
    internal: str = ""  # repartition | internal (FK-join topics) | "" ; stores: changelog name
    details: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    findings: tuple[tuple[str, str], ...] = ()  # (rule id, anchor) of the findings about it
    compact: tuple[float, float] | None = None  # topics: x, y when every box is folded


@dataclass(frozen=True, slots=True)
class SceneBox:
    id: str
    label: str
    x: float
    y: float
    w: float
    h: float
    status: str
    nodes: int
    stores: int
    collapsed: bool
    rules: tuple[str, ...] = ()
    findings: tuple[tuple[str, str], ...] = ()
    subtopology: int = 0
    is_global: bool = False
    compact: tuple[float, float, float] = (0.0, 0.0, 0.0)  # x, y, w when every box is folded


@dataclass(frozen=True, slots=True)
class SceneEdge:
    id: str
    kind: str  # flow | store | read | write
    d: str
    d_collapsed: str  # edges into/out of a box: the path while it is collapsed; "" = inner edge
    box: str  # inner edges hide with their box, the others re-route to its header
    status: str = ""
    d_compact: str = ""  # edges into/out of a box: the path when every box is folded


@dataclass(frozen=True, slots=True)
class Diagram:
    side: str  # before | after | topology
    width: float
    height: float
    boxes: tuple[SceneBox, ...]
    nodes: tuple[SceneNode, ...]
    edges: tuple[SceneEdge, ...]
    compact_width: float = 0.0
    compact_height: float = 0.0


def text_width(text: str) -> float:
    return len(text) * CHAR_W


def short(name: str, limit: int = LABEL_MAX) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def topic_role(name: str) -> str:
    if name.endswith("-repartition"):
        return "repartition"
    if name.endswith("-topic") and ("SUBSCRIPTION" in name or "subscription-" in name):
        return "internal"
    return ""


def changelog_of(store: str, application_id: str | None) -> str:
    return f"{application_id or '<application.id>'}-{store}-changelog"


def finding_anchor(f: Finding) -> str:
    """The id of a finding's element in the page (stable: built from its fingerprint)."""
    return f"finding-{f.fingerprint}"
