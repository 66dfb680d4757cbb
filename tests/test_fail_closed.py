"""Fail closed: an incomplete scan is never PASS, and a check cannot change
what the caller or the other checks see, hang the scan or end the process."""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator, Mapping

import pytest
from helpers import hard, soft
from hypothesis import given, settings
from hypothesis import strategies as st

import mcpscan
from mcpscan import Config, ScanError, Signal, Tier, Tool, Verdict
from mcpscan._frozen import FrozenDict, FrozenList, freeze, is_array, is_object, thaw
from mcpscan.sarif import to_sarif

TOOL = {
    "name": "add",
    "description": "Add two numbers.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "number", "description": "first"}},
        "required": ["a"],
    },
}


class Capping:
    id = "capping"
    version = "1"

    def run(self, tool: object, context: mcpscan.Context) -> Iterator[Signal]:
        context.record_cap("max_candidates", "description", "every further candidate")
        return iter(())


class Raising:
    id = "raising"
    version = "1"

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def run(self, tool: object, context: object) -> Iterator[Signal]:
        raise self.error


# --- Never PASS what was not fully read ------------------------------------


def test_a_capped_report_is_review_with_a_finding_naming_the_gap() -> None:
    report = mcpscan.scan(TOOL, checks=[Capping()])
    assert report.verdict is Verdict.REVIEW
    (finding,) = report.findings
    assert finding.threat == "incomplete-coverage"
    assert finding.tier is Tier.SOFT
    (gap,) = finding.signals
    assert gap.rule_id == "coverage.max_candidates"
    assert "capping skipped every further candidate" in gap.evidence
    assert gap.location == "description"
    # The detections stand apart: no signal, no risk was invented.
    assert report.signals == ()
    assert report.risk_score == 0.0


def test_a_degraded_report_is_review_naming_the_check() -> None:
    report = mcpscan.scan(TOOL, checks=[Raising(RuntimeError("boom"))])
    assert report.verdict is Verdict.REVIEW
    (finding,) = report.findings
    assert finding.signals[0].evidence == "raising did not finish (RuntimeError)"


def test_a_walk_limit_is_incomplete_too() -> None:
    report = mcpscan.scan(TOOL, checks=[], config=Config(max_string_chars=3))
    assert report.verdict is Verdict.REVIEW
    assert "the walk skipped" in report.findings[0].signals[0].evidence


def test_on_incomplete_quarantine_and_pass() -> None:
    strict = mcpscan.scan(TOOL, checks=[Capping()], config=Config(on_incomplete="quarantine"))
    assert strict.verdict is Verdict.QUARANTINE
    assert strict.findings[0].tier is Tier.HARD
    lenient = mcpscan.scan(TOOL, checks=[Capping()], config=Config(on_incomplete="pass"))
    assert lenient.verdict is Verdict.PASS
    assert lenient.findings == ()
    assert not lenient.coverage.complete


def test_on_incomplete_is_validated() -> None:
    with pytest.raises(ScanError, match="on_incomplete"):
        Config(on_incomplete="ignore")


def test_an_incomplete_floor_never_lowers_a_quarantine() -> None:
    report = mcpscan.scan(TOOL, checks=[Capping(), hard("h")])
    assert report.verdict is Verdict.QUARANTINE
    assert [f.threat for f in report.findings] == ["test", "incomplete-coverage"]


def test_a_complete_report_has_no_gap_finding() -> None:
    report = mcpscan.scan(TOOL, checks=[soft("s", 0.1)])
    assert report.coverage.complete
    assert report.verdict is Verdict.PASS


def test_scan_output_follows_the_same_rule() -> None:
    result = {"content": [{"type": "text", "text": "x" * 50}]}
    report = mcpscan.scan_output(result, checks=[], config=Config(max_string_chars=10))
    assert report.verdict is Verdict.REVIEW
    assert report.findings[0].threat == "incomplete-coverage"


