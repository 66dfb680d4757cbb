"""The pin file on disk: atomic replacement under a lock.

Readers never take the lock: the file is only ever replaced whole, by
``os.replace`` of a fully written and fsynced temporary file in the same
directory, so a reader sees the old file or the new one, never a mix. A
writer holds ``<file>.lock`` (``filelock``) from the moment it re-reads the
file until the replacement is on disk, so two writers take turns and the
second one merges into what the first wrote.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import filelock

from ._model import ScanError

__all__ = ["PinStoreError", "locked", "read_json", "write_atomically", "write_target"]


class PinStoreError(ScanError):
    """The pin file cannot be used: unreadable, corrupt, or from a newer mcpscan.

    A file in this state is never overwritten; the message names the file
    and the field at fault.
    """


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


_TEMP_SUFFIX = ".tmp"


def _reject_constant(name: str) -> object:
    # Python's json reads NaN and Infinity, which are not JSON and which the
    # writer refuses; a file holding them was not written by mcpscan.
    raise ValueError(f"{name} is not valid JSON")


def read_json(path: Path) -> object | None:
    """The parsed file, or ``None`` when it does not exist."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise PinStoreError("file", f"{path}: cannot read: {error.strerror or error}") from None
    try:
        document: object = json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        # ValueError covers json.JSONDecodeError and Python's refusal of huge
        # integers. The file is left as it is for a person to look at.
        raise PinStoreError("file", f"{path}: not a readable pin file ({error})") from None
    return document


@contextlib.contextmanager
def locked(path: Path, timeout: float) -> Iterator[None]:
    """Hold ``<path>.lock`` for a read-modify-write of ``path``."""
    lock = filelock.FileLock(f"{path}.lock", timeout=timeout)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise PinStoreError(
            "file", f"{path}: still locked by another writer after {timeout}s"
        ) from None
    except OSError as error:
        # A read-only directory, a lock file someone else owns, or a lock
        # path that is a symlink loop: the store cannot be written safely.
        raise PinStoreError(
            "file", f"{path}.lock: cannot take the lock: {error.strerror or error}"
        ) from None
    try:
        yield
    finally:
        lock.release()


def write_target(path: Path) -> Path:
    """The file a save really replaces: ``path`` with its symlinks followed.

    Replacing a symlinked pin file by a regular file would split the store:
    the link's target (which other readers may use) would keep stale pins.
    Writing through to the target keeps one store. A symlink loop is left
    as it is; reading it fails with a ``PinStoreError`` naming the path.
    """
    return Path(os.path.realpath(path))


def _remove_stale_temporaries(path: Path) -> None:
    """Delete temporaries a killed writer left behind.

    Called with the lock held: every writer creates its temporary only
    while holding the lock, so any temporary present now is stale.
    """
    prefix = _temp_prefix(path)
    with contextlib.suppress(OSError):
        for entry in path.parent.iterdir():
            if entry.name.startswith(prefix) and entry.name.endswith(_TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    entry.unlink()


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable where the platform allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open a directory
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse
        pass
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``; the caller holds the lock.

    The bytes go to a temporary file in the same directory (same filesystem,
    so the rename is atomic), are flushed and fsynced, and only then renamed
    over ``path``. A crash at any point leaves the old file or the new one.
    """
    _remove_stale_temporaries(path)
    fd, temp_name = tempfile.mkstemp(
        dir=path.parent, prefix=_temp_prefix(path), suffix=_TEMP_SUFFIX
    )
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            # Keep the permissions someone gave the existing file.
            os.chmod(temp, stat.S_IMODE(path.stat().st_mode))
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    _fsync_directory(path.parent)
