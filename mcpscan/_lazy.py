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
from collections.abc import Iterator, Sequence

import regex

__all__ = ["BACKSTOP_SECONDS", "Alternation", "LazyPattern"]

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


class Alternation:
    """``search`` of a pattern that is an alternation (``whole``), found
    part by part; the same match as ``regex.compile(whole, flags).search``.

    A search of a large alternation tries every part at every position of
    the text (on a megabyte of prose, most characters are one some part
    may start with), while each part alone is found by the engine's fast
    scan for its own leading literal: five to ten times less work for the
    credential-store rule of ``screen_call``. The whole's leftmost match
    starts where the leftmost match of any part starts, and ``match`` of
    the whole there picks what its search would (the first alternative
    that matches at that place). ``parts`` must match at exactly the
    places where ``whole`` can: its alternatives, or those split further.
    Compiled on first use; no time backstop, like the patterns it replaces.
    """

    __slots__ = ("flags", "parts", "whole")

    def __init__(self, parts: Sequence[str], flags: int = 0, whole: str | None = None) -> None:
        self.parts = tuple(parts)
        self.flags = flags
        self.whole = "|".join(self.parts) if whole is None else whole

    @property
    def patterns(self) -> tuple[regex.Pattern[str], ...]:
        """The whole pattern and its parts, compiled."""
        return (_compile(self.whole, self.flags), *(_compile(p, self.flags) for p in self.parts))

    def search(self, text: str) -> regex.Match[str] | None:
        starts = [
            match.start()
            for part in self.parts
            if (match := _compile(part, self.flags).search(text)) is not None
        ]
        if not starts:
            return None
        return _compile(self.whole, self.flags).match(text, min(starts))
