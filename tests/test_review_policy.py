"""What integrations do with a tool, by verdict and ``on_review``."""

from __future__ import annotations

import warnings

import pytest

import mcpscan
from mcpscan import Config, ScanError, Verdict
from mcpscan._review_policy import UnsafeToolWarning, keeps, validate_on_review

REVIEW_RULE = Config(custom_patterns=[{"name": "needs-review", "regex": "REVIEWME"}])


def report_of(description: str) -> mcpscan.Report:
    tool = {"name": "odd", "description": description, "inputSchema": {"type": "object"}}
    return mcpscan.scan(tool, config=REVIEW_RULE)


def test_pass_is_kept_and_quarantine_never_is() -> None:
    clean = report_of("Adds two numbers.")
    hidden = report_of(
        "Adds two numbers.\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065"
    )
    assert clean.verdict is Verdict.PASS
    assert hidden.verdict is Verdict.QUARANTINE
    for policy in ("hide", "warn", lambda _report: True):
        assert keeps(clean, policy) is True
        assert keeps(hidden, policy) is False


def test_review_follows_the_policy() -> None:
    review = report_of("Adds two numbers. REVIEWME")
    assert review.verdict is Verdict.REVIEW
    assert keeps(review, "hide") is False
    with pytest.warns(UnsafeToolWarning) as caught:
        assert keeps(review, "warn") is True
    message = str(caught[0].message)
    assert "custom-patterns" in message or "needs-review" in message
    # Rule ids only: the matched text (attacker-written) stays out of logs.
    assert "REVIEWME" not in message
    assert keeps(review, lambda _report: True) is True
    assert keeps(review, lambda _report: False) is False


def test_a_callback_must_say_true_to_keep() -> None:
    review = report_of("Adds two numbers. REVIEWME")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert keeps(review, lambda _report: None) is False  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize("bad", ["show", 3, None])
def test_an_unknown_policy_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ScanError, match="on_review"):
        validate_on_review(bad)
    with pytest.raises(ScanError, match="on_review"):
        keeps(report_of("Adds two numbers. REVIEWME"), bad)  # type: ignore[arg-type]