def test_screen_call_lists_the_gap_in_its_findings() -> None:
    decision = mcpscan.screen_call(
        "add", {"a": "y" * 50}, checks=[], config=Config(max_string_chars=10)
    )
    assert [f.threat for f in decision.findings] == ["incomplete-coverage"]
    assert not decision.coverage.complete


def test_sarif_shows_the_gap() -> None:
    report = mcpscan.scan(TOOL, checks=[Capping()])
    sarif = to_sarif([report])
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["coverage.max_candidates"]


@st.composite
def _gappy_checks(draw: st.DrawFn) -> list[object]:
    checks: list[object] = [Capping()] if draw(st.booleans()) else [Raising(ValueError("x"))]
    if draw(st.booleans()):
        checks.append(soft("s", draw(st.floats(0, 1))))
    return checks


@pytest.mark.property
@settings(max_examples=40, deadline=None)
@given(_gappy_checks(), st.sampled_from(["review", "quarantine"]))
def test_property_a_capped_or_degraded_report_is_never_pass(
    checks: list[object], mode: str
) -> None:
    report = mcpscan.scan(TOOL, checks=checks, config=Config(on_incomplete=mode))
    assert not report.coverage.complete
    assert report.verdict is not Verdict.PASS
    assert report.verdict.rank >= Verdict(mode).rank


# --- A plugin cannot change what others see ---------------------------------


class Mutator:
    id = "mutator"
    version = "1"

    def run(self, tool: Tool, context: mcpscan.Context) -> Iterator[Signal]:
        tool.input_schema["properties"].clear()  # type: ignore[index,union-attr]
        return iter(())


class Observer:
    """Runs after the mutator (ids sort) and reports what it still sees."""

    id = "observer"
    version = "1"

    def run(self, tool: Tool, context: mcpscan.Context) -> Iterator[Signal]:
        properties = (tool.input_schema or {}).get("properties", {})
        yield Signal("observer", "observer.saw", Tier.SOFT, "t", 0.1, str(len(properties)), "x")


@pytest.mark.parametrize(
    "attempt",
    [
        lambda t, c: t.input_schema["properties"].clear(),
        lambda t, c: t.input_schema["required"].append("b"),
        lambda t, c: t.input_schema.__setitem__("type", "string"),
        lambda t, c: setattr(t.input_schema, "_proxy", {}),
        lambda t, c: c.config.options.__setitem__("x", {}),
        lambda t, c: c.snapshot.servers.__setitem__("x", ()),
        lambda t, c: setattr(c.strings[0], "raw", "changed"),
    ],
)
def test_a_mutation_attempt_fails_inside_the_check_and_is_degraded(attempt: object) -> None:
    class Attempt:
        id = "attempt"
        version = "1"

        def run(self, tool: Tool, context: mcpscan.Context) -> Iterator[Signal]:
            attempt(tool, context)  # type: ignore[operator]
            return iter(())

    given_tool = copy.deepcopy(TOOL)
    report = mcpscan.scan(given_tool, {"srv": [TOOL]}, checks=[Attempt()])
    (degraded,) = report.coverage.degraded
    assert degraded.check_id == "attempt"
    assert report.verdict is Verdict.REVIEW
    assert given_tool == TOOL


def test_a_check_cannot_change_the_caller_input_nor_what_later_checks_see() -> None:
    given_tool = copy.deepcopy(TOOL)
    report = mcpscan.scan(given_tool, checks=[Mutator(), Observer()])
    assert given_tool == TOOL
    (seen,) = report.signals
    assert seen.evidence == "1"
    assert report.coverage.degraded[0].check_id == "mutator"


def test_freeze_keeps_shape_equality_and_round_trips() -> None:
    shared: dict[str, object] = {"type": "string"}
    value: dict[str, object] = {"a": shared, "b": shared, "list": [1, [2, {"c": 3}]]}
    value["self"] = value
    frozen = freeze(value)
    assert isinstance(frozen, FrozenDict) and isinstance(frozen["list"], FrozenList)
    assert frozen["a"] is frozen["b"]
    assert frozen["self"] is frozen
    assert freeze(frozen) is frozen
    expected = [1, [2, {"c": 3}]]
    assert frozen["list"] == expected
    assert expected == frozen["list"]
    plain = thaw(frozen)
    assert plain["self"] is plain and plain["list"] == [1, [2, {"c": 3}]]
    assert type(plain["list"][1]) is list
    with pytest.raises(AttributeError):
        frozen["list"].append(4)  # type: ignore[attr-defined]
    assert "FrozenDict" in repr(frozen)


