"""Anthropic and OpenAI tool shapes are scanned in full, unknown shapes refused."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import mcpscan
from mcpscan import ScanError, Tool, Verdict
from mcpscan.cli import main

# The attack sits in a parameter description: a scan that dropped the schema
# of a foreign shape would say PASS.
HIDDEN = "Add\U000e0020\U000e0072\U000e0065\U000e0061\U000e0064 numbers"
SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "number", "description": HIDDEN}},
}


def _shapes() -> dict[str, dict[str, Any]]:
    return {
        "mcp": {"name": "add", "description": "Adds.", "inputSchema": SCHEMA},
        "anthropic": {"name": "add", "description": "Adds.", "input_schema": SCHEMA},
        "openai_chat": {
            "type": "function",
            "function": {"name": "add", "description": "Adds.", "parameters": SCHEMA},
        },
        "openai_responses": {
            "type": "function",
            "name": "add",
            "description": "Adds.",
            "parameters": SCHEMA,
            "strict": True,
        },
    }


@pytest.mark.parametrize("shape", sorted(_shapes()))
def test_every_shape_reads_the_same_tool(shape: str) -> None:
    tool = Tool.from_mcp(_shapes()[shape], server="s")
    # Keys of the API call itself ("strict") are kept as extra keys, and scanned.
    assert attrs.evolve(tool, extra=()) == Tool.from_mcp(_shapes()["mcp"], server="s")
    assert tool.input_schema is not None
    assert mcpscan.scan(tool).verdict is Verdict.QUARANTINE


@pytest.mark.parametrize("shape", sorted(_shapes()))
def test_scan_accepts_the_shape_directly(shape: str) -> None:
    report = mcpscan.scan(_shapes()[shape])
    assert report.verdict is Verdict.QUARANTINE
    assert any("inputSchema" in s.location for s in report.signals)


@pytest.mark.parametrize(
    ("definition", "field"),
    [
        ({"type": "web_search_preview"}, "type"),
        ({"type": "code_interpreter", "name": "python"}, "type"),
        ({"name": "x", "inputSchema": {}, "parameters": SCHEMA}, "parameters"),
        ({"name": "x", "input_schema": {}, "parameters": SCHEMA}, "parameters"),
        ({"function": {"name": "add", "parameters": SCHEMA}}, "type"),
        ({"type": "function", "function": "add"}, "function"),
        ({"type": "function", "function": {"name": "add", "input_schema": SCHEMA}}, "function"),
        ({"type": "function", "name": "a", "function": {"name": "b"}}, "function"),
    ],
)
def test_unknown_or_ambiguous_shapes_are_refused(definition: dict[str, Any], field: str) -> None:
    with pytest.raises(ScanError) as caught:
        Tool.from_mcp(definition)
    assert caught.value.field == field
    assert "Anthropic" in str(caught.value) and "OpenAI" in str(caught.value)


def test_duplicate_keys_survive_a_foreign_shape() -> None:
    text = (
        '{"type": "function", "name": "add", "description": "Adds.", '
        '"parameters": {"type": "object"}, "parameters": ' + json.dumps(SCHEMA) + "}"
    )
    report = mcpscan.scan(Tool.from_json(text, server="s"))
    rules = {s.rule_id for s in report.signals}
    assert "structure.duplicate_key" in rules
    assert report.verdict is Verdict.QUARANTINE


def test_to_mcp_gives_the_mcp_form() -> None:
    tool = Tool.from_mcp(_shapes()["openai_chat"])
    assert tool.to_mcp()["inputSchema"] == SCHEMA
    assert "parameters" not in tool.to_mcp()


@pytest.mark.parametrize("shape", ["openai_chat", "anthropic"])
def test_cli_reads_lists_and_single_tools_of_each_shape(shape: str, tmp_path: Path) -> None:
    definition = _shapes()[shape]
    for name, document in (("one.json", definition), ("list.json", {"tools": [definition]})):
        path = tmp_path / name
        path.write_text(json.dumps(document), encoding="utf-8")
        out = io.StringIO()
        assert main(["scan", str(path), "--format", "json"], out=out) == 1
        assert "QUARANTINE" in out.getvalue().upper()


def test_cli_refuses_a_hosted_tool_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"type": "web_search_preview"}]), encoding="utf-8")
    assert main(["scan", str(path)], out=io.StringIO()) == 2
