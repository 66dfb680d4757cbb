"""embedded-secret: credentials written into a tool definition, output or call.

A tool definition is published to every client that lists it: an API key,
a token, a private key or a database password in a description, a default
or an enum is leaked to every user and every model that reads it, and a
server that ships one is either careless or baiting the model into using
someone else's credentials. The same recognisers run on tool outputs and on
call arguments, where a secret means one is being moved around.

The recognisers live in ``mcpscan._secrets`` (shared with evidence
redaction). This check reports the real-looking ones (never documentation
placeholders), raises entropy-only values that sit in a credential slot
(the default of an ``api_key`` parameter), and never puts a secret value in
its evidence or location: both show ``[REDACTED_<KIND>:last4=abcd]``.

Rule ids are ``secret.<kind>``: ``secret.github_token``, ``secret.jwt``,
``secret.private_key``, ``secret.connection_string``, ``secret.high_entropy``
... (``mcpscan._secrets.KINDS`` lists them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from .._check import Context
from .._evidence import redact
from .._model import Signal, Tier, Tool
from .._secrets import (
    ASSIGNMENT,
    ENTROPY_WITH_CONTEXT,
    EXAMPLE_CAP,
    SecretMatch,
    about_credential,
    aws_secret_shaped,
    called_public,
    credential_key,
    credential_value,
    describes_credential_key,
    field_called_public,
    find_secret_spans,
    find_secrets,
    in_public_config,
    issued_key_value,
    names_data_key,
    publishes_in_config,
    token_head,
)
from .._walk import (
    LAST_PROPERTY_STEP,
    PROPERTY_STEP,
    LocatedString,
    innermost_property,
    step_name,
    value_owner,
)

__all__ = ["CHECK", "EmbeddedSecretCheck"]

_THREAT = "credential-exposure"
# Schema slots that hold a value rather than prose: a secret there is data
# the client will send, not a word in a sentence.
_VALUE_SLOTS = frozenset({"default", "const", "enum", "example", "examples"})
# A parameter whose name says it carries a credential.
_CREDENTIAL_NAME = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key"
    r"|private[_\-]?key|credential|bearer|cookie|session"
    # "auth", "auth_token", "authorization"; not "author", "authority" or
    # "authoritative" (a DHCP server's "authoritative" setting is no
    # credential slot).
    r"|auth(?!or(?!i[sz]))"
    r")"
)
# A credential-shaped value in a credential slot is more likely a real one.
_SLOT_BONUS = 0.1
_CONFIDENCE_CEILING = 0.97
_SNIPPET_RADIUS = 40
# Candidates judged per string. A real definition has a handful; a string
# with thousands of key-shaped tokens is hostile, and reporting its first
# thousand says enough (the orchestrator keeps 100 signals per check).
_MAX_CANDIDATES = 1000
#: The budget grows with the string, one candidate per this many characters
#: (the shortest credential shapes are about this long): padding made of
#: thousands of token-like words cannot spend the budget meant for a key
#: after it, and the work stays proportional to the text.
_CHARS_PER_CANDIDATE = 16


def redact_secrets(text: str) -> str:
    """``text`` with every secret-shaped value replaced by its redacted form."""
    spans = find_secret_spans(text)
    if not spans:
        return text
    pieces: list[str] = []
    cursor = 0
    for start, end, kind in spans:
        pieces.append(text[cursor:start])
        pieces.append(redact(text[start:end], kind))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


# How many adjacent values a token head is joined with: its schema
# neighbours ("type": "string") come between it and its other half.
_SPLIT_TRIES = 4
# The last step of a location: ".name" or "[index]".
_LAST_STEP = re.compile(r"(?:\.[^.\[\]]+|\[[^\]]*\])$")


def _parent(location: str) -> str:
    """The location of the object or array holding ``location``."""
    return _LAST_STEP.sub("", location)


def _adjacent(head: LocatedString, located: LocatedString) -> bool:
    """Two values that read as one: the next value of one object or array,
    or the same slot (``default``, ``const`` ...) of the next property."""
    if located.is_key:
        return False
    parent = _parent(head.location)
    if parent == _parent(located.location):
        return True
    return (
        located.key == head.key
        and located.key in _VALUE_SLOTS
        and _parent(parent) == _parent(_parent(located.location))
    )


def _in_credential_slot(located: LocatedString) -> bool:
    """A default / const / enum / example value of a credential parameter, or
    a value under a credential key at any depth of the definition: the
    ``password`` of a default connection object, the ``X-Api-Key`` of a
    header map, the ``token`` of an example."""
    if located.is_key:
        return False
    if located.key not in _VALUE_SLOTS:
        return credential_key(located.key)
    name = innermost_property(located.location)
    # "session_name" and "public_token" name something about a credential.
    return (
        name is not None
        and _CREDENTIAL_NAME.search(name) is not None
        and not about_credential(name)
    )


# A header list or a settings list written as name/value objects
# (``[{"name": "X-Auth-Token", "value": "..."}]``, Kubernetes ``env``
# entries, Postman headers): the name field says what the value field
# holds. Only a name that is a credential key counts ("Content-Type",
# "timeout" do not), and the value must still be credential-shaped.
_NAME_FIELDS = frozenset({"name", "key", "header", "field", "variable"})
_VALUE_FIELDS = frozenset({"value", "val", "content"})


class _NamedValues:
    """Remembers the objects whose name field names a credential, so the
    value field beside it is a credential slot."""

    def __init__(self) -> None:
        self.parents: set[str] = set()

    def see(self, located: LocatedString) -> None:
        if located.key in _NAME_FIELDS and credential_key(located.raw.strip()):
            self.parents.add(_parent(located.location))

    def names(self, located: LocatedString) -> bool:
        return located.key in _VALUE_FIELDS and _parent(located.location) in self.parents


_NAME_WORD = re.compile(r"[A-Za-z][a-z0-9]*|[0-9]+")


class _DescribedKeys:
    """Parameters named a key (``key``, ``admin_key``, ``appKey``) whose
    own description calls them a credential ("Steam Web API publisher key",
    "카카오 앱 Admin 키"): their defaults and examples are credential slots,
    so a bare hex or token value there is reviewed like one under
    ``api_key``. A ``cache_key`` described as "the cache key of the page",
    or a ``key`` described as "the sort key", is no such slot.

    So is a parameter whose name ends in "key" after a word that names no
    data key (``easypost_key``, ``routing_key``, ``vendorKey``) when the
    value itself looks issued (``issued_key_value``): a service's key
    shipped as the parameter's only choice or default. ``sort_key``,
    ``cache_key``, ``idempotency_key`` (``names_data_key``) name data,
    and a UUID or a dotted name in any key slot is no credential."""

    def __init__(self, strings: Sequence[LocatedString], description: str) -> None:
        self._strings = strings
        self._description = description
        self._described: set[str] | None = None

    def names(self, located: LocatedString) -> bool:
        if located.is_key or located.key not in _VALUE_SLOTS:
            return False
        name = innermost_property(located.location)
        if name is None or "key" not in (word.lower() for word in _NAME_WORD.findall(name)):
            return False
        if self._described is None:
            self._described = {
                _parent(other.location)
                for other in self._strings
                if other.key == "description" and describes_credential_key(other.raw)
            }
        return value_owner(located.location) in self._described or (
            _names_service_key(name)
            and issued_key_value(located.raw)
            # A search-only or publishable key, by its name or the text:
            # handed to every browser on purpose.
            and not called_public(name)
            and not field_called_public(self._description, name)
        )


def _names_service_key(name: str) -> bool:
    """Does a parameter name end in "key" after words that name no data
    key (``names_data_key``), and nothing about a credential (``key_id``)?"""
    words = [word.lower() for word in _NAME_WORD.findall(name)]
    return (
        len(words) >= 2
        and words[-1] == "key"
        and not names_data_key(words[:-1])
        and not about_credential(name)
    )


class _SiblingFields:
    """The field names of each object of the definition, gathered on first
    use (most definitions hold no key a provider publishes).

    A schema that describes a configuration holds each field as a property
    and its value in that property's ``const`` or ``examples``
    (``outputSchema.properties.apiKey.const`` beside the properties
    ``authDomain`` and ``projectId``): for a value slot the property names
    beside its owner are its fields too."""

    def __init__(self, strings: Sequence[LocatedString]) -> None:
        self._strings = strings
        self._by_parent: dict[str, set[str]] | None = None
        self._by_properties: dict[str, set[str]] = {}

    def of(self, located: LocatedString) -> set[str]:
        """The field names beside ``located`` in its object, or beside the
        schema property whose value slot it is."""
        if self._by_parent is None:
            self._by_parent = {}
            for other in self._strings:
                if not other.is_key:
                    self._by_parent.setdefault(_parent(other.location), set()).add(other.key)
                for step in PROPERTY_STEP.finditer(other.location):
                    container = other.location[: step.start()]
                    self._by_properties.setdefault(container, set()).add(step_name(step))
        fields = self._by_parent.get(_parent(located.location), set())
        owner = value_owner(located.location)
        last = LAST_PROPERTY_STEP.search(owner) if owner is not None else None
        if owner is None or last is None:
            return fields
        return fields | self._by_properties.get(owner[: last.start()], set())


def _public_config(
    match: SecretMatch, located: LocatedString, siblings: _SiblingFields, description: str
) -> bool:
    """Is the key a public client configuration's identifier (a Google API
    key beside ``authDomain`` and ``projectId`` in a Firebase web config,
    or in a schema property the tool's description calls public: "the
    apiKey here only identifies the project")? A key of the same shape
    alone, in a request body, or in a field the text says nothing of, is
    not: a Gemini key as a parameter's default stays a leak."""
    if located.is_key or not publishes_in_config(match.kind):
        return False
    if in_public_config(match.kind, siblings.of(located)):
        return True
    owner = value_owner(located.location)
    field = innermost_property(owner) if owner is not None else None
    return field is not None and field_called_public(description, field)


