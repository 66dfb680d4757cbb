"""Check discovery through the ``mcpscan.checks`` entry-point group.

Two phases, as flake8 does it: first collect what the installed
distributions declare (distribution, version, entry name) without importing
anything; then load each entry, sorted, and validate what it gives. The
built-in checks are entry points of the ``mcpscan`` distribution and go
through exactly the same path as a third party's.

Every message names a plugin as ``package[entry]``.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
from collections.abc import Iterable, Mapping
from types import MappingProxyType

import attrs
import regex

from ._check import SURFACES, Check
from ._model import ScanError

__all__ = ["DISABLE_AUTOLOAD_ENV", "LoadedCheck", "PluginProblem", "available_checks", "discover"]

GROUP = "mcpscan.checks"
DISABLE_AUTOLOAD_ENV = "MCPSCAN_DISABLE_PLUGIN_AUTOLOAD"
_OWN_DISTRIBUTION = "mcpscan"
_CHECK_ID = regex.compile(r"[a-z0-9][a-z0-9.-]{0,63}")


@attrs.frozen
class LoadedCheck:
    """A validated check with where it came from."""

    check: Check
    id: str
    version: str
    source: str
    surfaces: frozenset[str]


@attrs.frozen
class PluginProblem:
    """A plugin that could not be used, and why."""

    source: str
    check_id: str
    error_type: str
    message: str


@attrs.frozen
class _Declared:
    distribution: str
    version: str
    entry: importlib.metadata.EntryPoint

    @property
    def source(self) -> str:
        return f"{self.distribution}[{self.entry.name}]"


def _declared(builtins_only: bool) -> list[_Declared]:
    found: list[_Declared] = []
    for entry in importlib.metadata.entry_points(group=GROUP):
        dist = entry.dist
        name = dist.metadata["Name"] if dist is not None else "unknown"
        version = dist.version if dist is not None else "unknown"
        if builtins_only and name != _OWN_DISTRIBUTION:
            continue
        found.append(_Declared(distribution=name, version=version, entry=entry))
    # Sorted, and de-duplicated: an editable install can list one
    # distribution's entry point twice through two metadata paths.
    unique = {(d.entry.name, d.distribution, d.entry.value): d for d in found}
    return [unique[key] for key in sorted(unique)]


def validate_check(obj: object, source: str) -> LoadedCheck:
    """Check the shape of a check object; raise ``ScanError`` naming ``source``."""
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as error:
            raise ScanError(source, f"check class could not be instantiated: {error!r}") from None
    check_id = getattr(obj, "id", None)
    version = getattr(obj, "version", None)
    if not isinstance(check_id, str) or not _CHECK_ID.fullmatch(check_id):
        raise ScanError(
            source, f"check id must be lower-case words joined by hyphens, got {check_id!r}"
        )
    if not isinstance(version, str) or not version:
        raise ScanError(source, "check version must be a non-empty string")
    if not callable(getattr(obj, "run", None)):
        raise ScanError(source, "check has no run(tool, context) method")
    surfaces = getattr(obj, "surfaces", ("definition",))
    if isinstance(surfaces, str) or not isinstance(surfaces, Iterable):
        raise ScanError(source, "check surfaces must be a collection of surface names")
    surface_set = frozenset(surfaces)
    if not surface_set or not surface_set <= SURFACES:
        raise ScanError(
            source,
            f"check surfaces must be among {sorted(SURFACES)}, got {sorted(map(str, surface_set))}",
        )
    return LoadedCheck(check=obj, id=check_id, version=version, source=source, surfaces=surface_set)  # type: ignore[arg-type]


def _load(declared: _Declared) -> LoadedCheck:
    source = declared.source
    try:
        obj = declared.entry.load()
    except Exception as error:
        raise ScanError(
            source, f"failed to import {declared.entry.value}: {type(error).__name__}: {error}"
        ) from None
    loaded = validate_check(obj, source)
    if loaded.id != declared.entry.name:
        raise ScanError(source, f"entry point name must equal the check id {loaded.id!r}")
    return loaded


@attrs.frozen
class Discovery:
    """The result of discovery: usable checks by id, and the problems."""

    checks: Mapping[str, LoadedCheck]
    problems: tuple[PluginProblem, ...]


def _problem(source: str, check_id: str, error: ScanError) -> PluginProblem:
    return PluginProblem(
        source=source, check_id=check_id, error_type="PluginError", message=str(error)
    )


@functools.lru_cache(maxsize=4)
def _discover(builtins_only: bool) -> Discovery:
    # Cached per process: the installed distributions do not change while a
    # process runs, and an inline gateway cannot afford to re-read every
    # distribution's metadata on each tools/list. Tests that install a plugin
    # at run time call _discover.cache_clear().
    by_id: dict[str, list[LoadedCheck]] = {}
    problems: list[PluginProblem] = []
    for declared in _declared(builtins_only):
        try:
            loaded = _load(declared)
        except ScanError as error:
            problems.append(_problem(declared.source, declared.entry.name, error))
            continue
        by_id.setdefault(loaded.id, []).append(loaded)
    checks: dict[str, LoadedCheck] = {}
    for check_id in sorted(by_id):
        claimants = by_id[check_id]
        own = [c for c in claimants if c.source.startswith(f"{_OWN_DISTRIBUTION}[")]
        if len(claimants) == 1:
            checks[check_id] = claimants[0]
            continue
        # Two plugins claim one id. Neither wins silently: a built-in keeps
        # its id (a plugin cannot switch a built-in off by shadowing it) and
        # every other claimant is reported; between third parties none runs.
        if len(own) == 1:
            checks[check_id] = own[0]
        names = ", ".join(c.source for c in claimants)
        for claimant in claimants:
            if claimant not in own:
                clash = ScanError(claimant.source, f"check id {check_id!r} is claimed by {names}")
                problems.append(_problem(claimant.source, check_id, clash))
    return Discovery(checks=MappingProxyType(checks), problems=tuple(problems))


def discover() -> Discovery:
    """Discover checks, honouring ``MCPSCAN_DISABLE_PLUGIN_AUTOLOAD``."""
    return _discover(os.environ.get(DISABLE_AUTOLOAD_ENV, "") not in ("", "0"))


def available_checks() -> Mapping[str, Check]:
    """Every check registered under the ``mcpscan.checks`` entry-point group.

    Sorted by id and validated. A plugin that fails to import, is malformed,
    or claims an id another plugin claims raises ``ScanError`` naming it as
    ``package[entry]``. With ``MCPSCAN_DISABLE_PLUGIN_AUTOLOAD=1`` only the
    built-in checks are loaded.
    """
    discovery = discover()
    if discovery.problems:
        first = discovery.problems[0]
        raise ScanError(first.source, first.message.split(": ", 1)[-1])
    return MappingProxyType({check_id: c.check for check_id, c in discovery.checks.items()})
