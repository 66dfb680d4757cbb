"""The JSON documents the command line reads, turned into tools and a snapshot.

Accepted shapes:

* a JSON-RPC ``tools/list`` response: ``{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}``;
* ``{"tools": [...]}``;
* a bare list of tools;
* one tool object (it has a ``name``, or is an OpenAI ``{"type": "function"}``);
* a snapshot: ``{"servers": {"<id>": <any of the shapes above>}}``.

Beside ``tools``, a listing object may give the rest of a server's surface:
``prompts``, ``resources``, ``resourceTemplates`` (as ``prompts/list`` and
``resources/list`` return them) and ``instructions`` (the initialize
result's string); each is scanned with the tools (see ``_surfaces``).

Each tool may be in the MCP, Anthropic or OpenAI shape (see ``_shapes``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

import attrs

from ._model import ScanError, Tool
from ._surfaces import SURFACE_KEYS, surface_tools

__all__ = ["Document", "JsonObject", "loads", "read_document"]

# Python refuses to convert integers of more than 4,300 digits.
_MAX_INT_DIGITS = 4000


class JsonObject(dict[str, Any]):
    """A JSON object whose text gave some key more than once.

    The mapping keeps the first value of each key; ``duplicates`` holds
    every later ``(key, value)`` pair in document order. Only objects with
    a duplicate are built as this type; the others are plain dicts.
    """

    __slots__ = ("duplicates",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__()
        extra: list[tuple[str, Any]] = []
        for key, value in pairs:
            if key in self:
                extra.append((key, value))
            else:
                self[key] = value
        self.duplicates: tuple[tuple[str, Any], ...] = tuple(extra)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A client whose parser keeps the first value of a key shows a different
    # tool than one that keeps the last (Python's json, most JavaScript): an
    # attacker puts the attack in one and a harmless text in the other.
    built = dict(pairs)
    return built if len(built) == len(pairs) else JsonObject(pairs)


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    built = dict(pairs)
    if len(built) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key!r} is given more than once")
            seen.add(key)
    return built


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_INT_DIGITS:
        raise ValueError(f"an integer of more than {_MAX_INT_DIGITS} digits")
    return int(digits)


def loads(
    text: str | bytes | bytearray, field: str = "document", *, unique_keys: bool = False
) -> Any:
    """Parse JSON text the way every mcpscan entry point does.

    Duplicate keys are kept (see ``JsonObject``), or refused with
    ``unique_keys`` (for configuration: a policy, a client configuration,
    a baseline, where no value may hide behind another); ``NaN``,
    ``Infinity`` and integers of more than 4,000 digits are refused.
    Raises ``ScanError`` naming ``field`` for text that is not valid JSON.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ScanError(field, f"not valid UTF-8 (byte {error.start})") from None
    if not isinstance(text, str):
        raise ScanError(field, f"expected JSON text, got {type(text).__name__}")
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_object if unique_keys else _object,
            parse_constant=_reject_constant,
            parse_int=_parse_int,
        )
    except RecursionError:
        raise ScanError(field, "JSON nested too deeply to read") from None
    except ValueError as error:
        raise ScanError(field, f"not valid JSON: {error}") from None


@attrs.frozen
class Document:
    """Tools per server, in the order the document gave them."""

    servers: Mapping[str, tuple[Any, ...]]
    #: Where each server's list of tools is in the document (``tools``,
    #: ``result.tools``, ``servers.a``; ``""`` for a bare list), or None
    #: for a document that is one tool.
    lists: Mapping[str, str | None] = attrs.field(factory=dict)
    #: Each server's prompts, resources, resource templates and instructions,
    #: already in their scanned form (``Tool`` with its ``kind``).
    surfaces: Mapping[str, tuple[Tool, ...]] = attrs.field(factory=dict)

    def entries(self) -> list[tuple[str, Any]]:
        """Every (server, tool) pair, servers in the document's order."""
        return [(server, tool) for server, tools in self.servers.items() for tool in tools]

    def position(self, server: str, index: int) -> str:
        """The JSON path of one tool as the user wrote it (``tools[3]``, ``[3]``)."""
        where = self.lists.get(server, "")
        return "" if where is None else f"{where}[{index}]"


def _joined(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _listing(value: Mapping[str, Any], where: str, key: str) -> tuple[Any, ...]:
    items = value.get(key, [])
    if not isinstance(items, list):
        raise ScanError(_joined(where, key), f"expected a list of {key}")
    return tuple(items)


def _surface(value: object, where: str, server: str) -> tuple[Tool, ...]:
    """The prompts, resources and instructions a listing gives beside its tools."""
    if not isinstance(value, Mapping) or "jsonrpc" in value:
        return ()
    prefix = f"{where}." if where else ""
    return surface_tools(
        server,
        prompts=_listing(value, where, "prompts"),
        resources=_listing(value, where, "resources"),
        resource_templates=_listing(value, where, "resourceTemplates"),
        instructions=value.get("instructions"),
        where=prefix,
    )


def _located_list(value: object, where: str) -> tuple[tuple[Any, ...], str | None]:
    """The tools of ``value`` and the path of their list (None: one tool)."""
    if isinstance(value, list):
        return tuple(value), where
    if isinstance(value, Mapping):
        if "jsonrpc" in value:
            if "error" in value:
                raise ScanError(
                    f"{where}.error", "the JSON-RPC response is an error, not a tools/list result"
                )
            result = value.get("result")
            if not isinstance(result, Mapping):
                raise ScanError(f"{where}.result", "expected a tools/list result object")
            return _located_list(result, _joined(where, "result"))
        if "tools" in value:
            tools = value["tools"]
            if not isinstance(tools, list):
                raise ScanError(f"{where}.tools", "expected a list of tools")
            return tuple(tools), _joined(where, "tools")
        if "name" in value or value.get("type") == "function":
            # One tool; OpenAI Chat Completions keeps the name inside "function".
            return (value,), None
        if any(key in value for key in SURFACE_KEYS):
            # Prompts, resources or instructions without tools.
            return (), _joined(where, "tools")
    raise ScanError(
        where or "document",
        'expected a tools/list response, {"tools": [...]} (with "prompts", "resources", '
        '"resourceTemplates", "instructions" if any), a list of tools, a tool, '
        'or {"servers": {...}}',
    )


def read_document(value: object, default_server: str) -> Document:
    """Turn a parsed JSON document into tools (and the rest of each
    server's surface) per server."""
    if isinstance(value, Mapping) and "servers" in value and "name" not in value:
        servers = value["servers"]
        if not isinstance(servers, Mapping) or not servers:
            raise ScanError("servers", "expected a non-empty object of server id to tools")
        out: dict[str, tuple[Any, ...]] = {}
        lists: dict[str, str | None] = {}
        surfaces: dict[str, tuple[Tool, ...]] = {}
        for server, tools in servers.items():
            if not isinstance(server, str) or not server:
                raise ScanError("servers", "server ids must be non-empty strings")
            place = f"servers[{server!r}]"
            out[server], lists[server] = _located_list(tools, place)
            surfaces[server] = _surface_of(tools, place, server, lists[server])
        return Document(servers=out, lists=lists, surfaces=surfaces)
    tools, where = _located_list(value, "")
    surface = _surface_of(value, "", default_server, where)
    return Document(
        servers={default_server: tools},
        lists={default_server: where},
        surfaces={default_server: surface},
    )


def _surface_of(value: object, where: str, server: str, located: str | None) -> tuple[Tool, ...]:
    # A document that is one tool has no listing around it.
    return () if located is None else _surface(value, where, server)
