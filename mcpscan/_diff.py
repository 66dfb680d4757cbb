"""Field-level differences between two plain-JSON tool definitions.

Every difference is reported at the deepest JSON path where the two
definitions part (``inputSchema.properties.path.description``), with the
old and new values rendered for a person: secrets redacted, unsafe
characters escaped, long strings cut to a window around the change so an
appended directive at the end of a long description is what shows.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

import attrs

from ._canonical import FINGERPRINT_FIELDS, canonical_bytes, shown_path
from ._evidence import safe_evidence, scrub_secrets, widen_outside_secrets
from ._walk import _child_path

__all__ = ["ChangeKind", "FieldChange", "diff_definitions"]

#: Characters of each rendered value.
RENDER_CHARS = 240
#: Unchanged characters shown on either side of a change inside a string.
CONTEXT_CHARS = 40
#: Differences reported per tool; a hostile definition can differ everywhere.
MAX_CHANGES = 200

_MISSING = object()


class ChangeKind(str, enum.Enum):
    """How one JSON path differs between the pinned and the presented tool."""

    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


@attrs.frozen
class FieldChange:
    """One difference: where, how, and the rendered values before and after.

    ``before`` and ``after`` are render-safe and redacted; ``None`` where
    the path does not exist on that side. Strings are shown as their text,
    other values as compact canonical JSON.
    """

    path: str
    kind: ChangeKind
    before: str | None
    after: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind.value,
            "before": self.before,
            "after": self.after,
        }

    def __str__(self) -> str:
        if self.kind is ChangeKind.ADDED:
            return f"{self.path}: added {self.after}"
        if self.kind is ChangeKind.REMOVED:
            return f"{self.path}: removed (was {self.before})"
        return f"{self.path}: from {self.before} to {self.after}"


def _same_scalar(before: object, after: object) -> bool:
    # Python's == says True == 1 == 1.0; JSON (and the fingerprint) tells a
    # boolean from a number, so a ``default: true`` that became ``1`` must
    # show as a change.
    return isinstance(before, bool) is isinstance(after, bool) and before == after


def _render_value(value: object) -> str:
    if isinstance(value, str):
        return safe_evidence(value, RENDER_CHARS)
    return safe_evidence(canonical_bytes(value).decode("utf-8"), RENDER_CHARS)


def _window(text: str, start: int, end: int) -> str:
    start, end = widen_outside_secrets(text, start, end)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(text) else ""
    return safe_evidence(head + text[start:end] + tail, RENDER_CHARS)


def _render_string_change(before: str, after: str) -> tuple[str, str]:
    """Both strings cut to the changed part with a little context around it."""
    limit = min(len(before), len(after))
    prefix = 0
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    start = max(0, prefix - CONTEXT_CHARS)
    keep_tail = max(0, suffix - CONTEXT_CHARS)
    return (
        _window(before, start, len(before) - keep_tail),
        _window(after, start, len(after) - keep_tail),
    )


def _kind_of(value: object) -> str:
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list):
        return "array"
    return "scalar"


@attrs.define
class _Differ:
    changes: list[FieldChange] = attrs.field(factory=list)
    truncated: bool = False

    def add(self, path: str, kind: ChangeKind, before: object, after: object) -> None:
        if len(self.changes) >= MAX_CHANGES:
            self.truncated = True
            return
        shown_before: str | None
        shown_after: str | None
        if kind is ChangeKind.CHANGED and isinstance(before, str) and isinstance(after, str):
            shown_before, shown_after = _render_string_change(before, after)
        else:
            shown_before = None if before is _MISSING else _render_value(before)
            shown_after = None if after is _MISSING else _render_value(after)
        self.changes.append(
            FieldChange(path=shown_path(path), kind=kind, before=shown_before, after=shown_after)
        )

    def compare(self, path: str, before: object, after: object, stack: list[Any]) -> None:
        """Compare one node; push the children of two containers of one kind."""
        if before is _MISSING:
            self.add(path, ChangeKind.ADDED, before, after)
            return
        if after is _MISSING:
            self.add(path, ChangeKind.REMOVED, before, after)
            return
        kind = _kind_of(before)
        if kind != _kind_of(after):
            self.add(path, ChangeKind.CHANGED, before, after)
        elif isinstance(before, Mapping) and isinstance(after, Mapping):
            keys = sorted(set(before) | set(after))
            stack.extend(
                (
                    _child_path(path, scrub_secrets(key)),
                    before.get(key, _MISSING),
                    after.get(key, _MISSING),
                )
                for key in reversed(keys)
            )
        elif isinstance(before, list) and isinstance(after, list):
            length = max(len(before), len(after))
            stack.extend(
                (
                    f"{path}[{index}]",
                    before[index] if index < len(before) else _MISSING,
                    after[index] if index < len(after) else _MISSING,
                )
                for index in reversed(range(length))
            )
        elif not _same_scalar(before, after):
            self.add(path, ChangeKind.CHANGED, before, after)


def diff_definitions(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[tuple[FieldChange, ...], bool]:
    """The differences between two plain-JSON definitions, and whether the
    list was cut at ``MAX_CHANGES``.

    Only the fingerprinted fields are compared, in their fixed order; within
    a field, object keys are sorted and arrays compared index by index, so
    the same two definitions always give the same list.
    """
    differ = _Differ()
    stack: list[Any] = [
        (field, before.get(field, _MISSING), after.get(field, _MISSING))
        for field in reversed(FINGERPRINT_FIELDS)
    ]
    while stack and not differ.truncated:
        path, old, new = stack.pop()
        if old is _MISSING and new is _MISSING:
            continue
        differ.compare(path, old, new, stack)
    return tuple(differ.changes), differ.truncated
