"""Deep-frozen JSON values: what checks are handed instead of the caller's data.

A check is third-party code. Handed the caller's own dicts, one that runs
``tool.input_schema["properties"].clear()`` would change the caller's data
and hide every later check's findings, with nothing recorded. ``freeze``
copies a value once (at ``Tool.from_mcp``) into read-only containers:
``FrozenDict`` for objects and ``FrozenList`` for arrays, so a mutation
attempt raises inside the check that tried it (and is recorded as
degraded), and the caller's input is never touched.

The copy keeps the shape of the input exactly: a sub-object shared by two
parents is frozen once and shared again, and a reference cycle stays a
cycle, so the walk's cycle and node limits see what they saw before. The
copy is iterative (a schema nested 100,000 levels deep cannot raise
RecursionError). ``thaw`` gives plain ``dict``/``list`` copies back for
serialisers such as ``json.dumps``.

A JSON object read with duplicate keys (see ``_jsonread``) carries its
extra values in ``FrozenDict.duplicates``: one value per key stays in the
mapping, the others are kept so the walk can scan them too.
"""

from __future__ import annotations

import reprlib
from collections.abc import ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from types import MappingProxyType
from typing import Any, TypeGuard, overload

__all__ = [
    "FrozenDict",
    "FrozenList",
    "freeze",
    "freeze_optional",
    "is_array",
    "is_object",
    "thaw",
]


class FrozenDict(Mapping[Any, Any]):
    """A read-only JSON object. Lookups run at dict speed."""

    __slots__ = ("_proxy", "duplicates")
    _proxy: Mapping[Any, Any]
    duplicates: tuple[tuple[str, Any], ...]

    def __init__(self) -> None:
        # Built empty and filled by ``freeze`` only, so a cycle can point
        # back at an object that is still being copied.
        self._set(MappingProxyType({}), ())

    def _set(self, proxy: Mapping[Any, Any], duplicates: tuple[tuple[str, Any], ...]) -> None:
        object.__setattr__(self, "_proxy", proxy)
        #: Extra ``(key, value)`` pairs of keys the JSON text gave twice.
        object.__setattr__(self, "duplicates", duplicates)

    def get(self, key: Any, default: Any = None) -> Any:
        return self._proxy.get(key, default)

    def items(self) -> ItemsView[Any, Any]:
        return self._proxy.items()

    def keys(self) -> KeysView[Any]:
        return self._proxy.keys()

    def values(self) -> ValuesView[Any]:
        return self._proxy.values()

    def __setattr__(self, name: str, value: object) -> None:
        raise TypeError("FrozenDict is read-only")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __getitem__(self, key: Any) -> Any:
        return self._proxy[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._proxy)

    def __len__(self) -> int:
        return len(self._proxy)

    def __contains__(self, key: object) -> bool:
        return key in self._proxy

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        return f"FrozenDict({dict(self._proxy)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_dict, (dict(self._proxy), self.duplicates))


