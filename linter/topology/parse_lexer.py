"""The describe() parser's lexer: the terminals of ``grammar.lark`` as one regex driven over the
text, and how the parser's expectations read in an error message. Used by
:mod:`linter.topology.parse` only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lark import Token
from lark.common import LexerConf
from lark.lexer import Lexer, LexerState

from linter.topology import margin
from linter.topology.parse_nodes import Located, quote

__all__ = ["TERMINALS", "LineLexer", "expected_text"]

# Where it ends: a line in column 1 without a keyword (a log line), if no description follows.
_FOREIGN = re.compile(
    r"(?![ \t\n]|Topolog|Sub-topolog|Source:|Processor:|Sink:|-->|<--|Global|none)"
)
# An indented line that is no part of a description (a stack trace's `\tat ...` frames): the
# end of it only behind a blank line, where a description ends; inside one it is an error.
_INDENTED_FOREIGN = re.compile(
    r"[ \t]+(?!Topolog|Sub-topolog|Source:|Processor:|Sink:|-->|<--|Global|none)[^ \t\n]"
)
_CONTENT = re.compile(r"^[ \t]*(?:Sub-topology:|Source:|Processor:|Sink:|-->|<--)", re.MULTILINE)

# What each terminal is, in error messages ("expected ... but found ...").
TERMINALS = {
    "NODES": "a node line (`Source:`, `Processor:` or `Sink:`)",
    "SUBTOPOLOGY": "`Sub-topology: <id>`",
    "TOPOLOGIES": "`Topologies:`",
    "NAMED_TOPOLOGY": "`Topology: <name>:`",
    "LEGACY_TOPOLOGY": "`Sub-topologies:`",
    "GLOBAL_STORES": "`Global Stores:`",
    "GLOBAL_STORE": "`GlobalStore: <source> (topic: <t>) --> <processor> (store: <s>)`",
    "NONE": "`none`",
    "$END": "the end of the text",
}


# The end of a run of nodes: the first line that is neither a node line nor an arrow line.
_RUN_END = re.compile(r"\n(?![ \t]*(?:Source:|Processor:|Sink:|-->|<--))")


class LineLexer(Lexer):
    """The grammar's terminals as one regex driven over the text, one Token per match.

    Lark's own lexer does the same with more bookkeeping per token; with terminals that are
    whole lines or node runs a tight loop is enough, and it can name what the parser expected
    when a line fits no terminal.
    """

    __future_interface__ = 2  # receive the text slice and the parser state

    def __init__(self, conf: LexerConf):
        self.ignore = frozenset(conf.ignore)
        patterns = {t.name: t.pattern.to_regexp() for t in conf.terminals}
        # NODES is NODE+. Matching it line by line is most of the lexing time, so match one
        # NODE and extend the token to the end of the run with one search: the same text.
        nodes = patterns.get("NODES", "")
        self.extend_runs = nodes.startswith("(?:") and nodes.endswith(")+")
        if self.extend_runs:
            patterns["NODES"] = nodes[:-1]
        self.regex = re.compile("|".join(f"(?P<{name}>{p})" for name, p in patterns.items()))

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        text_slice = lexer_state.text
        text, pos, end = text_slice.text, text_slice.start, text_slice.end
        assert isinstance(text, str)
        line = text.count("\n", 0, pos) + 1
        line_start = text.rfind("\n", 0, pos) + 1
        match = self.regex.match
        ignore = self.ignore
        extend_runs = self.extend_runs
        while pos < end:
            found = match(text, pos, end)
            if found is None:
                foreign = pos == line_start and (
                    _FOREIGN.match(text, pos)
                    or (_INDENTED_FOREIGN.match(text, pos) and _behind_blank(text, pos))
                )
                if foreign and not _CONTENT.search(text, pos):
                    # a log line after the description: the end of it, unless what follows
                    # still looks like a description (behind a prefix, say)
                    where = f"after the end of the description (at line {line})"
                    margin.reject_stray(text, pos, len(text), where)
                    return
                line_end = text.find("\n", pos, end)
                rest = text[pos : end if line_end < 0 else line_end]
                stripped = rest.lstrip(" \t")
                column = pos - line_start + 1 + len(rest) - len(stripped)
                expected = expected_text(_acceptable(parser_state))
                raise Located(line, column, expected, "an unknown line " + quote(stripped))
            kind = found.lastgroup
            stop = found.end()
            if kind == "NODES" and extend_runs and text[stop - 1] == "\n" and stop < end:
                run_end = _RUN_END.search(text, stop - 1, end)
                stop = end if run_end is None else run_end.start() + 1
            value = text[pos:stop]
            if kind not in ignore:
                yield Token(kind, value, pos, line, pos - line_start + 1)  # type: ignore[arg-type]
            newlines = value.count("\n")
            if newlines:
                line += newlines
                line_start = pos + value.rfind("\n") + 1
            pos = stop


def _behind_blank(text: str, line_start: int) -> bool:
    """Whether the line before the one starting at ``line_start`` is blank (or there is none)."""
    if line_start == 0:
        return True
    before = text.rfind("\n", 0, line_start - 1) + 1
    return not text[before : line_start - 1].strip(" \t\r")


def _acceptable(parser_state: Any) -> set[str]:
    try:
        return set(parser_state.parse_conf.parse_table.states[parser_state.position])
    except (AttributeError, KeyError, TypeError):  # pragma: no cover - Lark internals moved
        return set(TERMINALS)


def expected_text(names: set[str]) -> str:
    """The terminals in ``names`` as the words an error message says it expected."""
    ordered = [text for key, text in TERMINALS.items() if key in names]
    if not ordered:
        return "the end of the text"
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]
