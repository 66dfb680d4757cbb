"""Job against request: what a tool is for, and what a parameter asks for.

A poisoned schema often says nothing alarming: a dice roller only has to
*have* a required ``openai_api_key`` parameter, a unit converter a
``session_cookie``. This module reads both sides from vocabulary kept as
data (``mcpscan/lexicon/capability/<lang>.json``, one file per language,
and ``fit.json``, the table of which request fits which job):

* the **job** domains named by a text (compute, game, text, time, lookup,
  device, media are *narrow*: they need nothing of the user's; auth, wallet, identity,
  payment, llm, browser, file, shell, remote, memory ... are not);
* the **request** classes named by a parameter's text (an LLM provider's
  key, another service's credential, an account password, wallet recovery
  words, a private key, an SSH identity file, the environment, a file's
  contents, browser state, the conversation, the system prompt, a personal
  identifier, a card number, other tools' outputs);
* the **shape** of a requested value: a ``pattern`` or example starting
  ``sk-`` asks for an OpenAI key whatever the parameter is called.

Phrases are normalized exactly as scanned text is and found in one pass
(an Aho-Corasick automaton), at word boundaries (scripts written without
spaces match anywhere; a trailing ``*`` matches the start of a word).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from typing import Any

import ahocorasick
import attrs

from .._normalize import normalize

__all__ = ["FitTable", "ascii_folded_words", "fit_table", "request_text", "split_identifier"]

_JOB = "job"
_REQUEST = "request"
_CONCEAL = "conceal"
_NEGATION = "negation"
_FIRST_UNSPACED = "\u2e80"
#: Classes only used to derive others (a credential naming a provider).
CREDENTIAL = "credential"
LLM_KEY = "llm_key"
PROVIDER_CREDENTIAL = "provider_credential"
#: A fit that holds for any job that is recognised and not narrow.
BROAD = "broad"


@attrs.frozen
class RequestClass:
    """One kind of request: how to name it, which jobs it fits."""

    label: str
    fits: frozenset[str]
    secret: bool
    #: Secret material no narrow job has a use for (another service's key,
    #: the environment, an SSH key, recovery words, a CVV, an MFA code).
    theft: bool = False


@attrs.frozen
class FitTable:
    """The compiled vocabulary of every language and the fit table."""

    automaton: Any
    narrow: frozenset[str]
    #: Narrow jobs whose tools often front a hub, a server or the service's
    #: own account (a smart lamp, a media library): their name does not
    #: override what else the first sentence names, and alone they never
    #: make a mismatch hard.
    connected: frozenset[str]
    #: Domains whose words often name the topic of a narrow job (an
    #: employee's leave days, a payroll country's holidays), not the job.
    topical: frozenset[str]
    requests: Mapping[str, RequestClass]
    llm_providers: frozenset[str]
    #: Services whose credential a parameter may name (normalized words).
    providers: frozenset[str]
    #: (lower-case prefix, request class, provider) for value shapes.
    shapes: tuple[tuple[str, str, str], ...]
    languages: tuple[str, ...]

    def jobs(self, text: str) -> frozenset[str]:
        """The job domains ``text`` (normalized, see ``request_text``) names."""
        return frozenset(name for kind, name in _hits(self.automaton, text) if kind == _JOB)

    def asked(self, text: str) -> frozenset[str]:
        """The request classes ``text`` (normalized) names."""
        return frozenset(name for kind, name in _hits(self.automaton, text) if kind == _REQUEST)

    def negations(self, text: str) -> Iterator[int]:
        """Where a negation of a language without one in the instruction
        lexicons stands in ``text`` (normalized): Thai "ไม่ต้อง", Czech "nikdy"."""
        for start, kind, _label in _located_hits(self.automaton, text):
            if kind == _NEGATION:
                yield start

    def conceals(self, text: str) -> bool:
        """Whether ``text`` (normalized) keeps something from the user
        ("do not mention this to the user", "sin avisar al usuario")."""
        return any(kind == _CONCEAL for kind, _ in _hits(self.automaton, text))

    def shape(self, value: str) -> tuple[str, str] | None:
        """(request class, provider) of a pattern or value that has a secret's shape."""
        lowered = value.strip().lower().replace("\\-", "-")
        head = _PATTERN_HEAD.sub("", lowered)
        for candidate in (head, *_choice_heads(lowered)):
            for prefix, request, provider in self.shapes:
                if candidate.startswith(prefix):
                    return request, provider
        # An armour line naming its key types as a regex group
        # ("-----BEGIN (OPENSSH|RSA) PRIVATE KEY-----"); a public key or a
        # certificate header is no private key.
        if _ARMOURED_PRIVATE.match(head):
            return "private_key", ""
        return None

    def fits(self, request: str, job: frozenset[str]) -> bool:
        fitting = self.requests[request].fits
        if job & fitting:
            return True
        return BROAD in fitting and bool(job) and not job <= self.narrow


