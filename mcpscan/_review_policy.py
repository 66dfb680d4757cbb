"""What an integration does with a tool, given its report.

Every integration (``mcpscan.mcp.guard`` and the framework adapters) decides
the same way, so a tool hidden by one is hidden by all:

* QUARANTINE is always held back: a hard signal is never shown to a model.
* PASS is always kept.
* REVIEW follows ``on_review``: ``"hide"`` (the default: a security library
  does not show what it is unsure of), ``"warn"`` (keep it and emit an
  :class:`UnsafeToolWarning`, which applications can route to logging or turn
  into an error with the ``warnings`` filters), or a callable that receives
  the report and returns ``True`` to keep the tool (ask a human, consult an
  allow-list ...).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Literal, TypeAlias

from ._evidence import shown_value
from ._model import Report, ScanError, Verdict

__all__ = ["OnReview", "UnsafeToolWarning", "held_back_message", "keeps", "validate_on_review"]

#: ``"hide"``, ``"warn"``, or a callable deciding from the report.
OnReview: TypeAlias = Literal["hide", "warn"] | Callable[[Report], bool]


class UnsafeToolWarning(UserWarning):
    """A REVIEW tool was kept because the integration was told to warn."""


def validate_on_review(on_review: object) -> OnReview:
    """``on_review`` itself, or ``ScanError`` naming the parameter."""
    if on_review in ("hide", "warn") or callable(on_review):
        return on_review
    raise ScanError("on_review", "expected 'hide', 'warn' or a callable taking a Report")


def keeps(report: Report, on_review: OnReview = "hide") -> bool:
    """Whether the tool of ``report`` may be shown to the model."""
    if report.verdict is Verdict.QUARANTINE:
        return False
    if report.verdict is Verdict.PASS:
        return True
    if on_review == "hide":
        return False
    if on_review == "warn":
        warnings.warn(_review_message(report), UnsafeToolWarning, stacklevel=3)
        return True
    if callable(on_review):
        # Only an explicit True keeps the tool: a callback that returns None
        # (forgot to return) must not open the gate.
        return on_review(report) is True
    raise ScanError("on_review", "expected 'hide', 'warn' or a callable taking a Report")


def held_back_message(report: Report) -> str:
    """A log line for a tool an adapter did not show: its name, verdict and rule ids."""
    return (
        f"tool {shown_value(report.tool.name)} held back: {report.verdict.value} ({_rules(report)})"
    )


def _review_message(report: Report) -> str:
    return f"tool {shown_value(report.tool.name)} needs review ({_rules(report)}); kept"


def _rules(report: Report) -> str:
    # Rule ids only: evidence can carry attacker text, and warnings often end
    # up in logs that render it; the name is attacker text too, so it is escaped.
    return ", ".join(sorted({signal.rule_id for signal in report.signals}))
