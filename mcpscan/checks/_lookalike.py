"""Name and job comparison for the shadowing check's look-alike rule.

A server that wants another server's calls copies the victim's tool name
with a disguise a one-edit comparison does not see: an affix that makes it
look newer or official (``create_issue_v2``, ``send-email-official``,
``secure_read_file``), the other case style (``createIssue``), a plural
(``fetch_urls``), reordered words (``issue_create``), the victim server's
name as a prefix (``jira_create_issue``), and look-alike letters in any of
these. ``canonical_words`` undoes every one of them, so two names that read
as the same tool get the same ``canonical_key``.

Whether the two tools also do the same job is read from their
descriptions (``same_job``): an impersonator copies or paraphrases the
victim's description; a different service with a similar name describes
its own service (``search_docs`` vs ``search_logs``, GitHub's
``list_files`` vs Drive's ``listFiles``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

import regex

from .._normalize import confusable_skeleton
from ._tool_words import NAME_AFFIXES

__all__ = [
    "NameKeys",
    "adds_version",
    "canonical_key",
    "canonical_words",
    "content_words",
    "disguise",
    "family_words",
    "fold_arabic",
    "instance_numbering",
    "is_numbered",
    "job_statement",
    "leading_tag",
    "name_keys_of",
    "number_family",
    "same_job",
    "same_text",
    "server_words",
    "strip_server_prefix",
    "text_words",
    "version_free_words",
]

# camelCase and PascalCase boundaries: "createPullRequest", "HTMLParser".
_CAMEL_BOUNDARY = regex.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = regex.compile(r"[\W_]+")
# Version markers an affix adds: "v2", "2", "v10".
_VERSION = regex.compile(r"v?[0-9]+")
_WORD = regex.compile(r"\w+")
#: Words that describe no job (articles, prepositions, pronouns, filler).
_STOPWORDS = frozenset(
    str.split(
        """
    a an the of to in on for from with by at as and or but is are be been it its this that
    these those you your yours we our us they their them he she his her my me i can will
    may might must should would could also any all some each every via into onto over under
    about after before when where which who whom what how not no only just than then there
    here so such use used using uses tool tools returns return returned given one
    """
    )
)
#: Words of the smaller description that the larger one must also hold.
SAME_JOB_CONTAINMENT = 0.8
#: Shared content words needed at least: two one-word descriptions
#: ("Search.") tell nothing about the job.
MIN_SHARED_WORDS = 2
#: Server-id words that are not the server's name (``jira-mcp-server``).
_SERVER_FILLER = frozenset({"server", "mcp", "service", "srv", "app"})


# Arabic vowel marks (harakat, Quranic annotation marks) and the tatweel
# are optional in writing: "أَرسِل_رِسالة" is "أرسل_رسالة" with marks added,
# read alike and compare unequal as code points. Only the marks are
# folded: letters stay letters (the hamza forms of alef are spellings of
# their own, and two vendors may each use one).
_ARABIC_MARKS = regex.compile(r"[\u0640\u064b-\u065f\u0670\u06d6-\u06ed]")
_ARABIC = regex.compile(r"[\u0600-\u06ff]")


def fold_arabic(text: str) -> str:
    """``text`` without Arabic vowel marks and tatweel (unchanged when it
    has no Arabic letter)."""
    if _ARABIC.search(text) is None:
        return text
    return _ARABIC_MARKS.sub("", text)


def _fold(text: str) -> str:
    return text.lower() if text.isascii() else fold_arabic(confusable_skeleton(text))


def _split(name: str) -> list[str]:
    spaced = _CAMEL_BOUNDARY.sub("_", name)
    return [part for part in _SEPARATORS.split(_fold(spaced)) if part]


def singular(word: str) -> str:
    """A crude English singular: ``urls`` -> ``url``, ``policies`` -> ``policy``.

    Crude is enough: both names go through the same function, so
    ``address``/``addresses`` meet at ``addres``.
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def canonical_words(name: str) -> tuple[str, ...]:
    """The words of a name with every disguise undone, in order.

    Split on case and separators, folded (case, look-alike letters),
    version markers and affix words dropped, singular. A name made only of
    affixes (``pro``, ``v2``) keeps them: dropping all would make every
    such name equal.
    """
    return _name_keys([_word_form(word) for word in _split(name)]).canonical


def family_words(name: str) -> tuple[str, ...]:
    """The words of a name up to number and version (``get_v2_reports`` -> get, report).

    Two names with the same family words on two servers are an ordinary
    family (``read_file``/``read_files``, ``get_v1_report``/``get_v2_report``)
    unless their descriptions are the same too.
    """
    return _name_keys([_word_form(word) for word in _split(name)]).family