_ARMOURED_PRIVATE = re.compile(r"-----begin [^-\n]{0,60}private key")
# A pattern whose head offers a choice of letters or of words spells
# several token heads at once: ``^xox[pbo]-`` is a Slack user, bot or
# app token, ``^(sk|rk)_live_`` a payment processor's live secret or
# restricted key. Only plain choices are spelled out (letters and digits in
# brackets, words between bars), a few at a time: a range (``[a-z]``,
# ``[0-9a-f]``) or a nested group stops the reading, so an ordinary id
# pattern spells nothing.
_PATTERN_ANCHOR = re.compile(r"^(?:\^|\\A)+")
_PLAIN_HEAD = re.compile(r"[a-z0-9_-]{0,12}")
_CHOICE = re.compile(
    r"\[([a-z0-9]{1,8})\]|\((?:\?:)?([a-z0-9_-]{1,16}(?:\|[a-z0-9_-]{1,16}){1,5})\)"
)
_MAX_CHOICES = 2
_MAX_HEADS = 16


def _choice_heads(pattern: str) -> list[str]:
    """The literal heads a pattern's leading choices spell (``^xox[pb]-``:
    ``xoxp-``, ``xoxb-``); none when its head holds no plain choice."""
    rest = _PATTERN_ANCHOR.sub("", pattern)
    if "[" not in rest[:40] and "|" not in rest[:40]:
        return []
    heads = [""]
    for _ in range(_MAX_CHOICES):
        literal = _PLAIN_HEAD.match(rest)
        end = literal.end() if literal else 0
        choice = _CHOICE.match(rest, end)
        if choice is None:
            break
        options = list(choice.group(1)) if choice.group(1) else choice.group(2).split("|")
        heads = [h + rest[:end] + option for h in heads for option in options][:_MAX_HEADS]
        rest = rest[choice.end() :]
    if heads == [""]:
        return []
    return [head + rest for head in heads]


# A regex pattern's opening anchors and groups: "^(?:sk-" starts with "sk-".
_PATTERN_HEAD = re.compile(r"^(?:\^|\\A|\(\?:|\(|\[\^?\]?)*")


def _files() -> Iterator[tuple[str, Mapping[str, Any]]]:
    folder = resources.files("mcpscan") / "lexicon" / "capability"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            yield entry.name, json.loads(entry.read_text(encoding="utf-8"))


