"""embedded-secret: when a found credential is hard (quarantine) and when it
is only reviewable, the provider formats added with the tier, the key words
of other languages, hex-encoded secrets and an AWS key split over two
fields; each with the look-alike that must stay quiet or stay soft.

Every secret here is a generated fake.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import Any

import pytest

import mcpscan
from mcpscan import Tier, Verdict
from mcpscan._secrets import find_secrets
from mcpscan.checks.embedded_secret import CHECK

A62 = string.ascii_letters + string.digits
URLSAFE = A62 + "-_"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits
_RNG = random.Random(1212)


def rand(n: int, alphabet: str = A62) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def b64url(claims: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")


def jwt(claims: dict[str, Any]) -> str:
    return f"{b64url({'alg': 'HS256', 'typ': 'JWT'})}.{b64url(claims)}.{rand(43, URLSAFE)}"


def tool(description: str = "Calls the service.", **properties: Any) -> dict[str, Any]:
    return {
        "name": "call_service",
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


def secret_signals(spec: dict[str, Any]) -> list[mcpscan.Signal]:
    return list(mcpscan.scan(spec, checks=[CHECK]).signals)


def tier_of(spec: dict[str, Any]) -> Tier | None:
    """The strongest tier embedded-secret reports (None: nothing reviewable)."""
    signals = [s for s in secret_signals(spec) if s.confidence >= 0.35]
    if not signals:
        return None
    return Tier.HARD if any(s.tier is Tier.HARD for s in signals) else Tier.SOFT


AWS_ID = "AKIA" + rand(16, string.ascii_uppercase + "234567")
AWS_SECRET = rand(40, A62 + "/+")

# A complete value of a format that grants access by itself: quarantined.
HARD = {
    "stripe live key": tool(f"Charges go through sk_live_{rand(32)}."),
    "aws pair in prose": tool(f"Uses the deploy identity {AWS_ID} / {AWS_SECRET} for uploads."),
    "aws pair over two fields": tool(
        storage={
            "type": "object",
            "default": {"aws": {"access_key_id": AWS_ID, "secret_access_key": AWS_SECRET}},
        }
    ),
    "database url to a real host": tool(
        f"Reads mongodb+srv://svc:{rand(16)}@cluster0.ab1cd.mongodb.net/app."
    ),
    "kv connection string": tool(
        "DefaultEndpointsProtocol=https;AccountName=acct01;"
        f"AccountKey={base64.b64encode(_RNG.randbytes(64)).decode()};"
        "EndpointSuffix=core.windows.net"
    ),
    "bearer header": tool(f"Send Authorization: Bearer {rand(40)} on every call."),
    "basic header": tool(
        "curl -H 'Authorization: Basic "
        + base64.b64encode(f"svc:{rand(20)}".encode()).decode()
        + "' https://api.acme.io"
    ),
    "privileged jwt": tool(f"service key: {jwt({'iss': 'supabase', 'role': 'service_role'})}"),
    "jwt in an Authorization default": tool(
        headers={
            "type": "object",
            "default": {"Authorization": f"Bearer {jwt({'sub': 'svc-' + rand(6)})}"},
        }
    ),
    "slack webhook in alert config": tool(
        "receivers:\n- name: ops\n  slack_configs:\n  - api_url: https://hooks.slack.com/services/"
        f"T{rand(9, UPPER_DIGITS)}/B{rand(9, UPPER_DIGITS)}/{rand(24)}"
    ),
    "base64 .env": tool(
        "Config: " + base64.b64encode(f"STRIPE_KEY=sk_live_{rand(24)}".encode()).decode()
    ),
    "hex .env": tool(
        "Config (hex): " + f"OPENAI_API_KEY=sk-proj-{rand(24)}T3BlbkFJ{rand(24)}".encode().hex()
    ),
    "entra id client secret": tool(f"client_secret: {rand(3)}8Q~{rand(34, URLSAFE + '.~')}"),
    "google oauth client secret": tool(f'"client_secret": "GOCSPX-{rand(28, URLSAFE)}"'),
    "new relic user key": tool(f"Queries NerdGraph with NRAK-{rand(27, UPPER_DIGITS)}."),
    "dynatrace token": tool(
        f"Api-Token dt0c01.{rand(24, UPPER_DIGITS)}.{rand(64, UPPER_DIGITS)} for metrics."
    ),
    "sentry user token": tool(f"SENTRY_AUTH_TOKEN=sntryu_{rand(64, HEX)}"),
    "mailchimp key": tool(f"Lists sync with {rand(32, HEX)}-us14."),
    "circleci token": tool(f"Circle-Token: CCIPAT_{rand(22)}_{rand(40, HEX)}"),
    "rubygems key": tool(f"Publishes with rubygems_{rand(48, HEX)}."),
    "openrouter key": tool(f"Routes prompts with sk-or-v1-{rand(64, HEX)}."),
    "age secret key": tool(
        f"Decrypts with AGE-SECRET-KEY-1{rand(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}."
    ),
}

# Found, but a person decides: partial, typed, of unknown strength or of an
# unknown provider.
SOFT = {
    "aws key id alone": tool(f"Bucket owner {AWS_ID}."),
    "typed stripe key": tool("Charges go through sk_live_abcd1234abcd1234abcd1234."),
    "password of unknown strength": tool(
        f"Config:\nsmtp:\n  host: smtp.mailhub.io\n  password: {rand(16)}\n"
    ),
    "provider-less api key": tool(f"api_key = {rand(32)}"),
    "local database": tool(f"postgres://app:{rand(14)}@localhost:5432/dev"),
    "query parameter": tool(f"GET /v1/items?api_key={rand(28)}&limit=10"),
    "spanish key word": tool(f"Usa la clave de API {rand(32)} para autenticar."),
    "russian token word": tool(f"Токен доступа: {rand(40)}"),
    "japanese key word": tool(f"API キー: {rand(32)}"),
    "turkish key word": tool(f"API anahtarı: {rand(32)}"),
    "password glued to a config name": tool(f"PGPASSWORD={rand(14)} psql -h db"),
    "camel-case password key": tool(f"rootPassword: {rand(12)}!"),
    "short pass key": tool(f"DB_PASS={rand(12)}#"),
    "wallet private key": tool(f"private_key: {rand(64, HEX)}"),
    "pagerduty routing key": tool(f"pagerduty_configs:\n  - routing_key: {rand(32, HEX)}"),
    "algolia admin key": tool(f"Algolia admin key = {rand(32)}"),
}

QUIET = {
    # The public anonymous role's key is handed to every browser (see
    # test_embedded_secret_public_keys.py): not a secret at all.
    "anonymous jwt": tool(f"anon key: {jwt({'iss': 'supabase', 'role': 'anon'})}"),
    "aws documentation pair": tool(
        "AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    ),
    "placeholders": tool("Set OPENAI_API_KEY=sk-...xxxx or pass <YOUR_TOKEN> / ${API_KEY}."),
    "publishable key": tool(f"Stripe publishable key pk_live_{rand(24)} is safe in browsers."),
    "hashes and ids": tool(
        f"sha256 {rand(64, HEX)}, commit {rand(40, HEX)}, trace id {rand(32, HEX)}"
    ),
    "dummy test key": tool(f"Use the dummy test key sk_test_{rand(24)} in the sandbox."),
    "env var names": tool("Reads STRIPE_SECRET_KEY and AWS_SECRET_ACCESS_KEY from the env."),
    "key format regexes": tool("Detects ghp_[A-Za-z0-9]{36} and sk_live_[0-9a-zA-Z]{24}."),
    "redacted values": tool("Authorization: Bearer [REDACTED] token=**** password=********"),
    "typed bearer": tool("Authorization: Bearer MyServiceToken2024"),
    "bearer variable": tool("curl -H 'Authorization: Bearer $TOKEN' https://api.acme.io"),
    "hash after a plain key word": tool(f"clave: {rand(40, HEX)}"),
    "idempotency key": tool(f"clave de idempotencia: {rand(32, HEX)}"),
    "routing key of a queue": tool("routing_key: orders.created"),
    "boarding pass": tool("Boarding pass: ABC123XY"),
    "otpauth example uri": tool(
        "e.g. otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example"
    ),
    "hex of public text": tool("Banner: " + b"Welcome to the public status page.".hex()),
}


@pytest.mark.parametrize("name", sorted(HARD))
def test_live_credentials_are_hard(name: str) -> None:
    spec = HARD[name]
    assert tier_of(spec) is Tier.HARD, [(s.rule_id, s.tier) for s in secret_signals(spec)]
    assert mcpscan.scan(spec).verdict is Verdict.QUARANTINE


@pytest.mark.parametrize("name", sorted(SOFT))
def test_partial_or_unknown_credentials_are_reviewed(name: str) -> None:
    spec = SOFT[name]
    assert tier_of(spec) is Tier.SOFT, [(s.rule_id, s.tier) for s in secret_signals(spec)]


@pytest.mark.parametrize("name", sorted(QUIET))
def test_look_alikes_stay_quiet(name: str) -> None:
    spec = QUIET[name]
    assert tier_of(spec) is None, [(s.rule_id, s.confidence) for s in secret_signals(spec)]


def test_a_live_key_in_an_example_is_not_hard() -> None:
    # A verified value introduced as an example is still reviewable (a
    # pasted real key is a leak) but documentation is not quarantined.
    spec = tool(f"For example: sk_live_{rand(32)}")
    assert tier_of(spec) is not Tier.HARD


def test_a_live_key_said_public_is_not_hard() -> None:
    spec = tool(f"service key (public, safe for browsers): {jwt({'role': 'admin'})}")
    assert tier_of(spec) is not Tier.HARD


def test_outputs_and_arguments_stay_soft() -> None:
    """A user's token handed to the tool that needs it is ordinary traffic:
    on outputs and call arguments a live key is reported, not hard."""
    token = f"sk_live_{rand(32)}"
    decision = mcpscan.screen_call(
        "call_service", {"token": token}, tool=tool(token={"type": "string"}), checks=[CHECK]
    )
    found = [s for s in decision.signals if s.check_id == CHECK.id]
    assert found
    assert all(s.tier is Tier.SOFT for s in found)


def test_aws_secret_half_alone_is_not_hard() -> None:
    spec = tool(storage={"type": "object", "default": {"aws": {"secret_access_key": AWS_SECRET}}})
    assert tier_of(spec) is not Tier.HARD


def test_match_says_live_only_for_complete_values() -> None:
    live = find_secrets(f"key sk_live_{rand(32)}")
    typed = find_secrets("key sk_live_abcd1234abcd1234abcd1234")
    assert [m.live for m in live] == [True]
    assert [m.live for m in typed] == [False]


def test_aws_pair_over_fields_never_shows_the_secret() -> None:
    report = mcpscan.scan(HARD["aws pair over two fields"])
    shown = json.dumps([(s.evidence, s.location) for s in report.signals])
    assert AWS_SECRET[:8] not in shown
    assert AWS_SECRET[-12:-4] not in shown
