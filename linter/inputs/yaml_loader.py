"""The one YAML loader: safe tags only, no aliases (a few hundred bytes of nested aliases expand
to gigabytes), no key given twice in one mapping (naming both lines), no number too long to be a
value of any Kafka field. Every failure is a located :class:`MalformedInput`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import yaml

from linter.inputs.checks import check_nesting, long_number, out_of_range
from linter.inputs.errors import MAX_DEPTH, MAX_DIGITS, MalformedInput, quote


class _Refused(yaml.MarkedYAMLError):
    """YAML that parses but that ksafe refuses (an alias, a duplicate key, a huge number)."""


class _Loader(yaml.SafeLoader):
    """SafeLoader without aliases, duplicate keys or unbounded numbers."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise _Refused(
                None,
                None,
                "aliases (*name) are not accepted; write the value out",
                event.start_mark,
            )
        depth = getattr(self, "_depth", 0)
        if depth >= MAX_DEPTH:
            raise _Refused(
                None,
                None,
                f"nested more than {MAX_DEPTH} levels deep",
                self.peek_event().start_mark,  # type: ignore[no-untyped-call]
            )
        self._depth = depth + 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth = depth

    def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
        node: yaml.MappingNode = super().compose_mapping_node(anchor)
        seen: dict[str, yaml.Node] = {}
        for key, _ in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            if key.value in seen:
                first = seen[key.value].start_mark.line + 1
                raise _Refused(
                    None,
                    None,
                    f"key {quote(key.value)} given twice (lines {first} and "
                    f"{key.start_mark.line + 1}); the second would replace the first",
                    key.start_mark,
                )
            seen[key.value] = key
        return node

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        _check_digits(node)
        value: int = super().construct_yaml_int(node)
        return value

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        _check_digits(node)
        value: float = super().construct_yaml_float(node)
        return value


def _check_digits(node: yaml.ScalarNode) -> None:
    digits = sum(c.isdigit() for c in str(node.value))
    if digits > MAX_DIGITS:
        raise _Refused(None, None, f"a number of {digits} digits is out of range", node.start_mark)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:float", _Loader.construct_yaml_float)


def _yaml_errors(text: str, path: str, action: Callable[[], Any]) -> Any:
    try:
        return action()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        problem = error.problem or error.context or "not valid YAML"
        if not isinstance(error, _Refused):
            problem = f"not valid YAML: {problem}"
        raise MalformedInput(path, line, problem, col) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        raise MalformedInput(path, line, f"not valid YAML: {error.reason}") from None
    except yaml.YAMLError as error:
        raise MalformedInput(path, None, f"not valid YAML: {error}") from None
    except RecursionError:
        raise MalformedInput(path, None, "nested too deeply to read") from None


def compose_yaml(text: str, path: str) -> yaml.Node | None:
    """The YAML node tree of ``text`` (positions kept), checked as :func:`load_yaml` is."""
    check_nesting(text, path)

    def compose() -> yaml.Node | None:
        loader = _Loader(text)
        try:
            node: yaml.Node | None = loader.get_single_node()
            return node
        finally:
            loader.dispose()

    result: yaml.Node | None = _yaml_errors(text, path, compose)
    if result is not None:
        _check_scalars(result, path)
    return result


def _check_scalars(node: yaml.Node, path: str) -> None:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.ScalarNode):
            if isinstance(current.value, str) and long_number(current.value):
                mark = current.start_mark
                message = out_of_range(current.value)
                raise MalformedInput(path, mark.line + 1, message, mark.column + 1)
        elif isinstance(current, yaml.SequenceNode):  # reversed: the first in the text wins
            stack.extend(reversed(current.value))
        elif isinstance(current, yaml.MappingNode):
            for key, value in reversed(current.value):
                stack.extend((value, key))


def construct_yaml(node: yaml.Node, path: str, text: str = "") -> Any:
    """The Python value of a node from :func:`compose_yaml`."""

    def construct() -> Any:
        loader = _Loader("")
        try:
            return loader.construct_object(node, deep=True)
        finally:
            loader.dispose()

    return _yaml_errors(text, path, construct)


def load_yaml(text: str, path: str) -> Any:
    """The value of a YAML text (safe tags only), or a located :class:`MalformedInput`."""
    node = compose_yaml(text, path)
    return None if node is None else construct_yaml(node, path, text)


def node_position(
    text: str, path: Sequence[int | str], at_key: bool = False
) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the deepest node of YAML ``text`` along ``path`` (mapping
    keys and sequence indices, e.g. a pydantic error location); ``at_key``: of the last key
    itself rather than its value. (None, None) when the text does not compose."""
    try:
        node = compose_yaml(text, "<located>")
    except MalformedInput:
        return None, None
    if node is None:
        return None, None
    found = node
    for n, part in enumerate(path):
        child = _child(found, part, key=at_key and n == len(path) - 1)
        if child is None:
            break
        found = child
    return found.start_mark.line + 1, found.start_mark.column + 1


def _child(node: yaml.Node, part: int | str, key: bool = False) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, value in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                found: yaml.Node = k if key else value
                return found
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        if 0 <= part < len(node.value):
            child: yaml.Node = node.value[part]
            return child
        return None
    return None
