"""custom-patterns: the user's own regular expressions, from ``Config``.

Each rule is a mapping::

    {"name": "internal-host", "regex": r"corp\\.example\\.net",
     "tier": "soft", "severity": "medium", "threat": "exfiltration",
     "description": "Our internal host must not appear in third-party tools",
     "surfaces": ["description", "inputSchema"], "normalized": False}

Only ``name`` and ``regex`` are required. The rules are validated through
the plugin interface (``validate_config``, called when a scan starts: a bad
one is a ``ScanError`` naming the entry), compiled with the ``regex``
module (whose cache keeps a compiled pattern for the next tool) and matched
with a timeout; a timeout is recorded as a cap, never raised. The check is
silent when the config has no rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import regex

from .._check import Context
from .._config import Config
from .._model import ScanError, Signal, Tier, Tool

__all__ = ["CHECK", "CustomPatternsCheck", "CustomRule", "validate_patterns"]

_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")
_CONFIDENCE = {"low": 0.4, "medium": 0.6, "high": 0.8, "critical": 0.95}
_NAME = regex.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")
_KNOWN_KEYS = frozenset(
    {
        "name",
        "regex",
        "tier",
        "severity",
        "threat",
        "description",
        "surfaces",
        "normalized",
        "ignore_case",
    }
)


def _text(entry: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str) or not value:
        raise ScanError(f"{where}.{key}", "expected a non-empty string")
    return value


@attrs.frozen
class CustomRule:
    """One validated, compiled user rule (picklable, for scan_many)."""

    name: str
    pattern: regex.Pattern[str]
    tier: Tier
    confidence: float
    escalate: bool
    threat: str
    description: str
    surfaces: frozenset[str]
    normalized: bool


def _validate_one(entry: object, index: int) -> CustomRule:
    where = f"config.custom_patterns[{index}]"
    if not isinstance(entry, Mapping):
        raise ScanError(where, "expected a mapping with at least 'name' and 'regex'")
    unknown = sorted(set(map(str, entry)) - _KNOWN_KEYS)
    if unknown:
        raise ScanError(f"{where}.{unknown[0]}", "unknown key")
    name = _text(entry, "name", where)
    if not _NAME.fullmatch(name):
        raise ScanError(f"{where}.name", "use lower-case letters, digits, '_', '.' or '-'")
    tier_name = _text(entry, "tier", where, "soft")
    if tier_name not in ("hard", "soft"):
        raise ScanError(f"{where}.tier", "expected 'hard' or 'soft'")
    severity = _text(entry, "severity", where, "medium")
    if severity not in _CONFIDENCE:
        raise ScanError(f"{where}.severity", f"expected one of {sorted(_CONFIDENCE)}")
    surfaces = entry.get("surfaces", _FIELDS)
    if isinstance(surfaces, str) or not all(s in _FIELDS for s in surfaces):
        raise ScanError(f"{where}.surfaces", f"expected a list drawn from {list(_FIELDS)}")
    flags = regex.IGNORECASE if entry.get("ignore_case", True) else 0
    try:
        compiled = regex.compile(_text(entry, "regex", where), flags | regex.VERSION1)
    except regex.error as error:
        raise ScanError(f"{where}.regex", f"does not compile: {error}") from None
    return CustomRule(
        name=name,
        pattern=compiled,
        tier=Tier(tier_name),
        confidence=_CONFIDENCE[severity],
        escalate=severity == "critical",
        threat=_text(entry, "threat", where, "custom"),
        description=_text(entry, "description", where, name),
        surfaces=frozenset(surfaces),
        normalized=bool(entry.get("normalized", False)),
    )


def validate_patterns(entries: tuple[object, ...]) -> tuple[CustomRule, ...]:
    """Validate and compile the user's rules; ``ScanError`` names a bad entry.

    Already validated rules (a ``Config`` rebuilt with ``attrs.evolve``)
    pass through unchanged.
    """
    rules = tuple(
        entry if isinstance(entry, CustomRule) else _validate_one(entry, index)
        for index, entry in enumerate(entries)
    )
    names = [rule.name for rule in rules]
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise ScanError(
                f"config.custom_patterns[{index}].name", f"duplicate rule name {name!r}"
            )
    return rules


class CustomPatternsCheck:
    """Run the user's rules over the chosen surfaces of a tool."""

    id = "custom-patterns"
    version = "1"
    surfaces = ("definition", "output", "arguments")

    def validate_config(self, config: Config) -> None:
        """Raise ``ScanError`` naming the first bad rule of ``config``."""
        validate_patterns(tuple(config.custom_patterns))

    def run(self, tool: Tool, context: Context) -> Iterator[Signal]:  # noqa: ARG002
        for rule in validate_patterns(tuple(context.config.custom_patterns)):
            yield from self._run_rule(rule, context)

    def _run_rule(self, rule: CustomRule, context: Context) -> Iterator[Signal]:
        for located in context.strings:
            if located.field not in rule.surfaces and context.surface == "definition":
                continue
            text = located.normalized if rule.normalized else located.raw
            try:
                match = rule.pattern.search(text, timeout=context.config.regex_timeout)
            except TimeoutError:
                context.record_cap("regex_timeout", located.location, f"custom rule {rule.name}")
                continue
            if match is None:
                continue
            # The evidence is the matched text as the tool wrote it: for a
            # rule on the normalized form, the raw text the match came from.
            span = located.span_of(*match.span()) if rule.normalized else match.span()
            shown = match.group() if span is None else located.raw[span[0] : span[1]]
            yield Signal(
                check_id=self.id,
                rule_id=f"custom.{rule.name}",
                tier=rule.tier,
                threat=rule.threat,
                confidence=rule.confidence,
                evidence=f"{rule.description}: {shown}",
                location=located.location,
                escalate=rule.escalate,
                span=span,
            )


CHECK = CustomPatternsCheck()
