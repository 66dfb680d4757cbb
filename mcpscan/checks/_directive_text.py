"""Building blocks for the imperative-directive phrase tables.

Every word the tables match is written in plain language and passed
through ``mcpscan.normalize`` here, at import time, so the tables and the
scanned text are in the same form (case folded, contractions expanded,
English words lightly stemmed: "instructions" -> "instruction"). Nobody
writes a stemmed form by hand.

``alt`` turns a list of phrases into one regex alternation; ``gap`` and
``cjk_gap`` are the only "anything" the patterns allow, and both are
bounded: a few words, never a sentence boundary, never ``.*``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import regex

from .._lazy import LazyPattern
from .._normalize import normalize

__all__ = [
    "B",
    "E",
    "LazyPattern",
    "alt",
    "cjk_gap",
    "compile_pattern",
    "forms",
    "gap",
    "normalize_template",
]

#: Word boundaries that also work when a phrase starts or ends with a
#: non-word character (".env", "<|im_start|>"): nothing word-like may touch it.
B = r"(?<!\w)"
E = r"(?!\w)"


def forms(*phrases: str) -> tuple[str, ...]:
    """The normalized forms of ``phrases``, deduplicated, longest first."""
    unique = {normalize(phrase) for phrase in phrases}
    unique.discard("")
    return tuple(sorted(unique, key=lambda form: (-len(form), form)))


def alt(*phrases: str) -> str:
    """A non-capturing regex alternation of the normalized ``phrases``.

    The alternation is written as a trie ("prev(?:ious(?: instruction)?)?"
    rather than "previous instruction|previous|prev"): the ``regex`` module
    tries a flat alternation one branch at a time at every position, so a
    list of a hundred phrases costs a hundred comparisons per character; a
    trie costs one per character of the longest common prefix. Greedy
    optional tails keep the longest phrase first, as in a longest-first
    alternation.
    """
    trie: dict[str, dict[str, Any]] = {}
    for form in forms(*phrases):
        node = trie
        for char in form:
            node = node.setdefault(char, {})
        node[_END] = {}
    return f"{_DONE}(?:{_emit(trie)}){_DONE_END}"


_END = ""
# Regex comments (no-ops for the engine) around text that is already in
# normalized form: ``normalize_template`` copies it as it is. A trie splits
# words into fragments ("выполняй(?:те)?"), and normalizing a fragment on
# its own would fold it differently from the whole word.
_DONE = "(?#n)"
_DONE_END = "(?#/n)"


def _emit(node: dict[str, dict[str, Any]]) -> str:
    branches = [
        regex.escape(char) + _emit(child) for char, child in sorted(node.items()) if char != _END
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if _END in node else body


def gap(words: int) -> str:
    """Up to ``words`` whole words (each followed by one space) that do not
    end a sentence: "do not, under any circumstances, tell the user"."""
    # Each word is atomic: once a word is taken, the engine never retries
    # splitting it, so a gap costs at most ``words`` steps to give back.
    return rf"(?:(?>\S{{0,40}}[^\s.!?;。！？] )){{0,{words}}}"


def cjk_gap(chars: int) -> str:
    """Up to ``chars`` characters inside one sentence of unspaced text."""
    return rf"[^。！？.!?;]{{0,{chars}}}?"


# Regex syntax that must be copied as it is: an escape, a slot placeholder,
# a group opener ("(?:", "(?P<verb>", "(?<!"), a counted repeat.
_SYNTAX = regex.compile(
    r"\\.|%\(\w+\)s|\(\?(?:P<\w+>|<[=!]|[:=!>|]|[a-zA-Z]+\)|[a-zA-Z-]+:)|\{\d*,?\d*\}",
    regex.DOTALL,
)
_WORD_RUN = regex.compile(r"\w+")


def _fold_char(char: str) -> str:
    return unicodedata.normalize("NFKC", char).casefold()


def _normalize_class(template: str, start: int) -> tuple[str, int]:
    """Copy the character class at ``start``; its literal characters are
    NFKC-folded like the text ("，" becomes ","), its escapes kept."""
    out = ["["]
    index = start + 1
    if template.startswith("^", index):
        out.append("^")
        index += 1
    if template.startswith("]", index):
        out.append("]")
        index += 1
    while index < len(template) and template[index] != "]":
        if template[index] == "\\":
            out.append(template[index : index + 2])
            index += 2
            continue
        out.append(_fold_char(template[index]))
        index += 1
    out.append("]")
    return "".join(out), index + 1


def normalize_template(template: str) -> str:
    """Pass every literal word of a regex template through ``normalize``.

    Stemming changes words ("using" becomes "us", "antes" becomes "ant"), so
    a literal word in a pattern must be normalized the way the text is.
    Regex syntax (escapes, groups, classes, repeats, ``%(slot)s``) is kept;
    a run of word characters is normalized as one token, the way the
    normalizer sees "fim_middle" or "不要".
    """
    out: list[str] = []
    words: dict[str, str] = {}
    index = 0
    while index < len(template):
        if template.startswith(_DONE, index):
            close = template.index(_DONE_END, index) + len(_DONE_END)
            out.append(template[index:close])
            index = close
            continue
        syntax = _SYNTAX.match(template, index)
        if syntax is not None:
            out.append(syntax.group())
            index = syntax.end()
            continue
        if template[index] == "[":
            text, index = _normalize_class(template, index)
            out.append(text)
            continue
        word = _WORD_RUN.match(template, index)
        if word is not None:
            token = word.group()
            if token not in words:
                words[token] = regex.escape(normalize(token), literal_spaces=True)
            out.append(words[token])
            index = word.end()
            continue
        out.append(_fold_char(template[index]))
        index += 1
    return "".join(out)


def compile_pattern(template: str, **slots: str) -> LazyPattern:
    """Normalize the template's words, fill ``%(slot)s`` placeholders, and
    return the pattern, compiled on first use.

    The ``regex`` module gives Unicode word boundaries and the bounded
    variable-length lookbehinds the position rules use.
    """
    # Slots are normalized too: a slot may carry a hand-written fragment
    # ("antes de usar"), and normalizing an ``alt`` twice changes nothing.
    return LazyPattern(normalize_template(template % slots))
