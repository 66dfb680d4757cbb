"""Where each string of a JSON text sits, for SARIF regions.

A Signal names a JSON path in its tool (``inputSchema.properties.x.description``)
and a span of characters in the decoded string there. A code scanning
service shows a result at a line and column of the file, so the CLI maps
the two back onto the text it read: a small scan of the text records the
opening quote of every string (value and key) by its JSON path, and a walk
of one string literal turns decoded offsets into file offsets across its
escapes (``\\n``, ``\\u00e9``, ``\\"``, a surrogate pair ``\\ud83d\\ude00``).

Nothing here guesses: a path, span or text that does not line up gives no
region rather than a wrong one. This runs only when SARIF is written for a
file; ``scan()`` never reads positions.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping, Sequence

import attrs

from ._evidence import escape_unsafe
from ._input import loads, read_document
from ._walk import _child_path as child_path

__all__ = ["Region", "SourceMap"]

# One JSON token: a string literal (the unrolled form stays linear on a
# megabyte-long string), a structural character, or a bare literal (number,
# true, false, null).
_TOKEN = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")|([{}\[\]:,])|([^ \t\r\n{}\[\]:,"]+)', re.DOTALL)
# The whitespace between tokens, skipped by its own pattern: inside the
# token pattern, a search over a long run of spaces was quadratic (each
# start ate the rest of the run, then failed).
_SPACE = re.compile(r"[ \t\r\n]*")
# SARIF's default newlineSequences are CR LF and LF: a lone CR does not end a line.
_NEWLINE = re.compile("\n")
# The server id every report matches when the document has one list of tools.
_ANY_SERVER = "\x00"


@attrs.frozen
class Region:
    """A SARIF text region: 1-based lines, columns in code points, end exclusive."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int

    def to_sarif(self) -> dict[str, int]:
        return {
            "startLine": self.start_line,
            "startColumn": self.start_column,
            "endLine": self.end_line,
            "endColumn": self.end_column,
        }


class _Frame:
    """An open object or array during the scan of the text."""

    __slots__ = ("expect_key", "index", "is_object", "key", "path")

    def __init__(self, path: str, is_object: bool) -> None:
        self.path = path
        self.is_object = is_object
        self.expect_key = is_object
        self.key = ""
        self.index = 0

    def child(self) -> str:
        if self.is_object:
            return child_path(self.path, self.key)
        return f"{self.path}[{self.index}]"