class _Items(list[int]):
    pass


class _Text(str):
    pass


class _Object(dict[str, int]):
    pass


@pytest.mark.parametrize(
    ("value", "array"),
    [
        ([1], True),
        ((1,), True),
        (freeze([1]), True),
        (_Items([1]), True),  # a subclass: the isinstance path
        (None, False),
        ("abc", False),
        (_Text("abc"), False),
        (3, False),
        (freeze({"a": 1}), False),
        ({"a": 1}, False),
        (frozenset([1]), False),
    ],
)
def test_is_array_answers_as_isinstance_does(value: object, array: bool) -> None:
    assert is_array(value) is array
    assert isinstance(value, (list, tuple, FrozenList)) is array


@pytest.mark.parametrize(
    "value",
    [{"a": 1}, freeze({"a": 1}), _Object(a=1), None, "abc", _Text("abc"), 3, [1], freeze([1])],
)
def test_is_object_answers_as_isinstance_does(value: object) -> None:
    assert is_object(value) is isinstance(value, Mapping)


def test_to_mcp_is_a_plain_copy_and_a_tool_pickles() -> None:
    import json
    import pickle

    tool = Tool.from_mcp(TOOL)
    assert json.loads(json.dumps(tool.to_mcp())) == TOOL
    assert pickle.loads(pickle.dumps(tool)) == tool


# --- Time limit and BaseException -------------------------------------------


class Hanging:
    id = "hanging"
    version = "1"

    def __init__(self, busy: bool) -> None:
        self.busy = busy
        self.release = threading.Event()

    def run(self, tool: object, context: object) -> Iterator[Signal]:
        if self.busy:
            while not self.release.is_set():
                pass
        else:
            self.release.wait(60)
        return iter(())


@pytest.mark.parametrize("busy", [False, True])
def test_a_hanging_check_is_abandoned_and_recorded_as_timeout(busy: bool) -> None:
    hanging = Hanging(busy)
    try:
        report = mcpscan.scan(
            TOOL, checks=[hanging, soft("later")], config=Config(check_timeout_seconds=0.2)
        )
    finally:
        hanging.release.set()
    (degraded,) = report.coverage.degraded
    assert (degraded.check_id, degraded.error_type) == ("hanging", "timeout")
    # The check after it still ran, on a fresh worker.
    assert [s.check_id for s in report.signals] == ["later"]
    assert report.verdict is Verdict.REVIEW


def test_a_hanging_check_in_strict_mode_raises() -> None:
    hanging = Hanging(False)
    try:
        with pytest.raises(TimeoutError, match="hanging"):
            mcpscan.scan(
                TOOL, checks=[hanging], config=Config(check_timeout_seconds=0.1), strict=True
            )
    finally:
        hanging.release.set()


@pytest.mark.parametrize(
    "error", [SystemExit(3), KeyboardInterrupt(), GeneratorExit(), MemoryError()]
)
def test_base_exceptions_from_a_check_are_degraded(error: BaseException) -> None:
    report = mcpscan.scan(TOOL, checks=[Raising(error), soft("s")])
    (degraded,) = report.coverage.degraded
    assert degraded.error_type == type(error).__name__
    assert [s.check_id for s in report.signals] == ["s"]


def test_strict_mode_reraises_a_base_exception() -> None:
    with pytest.raises(SystemExit):
        mcpscan.scan(TOOL, checks=[Raising(SystemExit(1))], strict=True)


def test_check_timeout_is_validated() -> None:
    with pytest.raises(ScanError, match="check_timeout_seconds"):
        Config(check_timeout_seconds=0)
