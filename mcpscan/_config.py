"""Config: the limits and switches of one scan.

Every limit bounds the work an attacker-written tool can cause; hitting a
limit is always recorded in ``Report.coverage.capped``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ._evidence import shown_value
from ._frozen import freeze
from ._model import ScanError

__all__ = ["Config"]


def _positive_int(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScanError(
            f"config.{attribute.name}", f"expected a positive integer, got {shown_value(value)}"
        )


def _unit_float(_instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ScanError(
            f"config.{attribute.name}", f"expected a number in [0, 1], got {shown_value(value)}"
        )


def _id_set(value: Iterable[str] | None) -> frozenset[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return frozenset((value,))
    return frozenset(value)


_ON_INCOMPLETE = ("review", "quarantine", "pass")


def _options(value: Mapping[str, Mapping[str, Any]] | None) -> Mapping[str, Mapping[str, Any]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScanError("config.options", "expected a mapping of check id to options")
    out: dict[str, Mapping[str, Any]] = {}
    for key, opts in value.items():
        if not isinstance(key, str) or not isinstance(opts, Mapping):
            raise ScanError(f"config.options[{key!r}]", "expected a mapping of option values")
        out[key] = dict(opts)
    # Read-only, deeply: a check must not change another check's options.
    frozen: Mapping[str, Mapping[str, Any]] = freeze(out)
    return frozen


def _collisions(
    value: Iterable[Iterable[str]] | None,
) -> frozenset[tuple[str, str, str]]:
    """Acknowledged name collisions as (server_a, server_b, tool_name), server pair sorted."""
    if value is None:
        return frozenset()
    out: set[tuple[str, str, str]] = set()
    for index, entry in enumerate(value):
        items = tuple(entry)
        if len(items) != 3 or not all(isinstance(x, str) for x in items):
            raise ScanError(
                f"config.acknowledged_collisions[{index}]",
                "expected (server_a, server_b, tool_name) strings",
            )
        first, second = sorted(items[:2])
        out.add((first, second, items[2]))
    return frozenset(out)


def _custom_patterns(value: Iterable[Any] | None) -> tuple[Any, ...]:
    """The rules as given, read-only; the check that reads them validates them.

    The core names no check: the ``custom-patterns`` check checks these
    through ``validate_config`` when a scan starts (``ScanError`` naming the
    entry, such as ``config.custom_patterns[2].regex``).
    """
    if not value:
        return ()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ScanError("config.custom_patterns", "expected a list of rule mappings")
    frozen: tuple[Any, ...] = tuple(freeze(entry) for entry in value)
    return frozen


@attrs.frozen
class Config:
    """Limits, enabled checks and per-check options for a scan.

    The defaults are safe for hostile input: a 10 MB description, a schema
    nested 100,000 levels deep or a million tiny strings are all cut at these
    limits, and every cut is recorded.
    """

    #: Characters of one string that are scanned; the rest is skipped (recorded).
    max_string_chars: int = attrs.field(default=1_048_576, validator=_positive_int)
    #: Characters scanned over all strings of one tool.
    max_total_chars: int = attrs.field(default=4_194_304, validator=_positive_int)
    #: Strings of one tool that are scanned.
    max_strings: int = attrs.field(default=10_000, validator=_positive_int)
    #: Nesting depth of schemas and annotations that is walked.
    max_depth: int = attrs.field(default=64, validator=_positive_int)
    #: Containers (objects and arrays) of one tool that are walked.
    max_nodes: int = attrs.field(default=50_000, validator=_positive_int)
    #: Signals kept from one check on one tool.
    max_signals_per_check: int = attrs.field(default=100, validator=_positive_int)
    #: Characters of evidence kept per signal.
    max_evidence_chars: int = attrs.field(default=200, validator=_positive_int)
    #: Seconds a single regular-expression match may take before it is abandoned.
    regex_timeout: float = attrs.field(default=0.25)
    #: A check slower than this on one tool is logged (``mcpscan`` logger) and
    #: its time kept in ``CheckRun.seconds``; reports leave wall time out.
    slow_check_seconds: float = attrs.field(default=0.5)
    #: Seconds one third-party check may run on one tool (on a worker thread;
    #: the built-ins run on the calling thread, bounded by their own budgets).
    #: A check still running then is abandoned (it keeps a daemon thread until
    #: it returns) and recorded as degraded (``timeout``); the scan goes on.
    check_timeout_seconds: float = attrs.field(default=5.0)
    #: What an incomplete scan (a limit hit, a check that did not finish)
    #: is at least: ``"review"``, ``"quarantine"``, or ``"pass"`` (no floor:
    #: the gap is only listed in ``coverage``).
    on_incomplete: str = attrs.field(default="review")
    #: A soft signal below this confidence (an attack phrase that is only
    #: mentioned, say) is reported but does not by itself make a tool reviewable.
    review_min_confidence: float = attrs.field(default=0.35, validator=_unit_float)
    #: Only these check ids run (None: all discovered checks).
    enabled: frozenset[str] | None = attrs.field(default=None, converter=_id_set)
    #: These check ids never run.
    disabled: frozenset[str] | None = attrs.field(default=frozenset(), converter=_id_set)
    #: Per-check options, keyed by check id.
    options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict, converter=_options)
    #: Tool names that two servers are known to share on purpose, as
    #: (server_a, server_b, tool_name). Such a collision is a SOFT signal.
    acknowledged_collisions: frozenset[tuple[str, str, str]] = attrs.field(
        factory=frozenset, converter=_collisions
    )
    #: User rules for the ``custom-patterns`` check (see its docs page),
    #: validated by that check when a scan starts.
    custom_patterns: tuple[Any, ...] = attrs.field(default=(), converter=_custom_patterns)

    def __attrs_post_init__(self) -> None:
        if self.on_incomplete not in _ON_INCOMPLETE:
            raise ScanError(
                "config.on_incomplete",
                f"expected one of {', '.join(_ON_INCOMPLETE)}, got {self.on_incomplete!r}",
            )
        for name in ("regex_timeout", "slow_check_seconds", "check_timeout_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ScanError(
                    f"config.{name}", f"expected a positive number, got {shown_value(value)}"
                )

    def is_enabled(self, check_id: str) -> bool:
        if check_id in (self.disabled or frozenset()):
            return False
        return self.enabled is None or check_id in self.enabled

    def options_for(self, check_id: str) -> Mapping[str, Any]:
        """The options given for one check (an empty mapping when none)."""
        return self.options.get(check_id, {})

    def collision_acknowledged(self, server_a: str, server_b: str, name: str) -> bool:
        first, second = sorted((server_a, server_b))
        return (first, second, name) in self.acknowledged_collisions
