"""Secret recognisers shared by the embedded-secret check and evidence redaction.

``find_secrets(text)`` returns every credential-shaped value in ``text`` as a
``SecretMatch``: where it is, its kind (``github_token``, ``jwt`` ...), how
sure the recogniser is and why. Confidence follows one scale:

* a checksum or a multi-part structure that verified (a GitHub token whose
  CRC32 matches, a JWT whose header decodes to JSON with ``alg``): >= 0.9;
* a provider prefix of the right length and alphabet, not verifiable: ~0.6;
* a credential word assigned a strong value (``password=...``): 0.5;
* entropy alone: 0.4 beside a credential word, 0.2 bare.

Documentation placeholders (``AKIAIOSFODNN7EXAMPLE``, ``xxxx``, ``ABCDEF``
runs, "example" / "dummy" markers) are still returned, flagged
``placeholder``: redaction is shape-based and hides them too (hiding a fake
key costs nothing), while the embedded-secret check reports only real-looking
values. A value introduced as an example ("e.g. ...") keeps its match but
loses confidence unless its checksum verified or it is real key material.

``find_secret_spans(text)`` is the redaction view: ``(start, end, kind)`` of
every match, non-overlapping and sorted. It runs on every evidence string of
every check, so all rules are gated by one Aho-Corasick pass over their
trigger substrings, and every pattern is linear: bounded repetitions, no
nested quantifiers, fixed-width lookbehinds; a judge looks at a bounded
window around its match, never the whole text. ``scan_secrets(text, n)``
adds a budget for callers that report rather than redact.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import functools
import json
import math
import re
import string
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from typing import Any, NamedTuple
from urllib.parse import unquote

import ahocorasick

from ._normalize import class_runs, class_table, same_length_lower

__all__ = [
    "KINDS",
    "SecretMatch",
    "SecretScan",
    "about_credential",
    "aws_secret_shaped",
    "base62_crc32",
    "called_public",
    "credential_key",
    "credential_value",
    "describes_credential_key",
    "field_called_public",
    "find_secret_spans",
    "find_secrets",
    "in_public_config",
    "issued_key_value",
    "names_data_key",
    "publishes_in_config",
    "scan_secrets",
    "scan_secrets_counted",
    "shannon_entropy",
    "token_head",
]

# Confidence scale (see the module docstring).
CHECKSUM = 0.95
STRUCTURE = 0.92
PREFIX_EXACT = 0.7
PREFIX = 0.6
PREFIX_BAD_CHECKSUM = 0.45
ASSIGNMENT = 0.5
ENTROPY_WITH_CONTEXT = 0.4
ENTROPY_BARE = 0.2
# An unverified value introduced as an example ("e.g. AKIA...") is most
# likely documentation: it is kept below the review threshold (0.35).
EXAMPLE_CAP = 0.3
# A verified value stays reviewable even in an example: nobody computes a
# CRC32, or writes a PEM body of real key material, for a documentation
# placeholder (a pasted real key is a leak). Example JWTs, whose claims
# decode by design, are as common in API docs as placeholders: capped.
EXAMPLE_VERIFIED_FACTOR = 0.6


class _TableFormat(NamedTuple):
    """One provider format of ``lexicon/secrets/providers.json``."""

    kind: str
    label: str
    # Gate substrings: the prefixes, unless the entry names its own
    # (case-folded when ``casefold``: a provider's name near a prefix-less
    # format).
    triggers: tuple[str, ...]
    casefold: bool
    pattern: re.Pattern[str]
    confidence: float
    # Every match of a token entry starts with one of these (none for a
    # url entry or a prefix-less format).
    prefixes: tuple[str, ...] = ()
    # What every match of a prefix-less format begins with, when its body
    # opens with a literal (``starts``: the legacy Vault token's "s."): the
    # pattern is tried only there, not at every position of the text.
    starts: tuple[str, ...] = ()


# A token of the table is a whole run of token characters: it does not
# start or end inside a longer identifier.
_TABLE_EDGE_BEFORE = r"(?<![A-Za-z0-9_\-])"
_TABLE_EDGE_AFTER = r"(?![A-Za-z0-9_\-])"


def _table_formats() -> tuple[_TableFormat, ...]:
    """The provider table: documented prefixes, alphabets and lengths as
    data, so a provider is added with a line of JSON and no code."""
    where = resources.files("mcpscan") / "lexicon" / "secrets" / "providers.json"
    data = json.loads(where.read_text(encoding="utf-8"))
    formats = []
    for entry in data["tokens"]:
        prefixes = "|".join(re.escape(prefix) for prefix in entry["prefixes"])
        pattern = (
            _TABLE_EDGE_BEFORE + (f"(?:{prefixes})" if prefixes else "") + entry["body"]
        ) + _TABLE_EDGE_AFTER
        formats.append(
            _TableFormat(
                entry["kind"],
                entry["label"],
                tuple(entry.get("triggers", entry["prefixes"])),
                bool(entry.get("casefold", False)),
                re.compile(pattern),
                float(entry["confidence"]),
                tuple(entry["prefixes"]),
                tuple(entry.get("starts", ())),
            )
        )
    for entry in data["urls"]:
        formats.append(
            _TableFormat(
                entry["kind"],
                entry["label"],
                tuple(entry["triggers"]),
                False,
                re.compile(entry["pattern"]),
                float(entry["confidence"]),
            )
        )
    return tuple(formats)


_TABLE = _table_formats()


def _live_floors() -> dict[str, float]:
    """Per kind, the confidence from which a complete value of it grants
    access by itself (``providers.json``'s ``live``): the check reports such
    a value hard. Kinds not listed stay reviewable."""
    where = resources.files("mcpscan") / "lexicon" / "secrets" / "providers.json"
    data = json.loads(where.read_text(encoding="utf-8"))
    return {kind: float(floor) for kind, floor in data["live"]["kinds"].items()}


_LIVE_FLOORS = _live_floors()


def _public_configs() -> tuple[dict[str, frozenset[str]], int]:
    """Per kind, the (case-folded) field names of a client configuration
    its provider publishes by design, and how many of them mark one
    (``providers.json``'s ``public_configs``)."""
    where = resources.files("mcpscan") / "lexicon" / "secrets" / "providers.json"
    data = json.loads(where.read_text(encoding="utf-8"))["public_configs"]
    kinds = {
        kind: frozenset(field.casefold() for field in fields)
        for kind, fields in data["kinds"].items()
    }
    return kinds, int(data["min_fields"])


_PUBLIC_CONFIG_FIELDS, _PUBLIC_CONFIG_MIN_FIELDS = _public_configs()


def publishes_in_config(kind: str) -> bool:
    """Does a provider publish keys of ``kind`` in a client configuration?"""
    return kind in _PUBLIC_CONFIG_FIELDS


def in_public_config(kind: str, sibling_fields: Iterable[str]) -> bool:
    """Is a key of ``kind`` beside ``sibling_fields`` (the other field names
    of its object) a public client configuration's identifier: Firebase's
    web config (``apiKey`` with ``authDomain``, ``projectId``, ``appId``)
    is shipped to every browser, its access enforced by the provider's
    rules. A Google key alone, or beside ``model`` and ``prompt``, is not."""
    fields = _PUBLIC_CONFIG_FIELDS.get(kind, frozenset())
    present = {field.casefold() for field in sibling_fields} & fields
    return len(present) >= _PUBLIC_CONFIG_MIN_FIELDS


# The prefixes of the table's tokens, for ``_strip_prefix``: a Notion
# token's "secret_" is its format, not a placeholder word.
_TABLE_PREFIXES = tuple(
    sorted({prefix for entry in _TABLE for prefix in entry.prefixes}, key=len, reverse=True)
)


_CODED_KINDS = (
    "aws_access_key",
    "aws_secret_key",
    "github_token",
    "gitlab_token",
    "slack_token",
    "slack_webhook",
    "stripe_key",
    "openai_api_key",
    "anthropic_api_key",
    "google_api_key",
    "huggingface_token",
    "npm_token",
    "pypi_token",
    "sendgrid_api_key",
    "twilio_key",
    "mailgun_api_key",
    "shopify_token",
    "discord_bot_token",
    "telegram_bot_token",
    "digitalocean_token",
    "databricks_token",
    "postman_api_key",
    "grafana_token",
    "jwt",
    "private_key",
    "connection_string",
    "credential_assignment",
    "high_entropy",
)
#: Every kind a match can have; rule ids of the check are ``secret.<kind>``
#: (the kinds of the provider table after those with code of their own).
KINDS = _CODED_KINDS + tuple(
    dict.fromkeys(entry.kind for entry in _TABLE if entry.kind not in _CODED_KINDS)
)


class SecretMatch(NamedTuple):
    """One credential-shaped value: ``text[start:end]`` is the value itself."""

    start: int
    end: int
    kind: str
    confidence: float
    #: ``checksum``, ``structure``, ``prefix``, ``assignment`` or ``entropy``.
    basis: str
    #: What a person should read: "GitHub token, checksum valid".
    label: str
    placeholder: bool = False
    example: bool = False
    #: A complete, well-formed value of a format that grants access by
    #: itself (a checksum-valid token, a paired AWS key, a private key, a
    #: strong password to a real host), not an example, not said to be
    #: public: the embedded-secret check reports it hard. A partial, a
    #: typed or a provider-less value is not live, only reviewable.
    live: bool = False


class _Judged(NamedTuple):
    confidence: float
    basis: str
    label: str
    start: int
    end: int
    # The judge saw the whole credential and what it opens (a connection
    # string's password and its real host, a privileged JWT): live, whatever
    # the kind's floor.
    live: bool = False


# A judge looks at one regex match (and the whole text, for context) and
# returns the verdict and the exact span of the secret, or None to reject.
_Judge = Callable[["re.Match[str]", str], "_Judged | None"]


class _Rule(NamedTuple):
    kind: str
    # The rule runs only when one of these substrings is in the text (in the
    # lower-cased text when ``casefold``): a cheap gate before any regex.
    triggers: tuple[str, ...]
    pattern: re.Pattern[str]
    judge: _Judge
    casefold: bool = False
    # The pattern is written in lower case and runs over the lower-cased
    # text (case-insensitive ``re`` is several times slower); judges read
    # values from the original text through the match's spans.
    on_lowered: bool = False
    # Where a match can begin, when a C-level scan finds that faster than a
    # search tries the pattern (with its leading look-behind) at every
    # position of a megabyte: the offsets, sorted, from the haystack. The
    # pattern is then tried, anchored, only there (see ``_rule_matches``).
    begins: Callable[[str], list[int]] | None = None


# ---------------------------------------------------------------- helpers

_GMP_BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def base62_crc32(data: str) -> str:
    """The checksum GitHub and npm append to their tokens.

    CRC32 of the random part, written in base 62 with the "GMP" alphabet
    (digits, upper, lower) and left-padded with ``0`` to six characters:
    ``ghp_`` + 30 random characters + ``base62_crc32(random)``.
    """
    number = zlib.crc32(data.encode("ascii", "replace"))
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = _GMP_BASE62[rest] + digits
    return digits.rjust(6, "0")


def shannon_entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    if not value:
        return 0.0
    size = len(value)
    # A list, not a generator: the same sum in the same order, faster.
    return -sum([count / size * math.log2(count / size) for count in Counter(value).values()])


# Runs of one character class; ``len(findall) - 1`` is the number of class
# switches. Random tokens switch class at most characters, identifiers and
# words at word boundaries only.
_CLASS_RUNS = re.compile(r"[0-9]+|[A-Z]+|[a-z]+|[^0-9A-Za-z]+")

# Markers that make a value a documentation placeholder. Four letters or
# more: the chance that a random 30-character token contains one by accident
# is below 1 in 10,000.
_PLACEHOLDER_WORDS = (
    "example",
    "sample",
    "dummy",
    "placeholder",
    "your",
    "redact",
    "changeme",
    "change_me",
    "replace",
    "insert",
    "fake",
    "xxxx",
    "****",
    "test",
    "mock",
    "demo",
    "here",
    "secret",
    "token",
    "password",
    "passwd",
    "apikey",
    "api_key",
    "...",
    "\u2026",
)
# Well-known documentation values that survive the other placeholder rules
# (the GitHub OAuth docs' example token has random-looking characters).
# Stripe's documentation test keys, printed in every tutorial, likewise.
_DOC_EXAMPLES = frozenset(
    {
        "gho_16C7e42F292c6912E7710c838347Ae178B4a",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "sk_test_26PHem9AhJZvU623DfE1x4sd",
        # The Azure Storage emulator's (Azurite's) development account key:
        # published in Microsoft's docs and identical on every machine; it
        # opens only the emulator on localhost.
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    }
)
_SEQUENCE_RUN = 5
# Every five-character run of an ascending or descending alphabet or digit
# sequence ("12345", "abcde", "zyxwv"): typed by a person, never drawn.
_SEQUENCE_GRAMS = frozenset(
    sequence[index : index + _SEQUENCE_RUN]
    for sequence in (
        "0123456789",
        "9876543210",
        "abcdefghijklmnopqrstuvwxyz",
        "zyxwvutsrqponmlkjihgfedcba",
    )
    for index in range(len(sequence) - _SEQUENCE_RUN + 1)
)
_REPEAT_RUN = re.compile(r"(.)\1{4}")
_LOW_ENTROPY = 3.0


def _has_sequence(value: str) -> bool:
    # 56 substring searches run in C; a loop over positions would not.
    lowered = value.lower()
    return any(gram in lowered for gram in _SEQUENCE_GRAMS)


def _is_placeholder(value: str) -> bool:
    """True for a value written to show a format rather than to work.

    Catches ``AKIAIOSFODNN7EXAMPLE``, ``sk-xxxxxxxx``, ``ghp_0000000000``,
    ``abcdef123456`` and ``your-api-key-here``; a random token trips none of
    these rules except with negligible probability.
    """
    if value in _DOC_EXAMPLES:
        return True
    lowered = value.lower()
    if any(word in lowered for word in _PLACEHOLDER_WORDS):
        return True
    if _REPEAT_RUN.search(value) or _has_sequence(value):
        return True
    return len(value) >= 12 and shannon_entropy(value) < _LOW_ENTROPY


_EXAMPLE_CUES = (
    "e.g",
    "eg.",
    "i.e",
    "example",
    "for instance",
    "such as",
    "sample",
    "looks like",
    "format",
    "placeholder",
    "dummy",
    "fake",
)
_EXAMPLE_WINDOW = 48


# "example" as a label of a domain name (RFC 2606's "corp.example",
# "smtp.example.co.jp", "ops@example.com"): an address, not a cue. A
# leaked password beside the mail host it belongs to is still a leak.
_EXAMPLE_DOMAIN = re.compile(r"[.@/]example\b|\bexample\.(?=[a-z])")


def _secret_words() -> Any:
    """``lexicon/secrets/words.json``: the credential and example words of
    other languages, read once per table built from it."""
    where = resources.files("mcpscan") / "lexicon" / "secrets" / "words.json"
    return json.loads(where.read_text(encoding="utf-8"))


def _example_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The example cues of other languages (``secrets/words.json``): the
    words before a value that present it, the words after it that call it
    made up."""
    data = _secret_words()
    before = tuple(sorted({w for group in data["example_before"].values() for w in group}))
    after = tuple(sorted({w for group in data["fake_after"].values() for w in group}))
    return before, after


_FOREIGN_EXAMPLE_CUES, _FAKE_AFTER_CUES = _example_words()
_FAKE_AFTER_WINDOW = 48


def _said_fake_after(text: str, end: int) -> bool:
    """True when the words just after ``end`` call the value made up: "Bearer
    eyJ... (token fictício, apenas ilustrativo)", "... (not a real key)"."""
    after = text[end : end + _FAKE_AFTER_WINDOW].lower()
    return any(cue in after for cue in _FAKE_AFTER_CUES)


def _introduced_as_example(text: str, start: int) -> bool:
    """True when the words just before ``start`` present an example, in
    English or another language ("Exemplo de cabeçalho:", "z. B.")."""
    before = text[max(0, start - _EXAMPLE_WINDOW) : start].lower()
    if any(cue in before for cue in _FOREIGN_EXAMPLE_CUES):
        return True
    if not any(cue in before for cue in _EXAMPLE_CUES):
        return False
    if "example" in before:
        before = _EXAMPLE_DOMAIN.sub(" ", before)
        return any(cue in before for cue in _EXAMPLE_CUES)
    return True


_CREDENTIAL_CUES = (
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "pwd",
    "credential",
    "auth",
    "bearer",
    "session",
    "cookie",
    "signature",
)
_CONTEXT_WINDOW = 40


def _credential_context(text: str, start: int) -> bool:
    """True when a credential word sits just before ``start``."""
    before = text[max(0, start - _CONTEXT_WINDOW) : start].lower()
    return any(cue in before for cue in _CREDENTIAL_CUES)


def _b64decode(value: str) -> bytes | None:
    """Decode standard or URL-safe base64, padded or not; None when invalid."""
    core = value.rstrip("=")
    if len(core) % 4 == 1:
        return None
    padded = core + "=" * (-len(core) % 4)
    altchars = b"-_" if ("-" in core or "_" in core) else None
    try:
        return base64.b64decode(padded, altchars=altchars, validate=True)
    except (binascii.Error, ValueError):
        return None


def _b64_json_object(value: str) -> dict[str, object] | None:
    raw = _b64decode(value)
    if raw is None:
        return None
    try:
        parsed = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _printable_text(raw: bytes) -> str | None:
    """``raw`` as text when it is (almost all) printable UTF-8, else None."""
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not decoded:
        return None
    if decoded.isprintable():
        return decoded  # the common case, without a loop over characters
    printable = sum(1 for char in decoded if char.isprintable() or char in "\n\r\t")
    return decoded if printable >= 0.95 * len(decoded) else None


# Context that confirms a match (an AWS key id beside a secret key, the
# "Server=" of a connection string) is looked for this far around it, never
# in the whole text: a judge stays O(1) per match, so a text with thousands
# of candidates stays linear.
_PAIR_WINDOW = 300


def _window(text: str, start: int, end: int, radius: int) -> str:
    return text[max(0, start - radius) : end + radius]


def _judged(match: re.Match[str], confidence: float, basis: str, label: str) -> _Judged:
    return _Judged(confidence, basis, label, match.start(), match.end())


# ---------------------------------------------------------------- providers

_AWS_KEY_ID = re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])")
_BASE32 = re.compile(r"[A-Z2-7]{16}")


