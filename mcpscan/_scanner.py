"""Scanner: the checks and config held once, repeat scans answered from a cache.

A gateway sees the same ``tools/list`` over and over. ``Scanner.scan``
returns the stored Report when nothing the checks read has changed, and
runs the checks otherwise. The cache key covers everything a report is
built from:

* the tool as given: for a plain JSON object (what ``json.loads`` returns),
  the SHA-256 of its ``marshal`` bytes, plus the ``server`` argument. Marshal
  is the fastest exact text Python has (about 2 us for a real-size tool,
  against 15 us for sorted-key JSON): it writes every value with its exact
  type (``1``, ``True``, ``1.0`` and ``"1"`` differ; a dict or str subclass
  is refused), so equal bytes mean an equal value of equal types. Its one
  blind spot, bytes-like objects all written alike, is closed by storing a
  report under this key only when the tool is strictly plain JSON; a key
  order that differs is only a miss. Any other form (a ``Tool``, an SDK
  model, an object read with duplicate keys) is keyed on a type-tagged
  text of every field of its ``Tool``, duplicates, extra keys and
  annotations included. The pin fingerprint
  (``mcpscan.pins``) is not enough: it leaves annotations and extra keys
  out on purpose, and the checks read both;
* the snapshot: no check declares which parts of it it reads (shadowing
  builds indexes over every tool name, description and server), so the key
  is a digest of the whole snapshot, computed once per ``Snapshot`` object
  and kept among its indexes;
* the config, and every check's id and version (read again at each scan,
  so a check whose ``version`` changes is re-validated and misses).

A report that is not complete (a limit hit, a check degraded or timed out)
is never stored: the next scan runs again. A value the key cannot describe
exactly (a custom object, a subclass, a bytes-like value, a cycle) makes that
scan uncached.
"""

from __future__ import annotations

import hashlib
import marshal
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import attrs

from ._config import Config
from ._model import DegradedEntry, Report, ScanError, Tool, _server_arg, plain
from ._plugins import LoadedCheck, validate_check
from ._scan import coerce_config, coerce_snapshot, run_checks, select_checks
from ._snapshot import Snapshot
from ._walk import view_tool

__all__ = ["Scanner"]

#: Values one key text may describe before the scan goes uncached (a
#: cyclic or exponentially shared value would otherwise never end).
_MAX_KEY_NODES = 200_000
_SNAPSHOT_INDEX = "mcpscan.scanner.snapshot-digest-v1"
_TOOL_FIELDS = (
    "server",
    "kind",
    "uri",
    "name",
    "title",
    "description",
    "input_schema",
    "output_schema",
    "annotations",
    "extra",
    "duplicates",
)


def _strictly_plain(value: object) -> bool:
    """True when ``value`` is JSON made only of exact dict/list/str/int/float/
    bool/None with string keys: the only values a report is stored for under
    their ``marshal`` digest. Checked when a report is stored, not when one
    is looked up: marshal writes ``bytes`` and ``bytearray`` alike, and a
    value holding neither cannot share its bytes with one holding either."""
    stack: list[Any] = [value]
    nodes = 0
    while stack:
        item = stack.pop()
        nodes += 1
        if nodes > _MAX_KEY_NODES:
            return False
        kind = type(item)
        if kind is dict:
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind not in (str, int, float, bool) and item is not None:
            return False
    return True


def _exact_digest(value: object) -> bytes | None:
    """SHA-256 of the ``marshal`` bytes of ``value``; None where marshal refuses
    it (a custom object, a subclass, a cycle, very deep nesting).

    Version 0 of the format, which writes neither references nor interning
    marks, so the bytes depend on the value alone, not on how Python shares
    its objects. Bytes-like objects (``bytes``, ``bytearray``, arrays) are
    written alike: a report is stored under this digest only for a strictly
    plain value (``_strictly_plain``), which holds none of them.
    """
    try:
        data = marshal.dumps(cast(Any, value), 0)
    except ValueError:
        return None
    return b"m" + hashlib.sha256(data).digest()


