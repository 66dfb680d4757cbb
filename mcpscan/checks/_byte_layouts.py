"""Bytes laid out the way firmware and systems engineers write them.

Base64 and plain hex are not the only reversible ways to hide a command in
a description: engineers paste memory dumps, flash images and register
tables, and an attacker hides the same bytes in those layouts, which no
run of one alphabet holds whole:

* a hex dump without its ASCII column (``xxd``: ``00000010: 6520 7468``,
  ``od -x`` with little-endian 16-bit words);
* Intel HEX and Motorola S-records (``:10 7F00 00 6375726C...`` data bytes
  between an address and a checksum);
* uuencoded files (``begin 644 shim.sh`` ... ``end``);
* 16- and 32-bit words (``0x44414552`` in a register table or a C array of
  ``uint32_t``), read in both byte orders;
* semi-octets (nibble-swapped hex, as SIM files and phone numbers store
  digits).

Each finder returns ``(start, end, kind, text)`` spans for
``decode_then_confirm``, whose confirmation step judges what the bytes
say: a dump of a real image or a checksum table decodes to binary or to
harmless text and stays quiet. Every pattern is linear (a bounded repeat
of one class per piece) and runs only after a cheap substring test.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable, Iterator

__all__ = ["decode_layout", "layout_readings", "layout_spans", "nibble_swapped"]

#: Fewest lines of a dump or of records read as one blob (two lines are
#: 16 to 32 bytes: "curl -s URL | sh").
_MIN_LINES = 2
#: Fewest words of a word list read as one blob (four 32-bit words are 16 bytes).
_MIN_WORDS = 4

# An ``xxd`` / ``od`` / ``hexdump`` line without its ASCII column: an offset,
# a colon or blanks, then groups of 2, 4 or 8 hex digits separated by one
# or two blanks. The ASCII column, when present, is left out (it shows the
# text anyway). Must not catch: a table of numbers (no offset column of
# hex digits followed by hex groups on two lines in a row).
_DUMP_LINE = re.compile(
    r"^[ \t]{0,8}(?:0[xX])?[0-9A-Fa-f]{4,8}:?[ \t]{1,4}"
    r"(?P<groups>(?:[0-9A-Fa-f]{2,8}[ \t]{1,2}){0,31}[0-9A-Fa-f]{2,8})[ \t]*"
    r"(?:[ \t]\|[^\n]{0,40}\|?|[ \t]{2}[^\n]{0,40})?$",
    re.MULTILINE,
)
# Intel HEX data record: ``:LLAAAA00<data>CC``; Motorola S1/S2/S3 records:
# ``S1LLAAAA<data>CC`` (2-, 3- and 4-byte addresses).
_INTEL_RECORD = re.compile(
    r"^[ \t]{0,8}:(?P<length>[0-9A-Fa-f]{2})[0-9A-Fa-f]{4}(?P<type>[0-9A-Fa-f]{2})"
    r"(?P<body>[0-9A-Fa-f]{2,600})[ \t]*$",
    re.MULTILINE,
)
_S_RECORD = re.compile(
    r"^[ \t]{0,8}S(?P<kind>[123])(?P<count>[0-9A-Fa-f]{2})(?P<body>[0-9A-Fa-f]{6,600})[ \t]*$",
    re.MULTILINE,
)
# ``begin <mode> <name>`` then uuencoded lines (each starts with its length
# character) up to the closing ``end``.
_UUENCODED = re.compile(
    r"^[ \t]{0,8}begin [0-7]{3,4} [^\n]{1,120}\n"
    r"(?P<body>(?:[ \t]{0,8}[!-`][ -`]{0,80}\n){1,4096})"
    r"[ \t]{0,8}`?\n?[ \t]{0,8}end\b",
    re.MULTILINE,
)
# ``0x44414552`` / ``0x2E2F``: 16- or 32-bit words, anywhere (a table row,
# a C array, an assignment), read as one list while each follows the last
# within a short gap.
_WORD = re.compile(r"(?<![0-9A-Za-z])0[xX](?P<digits>[0-9A-Fa-f]{8}|[0-9A-Fa-f]{4})(?![0-9A-Za-z])")
_WORD_GAP = 80


def layout_spans(text: str, *, dump_hint: bool) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, kind, hex digits or uuencoded lines) of every laid-out
    blob; ``dump_hint`` says a C search found four hex digits, a blank and
    two more (the only place a dump line can be)."""
    if "\n" in text:
        if dump_hint:
            yield from _lines_of(_DUMP_LINE, text, "hex-dump", _dump_digits)
        if "\n:" in text or text.startswith(":"):
            yield from _lines_of(_INTEL_RECORD, text, "hex-records", _intel_digits)
        if "\nS" in text or text.startswith("S"):
            yield from _lines_of(_S_RECORD, text, "hex-records", _s_record_digits)
        if "begin " in text and "\nend" in text:
            for block in _UUENCODED.finditer(text):
                yield block.start(), block.end(), "uuencoded", block.group("body")
    if "0x" in text or "0X" in text:
        yield from _word_lists(text)


