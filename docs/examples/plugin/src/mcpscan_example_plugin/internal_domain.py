"""internal-domain: a tool from outside that names one of your internal hosts.

A public MCP server has no business knowing ``billing.corp.example``. When
its tool description (or a parameter default, or a tool result) names one
of your internal domains, someone either built it from your internal
documents or wants the model to send something there. Neither proves an
attack, so the signal is SOFT: a person should look.

Options (``mcpscan.Config(options={"internal-domain": {...}})``):

``domains``
    The internal domain suffixes, e.g. ``["corp.example", "int.example.net"]``.
    A host matches a suffix when it equals it or ends with ``.`` + suffix.
    Default: ``["corp.example"]``.

The check is a pure function of the tool and its options: it keeps no
state, does no I/O and compiles its one pattern at import.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mcpscan import Context, Signal, Tier, Tool

__all__ = ["CHECK", "InternalDomainCheck"]

DEFAULT_DOMAINS = ("corp.example",)

# A DNS host name: labels of 1-63 letters, digits and inner hyphens joined
# by dots. Every repetition is bounded, so the match is linear in the text.
_HOST = re.compile(
    r"(?<![a-z0-9.-])"
    r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,126}"
    r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
    r"(?![a-z0-9-])"
)

# Only for the isolation demonstration in the README: set it and the check
# raises, to show that mcpscan records the failure and finishes the scan.
# A real check has no such switch.
FAIL_ENV = "MCPSCAN_EXAMPLE_FAIL"


def _domains(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The configured suffixes, lower-case; a malformed option raises."""
    value = options.get("domains", DEFAULT_DOMAINS)
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError("internal-domain: option 'domains' must be a list of domain names")
    domains = []
    for domain in value:
        if not isinstance(domain, str) or not _HOST.fullmatch(domain.lower()):
            raise ValueError(f"internal-domain: {domain!r} is not a domain name")
        domains.append(domain.lower())
    return tuple(domains)


def _is_internal(host: str, domains: tuple[str, ...]) -> bool:
    return any(host == d or host.endswith("." + d) for d in domains)


class InternalDomainCheck:
    """Flags tools that name a host under one of the configured internal domains."""

    id = "internal-domain"
    version = "1"
    # Definitions, and the results the tools return.
    surfaces = ("definition", "output")

    # Every string of ``tool`` arrives walked, with its location, in
    # ``context.strings``; this check needs nothing else from the tool.
    def run(self, tool: Tool, context: Context) -> Iterator[Signal]:  # noqa: ARG002
        if os.environ.get(FAIL_ENV):
            raise RuntimeError(f"failure injected through {FAIL_ENV}")
        domains = _domains(context.options)
        for located in context.strings:
            # The raw text, not located.normalized: the shared normal form
            # stems English words, which would change a host name. NFKC and
            # case folding are what DNS does to a name anyway, and they undo
            # full-width spellings (ｃｏｒｐ.example).
            text = unicodedata.normalize("NFKC", located.raw).casefold()
            seen: set[str] = set()
            for match in _HOST.finditer(text):
                host = match.group()
                if host in seen or not _is_internal(host, domains):
                    continue
                seen.add(host)
                yield Signal(
                    check_id=self.id,
                    rule_id="internal-domain.mention",
                    tier=Tier.SOFT,
                    threat="internal-host-reference",
                    confidence=0.6,
                    evidence=f"names the internal host {host}",
                    location=located.location,
                )


CHECK = InternalDomainCheck()
