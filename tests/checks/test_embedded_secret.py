"""embedded-secret: what fires, what stays quiet, and that no value leaks.

All secrets here are generated fakes (random characters in a provider's
format, with a computed checksum where the format has one).
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from typing import Any

import pytest

import mcpscan
from mcpscan import Config, Tier, Verdict
from mcpscan._secrets import base62_crc32
from mcpscan.checks.embedded_secret import CHECK, redact_secrets

A62 = string.ascii_letters + string.digits
_RNG = random.Random(777)


def rand(n: int, alphabet: str = A62) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def github() -> str:
    body = rand(30)
    return f"ghp_{body}{base62_crc32(body)}"


def tool(description: str = "Does a thing.", **properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "t",
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


def scan(spec: dict[str, Any], config: Config | None = None) -> mcpscan.Report:
    return mcpscan.scan(spec, checks=[CHECK], config=config)


GITHUB = github()
AWS_ID = "AKIA" + rand(16, string.ascii_uppercase + "234567")
PASSWORD = "Zx8!qLp2Wm" + rand(4)

# (where, tool, rule, minimum confidence, tier): a complete value of a
# format that grants access by itself (a checksum-valid token, a strong
# password to a real host) is hard; a key id without its secret half, a
# password of unknown strength and entropy alone are reviewable.
FIRES = [
    ("description", tool(f"Deploys with {GITHUB}."), "secret.github_token", 0.9, Tier.HARD),
    (
        "default",
        tool(token={"type": "string", "default": GITHUB}),
        "secret.github_token",
        0.9,
        Tier.HARD,
    ),
    (
        "enum",
        tool(key={"type": "string", "enum": ["a", AWS_ID]}),
        "secret.aws_access_key",
        0.6,
        Tier.SOFT,
    ),
    ("title", {"name": "t", "title": f"Sync ({AWS_ID})"}, "secret.aws_access_key", 0.6, Tier.SOFT),
    ("property name", tool(**{GITHUB: {"type": "string"}}), "secret.github_token", 0.9, Tier.HARD),
    (
        "connection string",
        tool(f"Reads postgres://app:{rand(14)}@db.acme.io/prod."),
        "secret.connection_string",
        0.5,
        Tier.HARD,
    ),
    (
        "password default",
        tool(password={"type": "string", "default": PASSWORD}),
        "secret.credential_assignment",
        0.5,
        Tier.SOFT,
    ),
    (
        "opaque api key default",
        tool(api_key={"type": "string", "default": rand(32)}),
        "secret.high_entropy",
        0.4,
        Tier.SOFT,
    ),
]


@pytest.mark.parametrize(("where", "spec", "rule", "minimum", "tier"), FIRES)
def test_fires(where: str, spec: dict[str, Any], rule: str, minimum: float, tier: Tier) -> None:
    report = scan(spec)
    expected = Verdict.QUARANTINE if tier is Tier.HARD else Verdict.REVIEW
    assert report.verdict is expected, where
    signal = max(report.signals, key=lambda s: s.confidence)
    assert signal.rule_id == rule
    assert signal.tier is tier
    assert signal.confidence >= minimum
    assert "[REDACTED_" in signal.evidence


QUIET = [
    tool("Example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (aws secret)"),
    tool("Pass your-api-key or <token>; keys look like sk-...XXXX."),
    tool(token={"type": "string", "default": "${GITHUB_TOKEN}"}),
    tool(api_key={"type": "string", "default": "YOUR_API_KEY_HERE"}),
    tool(password={"type": "string", "default": "password"}),
    tool(sha={"type": "string", "default": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"}),
    tool(id={"type": "string", "examples": ["7d444840-9dc0-11d1-b245-5ffdce74fad2"]}),
    tool("Format: postgresql://user:password@localhost:5432/mydb"),
    tool("The password must be at least 12 characters; the token expires after an hour."),
    tool(token_type={"type": "string", "enum": ["Bearer", "MAC"]}),
]


@pytest.mark.parametrize("spec", QUIET)
def test_stays_quiet(spec: dict[str, Any]) -> None:
    report = scan(spec)
    assert report.verdict is Verdict.PASS, [s.evidence for s in report.signals]


def test_bare_high_entropy_is_reported_but_not_reviewable() -> None:
    report = scan(tool(f"Document id {rand(44)} is shared."))
    (signal,) = report.signals
    assert signal.rule_id == "secret.high_entropy"
    assert signal.confidence < 0.35
    assert report.verdict is Verdict.PASS


def test_value_never_appears_in_the_report() -> None:
    secret = github()
    spec = tool(
        f"Uses {secret}.",
        **{secret: {"type": "string", "default": secret, "description": f"key {secret}"}},
    )
    report = scan(spec)
    assert len(report.signals) >= 3
    for text in (report.to_json(), repr(report), json.dumps(report.to_dict())):
        assert secret not in text
    assert all(secret not in s.location for s in report.signals)


def test_signal_from_run_is_already_redacted() -> None:
    # A Signal is redacted before the orchestrator sees it, location too.
    secret = github()
    view_tool = mcpscan.Tool.from_mcp(tool(**{secret: {"type": "string", "default": secret}}))
    from mcpscan._check import Context
    from mcpscan._snapshot import Snapshot
    from mcpscan._walk import view_tool as walk

    context = Context(snapshot=Snapshot(), config=Config(), view=walk(view_tool, Config()))
    signals = list(CHECK.run(view_tool, context.for_check(CHECK.id)))
    assert signals
    assert all(secret not in repr(s) for s in signals)


def test_evidence_window_never_cuts_a_second_secret_in_half() -> None:
    first, second = github(), github()
    report = scan(tool(f"{first} {'x' * 10} {second}"))
    for signal in report.signals:
        assert first[:20] not in signal.evidence
        assert second[:20] not in signal.evidence


def test_options_ignore_kinds_and_entropy() -> None:
    spec = tool(f"Deploys with {GITHUB}; id {rand(44)}.")
    assert {s.rule_id for s in scan(spec).signals} == {"secret.github_token", "secret.high_entropy"}
    quiet = Config(
        options={"embedded-secret": {"ignore_kinds": ["github_token"], "report_entropy": False}}
    )
    assert scan(spec, quiet).signals == ()


def test_example_context_discounts_unverified_values() -> None:
    assert scan(tool(f"For example {AWS_ID}.")).verdict is Verdict.PASS
    assert scan(tool(f"For example {github()}.")).verdict is Verdict.REVIEW


def test_redact_secrets_helper() -> None:
    assert redact_secrets("nothing here") == "nothing here"
    out = redact_secrets(f"a {GITHUB} b")
    assert GITHUB not in out
    assert out.startswith("a [REDACTED_GITHUB_TOKEN:last4=")


def test_runs_on_output_and_argument_surfaces() -> None:
    assert set(CHECK.surfaces) == {"definition", "output", "arguments"}


def test_real_tool_shapes_stay_quiet() -> None:
    # Shapes seen on published servers: auth parameters without values.
    spec = tool(
        "Search for nodes using AFTS query syntax",
        query={"type": "string"},
        ticket={"type": "string", "description": "Alfresco authentication ticket"},
        api_key={"type": "string", "description": "Your API key. Check if the user gave one."},
    )
    assert scan(spec).signals == ()


class _PointsAtProperty:
    """A third-party check that reports at a property whose name is a secret."""

    id = "points-at-property"
    version = "1"

    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, tool: object, context: object) -> Iterator[mcpscan.Signal]:
        yield mcpscan.Signal(
            check_id=self.id,
            rule_id="x.y",
            tier=Tier.SOFT,
            threat="t",
            confidence=0.5,
            evidence="looked here",
            location=f"inputSchema.properties.{self.name}.description",
        )


def test_orchestrator_redacts_every_checks_location() -> None:
    secret = github()
    report = mcpscan.scan(tool(**{secret: {"type": "string"}}), checks=[_PointsAtProperty(secret)])
    (signal,) = report.signals
    assert secret not in report.to_json()
    assert signal.location.startswith("inputSchema.properties.[REDACTED_GITHUB_TOKEN:last4=")


def test_hostile_string_of_many_keys_is_capped_and_recorded() -> None:
    text = " ".join(github() for _ in range(1200))
    report = scan(tool(text))
    assert len(report.signals) == Config().max_signals_per_check
    limits = {c.limit for c in report.coverage.capped if c.check_id == CHECK.id}
    # The candidate budget grows with the string (every key is judged); the
    # signals past the per-check limit are what is cut.
    assert limits == {"max_signals_per_check"}


def test_padding_cannot_spend_the_candidate_budget() -> None:
    # 11,000 base64-like words used to spend a fixed budget of 1,000
    # candidates: the rest of the string went unexamined (a recorded cut).
    padding = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo= " * 11_000
    report = scan(tool(f"{padding} {github()}"))
    assert "embedded-secret" in {s.check_id for s in report.signals}
    assert not [c for c in report.coverage.capped if c.check_id == CHECK.id]


def _assignment_rules(report: mcpscan.Report) -> set[str]:
    return {s.rule_id for s in report.signals if s.rule_id == "secret.credential_assignment"}


def test_paging_tokens_and_authority_settings_are_no_credentials() -> None:
    # A paging cursor (base64 JSON of the last row) in a page_token example,
    # a code sample passing the previous page's cursor on, and a name server
    # setting whose name begins with "auth" hold no credential.
    cursor = "eyJyb3ciOiI3ZjJlOTlhMS0wYzRkIiwib2Zmc2V0Ijo0MH0="
    quiet = [
        tool(page_token={"type": "string", "example": cursor}),
        tool("Page on with fetch(region='eu', next_token=last_page['nextToken'])."),
        tool("Call again until next_token is null/empty."),
        tool(authoritative={"type": "string", "enum": ["yes", "no", "after-5sec-wait"]}),
    ]
    for spec in quiet:
        assert not _assignment_rules(scan(spec)), spec


def test_credentials_beside_paging_words_still_fire() -> None:
    assert _assignment_rules(scan(tool(f"Configure access_token={PASSWORD} first.")))
    assert _assignment_rules(scan(tool(f"Set auth_token: {PASSWORD} before paging.")))
    assert _assignment_rules(scan(tool(auth_token={"type": "string", "default": PASSWORD})))
