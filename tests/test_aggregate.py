"""Aggregation rules: tiers, severity by distinct soft checks, agreement."""

from __future__ import annotations

import pytest
from helpers import FixedCheck, hard, soft

import mcpscan
from mcpscan import Severity, Tier, Verdict

TOOL = {"name": "add", "description": "Add two numbers."}


def test_no_signals_pass() -> None:
    report = mcpscan.scan(TOOL, checks=[])
    assert report.verdict is Verdict.PASS
    assert report.severity is None
    assert report.findings == ()
    assert report.risk_score == 0.0


@pytest.mark.parametrize(
    ("count", "severity"),
    [(1, Severity.LOW), (2, Severity.MEDIUM), (3, Severity.HIGH), (4, Severity.HIGH)],
)
def test_distinct_soft_checks_set_severity(count: int, severity: Severity) -> None:
    checks = [soft(f"soft-{i}") for i in range(count)]
    report = mcpscan.scan(TOOL, checks=checks)
    assert report.verdict is Verdict.REVIEW
    (finding,) = report.findings
    assert finding.tier is Tier.SOFT
    assert finding.severity is severity
    assert finding.check_ids == tuple(sorted(c.id for c in checks))


def test_many_signals_of_one_check_count_once_for_severity() -> None:
    check = FixedCheck("one", (Tier.SOFT, 0.6), (Tier.SOFT, 0.7), (Tier.SOFT, 0.5))
    report = mcpscan.scan(TOOL, checks=[check])
    (finding,) = report.findings
    assert finding.severity is Severity.LOW
    assert len(finding.signals) == 3


def test_hard_signal_quarantines_with_high() -> None:
    report = mcpscan.scan(TOOL, checks=[hard("h", 0.8), soft("s")])
    assert report.verdict is Verdict.QUARANTINE
    hard_finding = next(f for f in report.findings if f.tier is Tier.HARD)
    assert hard_finding.severity is Severity.HIGH
    assert report.severity is Severity.HIGH


@pytest.mark.parametrize(("confidence", "escalate"), [(0.9, False), (0.95, False), (0.5, True)])
def test_hard_signal_critical_when_confident_or_escalated(
    confidence: float, escalate: bool
) -> None:
    report = mcpscan.scan(TOOL, checks=[hard("h", confidence, escalate=escalate)])
    assert report.severity is Severity.CRITICAL


def test_agreement_raises_confidence_and_risk() -> None:
    one = mcpscan.scan(TOOL, checks=[soft("a", 0.5)])
    two = mcpscan.scan(TOOL, checks=[soft("a", 0.5), soft("b", 0.5)])
    three = mcpscan.scan(TOOL, checks=[soft("a", 0.5), soft("b", 0.5), soft("c", 0.5)])
    assert one.findings[0].confidence == pytest.approx(0.5)
    assert two.findings[0].confidence == pytest.approx(0.75)
    assert three.findings[0].confidence == pytest.approx(0.875)
    assert one.risk_score < two.risk_score < three.risk_score
    # Nothing is deduplicated away: every signal is in the report.
    assert len(three.signals) == 3


def test_discounted_soft_signal_alone_does_not_make_reviewable() -> None:
    report = mcpscan.scan(TOOL, checks=[soft("mention", 0.3)])
    assert report.verdict is Verdict.PASS
    assert report.findings == ()
    assert len(report.signals) == 1
    assert report.risk_score == pytest.approx(0.3)


def test_discounted_signal_still_adds_to_agreeing_finding() -> None:
    report = mcpscan.scan(TOOL, checks=[soft("real", 0.6), soft("mention", 0.3)])
    (finding,) = report.findings
    assert finding.check_ids == ("real",)
    assert finding.severity is Severity.LOW
    assert finding.confidence == pytest.approx(1 - 0.4 * 0.7)


def test_review_threshold_is_configurable() -> None:
    config = mcpscan.Config(review_min_confidence=0.2)
    report = mcpscan.scan(TOOL, checks=[soft("mention", 0.3)], config=config)
    assert report.verdict is Verdict.REVIEW


def test_fingerprint_stable_and_independent_of_confidence() -> None:
    first = mcpscan.scan(TOOL, server="s", checks=[soft("a", 0.5)])
    second = mcpscan.scan(TOOL, server="s", checks=[soft("a", 0.9)])
    other_tool = mcpscan.scan({**TOOL, "name": "sub"}, server="s", checks=[soft("a", 0.5)])
    assert first.findings[0].fingerprint == second.findings[0].fingerprint
    assert first.findings[0].fingerprint != other_tool.findings[0].fingerprint
    assert first.findings[0].fingerprint.startswith("mcpscan-f1:")


def test_severity_ordering() -> None:
    assert Severity.LOW < Severity.MEDIUM < Severity.HIGH < Severity.CRITICAL
    assert Severity.CRITICAL >= Severity.HIGH
    assert max([Severity.MEDIUM, Severity.CRITICAL, Severity.LOW]) is Severity.CRITICAL
    assert Severity.HIGH.value == "high"
    assert Verdict.QUARANTINE.value == "quarantine"
    with pytest.raises(TypeError):
        _ = Severity.LOW < 1  # type: ignore[operator]
