"""Canonical JSON of a tool definition, for content fingerprints.

A definition is first copied into plain JSON (``dict``, ``list``, ``str``,
finite numbers, ``bool``, ``None``) by an iterative, bounded walk that
names the field of anything that is not JSON; the copy is then serialised
by RFC 8785 (JSON Canonicalization Scheme, the ``rfc8785`` package), so key
order and JSON formatting never change the bytes, while every character of
every string does.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from typing import Any

import rfc8785

from ._evidence import safe_evidence, scrub_secrets
from ._frozen import FrozenList
from ._model import ScanError, Tool
from ._walk import _child_path

__all__ = [
    "FINGERPRINT_FIELDS",
    "MAX_DEPTH",
    "MAX_NODES",
    "canonical_bytes",
    "definition_fields",
    "digest",
    "plain_json",
    "shown_path",
]

#: The MCP fields a content fingerprint covers, in a fixed order.
#: ``annotations`` are left out on purpose: servers regenerate them on
#: reconnect, and a fingerprint that churned with them would spam re-approvals.
FINGERPRINT_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema")

#: Nesting a fingerprinted value may have. Real schemas stay under 15
#: levels; the bound keeps RFC 8785's recursive serialiser far from Python's
#: recursion limit.
MAX_DEPTH = 128
#: Objects, arrays and scalars one value may hold. A Python object graph
#: that shares sub-objects (a DAG) would otherwise expand exponentially.
MAX_NODES = 200_000

# RFC 8785 numbers are IEEE 754 doubles (I-JSON); larger integers cannot be
# written exactly. They are canonicalised as the double they round to, which
# is what every JavaScript MCP client reads them as.
_SAFE_INT = 2**53 - 1

#: Prefix of every hashed material: bump it when the canonical form changes.
FORMAT_PREFIX = b"mcpscan-pin-v1\n"

_MAX_PATH_CHARS = 300


def shown_path(path: str) -> str:
    """A JSON path as it may appear in an error message: escaped and capped.

    Paths are built from attacker-chosen property names; an error message
    must not carry control or bidi characters into a terminal or log.
    """
    return safe_evidence(path, _MAX_PATH_CHARS)


def _plain_scalar(value: object, path: str) -> object:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ScanError(
                    shown_path(path), "contains a lone surrogate, which is not valid Unicode"
                ) from None
        return value
    if isinstance(value, int):
        if -_SAFE_INT <= value <= _SAFE_INT:
            return value
        try:
            return float(value)
        except OverflowError:
            raise ScanError(shown_path(path), "integer too large for a JSON number") from None
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ScanError(shown_path(path), "NaN and infinities are not JSON numbers")
        return value
    raise ScanError(shown_path(path), f"{type(value).__name__} is not a JSON value")


def plain_json(value: object, path: str) -> Any:
    """A plain-JSON copy of ``value``; ``ScanError`` naming the bad element.

    Iterative, so depth is checked before anything recurses; ``path`` is
    the JSON path of ``value`` (``inputSchema``) used in error messages.
    """
    holder: list[Any] = [None]
    # (value, path, depth, container to fill, key or index in it)
    stack: list[tuple[object, str, int, Any, Any]] = [(value, path, 0, holder, 0)]
    nodes = 0
    while stack:
        item, where, depth, parent, slot = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ScanError(shown_path(path), f"more than {MAX_NODES} values")
        if not isinstance(item, (Mapping, list, tuple, FrozenList)):
            parent[slot] = _plain_scalar(item, where)
            continue
        if depth >= MAX_DEPTH:
            raise ScanError(shown_path(where), f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, Mapping):
            copy: Any = {}
            for key, child in item.items():
                if not isinstance(key, str):
                    raise ScanError(
                        shown_path(where),
                        f"an object key of type {type(key).__name__} is not a string",
                    )
                # A key is redacted before it is escaped into the path: escaping
                # (a quote becomes \\") would hide an assignment's shape.
                stack.append((child, _child_path(where, scrub_secrets(key)), depth + 1, copy, key))
        else:
            copy = [None] * len(item)
            for index, child in enumerate(item):
                stack.append((child, f"{where}[{index}]", depth + 1, copy, index))
        parent[slot] = copy
    return holder[0]


def definition_fields(tool: Tool) -> dict[str, Any]:
    """The fingerprinted fields of ``tool`` that are present, as plain JSON."""
    values = {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": tool.input_schema,
        "outputSchema": tool.output_schema,
    }
    return {field: plain_json(value, field) for field, value in values.items() if value is not None}


def canonical_bytes(value: object) -> bytes:
    """RFC 8785 bytes of a value already made plain by ``plain_json``."""
    try:
        return rfc8785.dumps(value)  # type: ignore[arg-type]
    except RecursionError:
        # plain_json bounds the depth; this only happens when the caller's
        # own stack is already nearly exhausted.
        raise ScanError("tool", "nested too deeply to canonicalise") from None
    except rfc8785.CanonicalizationError as error:  # pragma: no cover - plain_json rejects first
        raise ScanError("tool", str(error)) from None


def digest(label: bytes, value: object) -> str:
    """``sha256:<hex>`` of the format prefix, a label line and the canonical value."""
    material = hashlib.sha256(FORMAT_PREFIX)
    material.update(label + b"\n")
    material.update(canonical_bytes(value))
    return "sha256:" + material.hexdigest()
