"""Progress of long CLI runs, drawn on stderr only when it is a terminal.

Library functions take a ``progress(done, total)`` callback and print
nothing; the CLI passes the one made here. Piped or redirected stderr (CI
logs, files) gets nothing, so logs stay free of carriage returns.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

__all__ = ["terminal_progress"]

# Fewer items than this finish before a person would look at a counter.
_MIN_ITEMS = 200


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed or odd streams
        return False


def terminal_progress(
    stream: TextIO | None, noun: str, total_hint: int | None = None
) -> Callable[[int, int], None] | None:
    """A ``progress(done, total)`` callback drawing ``noun`` counts on ``stream``.

    None when ``stream`` is not a terminal, or when ``total_hint`` says the
    run is too short to need one.
    """
    if stream is None or not _is_terminal(stream):
        return None
    if total_hint is not None and total_hint < _MIN_ITEMS:
        return None
    shown = [-1]

    def draw(done: int, total: int) -> None:
        # Redraw only when the whole percentage changes: at most ~100 writes.
        percent = done * 100 // total if total else 100
        if percent == shown[0] and done != total:
            return
        shown[0] = percent
        end = "\n" if done >= total else ""
        try:
            stream.write(f"\rmcpscan: {done:,}/{total:,} {noun} ({percent}%){end}")
            stream.flush()
        except (OSError, ValueError):  # a closed terminal must not stop the scan
            shown[0] = 101

    return draw