def _tagged_digest(value: object) -> bytes | None:
    """SHA-256 of a type-tagged text of a frozen value (``Tool`` fields,
    snapshot contents); None for anything it cannot describe exactly.

    Every scalar is written with its type and ``repr`` (``1``, ``True``,
    ``1.0`` and ``"1"`` differ); a mapping with its sorted items and the
    duplicate pairs a JSON text gave (``FrozenDict.duplicates``).
    """
    parts: list[str] = []
    # ("v", value) to describe, ("t", text) to write as is.
    stack: list[tuple[str, Any]] = [("v", value)]
    nodes = 0
    while stack:
        tag, item = stack.pop()
        if tag == "t":
            parts.append(item)
            continue
        nodes += 1
        if nodes > _MAX_KEY_NODES:
            return None
        if isinstance(item, Mapping):
            keys = list(item)
            if not all(type(key) is str for key in keys):
                return None
            later: list[tuple[str, Any]] = [("t", "{")]
            for key in sorted(keys):
                later += [("t", repr(key)), ("v", item[key])]
            later += [("t", "|"), ("v", tuple(getattr(item, "duplicates", ()))), ("t", "}")]
            stack.extend(reversed(later))
        elif isinstance(item, (Sequence, frozenset)) and not isinstance(item, str):
            members = sorted(item, key=repr) if isinstance(item, frozenset) else list(item)
            later = [("t", "[")] + [("v", member) for member in members] + [("t", "]")]
            stack.extend(reversed(later))
        elif type(item) in (str, int, float, bool) or item is None:
            parts.append(f"{type(item).__name__}:{item!r},")
        else:
            return None
    return hashlib.sha256("".join(parts).encode("utf-8", "surrogatepass")).digest()


def _tool_digest(tool: Tool) -> bytes | None:
    return _tagged_digest(tuple(getattr(tool, name) for name in _TOOL_FIELDS))


def _snapshot_digest(snapshot: Snapshot) -> bytes | None:
    digests = [_tool_digest(tool) for tool in snapshot.tools()]
    hexes = tuple(d.hex() for d in digests if d is not None)
    if len(hexes) != len(digests):
        return None
    return _tagged_digest((hexes, snapshot.trusted_servers))


def _snapshot_key(snapshot: Snapshot) -> bytes | None:
    # Kept among the Snapshot's own derived indexes: computed once per
    # Snapshot object, however many tools are scanned against it.
    return snapshot.index(_SNAPSHOT_INDEX, _snapshot_digest)


def _config_digest(config: Config) -> bytes | None:
    return _tagged_digest(attrs.astuple(config, recurse=False))


