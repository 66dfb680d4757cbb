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
    return {signal.rule_id for signal in report.signals if signal.confidence >= 0.35}


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
