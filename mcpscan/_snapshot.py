"""Snapshot: a read-only view of every server's current tools.

Cross-server checks (shadowing) compare the scanned tool with every other
server's tools. At registry scale (10,000 tools) the comparison structures
are the expensive part, so a Snapshot builds each of them once, the first
time a check asks, and every later ``scan`` with the same Snapshot reuses
it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

import attrs

from ._evidence import shown_value
from ._frozen import freeze
from ._model import ScanError, Tool

__all__ = ["Snapshot"]

_T = TypeVar("_T")


def _index_by_name(servers: Mapping[str, tuple[Tool, ...]]) -> Mapping[str, tuple[Tool, ...]]:
    by_name: dict[str, list[Tool]] = {}
    for tools in servers.values():
        for tool in tools:
            by_name.setdefault(tool.name, []).append(tool)
    frozen: Mapping[str, tuple[Tool, ...]] = freeze(by_name)
    return frozen


def _trusted(value: Iterable[str]) -> frozenset[str]:
    if isinstance(value, (str, bytes)):
        raise ScanError("trusted_servers", "expected a list of server ids, got one string")
    ids = tuple(value)
    if not all(isinstance(server, str) and server for server in ids):
        raise ScanError("trusted_servers", "expected a list of non-empty server ids")
    return frozenset(ids)


@attrs.frozen
class Snapshot:
    """Every server's tools, with lookup indexes built once and reused.

    Build one with ``Snapshot.from_servers({server_id: [tool, ...]})``.
    Servers are kept sorted by id and each server's tools by name, so every
    index and every result built from a Snapshot is deterministic.
    """

    # Read-only (like every Tool in it): checks share one Snapshot.
    servers: Mapping[str, tuple[Tool, ...]] = attrs.field(factory=dict, converter=freeze)
    #: Servers the caller trusts (a policy allow-list, servers whose tools a
    #: pin store approved earlier). Empty: nothing is known. Cross-server
    #: checks use it to tell the incumbent from the newcomer when two
    #: servers claim one tool name.
    trusted_servers: frozenset[str] = attrs.field(factory=frozenset, converter=_trusted)
    by_name: Mapping[str, tuple[Tool, ...]] = attrs.field(init=False)
    # Derived indexes, keyed by their builder's name; filled on first use.
    # A builder is a pure function of the snapshot, so a race between two
    # threads can at worst build one index twice, never build a wrong one.
    _indexes: dict[str, Any] = attrs.field(init=False, factory=dict, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "by_name", _index_by_name(self.servers))

    @classmethod
    def from_servers(
        cls,
        servers: Mapping[str, Iterable[object]] | None,
        trusted_servers: Iterable[str] = (),
    ) -> Snapshot:
        """Build a Snapshot from ``{server_id: iterable of tools}``.

        A tool is an MCP mapping or a ``Tool``; every tool is re-homed to the
        server it is listed under. ``trusted_servers`` names the servers the
        caller trusts (see ``docs/checks/shadowing.md``). Raises
        ``ScanError`` naming the bad entry.
        """
        trusted = _trusted(trusted_servers)
        if servers is None:
            return cls(trusted_servers=trusted)
        if isinstance(servers, Snapshot):
            return attrs.evolve(servers, trusted_servers=trusted) if trusted else servers
        if not isinstance(servers, Mapping):
            raise ScanError(
                "snapshot",
                f"expected a mapping of server id to tools, got {type(servers).__name__}",
            )
        built: dict[str, tuple[Tool, ...]] = {}
        for server in sorted(servers, key=str):
            if not isinstance(server, str) or not server:
                raise ScanError(
                    "snapshot", f"server ids must be non-empty strings, got {shown_value(server)}"
                )
            tools = servers[server]
            if isinstance(tools, (str, bytes, Mapping)) or not isinstance(tools, Iterable):
                raise ScanError(f"snapshot[{server!r}]", "expected a list of tools")
            converted: list[Tool] = []
            for position, obj in enumerate(tools):
                try:
                    converted.append(Tool.from_mcp(obj, server=server))
                except ScanError as error:
                    raise ScanError(
                        f"snapshot[{server!r}][{position}].{error.field}", error.problem
                    ) from None
            built[server] = tuple(sorted(converted, key=lambda t: t.name))
        return cls(servers=built, trusted_servers=trusted)

    def __len__(self) -> int:
        return sum(len(tools) for tools in self.servers.values())

    def tools(self) -> Iterator[Tool]:
        """Every tool, servers in id order, tools in name order."""
        for tools in self.servers.values():
            yield from tools

    def other_servers_with(self, name: str, server: str | None) -> tuple[Tool, ...]:
        """Tools named ``name`` on servers other than ``server``.

        The scanned tool never counts against itself: its own server's entry
        is excluded. With ``server=None`` every server counts.
        """
        return tuple(t for t in self.by_name.get(name, ()) if t.server != server)

    def index(self, key: str, build: Callable[[Snapshot], _T]) -> _T:
        """The derived index named ``key``, built by ``build(self)`` on first use.

        Checks use this for their own lookup structures (an automaton over
        tool names, a near-name candidate table), so those are built once per
        Snapshot rather than once per scanned tool. ``key`` should include
        the check id and a version, since two checks must not share a key.
        """
        try:
            return self._indexes[key]  # type: ignore[no-any-return]
        except KeyError:
            value = build(self)
            self._indexes[key] = value
            return value

    def __getstate__(self) -> dict[str, Any]:
        # Derived indexes are rebuilt on the other side of a process boundary
        # rather than pickled (an automaton can be larger than the tools).
        return {"servers": self.servers, "trusted_servers": self.trusted_servers}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "servers", state["servers"])
        object.__setattr__(self, "trusted_servers", state.get("trusted_servers", frozenset()))
        object.__setattr__(self, "_indexes", {})
        object.__setattr__(self, "by_name", _index_by_name(self.servers))
