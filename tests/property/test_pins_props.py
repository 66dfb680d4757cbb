"""Pin properties: fingerprints ignore key order, JSON formatting and
annotations; fingerprint is total; a tool always checks UNCHANGED against itself."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import json_values, tools

from mcpscan import ScanError
from mcpscan.pins import PinStatus, PinStore, fingerprint

pytestmark = pytest.mark.property

finite_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
finite_json = st.recursive(
    finite_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)
json_tools = st.fixed_dictionaries(
    {"name": st.text(min_size=1, max_size=20)},
    optional={
        "title": st.text(max_size=20),
        "description": st.text(max_size=80),
        "inputSchema": st.dictionaries(st.text(max_size=10), finite_json, max_size=4),
        "outputSchema": st.dictionaries(st.text(max_size=10), finite_json, max_size=3),
    },
)


def shuffled(value: Any, rng: random.Random) -> Any:
    """The same JSON value with every object's keys in a random order."""
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {key: shuffled(child, rng) for key, child in items}
    if isinstance(value, list):
        return [shuffled(child, rng) for child in value]
    return value


@given(json_tools, st.randoms(use_true_random=False), st.sampled_from([None, 0, 2, "\t"]))
@example({"name": "n", "inputSchema": {"b": 1, "a": {"y": [1.0], "x": None}}}, random.Random(1), 4)
def test_fingerprint_ignores_key_order_and_json_formatting(
    tool: dict[str, Any], rng: random.Random, indent: int | str | None
) -> None:
    reordered = shuffled(tool, rng)
    # Re-serialised with other whitespace and separators, then read back.
    reformatted = json.loads(json.dumps(reordered, indent=indent, separators=(" ,", " :  ")))
    assert fingerprint(reformatted) == fingerprint(tool)


@given(json_tools, st.dictionaries(st.text(max_size=10), json_values, max_size=3))
def test_fingerprint_ignores_annotations(tool: dict[str, Any], annotations: dict[str, Any]) -> None:
    assert fingerprint({**tool, "annotations": annotations}) == fingerprint(tool)


@given(tools)
def test_fingerprint_is_total(tool: dict[str, Any]) -> None:
    try:
        value = fingerprint(tool)
    except ScanError:
        return
    assert value.startswith("sha256:") and len(value) == 71


@given(json_tools, st.randoms(use_true_random=False))
def test_a_tool_checks_unchanged_against_a_reordered_copy(
    tool: dict[str, Any], rng: random.Random
) -> None:
    pins = PinStore()
    assert pins.check(tool, server="s").status is PinStatus.NEW
    again = pins.check(shuffled(tool, rng), server="s")
    assert again.status is PinStatus.UNCHANGED
    assert again.changes == ()
