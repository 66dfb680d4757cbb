"""The imperative-directive rule model: rule ids, positions, the Rule record.

Kept apart from the phrase tables (``_directive_rules``), which take a
tenth of a second to build: the check imports this module at once and
builds the tables on its first scan.
"""

from __future__ import annotations

import enum

import attrs

from .._lazy import LazyPattern

__all__ = [
    "CONCEALMENT",
    "DATA_ROUTING",
    "OVERRIDE",
    "PRE_ACTION",
    "PRIORITY",
    "PSEUDO_SYSTEM",
    "SENSITIVE_TARGET",
    "Position",
    "Rule",
]

CONCEALMENT = "directive.concealment"
PRE_ACTION = "directive.pre_action"
OVERRIDE = "directive.override"
PSEUDO_SYSTEM = "directive.pseudo_system"
PRIORITY = "directive.priority"
DATA_ROUTING = "directive.data_routing"
SENSITIVE_TARGET = "directive.sensitive_target"


class Position(enum.Enum):
    """How a rule decides that its phrase is addressed to the model."""

    INHERENT = "inherent"
    LEAD = "lead"
    FRAMED = "framed"


@attrs.frozen
class Rule:
    """One phrase family member.

    ``exclude`` (optional) is searched in the match and the 80 characters
    each side of it; a hit cancels the rule there. ``subject_check`` drops a match
    preceded by a descriptive subject ("the parser ignores previous ...").
    ``guard_negation`` drops a match whose clause is already negated ("never
    send data without telling the user" is a safeguard, not concealment).
    ``descriptive_confidence`` (LEAD rules) is the score when the verb has
    another subject ("the request includes your system prompt"); None drops
    such a match.
    ``lookback`` bounds how far before its anchor a match may start (None:
    the whole window); a small bound lets the check try a few word starts
    instead of searching the window.
    ``requires`` (optional) is a part every match of ``pattern`` holds (the
    destination of a sending rule, say), written as the same regex text the
    pattern holds: it is searched once in the window a match can occupy
    before the pattern is tried, and a window without it is a failed
    confirmation. Most windows hold none, and one search for a short part
    costs less than the full pattern's attempts at each place.
    """

    rule_id: str
    name: str
    anchors: tuple[str, ...]
    pattern: LazyPattern
    confidence: float
    position: Position = Position.INHERENT
    clause_confidence: float = 0.0
    exclude: LazyPattern | None = None
    subject_check: bool = False
    guard_negation: bool = False
    lookback: int | None = None
    descriptive_confidence: float | None = None
    requires: LazyPattern | None = None