def _judge_aws_key_id(match: re.Match[str], _text: str) -> _Judged:
    # AWS key ids are base32 (A-Z, 2-7) after the prefix; a 0, 1, 8 or 9
    # means the value was typed by hand rather than issued, so it is weaker.
    if _BASE32.fullmatch(match.group(), 4):
        return _judged(match, PREFIX_EXACT, "prefix", "AWS access key id")
    return _judged(match, PREFIX, "prefix", "AWS access key id (not base32)")


_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_AWS_SECRET_CUES = (
    "aws",
    "secret_access",
    "secret access",
    "secretaccesskey",
    "secret_key",
    "secret key",
)
_AWS_SECRET_WINDOW = 120


def aws_secret_shaped(value: str) -> bool:
    """``value`` is, whole, what an AWS secret access key looks like: 40
    base64 characters of three classes, not a path, not a placeholder."""
    return (
        _AWS_SECRET.fullmatch(value) is not None
        and _character_classes(value) >= 3
        and value.count("/") <= 3
        and not _is_placeholder(value)
    )


def _judge_aws_secret(match: re.Match[str], text: str) -> _Judged | None:
    # Any 40-character base64 run (a SHA-1 in base64, a path) has this shape;
    # only one introduced as an AWS secret, or beside an AWS key id, counts.
    value = match.group()
    if _character_classes(value) < 3 or value.count("/") > 3:
        return None  # a word run or a path, not 240 random bits
    before = text[max(0, match.start() - _AWS_SECRET_WINDOW) : match.start()].lower()
    if any(cue in before for cue in _AWS_SECRET_CUES):
        return _judged(match, PREFIX, "context", "AWS secret access key")
    if _AWS_KEY_ID.search(_window(text, match.start(), match.end(), _PAIR_WINDOW)):
        return _judged(match, PREFIX, "context", "AWS secret access key")
    return None


_GITHUB_CLASSIC = re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9_])")
_GITHUB_CLASSIC_BODY = 36


def _judge_github_classic(match: re.Match[str], _text: str) -> _Judged:
    token = match.group()
    body = token[4:]
    if len(body) == _GITHUB_CLASSIC_BODY and base62_crc32(body[:30]) == body[30:]:
        return _judged(match, CHECKSUM, "checksum", "GitHub token, checksum valid")
    # Every token GitHub has issued since 2021 carries the checksum: a
    # mismatch means a hand-made value, still worth a look but not proof.
    # A person cannot check a CRC: a whole token of the issued length is
    # handled as live all the same (a drawn body, not an example).
    label = "GitHub token shape, checksum invalid"
    live = len(body) == _GITHUB_CLASSIC_BODY
    return _Judged(PREFIX_BAD_CHECKSUM, "prefix", label, match.start(), match.end(), live)


_GITHUB_PAT = re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{40,255}(?![A-Za-z0-9_])")
_GITHUB_PAT_STRUCTURE = re.compile(r"github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}")


def _judge_github_pat(match: re.Match[str], _text: str) -> _Judged:
    if _GITHUB_PAT_STRUCTURE.fullmatch(match.group()):
        return _judged(match, STRUCTURE, "structure", "GitHub fine-grained token (22_59 structure)")
    return _judged(match, PREFIX, "prefix", "GitHub fine-grained token prefix")


_GITLAB_PREFIXES = (
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "glsoat-",
    "glcbt-",
    "glimt-",
    "glagent-",
    "gloas-",
    "glffct-",
)
_GITLAB = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:glpat|gldt|glrt|glptt|glsoat|glcbt|glimt|glagent|gloas|glffct)-"
    r"[A-Za-z0-9_\-]{20}(?:[A-Za-z0-9_\-.]{0,200}[A-Za-z0-9_\-])?(?![A-Za-z0-9_\-])"
)


def _judge_gitlab(match: re.Match[str], _text: str) -> _Judged:
    body = match.group().split("-", 1)[1]
    if len(body) == 20:
        return _judged(match, PREFIX_EXACT, "prefix", "GitLab token (20-character body)")
    return _judged(match, PREFIX, "prefix", "GitLab token prefix")


_SLACK_STRUCTURED = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:xoxb-[0-9]{8,13}-[0-9]{8,13}-[A-Za-z0-9]{24}"
    r"|xoxp-[0-9]{8,13}-[0-9]{8,13}-[0-9]{8,13}-[a-f0-9]{32}"
    r"|xapp-[0-9]-[A-Z0-9]{9,12}-[0-9]{10,14}-[a-f0-9]{64})(?![A-Za-z0-9_\-])"
)
_SLACK_GENERIC = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,250}(?![A-Za-z0-9_\-])"
)


def _judge_slack_structured(match: re.Match[str], _text: str) -> _Judged:
    return _judged(match, STRUCTURE, "structure", "Slack token (workspace-user-secret structure)")


def _judge_slack_generic(match: re.Match[str], _text: str) -> _Judged | None:
    body = match.group().split("-", 1)[1].replace("-", "")
    if len(body) < 10 or not any(c.isalpha() for c in body):
        return None
    return _judged(match, PREFIX, "prefix", "Slack token prefix")


_SLACK_WEBHOOK = re.compile(
    r"https://hooks\.slack\.com/(?:services|workflows|triggers)/"
    r"(?:(?P<exact>T[A-Z0-9]{8,12}/B[A-Z0-9]{8,12}/[A-Za-z0-9]{24})(?![A-Za-z0-9])"
    r"|[A-Za-z0-9/_\-]{20,200})"
)


def _judge_slack_webhook(match: re.Match[str], _text: str) -> _Judged:
    # The secret is the path after the host; the host stays readable.
    start = match.start() + len("https://hooks.slack.com/")
    if match.group("exact"):
        return _Judged(STRUCTURE, "structure", "Slack webhook URL (T/B/secret)", start, match.end())
    return _Judged(PREFIX, "prefix", "Slack webhook URL", start, match.end())


_STRIPE = re.compile(r"(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{20,247}(?![A-Za-z0-9_])")


def _judge_stripe(match: re.Match[str], _text: str) -> _Judged:
    return _judged(match, PREFIX_EXACT, "prefix", "Stripe live secret key")


_ANTHROPIC = re.compile(r"(?<![A-Za-z0-9_\-])sk-ant-[A-Za-z0-9_\-]{20,250}(?![A-Za-z0-9_\-])")
_ANTHROPIC_STRUCTURE = re.compile(r"sk-ant-(?:api|admin|sid)[0-9]{2}-[A-Za-z0-9_\-]{80,100}AA")


def _judge_anthropic(match: re.Match[str], _text: str) -> _Judged:
    if _ANTHROPIC_STRUCTURE.fullmatch(match.group()):
        return _judged(match, STRUCTURE, "structure", "Anthropic API key (api03 structure)")
    return _judged(match, PREFIX, "prefix", "Anthropic API key prefix")


_OPENAI = re.compile(r"(?<![A-Za-z0-9_\-])sk-(?!ant-)[A-Za-z0-9_\-]{20,250}(?![A-Za-z0-9_\-])")
# "T3BlbkFJ" is base64 of "OpenAI": every OpenAI secret key carries it.
_OPENAI_MARKER = "T3BlbkFJ"
_OPENAI_PROJECT = re.compile(r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,}")
_OPENAI_LEGACY = re.compile(r"sk-[A-Za-z0-9]{32,64}")


def _judge_openai(match: re.Match[str], _text: str) -> _Judged | None:
    token = match.group()
    marker = token.find(_OPENAI_MARKER)
    if marker >= 16 and len(token) - marker - len(_OPENAI_MARKER) >= 16:
        return _judged(match, STRUCTURE, "structure", "OpenAI API key (T3BlbkFJ marker)")
    if _OPENAI_PROJECT.fullmatch(token):
        return _judged(match, PREFIX, "prefix", "OpenAI project key prefix")
    if _OPENAI_LEGACY.fullmatch(token) and set(token[3:]) & _DIGITS:
        # sk- followed by 32+ letters and digits: OpenAI's old form, also
        # used by several other model providers.
        return _judged(match, ASSIGNMENT, "prefix", "sk- API key (OpenAI style)")
    return None


