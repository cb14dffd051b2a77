"""Renderers of the one :class:`~linter.report.model.Report` model, and :func:`render`, which picks
one by format name. Each format's module is imported only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from linter.report.locations import PathBase
from linter.report.model import Report

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
    report: Report,
    fmt: str,
    *,
    color: bool = False,
    base: PathBase | None = None,
    **html: Any,
) -> str:
    """The whole output of ``report`` in format ``fmt``. ``color`` only affects ``text``;
    ``base`` (the repository root and the directory ksafe ran in) makes ``sarif`` and ``github``
    locations repository-relative; keyword arguments in ``html`` (``before``, ``after``,
    ``diff``, ``timeline``, ...) are passed to the HTML renderer and ignored by the others."""
    func = renderer(fmt)
    if fmt == "text":
        return func(report, color=color)
    if fmt in ("sarif", "github"):
        return func(report, base)
    if fmt == "html":
        return func(report, **html)
    return func(report)
