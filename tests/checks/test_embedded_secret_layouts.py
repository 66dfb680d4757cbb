"""embedded-secret: credentials laid out the way people write them beside
other data: a Markdown table whose column header names the credential, a
name/value list of headers, a login on a command line, an Authorization
header of any scheme, a wallet key written in 0x-hex. Each beside a
look-alike that stays quiet; every value is generated here."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from helpers import reviewable_rules

import mcpscan
from mcpscan.checks.embedded_secret import CHECK

A62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
_RNG = random.Random(4711)


def rand(n: int, alphabet: str = A62) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def tool(description: str = "Calls the service.", **properties: Any) -> dict[str, Any]:
    return {
        "name": "push_metrics",
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


def reviewable(spec: dict[str, Any]) -> set[str]:
    report = mcpscan.scan(spec, checks=[CHECK])
    return reviewable_rules(report)


PASSWORD = "vKq" + rand(5, string.ascii_lowercase) + rand(3, string.digits) + "%T"

FIRES = {
    "table column named for a key": tool(
        "Push gauges.\n\n| region | INGEST_KEY | WRITE_TOKEN |\n|:--|:--:|--|\n"
        f"| eu | {rand(32, HEX)} | `{rand(40)}` |\n| us | {rand(32, HEX)} | {rand(40)} |"
    ),
    "table column named password": tool(
        f"Accounts:\n| host | login | Password |\n| --- | --- | --- |\n| ftp2 | ops | {PASSWORD} |"
    ),
    "name/value header list": tool(
        headers={
            "type": "array",
            "default": [
                {"name": "Accept", "value": "application/json"},
                {"name": "X-Service-Token", "value": rand(36)},
            ],
        }
    ),
    "curl login": tool(f"Mirrors the feed: curl -u mirror:{PASSWORD} https://feeds.acme-corp.io/x"),
    "authorization header, token scheme, hex": tool(
        f"Send `Authorization: Token {rand(40, HEX)}` with every request."
    ),
    "wallet private key in 0x-hex": tool(f"Signer private key: 0x{rand(64, HEX)}"),
}


@pytest.mark.parametrize("label", sorted(FIRES))
def test_laid_out_credentials_are_reviewable(label: str) -> None:
    # A drawn value in a credential slot may be reported by its entropy.
    assert reviewable(FIRES[label]) & {"secret.credential_assignment", "secret.high_entropy"}


QUIET = {
    "table of request ids": tool(
        f"| call | REQUEST_ID | SHA256 |\n|---|---|---|\n| a | {rand(32, HEX)} | {rand(64, HEX)} |"
    ),
    "table of key placeholders": tool(
        "| env | API_KEY |\n|---|---|\n| prod | <from the vault> |\n| dev | ${DEV_API_KEY} |"
    ),
    "table naming where the key lives": tool(
        "| env | API_KEY_NAME |\n|---|---|\n| prod | datadog-prod-ingest-key-2 |"
    ),
    "name/value list of ordinary headers": tool(
        headers={
            "type": "array",
            "default": [{"name": "X-Request-Id", "value": rand(32, HEX)}],
        }
    ),
    "curl login placeholder": tool("Use curl -u $USER:$API_TOKEN https://api.acme-corp.io/v1"),
    "git log -u": tool("Shows diffs like git log -u --stat main..feature does."),
    "authorization header prose": tool("The Authorization header carries a token for the API."),
    "transaction hash": tool(f"Transaction 0x{rand(64, HEX)} confirmed in block 19000001."),
}


@pytest.mark.parametrize("label", sorted(QUIET))
def test_laid_out_look_alikes_stay_quiet(label: str) -> None:
    assert reviewable(QUIET[label]) == set()


def signals(spec: dict[str, Any]) -> list[mcpscan.Signal]:
    return list(mcpscan.scan(spec, checks=[CHECK]).signals)


AWS_ID = "AKIA" + rand(16, string.ascii_uppercase + "234567")
AWS_SECRET = rand(40, A62 + "+/")


def test_aws_halves_as_defaults_of_two_schema_properties_are_one_live_key() -> None:
    spec = tool(
        identity={
            "type": "object",
            "properties": {
                "access_key_id": {"type": "string", "default": AWS_ID},
                "aws_secret_access_key": {"type": "string", "default": AWS_SECRET},
            },
        }
    )
    assert any(
        s.rule_id == "secret.aws_secret_key" and s.tier is mcpscan.Tier.HARD for s in signals(spec)
    )


def test_a_braced_odbc_password_is_read_inside_its_braces() -> None:
    odbc = (
        "Driver={ODBC Driver 18};Server=tcp:warehouse.acme-corp.io,1433;"
        f"Uid=loader;Pwd={{{PASSWORD}*{rand(8)}}};Encrypt=yes;"
    )
    assert "secret.connection_string" in reviewable(tool(conn={"type": "string", "default": odbc}))
    template = "Driver={ODBC Driver 18};Server=tcp:warehouse.acme-corp.io;Uid=u;Pwd={password};"
    assert reviewable(tool(conn={"type": "string", "default": template})) == set()


HEADER_JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiJub3RpZmllciIsInNjb3BlIjoid3JpdGUiLCJpYXQiOjE3MDAwMDAwMDB9." + rand(43, A62 + "-_")
)


@pytest.mark.parametrize(
    "description",
    [
        f"Cabeçalho de exemplo: Authorization: Bearer {HEADER_JWT}",
        f"Beispiel-Header, z. B. Authorization: Bearer {HEADER_JWT}",
        f"Header: Authorization: Bearer {HEADER_JWT} (token fictício, só ilustrativo).",
    ],
)
def test_a_token_presented_as_an_illustration_in_any_language_is_not_live(
    description: str,
) -> None:
    found = signals(tool(description))
    assert found and all(s.tier is mcpscan.Tier.SOFT and s.confidence <= 0.3 for s in found)


def test_a_bearer_token_without_any_illustration_cue_is_live() -> None:
    found = signals(tool(f"Send Authorization: Bearer {HEADER_JWT} on each call."))
    assert any(s.tier is mcpscan.Tier.HARD for s in found)


def test_key_names_that_say_public_stay_quiet() -> None:
    assert reviewable(tool(f"search_only_api_key: {rand(32, HEX)}")) == set()
    device = {"type": "string", "examples": [rand(64, HEX)]}
    assert reviewable(tool(device_token=device)) == set()


def test_a_honeycomb_ingest_key_is_recognised_by_its_prefix() -> None:
    key = "hcaik_" + rand(56, string.ascii_lowercase + string.digits)
    assert "secret.honeycomb_key" in reviewable(tool(f"exporter headers: x-team: {key}"))