_GOOGLE = re.compile(r"(?<![A-Za-z0-9_\-])AIza[0-9A-Za-z_\-]{35}(?![A-Za-z0-9_\-])")


def _judge_google(match: re.Match[str], _text: str) -> _Judged:
    return _judged(match, PREFIX_EXACT, "prefix", "Google API key (AIza + 35)")


_HUGGINGFACE = re.compile(r"(?<![A-Za-z0-9_])(?:hf|api_org)_[A-Za-z0-9]{30,40}(?![A-Za-z0-9_])")
_HUGGINGFACE_STRUCTURE = re.compile(r"hf_[A-Za-z]{34}")


def _judge_huggingface(match: re.Match[str], _text: str) -> _Judged | None:
    token = match.group()
    if _HUGGINGFACE_STRUCTURE.fullmatch(token):
        return _judged(match, PREFIX_EXACT, "prefix", "Hugging Face token (34 letters)")
    body = token.split("_")[-1]
    if not (set(body) & _UPPER and set(body) & _LOWER):
        return None
    return _judged(match, PREFIX, "prefix", "Hugging Face token prefix")


_NPM = re.compile(r"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])")


def _judge_npm(match: re.Match[str], _text: str) -> _Judged:
    body = match.group()[4:]
    # npm adopted GitHub's format in 2021: 30 random characters and the
    # base-62 CRC32 of them.
    if base62_crc32(body[:30]) == body[30:]:
        return _judged(match, CHECKSUM, "checksum", "npm token, checksum valid")
    # As a GitHub token's: the issued length, whatever the checksum, is live.
    label = "npm token shape, checksum invalid"
    return _Judged(PREFIX_BAD_CHECKSUM, "prefix", label, match.start(), match.end(), True)


# "AgEIcHlwaS5vcmc" is the base64 start of a macaroon whose location is
# "pypi.org" ("AgENdGVzdC5weXBpLm9yZw" for test.pypi.org): the prefix itself
# is the structure.
_PYPI = re.compile(
    r"(?<![A-Za-z0-9_\-])pypi-Ag(?:EIcHlwaS5vcmc|ENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\-]{50,2000}"
    r"(?![A-Za-z0-9_\-])"
)


def _judge_pypi(match: re.Match[str], _text: str) -> _Judged:
    return _judged(match, STRUCTURE, "structure", "PyPI upload token (pypi.org macaroon)")


_SENDGRID = re.compile(
    r"(?<![A-Za-z0-9_\-.])SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}(?![A-Za-z0-9_\-])"
)


def _judge_sendgrid(match: re.Match[str], _text: str) -> _Judged:
    return _judged(match, STRUCTURE, "structure", "SendGrid API key (SG.id.secret)")


_TWILIO = re.compile(r"(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])")


def _judge_twilio(match: re.Match[str], text: str) -> _Judged:
    if match.group().startswith("SK"):
        return _judged(match, PREFIX, "prefix", "Twilio API key SID")
    # An account SID names an account; it is a secret only beside its token.
    if "twilio" in _window(text, match.start(), match.end(), _PAIR_WINDOW).lower():
        return _judged(match, ASSIGNMENT, "prefix", "Twilio account SID")
    return _judged(match, EXAMPLE_CAP, "prefix", "Twilio-style account SID")


# Provider tokens whose prefix and alphabet are their whole structure: one
# table, one judge. Each pattern is a fixed prefix and bounded runs, so it
# is linear; lookarounds keep a token from matching inside a longer word.
class _PrefixToken(NamedTuple):
    kind: str
    label: str
    triggers: tuple[str, ...]
    pattern: re.Pattern[str]


_PREFIX_TOKENS = (
    _PrefixToken(
        "mailgun_api_key",
        "Mailgun API key (key-)",
        ("key-",),
        re.compile(r"(?<![A-Za-z0-9_\-])key-[0-9a-f]{32}(?![A-Za-z0-9_\-])"),
    ),
    # Mailgun's legacy keys use the whole lower-case alphabet ("key-3ax6x..."),
    # not only hex; this entry takes the ones with a letter past "f" (the
    # hex ones match above) and at least one digit, so a 32-letter word
    # after "key-" is not a key.
    _PrefixToken(
        "mailgun_api_key",
        "Mailgun API key (key-)",
        ("key-",),
        re.compile(
            r"(?<![A-Za-z0-9_\-])key-(?=[0-9a-f]{0,31}[g-z])(?=[a-z]{0,31}[0-9])[0-9a-z]{32}"
            r"(?![A-Za-z0-9_\-])"
        ),
    ),
    _PrefixToken(
        "shopify_token",
        "Shopify access token",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
        re.compile(r"(?<![A-Za-z0-9_])shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}(?![A-Za-z0-9_])"),
    ),
    _PrefixToken(
        "telegram_bot_token",
        "Telegram bot token (id:AA...)",
        (":AA",),
        re.compile(r"(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])"),
    ),
    _PrefixToken(
        "digitalocean_token",
        "DigitalOcean token (do*_v1_)",
        ("dop_v1_", "doo_v1_", "dor_v1_"),
        re.compile(r"(?<![A-Za-z0-9_])do[por]_v1_[0-9a-f]{64}(?![A-Za-z0-9_])"),
    ),
    _PrefixToken(
        "databricks_token",
        "Databricks personal access token (dapi)",
        ("dapi",),
        re.compile(r"(?<![A-Za-z0-9_])dapi[0-9a-f]{32}(?:-[0-9])?(?![A-Za-z0-9_])"),
    ),
    _PrefixToken(
        "postman_api_key",
        "Postman API key (PMAK-)",
        ("PMAK-",),
        re.compile(r"(?<![A-Za-z0-9_])PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![A-Za-z0-9_])"),
    ),
    _PrefixToken(
        "grafana_token",
        "Grafana service account token (glsa_)",
        ("glsa_",),
        re.compile(r"(?<![A-Za-z0-9_])glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}(?![A-Za-z0-9_])"),
    ),
)


def _prefix_judge(label: str) -> _Judge:
    def judge(match: re.Match[str], _text: str) -> _Judged:
        return _judged(match, PREFIX, "prefix", label)

    return judge


def _table_judge(entry: _TableFormat) -> _Judge:
    """The judge of a provider-table format: the whole token, or a URL's
    ``secret`` group (the host stays readable). A body of one character
    class (all letters: a word; all digits: a number) is not a token."""
    basis = "structure" if entry.confidence >= STRUCTURE else "prefix"
    by_group = "secret" in entry.pattern.groupindex

    def judge(match: re.Match[str], _text: str) -> _Judged | None:
        start, end = match.span("secret") if by_group else match.span()
        if not by_group and _character_classes(_strip_prefix(match.group())) < 2:
            return None
        return _Judged(entry.confidence, basis, entry.label, start, end)

    return judge


# A Discord bot token is the bot's numeric id in base64, a timestamp and an
# HMAC: "MTA...", "NzE...", "OD..." (the base64 of a leading digit). The id
# part must decode to digits, so an ordinary dotted identifier never
# matches.
_DISCORD = re.compile(
    r"(?<![A-Za-z0-9_\-.])(?P<id>[MNO][A-Za-z0-9_\-]{23,27})\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}"
    r"(?![A-Za-z0-9_\-])"
)
_DISCORD_TRIGGERS = ("MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT")
# Its id without the look-behind, up to the first dot: ``re`` skips ahead
# to an "M", "N" or "O" instead of trying the look-behind everywhere. A
# token's id is not inside another such run (the look-behind forbids a
# letter, digit, "_", "-" or "." before it), so each starts a run found.
_DISCORD_ID_RUN = re.compile(r"[MNO][A-Za-z0-9_\-]{23,27}\.")


def _judge_discord(match: re.Match[str], _text: str) -> _Judged | None:
    raw = _b64decode(match.group("id"))
    if raw is None or not raw.isdigit():
        return None
    return _judged(match, STRUCTURE, "structure", "Discord bot token (id.timestamp.hmac)")


_JWT = re.compile(
    r"(?<![A-Za-z0-9_\-])(ey[JA][A-Za-z0-9_\-]{10,2000})\.([A-Za-z0-9_\-]{10,8000})"
    r"\.([A-Za-z0-9_\-]{0,2000})(?![A-Za-z0-9_\-])"
)
# The shortest real signature, HS256's 32 bytes, is 43 characters.
_JWT_MIN_SIGNATURE = 32
# Words in a signature part; long enough (or "xxxx") that a random
# signature of 342 characters holds one by chance once in ~10^5.
_JWT_SIGNATURE_WORDS = ("signature", "dummy", "example", "sample", "placeholder", "xxxx", "invalid")
_JWT_DOC_CLAIMS = (
    "john doe",
    "jane doe",
    "test user",
    "1234567890",
    "example",
    "dummy",
    "sample",
    "placeholder",
)


# A token whose ``role`` claim names the anonymous public role (Supabase's
# "anon" key, PostgREST's "anonymous"/"public" role) is handed to every
# browser by design: row-level security, not the token, guards the data.
# A "service_role" or "authenticated" token is a credential.
_JWT_PUBLIC_ROLES = frozenset({"anon", "anonymous", "public"})


def _judge_jwt(match: re.Match[str], _text: str) -> _Judged | None:
    header = _b64_json_object(match.group(1))
    algorithm = None if header is None else header.get("alg")
    if not isinstance(algorithm, str):
        return None
    payload = _b64_json_object(match.group(2))
    if payload is None:
        return _judged(match, PREFIX, "structure", "JWT (header valid, payload not JSON)")
    claims = json.dumps(payload).lower()
    label = "JWT (header and claims decode)"
    signature = match.group(3)
    # A signature of a few characters, or one made of words
    # ("dummysignature"), was typed to show a layout.
    unsigned = (
        algorithm.lower() == "none"
        or len(signature) < _JWT_MIN_SIGNATURE
        or any(word in signature.lower() for word in _JWT_SIGNATURE_WORDS)
    )
    if payload.get("role") in _JWT_PUBLIC_ROLES:
        return _Judged(STRUCTURE, "placeholder", "JWT (public anonymous role)", *match.span())
    if unsigned or any(marker in claims for marker in _JWT_DOC_CLAIMS):
        # An unsigned token authenticates nobody: it shows a claim layout.
        # jwt.io's "John Doe" token and its kin: a documentation example.
        return _Judged(STRUCTURE, "placeholder", label, match.start(), match.end())
    live = _jwt_opens_something(claims, _text, match.start())
    return _Judged(STRUCTURE, "structure", label, match.start(), match.end(), live)


# Claims of a token that acts with power: a service role, an administrator,
# a Kubernetes service account, write or wildcard scopes.
_JWT_PRIVILEGED_CLAIMS = (
    "service_role",
    "admin",
    "serviceaccount",
    "superuser",
    '"root"',
    "write",
    '"*"',
    "full_access",
    "offline_access",
)
# Claims of a token published on purpose (Supabase's anon key, a guest
# session): its holder can do what any visitor can. The public roles of
# ``_JWT_PUBLIC_ROLES`` as values anywhere in the claims, and the guest and
# publishable markers: such a token is never live. (Only a ``role`` claim
# naming a public role makes it no secret at all, in ``_judge_jwt``.)
_JWT_PUBLIC_CLAIMS = (
    *(f'"{role}"' for role in sorted(_JWT_PUBLIC_ROLES)),
    '"guest"',
    "publishable",
)
# A JWT sent as a credential: the value of an Authorization header.
_JWT_SENT_CUES = ("bearer", "authorization")
_JWT_SENT_WINDOW = 24


def _jwt_opens_something(claims: str, text: str, start: int) -> bool:
    """A signed JWT is live when its claims grant power, or when it is sent
    as a bearer credential; never when its claims say anyone may hold it."""
    if any(marker in claims for marker in _JWT_PUBLIC_CLAIMS):
        return False
    if any(marker in claims for marker in _JWT_PRIVILEGED_CLAIMS):
        return True
    before = text[max(0, start - _JWT_SENT_WINDOW) : start].lower()
    return any(cue in before for cue in _JWT_SENT_CUES)


# The body may hold real newlines or the two characters "\n" (a key pasted
# into JSON); it never holds a run of five dashes, so the body stops at the
# next marker and the pattern stays linear.
_PEM_BODY = r"(?P<body>(?:[A-Za-z0-9+/=\s:,.]|\\[nr]|-(?!----)){40,20000})"
_PEM = re.compile(
    r"-----BEGIN (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----"
    + _PEM_BODY
    + r"(?P<end>-----END (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----)?"
)
# A header line ("Proc-Type: 4,ENCRYPTED") starts at the start of a letter
# run, never inside one: without the lookbehind a long run of letters is
# rescanned from every position (quadratic).
_PEM_NOISE = re.compile(r"\s|\\[nr]|(?<![A-Za-z-])[A-Za-z-]+: [^\\\n]*")
_PEM_MIN_ENTROPY = 4.5
_PEM_PLACEHOLDERS = (
    "...",
    "\u2026",
    "xxxxx",
    "example",
    "placeholder",
    "redacted",
    "your_",
    "yourkey",
)


