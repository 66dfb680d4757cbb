"""Tool definitions from other ecosystems, read as MCP tools.

Agent code holds tool lists in the shape of the API it talks to. Each is
turned into the MCP mapping (``name``, ``description``, ``inputSchema``)
before it becomes a ``Tool``, so the whole definition is scanned:

* MCP: ``{"name", "description", "inputSchema", ...}`` (kept as it is);
* Anthropic Messages: ``{"name", "description", "input_schema"}``;
* OpenAI Chat Completions: ``{"type": "function", "function": {"name",
  "description", "parameters"}}``;
* OpenAI Responses (and bare function declarations):
  ``{"type": "function", "name", "description", "parameters"}``.

A mapping that names its schema in two shapes at once, or announces a
``type`` other than a function with no schema we can read, is refused: a
scan that silently ignores the part a client would show the model is the
partial scan this module exists to prevent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._model import ScanError

__all__ = ["SHAPES", "as_mcp"]

#: Named in every error about an unreadable definition.
SHAPES = (
    'MCP {"name", "inputSchema"}, Anthropic {"name", "input_schema"}, '
    'OpenAI Chat {"type": "function", "function": {...}}, '
    'OpenAI Responses {"type": "function", "name", "parameters"}'
)

# The keys that carry the argument schema in each shape.
_SCHEMA_KEYS = ("inputSchema", "input_schema", "parameters")


def _renamed(obj: Mapping[str, Any], old: str) -> dict[str, Any]:
    """``obj`` with its schema under ``inputSchema``, duplicates renamed alike."""
    out = {key: value for key, value in obj.items() if key not in ("type", old)}
    if old in obj:
        out["inputSchema"] = obj[old]
    duplicates = getattr(obj, "duplicates", ())
    if duplicates:
        # A key given twice in the JSON text stays visible to the scan
        # (structure.duplicate_key) whatever shape carried it.
        from ._input import JsonObject  # noqa: PLC0415

        renamed = JsonObject(list(out.items()))
        renamed.duplicates = tuple(
            ("inputSchema" if key == old else key, value) for key, value in duplicates
        )
        return renamed
    return out


def _chat_function(obj: Mapping[str, Any]) -> dict[str, Any]:
    inner = obj["function"]
    if not isinstance(inner, Mapping):
        raise ScanError(
            "function", f"expected an object, got {type(inner).__name__}; accepted: {SHAPES}"
        )
    if "inputSchema" in inner or "input_schema" in inner:
        raise ScanError("function", f"a function's schema goes in parameters; accepted: {SHAPES}")
    return _renamed(inner, "parameters")


def as_mcp(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    """The MCP mapping of a tool given in any accepted shape.

    Raises ``ScanError`` naming the shapes accepted when ``obj`` is in none
    of them.
    """
    present = [key for key in _SCHEMA_KEYS if key in obj]
    if len(present) > 1:
        raise ScanError(present[1], f"a tool gives its schema once; accepted: {SHAPES}")
    kind = obj.get("type")
    if kind == "function" and "function" in obj:
        if present or "name" in obj:
            raise ScanError("function", f"a function is given once; accepted: {SHAPES}")
        return _chat_function(obj)
    if kind is not None and kind != "function" and not present:
        # Hosted tools (web search, code interpreter ...) have no definition of
        # their own to scan; passing them as empty MCP tools would say PASS
        # about text we never saw.
        raise ScanError("type", f"not a function tool ({kind!r}); accepted: {SHAPES}")
    if "function" in obj and "name" not in obj:
        raise ScanError("type", f'a "function" object needs "type": "function"; accepted: {SHAPES}')
    if present and present[0] != "inputSchema":
        return _renamed(obj, present[0])
    if kind is not None:
        return _renamed(obj, "inputSchema")
    return obj