def number_family(mine: str, other: str) -> bool:
    """Do two names differ only in number or version (``read_file``/``read_files``,
    ``get_v1_report``/``get_v2_report``), not in case or separators?"""
    if family_words(mine) != family_words(other):
        return False
    return "".join(_split(mine)) != "".join(_split(other)) and not adds_version(mine, other)


def is_numbered(name: str) -> bool:
    """Does the name carry a number or version word (``lookup_7``, ``query_v2``)?"""
    return any(_VERSION.fullmatch(word) for word in _split(name))


class NameKeys(NamedTuple):
    """A name's ``canonical_words``, ``family_words`` and ``is_numbered``."""

    canonical: tuple[str, ...]
    family: tuple[str, ...]
    numbered: bool


#: One word of a name: (is a version marker, is an affix, its singular).
_WordForm = tuple[bool, bool, str]


def _word_form(word: str) -> _WordForm:
    return bool(_VERSION.fullmatch(word)), word in NAME_AFFIXES, singular(word)


def _name_keys(forms: Sequence[_WordForm]) -> NameKeys:
    words = [form for form in forms if not form[0]]
    # Affixes are dropped before the singular: "plus" is no plural of "plu".
    kept = [form for form in words if not form[1]]
    return NameKeys(
        canonical=tuple(form[2] for form in kept or words),
        family=tuple(form[2] for form in words),
        numbered=len(words) != len(forms),
    )


def name_keys_of(
    parts_of: Mapping[str, Sequence[str]],
) -> Iterator[tuple[str, NameKeys]]:
    """``NameKeys`` of many names, given each name's folded parts (``_split``).

    A registry's 50,000 names share a few thousand words: each distinct
    word's version test and singular are worked out once.
    """
    memo: dict[str, _WordForm] = {}
    for name, parts in parts_of.items():
        forms = []
        for word in parts:
            form = memo.get(word)
            if form is None:
                form = memo[word] = _word_form(word)
            forms.append(form)
        yield name, _name_keys(forms)


def instance_numbering(mine: str, other: str) -> bool:
    """Are two names instances numbered from one template (``lookup_0`` /
    ``lookup_239``, ``sensor_1`` / ``sensor_12``, ``get_v1_report`` /
    ``get_v2_report``)?

    A number on both sides is how a registry numbers copies of one tool,
    not an impersonation: neither claims to be the other's newer edition.
    A number added to a plain name (``query_v2`` beside ``query``) is no
    instance numbering: it claims to supersede the plain name.
    """
    return is_numbered(mine) and is_numbered(other) and family_words(mine) == family_words(other)


def adds_version(mine: str, other: str) -> bool:
    """``mine`` carries a version marker and ``other`` none (``query_v2``/``query``).

    Two versioned names (``get_v1_report``/``get_v2_report``) are a family;
    a version added to a plain name claims to be its newer edition.
    """

    return is_numbered(mine) and not is_numbered(other)


def disguise(mine: str, other: str) -> str:
    """How ``mine`` differs from ``other``, for the evidence ("adds 'v2'")."""
    my_words, other_words = _split(mine), _split(other)
    added = [
        word
        for word in my_words
        if word not in other_words and (word in NAME_AFFIXES or _VERSION.fullmatch(word))
    ]
    if added:
        return "adds " + ", ".join(repr(word) for word in dict.fromkeys(added))
    mine_family, other_family = family_words(mine), family_words(other)
    if mine_family != other_family and sorted(mine_family) == sorted(other_family):
        return "reorders the words"
    if "".join(my_words) == "".join(other_words):
        return "changes case or separators"
    return "changes singular and plural"


def canonical_key(words: Iterable[str]) -> tuple[str, ...]:
    """Order-free form of canonical words (``issue_create`` == ``create_issue``)."""
    return tuple(sorted(words))


def version_free_words(server: str) -> tuple[str, ...]:
    """A server id's words less its version numbers only (``reports-v2`` ->
    reports, ``fetch-mcp`` -> fetch, mcp): two ids equal here are versions of
    one service; ``fetch-mcp`` beside ``fetch`` is another id that borrows
    the name."""
    return tuple(word for word in _split(server) if not _VERSION.fullmatch(word))