def _judge_pem(match: re.Match[str], _text: str) -> _Judged | None:
    body = match.group("body")
    key_material = _PEM_NOISE.sub("", body)
    if len(key_material) < 40:
        return None
    # Real key material is DER in base64 (entropy ~6 bits); a body of
    # "MIIE...", "XXXX" or "<your key>" is a format illustration. The generic
    # placeholder rules do not apply: DER has long "AAAA" runs.
    lowered = body.lower()
    placeholder = shannon_entropy(key_material) < _PEM_MIN_ENTROPY or any(
        marker in lowered for marker in _PEM_PLACEHOLDERS
    )
    # Redact the key material, keep the BEGIN/END lines readable.
    start, end = match.span("body")
    while start < end and match.string[start] in " \t\r\n":
        start += 1
    while end > start and match.string[end - 1] in " \t\r\n":
        end -= 1
    basis = "placeholder" if placeholder else "structure"
    if match.group("end"):
        return _Judged(STRUCTURE, basis, "PEM private key block", start, end)
    return _Judged(PREFIX_EXACT, basis, "PEM private key (no END line)", start, end)


_URL_CREDENTIAL = re.compile(
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]{1,30})://"
    r"(?P<user>[^\s:/@\"'<>\\`]{0,128}):(?P<password>[^\s/@\"'<>\\`]{1,256})@"
    r"(?P<host>[A-Za-z0-9._\-\[\]%]{1,255})"
)
_TEMPLATE_MARKS = ("${", "{{", "<", ">", "%s", "%(", "$(")
_WEAK_PASSWORDS = frozenset(
    {
        "pass",
        "pwd",
        "pw",
        "secret",
        "user",
        "admin",
        "root",
        "guest",
        "default",
        "postgres",
        "mysql",
        "redis",
        "mongo",
        "key",
        "foo",
        "bar",
        "baz",
        "qux",
        "abc",
        "abc123",
        "letmein",
        "hunter2",
    }
)
# Hosts of documentation: RFC 2606 names and the words people write in
# place of a real host ("user:pass@host:port").
_PLACEHOLDER_HOSTS = frozenset({"host", "hostname", "server", "domain", "db", "database", "myhost"})


def _placeholder_host(host: str) -> bool:
    name = host.split(":", 1)[0]
    return (
        name in _PLACEHOLDER_HOSTS
        or name.startswith(("your", "<", "{", "$"))
        or "example." in name
        or name.endswith((".example", ".test", ".invalid"))
        or "xxx" in name
    )


_LOCAL_HOSTS = ("localhost", "127.0.0.1", "0.0.0.0", "[::1]")


def _weak_password(password: str, user: str) -> bool:
    """Template variables, default and placeholder passwords."""
    # A masked value is a run of stars ("****", "**hidden**"); one star
    # in front of drawn characters is part of a password.
    if password.startswith(("$", "{", "[", "%", "**", ":")) or any(
        mark in password for mark in _TEMPLATE_MARKS
    ):
        return True
    lowered = password.lower()
    return (
        len(password) < 4
        or lowered in _WEAK_PASSWORDS
        or lowered == user.lower()
        or _is_placeholder(password)
    )


def _judge_url_credential(match: re.Match[str], _text: str) -> _Judged | None:
    password = unquote(match.group("password"))
    if password.startswith(("$", "{", "<", "%(")) or "${" in password or "{{" in password:
        return None  # a template variable is no value at all
    host = match.group("host").lower()
    start, end = match.span("password")
    if _weak_password(password, match.group("user")) or _placeholder_host(host):
        return _Judged(PREFIX, "placeholder", "URL with placeholder password", start, end)
    if host.startswith(_LOCAL_HOSTS):
        return _Judged(ASSIGNMENT, "assignment", "URL with password (local host)", start, end)
    live = _strong_password(password) and _real_host(host)
    label = f"{match.group('scheme')} URL with password"
    return _Judged(PREFIX, "assignment", label, start, end, live)


def _real_host(host: str) -> bool:
    """A host a client reaches over a network: a dotted name or address that
    is neither this machine nor a name reserved for local use."""
    name = host.split(":", 1)[0].strip("[]")
    return "." in name and not name.endswith((".local", ".localhost", ".localdomain"))


_STRONG_MIN_LENGTH = 8


def _strong_password(password: str) -> bool:
    """A password that was drawn, or typed with care (eight characters or
    more of three classes): one that opens the account as it stands. A
    short or one-word password is of unknown strength: reviewable."""
    if _drawn_password(password):
        return True
    return len(password) >= _STRONG_MIN_LENGTH and _character_classes(password) >= 3


# ``Password=...;`` inside an ADO / JDBC / libpq key-value connection string.
_KV_CONNECTION = re.compile(
    r"(?<![a-z0-9_])(?:password|pwd|accountkey|sharedaccesskey)\s{0,3}=\s{0,3}"
    r"(?P<value>[^;&'\"\s]{1,256})"
)
_KV_CONNECTION_CUES = (
    "server=",
    "data source=",
    "host=",
    "uid=",
    "user id=",
    "dbname=",
    "://",
    "accountname=",
    "endpoint=",
)


# A braced ODBC value that is not a template's name: no brace, "$" or
# space inside, and not an identifier.
_ODBC_BRACED = re.compile(r"\{(?![A-Za-z_][A-Za-z0-9_]*\})[^{}$\s]{4,254}\}")


def _judge_kv_connection(match: re.Match[str], text: str) -> _Judged | None:
    around = _window(text, match.start(), match.end(), _PAIR_WINDOW).lower()
    if not any(cue in around for cue in _KV_CONNECTION_CUES):
        return None
    start, end = match.span("value")
    value = text[start:end]
    if _ODBC_BRACED.fullmatch(value):
        # ODBC quotes a value holding ";" or "}" in braces ("Pwd={fT*A4...};"):
        # the password is inside. "{password}" and "{{PWD}}" are templates.
        start, end = start + 1, end - 1
        value = text[start:end]
    if value.startswith(("$", "{", "<", "%")) or any(mark in value for mark in _TEMPLATE_MARKS):
        return None
    if _weak_password(value, ""):
        return _Judged(
            PREFIX, "placeholder", "connection string with placeholder password", start, end
        )
    live = _strong_password(value) and not any(marker in around for marker in _LOCAL_STORES)
    return _Judged(PREFIX, "assignment", "connection string with password", start, end, live)


# A key-value connection string to this machine or to a storage emulator
# (Azurite's published development account): no live credential.
_LOCAL_STORES = (
    "localhost",
    "127.0.0.1",
    "0.0.0.0",
    "[::1]",
    "(localdb)",
    "usedevelopmentstorage",
    "devstoreaccount1",
    "server=.;",
    "host.docker.internal",
)


# ``api_key = "..."``, ``password: ...``, ``Authorization: Bearer ...``:
# a credential word given a value. The value must look like a credential
# (eight characters or more, two character classes, some entropy) so
# "password: the account password" stays a sentence.
# After the credential word: its separator and the value.
_ASSIGNED_VALUE = (
    # Quotes may come JSON-escaped (``\\"``): a key quoted inside an error
    # message or a serialized object.
    r"(?:\\?[\"'])?\s{0,3}(?P<sep>[:=\uff1a]|=>|\bis\b|\s)\s{0,3}(?:\\?[\"'`])?"
    # The value is not itself the next credential word: in "api_key:
    # password = ..." the match must start again at "password".
    # "api_key: X-API-Key = ..." and "api_key: integration key = ..." name
    # the credential again: its value comes after the second name.
    r"(?!(?:x-)?(?:password|passwd|passphrase|passwort|kennwort|secret|token|api[_\-]?key"
    r"|(?:integration|signing|private|app(?:lication)?|auth|access)[_\- ]?key"
    r"|(?:auth|access|refresh)[_\- ]?token|client[_\- ]?secret|bearer)\b)"
    r"(?P<value>[a-z0-9!#$%&*+,./:;=?@^_|~\-]{8,256})"
)
_ASSIGNMENT = re.compile(
    r"(?P<word>(?<![a-z0-9])(?:password|passwd|pwd|pw|passphrase|passwort|secret"
    r"|client[_\- ]?secret|api[_\- ]?key|apikey|access[_\- ]?key|secret[_\- ]?key"
    r"|access[_\- ]?token|auth[_\- ]?(?:token|key)|refresh[_\- ]?token|bearer|token"
    # Keys named for what they are for (a PagerDuty integration key, a
    # Datadog application key, a signing key, a wallet's private key);
    # "webhook secret" and "signing secret" end in "secret", a word of
    # their own.
    r"|app(?:lication)?[_\- ]?key|integration[_\- ]?key|signing[_\- ]?key|private[_\- ]?key"
    # A PagerDuty routing key, a Segment write key, an Algolia admin key, a
    # Meilisearch master key, an FCM server key: token-shaped values only
    # ("routing_key: orders.created" is a queue's routing).
    r"|(?:routing|service|write|ingest|master|admin|server)[_\- ]?key"
    # "DB_PASS=", "smtp_pass:": only with "=" or ":" (see _value_fits_word).
    r"|pass)"
    # Glued to the word before in configuration names: "PGPASSWORD=",
    # "rootPassword:", "clientSecret:", "webhooksecret=".
    r"|(?<=[a-z])(?:password|passwd|passphrase|secret))" + _ASSIGNED_VALUE
)
# The password word of the other languages the directive work reads
# (German, French, Spanish, Portuguese, Dutch, Swedish, Polish, Turkish,
# Russian, Chinese, Japanese, Korean); German "passwort" is above: it
# begins with "pass". Each word is also where its match begins.
_FOREIGN_PASSWORD_WORDS = (
    "kennwort",
    "mot de passe",
    "contrase\u00f1a",
    "contrasena",
    "senha",
    "wachtwoord",
    "l\u00f6senord",
    "has\u0142o",
    "\u015fifre",
    "\u043f\u0430\u0440\u043e\u043b\u044c",
    "\u5bc6\u7801",
    "\u5bc6\u78bc",
    "\u30d1\u30b9\u30ef\u30fc\u30c9",
    "\ube44\ubc00\ubc88\ud638",
)
_FOREIGN_ASSIGNMENT = re.compile(
    r"(?<![a-z0-9])(?P<word>" + "|".join(_FOREIGN_PASSWORD_WORDS) + ")" + _ASSIGNED_VALUE
)


def _foreign_key_words() -> tuple[tuple[str, ...], frozenset[str]]:
    """The key and token words of other languages (``secrets/words.json``),
    longest first so "clave de api" is preferred to "clave", and the plain
    words for "key" among them."""
    data = _secret_words()
    plain = frozenset(word for group in data["plain_key_words"].values() for word in group)
    words = plain | {word for group in data["key_words"].values() for word in group}
    return tuple(sorted(words, key=lambda word: (-len(word), word))), plain


# The plain word for "key" in each language (``_PLAIN_KEY_WORDS``): a
# primary key, an idempotency key or a hash follows it as often as a
# secret does.
_FOREIGN_KEY_WORDS, _PLAIN_KEY_WORDS = _foreign_key_words()
# "Токен доступа: ...", "API キー（本番）: ...": up to two words of the
# language may follow the key word before its value. Bounded, so linear.
_FOREIGN_KEY_ASSIGNMENT = re.compile(
    r"(?<![a-z0-9])(?P<word>"
    + "|".join(re.escape(word) for word in _FOREIGN_KEY_WORDS)
    + r")(?:[^\S\n]{0,2}[^\sa-z0-9:=\uff1a\"'`]{1,16}){0,2}"
    + _ASSIGNED_VALUE
)
# The literals the credential words of ``_ASSIGNMENT`` begin with.
_ASSIGNMENT_STARTS = (
    "pass",
    "pw",
    "secret",
    "client",
    "api",
    "access",
    "auth",
    "refresh",
    "bearer",
    "token",
    "app",
    "integration",
    "signing",
    "private",
    "routing",
    "service",
    "write",
    "ingest",
    "master",
    "admin",
    "server",
)
# After a bare space ("Bearer abc...", "token abc..."), only a token-shaped
# value counts: "token (20-character body)" and "token for the API" are prose.
_BARE_TOKEN = re.compile(r"[A-Za-z0-9._~+/\-]{16,}=*")
_BARE_WORDS = frozenset({"bearer", "token", "secret"})
# Password words: after a bare space ("log in with password Tr0ub4dor&3x")
# a value of three character classes with a digit is a password; "password
# reset link" and "password field" are prose.
_PASSWORD_WORDS = frozenset(
    {"password", "passwd", "pwd", "pw", "passphrase", "passwort", *_FOREIGN_PASSWORD_WORDS}
)
# The credential words written before 2026 with "_" or "-" only: after
# them any credential-shaped value counts when a ":" or "=" assigns it.
_LENIENT_WORDS = re.compile(
    r"secret|client[_\-]?secret|api[_\-]?key|apikey|access[_\-]?key|secret[_\-]?key"
    r"|access[_\-]?token|auth[_\-]?token|refresh[_\-]?token|bearer|token"
)
# A random hex key (a Datadog, PagerDuty or Twilio key is 32 hex digits):
# two character classes only, so it needs a long run to count.
_HEX_KEY = re.compile(r"[0-9a-f]{32,128}")


