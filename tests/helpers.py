"""Tiny checks whose behaviour the core tests control."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mcpscan import Signal, Tier


class FixedCheck:
    """Yields the signals it was built with, re-stamped with its own id."""

    version = "1"

    def __init__(self, check_id: str, *specs: tuple[Tier, float], escalate: bool = False) -> None:
        self.id = check_id
        self.specs = specs
        self.escalate = escalate

    def run(self, tool: object, context: object) -> Iterator[Signal]:
        for index, (tier, confidence) in enumerate(self.specs):
            yield Signal(
                check_id=self.id,
                rule_id=f"{self.id}.rule{index}",
                tier=tier,
                threat="test",
                confidence=confidence,
                evidence=f"evidence {index}",
                location="description",
                escalate=self.escalate,
            )


def soft(check_id: str, confidence: float = 0.6) -> FixedCheck:
    return FixedCheck(check_id, (Tier.SOFT, confidence))


def hard(check_id: str, confidence: float = 0.8, *, escalate: bool = False) -> FixedCheck:
    return FixedCheck(check_id, (Tier.HARD, confidence), escalate=escalate)


def run_docs_page(page: str) -> None:
    """Run every ```python block of ``docs/<page>`` in order, as a reader would.

    Call it from a test that has chdir-ed to a temporary folder: the examples
    may write files.
    """
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / page).read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(block, f"docs/{page}", "exec"), {})


def assert_doctests_pass(module: object) -> None:
    """The module's docstring examples exist and all pass."""
    import doctest

    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def count_decodings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list counting the blobs decode-then-confirm decodes:
    counted work that a test can assert where time would flake."""
    from mcpscan.checks import decode_then_confirm

    count = [0]
    original = decode_then_confirm._candidate_decodings

    def counting(candidate: Any) -> Any:
        count[0] += 1
        return original(candidate)

    monkeypatch.setattr(decode_then_confirm, "_candidate_decodings", counting)
    return count
