"""embedded-secret: where a schema puts a key decides what it is (issue 12).

* A public client configuration written as a schema (``apiKey`` as one
  property's ``const`` or ``examples``, ``authDomain`` and ``projectId`` as
  its sibling properties), or in a property the tool's description calls
  public, is the provider's published identifier: below review, never
  quarantined. The same key as a request parameter's default, in a
  property the text says nothing of, stays a leak.
* A parameter named ``<service>_key`` whose default or only choice is an
  issued-looking token ships that service's key; ``sort_key``,
  ``idempotency_key`` and UUID or dotted values stay quiet.

Every key here is a generated fake.
"""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

import mcpscan
from mcpscan import Tier, Verdict
from mcpscan.checks.embedded_secret import CHECK

_RNG = random.Random(1717)


def _google_key() -> str:
    return "AIza" + "".join(_RNG.choice(string.ascii_letters + string.digits) for _ in range(35))


def _hex(length: int) -> str:
    return "".join(_RNG.choice("0123456789abcdef") for _ in range(length))


def _scan(spec: dict[str, Any]) -> mcpscan.Report:
    return mcpscan.scan(spec, checks=[CHECK])


def _output_config(description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": "client_settings",
        "description": description,
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {"type": "object", "properties": properties},
    }


def test_web_config_schema_with_sibling_properties_is_no_leak() -> None:
    spec = _output_config(
        "Returns the settings the signup page loads at start.",
        {
            "apiKey": {"type": "string", "const": _google_key()},
            "authDomain": {"type": "string", "const": "signup-demo.firebaseapp.com"},
            "projectId": {"type": "string", "const": "signup-demo"},
        },
    )
    report = _scan(spec)
    assert report.verdict is Verdict.PASS
    assert all(signal.tier is Tier.SOFT for signal in report.signals)


def test_key_in_a_property_the_description_calls_public_is_no_leak() -> None:
    spec = _output_config(
        "Returns the browser settings. The apiKey below only names the project and is"
        " public by design; rules on the server decide access.",
        {"apiKey": {"type": "string", "examples": [_google_key()]}},
    )
    assert _scan(spec).verdict is Verdict.PASS


def test_same_key_as_a_parameter_default_the_text_ignores_is_still_a_leak() -> None:
    spec = {
        "name": "geocode_address",
        "description": "Turns a street address into coordinates.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "address": {"type": "string"},
                "apiKey": {"type": "string", "default": _google_key()},
                "projectId": {"type": "string"},
            },
        },
    }
    assert _scan(spec).verdict is Verdict.QUARANTINE


def _keyed(name: str, value: str, slot: str = "default") -> dict[str, Any]:
    holder: Any = [value] if slot == "enum" else value
    return {
        "name": "send_parcel",
        "description": "Creates a shipment with the carrier and returns its tracking number.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "weight_kg": {"type": "number"},
                name: {"type": "string", slot: holder},
            },
        },
    }


@pytest.mark.parametrize(
    ("name", "value", "slot"),
    [
        ("courier_key", _hex(40), "enum"),
        ("alertKey", _hex(32), "default"),
        ("gateway_key", "Zq7" + _hex(10) + "XkP2" + _hex(8), "default"),
    ],
)
def test_service_key_default_or_only_choice_is_reviewed(name: str, value: str, slot: str) -> None:
    report = _scan(_keyed(name, value, slot))
    assert report.verdict is Verdict.REVIEW
    assert {signal.rule_id for signal in report.signals} == {"secret.credential_assignment"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("sort_key", _hex(32)),
        ("idempotency_key", "6f1d2c3b-4a5e-4f60-9a7b-8c9d0e1f2a3b"),
        ("courier_key", "6f1d2c3b-4a5e-4f60-9a7b-8c9d0e1f2a3b"),
        ("message_key", "checkout.button.confirmLabel"),
        ("courier_key", "standard"),
        ("key_id", _hex(32)),
    ],
)
def test_data_keys_ids_and_names_stay_quiet(name: str, value: str) -> None:
    assert _scan(_keyed(name, value)).verdict is Verdict.PASS
