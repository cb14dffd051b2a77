"""Renderers of the one :class:`~linter.report.model.Report` model (HTML: of the whole
:class:`~linter.report.result.Result`), and :func:`render`, which picks one by format name.
Each format's module is imported only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from linter.report.locations import PathBase
from linter.report.model import Report
from linter.report.result import Result

FORMATS: tuple[str, ...] = ("text", "json", "sarif", "github", "markdown", "html")

# format -> (module, function); every function takes the report and returns the whole output.
_RENDERERS: dict[str, tuple[str, str]] = {
    "text": ("linter.report.text", "render_text"),
    "json": ("linter.report.json", "render_json"),
    "sarif": ("linter.report.sarif", "render_sarif"),
    "github": ("linter.report.github", "render_github"),
    "markdown": ("linter.report.markdown", "render_markdown"),
    "html": ("linter.report.html", "render_html"),
}


class UnknownFormatError(ValueError):
    """A format name no renderer answers to."""


def renderer(fmt: str) -> Callable[..., str]:
    try:
        module_name, function = _RENDERERS[fmt]
    except KeyError:
        known = ", ".join(FORMATS)
        raise UnknownFormatError(f"unknown output format {fmt!r} (known: {known})") from None
    module = importlib.import_module(module_name)
    func: Callable[..., str] = getattr(module, function)
    return func


def render(
    result: Result | Report,
    fmt: str,
    *,
    color: bool = False,
    base: PathBase | None = None,
) -> str:
    """The whole output of a check's ``result`` (or of a bare report) in format ``fmt``.
    ``color`` only affects ``text``; ``base`` (the repository root and the directory ksafe ran
    in) makes ``sarif`` and ``github`` locations repository-relative. HTML draws what the
    result holds beside the report (topologies, their diff, the cluster timeline)."""
    func = renderer(fmt)
    if fmt == "html":
        return func(result)
    report = result.report if isinstance(result, Result) else result
    if fmt == "text":
        return func(report, color=color)
    if fmt in ("sarif", "github"):
        return func(report, base)
    return func(report)
