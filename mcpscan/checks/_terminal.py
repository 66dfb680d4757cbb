"""What a terminal would hide of a string: a small, bounded terminal model.

A tool description is shown to people in terminals (CLI clients, logs) and
read in full by the model. Control characters and escape sequences make the
two differ: ``ESC[8m`` conceals the text after it, black on black is
unreadable, a carriage return or backspace lets later text overwrite
earlier text, ``ESC[2K`` erases a line, an OSC 8 hyperlink shows one text
and points elsewhere, and a window title or device-control string is never
shown at all. ``render`` plays a string on a virtual screen and reports
which of its characters a person would not see, and why.

The model is deliberately small: one cell per character (no wide
characters), a cursor, the SGR attributes that hide (conceal, foreground
equal to background), cursor movement, carriage return, backspace, tabs,
erase in line / display / characters, save and restore cursor, and the
string sequences (OSC, DCS, APC, PM, SOS). 8-bit C1 forms (U+009B for
``ESC[`` ...) are read like their 7-bit forms: some terminals honour them.
Cost is linear: each character is written once and erased at most once,
and ``render`` reads at most ``limit`` characters (the caller records the
cut).

Escape *notation* written out as text (``\\033[31m``, ``\\x1b[0m``,
``^[[31m``) contains no control character and is never read as a sequence.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import regex

__all__ = ["CONTROL", "Hidden", "Rendering", "render"]

#: Any character that makes a terminal do something other than print: C0
#: controls except tab and newline, a carriage return not followed by a
#: newline, DEL, and the C1 controls.
CONTROL = regex.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")

# One escape sequence or control character. Every repeat is bounded, so a
# match costs at most a few thousand steps and the scan is linear.
_TOKEN = regex.compile(
    r"(?P<csi>(?:\x1b\[|\x9b)(?P<params>[0-?]{0,64})[ -/]{0,8}(?P<final>[@-~])?)"
    r"|(?P<osc>(?:\x1b\]|\x9d)(?P<body>[^\x07\x1b\x9c]{0,4096})(?:\x07|\x1b\\|\x9c)?)"
    r"|(?P<string>(?:\x1b[P_^X]|[\x90\x98\x9e\x9f])(?P<data>[^\x1b\x9c]{0,4096})(?:\x1b\\|\x9c)?)"
    r"|(?P<esc>\x1b[ -/]{0,4}[0-~]?)"
    r"|(?P<ctl>[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n))"
)
_TAB = 8
#: Cursor coordinates are clamped here: ``ESC[99999999C`` moves no further.
_MAX_COORD = 4096
_ALNUM = regex.compile(r"[\p{L}\p{N}]")
#: The default terminal width (VT100): text past it is cut when auto-wrap is off.
_SCREEN_WIDTH = 80
#: The DEC private mode number of auto-wrap (``ESC[?7h`` / ``ESC[?7l``).
_AUTO_WRAP = 7
#: Characters between two hidden runs of one kind that still join them.
_GAP = 3


@attrs.frozen
class Hidden:
    """Characters of the string a terminal would not show, and why.

    ``start``/``end`` span them in the string; ``text`` is what they say
    (printable characters only); ``how`` names the mechanism.
    """

    start: int
    end: int
    text: str
    how: str


@attrs.frozen
class Rendering:
    """The outcome of playing one string: what is hidden, and the notation
    of every sequence or control character seen (``ESC[8m``, ``NUL`` ...)."""

    hidden: tuple[Hidden, ...]
    sequences: tuple[str, ...]
    first: int


def notation(sequence: str) -> str:
    """A control sequence written out with no control character in it."""
    out = []
    for char in sequence:
        code = ord(char)
        if char == "\x1b":
            out.append("ESC")
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            out.append(_NAMES.get(code, f"U+{code:04X}"))
        else:
            out.append(char)
    return "".join(out)


_NAMES = {
    0x00: "NUL",
    0x07: "BEL",
    0x08: "BS",
    0x0B: "VT",
    0x0C: "FF",
    0x0D: "CR",
    0x7F: "DEL",
    0x85: "NEL",
    0x9B: "CSI",
    0x9D: "OSC",
}


@attrs.define
class _Screen:
    """A virtual screen: cells hold the index of the character written there."""

    row: int = 0
    col: int = 0
    saved: tuple[int, int] = (0, 0)
    # row -> col -> (index in the string, visible)
    cells: dict[int, dict[int, tuple[int, bool]]] = attrs.field(factory=dict)
    # index -> how it was hidden
    hidden: dict[int, str] = attrs.field(factory=dict)
    fg: object = None
    bg: object = None
    concealed: bool = False
    #: Auto-wrap (DECAWM); ``ESC[?7l`` turns it off and ``ESC[?7h`` back on.
    wrap: bool = True

    def put(self, index: int, char: str, text: str) -> None:
        row = self.cells.setdefault(self.row, {})
        # With auto-wrap off, a line longer than the screen is cut at its
        # right edge: "ESC[?7l" then a run of blanks pushes an instruction
        # past column 80, where no terminal of the default width shows it.
        past_edge = not self.wrap and self.col >= _SCREEN_WIDTH
        invisible = self.concealed or (self.fg is not None and self.fg == self.bg) or past_edge
        old = row.get(self.col)
        if old is not None and old[1] and text[old[0]] != char:
            self.hidden.setdefault(old[0], "overwritten")
        if invisible:
            self.hidden[index] = (
                "concealed (ESC[8m)"
                if self.concealed
                else "past the right edge, auto-wrap off (ESC[?7l)"
                if past_edge
                else "same colour as background"
            )
        row[self.col] = (index, not invisible)
        self.col = min(self.col + 1, _MAX_COORD)

    def erase(self, row: int, lo: int, hi: int) -> None:
        cells = self.cells.get(row)
        if not cells:
            return
        if hi - lo < len(cells):
            cols = [c for c in range(lo, hi) if c in cells]
        else:
            cols = [c for c in cells if lo <= c < hi]
        for col in cols:
            index, visible = cells.pop(col)
            if visible:
                self.hidden.setdefault(index, "erased")

    def erase_rows(self, rows: Iterator[int]) -> None:
        for row in list(rows):
            self.erase(row, 0, _MAX_COORD + 1)

    def move(self, row: int, col: int) -> None:
        self.row = max(0, min(row, _MAX_COORD * 64))
        self.col = max(0, min(col, _MAX_COORD))


def _numbers(params: str) -> list[int]:
    out = []
    for part in regex.split(r"[;:]", params)[:16]:
        out.append(int(part) if part.isdigit() and len(part) <= 6 else 0)
    return out


def _colour(values: list[int], at: int) -> tuple[object, int]:
    """The colour an extended SGR (38/48) sets, and how many values it used."""
    if at + 1 < len(values) and values[at + 1] == 5 and at + 2 < len(values):
        return ("i", values[at + 2]), 3
    if at + 1 < len(values) and values[at + 1] == 2 and at + 4 < len(values):
        return ("rgb", *values[at + 2 : at + 5]), 5
    return None, 1


def _sgr(screen: _Screen, params: str) -> None:
    values = _numbers(params) or [0]
    at = 0
    while at < len(values):
        value, used = values[at], 1
        if value == 0:
            screen.fg = screen.bg = None
            screen.concealed = False
        elif value == 8:
            screen.concealed = True
        elif value == 28:
            screen.concealed = False
        elif 30 <= value <= 37 or 90 <= value <= 97:
            screen.fg = ("i", value - 30 if value < 90 else value - 82)
        elif 40 <= value <= 47 or 100 <= value <= 107:
            screen.bg = ("i", value - 40 if value < 100 else value - 92)
        elif value in (38, 48):
            colour, used = _colour(values, at)
            if value == 38:
                screen.fg = colour
            else:
                screen.bg = colour
        elif value == 39:
            screen.fg = None
        elif value == 49:
            screen.bg = None
        at += used


def _csi(screen: _Screen, params: str, final: str) -> None:
    if final == "m":
        _sgr(screen, params)
        return
    if final in "hl" and params.startswith("?"):
        if _AUTO_WRAP in _numbers(params[1:]):
            screen.wrap = final == "h"
        return
    values = _numbers(params)
    first = values[0] if values else 0
    count = max(first, 1)
    row, col = screen.row, screen.col
    if final in "AF":
        screen.move(row - count, 0 if final == "F" else col)
    elif final in "BE":
        screen.move(row + count, 0 if final == "E" else col)
    elif final == "C":
        screen.move(row, col + count)
    elif final == "D":
        screen.move(row, col - count)
    elif final == "G":
        screen.move(row, count - 1)
    elif final == "d":
        screen.move(count - 1, col)
    elif final in "Hf":
        screen.move(count - 1, (values[1] if len(values) > 1 and values[1] else 1) - 1)
    elif final == "K":
        lo, hi = {1: (0, col + 1), 2: (0, _MAX_COORD + 1)}.get(first, (col, _MAX_COORD + 1))
        screen.erase(row, lo, hi)
    elif final == "J":
        _erase_display(screen, first)
    elif final in "XP":
        screen.erase(row, col, col + count)
    elif final == "s":
        screen.saved = (row, col)
    elif final == "u":
        screen.move(*screen.saved)


def _erase_display(screen: _Screen, mode: int) -> None:
    row, col = screen.row, screen.col
    if mode in (2, 3):
        screen.erase_rows(iter(screen.cells))
    elif mode == 1:
        screen.erase_rows(r for r in screen.cells if r < row)
        screen.erase(row, 0, col + 1)
    else:
        screen.erase(row, col, _MAX_COORD + 1)
        screen.erase_rows(r for r in screen.cells if r > row)


def _control(screen: _Screen, char: str) -> None:
    if char == "\r":
        screen.move(screen.row, 0)
    elif char in "\n\x85":
        screen.move(screen.row + 1, 0)
    elif char in "\x0b\x0c":
        screen.move(screen.row + 1, screen.col)
    elif char == "\b":
        screen.move(screen.row, screen.col - 1)
    elif char == "\t":
        screen.move(screen.row, (screen.col // _TAB + 1) * _TAB)


def _esc(screen: _Screen, sequence: str) -> None:
    final = sequence[-1:]
    if final == "7":
        screen.saved = (screen.row, screen.col)
    elif final == "8":
        screen.move(*screen.saved)
    elif final == "c":
        screen.erase_rows(iter(screen.cells))
        screen.move(0, 0)
    elif final == "M":
        screen.move(screen.row - 1, screen.col)
    elif final in "DE":
        screen.move(screen.row + 1, 0 if final == "E" else screen.col)


@attrs.define
class _Link:
    """An open OSC 8 hyperlink: its target and where its shown text starts."""

    target: str
    start: int


def _osc(
    body: str, at: int, end: int, text: str, link: _Link | None
) -> tuple[list[Hidden], _Link | None]:
    """What an OSC sequence hides, and the hyperlink open after it."""
    code, _, rest = body.partition(";")
    if code != "8":
        # Window titles (0, 1, 2), clipboard writes (52), palette changes:
        # never shown in the text, read by the model.
        shown = rest if code.isdigit() else body
        if _ALNUM.search(shown):
            what = "window title" if code in ("0", "1", "2") else f"OSC {code or '?'} string"
            return [Hidden(at, end, _printable(shown), f"{what} (never displayed)")], link
        return [], link
    _params, _, target = rest.partition(";")
    hidden: list[Hidden] = []
    if link is not None and link.target:
        shown = _printable(text[link.start : at])
        if not _same_target(shown, link.target):
            hidden.append(
                Hidden(
                    link.start,
                    at,
                    f"{shown} -> {_printable(link.target)}",
                    "hyperlink (OSC 8) whose target differs from the shown text",
                )
            )
    return hidden, (_Link(target, end) if target else None)


def _same_target(shown: str, target: str) -> bool:
    """The shown text names the target (the whole URL or its host)."""
    bare = regex.sub(r"^[a-z][\w+.-]*://", "", target.strip(), flags=regex.IGNORECASE)
    host = bare.split("/", 1)[0].lower()
    shown = shown.strip().lower()
    return bool(host) and (
        bare.lower().rstrip("/") in shown or shown.endswith(host) or host in shown
    )


def _printable(text: str) -> str:
    """``text`` without its escape sequences and control characters."""
    return str(_TOKEN.sub("", text))


def render(text: str, limit: int) -> Rendering:
    """Play ``text[:limit]`` on a virtual terminal: what would it hide?"""
    screen = _Screen()
    sequences: dict[str, None] = {}
    extra: list[Hidden] = []
    link: _Link | None = None
    cursor = 0
    first = -1
    truncated_at = -1
    for match in _TOKEN.finditer(text, 0, min(len(text), limit)):
        for index in range(cursor, match.start()):
            _print(screen, index, text)
        cursor = match.end()
        first = match.start() if first < 0 else first
        token = match.group()
        if match.group("osc") is not None or match.group("string") is not None:
            # The introducer only: the payload is reported as hidden text.
            sequences.setdefault(notation(token[:4]) + "...", None)
        else:
            sequences.setdefault(notation(token[:24]), None)
        if match.group("csi") is not None:
            _csi(screen, match.group("params"), match.group("final") or "")
        elif match.group("osc") is not None:
            found, link = _osc(match.group("body"), match.start(), match.end(), text, link)
            extra.extend(found)
        elif match.group("string") is not None:
            data = match.group("data")
            if _ALNUM.search(data):
                extra.append(
                    Hidden(match.start(), match.end(), _printable(data), "device-control string")
                )
        elif match.group("esc") is not None:
            _esc(screen, token)
        elif token == "\x00" and truncated_at < 0:
            truncated_at = match.end()
        else:
            _control(screen, token)
    for index in range(cursor, min(len(text), limit)):
        _print(screen, index, text)
    hidden = _runs(screen.hidden, text) + extra
    if truncated_at >= 0:
        after = _printable(text[truncated_at:limit])
        if _ALNUM.search(after):
            # Programs that read C strings stop at the first NUL: a viewer
            # built on one shows the text before it, the model reads it all.
            hidden.append(Hidden(truncated_at, min(len(text), limit), after, "after a NUL"))
    return Rendering(
        hidden=tuple(sorted(hidden, key=lambda h: h.start)),
        sequences=tuple(sequences),
        first=first,
    )


def _print(screen: _Screen, index: int, text: str) -> None:
    char = text[index]
    if char == "\n":
        screen.move(screen.row + 1, 0)
    elif char == "\r":  # the CR of a CRLF
        screen.move(screen.row, 0)
    elif char == "\t":
        _control(screen, char)
    else:
        screen.put(index, char, text)


def _runs(hidden: dict[int, str], text: str) -> list[Hidden]:
    """Hidden characters grouped into runs with one mechanism each; a gap
    made only of escape sequences and controls does not end a run."""
    out: list[Hidden] = []
    start = previous = -2
    how = ""
    for index in sorted(hidden):
        # Overwriting a letter with the same letter hides nothing, so the
        # overwritten characters of one line come with small gaps.
        gap = text[previous + 1 : index]
        if hidden[index] == how and (len(gap) <= _GAP or not _printable(gap)):
            previous = index
            continue
        if start >= 0:
            out.append(Hidden(start, previous + 1, _printable(text[start : previous + 1]), how))
        start = previous = index
        how = hidden[index]
    if start >= 0:
        out.append(Hidden(start, previous + 1, _printable(text[start : previous + 1]), how))
    return out
