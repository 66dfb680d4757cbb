"""Secret recognisers shared by the embedded-secret check and evidence redaction.

``find_secret_spans(text)`` returns ``(start, end, kind)`` for every
credential-looking value in ``text``, sorted by start. The embedded-secret
check adds confidence and validation on top; the evidence helper uses the
spans to redact any secret before it can reach a report.
"""

from __future__ import annotations

import regex

__all__ = ["find_secret_spans"]

_PATTERNS = (
    ("aws_access_key", regex.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github_token", regex.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b")),
    ("private_key", regex.compile(r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----")),
)


def find_secret_spans(text: str) -> list[tuple[int, int, str]]:
    spans = [
        (m.start(), m.end(), kind) for kind, pattern in _PATTERNS for m in pattern.finditer(text)
    ]
    spans.sort()
    return spans
