"""scan_many: scan large batches of tools across processes.

Registry-scale scans (thousands of servers) are CPU-bound pure Python, so
threads do not help; processes do. Each worker receives the snapshot once
(through the pool initializer) and then chunks of tools; reports come back
as plain picklable values and are returned in input order.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ._config import Config
from ._evidence import shown_value
from ._model import Report, ScanError, Tool
from ._scan import coerce_config, coerce_snapshot, scan
from ._snapshot import Snapshot

__all__ = ["scan_many"]

_CHUNK = 64

# Per-worker state, set once by the pool initializer in the worker process
# (never in the parent): the snapshot and config every chunk is scanned with.
_WORKER: dict[str, Any] = {}


def _init_worker(snapshot: Snapshot, config: Config) -> None:
    _WORKER["snapshot"] = snapshot
    _WORKER["config"] = config


def _scan_chunk(tools: Sequence[Tool]) -> list[Report]:
    snapshot, config = _WORKER["snapshot"], _WORKER["config"]
    return [scan(tool, snapshot, config=config) for tool in tools]


def check_progress(
    progress: Callable[[int, int], None] | None,
) -> Callable[[int, int], None]:
    """``progress`` itself (a callable or None, then a no-op), or ``ScanError``."""
    if progress is None:
        return _no_progress
    if not callable(progress):
        raise ScanError("progress", "expected a callable taking (done, total)")
    return progress


def _no_progress(_done: int, _total: int) -> None:
    return None


def as_batch_item(item: object, index: int) -> Tool:
    """A batch item: a ``Tool``, a ``(server, tool)`` pair, or an MCP mapping."""
    try:
        if isinstance(item, tuple) and len(item) == 2:
            server, tool = item
            return Tool.from_mcp(tool, server=server)
        return Tool.from_mcp(item)
    except ScanError as error:
        raise ScanError(f"tools[{index}].{error.field}", error.problem) from None


def scan_many(
    tools: Iterable[object],
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    *,
    workers: int | None = None,
    config: Config | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Report]:
    """Scan many tools, in parallel processes; reports in input order.

    ``tools`` holds ``Tool`` objects, ``(server, tool)`` pairs or MCP
    mappings. ``workers`` is the number of processes (default: the CPU
    count); with 1, or fewer tools than one chunk, everything runs in this
    process. Only the registered checks run (a check object cannot be sent
    to another process reliably). ``progress(done, total)``, when given, is
    called in this process as tools finish (the CLI draws it on a terminal).
    Raises ``ScanError`` naming a bad item before any work starts.
    """
    cfg = coerce_config(config)
    snap = coerce_snapshot(snapshot)
    report_progress = check_progress(progress)
    items = [as_batch_item(item, index) for index, item in enumerate(tools)]
    count = workers if workers is not None else (os.cpu_count() or 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ScanError("workers", f"expected a positive integer, got {shown_value(workers)}")
    if count == 1 or len(items) <= _CHUNK:
        reports = []
        for tool in items:
            reports.append(scan(tool, snap, config=cfg))
            report_progress(len(reports), len(items))
        return reports
    # Imported here: the process pool machinery is costly to import and only
    # batch callers need it.
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    chunks = [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)]
    with ProcessPoolExecutor(
        max_workers=count, initializer=_init_worker, initargs=(snap, cfg)
    ) as pool:
        reports = []
        for chunk_reports in pool.map(_scan_chunk, chunks):
            reports.extend(chunk_reports)
            report_progress(len(reports), len(items))
        return reports
