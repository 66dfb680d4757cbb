"""embedded-secret: the provider table (``lexicon/secrets/providers.json``),
webhook URLs, named key words, passwords in prose and other languages,
secrets hidden in base64 or split over two fields, and the look-alikes of
each that must stay quiet (publishable keys, documentation values, words).

Every secret here is a generated fake.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import Any

import pytest
from helpers import reviewable_rules

import mcpscan
from mcpscan._secrets import KINDS, about_credential, base62_crc32, find_secrets, token_head
from mcpscan.checks.embedded_secret import CHECK

A62 = string.ascii_letters + string.digits
URLSAFE = A62 + "-_"
HEX = "0123456789abcdef"
_RNG = random.Random(909)


def rand(n: int, alphabet: str = A62) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def uuid() -> str:
    return f"{rand(8, HEX)}-{rand(4, HEX)}-4{rand(3, HEX)}-a{rand(3, HEX)}-{rand(12, HEX)}"


def tool(description: str = "Calls the service.", **properties: Any) -> dict[str, Any]:
    return {
        "name": "call_service",
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


def raised(spec: dict[str, Any]) -> set[str]:
    """The embedded-secret rules a person would be asked to review."""
    report = mcpscan.scan(spec, checks=[CHECK])
    return reviewable_rules(report)


GITHUB_BODY = rand(30)
PROVIDER_TEXTS = {
    "notion_token": f"Shares pages through the integration secret_{rand(43)}.",
    "linear_api_key": f"Files issues with lin_api_{rand(40)}.",
    "docker_hub_token": f"Pulls private images with dckr_pat_{rand(27, URLSAFE)}.",
    "netlify_token": f"Deploys previews with nfp_{rand(40)}.",
    "heroku_api_key": f"Scales dynos with HRKU-AA{rand(58, URLSAFE)}.",
    "atlassian_token": f"Jira Cloud as ops@corp.io, token ATATT3xFfGF0{rand(180, URLSAFE)}.",
    "groq_api_key": f"Fast inference via gsk_{rand(52)}.",
    "replicate_token": f"Runs models with r8_{rand(37)}.",
    "perplexity_api_key": f"Searches with pplx-{rand(48)}.",
    "xai_api_key": f"Calls Grok with xai-{rand(80)}.",
    "stripe_key": f"Verifies events with whsec_{rand(32)}.",
    "square_token": f"Charges cards with sq0atp-{rand(22, URLSAFE)}.",
    "braintree_token": f"Braintree: access_token$production${rand(16, HEX)}${rand(32, HEX)}",
    "okta_token": f"Authorization: SSWS 00{rand(40, URLSAFE)}",
    "vault_token": f"Reads secrets with hvs.{rand(95, URLSAFE)}",
    "mapbox_secret_token": f"Uploads tiles with sk.eyJ1Ijoi{rand(50, URLSAFE)}.{rand(22, URLSAFE)}",
    "mailgun_api_key": f"Mailgun sending key {rand(32, HEX)}-{rand(8, HEX)}-{rand(8, HEX)}.",
    "webhook_url": f"Alerts go to https://discord.com/api/webhooks/{rand(18, string.digits)}/"
    f"{rand(68, URLSAFE)}",
}


@pytest.mark.parametrize("kind", sorted(PROVIDER_TEXTS))
def test_provider_table_kinds_in_prose(kind: str) -> None:
    assert f"secret.{kind}" in raised(tool(PROVIDER_TEXTS[kind]))


def test_the_table_kinds_are_kinds() -> None:
    assert {"notion_token", "webhook_url", "docker_hub_token", "groq_api_key"} <= set(KINDS)
    assert len(KINDS) == len(set(KINDS))


@pytest.mark.parametrize(
    "text",
    [
        # A word or a number after a prefix is no token.
        "secret_management_guide_for_platform_teams_and_operators_v2",
        "Set NOTION_TOKEN to your secret_... value from the integration page.",
        "Docker Hub tokens start with dckr_pat_ and are created in Account settings.",
        # The webhook URL documented with its template fields.
        "Post to https://discord.com/api/webhooks/{webhook.id}/{webhook.token}.",
        # Stripe's own documentation test key.
        "Try it with sk_test_4eC39HqLyjWDarjtT1zdp7dc in test mode.",
        # Test-mode keys reach no money and stay quiet, as documented.
        f"The sandbox runs with sk_test_{rand(24)}.",
        # An unsigned JWT shows a claim layout and authenticates nobody.
        "Token layout: eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJzdmMtYmlsbGluZyJ9.",
    ],
)
def test_provider_look_alikes_stay_quiet(text: str) -> None:
    assert raised(tool(text)) == set()


@pytest.mark.parametrize(
    "text",
    [
        f"Send metrics to Datadog (api key {rand(32, HEX)}).",
        f"PagerDuty integration key {rand(32, HEX)} routes the alert.",
        f"Twilio Auth Token {rand(32, HEX)} signs the requests.",
        f"X-Auth-Key: {rand(37, HEX)}",
        f"Algolia admin API key {rand(32, HEX)}",
    ],
)
def test_hex_keys_after_a_named_key_word(text: str) -> None:
    assert "secret.credential_assignment" in raised(tool(text))


@pytest.mark.parametrize(
    "text",
    [
        "routing_key: orders.created",
        "The app key field is shown on the dashboard.",
        "Its api key looks like a 32-character hex string.",
        f"Algolia search-only API key {rand(32, HEX)} (public, used by the site search box).",
        f"Firebase web config: apiKey AIza{rand(35, URLSAFE)}, public by design.",
        f"reCAPTCHA site key 6L{rand(38, URLSAFE)} goes in the page.",
        f"Public Mapbox token pk.eyJ1Ijoi{rand(50, URLSAFE)}.{rand(22, URLSAFE)}",
        f"Commit {rand(40, HEX)} of the theme repository.",
    ],
)
def test_public_and_descriptive_key_words_stay_quiet(text: str) -> None:
    assert raised(tool(text)) == set()


@pytest.mark.parametrize(
    "text",
    [
        "Log in as admin with password Tr0ub4dor&3xKq!",
        "ssh deploy@10.0.0.5 (pw: Vb4%nMq8zKs1)",
        "Zugang: Benutzer admin, Passwort: Xk9!mQ2#vLp7",
        "Identifiants : admin / mot de passe : Rt7$kLp2@qWx",
        "Usuario admin, contrase\u00f1a: Vb4%nMq8!zKs",
        "\u30e6\u30fc\u30b6\u30fcadmin \u30d1\u30b9\u30ef\u30fc\u30c9\uff1aHq7!mZ2#pLx9",
        # "example" is a label of the mail host here, not an example cue.
        'host=smtp.corp.example.co.jp user=relay password: "CD9APE_TgO_bBkOf"',
    ],
)
def test_passwords_in_prose_and_other_languages(text: str) -> None:
    assert "secret.credential_assignment" in raised(tool(text))


@pytest.mark.parametrize(
    "text",
    [
        "Reset the password from the account page.",
        "Passwords need 12 characters, an uppercase letter and a digit.",
        "Passwort: mindestens zw\u00f6lf Zeichen",
        "e.g. password P@ssw0rd1 is rejected by the policy",
    ],
)
def test_password_words_in_prose_stay_quiet(text: str) -> None:
    assert raised(tool(text)) == set()


def test_secrets_hidden_in_base64_are_found_and_redacted() -> None:
    key_id = "AKIA" + rand(16, string.ascii_uppercase + "234567")
    env = f"AWS_ACCESS_KEY_ID={key_id}\nAWS_SECRET_ACCESS_KEY={rand(40, A62 + '/+')}\n"
    blob = base64.b64encode(env.encode()).decode()
    spec = tool(f"Bootstrap config (base64): {blob}")
    assert "secret.aws_access_key" in raised(spec)
    assert blob[:16] not in mcpscan.scan(spec).to_json()
    token = "ghp_" + GITHUB_BODY + base62_crc32(GITHUB_BODY)
    wrapped = base64.b64encode(f"token={token}".encode()).decode()
    assert "secret.github_token" in raised(tool(config={"type": "string", "default": wrapped}))


def test_base64_of_harmless_or_placeholder_text_stays_quiet() -> None:
    for text in (
        b"Hello {name}, your order {id} has shipped.",
        b"OPENAI_API_KEY=sk-your-key-here",
        json.dumps({"offset": 100, "cursor": "ord_88"}).encode(),
    ):
        assert raised(tool(f"Blob: {base64.b64encode(text).decode()}")) == set()


def test_a_token_split_over_two_fields() -> None:
    tail = rand(28)
    nested = tool(auth={"type": "object", "default": {"prefix": "sk_live_", "rest": tail}})
    assert "secret.stripe_key" in raised(nested)
    siblings = tool(
        key_head={"type": "string", "default": "sk_live_"},
        key_tail={"type": "string", "default": tail},
    )
    assert "secret.stripe_key" in raised(siblings)
    assert tail not in mcpscan.scan(siblings).to_json()
    checksum = "ghp_" + GITHUB_BODY + base62_crc32(GITHUB_BODY)
    listed = tool(k={"type": "string", "enum": [checksum[:4], checksum[4:]]})
    assert "secret.github_token" in raised(listed)


def test_a_prefix_beside_a_word_stays_quiet() -> None:
    spec = tool(
        prefix={"type": "string", "default": "sk_live_"},
        mode={"type": "string", "default": "production-environment"},
    )
    assert raised(spec) == set()


@pytest.mark.parametrize(
    ("value", "head"),
    [
        ("sk_live_", True),
        ("ghp_7Fq", True),
        ("secret_", True),
        ("string", False),
        ("a b", False),
        ("", False),
        # Any character ``str.isspace`` names breaks a head, not only ASCII
        # spaces: an ideographic space, a line separator, a trailing tab.
        ("sk_live_\u3000x", False),
        ("ghp_\u20287Fq", False),
        ("sk_live_\t", False),
    ],
)
def test_token_head(value: str, head: bool) -> None:
    assert token_head(value) is head


@pytest.mark.parametrize(
    ("name", "about"),
    [("session_name", True), ("public_token", True), ("api_key", False), ("password", False)],
)
def test_about_credential(name: str, about: bool) -> None:
    assert about_credential(name) is about


def test_names_about_a_credential_are_no_credential_slot() -> None:
    spec = tool(
        session_name={"type": "string", "default": "mcp-session"},
        public_token={"type": "string", "default": "pk.eyJ1Ijoi" + rand(40, URLSAFE)},
    )
    assert raised(spec) == set()


def test_table_matches_are_redacted_in_find_secrets() -> None:
    text = PROVIDER_TEXTS["notion_token"]
    (match,) = find_secrets(text)
    assert match.kind == "notion_token" and not match.placeholder
    assert text[match.start : match.end].startswith("secret_")


def test_base64_logins_after_an_auth_word() -> None:
    login = base64.b64encode(b"ci-bot:zymMlopiWfqUyHRSIf").decode()
    npmrc = tool(f"Publishes with this .npmrc:\n//registry.corp.io/:_auth={login}\n")
    assert "secret.credential_assignment" in raised(npmrc)
    docker = json.dumps({"auths": {"registry.corp.io": {"auth": login}}})
    assert "secret.credential_assignment" in raised(tool(cfg={"type": "string", "default": docker}))
    weak = base64.b64encode(b"admin:password").decode()
    assert raised(tool(f"//registry.corp.io/:_auth={weak}")) == set()


def test_a_jwt_with_a_typed_signature_is_a_layout() -> None:
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').rstrip(b"=").decode()
    claims = base64.urlsafe_b64encode(b'{"sub":"user_123","iat":1700000000}').rstrip(b"=")
    token = f"{header}.{claims.decode()}.dummysignature"
    assert raised(tool(token={"type": "string", "examples": [token]})) == set()


def test_a_percent_encoded_secret_is_found_and_redacted() -> None:
    key = "sk_live_" + rand(28)
    escaped = "".join(f"%{ord(char):02X}" for char in key)
    spec = tool(f"Callback: https://pay.corp.io/cb?k={escaped}")
    assert "secret.credential_assignment" in raised(spec)
    assert escaped[:24] not in mcpscan.scan(spec).to_json()
    assert raised(tool("Sends users to /next?to=%2Fhome%3Fa%3Db (50% of them).")) == set()
