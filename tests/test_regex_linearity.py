"""Every regular expression in mcpscan is linear on pathological input.

The patterns are collected from the modules themselves (module constants,
rule tables, keyword gates), so a new pattern is covered without editing
this file. Each is run on crafted worst cases at two sizes; a pattern whose
time grows much faster than its input fails. The regex time backstop is
tested too: a timeout is recorded as a cap, never raised.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Iterator

import attrs
import pytest
import regex

import mcpscan
from mcpscan import Config, Signal
from mcpscan._lazy import LazyPattern

pytestmark = pytest.mark.slow

_SMALL, _BIG = 4_000, 16_000
# Characters and runs that make a backtracking engine work hardest on the
# shapes these patterns have: word runs, spaces between words, paths,
# addresses, digits and hex, escapes, quotes, keyword repetitions.
_UNITS = [
    "a",
    " ",
    "a ",
    "/",
    "./",
    "@a",
    "0",
    "aA1",
    "'",
    "-a",
    "=",
    "\\x4",
    "%4",
    "~/.",
    "ignore ",
    "http://a",
]


def _objects() -> Iterator[object]:
    for info in pkgutil.walk_packages(mcpscan.__path__, "mcpscan."):
        if info.name in ("mcpscan.__main__", "mcpscan.mcp", "mcpscan._cli_mcp"):
            continue
        module = importlib.import_module(info.name)
        yield from vars(module).values()


def _patterns_in(value: object, depth: int = 0) -> Iterator[object]:
    if isinstance(value, (regex.Pattern, re.Pattern, LazyPattern)):
        yield value
    elif depth < 3 and isinstance(value, (tuple, list, frozenset)):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from _patterns_in(getattr(value, field.name), depth + 1)
    elif depth < 3 and hasattr(value, "patterns") and not isinstance(value, type):
        yield from _patterns_in(value.patterns, depth + 1)


def _all_patterns() -> list[object]:
    seen: dict[tuple[str, int], object] = {}
    for value in _objects():
        for pattern in _patterns_in(value):
            source = getattr(pattern, "pattern", getattr(pattern, "source", ""))
            if isinstance(source, str):  # byte patterns never see text
                seen.setdefault((source, pattern.flags), pattern)  # type: ignore[attr-defined]
    return list(seen.values())


PATTERNS = _all_patterns()


def _time(pattern: object, text: str) -> float:
    started = time.perf_counter()
    try:
        pattern.search(text)  # type: ignore[attr-defined]
    except TimeoutError:
        return float("inf")
    return time.perf_counter() - started


def test_patterns_were_found() -> None:
    # The collector must see the rule tables, not just a few constants.
    assert len(PATTERNS) > 200


@pytest.mark.parametrize("unit", _UNITS)
def test_every_pattern_is_linear(unit: str) -> None:
    slow = []
    small = (unit * (_SMALL // len(unit) + 1))[:_SMALL]
    big = (unit * (_BIG // len(unit) + 1))[:_BIG]
    for pattern in PATTERNS:
        t_small = _time(pattern, small)
        t_big = _time(pattern, big)
        # 4x the input: a linear pattern takes about 4x the time, a quadratic
        # one 16x. The allowance absorbs a shared, noisy machine.
        if t_big > 10 * t_small + 0.02:
            t_big = min(t_big, _time(pattern, big))
            t_small = max(t_small, _time(pattern, small))
            if t_big > 10 * t_small + 0.02:
                slow.append(
                    (
                        getattr(pattern, "pattern", getattr(pattern, "source", ""))[:80],
                        t_small,
                        t_big,
                    )
                )
    assert not slow, slow


class _Backtracker:
    id = "backtracker"
    version = "1"

    def run(self, tool: object, context: object) -> Iterator[Signal]:
        yield Signal(
            "backtracker", "backtracker.first", mcpscan.Tier.SOFT, "t", 0.6, "before", "name"
        )
        regex.compile(r"(a+)+$").search("a" * 5000 + "!", timeout=0.01)
        yield Signal(
            "backtracker", "backtracker.never", mcpscan.Tier.SOFT, "t", 0.6, "after", "name"
        )


def test_regex_timeout_is_a_cap_not_an_exception() -> None:
    report = mcpscan.scan({"name": "t"}, checks=[_Backtracker()], config=Config())
    assert [s.rule_id for s in report.signals] == ["backtracker.first"]
    assert report.coverage.degraded == ()
    (cap,) = report.coverage.capped
    assert (cap.limit, cap.check_id) == ("regex_timeout", "backtracker")
    with pytest.raises(TimeoutError):
        mcpscan.scan({"name": "t"}, checks=[_Backtracker()], strict=True)
