"""Scan a registry on a Dask cluster (``mcpscan[dask]``).

``scan_many`` uses the processes of one machine; past that, a
``dask.distributed`` cluster spreads the same work over many::

    from dask.distributed import Client
    import mcpscan
    from mcpscan.dask import scan_registry

    client = Client("tcp://scheduler:8786")
    reports = scan_registry(items, snapshot, client=client)

The snapshot (every server's tools, which the cross-server checks compare
with) and the configuration are scattered to every worker once; chunks of
tools are then mapped over the cluster and the reports come back in input
order, the same reports ``scan_many`` gives for the same input. Workers run
the checks registered in their own environment: install the same plugins
there (or set ``MCPSCAN_DISABLE_PLUGIN_AUTOLOAD=1`` on every worker).

Dask is imported only inside ``scan_registry``, so ``import mcpscan.dask``
works without it; calling it without Dask raises ``MissingDaskError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ._batch import as_batch_item, check_progress
from ._config import Config
from ._evidence import shown_value
from ._model import Report, ScanError, Tool
from ._scan import coerce_config, coerce_snapshot, scan
from ._snapshot import Snapshot

__all__ = ["DEFAULT_CHUNK", "MissingDaskError", "scan_registry"]

#: Tools per task: large enough that scheduling costs little next to the
#: scanning, small enough that a cluster's workers share the load evenly.
DEFAULT_CHUNK = 256


class MissingDaskError(ImportError):
    """``scan_registry`` was called without ``dask.distributed`` installed."""


def _scan_chunk(tools: Sequence[Tool], snapshot: Snapshot, config: Config) -> list[Report]:
    # Runs on a worker: the snapshot and config arrive as scattered data.
    return [scan(tool, snapshot, config=config) for tool in tools]


def _positive(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScanError(field, f"expected a positive integer, got {shown_value(value)}")
    return value


def scan_registry(
    tools: Iterable[object],
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    *,
    client: Any,
    config: Config | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int, int], None] | None = None,
) -> list[Report]:
    """Scan ``tools`` on the cluster of ``client``; reports in input order.

    ``tools`` holds what ``scan_many`` takes (``Tool`` objects, ``(server,
    tool)`` pairs or MCP mappings); ``client`` is a ``distributed.Client``.
    ``progress(done, total)`` is called in this process as chunks finish.
    Raises ``ScanError`` naming a bad item before any work is sent.
    """
    try:
        from distributed import as_completed  # noqa: PLC0415
    except ImportError:
        raise MissingDaskError("mcpscan.dask needs Dask: pip install 'mcpscan[dask]'") from None
    cfg = coerce_config(config)
    snap = coerce_snapshot(snapshot)
    size = _positive(chunk_size, "chunk_size")
    report_progress = check_progress(progress)
    items = [as_batch_item(item, index) for index, item in enumerate(tools)]
    if not items:
        return []
    # hash=False: tokenizing a large snapshot to name it costs more than
    # sending it, and each call scatters its own copy anyway.
    shared_snapshot = client.scatter(snap, broadcast=True, hash=False)
    shared_config = client.scatter(cfg, broadcast=True, hash=False)
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    futures = [
        client.submit(_scan_chunk, chunk, shared_snapshot, shared_config, pure=False)
        for chunk in chunks
    ]
    sizes = {future.key: len(chunk) for future, chunk in zip(futures, chunks, strict=True)}
    done = 0
    for finished in as_completed(futures):  # type: ignore[no-untyped-call,unused-ignore]
        done += sizes[finished.key]
        report_progress(done, len(items))
    gathered: list[list[Report]] = client.gather(futures)
    return [report for chunk in gathered for report in chunk]