@functools.cache
def fit_table() -> FitTable:
    """Every language's job and request phrases, compiled once per process."""
    entries: dict[str, dict[tuple[str, str], bool]] = {}
    tails: dict[str, set[tuple[str, str, tuple[tuple[str, bool], ...]]]] = {}
    languages: list[str] = []
    table: Mapping[str, Any] = {}
    for name, data in _files():
        if name == "fit.json":
            table = data
            continue
        languages.append(str(data["language"]))
        sections = (
            (_JOB, data["jobs"]),
            (_REQUEST, data["requests"]),
            (_CONCEAL, {_CONCEAL: data.get("conceal", ())}),
            (_NEGATION, {_NEGATION: data.get("negation", ())}),
        )
        for kind, section in sections:
            for label, phrases in section.items():
                for phrase in phrases:
                    if "*" in phrase.rstrip("*"):
                        head, tail = _inflected(phrase)
                        tails.setdefault(head, set()).add((kind, label, tail))
                        continue
                    prefix = phrase.endswith("*")
                    key = request_text(phrase.rstrip("*")).strip()
                    for form in {key, _ascii_folded(key, prefix)} - {""}:
                        found = entries.setdefault(form, {})
                        found[(kind, label)] = found.get((kind, label), False) or prefix
    automaton = ahocorasick.Automaton()
    for key in sorted(entries.keys() | tails.keys()):
        labels = tuple(sorted(entries.get(key, {}).items()))
        following = tuple(sorted(tails.get(key, ())))
        automaton.add_word(key, (len(key), labels, following))
    automaton.make_automaton()
    return FitTable(
        automaton=automaton,
        narrow=frozenset(table["narrow"]),
        connected=frozenset(table["connected"]),
        topical=frozenset(table["topical"]),
        requests={
            name: RequestClass(
                label=spec["label"],
                fits=frozenset(spec["fits"]),
                secret=bool(spec["secret"]),
                theft=bool(spec.get("theft", False)),
            )
            for name, spec in table["requests"].items()
        },
        # Normalized like the text they are looked up in ("huggingface"
        # reads "huggingfac", "claude" "claud").
        llm_providers=frozenset(request_text(p).strip() for p in table["llm_providers"]),
        providers=frozenset(request_text(p).strip() for p in table["providers"]),
        shapes=tuple(
            (s["prefix"].lower(), s["class"], request_text(s["provider"]).strip())
            for s in table["shapes"]
        ),
        languages=tuple(languages),
    )


# Letters that lose their mark without a decomposition (Turkish dotless i,
# Polish l with stroke, German sharp s, Danish o with stroke).
_UNMARKED = str.maketrans({"ı": "i", "ł": "l", "ß": "ss", "ø": "o", "đ": "d", "ħ": "h"})


#: Shortest folded phrase kept (a stem: one letter more): short folded
#: words are words of other languages ("dés" folds to French "des",
#: "média" to English "media", "płac*" to the start of "place").
_MIN_FOLDED = 6


def _ascii_folded(key: str, prefix: bool) -> str:
    """``key`` without diacritics when that leaves it plain ASCII, else "".

    Tool and parameter names are written in ASCII even in languages with
    marked letters: ``birim_donustur`` is "birim dönüştür", ``numero_cartao``
    "número cartão", ``haslo`` "hasło". The folded phrase matches those
    identifiers; words of other scripts are left alone, and so are short
    folded words, which collide with words of other languages.
    """
    decomposed = unicodedata.normalize("NFKD", key.translate(_UNMARKED))
    folded = "".join(char for char in decomposed if not unicodedata.combining(char))
    if folded == key or not folded.isascii() or len(folded) < _MIN_FOLDED + prefix:
        return ""
    # Normalized as the identifier will be: ``cle_privee`` reads "cle priv"
    # once stemmed, so "clé privée" must be looked for as that, not as
    # "cle privee". A prefix phrase keeps its letters (a stem of a stem
    # would start fewer words).
    return folded if prefix else request_text(folded).strip()


def ascii_folded_words(text: str) -> frozenset[str]:
    """The lower-case words of ``text`` without diacritics ("şifresi" ->
    "sifresi", "hasło" -> "haslo"); words of other scripts stay as they are."""
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(_UNMARKED))
    folded = "".join(char for char in decomposed if not unicodedata.combining(char))
    return frozenset(_FOLDED_WORD.findall(folded))


_FOLDED_WORD = re.compile(r"\w+")


def _is_word_char(char: str) -> bool:
    if char.isascii():
        # The common case (a letter, a digit, the space between words),
        # answered without the Unicode tests below: an ASCII character is
        # no mark and of no unspaced script.
        return char.isalnum()
    # A vowel sign or virama of an Indic script (category M) is inside a
    # word: "दिखाता" (shows) holds no word "खाता" (account) after its "ि".
    # Scripts written without spaces between words (Chinese, Japanese, and
    # Thai, Lao, Myanmar, Khmer) bound no word: "รหัสผ่านอีเมล" holds the
    # word for a password glued to the one for e-mail.
    return (
        (char.isalnum() or unicodedata.category(char)[0] == "M")
        and char < _FIRST_UNSPACED
        and not _unspaced_southeast_asian(char)
    )