class FrozenList(Sequence[Any]):
    """A read-only JSON array; equal to a list or tuple with equal items."""

    __slots__ = ("_items",)
    _items: tuple[Any, ...]

    def __init__(self) -> None:
        object.__setattr__(self, "_items", ())

    def __setattr__(self, name: str, value: object) -> None:
        raise TypeError("FrozenList is read-only")

    __delattr__ = __setattr__  # type: ignore[assignment]

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Any, ...]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return self._items[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenList):
            return bool(self._items == other._items)
        if isinstance(other, (list, tuple)):
            return bool(self._items == tuple(other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        return f"FrozenList({list(self._items)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_list, (self._items,))


def _rebuild_dict(data: dict[Any, Any], duplicates: tuple[tuple[str, Any], ...]) -> FrozenDict:
    frozen = FrozenDict()
    frozen._set(MappingProxyType(data), duplicates)
    return frozen


def _rebuild_list(items: tuple[Any, ...]) -> FrozenList:
    frozen = FrozenList()
    object.__setattr__(frozen, "_items", items)
    return frozen


def is_array(value: object) -> TypeGuard[Sequence[Any]]:
    """A JSON array as checks see it: a list, a tuple or a ``FrozenList``."""
    # The exact types first: ``FrozenList`` is a ``Sequence``, so an
    # ``isinstance`` that fails on list and tuple (a string, None: most
    # questions of a schema's optional slots) asks the ABC machinery,
    # several times the cost of these two tests. Subclasses go on to it.
    kind = type(value)
    if kind is FrozenList or kind is list or kind is tuple:
        return True
    if kind in _ATOMS or kind is FrozenDict:
        return False
    return isinstance(value, (list, tuple, FrozenList))


def is_object(value: object) -> TypeGuard[Mapping[Any, Any]]:
    """``isinstance(value, Mapping)``, the exact types first (as ``is_array``):
    a schema's absent slot (None), a string or a list would otherwise ask
    the ABC machinery, and a ``FrozenDict`` does too."""
    kind = type(value)
    if kind is FrozenDict or kind is dict:
        return True
    if kind in _ATOMS or kind is FrozenList or kind is list:
        return False
    return isinstance(value, Mapping)


# Types that are never containers: the fast path of freeze and thaw.
_ATOMS = frozenset({str, int, float, bool, type(None)})


def _is_container(value: object) -> bool:
    kind = type(value)
    if kind is dict or kind is list:
        return True
    if kind in _ATOMS:
        return False
    return isinstance(value, (Mapping, list, tuple)) and not isinstance(
        value, (FrozenDict, FrozenList)
    )


def freeze(value: Any) -> Any:
    """A deep read-only copy of a JSON-like value; frozen parts are reused.

    Mappings become ``FrozenDict``, lists and tuples ``FrozenList``, sets
    ``frozenset``; strings, numbers and other objects are kept as they are.
    """
    if not _is_container(value):
        return _scalar(value)
    memo: dict[int, Any] = {}
    root = _shell(value, memo)
    # (original container, its frozen shell): children are filled in after
    # the shell exists, so a cycle resolves to the shell itself.
    pending: list[tuple[Any, Any]] = [(value, root)]
    while pending:
        original, shell = pending.pop()
        if isinstance(shell, FrozenDict):
            data = {key: _child(child, memo, pending) for key, child in original.items()}
            extra = getattr(original, "duplicates", ())
            dupes = tuple((key, _child(child, memo, pending)) for key, child in extra)
            shell._set(MappingProxyType(data), dupes)
        else:
            items = tuple(_child(child, memo, pending) for child in original)
            object.__setattr__(shell, "_items", items)
    return root


def _shell(value: Any, memo: dict[int, Any]) -> Any:
    # Allocated without __init__: ``freeze`` fills every field at once.
    kind = FrozenDict if isinstance(value, Mapping) else FrozenList
    shell: Any = object.__new__(kind)
    memo[id(value)] = shell
    return shell


def _scalar(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, bytearray):
        return bytes(value)
    return value


def _child(value: Any, memo: dict[int, Any], pending: list[tuple[Any, Any]]) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is not dict and kind is not list and not _is_container(value):
        return _scalar(value)
    known = memo.get(id(value))
    if known is not None:
        return known
    shell = _shell(value, memo)
    pending.append((value, shell))
    return shell


def freeze_optional(value: Any) -> Any:
    """``freeze`` for an optional field: ``None`` stays ``None``."""
    return None if value is None else freeze(value)


def thaw(value: Any) -> Any:
    """A plain ``dict``/``list`` copy of a frozen value (for ``json.dumps``).

    Iterative; a shared part is copied once and shared again. Duplicate-key
    values are not part of the copy (a plain dict has one value per key).
    """
    if not isinstance(value, (FrozenDict, FrozenList)):
        return value
    memo: dict[int, Any] = {}
    root: Any = {} if isinstance(value, FrozenDict) else []
    memo[id(value)] = root
    pending: list[tuple[Any, Any]] = [(value, root)]
    while pending:
        frozen, plain = pending.pop()
        pairs = frozen.items() if isinstance(plain, dict) else enumerate(frozen)
        for key, child in pairs:
            copy = _thawed_child(child, memo, pending)
            if isinstance(plain, dict):
                plain[key] = copy
            else:
                plain.append(copy)
    return root


def _thawed_child(value: Any, memo: dict[int, Any], pending: list[tuple[Any, Any]]) -> Any:
    if not isinstance(value, (FrozenDict, FrozenList)):
        return value
    known = memo.get(id(value))
    if known is not None:
        return known
    copy: Any = {} if isinstance(value, FrozenDict) else []
    memo[id(value)] = copy
    pending.append((value, copy))
    return copy