def _token_shaped(value: str) -> bool:
    """A value that looks issued, not typed: token characters, 16 or more,
    three character classes or a long hex run with letters and digits."""
    if not _BARE_TOKEN.fullmatch(value):
        return False
    if _character_classes(value) >= 3:
        return True
    # A wallet's private key is written "0x" + 64 hex digits.
    lowered = value.lower().removeprefix("0x")
    return bool(_HEX_KEY.fullmatch(lowered)) and not lowered.isdigit() and not lowered.isalpha()


def _data_key_words() -> frozenset[str]:
    return frozenset(_secret_words()["data_key_words"])


_DATA_KEY_WORDS = _data_key_words()


def names_data_key(qualifiers: Iterable[str]) -> bool:
    """Do the words before a final "key" in a parameter name name a key of
    data (``sort``, ``cache``, ``idempotency``: ``secrets/words.json``'s
    ``data_key_words``) rather than a service's key?"""
    return not _DATA_KEY_WORDS.isdisjoint(qualifiers)


_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")


def issued_key_value(value: str) -> bool:
    """Does a parameter's value look like an issued key (``_token_shaped``:
    16 or more token characters of three classes, or a long hex run), not
    a UUID (an idempotency or record key the client generates), a dotted
    or colon-joined name (``app.header.title``, ``user:42:profile``) or a
    template?"""
    value = value.strip()
    return (
        _token_shaped(value)
        and not _UUID.fullmatch(value)
        and "." not in value
        and not _is_placeholder(value)
    )


def _value_fits_word(word: str, value: str, *, bare: bool) -> bool:
    """Whether ``value`` after the credential word ``word`` is a credential.

    Password words take a password (after a bare space, one of three
    classes with a digit). The older key and token words take any
    credential-shaped value after ":" or "=", and a token-shaped one after
    a space. Every other word (a spaced "api key", an "app key", a
    "signing key") takes only a token-shaped value: "app_key: my.app.v2"
    and "signing key: see the dashboard" are not keys.
    """
    if word in _PASSWORD_WORDS:
        return not bare or (_character_classes(value) >= 3 and bool(set(value) & _DIGITS))
    if word == "pass":
        # "pass the token", "pass through": only an assignment counts.
        return not bare and _character_classes(value) >= 3
    if word in _PLAIN_KEY_WORDS:
        return _BARE_TOKEN.fullmatch(value) is not None and _character_classes(value) >= 3
    if _LENIENT_WORDS.fullmatch(word):
        if not bare:
            return True
        return (
            word in _BARE_WORDS
            and _BARE_TOKEN.fullmatch(value) is not None
            and (_character_classes(value) >= 3)
        )
    return _token_shaped(value)


_ASSIGNMENT_MIN_ENTROPY = 3.0


_LOWER = frozenset(string.ascii_lowercase)
_UPPER = frozenset(string.ascii_uppercase)
_DIGITS = frozenset(string.digits)
_ALPHANUMERIC = _LOWER | _UPPER | _DIGITS


def _character_classes(value: str) -> int:
    """How many of lower, upper, digit and other characters ``value`` uses."""
    chars = set(value)
    return (
        bool(chars & _LOWER)
        + bool(chars & _UPPER)
        + bool(chars & _DIGITS)
        + bool(chars - _ALPHANUMERIC)
    )


def _credential_shaped(value: str) -> bool:
    """A value that could be a password or key: eight characters or more,
    no spaces, a digit or symbol, two character classes and some entropy.
    "Required", "the account password" and ``${TOKEN}`` are not."""
    if len(value) < 8 or "://" in value or value.startswith(("$", "{", "<", "%", "[")):
        return False
    if any(mark in value for mark in _TEMPLATE_MARKS) or _character_classes(value) < 2:
        return False
    if any(c.isspace() for c in value):
        return False
    if not set(value) & _DIGITS and not set(value[1:]) - _ALPHANUMERIC:
        return False  # a capitalised word ("Required") is prose
    return shannon_entropy(value) >= _ASSIGNMENT_MIN_ENTROPY


def credential_value(value: str) -> bool:
    """True when ``value`` alone (a default of a ``password`` parameter,
    say) looks like a real credential rather than a word or placeholder."""
    value = value.strip()
    if len(value) > 256 or _NOT_A_CREDENTIAL.search(value):
        return False
    if value.startswith(_PUBLIC_KEY_PREFIXES):
        return False  # a publishable key in a "public_token" default
    return _credential_shaped(value) and not _is_placeholder(value)


# A parameter's description that calls its value a credential key: "Steam
# Web API publisher key", "Admin key of the live app", "カカオ アプリ Admin
# キー", "clave de API". A qualifier that makes a plain "key" a credential
# (api, admin, secret, publisher ...) before a word for "key" in any
# language of ``secrets/words.json``, or one of its longer key words alone.
# Not: "idempotency key", "sort key", "primary key", "public key", "cache
# key": their qualifiers say the key opens nothing.
_KEY_QUALIFIERS = (
    "api|admin|secret|access|publisher|server|master|private|app|service|management|root|write"
)
_DESCRIBED_KEY = re.compile(
    rf"(?<![a-z0-9])(?:{_KEY_QUALIFIERS})[\s_-]{{0,2}}(?:[^\W\d_]{{1,16}}\s{{1,2}})?"
    r"(?:key|" + "|".join(re.escape(word) for word in sorted(_PLAIN_KEY_WORDS)) + r")(?![a-z])"
    r"|(?<![a-z0-9])(?:"
    + "|".join(re.escape(word) for word in _FOREIGN_KEY_WORDS if word not in _PLAIN_KEY_WORDS)
    + r")(?![a-z])",
    re.IGNORECASE,
)


def describes_credential_key(text: str) -> bool:
    """Does a parameter's description call its value a credential key?"""
    return _DESCRIBED_KEY.search(text) is not None


# Object keys that name a credential: in a default object, a header map or
# connection settings, the value under "password", "X-Api-Key",
# "clientSecret" or "Authorization" is the credential itself.
_KEY_WORD_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+")
_CREDENTIAL_KEY_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "credential",
        "credentials",
        "authorization",
        "auth",
        "bearer",
        "cookie",
    }
)
_CREDENTIAL_KEY_PAIRS = ("_api_key_", "_access_key_", "_private_key_", "_app_key_")
# A paging token ("page_token", "next_token", "nextToken",
# "continuation_token") is an opaque cursor the server handed back with the
# last page, often base64 JSON ("eyJpZCI6..."): it says where a listing
# resumes, not who the caller is. Not: "access_token", "auth_token".
_PAGING_WORDS = frozenset(
    {"page", "next", "prev", "previous", "pagination", "continuation", "cursor"}
)
# Words that make the key describe a credential rather than hold one:
# "token_url", "secret_name", "password_hint", "max_tokens", "auth_type".
_CREDENTIAL_KEY_META = frozenset(
    {
        "name",
        "id",
        "type",
        "url",
        "uri",
        "path",
        "file",
        "env",
        "var",
        "field",
        "header",
        "count",
        "limit",
        "max",
        "min",
        "length",
        "ttl",
        "expiry",
        "expires",
        "expiration",
        "endpoint",
        "format",
        "policy",
        "hint",
        "label",
        "description",
        "placeholder",
        "required",
        "prefix",
        "scope",
        "scopes",
        "method",
        "mode",
        "provider",
        "location",
        "ref",
        # Where a credential is issued or valid, not the credential: an
        # "authDomain" (Firebase), a "cookie_domain", an "auth_host".
        "domain",
        "host",
        "realm",
        "issuer",
        # Published on purpose: a "public_token" default is no leak.
        "public",
        "publishable",
        # A push "device_token" addresses one app install (APNs, FCM): it
        # lets nobody act as anyone.
        "device",
        *_PAGING_WORDS,
    }
)


def _key_words(key: str) -> list[str]:
    return [word.lower() for word in _KEY_WORD_SPLIT.split(key) if word]


def about_credential(key: str) -> bool:
    """Does a key or parameter name describe a credential rather than hold
    one (``session_name``, ``token_url``, ``public_token``)?"""
    return not _CREDENTIAL_KEY_META.isdisjoint(_key_words(key))


def credential_key(key: str) -> bool:
    """Does an object key name a credential (``password``, ``X-Api-Key``,
    ``clientSecret``), rather than something about one (``token_url``,
    ``secret_name``, ``max_tokens``)?"""
    words = _key_words(key)
    if not words or not _CREDENTIAL_KEY_META.isdisjoint(words):
        return False
    if not _CREDENTIAL_KEY_WORDS.isdisjoint(words):
        return True
    joined = "_" + "_".join(words) + "_"
    return any(pair in joined for pair in _CREDENTIAL_KEY_PAIRS)


# Paths ("~/.aws/credentials"), file names ("token.json"), e-mail addresses
# and URLs name where a credential lives, or who it belongs to; they are not one.
_NOT_A_CREDENTIAL = re.compile(
    r"^[~./\\]|[/\\]|^[^@\s]+@[^@\s]+\.[a-z]{2,}$"
    r"|\.(?:json|ya?ml|txt|pem|key|crt|env|ini|cfg|conf|toml|p12|pfx|jks)$",
    re.IGNORECASE,
)


def _judge_assignment(match: re.Match[str], text: str) -> _Judged | None:
    value = text[match.start("value") : match.end("value")].rstrip(".,;:)]}'\"`")
    written = value
    if match.start() and text[match.start() - 1] in "?&":
        # A query parameter ("?api_key=...&limit=10"): its value ends at
        # "&"; the rest of the query still says whether the URL is a
        # documentation example ("...&issuer=Example").
        value = value.split("&", 1)[0]
    if not _credential_shaped(value) or value.startswith(_PUBLIC_KEY_PREFIXES):
        return None
    word = match.group("word")
    if _names_a_page(text, match.start("word")):
        return None
    bare = not match.group("sep").strip()
    header = _sent_as_header(word, text, match.start())
    # "Authorization: Token 9f3c..." (a Django REST framework or Sentry
    # token is 40 hex digits): the scheme word of an Authorization header
    # is followed by the credential itself, whatever its alphabet. In prose
    # ("token for the API") the value is a word, not token-shaped.
    sent = bare and header and _token_shaped(value)
    if not sent and not _value_fits_word(word, value, bare=bare):
        return None
    start = match.start("value")
    end = start + len(value)
    if _is_placeholder(written):
        return _Judged(ASSIGNMENT, "placeholder", f"{word} with placeholder value", start, end)
    live = header and _issued_token(value)
    return _Judged(ASSIGNMENT, "assignment", f"value assigned to {word}", start, end, live)


_IDENTIFIER_CHARS = frozenset(string.ascii_letters + string.digits + "_-")


def _names_a_page(text: str, start: int) -> bool:
    """Is the credential word the end of a paging name glued to it
    ("next_token=previous_result['nextToken']", "page-token: eyJ...",
    "until next_token is null/empty")? A paging token is a cursor, not a
    credential. Not: "access_token=", "auth-token:" or a bare "token=",
    which still read as credentials."""
    begin = start
    while begin > 0 and text[begin - 1] in _IDENTIFIER_CHARS:
        begin -= 1
    return not _PAGING_WORDS.isdisjoint(_key_words(text[begin:start]))


_HEADER_WINDOW = 24
_ISSUED_MIN_LENGTH = 20
_ISSUED_MIN_ENTROPY = 4.0


def _sent_as_header(word: str, text: str, start: int) -> bool:
    """The value is what a client sends in an ``Authorization`` header
    ("Bearer ...", "Authorization: token ..."): a credential in use, not a
    setting's name."""
    if word == "bearer":
        return True
    return "authorization" in text[max(0, start - _HEADER_WINDOW) : start].lower()


def _issued_token(value: str) -> bool:
    """Twenty characters or more of three classes and high entropy: drawn
    by an issuer ("BfvLw3ZoIx8Dj4y7..."), not typed ("MyServiceToken2024")."""
    return (
        len(value) >= _ISSUED_MIN_LENGTH
        and _character_classes(value) >= 3
        and shannon_entropy(value) >= _ISSUED_MIN_ENTROPY
    )


_BASIC_AUTH = re.compile(r"(?<![A-Za-z0-9])Basic\s{1,3}(?P<value>[A-Za-z0-9+/]{8,500}={0,2})")


def _judge_basic_auth(match: re.Match[str], _text: str) -> _Judged | None:
    raw = _b64decode(match.group("value"))
    decoded = _printable_text(raw) if raw is not None else None
    if decoded is None or ":" not in decoded:
        return None
    user, _, password = decoded.partition(":")
    start, end = match.span("value")
    if _weak_password(password, user):
        return _Judged(
            ASSIGNMENT, "placeholder", "HTTP Basic credentials (placeholder)", start, end
        )
    live = _drawn_password(password)
    return _Judged(PREFIX, "structure", "HTTP Basic credentials (user:password)", start, end, live)