def server_words(server: str) -> tuple[str, ...]:
    """The words a server id contributes as a name prefix (``jira-mcp`` -> jira)."""
    words = [w for w in _split(server) if w not in _SERVER_FILLER and not _VERSION.fullmatch(w)]
    return tuple(words)


def content_words(text: str) -> frozenset[str]:
    """The words of a description that say what the tool does, stemmed.

    An impersonator paraphrases the victim's description rather than
    copying it ("Creates an issue in a GitHub repo" for "Create a new issue
    in a GitHub repository"), so inflections and the usual abbreviations
    are folded before two descriptions are compared.
    """
    return frozenset(
        _stem(word)
        for word in _WORD.findall(_fold(text))
        if len(word) > 2 and word not in _STOPWORDS and not word.isdigit()
    )


def text_words(text: str) -> frozenset[str]:
    """The words of a text as written, folded (case, look-alike letters), not
    stemmed: for asking whether a text names a service (``1С`` is ``1c``)."""
    return frozenset(_SEPARATORS.split(_fold(text))) - {""}


#: Abbreviations tool descriptions use for the same word.
_ABBREVIATIONS = {
    "repo": "repository",
    "msg": "message",
    "doc": "document",
    "dir": "directory",
    "info": "information",
    "config": "configuration",
    "db": "database",
    "param": "parameter",
    "arg": "argument",
    "email": "mail",
    "full": "complete",
    "entire": "complete",
    "whole": "complete",
    "filesystem": "file",
}
_INFLECTIONS = ("ing", "ed")
#: Letters a stem keeps at least ("need" is not "ne" + "ed").
_MIN_STEM = 3


def _stem(word: str) -> str:
    """A crude stem (``creates``, ``created``, ``creating`` -> ``creat``).

    Both descriptions go through it, so it only has to be consistent.
    """
    word = singular(word)
    word = singular(_ABBREVIATIONS.get(word, word))
    for ending in _INFLECTIONS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            word = word[: -len(ending)]
            break
    return word[:-1] if word.endswith("e") and len(word) > _MIN_STEM + 1 else word


def same_job(mine: frozenset[str], other: frozenset[str]) -> bool:
    """Do two descriptions (as ``content_words``) describe the same job?

    Containment of the smaller word set in the larger: an impersonator's
    copy with extra words ("Send an email, securely and officially")
    contains all of the victim's words; two services with similar names
    each name their own service, so a fifth to a half of the words differ
    ("Search issues in GitHub" / "Search issues in GitLab": 2 of 3).
    """
    smaller = min(len(mine), len(other))
    shared = len(mine & other)
    return shared >= MIN_SHARED_WORDS and shared >= SAME_JOB_CONTAINMENT * smaller


# A catalogue tag before the job ("[plat-deploy v2 — GA]", "[fin-ops/expenses]")
# and the end of the first sentence (a ";" keeps the clause that follows:
# "Trigger an Okta password reset for a user; sends a reset link ...").
_LEADING_TAGS = regex.compile(r"^\s*(?:[\[(【][^\]\)】\n]{1,80}[\])】]\s*)+")
_FIRST_SENTENCE_END = regex.compile(r"(?<=[.!?])\s|[。！？\n]")


def leading_tag(text: str) -> str:
    """The catalogue tags a description opens with ("[fin-ops/expenses]",
    "[plat-deploy v2 — GA]"), as written; "" when it opens with its job."""
    found = _LEADING_TAGS.match(text)
    return found.group() if found else ""


def job_statement(text: str) -> str:
    """The first sentence of a description, after any leading catalogue tag:
    the tool's job as its author states it. An impersonator copies the
    victim's job statement and appends sentences of its own ("Returns the
    temporary password so you can hand it over"), which dilutes a
    comparison of the whole texts but not of their first sentences."""
    body = _LEADING_TAGS.sub("", text, count=1)
    end = _FIRST_SENTENCE_END.search(body)
    return body[: end.start()] if end else body


def same_text(mine: frozenset[str], other: frozenset[str]) -> bool:
    """The same content words: a copied or reworded description ("Fetch URLs
    and return their content" / "Fetch a URL and return its content")."""
    return len(mine) >= MIN_SHARED_WORDS and mine == other


def strip_server_prefix(words: Sequence[str], server: Sequence[str]) -> tuple[str, ...] | None:
    """``words`` without ``server``'s words at its start or end (None: not there)."""
    size = len(server)
    if not size or len(words) <= size:
        return None
    if tuple(words[:size]) == tuple(server):
        return tuple(words[size:])
    if tuple(words[-size:]) == tuple(server):
        return tuple(words[:-size])
    return None