def _unspaced_southeast_asian(char: str) -> bool:
    return (
        "\u0e00" <= char <= "\u0eff"
        or "\u1000" <= char <= "\u109f"
        or ("\u1780" <= char <= "\u17ff")
    )


def _inflected(phrase: str) -> tuple[str, tuple[tuple[str, bool], ...]]:
    """A phrase with a ``*`` inside ("prompt* systemow*", "истори*
    переписки"): the stems of inflected languages, where each word of the
    phrase takes its own ending ("promptu systemowego", "историю
    переписки"). The automaton finds the first word's stem; the rest is
    read from there (``_follows``): the first word's ending when it has a
    ``*``, then each further word, whole or by its stem. Returns the first
    stem and ((word, takes an ending), ...) with the first word's flag
    first (its text is the automaton key)."""
    words = request_text(phrase).split()
    steps = tuple((word.rstrip("*"), word.endswith("*")) for word in words)
    return steps[0][0], (("", steps[0][1]), *steps[1:])


def _follows(text: str, at: int, steps: tuple[tuple[str, bool], ...]) -> bool:
    """Whether the words of ``steps`` follow ``text[:at]`` (see ``_inflected``).
    Plain string steps, no pattern: nothing here can backtrack."""
    for index, (word, ending) in enumerate(steps):
        if index:
            start = at
            while at < len(text) and text[at].isspace():
                at += 1
            if at == start or not text.startswith(word, at):
                return False
            at += len(word)
        if ending:
            while at < len(text) and _is_word_char(text[at]):
                at += 1
        elif at < len(text) and _is_word_char(text[at]):
            return False
    return True


def _hits(automaton: Any, text: str) -> Iterator[tuple[str, str]]:
    for _start, kind, label in _located_hits(automaton, text):
        yield kind, label


def _located_hits(automaton: Any, text: str) -> Iterator[tuple[int, str, str]]:
    """(start, kind, label) of every phrase of ``text`` standing at word boundaries."""
    if not text:
        return
    for last, (length, labels, following) in automaton.iter(text):
        start, end = last - length + 1, last + 1
        if _is_word_char(text[start]) and start > 0 and _is_word_char(text[start - 1]):
            continue
        whole = not (_is_word_char(text[end - 1]) and end < len(text) and _is_word_char(text[end]))
        for (kind, label), prefix in labels:
            if whole or prefix:
                yield start, kind, label
        for kind, label, steps in following:
            if _follows(text, end, steps):
                yield start, kind, label


# Separators inside identifiers and paths: "id_rsa", "~/.ssh", "api-key"
# read as words ("id rsa", "ssh", "api key"); code quotes and double quotes
# too ("output of `env`", "`.env`-Datei").
_SEPARATORS = re.compile(r"[_~/\\|`\"]+|\.(?=\w)|(?<=[\w`\"])-(?=\w)")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_MAX_TEXT = 4000


def split_identifier(name: str) -> str:
    """``openaiApiKey`` -> ``openai Api Key``; ``read_the_file_at_~/.ssh`` -> words."""
    return _SEPARATORS.sub(" ", _CAMEL.sub(" ", name)).strip()


def request_text(*parts: str) -> str:
    """``parts`` as one normalized, space-padded text whose identifiers and
    paths are split into words, bounded to ``_MAX_TEXT`` characters."""
    joined = " ".join(_SEPARATORS.sub(" ", p) for p in parts if p)[:_MAX_TEXT]
    return f" {normalize(joined)} " if joined else ""


def head(text: str) -> str:
    """As much of ``text`` as ``request_text`` reads, cut before any work."""
    return text[:_MAX_TEXT]


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def providers_named(text: str, providers: Iterable[str]) -> tuple[str, ...]:
    """The providers of ``providers`` whose name is a word of ``text``."""
    present = words(text)
    return tuple(p for p in providers if p in present)
