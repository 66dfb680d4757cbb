"""Every string of a tool, with its JSON path, walked once and bounded.

The walk is iterative (a schema nested 100,000 levels deep cannot raise
RecursionError), visits each container once (a Python object graph with a
cycle terminates), sorts object keys (the same tool always gives the same
order) and stops at the limits of ``Config``, recording every cut.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import attrs

from ._config import Config
from ._evidence import widen_outside_secrets
from ._frozen import is_array, is_object
from ._model import CappedEntry, ScanError, Tool
from ._normalize import Anchors, normalize, normalize_anchored
from ._secrets import SecretMatch, SecretScan, scan_secrets_counted

__all__ = ["LocatedString", "Quote", "ToolView", "innermost_property", "value_owner", "view_tool"]

#: The normalized form of a string is at most this many times its raw length
#: (plus ``_NORMALIZED_SLACK``): NFKC turns U+FDFA into 18 characters, and a
#: million of them must not cost 18 million characters of work in every
#: wording check. Real text barely grows (ligatures, "½"); a cut is recorded.
_MAX_GROWTH = 2
_NORMALIZED_SLACK = 256

# Keys written as `.key` in a JSON path; any other key is written `["key"]`.
_IDENTIFIER = re.compile(r"[A-Za-z0-9_$-]+")


#: Characters of a quote: the match with context on both sides.
QUOTE_CHARS = 120
#: Context kept before a match when the quote has room to spare.
_QUOTE_BEFORE = 30
_RAW_TOKEN = re.compile(r"\S+")


class Quote(NamedTuple):
    """What a check shows of a match: the raw text around it and its span.

    ``text`` is cut from ``LocatedString.raw`` (the orchestrator makes it
    render-safe and redacted); ``span`` is ``(start, end)`` of the match in
    ``raw``, or ``None`` when the match could not be placed.
    """

    text: str
    span: tuple[int, int] | None


class _Token(NamedTuple):
    """One normalized word and the raw word it came from."""

    start: int  # offset of the normalized word in the normalized text
    word: str
    raw_start: int
    raw_end: int


class _Alignment(NamedTuple):
    """The words of a normalized string paired with their raw words: one
    entry per normalized word, in parallel lists (a megabyte of text has
    some 150,000 words; one object each cost more than the alignment)."""

    starts: list[int]  # offset of the word in the normalized text
    words: list[str]
    raw_starts: list[int]  # the raw word it came from
    raw_ends: list[int]

    def token(self, index: int) -> _Token:
        return _Token(
            self.starts[index], self.words[index], self.raw_starts[index], self.raw_ends[index]
        )


def _align(raw: str, normalized: str) -> _Alignment | None:
    """Pair each word of ``normalized`` with the raw word it came from.

    Normalization works within whitespace-separated words (invisible
    characters, NFKC, case folding, look-alikes, contractions, stemming)
    and then joins the words with single spaces; normalizing raw word by
    raw word therefore gives the same words in the same order. Where it
    does not (an input whose normalization crosses a space), ``None``.
    """
    aligned = _Alignment([], [], [], [])
    # Bound once: this loop runs for each of some 150,000 words of a megabyte.
    add_start, add_word = aligned.starts.append, aligned.words.append
    add_raw_start, add_raw_end = aligned.raw_starts.append, aligned.raw_ends.append
    offset = 0
    # Real text repeats its words: each distinct raw word is normalized once.
    words_of: dict[str, list[str]] = {}
    for match in _RAW_TOKEN.finditer(raw):
        raw_word = match.group()
        words = words_of.get(raw_word)
        if words is None:
            words = words_of[raw_word] = normalize(raw_word).split()
        raw_start, raw_end = match.span()
        for word in words:
            add_start(offset)
            add_word(word)
            add_raw_start(raw_start)
            add_raw_end(raw_end)
            offset += len(word) + 1
    if not aligned.words or " ".join(aligned.words) != normalized:
        return None
    return aligned


def _same_head(raw: str, token: _Token, size: int) -> bool:
    return raw[token.raw_start : token.raw_start + size].lower() == token.word[:size]


def _same_tail(raw: str, token: _Token, size: int) -> bool:
    if size == 0:
        return True
    return raw[token.raw_end - size : token.raw_end].lower() == token.word[-size:]


def _raw_offset(raw: str, token: _Token, inside: int, *, is_end: bool) -> int:
    """The raw offset of ``inside`` characters into a normalized word.

    The word's edges map to the raw word's edges; inside it, the offset is
    exact when the raw word reads the same up to there (ASCII, only case
    changed) or from there to its end (a stemmed middle, as in
    "example-attacker.net,"); otherwise the whole raw word is taken.
    """
    if inside <= 0:
        return token.raw_start
    if inside >= len(token.word):
        return token.raw_end
    if _same_head(raw, token, inside):
        return token.raw_start + inside
    tail = len(token.word) - inside
    if _same_tail(raw, token, tail):
        return token.raw_end - tail
    return token.raw_end if is_end else token.raw_start


def _token_at(aligned: _Alignment, offset: int) -> _Token:
    """The word that holds normalized ``offset`` (or the next one)."""
    index = bisect.bisect_right(aligned.starts, offset) - 1
    if index >= 0 and offset >= aligned.starts[index] + len(aligned.words[index]):
        index += 1  # the offset is the space after this word
    return aligned.token(max(0, min(index, len(aligned.words) - 1)))


def raw_span(raw: str, normalized: str, start: int, end: int) -> tuple[int, int] | None:
    """The span in ``raw`` of ``normalized[start:end]``; ``None`` if unplaceable."""
    return _aligned_span(raw, _align(raw, normalized), len(normalized), start, end)


def _aligned_span(
    raw: str, aligned: _Alignment | None, length: int, start: int, end: int
) -> tuple[int, int] | None:
    if aligned is None or not 0 <= start < end <= length:
        return None
    first = _token_at(aligned, start)
    last = _token_at(aligned, end - 1)
    raw_start = _raw_offset(raw, first, start - first.start, is_end=False)
    raw_end = _raw_offset(raw, last, end - last.start, is_end=True)
    if raw_end <= raw_start:
        return (first.raw_start, max(last.raw_end, first.raw_end))
    return (raw_start, raw_end)


def quote_raw(
    raw: str,
    start: int,
    end: int,
    width: int = QUOTE_CHARS,
    secret_spans: Sequence[tuple[int, int, str]] | None = None,
) -> str:
    """``raw[start:end]`` with context, at most ``width`` characters (plus
    the ``...`` marks), never cutting a secret in half (``secret_spans``:
    those of ``raw``, when already known)."""
    if end - start >= width:
        left, right = start, start + width
    else:
        spare = (width - (end - start)) // 2
        left = max(0, start - min(spare, _QUOTE_BEFORE))
        right = min(len(raw), end + spare)
    # A window that kept only part of a secret would show that part in a
    # shape redaction no longer recognises: widen to the whole secret.
    left, right = widen_outside_secrets(raw, left, right, secret_spans)
    prefix = "..." if left > 0 else ""
    suffix = "..." if right < len(raw) else ""
    return f"{prefix}{raw[left:right]}{suffix}"


@attrs.frozen
class LocatedString:
    """One scanned string of a tool.

    ``location`` is its JSON path (``inputSchema.properties.path.description``);
    ``field`` the top-level MCP field it belongs to (``name``, ``title``,
    ``description``, ``inputSchema``, ``outputSchema``, ``annotations``);
    ``is_key`` marks a property name rather than a value; ``raw`` is the
    text as given (cut at ``max_string_chars``) and ``normalized`` its
    normalized form; ``key`` is the object key this value sits under
    (``description``, ``default``, ``enum`` ...), or the property name itself
    for a key.
    """

    location: str
    field: str
    key: str
    raw: str
    normalized: str
    is_key: bool = False
    truncated: bool = False
    # Work that every quote of this string repeats and that depends on
    # ``raw`` and ``normalized`` alone, done on first use and kept: the
    # secrets in ``raw`` (so a quote never cuts one in half) and the
    # alignment of normalized words to raw words. On a megabyte of text
    # each pass costs a quarter of a second, and a scan quotes and guards
    # the same string several times. Not part of equality or repr.
    _secrets_found: SecretScan | None = attrs.field(default=None, init=False, eq=False, repr=False)
    _aligned: tuple[_Alignment | None] | None = attrs.field(
        default=None, init=False, eq=False, repr=False
    )
    #: Where ``raw`` and ``normalized`` line up (``normalize_anchored``):
    #: a quote aligns the words of one piece between two anchors.
    anchors: Anchors = attrs.field(default=(), eq=False, repr=False)
    _pieces_aligned: dict[tuple[int, int], _Alignment | None] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )

    def secrets(self, max_candidates: int | None = None) -> tuple[list[SecretMatch], bool]:
        """``scan_secrets(raw, max_candidates)``, answered by the first
        uncut scan of this string when the budget would not have cut it."""
        found = self._secrets_found
        if found is not None and found.within(max_candidates):
            return list(found.matches), False
        scanned, cut = scan_secrets_counted(self.raw, max_candidates)
        if not cut:
            object.__setattr__(self, "_secrets_found", scanned)
        return list(scanned.matches), cut

    def secret_spans(self) -> list[tuple[int, int, str]]:
        """``(start, end, kind)`` of every secret-shaped value in ``raw``."""
        return [(m.start, m.end, m.kind) for m in self.secrets()[0]]

    def span_of(self, start: int, end: int) -> tuple[int, int] | None:
        """The span in ``raw`` of ``normalized[start:end]`` (``None``: unplaceable)."""
        if self.raw.isascii() and self.raw.lower() == self.normalized:
            # Identity up to case: offsets carry over unchanged.
            return (start, end) if 0 <= start < end <= len(self.raw) else None
        if self.anchors:
            span = self._span_in_pieces(start, end)
            if span is not None:
                return span
        aligned = self._aligned
        if aligned is None:
            aligned = (_align(self.raw, self.normalized),)
            object.__setattr__(self, "_aligned", aligned)
        return _aligned_span(self.raw, aligned[0], len(self.normalized), start, end)

    def _span_in_pieces(self, start: int, end: int) -> tuple[int, int] | None:
        """``span_of`` from the words of the pieces around the match alone
        (``None`` when they do not line up: the caller aligns everything)."""
        if not 0 <= start < end <= len(self.normalized):
            return None
        marks = [normalized for _raw, normalized in self.anchors]
        first = bisect.bisect_right(marks, start) - 1
        last = bisect.bisect_right(marks, end - 1)
        raw_lo, norm_lo = self.anchors[first] if first >= 0 else (0, 0)
        if last < len(self.anchors):
            raw_hi, norm_hi = self.anchors[last]
            norm_hi -= 1  # the space that joins the pieces
        else:
            raw_hi, norm_hi = len(self.raw), len(self.normalized)
        key = (first, last)
        if key not in self._pieces_aligned:
            self._pieces_aligned[key] = _align(
                self.raw[raw_lo:raw_hi], self.normalized[norm_lo:norm_hi]
            )
        aligned = self._pieces_aligned[key]
        span = _aligned_span(
            self.raw[raw_lo:raw_hi], aligned, norm_hi - norm_lo, start - norm_lo, end - norm_lo
        )
        return None if span is None else (span[0] + raw_lo, span[1] + raw_lo)

    def quote(self, start: int, end: int, width: int = QUOTE_CHARS) -> Quote:
        """What a check shows of ``normalized[start:end]``: the original text
        around it (never the normalized form, whose stemmed and lower-cased
        words are not what the tool says) and its span in ``raw``."""
        span = self.span_of(start, end)
        if span is None:
            # Unplaceable: the whole raw string, cut, rather than a wrong piece.
            shown = quote_raw(self.raw, 0, min(len(self.raw), width), width, self.secret_spans())
            return Quote(shown, None)
        return Quote(quote_raw(self.raw, *span, width, self.secret_spans()), span)

    def quote_raw(self, start: int, end: int, width: int = QUOTE_CHARS) -> Quote:
        """Like ``quote`` for a match found in ``raw`` itself."""
        shown = quote_raw(self.raw, start, end, width, self.secret_spans())
        return Quote(shown, (start, end))


@attrs.frozen
class ToolView:
    """The walked form of a tool that every check of one scan shares."""

    tool: Tool
    strings: tuple[LocatedString, ...]
    capped: tuple[CappedEntry, ...]
    fingerprint: str
    #: JSON paths of object keys the JSON text gave more than once (sorted).
    #: Every value of such a key is walked, at that same path.
    duplicate_keys: tuple[str, ...] = ()
    #: Every object key walked (property names included): keys that are not
    #: scanned as text still reach output in JSON paths, so redaction must
    #: know the secrets they hold.
    keys: tuple[str, ...] = ()

    def in_field(self, *fields: str) -> Iterator[LocatedString]:
        """The strings of the given top-level fields, in walk order."""
        return (s for s in self.strings if s.field in fields)


def _child_path(parent: str, key: str) -> str:
    if _IDENTIFIER.fullmatch(key):
        return f"{parent}.{key}" if parent else key
    escaped = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'{parent}["{escaped}"]'


# One step into a schema's ``properties`` as ``_child_path`` writes it:
# ``.properties.verify_ssl`` or ``.properties["a.b"]`` (quotes escaped).
PROPERTY_STEP = re.compile(r'(?:^|\.)properties(?:\.([A-Za-z0-9_$-]+)|\["((?:[^"\\]|\\.)*)"\])')
# The last step of a path that ends in one: a property's own path.
LAST_PROPERTY_STEP = re.compile(PROPERTY_STEP.pattern + "$")


def step_name(step: re.Match[str]) -> str:
    """The name of the property a ``PROPERTY_STEP`` match steps into."""
    return step.group(1) or step.group(2)


# A value slot of a schema property: "<property>.default",
# "<property>.examples[2]".
_VALUE_STEP = re.compile(r"\.(?:default|const|enum|example|examples)(?:\[\d+\])*$")


def value_owner(location: str) -> str | None:
    """The path of the schema property whose value slot ``location`` is
    (``inputSchema.properties.key.default`` -> ``inputSchema.properties.key``),
    or None when ``location`` is no value slot."""
    owner = _VALUE_STEP.sub("", location)
    return None if owner == location else owner


def innermost_property(location: str) -> str | None:
    """The innermost schema property a located string belongs to, as its
    path writes it (``inputSchema.properties.verify_ssl.description`` ->
    ``verify_ssl``), or None outside any property."""
    if "properties" not in location:
        return None
    last: re.Match[str] | None = None
    for last in PROPERTY_STEP.finditer(location):  # noqa: B007 - keep the innermost
        pass
    return None if last is None else step_name(last)


# A walked container: every kind of JSON object or array a tool can hold.
_SCALARS = frozenset({int, float, bool, type(None)})
# Pushed after a container's children: the container leaves the current path.
_LEAVE = object()


def _scalar_token(value: object, path: str) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        # Python refuses to print ints of more than 4,300 digits; a hash of
        # the digits' length and low bits is enough for a fingerprint.
        if value.bit_length() > 4096:
            return f"int:{value.bit_length()}:{value & 0xFFFFFFFF}"
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            # Not JSON: clients disagree on what they read (JavaScript's
            # JSON.parse refuses it), and pins refuse it with this message.
            raise ScanError(path, "NaN and infinities are not JSON numbers")
        return repr(value)
    return f"<{type(value).__name__}>"


class _Walker:
    """Collects located strings within the limits; one instance per tool."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.strings: list[LocatedString] = []
        self.capped: list[CappedEntry] = []
        # What the content fingerprint hashes: every string with its path,
        # every scalar with its path, hashed once at the end of the walk.
        self.material: list[str] = []
        self.total_chars = 0
        self.nodes = 0
        # Containers on the path from the root to the current one: meeting
        # one again is a cycle. A container shared by two parents (a DAG)
        # is walked again at its second place, bounded by ``max_nodes``.
        self.on_path: set[int] = set()
        self.duplicate_keys: set[str] = set()
        self.keys: list[str] = []
        self._string_cap_recorded = False
        self._total_cap_recorded = False

    def fingerprint(self) -> str:
        data = "\x01".join(self.material).encode("utf-8", "surrogatepass")
        return "sha256:" + hashlib.sha256(data).hexdigest()

    def cap(self, limit: str, location: str, skipped: str) -> None:
        self.capped.append(CappedEntry(limit=limit, location=location, skipped=skipped))

    def add_string(self, location: str, field: str, key: str, text: str, *, is_key: bool) -> None:
        self.material.append(f"{location}\x00{int(is_key)}\x00{text}")
        if len(self.strings) >= self.config.max_strings:
            if not self._string_cap_recorded:
                self._string_cap_recorded = True
                self.cap("max_strings", location, "this and every later string")
            return
        remaining = self.config.max_total_chars - self.total_chars
        if remaining <= 0:
            if not self._total_cap_recorded:
                self._total_cap_recorded = True
                self.cap("max_total_chars", location, "this and every later string")
            return
        limit = min(self.config.max_string_chars, remaining)
        truncated = len(text) > limit
        if truncated:
            which = (
                "max_string_chars" if limit == self.config.max_string_chars else "max_total_chars"
            )
            self.cap(which, location, f"{len(text) - limit} of {len(text)} characters")
            text = text[:limit]
        self.total_chars += len(text)
        limit = _MAX_GROWTH * len(text) + _NORMALIZED_SLACK
        normalized, cut, anchors = normalize_anchored(text, limit)
        if cut:
            self.cap(
                "max_normalized_chars",
                location,
                f"the normalized text after {limit} characters (it expands under NFKC)",
            )
        self.strings.append(
            LocatedString(
                location=location,
                field=field,
                key=key,
                raw=text,
                normalized=normalized,
                is_key=is_key,
                truncated=truncated,
                anchors=anchors,
            )
        )

    def walk_value(self, root: object, location: str, field: str) -> None:
        """Depth-first, iterative, keys sorted; records depth, node and cycle cuts."""
        stack: list[tuple[object, str, str, int]] = [(root, location, field, 0)]
        while stack:
            value, path, key, depth = stack.pop()
            if value is _LEAVE:
                self.on_path.discard(depth)
                continue
            if isinstance(value, str):
                self.add_string(path, field, key, value, is_key=False)
                continue
            # ``is_object or is_array``: ``isinstance(value, _CONTAINERS)``
            # without the ABC machinery for the exact types.
            if type(value) in _SCALARS or not (is_object(value) or is_array(value)):
                self.material.append(f"{path}\x00{_scalar_token(value, path)}")
                continue
            if depth >= self.config.max_depth:
                self.cap("max_depth", path, "everything nested below this point")
                continue
            if id(value) in self.on_path:
                self.cap("cycle", path, "a container already walked (a reference cycle)")
                continue
            self.nodes += 1
            if self.nodes > self.config.max_nodes:
                self.cap("max_nodes", path, "this and every later object or array")
                return
            self.on_path.add(id(value))
            # The marker carries the id in the depth slot; it is popped after
            # every child, when the container leaves the path.
            stack.append((_LEAVE, path, key, id(value)))
            children = list(self._children(value, path, depth))
            stack.extend(reversed(children))

    def _children(
        self, value: Mapping[Any, Any] | Sequence[Any], path: str, depth: int
    ) -> Iterator[tuple[object, str, str, int]]:
        if is_object(value):
            items = sorted(value.items(), key=lambda item: str(item[0]))
            for raw_key, child in items:
                name = raw_key if isinstance(raw_key, str) else str(raw_key)
                self.keys.append(name)
                child_path = _child_path(path, name)
                if path.endswith(".properties") or path.endswith("patternProperties"):
                    # A property name is text the model reads too: an attacker
                    # can name a parameter "ignore_previous_instructions".
                    self.add_string(child_path, self._field(path), name, name, is_key=True)
                yield child, child_path, name, depth + 1
            # A key the JSON text gave twice: clients disagree on which value
            # counts (first or last), so every value is scanned, at the path
            # of the key, and the duplicate itself is recorded.
            for name, child in getattr(value, "duplicates", ()):
                child_path = _child_path(path, name)
                self.duplicate_keys.add(child_path)
                yield child, child_path, name, depth + 1
        else:
            key_of_parent = path.rsplit(".", 1)[-1] if "." in path else path
            for index, child in enumerate(value):
                yield child, f"{path}[{index}]", key_of_parent, depth + 1

    @staticmethod
    def _field(path: str) -> str:
        return path.split(".", 1)[0].split("[", 1)[0]


