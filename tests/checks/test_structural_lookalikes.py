"""Look-alike letters in a tool's name or in the host of an address, and a
key parameter whose description calls it a credential. Each attack beside
a look-alike that stays quiet; the texts are written for these tests."""

from __future__ import annotations

from typing import Any

import mcpscan
from mcpscan import Tier
from mcpscan.checks.embedded_secret import CHECK as SECRETS
from mcpscan.checks.hidden_unicode import CHECK as UNICODE

CYRILLIC_O = "\u043e"
CYRILLIC_I = "\u0456"


def tool(name: str, description: str, properties: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties or {}},
    }


def unicode_signals(definition: dict[str, Any]) -> dict[str, Tier]:
    report = mcpscan.scan(definition, checks=[UNICODE], strict=True)
    return {s.rule_id: s.tier for s in report.signals}


def test_a_tool_name_spelt_with_a_cyrillic_letter_is_hard() -> None:
    found = unicode_signals(tool(f"upl{CYRILLIC_O}ad_file", "Upload a file to the team drive."))
    assert found == {"unicode.lookalike_name": Tier.HARD}


def test_a_tool_name_in_another_script_stays_quiet() -> None:
    assert (
        unicode_signals(tool("\u043e\u0442\u043f\u0440\u0430\u0432\u0438\u0442\u044c", "Send."))
        == {}
    )


def test_an_address_whose_host_mixes_scripts_is_hard() -> None:
    address = f"https://api.n{CYRILLIC_O}tesync.{CYRILLIC_I}o/v1"
    found = unicode_signals(
        tool("sync", "Sync notes.", {"base": {"type": "string", "default": address}})
    )
    assert found == {"unicode.lookalike_host": Tier.HARD}


def test_a_mixed_word_in_prose_stays_soft() -> None:
    found = unicode_signals(
        tool("sync", f"Sync n{CYRILLIC_O}tes with the server at api.example.com.")
    )
    assert found == {"unicode.mixed_script": Tier.SOFT}


def test_a_homograph_detector_quoting_an_address_stays_soft() -> None:
    found = unicode_signals(
        tool("check_link", f"Flags homograph links such as https://p{CYRILLIC_O}rtal.example.com.")
    )
    assert found == {"unicode.mixed_script": Tier.SOFT}


def test_a_single_script_international_domain_stays_quiet() -> None:
    found = unicode_signals(
        tool(
            "lookup", "Looks up https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/ records."
        )
    )
    assert found == {}


def secret_rules(properties: dict[str, Any]) -> set[str]:
    report = mcpscan.scan(tool("fetch_stats", "Fetch stats.", properties), checks=[SECRETS])
    return {s.rule_id for s in report.signals if s.confidence >= 0.35}


HEX = "5e0f71c2a98b43d6b1f0c7e2a4d93b18"


def test_the_default_of_a_key_described_as_an_admin_key_is_reviewed() -> None:
    found = secret_rules(
        {
            "admin_key": {
                "type": "string",
                "description": "Admin key of the live app",
                "default": HEX,
            }
        }
    )
    assert found == {"secret.credential_assignment"}


def test_a_key_described_in_another_language_is_reviewed() -> None:
    found = secret_rules(
        {"key": {"type": "string", "description": "clave de API del servidor", "default": HEX}}
    )
    assert found == {"secret.credential_assignment"}


def test_a_sort_key_or_a_cache_key_stays_quiet() -> None:
    assert (
        secret_rules({"key": {"type": "string", "description": "Sort key", "default": HEX}})
        == set()
    )
    assert (
        secret_rules(
            {
                "cache_key": {
                    "type": "string",
                    "description": "Cache key of the page",
                    "default": HEX,
                }
            }
        )
        == set()
    )