def _tier(match: SecretMatch, surface: str) -> Tier:
    """HARD for a live credential published in a definition: a complete
    value of a format that grants access by itself (``SecretMatch.live``)
    is a leak whatever the server meant, and a server that ships one is
    handing every client someone's account. SOFT for the rest (a partial
    or typed value, a password of unknown strength, a provider-less
    token), and on outputs and call arguments, where a user's own token
    passed to the tool that needs it is ordinary traffic."""
    return Tier.HARD if match.live and surface == "definition" else Tier.SOFT


def _slot_kind(located: LocatedString) -> str:
    if located.key in _VALUE_SLOTS:
        return "of a credential parameter"
    return "under a credential key"


def _snippet(text: str, index: int, matches: Sequence[SecretMatch]) -> str:
    """The text around ``matches[index]`` with every secret in it redacted.

    ``matches`` are sorted and disjoint, so the secrets in the window are
    the neighbours of ``index``: the cost is the window's, not the text's.
    The window is widened so it never cuts a secret in half: half a key is
    still half a key.
    """
    match = matches[index]
    start = max(0, match.start - _SNIPPET_RADIUS)
    end = min(len(text), match.end + _SNIPPET_RADIUS)
    first = index
    while first > 0 and matches[first - 1].end > start:
        first -= 1
    last = index
    while last + 1 < len(matches) and matches[last + 1].start < end:
        last += 1
    start = min(start, matches[first].start)
    end = max(end, matches[last].end)
    pieces: list[str] = ["..." if start else ""]
    cursor = start
    for other in matches[first : last + 1]:
        pieces.append(text[cursor : other.start])
        pieces.append(redact(text[other.start : other.end], other.kind))
        cursor = other.end
    pieces.append(text[cursor:end])
    pieces.append("..." if end < len(text) else "")
    # A secret the library did not split out of the window (one that only
    # makes sense in the wider text) is caught by a second pass.
    return redact_secrets("".join(pieces))