def _string_offsets(text: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """The opening-quote offsets of every string value and every object key,
    by JSON path (a duplicated key gives its path more than once, in order)."""
    values: dict[str, list[int]] = {}
    keys: dict[str, list[int]] = {}
    stack: list[_Frame] = []
    position = 0
    while True:
        space = _SPACE.match(text, position)
        position = space.end() if space is not None else position
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            break
        position = match.end()
        literal, structural = match.group(1), match.group(2)
        frame = stack[-1] if stack else None
        if literal is not None:
            offset = match.start(1)
            if frame is not None and frame.expect_key:
                frame.key = json.loads(literal)
                keys.setdefault(frame.child(), []).append(offset)
            else:
                values.setdefault(frame.child() if frame else "", []).append(offset)
        elif structural in ("{", "["):
            stack.append(_Frame(frame.child() if frame else "", structural == "{"))
        elif structural in ("}", "]"):
            if stack:
                stack.pop()
        elif structural == "," and frame is not None:
            frame.expect_key = frame.is_object
            frame.index += 1
        elif structural == ":" and frame is not None:
            frame.expect_key = False
    return values, keys


def _decoded_to_file(text: str, quote: int, start: int, end: int) -> tuple[int, int] | None:
    """File offsets of decoded characters ``[start, end)`` of the string
    literal whose opening quote is at ``quote``; ``None`` past its end."""
    position = quote + 1
    decoded = 0
    found_start: int | None = None
    while True:
        if decoded == start:
            found_start = position
        if decoded == end:
            return None if found_start is None else (found_start, position)
        char = text[position] if position < len(text) else '"'
        if char == '"':
            return None
        position += _escape_width(text, position) if char == "\\" else 1
        decoded += 1


def _escape_width(text: str, position: int) -> int:
    """File characters of the escape at ``position`` that decode to one character."""
    if text[position + 1 : position + 2] != "u":
        return 2
    # Python's json (like JavaScript) joins a high and a low surrogate
    # escape into one character; a lone surrogate stays one character.
    high = int(text[position + 2 : position + 6], 16)
    if 0xD800 <= high <= 0xDBFF and text[position + 6 : position + 8] == "\\u":
        low = text[position + 8 : position + 12]
        if len(low) == 4 and 0xDC00 <= int(low, 16) <= 0xDFFF:
            return 12
    return 6


def _literal_end(text: str, quote: int) -> int:
    """The offset of the closing quote of the literal opened at ``quote``."""
    match = _TOKEN.match(text, quote)
    return quote if match is None or match.group(1) is None else match.end(1) - 1


def _joined(tool_path: str, location: str) -> str:
    if not tool_path or not location or location.startswith("["):
        return f"{tool_path}{location}"
    return f"{tool_path}.{location}"


def _list_path(server: str, where: str | None, snapshot: bool) -> str | None:
    """``Document.lists`` (``servers['a'].tools``) written as a walk path
    (``servers.a.tools``)."""
    if where is None or not snapshot:
        return where
    label = f"servers[{server!r}]"
    if not where.startswith(label):
        return None
    return child_path(child_path("", "servers"), server) + where[len(label) :]


class SourceMap:
    """Regions of a scanned JSON file for the signals of its reports.

    Reports are matched to the file's tools by server (for a snapshot) and
    name, the n-th report of a name to its n-th tool, as the CLI scans them
    in document order.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._values, self._keys = _string_offsets(text)
        self._line_starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
        self._tools = self._tool_paths(text)

    @staticmethod
    def _tool_paths(text: str) -> dict[tuple[str, str], list[str]]:
        try:
            document = read_document(loads(text), _ANY_SERVER)
        except ValueError:
            return {}
        snapshot = _ANY_SERVER not in document.servers
        paths: dict[tuple[str, str], list[str]] = {}
        for server, tools in document.servers.items():
            where = _list_path(server, document.lists.get(server), snapshot)
            for index, tool in enumerate(tools):
                name = tool.get("name") if isinstance(tool, Mapping) else None
                if isinstance(name, str):
                    # No list: the document is this one tool, at the root.
                    path = "" if where is None else f"{where}[{index}]"
                    paths.setdefault((server, name), []).append(path)
        return paths

    def tool_paths(self, tools: Sequence[tuple[str | None, str]]) -> list[str | None]:
        """The JSON path (``tools[2]``) of each ``(server, name)`` in order,
        the n-th of a name being its n-th tool; None where the file has none."""
        seen: dict[tuple[str, str], int] = {}
        out: list[str | None] = []
        for server, name in tools:
            key = (server or "", name)
            if key not in self._tools:
                key = (_ANY_SERVER, name)
            paths = self._tools.get(key, [])
            count = seen.get(key, 0)
            seen[key] = count + 1
            out.append(paths[count] if count < len(paths) else None)
        return out

    def region(
        self,
        tool_path: str,
        location: str,
        span: tuple[int, int] | None,
        evidence: str = "",
    ) -> Region | None:
        """Where ``span`` of the string at ``location`` sits in the file.

        A key given twice has several strings at one path: the first one
        whose text at ``span`` appears in ``evidence`` is chosen, else the
        first long enough. ``span`` None is the whole string.
        """
        path = _joined(tool_path, location)
        fitting: list[tuple[int, int]] = []
        for quote in (*self._values.get(path, ()), *self._keys.get(path, ())):
            offsets = self._offsets(quote, span)
            if offsets is None:
                continue
            if evidence and self._quoted_in(offsets, evidence):
                return self._region(*offsets)
            fitting.append(offsets)
        return self._region(*fitting[0]) if fitting else None

    def _offsets(self, quote: int, span: tuple[int, int] | None) -> tuple[int, int] | None:
        if span is None:
            return (quote + 1, _literal_end(self._text, quote))
        return _decoded_to_file(self._text, quote, *span)

    def _quoted_in(self, offsets: tuple[int, int], evidence: str) -> bool:
        piece = json.loads(f'"{self._text[offsets[0] : offsets[1]]}"')
        return bool(piece) and escape_unsafe(piece) in evidence

    def _region(self, start: int, end: int) -> Region | None:
        if end <= start:
            return None
        start_line, start_column = self._line_column(start)
        end_line, end_column = self._line_column(end)
        return Region(start_line, start_column, end_line, end_column)

    def _line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1