def _lines_of(
    pattern: re.Pattern[str],
    text: str,
    kind: str,
    digits_of: Callable[[re.Match[str]], str | None],
) -> Iterator[tuple[int, int, str, str]]:
    """Consecutive lines matching ``pattern`` (at least ``_MIN_LINES``), as
    one blob of the hex digits ``digits_of`` reads from each line."""
    start = end = -1
    pieces: list[str] = []
    for line in pattern.finditer(text):
        digits = digits_of(line)
        if digits is None:
            continue
        if pieces and line.start() == end + 1:
            pieces.append(digits)
            end = line.end()
            continue
        if len(pieces) >= _MIN_LINES:
            yield start, end, kind, " ".join(pieces)
        start, end, pieces = line.start(), line.end(), [digits]
    if len(pieces) >= _MIN_LINES:
        yield start, end, kind, " ".join(pieces)


def _dump_digits(line: re.Match[str]) -> str | None:
    return line.group("groups")


def _intel_digits(line: re.Match[str]) -> str | None:
    """The data bytes of a data record (type 00), without the checksum."""
    if line.group("type") != "00":
        return None
    size = int(line.group("length"), 16) * 2
    body = line.group("body")
    return body[:size] if len(body) == size + 2 else None


#: Address length in hex digits of S1, S2 and S3 records.
_S_ADDRESS = {"1": 4, "2": 6, "3": 8}


def _s_record_digits(line: re.Match[str]) -> str | None:
    """The data bytes of an S1/S2/S3 record: after the address, before the checksum."""
    body = line.group("body")
    if len(body) != int(line.group("count"), 16) * 2:
        return None
    return body[_S_ADDRESS[line.group("kind")] : -2] or None


def _word_lists(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Runs of ``_MIN_WORDS`` or more words of one width, each within
    ``_WORD_GAP`` characters of the last (table cells, array items)."""
    start = end = -1
    words: list[str] = []
    for word in _WORD.finditer(text):
        digits = word.group("digits")
        if words and word.start() - end <= _WORD_GAP and len(digits) == len(words[0]):
            words.append(digits)
            end = word.end()
            continue
        if len(words) >= _MIN_WORDS:
            yield start, end, "hex-words", " ".join(words)
        start, end, words = word.start(), word.end(), [digits]
    if len(words) >= _MIN_WORDS:
        yield start, end, "hex-words", " ".join(words)


def decode_layout(name: str, text: str) -> bytes | None:
    """Bytes of one reading (``layout_readings``) of a laid-out blob."""
    try:
        if name == "uudecode":
            return b"".join(binascii.a2b_uu(line) for line in text.splitlines() if line.strip())
        groups = text.split()
        if name == "hex words, little-endian":
            return b"".join(bytes.fromhex(group)[::-1] for group in groups)
        return bytes.fromhex("".join(groups))
    except (binascii.Error, ValueError):
        return None


def layout_readings(kind: str, text: str) -> Iterator[tuple[str, int, str]]:
    """(step name, estimated size, text) for each reading of a laid-out blob:
    words and grouped dumps both ways round (``od -x`` and a little-endian
    register hold each word's bytes reversed)."""
    if kind == "uuencoded":
        yield "uudecode", len(text) * 3 // 4, text
        return
    yield kind, len(text) // 2, text
    widths = {len(group) for group in text.split()}
    if kind != "hex-records" and len(widths) == 1 and widths.pop() >= 4:
        yield "hex words, little-endian", len(text) // 2, text


#: ASCII text's bytes have a high nibble of 2 to 7: written nibble-swapped,
#: every second hex digit is one of these.
_TEXT_HIGH_NIBBLES = "234567"
#: Shortest semi-octet run read (16 bytes), and the share of its bytes that
#: may fall outside printable ASCII (line breaks, accents).
_MIN_SEMI_OCTETS = 32
_MAX_ODD_NIBBLES = 0.125


def nibble_swapped(digits: str) -> str | None:
    """``digits`` with the two digits of each byte swapped, when they are
    semi-octets of ASCII text (SIM and SMS files store digits so); None for
    ordinary hex (a hash's every second digit is anything)."""
    even = len(digits) - len(digits) % 2
    if even < _MIN_SEMI_OCTETS:
        return None
    lows = digits[1:even:2]
    odd = len(lows) - sum(lows.count(d) for d in _TEXT_HIGH_NIBBLES)
    if odd > len(lows) * _MAX_ODD_NIBBLES:
        return None
    return "".join(digits[i + 1] + digits[i] for i in range(0, even, 2))
