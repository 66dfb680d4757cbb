"""Render-safe, redacted evidence.

Evidence is shown to people in terminals, web consoles and CI logs, and it
is copied from attacker-written text. Two rules hold for every string that
leaves a scan:

* it never contains control, format (bidi, zero-width), tag, variation
  selector, private-use, surrogate or unassigned characters: those are
  shown as ``\\uXXXX`` escapes, so evidence cannot reorder or hide text in
  the viewer that displays it;
* it never contains a secret value: anything the secret rules recognise is
  replaced by ``[REDACTED_<KIND>:last4=abcd]``.

The orchestrator passes every signal's evidence through ``safe_evidence``,
so third-party checks get both guarantees without doing anything.

Recognising a secret in evidence is not enough on its own: a check may
quote a transformed copy (lower-cased, stemmed, decoded) or a piece cut at
the evidence limit, neither of which has the secret's shape any more.
``SecretGuard`` closes that gap from the other side: it finds the secrets
in the input once, and masks any piece of eight or more of their
characters, in any letter case, wherever it appears in the output.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import regex

from . import _secrets

__all__ = [
    "SecretGuard",
    "escape_unsafe",
    "redact",
    "safe_evidence",
    "scrub_secrets",
    "shown_value",
    "widen_outside_secrets",
]

# Characters that must never reach a viewer unescaped: controls (Cc),
# format (Cf: bidi, zero-width, tags), surrogates, private use, unassigned,
# line and paragraph separators, default-ignorables (Hangul fillers,
# variation selectors) and combining marks that could stack into an
# unreadable tower on a base character.
_UNSAFE = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\\]"
)
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def _escape_char(char: str) -> str:
    if char in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[char]
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def escape_unsafe(text: str) -> str:
    """Escape every character a viewer could hide, reorder or misrender."""
    return str(_UNSAFE.sub(lambda m: _escape_char(m.group()), text))


def redact(value: str, kind: str) -> str:
    """The redacted form of a secret: its kind and its last four characters.

    Four characters are what support desks show of a card or key; they let
    an operator find the key in a vault without the report leaking it.
    """
    tail = escape_unsafe(value[-4:]) if len(value) >= 12 else ""
    label = str(regex.sub(r"[^A-Z0-9_]", "_", kind.upper())) or "SECRET"
    return f"[REDACTED_{label}:last4={tail}]" if tail else f"[REDACTED_{label}]"


def shown_value(value: object, limit: int = 80) -> str:
    """A value quoted in an error message: redacted, escaped and capped.

    ``repr()`` would escape a newline into ``\\n`` before redaction sees the
    text, and a secret after it would lose its shape; here redaction comes
    first.
    """
    if isinstance(value, str):
        return f'"{safe_evidence(value, limit)}"'
    return safe_evidence(repr(value), limit)


def widen_outside_secrets(
    text: str, start: int, end: int, spans: Sequence[tuple[int, int, str]] | None = None
) -> tuple[int, int]:
    """Widen ``[start, end)`` so it never cuts a secret of ``text`` in half
    (``spans``: ``find_secret_spans(text)``, when the caller has it).

    Redaction recognises a secret by its whole shape; a window that kept
    only its second half would show that half unredacted.
    """
    if spans is None:
        spans = _secrets.find_secret_spans(text)
    for span_start, span_end, _kind in spans:
        if span_start < start < span_end:
            start = span_start
        if span_start < end < span_end:
            end = span_end
    return start, end


def scrub_secrets(text: str) -> str:
    """``text`` with every recognised secret replaced by its redacted form."""
    return _scrub(text)


def _scrub(text: str) -> str:
    spans = _secrets.find_secret_spans(text)
    if not spans:
        return text
    pieces: list[str] = []
    cursor = 0
    for start, end, kind in spans:
        if start < cursor:
            continue
        pieces.append(text[cursor:start])
        pieces.append(redact(text[start:end], kind))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    # Never cut an escape sequence or a redaction marker in half: back off to
    # the last complete unit before the limit.
    cut = limit
    for opener in ("[REDACTED_", "\\"):
        at = text.rfind(opener, max(0, limit - 40), limit)
        if at != -1:
            closer = text.find("]", at) + 1 if opener == "[REDACTED_" else at + 10
            if closer > limit:
                cut = min(cut, at)
    return f"{text[:cut]}...[+{len(text) - cut} chars]"


def safe_evidence(text: str, limit: int = 200) -> str:
    """Redact secrets, escape unsafe characters and cap the length."""
    if not isinstance(text, str):
        text = repr(text)
    # Scrub before escaping, so a secret split by an invisible character is
    # still seen whole; scrub again after, for one spelled with escapes.
    return _truncate(_scrub(escape_unsafe(_scrub(text))), limit)


#: The shortest piece of a secret that output may not show.
LEAK_WINDOW = 8
_MASK = "[REDACTED]"


def _pieces(secret: str) -> set[str]:
    lowered = secret.lower()
    return {lowered[i : i + LEAK_WINDOW] for i in range(len(lowered) - LEAK_WINDOW + 1)}


class SpannedText(Protocol):
    """A text that knows the secrets in it (``_walk.LocatedString``)."""

    @property
    def raw(self) -> str: ...

    def secret_spans(self) -> Sequence[tuple[int, int, str]]: ...


def _known_pieces(texts: Sequence[str | SpannedText]) -> frozenset[str]:
    """Every piece of every secret in ``texts`` (see ``SecretGuard``)."""
    pieces: set[str] = set()
    for item in texts:
        spans: Sequence[tuple[int, int, str]]
        if isinstance(item, str):
            text, spans = item, _secrets.find_secret_spans(item)
        else:
            text, spans = item.raw, item.secret_spans()
        for start, end, _kind in spans:
            pieces |= _pieces(text[start:end])
    return frozenset(pieces)


class SecretGuard:
    """Masks, in any output text, every piece of a secret found in the input.

    ``texts`` are the input's strings (every walked string and object key),
    each a ``str`` or a walked string that knows its own secrets (its
    ``raw`` text and ``secret_spans()``, found once per scan and shared with
    the quotes cut from it). They are all read here, when the guard is
    built, before any check runs: what the guard masks then depends on the
    input alone, never on which check quoted something first or on which
    thread. (It once read them lazily, on the first text it masked, from a
    one-shot iterator: a check abandoned at its time limit could start that
    reading on its own thread, and the report built meanwhile saw only the
    rest of the input, so a secret in an argument key went out.) A piece is
    eight characters of a secret compared case-insensitively, so a
    lower-cased, stemmed or truncated quote of a key is caught as surely as
    the key. Legitimate text is touched only where it repeats eight
    characters of a secret of the same input.
    """

    __slots__ = ("_pieces",)

    def __init__(self, texts: Iterable[str | SpannedText]) -> None:
        self._pieces = _known_pieces(tuple(texts))

    def mask(self, text: str) -> str:
        """``text`` with every run that repeats a known secret's piece masked."""
        known = self._pieces
        if not known or len(text) < LEAK_WINDOW:
            return text
        lowered = text.lower()
        if len(lowered) != len(text):
            lowered = "".join(char.lower()[:1] or char for char in text)
        covered_until = -1
        runs: list[tuple[int, int]] = []
        for start in range(len(text) - LEAK_WINDOW + 1):
            if lowered[start : start + LEAK_WINDOW] not in known:
                continue
            end = start + LEAK_WINDOW
            if runs and start <= covered_until:
                runs[-1] = (runs[-1][0], end)
            else:
                runs.append((start, end))
            covered_until = end
        if not runs:
            return text
        pieces: list[str] = []
        cursor = 0
        for start, end in runs:
            pieces.append(text[cursor:start])
            pieces.append(_MASK)
            cursor = end
        pieces.append(text[cursor:])
        return "".join(pieces)

    def evidence(self, text: str, limit: int = 200) -> str:
        """``safe_evidence`` of ``text``, then masked."""
        return self.mask(safe_evidence(text, limit))


#: A guard that knows no secrets (for output with no input to learn from).
NO_INPUT = SecretGuard(())
