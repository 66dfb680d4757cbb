"""scan_many: parallel batches, input order, same results as scan."""

from __future__ import annotations

import pickle

import pytest

import mcpscan
from mcpscan import Config, ScanError, Tool

TAG = "".join(chr(0xE0000 + ord(c)) for c in "leak")


def _tools(count: int) -> list[tuple[str, dict[str, object]]]:
    out = []
    for i in range(count):
        description = f"Tool number {i}." + (TAG if i % 7 == 0 else "")
        out.append((f"server-{i % 5}", {"name": f"tool_{i}", "description": description}))
    return out


def test_parallel_matches_serial_in_order() -> None:
    tools = _tools(150)
    snapshot = mcpscan.Snapshot.from_servers({})
    parallel = mcpscan.scan_many(tools, snapshot, workers=2)
    serial = [mcpscan.scan(t, snapshot, server=s) for s, t in tools]
    assert [r.to_json() for r in parallel] == [r.to_json() for r in serial]
    assert [r.tool.name for r in parallel] == [t["name"] for _, t in tools]


def test_item_shapes_and_small_batches() -> None:
    reports = mcpscan.scan_many(
        [Tool(server="a", name="x"), ("b", {"name": "y"}), {"name": "z"}], workers=4
    )
    assert [(r.tool.server, r.tool.name) for r in reports] == [("a", "x"), ("b", "y"), (None, "z")]


def test_reports_and_configs_pickle() -> None:
    config = Config(custom_patterns=[{"name": "n", "regex": "number"}])
    report = mcpscan.scan({"name": "t", "description": "a number"}, config=config)
    assert pickle.loads(pickle.dumps(report)) == report
    assert pickle.loads(pickle.dumps(config)).custom_patterns[0]["name"] == "n"
    parallel = mcpscan.scan_many(_tools(70), workers=2, config=config)
    assert all(r.verdict.value != "pass" for r in parallel)


@pytest.mark.parametrize(
    ("tools", "workers", "field"), [([{"x": 1}], 1, "tools[0].name"), ([], 0, "workers")]
)
def test_bad_input(tools: list[object], workers: int, field: str) -> None:
    with pytest.raises(ScanError) as raised:
        mcpscan.scan_many(tools, workers=workers)
    assert raised.value.field == field
