"""The JSON documents the command line reads, turned into tools and a snapshot.

Accepted shapes:

* a JSON-RPC ``tools/list`` response: ``{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}``;
* ``{"tools": [...]}``;
* a bare list of tools;
* one tool object (it has a ``name``);
* a snapshot: ``{"servers": {"<id>": <any of the shapes above>}}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ._model import ScanError

__all__ = ["Document", "read_document"]


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