# "curl -u deploy:S3cr3t... https://...", "--user admin:...": a login on
# a command line (HTTP Basic without the header). A placeholder or a word
# ("user:password", "-u $USER:$TOKEN") is a format; "-u" followed by a
# value without ":" (a Unix user, "git log -u") is no login.
_CLI_LOGIN = re.compile(
    r"(?<![\w-])(?:-u|--user)(?:[ \t]{1,3}|=)[\"']?"
    r"(?P<user>[^\s:\"'`]{1,64}):(?P<password>[^\s\"'`]{4,128})"
)


def _judge_cli_login(match: re.Match[str], _text: str) -> _Judged | None:
    user, password = match.group("user"), match.group("password")
    start, end = match.span("password")
    if _weak_password(password, user):
        return _Judged(ASSIGNMENT, "placeholder", "command-line login (placeholder)", start, end)
    if not _credential_shaped(password):
        return None
    return _Judged(ASSIGNMENT, "assignment", "command-line login (user:password)", start, end)


# A percent-encoded run: URL characters and "%XX" escapes, three escapes at
# least (a query string's "%20" is one). Each piece is one alternative of
# fixed width, so the run is linear.
_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9_.~+/=&:\-]){16,1024}")
_PERCENT_MIN_ESCAPES = 3


def _judge_percent_encoded(match: re.Match[str], _text: str) -> _Judged | None:
    """A secret percent-encoded (``%73%6B%5F%6C%69%76%65...``, a .env in a
    query string): judged as the most confident real secret of its decoded
    text, reported and redacted over the encoded run."""
    run = match.group()
    if run.count("%") < _PERCENT_MIN_ESCAPES:
        return None
    best = _strongest_real_secret(unquote(run))
    if best is None:
        return None
    label = best.label + ", percent-encoded"
    return _Judged(best.confidence, best.basis, label, match.start(), match.end(), best.live)


def _strongest_real_secret(decoded: str) -> SecretMatch | None:
    """The most confident secret a provider or assignment rule finds in a
    decoded text: placeholders and entropy-only values do not count, so a
    decoded sentence of random-looking words is no secret."""
    inner = [
        found
        for found in _scan(decoded, _Budget(None))
        if not found.placeholder and found.kind != "high_entropy" and found.confidence >= ASSIGNMENT
    ]
    return max(inner, key=lambda found: found.confidence) if inner else None


def _occurrences(haystack: str, literals: tuple[str, ...]) -> list[int]:
    """Every offset where one of ``literals`` occurs (overlaps included), sorted."""
    found: set[int] = set()
    for literal in literals:
        at = haystack.find(literal)
        while at != -1:
            found.add(at)
            at = haystack.find(literal, at + 1)
    return sorted(found)


def _at(*literals: str) -> Callable[[str], list[int]]:
    """``begins`` for a pattern whose every match starts with one of ``literals``."""
    if len(literals) < _AUTOMATON_LITERALS:
        return functools.partial(_occurrences, literals=literals)
    return functools.partial(_automaton_occurrences, automaton=_literal_automaton(literals))


#: From this many literals on, one automaton pass finds their occurrences
#: faster than a C substring search per literal, each of which reads the
#: whole text: the assignment words ("pass", "secret", "token", "api", ...)
#: are two dozen, and common in prose.
_AUTOMATON_LITERALS = 6


def _literal_automaton(literals: Iterable[str]) -> Any:
    """An Aho-Corasick automaton over ``literals``, each keyed to its length."""
    automaton = ahocorasick.Automaton()
    for literal in literals:
        automaton.add_word(literal, len(literal))
    automaton.make_automaton()
    return automaton


def _automaton_occurrences(haystack: str, automaton: Any) -> list[int]:
    """``_occurrences`` of the literals of ``automaton`` (``_literal_automaton``):
    it reports every occurrence of every literal, overlapping ones too."""
    return sorted({end - length + 1 for end, length in automaton.iter(haystack)})


def _class_table(members: str) -> bytes:
    """A ``bytes.translate`` table: 1 for the (ASCII) ``members``, 0 for
    every other byte (``_run_starts``)."""
    return class_table({members.encode("ascii"): _IN_CLASS}, _OUT_OF_CLASS)


_IN_CLASS, _OUT_OF_CLASS = b"\x01", b"\x00"


def _run_starts(haystack: str, table: bytes, length: int) -> list[int]:
    """Where each run of ``length`` or more characters of one ASCII class
    (``table``, from ``_class_table``) starts (``class_runs``).

    A pattern that matches only a whole run of its class (a look-behind
    for the class, or a greedy run that a search would start at the run's
    first character) is then tried only there, instead of at every
    position of the text.
    """
    return list(_iter_run_starts(_class_bytes(haystack, table), length))


def _class_bytes(text: str, table: bytes) -> bytes:
    """``text`` as one class byte per character (``_run_starts``)."""
    return text.encode("latin-1", "replace").translate(table)


def _iter_run_starts(classes: bytes, length: int) -> Iterator[int]:
    """``_run_starts`` of class bytes, one at a time."""
    return class_runs(classes, _IN_CLASS * length, _OUT_OF_CLASS)


# The class of ``_AWS_SECRET``.
_AWS_SECRET_TABLE = _class_table(string.ascii_letters + string.digits + "/+")


def _discord_starts(haystack: str) -> list[int]:
    """``begins`` of ``_DISCORD``: where an id run up to a dot starts."""
    return [run.start() for run in _DISCORD_ID_RUN.finditer(haystack)]


# The scheme of ``_URL_CREDENTIAL`` (at most 31 characters) runs up to
# its "://"; its characters exclude ":", so each "://" has one candidate.
_SCHEME_TAIL = re.compile(r"[A-Za-z0-9+.\-]{1,31}\Z")


def _scheme_starts(haystack: str) -> list[int]:
    """``begins`` of ``_URL_CREDENTIAL``: where the scheme before each "://"
    starts (a run of scheme characters longer than a scheme gives an
    offset whose look-behind fails, as a search's would)."""
    starts = []
    for separator in _occurrences(haystack, ("://",)):
        tail = _SCHEME_TAIL.search(haystack, max(0, separator - 31), separator)
        if tail is not None:
            starts.append(tail.start())
    return starts


_RULES: tuple[_Rule, ...] = (
    _Rule("aws_access_key", ("AKIA", "ASIA", "ABIA", "ACCA"), _AWS_KEY_ID, _judge_aws_key_id),
    _Rule(
        "aws_secret_key",
        # The secret half is looked for after an AWS word, or beside its key
        # id (whose prefixes, case-folded, are the other triggers).
        ("aws", "secret", "akia", "asia", "abia", "acca"),
        _AWS_SECRET,
        _judge_aws_secret,
        casefold=True,
        # A match is a whole run of its class (look-behind and look-ahead).
        begins=functools.partial(_run_starts, table=_AWS_SECRET_TABLE, length=40),
    ),
    _Rule(
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        _GITHUB_CLASSIC,
        _judge_github_classic,
    ),
    _Rule("github_token", ("github_pat_",), _GITHUB_PAT, _judge_github_pat),
    _Rule("gitlab_token", _GITLAB_PREFIXES, _GITLAB, _judge_gitlab),
    _Rule("slack_token", ("xox", "xapp-"), _SLACK_STRUCTURED, _judge_slack_structured),
    _Rule("slack_token", ("xox", "xapp-"), _SLACK_GENERIC, _judge_slack_generic),
    _Rule("slack_webhook", ("hooks.slack.com",), _SLACK_WEBHOOK, _judge_slack_webhook),
    _Rule("stripe_key", ("_live_",), _STRIPE, _judge_stripe),
    _Rule("anthropic_api_key", ("sk-ant-",), _ANTHROPIC, _judge_anthropic),
    _Rule("openai_api_key", ("sk-",), _OPENAI, _judge_openai),
    _Rule("google_api_key", ("AIza",), _GOOGLE, _judge_google),
    _Rule("huggingface_token", ("hf_", "api_org_"), _HUGGINGFACE, _judge_huggingface),
    _Rule("npm_token", ("npm_",), _NPM, _judge_npm),
    _Rule("pypi_token", ("pypi-Ag",), _PYPI, _judge_pypi),
    _Rule("sendgrid_api_key", ("SG.",), _SENDGRID, _judge_sendgrid),
    _Rule("twilio_key", ("SK", "AC"), _TWILIO, _judge_twilio, begins=_at("SK", "AC")),
    *(
        _Rule(token.kind, token.triggers, token.pattern, _prefix_judge(token.label))
        for token in _PREFIX_TOKENS
    ),
    *(
        _Rule(
            entry.kind,
            entry.triggers,
            entry.pattern,
            _table_judge(entry),
            entry.casefold,
            # Tried only where a prefix (or a declared start) occurs, not
            # at every position.
            begins=_at(*(entry.prefixes or entry.starts))
            if entry.prefixes or entry.starts
            else None,
        )
        for entry in _TABLE
    ),
    _Rule("discord_bot_token", _DISCORD_TRIGGERS, _DISCORD, _judge_discord, begins=_discord_starts),
    _Rule("jwt", ("eyJ", "eyA"), _JWT, _judge_jwt),
    _Rule("private_key", ("PRIVATE KEY",), _PEM, _judge_pem),
    _Rule(
        "connection_string",
        ("://",),
        _URL_CREDENTIAL,
        _judge_url_credential,
        begins=_scheme_starts,
    ),
    _Rule(
        "connection_string",
        ("password", "pwd", "accountkey", "sharedaccesskey"),
        _KV_CONNECTION,
        _judge_kv_connection,
        casefold=True,
        on_lowered=True,
        begins=_at("password", "pwd", "accountkey", "sharedaccesskey"),
    ),
    _Rule(
        "credential_assignment",
        ("pass", "pw", "secret", "key", "token", "bearer"),
        _ASSIGNMENT,
        _judge_assignment,
        casefold=True,
        on_lowered=True,
        begins=_at(*_ASSIGNMENT_STARTS),
    ),
    # The password words of other languages: a rule of its own, so English
    # text pays no search for them.
    _Rule(
        "credential_assignment",
        _FOREIGN_PASSWORD_WORDS,
        _FOREIGN_ASSIGNMENT,
        _judge_assignment,
        casefold=True,
        on_lowered=True,
        begins=_at(*_FOREIGN_PASSWORD_WORDS),
    ),
    # Their key and token words: a token-shaped value only (see
    # ``_value_fits_word``), as after "api key".
    _Rule(
        "credential_assignment",
        _FOREIGN_KEY_WORDS,
        _FOREIGN_KEY_ASSIGNMENT,
        _judge_assignment,
        casefold=True,
        on_lowered=True,
        begins=_at(*_FOREIGN_KEY_WORDS),
    ),
    _Rule("credential_assignment", ("Basic",), _BASIC_AUTH, _judge_basic_auth, begins=_at("Basic")),
    _Rule(
        "credential_assignment",
        ("-u", "--user"),
        _CLI_LOGIN,
        _judge_cli_login,
        begins=_at("-u", "--user"),
    ),
    _Rule(
        "credential_assignment",
        ("%2", "%3", "%4", "%5", "%6", "%7"),
        _PERCENT_RUN,
        _judge_percent_encoded,
    ),
)

# ---------------------------------------------------------------- entropy

# Candidate tokens: runs of base64 / base64url characters. No lookaround and
# a class that excludes "=", so finditer takes maximal runs in one pass.
_TOKEN_RUN = re.compile(r"[A-Za-z0-9+/_\-]{24,}={0,2}")
_TOKEN_TABLE = _class_table(string.ascii_letters + string.digits + "+/_-")
ENTROPY_MIN_LENGTH = 24
_TOKEN_NEEDLE = b"\x01" * ENTROPY_MIN_LENGTH
#: Anchoring pays while long runs are rare: at most one per this many
#: characters (an anchored run costs a few Python steps).
_RUN_SPACING = 64
ENTROPY_MAX_LENGTH = 512
ENTROPY_THRESHOLD = 4.5
# With a credential word just before it, a shorter random value (whose
# entropy cannot reach 4.5: 24 characters give at most 4.58) still counts.
ENTROPY_THRESHOLD_WITH_CONTEXT = 3.8
# Random base62 switches character class at ~62% of positions; camelCase
# identifiers and paths at word boundaries only (~20-30%).
_MIN_SWITCH_RATIO = 0.4
# Keys published on purpose: Stripe publishable keys, Mapbox public tokens.
_PUBLIC_KEY_PREFIXES = ("pk_live_", "pk_test_", "pk.eyJ")
# An entropy run stops at ".": the body of a "pk.eyJ..." token starts after it.
_MAPBOX_PUBLIC = "pk."
_HASH_LABELS = ("sha1:", "sha256:", "sha384:", "sha512:", "md5:", "sha256-", "sha384-", "sha512-")
_SEPARATORS = re.compile(r"[^0-9A-Za-z]+")
_HEX_OR_UUID = re.compile(r"[0-9a-fA-F\-]+")
# base64 of PNG, JPEG, GIF, WebP, SVG, PDF, ZIP and gzip data.
# base64 of PNG, JPEG, GIF, WebP, SVG, XML, PDF, ZIP and gzip data, and of
# SSH public key blobs ("ssh-rsa AAAAB3NzaC1yc2E...").
_ENCODED_FILE_PREFIXES = (
    "iVBORw0KGgo",
    "/9j/",
    "9j/",
    "AAAAB3NzaC1",
    "AAAAC3NzaC1",
    "AAAAE2VjZHNh",
    "R0lGOD",
    "UklGR",
    "PHN2Zy",
    "PD94bW",
    "JVBERi",
    "UEsDB",
    "H4sI",
)