_AWS_SECRET_LENGTH = 40


class _AwsHalves:
    """The two halves of an AWS key written in two fields of one definition
    (``{"access_key_id": "AKIA...", "secret_access_key": "..."}``): each is
    only reviewable alone, the pair is the whole credential. Remembers the
    first real key id and the first secret-shaped credential value."""

    def __init__(self) -> None:
        self.key_id = False
        self.secret: LocatedString | None = None
        self.reported = False

    def see_key_id(self, match: SecretMatch) -> None:
        if match.kind == "aws_access_key" and not (match.placeholder or match.example):
            self.key_id = True

    def see_value(self, located: LocatedString) -> None:
        # The length first: nearly every value is not 40 characters long.
        value = located.raw.strip()
        if (
            self.secret is None
            and len(value) == _AWS_SECRET_LENGTH
            # Under a credential key, or the default of a credential
            # parameter ("aws_secret_access_key": {"default": "..."}).
            and _in_credential_slot(located)
            and aws_secret_shaped(value)
        ):
            self.secret = located

    def pair(self) -> LocatedString | None:
        """The secret half, once both halves were seen (reported once)."""
        if self.reported or not self.key_id or self.secret is None:
            return None
        self.reported = True
        return self.secret


class EmbeddedSecretCheck:
    """Report credentials embedded in any string of a tool."""

    id = "embedded-secret"
    version = "1"
    surfaces = ("definition", "output", "arguments")

    def run(self, tool: Tool, context: Context) -> Iterator[Signal]:
        options = context.options
        report_entropy = bool(options.get("report_entropy", True))
        ignored = frozenset(options.get("ignore_kinds", ()))
        head: LocatedString | None = None
        tries = 0
        aws = _AwsHalves()
        named = _NamedValues()
        described = _DescribedKeys(context.strings, tool.description or "")
        siblings = _SiblingFields(context.strings)
        for located in context.strings:
            if context.surface == "definition" and not located.is_key:
                aws.see_value(located)
            if not located.is_key:
                named.see(located)
            if head is not None and _adjacent(head, located):
                joined = list(self._split_secret(head, located, ignored, context.surface))
                yield from joined
                tries += 1
                if joined or tries == _SPLIT_TRIES:
                    head = None
            if not located.is_key and token_head(located.raw):
                head, tries = located, 0
            budget = max(_MAX_CANDIDATES, len(located.raw) // _CHARS_PER_CANDIDATE)
            matches, cut = located.secrets(budget)
            if cut:
                context.record_cap(
                    "max_secret_candidates",
                    redact_secrets(located.location),
                    f"secret candidates after the first {budget} in this string",
                )
            slot = _in_credential_slot(located) or named.names(located) or described.names(located)
            if not matches:
                if slot and "credential_assignment" not in ignored:
                    yield from self._slot_value(located)
                continue
            for index, match in enumerate(matches):
                aws.see_key_id(match)
                if match.placeholder or match.kind in ignored:
                    continue
                if match.kind == "high_entropy" and not report_entropy:
                    continue
                if _public_config(match, located, siblings, tool.description or ""):
                    yield self._public_config_signal(located, index, matches)
                    continue
                yield self._signal(located, index, matches, slot, context.surface)
        secret = aws.pair()
        if secret is not None and "aws_secret_key" not in ignored:
            yield self._aws_pair(secret)

    def _split_secret(
        self,
        head: LocatedString,
        located: LocatedString,
        ignored: frozenset[str],
        surface: str,
    ) -> Iterator[Signal]:
        """A token split over two adjacent values of one object or array:
        ``{"key_prefix": "sk_live_", "key_suffix": "51Hx..."}``. Each half
        is harmless alone; joined they are the key."""
        joined = head.raw + located.raw.strip()
        for match in find_secrets(joined):
            crosses = match.start < len(head.raw) < match.end
            if not crosses or match.placeholder or match.kind in ignored:
                continue
            if match.kind in ("high_entropy", "credential_assignment"):
                continue
            yield Signal(
                check_id=self.id,
                rule_id=f"secret.{match.kind}",
                tier=_tier(match, surface),
                threat=_THREAT,
                confidence=round(match.confidence, 4),
                evidence=f"{match.label}, split over {head.key} and {located.key}: "
                f"{redact(joined[match.start : match.end], match.kind)}",
                location=redact_secrets(located.location),
                span=(0, len(located.raw)),
            )

    def _aws_pair(self, secret: LocatedString) -> Signal:
        return self._whole_value(
            secret,
            "aws_secret_key",
            Tier.HARD,
            0.9,
            f"AWS secret access key in {secret.key}, paired with an AWS access key id "
            "of the same definition",
        )

    def _slot_value(self, located: LocatedString) -> Iterator[Signal]:
        """A bare value in a credential slot: ``{"password": {"default": "..."}}``."""
        if not credential_value(located.raw):
            return
        yield self._whole_value(
            located,
            "credential_assignment",
            Tier.SOFT,
            ASSIGNMENT,
            f"credential-shaped {located.key} {_slot_kind(located)}",
        )

    def _whole_value(
        self, located: LocatedString, kind: str, tier: Tier, confidence: float, said: str
    ) -> Signal:
        """A signal on the whole value of ``located`` (surrounding space
        left out): what is ``said`` of it, then the value redacted."""
        value = located.raw.strip()
        start = located.raw.index(value)
        return Signal(
            check_id=self.id,
            rule_id=f"secret.{kind}",
            tier=tier,
            threat=_THREAT,
            confidence=confidence,
            evidence=f"{said}: {redact(value, kind)}",
            location=redact_secrets(located.location),
            span=(start, start + len(value)),
        )

    def _public_config_signal(
        self, located: LocatedString, index: int, matches: Sequence[SecretMatch]
    ) -> Signal:
        # Shown below review, as a key the text itself calls public: the
        # provider ships this configuration to every browser that loads
        # the app, so a definition quoting it leaks nothing new.
        match = matches[index]
        return Signal(
            check_id=self.id,
            rule_id=f"secret.{match.kind}",
            tier=Tier.SOFT,
            threat=_THREAT,
            confidence=min(match.confidence, EXAMPLE_CAP),
            evidence=f"{match.label} in a public client configuration ({located.key}): "
            f"{_snippet(located.raw, index, matches)}",
            location=redact_secrets(located.location),
            span=(match.start, match.end),
        )

    def _signal(
        self,
        located: LocatedString,
        index: int,
        matches: Sequence[SecretMatch],
        slot: bool,
        surface: str,
    ) -> Signal:
        match = matches[index]
        confidence = match.confidence
        if slot:
            if match.kind == "high_entropy":
                # Entropy alone stays "low" (<= 0.4) even in a credential
                # slot; there it is enough to ask a person.
                confidence = max(confidence, ENTROPY_WITH_CONTEXT)
            elif not match.example:
                confidence = min(_CONFIDENCE_CEILING, confidence + _SLOT_BONUS)
        where = "property name" if located.is_key else located.key
        evidence = f"{match.label} in {where}: {_snippet(located.raw, index, matches)}"
        return Signal(
            check_id=self.id,
            rule_id=f"secret.{match.kind}",
            tier=_tier(match, surface),
            threat=_THREAT,
            confidence=round(confidence, 4),
            evidence=evidence,
            location=redact_secrets(located.location),
            span=(match.start, match.end),
        )


CHECK = EmbeddedSecretCheck()
