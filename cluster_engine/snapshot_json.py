"""A snapshot as JSON: the text of ``Snapshot.model_dump_json(indent=2)``, in pieces.

A 200k-partition snapshot is ~80 MB of indented JSON. Serialised through pydantic, every partition
becomes a dict first; here pydantic writes everything but the partitions (``bare``), and each
topic's partitions are written from its columns, each distinct combination of replica lists and
leader rendered once. The pieces can be written as they come, without the whole text in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import add

from pydantic_core import to_json

from cluster_engine.partitions import NO_LEADER, Members, Partitions
from cluster_engine.snapshot import Snapshot

# With indent=2 a top-level key starts a line with two spaces, a topic's key with six: JSON
# strings hold no line break, so these are found nowhere else in their region.
_TOPICS = '\n  "topics": ['
_AFTER_TOPICS = '\n  "configs": '
_PARTITIONS = '\n      "partitions": []'

# A partition: an object at indentation 8 in the topic's list, its keys at 10, list items at 12.
_KEY = "\n          "
_ITEM = "\n            "

Tail = tuple[Members, int, Members, Members | None, Members | None, Members, Members]


def dump_json(snapshot: Snapshot) -> Iterator[str]:
    """The pieces of ``snapshot.model_dump_json(indent=2)``, in order."""
    empty = Partitions.empty()
    topics = tuple(t.model_copy(update={"partitions": empty}) for t in snapshot.topics)
    text = snapshot.model_copy(update={"topics": topics}).model_dump_json(indent=2)
    start = text.find(_TOPICS)
    end = text.find(_AFTER_TOPICS, start)
    pieces = text[start:end].split(_PARTITIONS)
    if start < 0 or end < 0 or len(pieces) != len(snapshot.topics) + 1:
        raise AssertionError("the snapshot's JSON does not have the expected layout")
    yield text[:start]
    yield pieces[0]
    tails = _Tails()
    for topic, after in zip(snapshot.topics, pieces[1:], strict=True):
        yield '\n      "partitions": '
        yield _partitions(topic.partitions, tails)
        yield after
    yield text[end:]


def _partitions(parts: Partitions, tails: _Tails) -> str:
    if not len(parts):
        return "[]"
    after = zip(
        parts.replicas,
        parts.leader,
        parts.isr,
        parts.elr,
        parts.last_known_elr,
        parts.adding,
        parts.removing,
        strict=True,
    )
    # C-level maps over the columns: a Python statement per partition would cost more
    rendered = map(add, map(str, parts.number), map(tails.__getitem__, after))
    names = parts.topics
    if isinstance(names, str):  # one name: each partition's head is the separator's end
        head = _head(names)
        return f"[\n{head}" + f",\n{head}".join(rendered) + "\n      ]"
    heads = map(_head, names)
    return "[\n" + ",\n".join(map(add, heads, rendered)) + "\n      ]"


def _head(name: str) -> str:
    return f'        {{{_KEY}"topic": {to_json(name).decode()},{_KEY}"partition": '


class _Tails(dict[Tail, str]):
    """A partition's text after its number, by (replicas, leader, isr, elr, last known elr,
    adding, removing): a cluster has few distinct ones."""

    def __missing__(self, key: Tail) -> str:
        replicas, leader, isr, elr, last_known, adding, removing = key
        text = self[key] = (
            f',{_KEY}"replicas": {_ids(replicas)}'
            f',{_KEY}"leader": {"null" if leader == NO_LEADER else leader}'
            f',{_KEY}"isr": {_ids(isr)}'
            f',{_KEY}"elr": {_ids(elr)}'
            f',{_KEY}"last_known_elr": {_ids(last_known)}'
            f',{_KEY}"adding_replicas": {_ids(adding)}'
            f',{_KEY}"removing_replicas": {_ids(removing)}'
            "\n        }"
        )
        return text


def _ids(ids: Members | None) -> str:
    if ids is None:
        return "null"
    if not ids:
        return "[]"
    return "[" + ",".join(f"{_ITEM}{i}" for i in ids) + "\n          ]"
