"""The walk: every string with its JSON path, bounded, every cut recorded."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import mcpscan
import mcpscan.pins
from mcpscan import Config, ScanError, Signal
from mcpscan._model import Tool
from mcpscan._normalize import normalize
from mcpscan._walk import innermost_property, view_tool


def _view(tool: dict[str, object], config: Config | None = None):  # type: ignore[no-untyped-def]
    return view_tool(Tool.from_mcp(tool, server="s"), config or Config())


SCHEMA_TOOL = {
    "name": "read_file",
    "title": "Read a file",
    "description": "Reads a file.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Absolute path", "default": "/tmp/x"},
            "mode": {"enum": ["text", "binary"], "examples": ["text"], "const": "text"},
            "weird.key": {"title": "Weird"},
        },
    },
    "outputSchema": {"type": "object", "properties": {"content": {"description": "The text"}}},
    "annotations": {"title": "Reader", "readOnlyHint": True},
}


def test_scan_surface_and_paths() -> None:
    located = {s.location: s for s in _view(SCHEMA_TOOL).strings}
    assert located["name"].raw == "read_file"
    assert located["title"].raw == "Read a file"
    assert located["description"].raw == "Reads a file."
    assert located["inputSchema.properties.path"].is_key
    assert located["inputSchema.properties.path.description"].raw == "Absolute path"
    assert located["inputSchema.properties.path.default"].key == "default"
    assert located["inputSchema.properties.mode.enum[1]"].raw == "binary"
    assert located["inputSchema.properties.mode.enum[1]"].key == "enum"
    assert located["inputSchema.properties.mode.examples[0]"].raw == "text"
    assert located["inputSchema.properties.mode.const"].raw == "text"
    assert located['inputSchema.properties["weird.key"].title'].raw == "Weird"
    assert located['inputSchema.properties["weird.key"]'].is_key
    assert located["outputSchema.properties.content.description"].field == "outputSchema"
    assert located["annotations.title"].raw == "Reader"
    assert located["inputSchema.properties.path.description"].normalized == mcpscan.normalize(
        "Absolute  PATH"
    )


def test_context_gives_strings_by_field() -> None:
    seen: list[str] = []

    class Probe:
        id = "probe"
        version = "1"

        def run(self, tool: object, context: mcpscan.Context) -> Iterator[Signal]:
            seen.extend(s.location for s in context.strings_in("description", "title"))
            assert context.options == {"k": 1}
            assert len(context.strings) > 5
            return iter(())

    mcpscan.scan(SCHEMA_TOOL, checks=[Probe()], config=Config(options={"probe": {"k": 1}}))
    assert seen == ["title", "description"]


def _caps(view) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[str]] = {}
    for cap in view.capped:
        out.setdefault(cap.limit, []).append(cap.location)
    return out


def test_long_string_truncated_and_recorded() -> None:
    view = _view({"name": "x", "description": "a" * 500}, Config(max_string_chars=100))
    (description,) = [s for s in view.strings if s.location == "description"]
    assert len(description.raw) == 100 and description.truncated
    (cap,) = view.capped
    assert cap.limit == "max_string_chars"
    assert "400 of 500" in cap.skipped


def test_total_chars_recorded() -> None:
    tool = {"name": "x", "description": "a" * 60, "title": "b" * 60}
    view = _view(tool, Config(max_total_chars=100))
    assert "max_total_chars" in _caps(view)
    assert sum(len(s.raw) for s in view.strings) <= 100


def test_many_strings_recorded_once() -> None:
    tool = {"name": "x", "inputSchema": {"enum": [str(i) for i in range(100)]}}
    view = _view(tool, Config(max_strings=10))
    assert len(view.strings) == 10
    assert _caps(view) == {"max_strings": ["inputSchema.enum[9]"]}


def test_deep_nesting_no_recursion_error() -> None:
    schema: dict[str, object] = {"description": "bottom"}
    for _ in range(100_000):
        schema = {"items": schema}
    report = mcpscan.scan({"name": "deep", "inputSchema": schema}, checks=[])
    caps = [c.limit for c in report.coverage.capped]
    assert caps == ["max_depth"]


def test_cycle_terminates_and_is_recorded() -> None:
    schema: dict[str, object] = {"description": "loop"}
    schema["self"] = schema
    report = mcpscan.scan({"name": "cyc", "inputSchema": schema}, checks=[])
    assert [c.limit for c in report.coverage.capped] == ["cycle"]


def test_many_nodes_recorded() -> None:
    schema = {"anyOf": [{"type": "string"} for _ in range(200)]}
    report = mcpscan.scan(
        {"name": "wide", "inputSchema": schema}, checks=[], config=Config(max_nodes=50)
    )
    assert [c.limit for c in report.coverage.capped] == ["max_nodes"]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinities_are_a_scan_error_as_in_pins(value: float) -> None:
    tool = {"name": "odd", "inputSchema": {"properties": {"a": {"default": value}}}}
    with pytest.raises(ScanError, match="NaN and infinities") as caught:
        mcpscan.scan(tool, checks=[])
    assert caught.value.field == "inputSchema.properties.a.default"
    with pytest.raises(ScanError, match="NaN and infinities"):
        mcpscan.pins.fingerprint(tool)


def test_odd_scalars_and_keys_do_not_crash() -> None:
    schema = {
        1: "int key",
        "big": 10**5000,
        "none": None,
        "flag": True,
        "obj": object(),
    }
    report = mcpscan.scan({"name": "odd", "inputSchema": schema}, checks=[])
    assert report.verdict.value == "pass"
    again = mcpscan.scan({"name": "odd", "inputSchema": schema}, checks=[])
    assert report.tool.fingerprint == again.tool.fingerprint


def test_nfkc_expansion_is_bounded_and_recorded() -> None:
    # U+FDFA becomes 18 characters under NFKC: the normalized form is cut at
    # twice the raw length (plus a little), and the cut is recorded.
    raw = "\ufdfa" * 100_000
    view = view_tool(Tool.from_mcp({"name": "t", "description": raw}), Config())
    (text,) = [s for s in view.strings if s.field == "description"]
    assert len(text.normalized) <= 2 * len(raw) + 256
    assert [c.limit for c in view.capped] == ["max_normalized_chars"]


def test_ordinary_text_is_normalized_whole() -> None:
    raw = "Ｉｇｎｏｒｅ the ﬁle. " * 5_000  # grows a little, pieces cut at spaces
    view = view_tool(Tool.from_mcp({"name": "t", "description": raw}), Config())
    (text,) = [s for s in view.strings if s.field == "description"]
    assert text.normalized == normalize(raw)
    assert view.capped == ()


def test_innermost_property_reads_the_paths_the_walk_writes() -> None:
    """Every located string of a schema knows its innermost property, in
    both path forms the walk writes (dotted, and quoted with escapes)."""
    tool = Tool.from_mcp(
        {
            "name": "t",
            "description": "d",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "verify_ssl": {"type": "boolean", "description": "tls"},
                    'a.b "c"': {
                        "type": "object",
                        "properties": {"inner": {"type": "string", "default": "v"}},
                        "description": "outer",
                    },
                },
            },
        }
    )
    found = {s.raw: innermost_property(s.location) for s in view_tool(tool, Config()).strings}
    assert found["tls"] == "verify_ssl"
    assert found["outer"] == 'a.b \\"c\\"'
    assert found["v"] == "inner"
    assert found["d"] is None
    assert innermost_property("inputSchema.xproperties.y") is None
