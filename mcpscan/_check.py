"""The check interface and the context a check receives.

A check is any object with an ``id``, a ``version`` and a ``run(tool,
context)`` method that yields ``Signal`` objects. It may also declare
``surfaces``: which kinds of text it applies to (``"definition"``,
``"output"``, ``"arguments"``); without it, a check applies to definitions.

Checks are pure: they read the tool and the context and yield signals. A
check that has to stop early (a budget of its own) says so with
``context.record_cap``, so the cut shows in the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from ._config import Config
from ._model import CappedEntry, Signal, Tool
from ._walk import LocatedString, ToolView

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._snapshot import Snapshot

__all__ = ["SURFACES", "Check", "Context"]

#: The kinds of text a check can apply to.
SURFACES = frozenset({"definition", "output", "arguments"})


@runtime_checkable
class Check(Protocol):
    """What a check plugin provides.

    ``id`` is stable once published (lower-case words joined by hyphens);
    ``version`` changes whenever the check's results can change.

    Optionally a check also has ``validate_config(config) -> None``, called
    once when a scan starts, before any tool is read: it raises
    ``ScanError`` naming the field when the options it reads are wrong (the
    caller's mistake, raised to the caller). The core knows no check's
    options; each check validates its own this way.
    """

    id: str
    version: str

    def run(self, tool: Tool, context: Context) -> Iterable[Signal]:
        """Yield the signals this check finds on ``tool``."""
        ...


@attrs.define(slots=True)
class _CapLog:
    """Per-scan, per-check collector of caps a check reports; never shared."""

    entries: list[CappedEntry] = attrs.field(factory=list)


@attrs.frozen
class Context:
    """What a check may read besides the tool itself.

    ``snapshot`` is the read-only view of every server's tools (empty when
    the caller gave none); ``config`` the scan's configuration; ``view`` the
    walked strings of the tool, computed once per scan and shared by all
    checks; ``surface`` which kind of text is scanned; ``check_id`` the id
    of the check this context was handed to.
    """

    snapshot: Snapshot
    config: Config
    view: ToolView
    surface: str = "definition"
    check_id: str = ""
    _caps: _CapLog = attrs.field(factory=_CapLog, repr=False, eq=False)

    @property
    def strings(self) -> tuple[LocatedString, ...]:
        """Every scanned string with its location, raw and normalized."""
        return self.view.strings

    def strings_in(self, *fields: str) -> Iterator[LocatedString]:
        """The strings of the given top-level fields (``description`` ...)."""
        return self.view.in_field(*fields)

    @property
    def options(self) -> Mapping[str, Any]:
        """The options the configuration gives for this check."""
        return self.config.options_for(self.check_id)

    def record_cap(self, limit: str, location: str, skipped: str) -> None:
        """Record that this check hit a limit of its own and skipped something."""
        self._caps.entries.append(
            CappedEntry(limit=limit, location=location, skipped=skipped, check_id=self.check_id)
        )

    def for_check(self, check_id: str) -> Context:
        """A copy handed to one check, with its own cap log."""
        # Built directly rather than with attrs.evolve: this runs once per
        # check per scan, on the inline path of a gateway.
        return Context(self.snapshot, self.config, self.view, self.surface, check_id, _CapLog())

    def recorded_caps(self) -> tuple[CappedEntry, ...]:
        return tuple(self._caps.entries)
