"""The JSON documents the command line reads, turned into tools and a snapshot.

Accepted shapes:

* a JSON-RPC ``tools/list`` response: ``{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}``;
* ``{"tools": [...]}``;
* a bare list of tools;
* one tool object (it has a ``name``);
* a snapshot: ``{"servers": {"<id>": <any of the shapes above>}}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

import attrs

from ._model import ScanError

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


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_INT_DIGITS:
        raise ValueError(f"an integer of more than {_MAX_INT_DIGITS} digits")
    return int(digits)


def loads(text: str | bytes, field: str = "document") -> Any:
    """Parse JSON text the way every mcpscan entry point does.

    Duplicate keys are kept (see ``JsonObject``); ``NaN``, ``Infinity`` and
    integers of more than 4,000 digits are refused. Raises ``ScanError``
    naming ``field`` for text that is not valid JSON.
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
            object_pairs_hook=_object,
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

    def entries(self) -> list[tuple[str, Any]]:
        """Every (server, tool) pair, servers in the document's order."""
        return [(server, tool) for server, tools in self.servers.items() for tool in tools]


def _tool_list(value: object, where: str) -> tuple[Any, ...]:
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, Mapping):
        if "jsonrpc" in value:
            if "error" in value:
                raise ScanError(
                    f"{where}.error", "the JSON-RPC response is an error, not a tools/list result"
                )
            result = value.get("result")
            if not isinstance(result, Mapping):
                raise ScanError(f"{where}.result", "expected a tools/list result object")
            return _tool_list(result, f"{where}.result")
        if "tools" in value:
            tools = value["tools"]
            if not isinstance(tools, list):
                raise ScanError(f"{where}.tools", "expected a list of tools")
            return tuple(tools)
        if "name" in value:
            return (value,)
    raise ScanError(
        where or "document",
        'expected a tools/list response, {"tools": [...]}, a list of tools, a tool, '
        'or {"servers": {...}}',
    )


def read_document(value: object, default_server: str) -> Document:
    """Turn a parsed JSON document into tools per server."""
    if isinstance(value, Mapping) and "servers" in value and "name" not in value:
        servers = value["servers"]
        if not isinstance(servers, Mapping) or not servers:
            raise ScanError("servers", "expected a non-empty object of server id to tools")
        out: dict[str, tuple[Any, ...]] = {}
        for server, tools in servers.items():
            if not isinstance(server, str) or not server:
                raise ScanError("servers", "server ids must be non-empty strings")
            out[server] = _tool_list(tools, f"servers[{server!r}]")
        return Document(servers=out)
    return Document(servers={default_server: _tool_list(value, "")})
