"""embedded-secret: keys public by design stay quiet (issue 12's look-alike
line), their secret siblings do not.

* a JWT whose ``role`` claim is the anonymous public role (a Supabase
  "anon" key, PostgREST's "anonymous") is handed to every browser; a
  "service_role" or "authenticated" token is a credential;
* the Azure Storage emulator's published development key opens only the
  emulator; another account key in the same string shape is a leak.

Every secret here is a generated fake.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

import mcpscan
from mcpscan._secrets import find_secrets
from mcpscan.checks.embedded_secret import CHECK

_RNG = random.Random(2026)


def _b64url(value: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _jwt(role: str) -> str:
    header = _b64url({"alg": "HS256", "typ": "JWT"})
    claims = _b64url({"iss": "supabase", "ref": "qwhzkrtbnmvo", "role": role, "iat": 1718000000})
    signature = "".join(_RNG.choice(string.ascii_letters + string.digits) for _ in range(43))
    return f"{header}.{claims}.{signature}"


def _reported(text: str) -> set[str]:
    return {match.kind for match in find_secrets(text) if not match.placeholder}


@pytest.mark.parametrize("role", ["anon", "anonymous", "public"])
def test_jwt_of_the_public_anonymous_role_is_no_secret(role: str) -> None:
    assert "jwt" not in _reported(f"Public client key: {_jwt(role)}")


@pytest.mark.parametrize("role", ["service_role", "authenticated", "admin"])
def test_jwt_of_a_privileged_role_is_a_secret(role: str) -> None:
    assert "jwt" in _reported(f"Server key: {_jwt(role)}")


_EMULATOR_KEY = (
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)


def test_published_storage_emulator_key_is_no_secret() -> None:
    text = (
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        f"AccountKey={_EMULATOR_KEY};BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;"
    )
    assert not _reported(text)


def test_another_storage_account_key_is_a_secret() -> None:
    key = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(64))).decode()
    text = (
        "DefaultEndpointsProtocol=https;AccountName=prodreports;"
        f"AccountKey={key};EndpointSuffix=core.windows.net"
    )
    assert _reported(text)


def _google_key() -> str:
    alphabet = string.ascii_letters + string.digits + "-_"
    return "AIza" + "".join(_RNG.choice(alphabet) for _ in range(35))


def _scan_output_example(example: dict[str, str]) -> mcpscan.Report:
    spec = {
        "name": "web_app_settings",
        "description": "Returns the settings the single-page app loads at start.",
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {"type": "object", "examples": [example]},
    }
    return mcpscan.scan(spec, checks=[CHECK], strict=True)


def test_browser_config_object_around_a_google_key_is_not_a_leak() -> None:
    # A web app's client configuration: the key identifies the project and
    # ships to every browser; its siblings (the auth domain, project and
    # app ids) say what object it is. The auth domain is no credential.
    report = _scan_output_example(
        {
            "apiKey": _google_key(),
            "authDomain": "tiny-garden.firebaseapp.com",
            "projectId": "tiny-garden",
            "appId": "1:204811:web:9f3c2a",
        }
    )
    assert report.verdict is mcpscan.Verdict.PASS
    (signal,) = report.signals
    assert signal.tier is mcpscan.Tier.SOFT
    assert "public client configuration" in signal.evidence


def test_google_key_beside_a_model_and_prompt_stays_a_live_leak() -> None:
    # The same key shape in a request for a paid model API: nothing marks a
    # configuration shipped to browsers, so it is the credential itself.
    report = _scan_output_example(
        {"apiKey": _google_key(), "model": "gemini-pro", "projectId": "tiny-garden"}
    )
    assert report.verdict is mcpscan.Verdict.QUARANTINE