def view_fields(
    tool: Tool,
    fields: Sequence[tuple[str, object]],
    config: Config,
    duplicate_keys: Sequence[str] = (),
) -> ToolView:
    """Walk named top-level values (strings, objects, arrays) in order.

    Each string's ``field`` is the name it was walked under; ``None`` values
    are skipped. ``tool`` is the tool the strings are attributed to;
    ``duplicate_keys`` the top-level keys its JSON gave more than once.
    """
    walker = _Walker(config)
    walker.duplicate_keys.update(duplicate_keys)
    for field, value in fields:
        if value is not None:
            walker.walk_value(value, field, field)
    return ToolView(
        tool=tool,
        strings=tuple(walker.strings),
        capped=tuple(walker.capped),
        fingerprint=walker.fingerprint(),
        duplicate_keys=tuple(sorted(walker.duplicate_keys)),
        keys=tuple(walker.keys),
    )


def view_tool(tool: Tool, config: Config) -> ToolView:
    """Walk a tool's scan surface once: name, title, description, both
    schemas (every string value and every property name) and the string
    values of annotations; a resource's ``uri``; then the other top-level keys (``Tool.extra``),
    each at its own key; then every other value of a top-level key the
    JSON text gave twice, at that key."""
    fields: list[tuple[str, object]] = [
        ("name", tool.name),
        ("title", tool.title),
        ("description", tool.description),
        ("inputSchema", tool.input_schema),
        ("outputSchema", tool.output_schema),
        ("annotations", tool.annotations),
        # A resource's URI (or URI template) is shown beside its name.
        ("uri", tool.uri),
    ]
    fields.extend(tool.extra)
    fields.extend(tool.duplicates)
    duplicated = [_child_path("", key) for key, _ in tool.duplicates]
    return view_fields(tool, fields, config, duplicated)
