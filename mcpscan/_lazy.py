"""Regular expressions compiled the first time they are used.

The rule tables of the wording checks compile to hundreds of large
patterns; compiling them all at import cost most of a second, and most
tools never reach most rules (a rule's pattern runs only around a hit of
its keywords). A ``LazyPattern`` compiles on its first search. Compiled
patterns are memoized by (source, flags), so laziness changes when the
work is done, never what a search returns.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import regex

__all__ = ["BACKSTOP_SECONDS", "LazyPattern"]

#: The longest one search may take. Every pattern is written to be linear
#: (a test feeds each one a crafted worst case), so this is a backstop for
#: a pattern that is not: the search raises ``TimeoutError``, which the
#: orchestrator records as a ``regex_timeout`` cap rather than a failure.
BACKSTOP_SECONDS = 1.0


@functools.cache
def _compile(source: str, flags: int) -> regex.Pattern[str]:
    return regex.compile(source, flags)


class LazyPattern:
    """The subset of ``regex.Pattern`` the checks use, compiled on first use."""

    __slots__ = ("flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags

    def compiled(self) -> regex.Pattern[str]:
        return _compile(self.source, self.flags)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> regex.Match[str] | None:
        return self.compiled().search(text, pos, endpos, timeout=BACKSTOP_SECONDS)

    def match(self, text: str, pos: int = 0, endpos: int | None = None) -> regex.Match[str] | None:
        return self.compiled().match(text, pos, endpos, timeout=BACKSTOP_SECONDS)

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[regex.Match[str]]:
        return self.compiled().finditer(text, pos, endpos, timeout=BACKSTOP_SECONDS)
