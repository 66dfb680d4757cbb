"""Generated credentials of many kinds, for the no-leak property tests.

Each builder takes a seeded ``random.Random`` and returns ``(text, secret)``:
the text to embed (the credential in the shape it is written in the wild,
with its prefix, its assignment or its URL) and the secret material that
must never reach any output. Keys are random characters in each provider's
format (with a computed checksum where the format has one): never real
credentials.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

from mcpscan._secrets import base62_crc32

A62 = string.ascii_letters + string.digits
URLSAFE = A62 + "-_"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits

Builder = Callable[[random.Random], tuple[str, str]]


def rand(rng: random.Random, n: int, alphabet: str = A62) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _plain(build: Callable[[random.Random], str]) -> Builder:
    def make(rng: random.Random) -> tuple[str, str]:
        value = build(rng)
        return value, value

    return make


def _assigned(words: tuple[str, ...], build: Callable[[random.Random], str]) -> Builder:
    """A value written after a credential word: ``password: "..."``."""

    def make(rng: random.Random) -> tuple[str, str]:
        value = build(rng)
        word = rng.choice(words)
        quote = rng.choice(['"', "'", ""])
        return f"{word}{rng.choice([': ', '=', ' = '])}{quote}{value}{quote}", value

    return make


def _github(rng: random.Random) -> tuple[str, str]:
    body = rand(rng, 30)
    token = f"gh{rng.choice('pousr')}_{body}{base62_crc32(body)}"
    return token, token


def _npm(rng: random.Random) -> tuple[str, str]:
    body = rand(rng, 30)
    token = f"npm_{body}{base62_crc32(body)}"
    return token, token


def _jwt(rng: random.Random) -> tuple[str, str]:
    header = _b64url(json.dumps({"alg": "RS256", "kid": rand(rng, 8)}).encode())
    claims = {"sub": rand(rng, 12), "iat": rng.randrange(10**9, 2 * 10**9)}
    payload = _b64url(json.dumps(claims).encode())
    token = f"{header}.{payload}.{_b64url(rng.randbytes(32))}"
    return token, token


def _pem(rng: random.Random) -> tuple[str, str]:
    body = base64.b64encode(rng.randbytes(300)).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    kind = rng.choice(["", "RSA ", "EC ", "OPENSSH "])
    block = f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"
    return block, lines


def _connection(rng: random.Random) -> tuple[str, str]:
    password = rand(rng, 10) + rng.choice("!#%^*") + rand(rng, 5)
    scheme = rng.choice(["postgresql", "mysql", "mongodb+srv", "redis", "amqp"])
    return f"{scheme}://svc_{rand(rng, 4, 'abcdefgh')}:{password}@db.internal.io:5432/x", password


def _slack_webhook(rng: random.Random) -> tuple[str, str]:
    path = f"T{rand(rng, 9, UPPER_DIGITS)}/B{rand(rng, 9, UPPER_DIGITS)}/{rand(rng, 24)}"
    return f"https://hooks.slack.com/services/{path}", path


def _discord(rng: random.Random) -> tuple[str, str]:
    user_id = str(rng.randrange(10**17, 10**19))
    first = base64.b64encode(user_id.encode()).decode().rstrip("=")
    token = f"{first}.{rand(rng, 6, URLSAFE)}.{rand(rng, 38, URLSAFE)}"
    return token, token


def _bearer(rng: random.Random) -> tuple[str, str]:
    token = rand(rng, 40, URLSAFE)
    return f"Authorization: Bearer {token}", token


def _basic(rng: random.Random) -> tuple[str, str]:
    encoded = base64.b64encode(f"svc:{rand(rng, 20)}".encode()).decode()
    return f"Authorization: Basic {encoded}", encoded


def _azure_storage(rng: random.Random) -> tuple[str, str]:
    key = base64.b64encode(rng.randbytes(64)).decode()
    text = (
        f"DefaultEndpointsProtocol=https;AccountName=acct{rand(rng, 6, HEX)};"
        f"AccountKey={key};EndpointSuffix=core.windows.net"
    )
    return text, key


def _telegram(rng: random.Random) -> tuple[str, str]:
    token = f"{rng.randrange(10**8, 10**10)}:AA{rand(rng, 33, URLSAFE)}"
    return token, token


def _discord_webhook(rng: random.Random) -> tuple[str, str]:
    token = rand(rng, 68, URLSAFE)
    return f"https://discord.com/api/webhooks/{rand(rng, 18, string.digits)}/{token}", token


def _base64_env(rng: random.Random) -> tuple[str, str]:
    """A .env pasted base64-encoded: the blob itself must not be shown."""
    env = f"DB_PASSWORD={rand(rng, 14)}!\nAPI_TOKEN=ghp_{rand(rng, 36)}\n"
    blob = base64.b64encode(env.encode()).decode()
    return blob, blob


def _after_prefix(prefix: str, build: Callable[[random.Random], str]) -> Builder:
    """A token whose documented prefix is eight characters or more
    (``rubygems_``): the prefix names the format and is printed in labels;
    the secret is the body after it."""

    def make(rng: random.Random) -> tuple[str, str]:
        body = build(rng)
        return prefix + body, body

    return make


def _hex_env(rng: random.Random) -> tuple[str, str]:
    """A .env dumped in hex (``xxd -p``): the hex run must not be shown."""
    env = f"STRIPE_SECRET=sk_live_{rand(rng, 28)}\n"
    blob = env.encode().hex()
    return blob, blob


def _foreign_key_word(rng: random.Random) -> tuple[str, str]:
    """A key after another language's key word ("clave de API: ..."). The
    words are ASCII: tag characters, one of the places, carry only ASCII
    (a dropped "キー" leaves "API : ...", no key word at all)."""
    value = rand(rng, 24) + rng.choice("-_") + rand(rng, 8)
    word = rng.choice(["clave de API", "chave de API", "chiave API", "klucz API", "jeton"])
    return f"{word}: {value}", value


# kind -> builder. Every kind the recognisers know, the formats the issue
# found unknown (Mailgun, Shopify, Discord, Twilio, quoted passwords), and
# common providers redaction must hide through its generic rules.
BUILDERS: dict[str, Builder] = {
    "aws_access_key": _plain(lambda r: "AKIA" + rand(r, 16, string.ascii_uppercase + "234567")),
    "aws_secret_key": _assigned(
        ("aws_secret_access_key", "AWS_SECRET_ACCESS_KEY"),
        lambda r: rand(r, 40, A62 + "/+"),
    ),
    "github_token": _github,
    "github_pat": _plain(lambda r: f"github_pat_{rand(r, 22)}_{rand(r, 59)}"),
    "gitlab_token": _plain(lambda r: "glpat-" + rand(r, 20)),
    "slack_token": _plain(
        lambda r: f"xoxb-{rand(r, 11, string.digits)}-{rand(r, 12, string.digits)}-{rand(r, 24)}"
    ),
    "slack_app_token": _plain(
        lambda r: (
            f"xapp-1-A{rand(r, 10, UPPER_DIGITS)}-{rand(r, 13, string.digits)}-{rand(r, 64, HEX)}"
        )
    ),
    "slack_webhook": _slack_webhook,
    "stripe_key": _plain(lambda r: r.choice(["sk", "rk"]) + "_live_" + rand(r, 28)),
    "openai_api_key": _plain(lambda r: f"sk-proj-{rand(r, 24)}T3BlbkFJ{rand(r, 24)}"),
    "anthropic_api_key": _plain(lambda r: f"sk-ant-api03-{rand(r, 93)}AA"),
    "google_api_key": _plain(lambda r: "AIza" + rand(r, 35, URLSAFE)),
    "huggingface_token": _plain(lambda r: "hf_" + rand(r, 34, string.ascii_letters)),
    "npm_token": _npm,
    "pypi_token": _plain(lambda r: "pypi-AgEIcHlwaS5vcmc" + rand(r, 70)),
    "sendgrid_api_key": _plain(lambda r: f"SG.{rand(r, 22)}.{rand(r, 43)}"),
    "twilio_api_key": _plain(lambda r: "SK" + rand(r, 32, HEX)),
    "twilio_account": _plain(lambda r: "AC" + rand(r, 32, HEX)),
    "mailgun_api_key": _plain(lambda r: "key-" + rand(r, 32, HEX)),
    "shopify_token": _plain(
        lambda r: r.choice(["shpat_", "shpss_", "shpca_", "shppa_"]) + rand(r, 32, HEX)
    ),
    "discord_bot_token": _discord,
    "telegram_bot_token": _telegram,
    "digitalocean_token": _plain(lambda r: "dop_v1_" + rand(r, 64, HEX)),
    "databricks_token": _plain(lambda r: "dapi" + rand(r, 32, HEX)),
    "linear_api_key": _plain(lambda r: "lin_api_" + rand(r, 40)),
    "postman_api_key": _plain(lambda r: f"PMAK-{rand(r, 24, HEX)}-{rand(r, 34, HEX)}"),
    "grafana_token": _plain(lambda r: f"glsa_{rand(r, 32)}_{rand(r, 8, HEX)}"),
    "vault_token": _plain(lambda r: "hvs." + rand(r, 90, URLSAFE)),
    "jwt": _jwt,
    "private_key": _pem,
    "connection_string": _connection,
    "azure_storage_key": _azure_storage,
    "password_assignment": _assigned(
        ("password", "PASSWORD", "passwd", "db_password"),
        lambda r: rand(r, 12) + r.choice("!#%^*@") + rand(r, 6),
    ),
    "api_key_assignment": _assigned(("api_key", "apiKey", "X-API-Key"), lambda r: rand(r, 32, HEX)),
    "bearer_token": _bearer,
    "basic_auth": _basic,
    "high_entropy": _plain(lambda r: rand(r, 48)),
    # The provider table (mcpscan/lexicon/secrets/providers.json).
    "notion_token": _plain(lambda r: "secret_" + rand(r, 43)),
    "docker_hub_token": _plain(lambda r: "dckr_pat_" + rand(r, 27, URLSAFE)),
    "groq_api_key": _plain(lambda r: "gsk_" + rand(r, 52)),
    "replicate_token": _plain(lambda r: "r8_" + rand(r, 37)),
    "square_token": _plain(lambda r: "sq0csp-" + rand(r, 43, URLSAFE)),
    "braintree_token": _plain(
        lambda r: f"access_token$production${rand(r, 16, HEX)}${rand(r, 32, HEX)}"
    ),
    "webhook_url": _discord_webhook,
    "hex_key_assignment": _assigned(
        ("api key", "Auth Token", "integration key"), lambda r: rand(r, 32, HEX)
    ),
    "password_in_german": _assigned(
        ("Passwort", "Kennwort"), lambda r: rand(r, 10) + "#7" + rand(r, 4)
    ),
    "base64_env": _base64_env,
    "hex_env": _hex_env,
    "foreign_key_word": _foreign_key_word,
    # Provider formats added with the hard tier.
    "azure_ad_client_secret": _plain(lambda r: f"{rand(r, 3)}8Q~{rand(r, 34, URLSAFE + '.~')}"),
    "google_oauth_secret": _plain(lambda r: "GOCSPX-" + rand(r, 28, URLSAFE)),
    "openrouter_api_key": _after_prefix("sk-or-v1-", lambda r: rand(r, 64, HEX)),
    "new_relic_key": _plain(lambda r: "NRAK-" + rand(r, 27, UPPER_DIGITS)),
    "sentry_token": _plain(lambda r: "sntryu_" + rand(r, 64, HEX)),
    "dynatrace_token": _plain(
        lambda r: f"dt0c01.{rand(r, 24, UPPER_DIGITS)}.{rand(r, 64, UPPER_DIGITS)}"
    ),
    "mailchimp_api_key": _plain(lambda r: f"{rand(r, 32, HEX)}-us{r.randrange(1, 21)}"),
    "circleci_token": _plain(lambda r: f"CCIPAT_{rand(r, 22)}_{rand(r, 40, HEX)}"),
    "rubygems_api_key": _after_prefix("rubygems_", lambda r: rand(r, 48, HEX)),
    "age_secret_key": _after_prefix(
        "AGE-SECRET-KEY-1", lambda r: rand(r, 58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
    ),
}

#: Length of the shortest piece of a secret that counts as a leak.
LEAK_WINDOW = 8


def leak_windows(secret: str) -> frozenset[str]:
    """Every 8-character piece of ``secret``, lower-cased, that must not appear.

    Pieces across a line break are left out (output escapes the break, so
    they cannot appear as such; the pieces on either side are checked).
    """
    lowered = secret.lower()
    return frozenset(
        lowered[i : i + LEAK_WINDOW]
        for i in range(len(lowered) - LEAK_WINDOW + 1)
        if not any(c.isspace() for c in lowered[i : i + LEAK_WINDOW])
    )


def leaked_piece(secret: str, output: str) -> str | None:
    """A piece of ``secret`` that ``output`` shows (case-insensitive), if any."""
    lowered = output.lower()
    for piece in sorted(leak_windows(secret)):
        if piece in lowered:
            return piece
    return None