def _switch_ratio(value: str) -> float:
    alphanumeric = _SEPARATORS.sub("", value)
    return (len(_CLASS_RUNS.findall(alphanumeric)) - 1) / max(1, len(alphanumeric) - 1)


def _encoded_text(value: str) -> str | None:
    """The text ``value`` encodes, when it is base64 of printable text (a
    message, not a key); else None."""
    raw = _b64decode(value)
    return None if raw is None else _printable_text(raw)


# A decoded text worth a scan of its own: an assignment (":" or "="), or a
# run of token characters. Base64 of prose ("Hello {name}, your order has
# shipped") has neither and is dropped at the cost of one search.
_ENCODED_CREDENTIAL_HINT = re.compile(r"[=:]|[A-Za-z0-9_\-]{16}")


# "user:password" in base64 without the word "Basic": an .npmrc ``_auth=``,
# a Docker config's ``"auth": "..."``.
_USER_PASSWORD = re.compile(r"[^\s:]{1,64}:[^\s]{8,128}")


_DRAWN_MIN_LENGTH = 10
_DRAWN_MIN_ENTROPY = 3.3


def _drawn_password(password: str) -> bool:
    """Ten characters or more of two classes and some entropy: drawn, not
    typed ("zymMlopiWfqUyHRSIf" is; "Password" and "letmein" are not)."""
    return (
        len(password) >= _DRAWN_MIN_LENGTH
        and _character_classes(password) >= 2
        and shannon_entropy(password) >= _DRAWN_MIN_ENTROPY
    )


def _encoded_login(text: str, start: int, value: str, decoded: str) -> SecretMatch | None:
    """base64 of ``user:password`` after a credential word: a login, when
    the password looks issued (a placeholder or a word is not)."""
    user, _, password = decoded.partition(":")
    if _weak_password(password, user) or not _drawn_password(password):
        return None
    example = _introduced_as_example(text, start)
    return SecretMatch(
        start,
        start + len(value),
        "credential_assignment",
        EXAMPLE_CAP if example else PREFIX,
        "structure",
        "base64-encoded user:password after a credential word",
        example=example,
        live=not example,
    )


def _encoded_secret(text: str, start: int, value: str, decoded: str) -> SecretMatch | None:
    """A secret hidden in base64 (``"config": "QVdTX1NFQ1JFVF9BQ0NFU1Nf..."``,
    a .env pasted encoded): the encoded run reported, and redacted, as the
    most confident real secret its decoded text holds. A placeholder or an
    entropy-only value inside does not count."""
    if not _ENCODED_CREDENTIAL_HINT.search(decoded):
        return None
    if _USER_PASSWORD.fullmatch(decoded) and _credential_context(text, start):
        return _encoded_login(text, start, value, decoded)
    best = _strongest_real_secret(decoded)
    if best is None:
        return None
    example = _introduced_as_example(text, start)
    return SecretMatch(
        start,
        start + len(value),
        best.kind,
        min(best.confidence, EXAMPLE_CAP) if example else best.confidence,
        best.basis,
        best.label + ", base64-encoded",
        example=example,
        live=best.live and not example,
    )


_HEX_TEXT = re.compile(r"(?:[0-9a-f]{2}){16,}|(?:[0-9A-F]{2}){16,}")


def _hex_encoded_secret(text: str, start: int, value: str) -> SecretMatch | None:
    """A secret written in hex (``4f50454e41495f4150495f4b45593d...``, a
    .env dumped with ``xxd -p``): the run, when its bytes are printable
    text holding a real secret. A hash's bytes are not text: one decode."""
    if not _HEX_TEXT.fullmatch(value):
        return None
    decoded = _printable_text(bytes.fromhex(value))
    if decoded is None:
        return None
    found = _encoded_secret(text, start, value, decoded)
    if found is None:
        return None
    return found._replace(label=found.label.replace("base64", "hex"))


# Certificates and public keys are published on purpose: their base64
# lines are not secrets.
_PUBLIC_PEM = re.compile(
    r"-----BEGIN (?:CERTIFICATE|TRUSTED CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|X509 CRL"
    r"|(?:NEW )?CERTIFICATE REQUEST|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|SSH2 PUBLIC KEY)-----"
    r"(?:[A-Za-z0-9+/=\s:,.]|\\[nr]|-(?!----)){0,65536}(?:-----END [A-Z0-9 ]{1,40}-----)?"
)


def _public_blocks(text: str) -> list[tuple[int, int]]:
    if "-----BEGIN " not in text:
        return []
    return [block.span() for block in _PUBLIC_PEM.finditer(text)]


class _Budget:
    """How much one call may do (None: no limit): ``limit`` accepted matches
    and ten times as many judged candidates (most candidates are rejected
    cheaply; the second bound stops a text built of near-misses)."""

    def __init__(self, limit: int | None) -> None:
        self.accepted = limit
        self.judged = None if limit is None else limit * 10
        self.exhausted = False
        # The work done, whatever the limit (for SecretScan.within).
        self.spent = 0
        self.taken = 0

    def spend(self) -> bool:
        """Account for one candidate about to be judged."""
        self.spent += 1
        if self.judged is None:
            return True
        if self.judged <= 0 or (self.accepted is not None and self.accepted <= 0):
            self.exhausted = True
            return False
        self.judged -= 1
        return True

    def accept(self) -> None:
        self.taken += 1
        if self.accepted is not None:
            self.accepted -= 1


def _entropy_candidates(
    text: str, budget: _Budget, known: list[SecretMatch]
) -> Iterator[SecretMatch]:
    """Entropy candidates outside public key blocks and outside values a
    provider rule already recognised (``known``, sorted by start)."""
    public = _public_blocks(text)
    cursor = 0
    for run in _token_runs(text):
        while cursor < len(known) and known[cursor].end <= run.start():
            cursor += 1
        if cursor < len(known) and known[cursor].start <= run.start() < known[cursor].end:
            continue
        if public and any(start <= run.start() < end for start, end in public):
            continue
        if not budget.spend():
            return
        candidate = _entropy_candidate(text, run)
        if candidate is not None:
            budget.accept()
            yield candidate


def _token_runs(text: str) -> Iterator[re.Match[str]]:
    """``_TOKEN_RUN.finditer(text)``: its greedy class run (which excludes
    "=") makes every match start where a run of 24 or more starts, so it is
    anchored there (``_run_starts``) instead of tried at every position.
    Text made mostly of such runs (a wall of base64) is left to the
    pattern, whose C loop beats a Python step per run."""
    classes = _class_bytes(text, _TOKEN_TABLE)
    if classes.count(_TOKEN_NEEDLE) * _RUN_SPACING > len(text):
        yield from _TOKEN_RUN.finditer(text)
        return
    for start in _iter_run_starts(classes, ENTROPY_MIN_LENGTH):
        run = _TOKEN_RUN.match(text, start)
        if run is not None:  # pragma: no branch - a run start always matches
            yield run


def _entropy_candidate(text: str, match: re.Match[str]) -> SecretMatch | None:
    value = match.group().rstrip("=").strip("/")
    if not ENTROPY_MIN_LENGTH <= len(value) <= ENTROPY_MAX_LENGTH:
        return None
    if _HEX_OR_UUID.fullmatch(value):
        # Hashes and UUIDs; a hex run that decodes to text is a hidden one.
        return _hex_encoded_secret(text, match.start(), value)
    if _character_classes(value) < 3:
        return None  # numbers, words and identifiers
    if value.startswith(_PUBLIC_KEY_PREFIXES):
        return None  # publishable keys are meant to be embedded in pages
    before = text[max(0, match.start() - 12) : match.start()].lower()
    if value.startswith(_ENCODED_FILE_PREFIXES) or "base64," in before:
        return None
    if before.endswith(_MAPBOX_PUBLIC):
        return None  # the body of a Mapbox public "pk.eyJ..." token
    if before.endswith(_HASH_LABELS) or value.lower().startswith(_HASH_LABELS):
        return None  # "SHA256:uNiV..." key fingerprints, "sha384-..." integrity hashes
    if _switch_ratio(value) < _MIN_SWITCH_RATIO:
        return None
    start = match.start() + match.group().find(value)
    # Every test here is pure. Base64 of printable text is decoded before
    # the context and the entropy are computed: it is a secret only when the
    # decoded text holds one (a pasted .env), so ten thousand blobs of
    # base64 padding of harmless text cost one decode each.
    decoded = _encoded_text(value)
    if decoded is not None:
        return _encoded_secret(text, start, value, decoded)
    context = _credential_context(text, start)
    threshold = ENTROPY_THRESHOLD_WITH_CONTEXT if context else ENTROPY_THRESHOLD
    if shannon_entropy(value) < threshold:
        return None
    confidence = ENTROPY_WITH_CONTEXT if context else ENTROPY_BARE
    if context and _said_public(text, start, start + len(value)):
        confidence = ENTROPY_BARE
    label = "high-entropy value after a credential word" if context else "high-entropy string"
    example = _introduced_as_example(text, start)
    return SecretMatch(
        start,
        start + len(value),
        "high_entropy",
        min(confidence, EXAMPLE_CAP) if example else confidence,
        "entropy",
        label,
        placeholder=_is_placeholder(value),
        example=example,
    )


# ---------------------------------------------------------------- driver


def _build_gate(rules: tuple[_Rule, ...], *, casefold: bool) -> Any:
    """An Aho-Corasick automaton over the triggers of the rules that are
    (or are not) case-folded, lower-cased for the former; each key carries
    the indexes of the rules it triggers.

    One pass over the text replaces a substring test per trigger; on the
    typical description nothing triggers and no rule runs.
    """
    by_key: dict[str, list[int]] = {}
    for index, rule in enumerate(rules):
        if rule.casefold == casefold:
            for trigger in rule.triggers:
                by_key.setdefault(trigger.lower() if casefold else trigger, []).append(index)
    automaton = ahocorasick.Automaton()
    for key, owners in by_key.items():
        automaton.add_word(key, tuple(owners))
    automaton.make_automaton()
    return automaton


# Case-sensitive triggers ("SK", "MT" of a Discord id) are read in the text
# itself, case-folded ones in its lower-cased form. One gate over the
# lower-cased text for both stopped at every "nd" and "ot" of English
# prose and asked the original text about each.
_EXACT_GATE = _build_gate(_RULES, casefold=False)
_FOLDED_GATE = _build_gate(_RULES, casefold=True)
_EXACT_RULES = sum(not rule.casefold for rule in _RULES)
_FOLDED_RULES = sum(rule.casefold for rule in _RULES)


def _gate_hits(gate: Any, text: str, rules: int) -> set[int]:
    """The rules ``gate`` triggers in ``text`` (the pass ends once all ``rules`` are)."""
    triggered: set[int] = set()
    for _end, owners in gate.iter(text):
        triggered.update(owners)
        if len(triggered) == rules:
            break
    return triggered


def _triggered_rules(text: str, lowered: str) -> list[int]:
    """The rules whose triggers occur in ``text`` (``lowered`` is ``text.lower()``)."""
    exact = _gate_hits(_EXACT_GATE, text, _EXACT_RULES)
    folded = _gate_hits(_FOLDED_GATE, lowered, _FOLDED_RULES)
    return sorted(exact | folded)


def _rule_matches(rule: _Rule, haystack: str) -> Iterator[re.Match[str]]:
    """``rule.pattern.finditer(haystack)``.

    A rule with ``begins`` gets the same matches, in the same order, from
    the pattern tried only where a match can begin: a scan of the text for
    its literals is C-level, while a search tries the pattern's leading
    look-behind at every position of the text. The anchored ``match``
    still reads the look-behind's character before the offset.
    """
    if rule.begins is None:
        yield from rule.pattern.finditer(haystack)
        return
    end = 0
    for at in rule.begins(haystack):
        if at < end:
            continue  # inside the previous match: finditer resumes after it
        match = rule.pattern.match(haystack, at)
        if match is not None:
            end = match.end()
            yield match


def _provider_matches(text: str, budget: _Budget) -> Iterator[SecretMatch]:
    folded = text.lower()
    lowered: str | None = None
    for index in _triggered_rules(text, folded):
        rule = _RULES[index]
        haystack = text
        if rule.on_lowered:
            if lowered is None:
                # ``same_length_lower``, from the lowering already done.
                lowered = folded if len(folded) == len(text) else same_length_lower(text)
            haystack = lowered
        for match in _rule_matches(rule, haystack):
            if not budget.spend():
                return
            judged = rule.judge(match, text)
            if judged is None:
                continue
            budget.accept()
            yield _finish(text, rule.kind, judged)


# Kinds whose judge decides about placeholders itself (a PEM body or a JWT
# is not a short token: the generic rules would misfire on them).
_SELF_JUDGED = frozenset({"jwt", "private_key", "connection_string", "credential_assignment"})


