"""Colour for the command line's text output: a few ANSI codes, no dependency.

Colour is on when the output is a terminal, off when it is piped or
redirected; ``NO_COLOR`` (any non-empty value, https://no-color.org) turns
it off and ``FORCE_COLOR`` (any non-empty value but ``0``) turns it on,
``NO_COLOR`` winning when both are set. JSON and SARIF are never coloured.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

__all__ = ["paint", "wanted"]

_RESET = "\x1b[0m"
# Verdicts and tiers: red for what is held back, yellow for what a person
# should look at, green for what passes.
_CODES = {
    "quarantine": "\x1b[1;31m",
    "hard": "\x1b[31m",
    "review": "\x1b[33m",
    "soft": "\x1b[33m",
    "pass": "\x1b[32m",
}


def wanted(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether text written to ``stream`` should be coloured."""
    if environ.get("NO_COLOR"):
        return False
    force = environ.get("FORCE_COLOR")
    if force:
        return force != "0"
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def paint(text: str, kind: str) -> str:
    """``text`` in the colour of ``kind`` (a verdict or tier value, any case)."""
    code = _CODES.get(kind.lower())
    return f"{code}{text}{_RESET}" if code else text
