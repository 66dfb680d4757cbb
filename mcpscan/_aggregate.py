"""From signals to findings, severity, verdict and risk.

The rules, in the order an auditor would check them:

* any HARD signal quarantines the tool. Its finding is HIGH, or CRITICAL
  when a hard signal has confidence >= 0.9 or its check escalates;
* SOFT signals alone make the tool reviewable. The soft finding's severity
  counts distinct soft check ids: 1 LOW, 2 MEDIUM, 3 or more HIGH;
* a soft signal below ``Config.review_min_confidence`` (an attack phrase
  that is only mentioned, say) is reported and adds to the risk score, but
  does not by itself make a tool reviewable;
* independent signals add up instead of being deduplicated: a finding's
  confidence and the report's risk score are ``1 - prod(1 - c)``;
* a report whose coverage is incomplete (a limit was hit, or a check did
  not finish) is never PASS: it gets a finding of its own, threat
  ``incomplete-coverage``, that names what was skipped, and at least the
  verdict ``Config.on_incomplete`` asks for (REVIEW by default). The padded
  or oversized text that made a check stop early is exactly where an
  attacker hides the part that was not read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from ._config import Config
from ._model import Coverage, Finding, Severity, Signal, Tier, ToolRef, Verdict

__all__ = ["COVERAGE_CHECK_ID", "INCOMPLETE_THREAT", "aggregate", "combined_confidence"]

#: The ``check_id`` of the signals that say what a scan did not cover. It
#: names no check: the orchestrator itself reports the gap.
COVERAGE_CHECK_ID = "coverage"
#: The threat of the finding an incomplete scan gets.
INCOMPLETE_THREAT = "incomplete-coverage"
_INCOMPLETE = {
    "review": (Verdict.REVIEW, Tier.SOFT, Severity.MEDIUM),
    "quarantine": (Verdict.QUARANTINE, Tier.HARD, Severity.HIGH),
}

_CRITICAL_CONFIDENCE = 0.9
_SOFT_SEVERITY_BY_COUNT = (Severity.LOW, Severity.MEDIUM, Severity.HIGH)


def combined_confidence(confidences: Sequence[float]) -> float:
    """``1 - prod(1 - c)``: the chance that at least one independent signal is right."""
    remaining = 1.0
    for confidence in confidences:
        remaining *= 1.0 - confidence
    return round(1.0 - remaining, 6)


def _fingerprint(tool: ToolRef, tier: Tier, signals: Sequence[Signal]) -> str:
    # Only fields that do not drift between runs: no offsets, no clock, no
    # confidence (a retuned rule should not invalidate every baseline).
    material = sorted({(s.check_id, s.rule_id, s.location, s.evidence) for s in signals})
    payload = json.dumps([tool.server, tool.name, tier.value, material], ensure_ascii=True)
    return "mcpscan-f1:" + hashlib.sha256(payload.encode()).hexdigest()[:32]


def _leading_threat(signals: Sequence[Signal]) -> str:
    # The most confident signal names the threat; ties go to the first in
    # sorted order, so the choice is deterministic.
    best = max(signals, key=lambda s: s.confidence)
    return best.threat


def _hard_finding(tool: ToolRef, signals: Sequence[Signal]) -> Finding:
    critical = any(s.escalate or s.confidence >= _CRITICAL_CONFIDENCE for s in signals)
    return Finding(
        tier=Tier.HARD,
        severity=Severity.CRITICAL if critical else Severity.HIGH,
        confidence=combined_confidence([s.confidence for s in signals]),
        threat=_leading_threat(signals),
        check_ids=sorted({s.check_id for s in signals}),
        signals=signals,
        fingerprint=_fingerprint(tool, Tier.HARD, signals),
    )


def _soft_finding(tool: ToolRef, signals: Sequence[Signal], threshold: float) -> Finding | None:
    reviewable = [s for s in signals if s.confidence >= threshold]
    if not reviewable:
        return None
    distinct = len({s.check_id for s in reviewable})
    severity = _SOFT_SEVERITY_BY_COUNT[min(distinct, len(_SOFT_SEVERITY_BY_COUNT)) - 1]
    return Finding(
        tier=Tier.SOFT,
        severity=severity,
        # Every soft signal agrees with the finding, discounted ones included.
        confidence=combined_confidence([s.confidence for s in signals]),
        threat=_leading_threat(reviewable),
        check_ids=sorted({s.check_id for s in reviewable}),
        signals=signals,
        fingerprint=_fingerprint(tool, Tier.SOFT, reviewable),
    )


def coverage_signals(coverage: Coverage, tier: Tier) -> list[Signal]:
    """One signal per gap: each (check, limit) that was hit, each check that
    did not finish. Sorted; the location is the first place a limit was hit."""
    gaps: dict[tuple[str, str], Signal] = {}
    for cap in sorted(coverage.capped, key=lambda c: c.sort_key()):
        who = cap.check_id or "the walk"
        key = (cap.check_id or "", cap.limit)
        if key not in gaps:
            gaps[key] = _gap(tier, f"coverage.{cap.limit}", f"{who} skipped {cap.skipped}", cap)
    for entry in coverage.degraded:
        evidence = f"{entry.check_id} did not finish ({entry.error_type})"
        gaps[(entry.check_id, "\x00" + entry.error_type)] = _gap(
            tier, "coverage.degraded", evidence, None
        )
    return sorted(gaps.values(), key=Signal.sort_key)


def _gap(tier: Tier, rule_id: str, evidence: str, cap: object) -> Signal:
    return Signal(
        check_id=COVERAGE_CHECK_ID,
        rule_id=rule_id,
        tier=tier,
        threat=INCOMPLETE_THREAT,
        # Certain: the report itself says this part was not checked.
        confidence=1.0,
        evidence=evidence,
        location=getattr(cap, "location", ""),
    )


def incomplete_finding(
    tool: ToolRef, coverage: Coverage, config: Config
) -> tuple[Verdict, Finding] | None:
    """The verdict floor and the finding of an incomplete scan; None when
    the scan was complete or ``Config.on_incomplete`` is ``"pass"``."""
    rule = _INCOMPLETE.get(config.on_incomplete)
    if rule is None or coverage.complete:
        return None
    verdict, tier, severity = rule
    gaps = coverage_signals(coverage, tier)
    finding = Finding(
        tier=tier,
        severity=severity,
        confidence=1.0,
        threat=INCOMPLETE_THREAT,
        check_ids=(COVERAGE_CHECK_ID,),
        signals=gaps,
        fingerprint=_fingerprint(tool, tier, gaps),
    )
    return verdict, finding


def aggregate(
    tool: ToolRef, signals: Sequence[Signal], config: Config, coverage: Coverage | None = None
) -> tuple[Verdict, Severity | None, float, tuple[Finding, ...]]:
    """Verdict, report severity, risk score and findings for sorted signals.

    With ``coverage``, an incomplete scan adds its own finding (see the
    module docstring); the risk score stays that of the detections.
    """
    hard = [s for s in signals if s.tier is Tier.HARD]
    soft = [s for s in signals if s.tier is Tier.SOFT]
    findings: list[Finding] = []
    if hard:
        findings.append(_hard_finding(tool, hard))
    if soft:
        soft_finding = _soft_finding(tool, soft, config.review_min_confidence)
        if soft_finding is not None:
            findings.append(soft_finding)
    if hard:
        verdict = Verdict.QUARANTINE
    elif findings:
        verdict = Verdict.REVIEW
    else:
        verdict = Verdict.PASS
    gap = incomplete_finding(tool, coverage, config) if coverage is not None else None
    if gap is not None:
        floor, finding = gap
        findings.append(finding)
        verdict = max(verdict, floor, key=lambda v: v.rank)
    severity = max((f.severity for f in findings), default=None)
    risk = combined_confidence([s.confidence for s in signals])
    return verdict, severity, risk, tuple(findings)