# Words that say the key beside them is published on purpose: a Firebase
# web config's apiKey, a reCAPTCHA site key, an Algolia search-only key, a
# Stripe publishable key. A key that only matched its shape (prefix,
# assignment, entropy) there is documentation of a public value; one that
# verified (a checksum, a PEM body, a JWT, a Basic header) is not excused.
_PUBLIC_CUES = (
    "publishable",
    "public token",
    "public key",
    "public api key",
    "public client",
    "(public",
    "public)",
    "public,",
    "is public",
    "are public",
    "be public",
    "public by design",
    "client-side",
    "client side",
    "browsers",
    "in the browser",
    "browser code",
    "site key",
    "sitekey",
    "search-only",
    "search only",
    # The key's own name: "search_only_api_key: ...".
    "search_only",
    "safe to expose",
    "safe to share",
    "safe to embed",
    "safe to publish",
    "not a secret",
    "not secret",
    "firebase",
)
_PUBLIC_BEFORE = 80
_PUBLIC_AFTER = 60
_SHAPE_BASES = frozenset({"prefix", "assignment", "context", "entropy"})


def _said_public(text: str, start: int, end: int) -> bool:
    """True when the words around ``text[start:end]`` call it public."""
    around = text[max(0, start - _PUBLIC_BEFORE) : end + _PUBLIC_AFTER].lower()
    return any(cue in around for cue in _PUBLIC_CUES)


_MAX_FIELD_MENTIONS = 4


def called_public(text: str) -> bool:
    """Do ``text``'s words (a key's name, a short note) call a key public
    (``search_only_key``, "publishable", "safe to expose")?"""
    lowered = text.lower()
    return any(cue in lowered for cue in _PUBLIC_CUES)


def field_called_public(text: str, field: str) -> bool:
    """Does ``text`` (a tool's description) call the field ``field`` public
    where it names it ("Firebase web apiKey values identify the project and
    are meant to be public")? The key itself sits in the field's schema
    value, away from those words. Only the first few mentions are read."""
    if len(field) < 3:
        return False
    lowered, name = text.lower(), field.lower()
    start = lowered.find(name)
    for _ in range(_MAX_FIELD_MENTIONS):
        if start < 0:
            return False
        if _said_public(lowered, start, start + len(name)):
            return True
        start = lowered.find(name, start + len(name))
    return False


def _finish(text: str, kind: str, judged: _Judged) -> SecretMatch:
    value = text[judged.start : judged.end]
    placeholder = (
        judged.basis == "placeholder"
        or value in _DOC_EXAMPLES
        or (kind not in _SELF_JUDGED and _is_placeholder(_strip_prefix(value)))
    )
    confidence = judged.confidence
    if judged.basis in _SHAPE_BASES and _said_public(text, judged.start, judged.end):
        confidence = min(confidence, EXAMPLE_CAP)
    example = _introduced_as_example(text, judged.start) or _said_fake_after(text, judged.end)
    if example:
        if judged.basis == "checksum" or (kind == "private_key" and judged.basis == "structure"):
            confidence = round(confidence * EXAMPLE_VERIFIED_FACTOR, 4)
        else:
            confidence = min(confidence, EXAMPLE_CAP)
    basis = "placeholder" if placeholder else judged.basis
    live = (
        not (placeholder or example)
        and (judged.live or confidence >= _LIVE_FLOORS.get(kind, 2.0))
        and (kind in _SELF_JUDGED or _drawn_value(value))
        # A verified value said to be public (Supabase's anon JWT "safe for
        # browsers") keeps its confidence but is no live secret.
        and not _said_public(text, judged.start, judged.end)
    )
    return SecretMatch(
        judged.start, judged.end, kind, confidence, basis, judged.label, placeholder, example, live
    )


def _drawn_value(value: str) -> bool:
    """The variable part of a token is random enough to have been issued:
    a hand-typed ``sk_live_abcd1234abcd1234`` is no live key."""
    return shannon_entropy(_strip_prefix(value)) >= _DRAWN_MIN_ENTROPY


_KNOWN_PREFIX = re.compile(
    r"^(?:gh[pousr]_|github_pat_|gl[a-z]{1,6}-|xox[a-z]-|xapp-|[sr]k_live_|sk-ant-|sk-(?:proj-|svcacct-|admin-)?"
    r"|hf_|api_org_|npm_|pypi-|SG\.|AKIA|ASIA|ABIA|ACCA)"
)


def _strip_prefix(value: str) -> str:
    """The variable part of a token: placeholder words in a prefix do not count."""
    if value.startswith(_TABLE_PREFIXES):
        return value[len(next(p for p in _TABLE_PREFIXES if value.startswith(p))) :]
    return _KNOWN_PREFIX.sub("", value, count=1)


_SPLIT_HEAD_MAX = 40


def token_head(value: str) -> bool:
    """True when ``value`` is the head of a provider token (``sk_live_``,
    ``ghp_7Fq``, ``AKIA``): a secret split over two adjacent fields starts
    so, and only then is the pair worth joining."""
    # ``str.split`` cuts at exactly the characters ``str.isspace`` names:
    # a value with none of them splits into itself alone.
    if len(value) > _SPLIT_HEAD_MAX or value.split() != [value]:
        return False
    return value.startswith(_TABLE_PREFIXES) or _KNOWN_PREFIX.match(value) is not None


def _aws_pairing(text: str, matches: list[SecretMatch]) -> list[SecretMatch]:
    """An AWS key id and a secret key in one text verify each other: the
    pair is the whole credential (live)."""
    kinds = {m.kind for m in matches if not m.placeholder}
    if not {"aws_access_key", "aws_secret_key"} <= kinds:
        return matches
    return [
        m._replace(
            confidence=max(m.confidence, 0.9),
            basis="structure",
            label=m.label + ", paired",
            live=not _said_public(text, m.start, m.end),
        )
        if m.kind in ("aws_access_key", "aws_secret_key") and not m.placeholder and not m.example
        else m
        for m in matches
    ]


# Where matches overlap, a provider's format beats a generic rule: a GitHub
# token assigned to ``token=`` is a GitHub token, not an assignment.
_GENERIC_RANK = {"connection_string": 1, "credential_assignment": 2, "high_entropy": 3}


def _select(matches: list[SecretMatch]) -> list[SecretMatch]:
    """Non-overlapping matches: the most specific, then most confident, then longest."""
    # Kept intervals are disjoint, so sorted by start they are sorted by end
    # too: a candidate only has to be compared with its two neighbours.
    starts: list[int] = []
    chosen: list[SecretMatch] = []
    for candidate in sorted(
        matches,
        key=lambda m: (_GENERIC_RANK.get(m.kind, 0), -m.confidence, m.start - m.end, m.start),
    ):
        index = bisect.bisect_left(starts, candidate.start)
        if index < len(chosen) and chosen[index].start < candidate.end:
            continue
        if index > 0 and chosen[index - 1].end > candidate.start:
            continue
        starts.insert(index, candidate.start)
        chosen.insert(index, candidate)
    return chosen


def find_secrets(text: str) -> list[SecretMatch]:
    """Every credential-shaped value in ``text``, sorted, non-overlapping."""
    return scan_secrets(text)[0]


def scan_secrets(text: str, max_candidates: int | None = None) -> tuple[list[SecretMatch], bool]:
    """``find_secrets`` with a budget: at most ``max_candidates`` matches
    (and ten times as many candidates judged). Returns the matches and
    whether the budget ran out (the rest of the text was not examined)."""
    budget = _Budget(max_candidates)
    return _scan(text, budget), budget.exhausted


class SecretScan(NamedTuple):
    """A whole-text scan (not cut by a budget): its matches and the work it took.

    A scan repeats on the same string (the embedded-secret check, the
    quotes that must not cut a secret in half, the output guard); on a
    megabyte each pass costs a quarter of a second. The caller keeps this
    result with the string and asks ``within`` whether it also answers a
    budgeted call.
    """

    matches: tuple[SecretMatch, ...]
    judged: int  # candidates judged
    accepted: int  # candidates accepted

    def within(self, max_candidates: int | None) -> bool:
        """Whether ``scan_secrets(text, max_candidates)`` would run out of
        budget nowhere, and so return these matches, uncut: it judges the
        same candidates in the same order while its budget lasts."""
        if max_candidates is None:
            return True
        return self.judged <= max_candidates * 10 and self.accepted < max_candidates


def scan_secrets_counted(text: str, max_candidates: int | None = None) -> tuple[SecretScan, bool]:
    """``scan_secrets`` with the work it took. Uncut, the result is the
    whole-text scan (see ``SecretScan``)."""
    budget = _Budget(max_candidates)
    matches = _scan(text, budget)
    return SecretScan(tuple(matches), budget.spent, budget.taken), budget.exhausted


# A Markdown table's delimiter row ("|---|:---:|", "|-|-|"): two columns
# or more, so a pipe followed by a dash (``_TABLE_HINT``, a literal-led
# search) is in every one.
_TABLE_DELIMITER = re.compile(
    # Each blank run is followed by a different character than it holds, so
    # the pattern never splits one run two ways (linear).
    r"^[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+(?:\|[ \t]*)?$",
    re.MULTILINE,
)
_TABLE_HINT = re.compile(r"\|[ \t]*:?-")
_TABLE_CELL_QUOTES = " \t`'\""


def _table_cells(line: str, offset: int) -> list[tuple[str, int]]:
    """The cells of one table row with their offsets in the text (outer
    pipes and the blanks and code quotes around each value left out)."""
    cells: list[tuple[str, int]] = []
    start = 0
    for piece in line.split("|"):
        value = piece.strip(_TABLE_CELL_QUOTES)
        cells.append((value, offset + start + (piece.find(value) if value else 0)))
        start += len(piece) + 1
    if line.lstrip().startswith("|"):
        cells = cells[1:]
    return cells


def _table_matches(text: str, budget: _Budget) -> Iterator[SecretMatch]:
    """Values in a column of a Markdown table whose header names a
    credential (``| env | DD_API_KEY | APP_KEY |``, ``| Password |``): the
    header is the key of every cell under it, as a JSON key is of its
    value. A cell must hold a credential-shaped value (an issued token, a
    32-hex key, a password of two classes with a digit); a placeholder,
    "see vault", ``${DEV_KEY}`` or a column of request ids (its header
    names no credential) is not one."""
    if _TABLE_HINT.search(text) is None:
        return
    for delimiter in _TABLE_DELIMITER.finditer(text):
        head_end = delimiter.start() - 1
        head_start = text.rfind("\n", 0, max(0, head_end)) + 1
        if head_end <= head_start:
            continue
        header = [cell for cell, _ in _table_cells(text[head_start:head_end], head_start)]
        columns = {index for index, cell in enumerate(header) if credential_key(cell)}
        if not columns:
            continue
        row_start = delimiter.end() + 1
        while row_start < len(text):
            row_end = text.find("\n", row_start)
            row_end = len(text) if row_end < 0 else row_end
            line = text[row_start:row_end]
            if "|" not in line:
                break
            for index, (value, at) in enumerate(_table_cells(line, row_start)):
                if index in columns and credential_value(value):
                    if not budget.spend():
                        return
                    budget.accept()
                    yield _finish(
                        text,
                        "credential_assignment",
                        _Judged(
                            ASSIGNMENT,
                            "assignment",
                            f"value in the {header[index]} column of a table",
                            at,
                            at + len(value),
                        ),
                    )
            row_start = row_end + 1


def _scan(text: str, budget: _Budget) -> list[SecretMatch]:
    if len(text) < 8:
        return []
    matches = sorted(
        [*_provider_matches(text, budget), *_table_matches(text, budget)],
        key=lambda m: m.start,
    )
    if len(text) >= ENTROPY_MIN_LENGTH:
        matches.extend(_entropy_candidates(text, budget, _disjoint(matches)))
    if matches and _REDACTED_OPEN in text:
        matches = _outside_markers(text, matches)
    if not matches:
        return matches
    return _select(_aws_pairing(text, matches))


def _disjoint(sorted_matches: list[SecretMatch]) -> list[SecretMatch]:
    """Provider matches merged into disjoint spans, for the entropy sweep."""
    merged: list[SecretMatch] = []
    for match in sorted_matches:
        if merged and match.start < merged[-1].end:
            if match.end > merged[-1].end:
                merged[-1] = merged[-1]._replace(end=match.end)
            continue
        merged.append(match)
    return merged


# The redacted form "[REDACTED_GITHUB_TOKEN:last4=abcd]" says "token" and
# is followed by a value: it must not be recognised (and redacted) again.
_REDACTED_OPEN = "[REDACTED_"
_REDACTED_MARKER = re.compile(r"\[REDACTED_[A-Z0-9_]{1,40}(?::last4=[^\]]{0,40})?\]")


def _outside_markers(text: str, matches: list[SecretMatch]) -> list[SecretMatch]:
    markers = [marker.span() for marker in _REDACTED_MARKER.finditer(text)]
    return [m for m in matches if all(m.end <= start or m.start >= end for start, end in markers)]


def find_secret_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of every secret-shaped value, for redaction."""
    return [(m.start, m.end, m.kind) for m in find_secrets(text)]