@attrs.define(eq=False)
class _LruCache:
    """A bounded, thread-safe least-recently-used map of keys to Reports."""

    size: int
    _entries: OrderedDict[tuple[Any, ...], Report] = attrs.field(factory=OrderedDict)
    _lock: threading.Lock = attrs.field(factory=threading.Lock)

    def get(self, key: tuple[Any, ...]) -> Report | None:
        with self._lock:
            report = self._entries.get(key)
            if report is not None:
                self._entries.move_to_end(key)
            return report

    def put(self, key: tuple[Any, ...], report: Report) -> None:
        if self.size == 0:
            return
        with self._lock:
            self._entries[key] = report
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def _cache_size(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ScanError("cache_size", f"expected a non-negative integer, got {value!r}")
    return value


_Selected = tuple[list[LoadedCheck], list[DegradedEntry], tuple[tuple[str, str], ...]]


def _with_versions(selected: list[LoadedCheck], problems: list[DegradedEntry]) -> _Selected:
    """The selected checks, their load problems and their (id, version) pairs."""
    return selected, problems, tuple((c.id, c.version) for c in selected)


class Scanner:
    """The checks and the config held once, with a bounded cache of reports.

    ``Scanner(config=None, *, checks=None, cache_size=4096)`` discovers the
    registered checks (or validates the ``checks`` given) once.
    ``scanner.scan(tool, snapshot=None, *, server=None)`` returns the same
    Report as ``mcpscan.scan`` with the same arguments, from the cache when
    the tool, the snapshot, the config and every check's id and version are
    unchanged. ``scanner.scan_output(result, ...)`` does the same for
    ``mcpscan.scan_output``. Safe to share between threads. ``cache_size=0``
    turns the cache off. See ``docs/performance.md`` ("Repeat scans").
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        checks: Iterable[object] | None = None,
        cache_size: int = 4096,
    ) -> None:
        self._config = coerce_config(config)
        self._cache = _LruCache(_cache_size(cache_size))
        self._lock = threading.Lock()
        given = None if checks is None else list(checks)
        self._surfaces = {
            surface: _with_versions(*select_checks(given, self._config, surface))
            for surface in ("definition", "output")
        }
        self._config_digest = _config_digest(self._config)
        self._empty = Snapshot()

    def _snapshot(self, snapshot: object) -> tuple[Snapshot, bytes | None]:
        """The Snapshot to scan with and the digest of its contents."""
        snap = self._empty if snapshot is None else coerce_snapshot(snapshot)
        return snap, _snapshot_key(snap)

    @property
    def config(self) -> Config:
        """The configuration every scan of this scanner uses."""
        return self._config

    @property
    def cached(self) -> int:
        """How many reports the cache holds now."""
        return len(self._cache)

    def clear_cache(self) -> None:
        """Forget every stored report."""
        self._cache.clear()

    def _checks(self, surface: str) -> tuple[list[LoadedCheck], tuple[tuple[str, str], ...]]:
        """The checks of ``surface`` with their current ids and versions.

        A check object whose ``version`` changed since it was loaded is
        validated again, so its reports (and the cache key) carry the new one.
        """
        selected, problems, versions = self._surfaces[surface]
        for loaded in selected:  # a plain loop: this runs on every cached scan
            if getattr(loaded.check, "version", None) != loaded.version:
                fresh = _with_versions(
                    [validate_check(c.check, c.source) for c in selected], problems
                )
                with self._lock:
                    self._surfaces[surface] = fresh
                selected, _, versions = fresh
                break
        return selected, versions

    def _remember(self, key: tuple[Any, ...] | None, report: Report) -> Report:
        # An incomplete report says a limit was hit or a check failed: the
        # next scan must try again rather than repeat the gap.
        if key is not None and report.coverage.complete:
            self._cache.put(key, report)
        return report

    def scan(
        self,
        tool: object,
        snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
        *,
        server: str | None = None,
    ) -> Report:
        """Scan one tool definition, as ``mcpscan.scan`` does, cached.

        Raises ``ScanError`` naming the malformed field, as ``mcpscan.scan``.
        """
        selected, versions = self._checks("definition")
        tool = plain(tool)
        parsed: Tool | None = None
        tool_digest = _exact_digest(tool) if type(tool) is dict else None
        exact = tool_digest is not None
        if tool_digest is None:
            parsed = Tool.from_mcp(tool, server=server)
            tool_digest = _tool_digest(parsed)
        server = _server_arg(server)
        snap, snapshot_digest = self._snapshot(snapshot)
        key = self._key("definition", server, tool_digest, snapshot_digest, versions)
        found = self._cache.get(key) if key is not None else None
        if found is not None:
            return found
        if parsed is None:
            parsed = Tool.from_mcp(tool, server=server)
        problems = self._surfaces["definition"][1]
        view = view_tool(parsed, self._config)
        report = run_checks(view, snap, self._config, selected, problems, strict=False)
        storable = not exact or _strictly_plain(tool)
        return self._remember(key if storable else None, report)

    def scan_output(
        self,
        result: object,
        *,
        tool: object = None,
        server: str | None = None,
        snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    ) -> Report:
        """Scan a ``tools/call`` result, as ``mcpscan.scan_output`` does, cached."""
        from ._output import result_view  # noqa: PLC0415 - loaded on first use

        selected, versions = self._checks("output")
        snap, snapshot_digest = self._snapshot(snapshot)
        result, tool = plain(result), plain(tool)
        result_digest = _exact_digest(result)
        tool_digest = _exact_digest(tool)
        key = None
        if result_digest is not None and tool_digest is not None:
            digest = result_digest + tool_digest
            key = self._key("output", _server_arg(server), digest, snapshot_digest, versions)
            found = self._cache.get(key) if key is not None else None
            if found is not None:
                return found
        problems = self._surfaces["output"][1]
        view = result_view(result, tool, server, self._config)
        report = run_checks(
            view, snap, self._config, selected, problems, strict=False, surface="output"
        )
        storable = _strictly_plain(result) and _strictly_plain(tool)
        return self._remember(key if storable else None, report)

    def _key(
        self,
        surface: str,
        server: str | None,
        digest: bytes | None,
        snapshot_digest: bytes | None,
        versions: tuple[tuple[str, str], ...],
    ) -> tuple[Any, ...] | None:
        if digest is None or snapshot_digest is None or self._config_digest is None:
            return None
        return (surface, server, digest, snapshot_digest, self._config_digest, versions)
