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
"""

from __future__ import annotations

import regex

from . import _secrets

__all__ = ["escape_unsafe", "redact", "safe_evidence"]

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
