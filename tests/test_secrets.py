"""The secret recognisers shared by embedded-secret and evidence redaction.

Every secret below is fake: random characters in a provider's format, with
a computed checksum where the format has one. None was ever issued.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
import string
import time

import pytest

from mcpscan._evidence import safe_evidence
from mcpscan._secrets import (
    _ASSIGNMENT_STARTS,
    _RULES,
    KINDS,
    _rule_matches,
    base62_crc32,
    credential_value,
    find_secret_spans,
    find_secrets,
    scan_secrets,
    shannon_entropy,
)

A62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits
_RNG = random.Random(4242)


def rand(n: int, alphabet: str = A62) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def github(prefix: str = "ghp") -> str:
    body = rand(30)
    return f"{prefix}_{body}{base62_crc32(body)}"


def npm() -> str:
    body = rand(30)
    return f"npm_{body}{base62_crc32(body)}"


def jwt(claims: dict[str, object] | None = None) -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps(claims or {"sub": rand(10), "iat": 1_700_000_000}).encode())
    return f"{header}.{payload}.{b64url(bytes(_RNG.randrange(256) for _ in range(32)))}"


def pem(kind: str = "RSA ") -> str:
    body = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(400))).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"


# (kind, value, minimum confidence): one generated example per recogniser.
SAMPLES = [
    ("aws_access_key", "AKIA" + rand(16, string.ascii_uppercase + "234567"), 0.6),
    ("github_token", github(), 0.9),
    ("github_token", github("ghs"), 0.9),
    ("github_token", f"github_pat_{rand(22)}_{rand(59)}", 0.9),
    ("gitlab_token", "glpat-" + rand(20), 0.6),
    ("slack_token", f"xoxb-{rand(11, string.digits)}-{rand(12, string.digits)}-{rand(24)}", 0.9),
    (
        "slack_webhook",
        "https://hooks.slack.com/services/"
        f"T{rand(9, UPPER_DIGITS)}/B{rand(9, UPPER_DIGITS)}/{rand(24)}",
        0.9,
    ),
    ("stripe_key", "sk_live_" + rand(24), 0.6),
    ("stripe_key", "rk_live_" + rand(24), 0.6),
    ("openai_api_key", f"sk-proj-{rand(20)}T3BlbkFJ{rand(20)}", 0.9),
    ("openai_api_key", "sk-proj-" + rand(60), 0.6),
    ("anthropic_api_key", f"sk-ant-api03-{rand(93)}AA", 0.9),
    ("google_api_key", "AIza" + rand(35), 0.6),
    ("huggingface_token", "hf_" + rand(34, string.ascii_letters), 0.6),
    ("npm_token", npm(), 0.9),
    ("pypi_token", "pypi-AgEIcHlwaS5vcmc" + rand(80), 0.9),
    ("sendgrid_api_key", f"SG.{rand(22)}.{rand(43)}", 0.9),
    ("twilio_key", "SK" + rand(32, HEX), 0.6),
    ("mailgun_api_key", "key-" + rand(32, HEX), 0.6),
    ("shopify_token", "shpat_" + rand(32, HEX), 0.6),
    ("shopify_token", "shpss_" + rand(32, HEX), 0.6),
    (
        "discord_bot_token",
        base64.b64encode(b"1098765432109876543").decode().rstrip("=")
        + f".{rand(6)}.{rand(38, A62 + '-_')}",
        0.9,
    ),
    ("telegram_bot_token", f"7{rand(9, string.digits)}:AA{rand(33)}", 0.6),
    ("digitalocean_token", "dop_v1_" + rand(64, HEX), 0.6),
    ("databricks_token", "dapi" + rand(32, HEX), 0.6),
    ("postman_api_key", f"PMAK-{rand(24, HEX)}-{rand(34, HEX)}", 0.6),
    ("grafana_token", f"glsa_{rand(32)}_{rand(8, HEX)}", 0.6),
    ("jwt", jwt(), 0.9),
]


@pytest.mark.parametrize(("kind", "value", "minimum"), SAMPLES)
def test_each_format_is_recognised_with_its_confidence(
    kind: str, value: str, minimum: float
) -> None:
    (match,) = find_secrets(f"Connect with {value} please.")
    assert match.kind == kind
    assert match.confidence >= minimum
    assert not match.placeholder
    # The whole value is the secret; for a webhook URL, the path after the host.
    found = f"Connect with {value} please."[match.start : match.end]
    assert found == value or (kind == "slack_webhook" and value.endswith(found))


def test_every_kind_is_declared() -> None:
    assert {kind for kind, _, _ in SAMPLES} <= set(KINDS)
    assert len(set(KINDS)) == len(KINDS)


def test_github_checksum_scheme() -> None:
    # The GMP base-62 alphabet, left-padded to six characters; example from
    # the therootcompany/base62-token.js specification.
    assert base62_crc32("zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ") == "0mLq17"
    token = github()
    assert find_secrets(token)[0].basis == "checksum"
    broken = token[:-1] + ("A" if token[-1] != "A" else "B")
    (match,) = find_secrets(broken)
    assert match.basis == "prefix"
    assert 0.35 <= match.confidence < 0.6


def test_npm_checksum_is_checked_like_github() -> None:
    token = npm()
    assert find_secrets(token)[0].confidence >= 0.9
    assert find_secrets(token[:-2] + "zz")[0].confidence < 0.6


def test_aws_key_id_and_secret_verify_each_other() -> None:
    key_id = "AKIA" + rand(16, string.ascii_uppercase + "234567")
    secret = rand(40, A62 + "/+")
    text = f"aws_access_key_id={key_id}\naws_secret_access_key={secret}"
    kinds = {m.kind: m.confidence for m in find_secrets(text)}
    assert kinds == {"aws_access_key": 0.9, "aws_secret_key": 0.9}


def test_aws_secret_needs_an_aws_context() -> None:
    assert not [m for m in find_secrets(f"checksum {rand(40)}") if m.kind == "aws_secret_key"]


def test_jwt_must_decode() -> None:
    assert find_secrets(jwt())[0].kind == "jwt"
    fake_header = b64url(b'{"typ":"JWT"}')  # no "alg"
    assert not [m for m in find_secrets(f"{fake_header}.{b64url(b'{}x')}.abc") if m.kind == "jwt"]


def test_pem_block_redacts_the_body_only() -> None:
    block = pem()
    (match,) = find_secrets(block)
    assert match.kind == "private_key"
    assert match.confidence >= 0.9
    assert block[: match.start].startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert block[match.end :].strip() == "-----END RSA PRIVATE KEY-----"


def test_pem_pasted_into_json_with_escaped_newlines() -> None:
    escaped = pem("EC ").replace("\n", "\\n")
    assert find_secrets(escaped)[0].kind == "private_key"


def test_openssh_key_with_zero_runs_is_not_a_placeholder() -> None:
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB"
    block = (
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}{rand(160, A62 + '+/')}\n"
        "-----END OPENSSH PRIVATE KEY-----"
    )
    (match,) = find_secrets(block)
    assert not match.placeholder


@pytest.mark.parametrize(
    "text",
    [
        f"postgresql://svc_app:{rand(14)}@db.internal.acme.io:5432/prod",
        f"mongodb+srv://reader:{rand(16)}@cluster0.ab12c.mongodb.net/shop",
        f"Server=sql01;Database=erp;User Id=svc;Password={rand(12)}!;",
        f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={rand(86)}==;",
    ],
)
def test_connection_strings_with_passwords(text: str) -> None:
    (match,) = find_secrets(text)
    assert match.kind == "connection_string"
    assert match.confidence >= 0.5
    assert not match.placeholder
    assert "@" not in text[match.start : match.end]  # only the password is the secret


@pytest.mark.parametrize(
    "text",
    [
        f"password: Zq8#{rand(8)}",
        f"the admin password is Tr0ub4dor&{rand(3, string.digits)}",
        f"Authorization: Bearer {rand(40)}",
        "Authorization: Basic " + base64.b64encode(f"deploy:{rand(12)}".encode()).decode(),
        f'api_key = "{rand(20)}"',
    ],
)
def test_credential_assignments(text: str) -> None:
    (match,) = find_secrets(text)
    assert match.kind == "credential_assignment"
    assert match.confidence >= 0.5


def test_high_entropy_alone_is_low_and_with_context_higher() -> None:
    value = rand(48)
    (bare,) = find_secrets(f"identifier {value}")
    assert (bare.kind, bare.confidence) == ("high_entropy", 0.2)
    (near,) = find_secrets(f"signing secret: {value}")
    assert near.confidence <= 0.5


@pytest.mark.parametrize(
    "text",
    [
        "AKIAIOSFODNN7EXAMPLE",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "sk_live_" + "0" * 24,
        "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH",
        "gho_16C7e42F292c6912E7710c838347Ae178B4a",
        "postgresql://user:password@localhost:5432/db",
        "postgresql://user:pass@host:port/db",
        "redis://:${REDIS_PASSWORD}@cache:6379",
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
        "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "Authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQ=",
        "password: YOUR_PASSWORD_HERE",
    ],
)
def test_documentation_placeholders_are_flagged(text: str) -> None:
    assert all(m.placeholder for m in find_secrets(text)), find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "your-api-key",
        "<token>",
        "sk-...XXXX",
        "${GITHUB_TOKEN}",
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
        "id 7d444840-9dc0-11d1-b245-5ffdce74fad2",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
        "SGVsbG8sIHdvcmxkISBUaGlzIGlzIGEgdGVzdCBzdHJpbmcu",
        "getOrganizationMembershipInvitationsForUser2024",
        "/api/v3/organizations/memberships/invitations/pending",
        "The key must start with -----BEGIN PRIVATE KEY----- and end with -----END PRIVATE KEY.",
        "password: the account password, at least 12 characters",
        "token (20-character body)",
        "npm_config_registry and npm_package_version",
        "pk_live_51Hx2kQJ8fGh3LmN0pQrStUvWxYz",
        "host key fingerprint SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
        'integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"',
        "short",
        # Near misses of the prefix formats: a dotted name that does not
        # decode to an id, a hex run of the wrong length, a word "key-".
        "MyModule.method.InvocationHandlerRegistry",
        "a key-value store keyed by key-name",
        "shpat_ is the Shopify admin token prefix",
        "rate 1234567890:AB limit",
    ],
)
def test_non_secrets_are_not_matched(text: str) -> None:
    assert find_secrets(text) == []


def test_public_key_material_is_not_a_secret() -> None:
    body = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(300))).decode()
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    certificate = f"-----BEGIN CERTIFICATE-----\n{lines}\n-----END CERTIFICATE-----"
    assert find_secrets(certificate) == []
    ssh_public = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rand(43) + " alice@laptop"
    assert find_secrets(ssh_public) == []


def test_entropy_in_an_example_is_capped() -> None:
    (match,) = find_secrets(f"Example salt (base64) for the key: {rand(44)}")
    assert match.example and match.confidence < 0.35


def test_example_context_lowers_unverified_matches_below_review() -> None:
    key = "AKIA" + rand(16, string.ascii_uppercase + "234567")
    (plain,) = find_secrets(f"Uses {key}.")
    (example,) = find_secrets(f"for example {key}.")
    assert plain.confidence >= 0.6
    assert example.example and example.confidence < 0.35


def test_example_context_keeps_verified_matches_reviewable() -> None:
    (match,) = find_secrets(f"e.g. {github()}")
    assert match.example and match.confidence >= 0.35


def test_redaction_markers_are_not_recognised_again() -> None:
    text = "[REDACTED_GITHUB_TOKEN:last4=abcd] and [REDACTED_CONNECTION_STRING:last4=x9Z!]"
    assert find_secrets(text) == []


def test_overlaps_prefer_the_provider_format() -> None:
    token = github()
    (match,) = find_secrets(f"token={token}")
    assert match.kind == "github_token"


def test_spans_are_sorted_and_disjoint() -> None:
    text = f"{github()} then {npm()} then {jwt()} then AKIA{rand(16, UPPER_DIGITS)}"
    spans = find_secret_spans(text)
    assert [kind for _, _, kind in spans] == ["github_token", "npm_token", "jwt", "aws_access_key"]
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def test_safe_evidence_redacts_every_sample() -> None:
    for _, value, _ in SAMPLES:
        out = safe_evidence(f"found {value} here", 400)
        assert value not in out
        assert "[REDACTED_" in out


def test_credential_value() -> None:
    assert credential_value("Zx8!qLp2Wm")
    assert not credential_value("Required")
    assert not credential_value("changeme123")
    assert not credential_value("${DB_PASSWORD}")
    assert not credential_value("two words")
    assert not credential_value("~/.aws/credentials")
    assert not credential_value("service-account.json")
    assert not credential_value("ops-admin@acme.io")


def test_shannon_entropy() -> None:
    assert shannon_entropy("") == 0.0
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("abcd") == 2.0


def test_unicode_that_grows_when_lowercased_keeps_offsets() -> None:
    text = f"\u0130\u0130 password = Zq8#{rand(8)}"
    (match,) = find_secrets(text)
    assert text[match.start : match.start + 4] == "Zq8#"


HOSTILE = [
    "a" * 100_000,
    "AKIA" * 25_000,
    "-----BEGIN PRIVATE KEY-----" * 4_000,
    "eyJ" + "A" * 100_000,
    "x://" * 25_000,
    "password=" * 11_000,
    ("ghp_" + "a1" * 40 + " ") * 1_000,
    " ".join(["Zk29xLq8Rw3PZk29xLq8Rw3P"] * 4_000),
]


def _seconds(text: str) -> float:
    # CPU time of this thread: other processes on a loaded machine do not count.
    started = time.thread_time()
    find_secrets(text)
    return time.thread_time() - started


@pytest.mark.parametrize("unit", HOSTILE)
def test_hostile_megabyte_inputs_are_linear(unit: str) -> None:
    # A ratio of two sizes in one process, never a wall-clock bound: the
    # slowest small run against the fastest large one. Ten times the input
    # may cost at most ~ten times the time (25x allowed); quadratic work
    # would cost a hundred.
    small = max(_seconds(unit) for _ in range(3))
    large = min(_seconds(unit * 10) for _ in range(2))
    assert large < 25 * small + 0.05


# Weaker forms of each format: recognised, at prefix confidence.
WEAKER = [
    ("github_token", f"github_pat_{rand(60)}", 0.6),
    ("gitlab_token", "glpat-" + rand(26) + ".01.abc12x", 0.6),
    ("slack_token", f"xoxe-1-{rand(30)}", 0.6),
    ("slack_webhook", f"https://hooks.slack.com/workflows/{rand(30)}", 0.6),
    ("openai_api_key", "sk-" + rand(40, string.ascii_lowercase + string.digits), 0.5),
    ("huggingface_token", "hf_" + rand(33) + "9", 0.6),
    ("jwt", "eyJhbGciOiJub25lIn0." + rand(30) + ".", 0.6),
]


@pytest.mark.parametrize(("kind", "value", "expected"), WEAKER)
def test_weaker_forms(kind: str, value: str, expected: float) -> None:
    (match,) = find_secrets(f"use {value} now")
    assert (match.kind, match.confidence) == (kind, expected)


def test_twilio_account_sid_needs_twilio_context() -> None:
    sid = "AC" + rand(32, HEX)
    (bare,) = find_secrets(f"account {sid}")
    (named,) = find_secrets(f"Twilio account {sid}")
    assert bare.confidence < 0.35 <= named.confidence


def test_pem_without_end_line() -> None:
    body = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(120))).decode()
    (match,) = find_secrets(f"-----BEGIN PRIVATE KEY-----\n{body}")
    assert match.kind == "private_key"
    assert 0.6 <= match.confidence < 0.9


def test_pem_placeholder_body() -> None:
    block = (
        "-----BEGIN RSA PRIVATE KEY-----\n" + "MIIEexample" * 8 + "\n-----END RSA PRIVATE KEY-----"
    )
    assert all(m.placeholder for m in find_secrets(block))


@pytest.mark.parametrize(
    ("text", "placeholder", "minimum"),
    [
        (f"postgres://app:{rand(12)}@localhost:5432/db", False, 0.5),
        (f"postgres://app:{rand(12)}@db.example.com/db", True, 0.0),
        ("Server=db;Password=changeme;", True, 0.0),
        ("Authorization: Basic " + base64.b64encode(b"admin:admin").decode(), True, 0.0),
    ],
)
def test_connection_and_basic_placeholders(text: str, placeholder: bool, minimum: float) -> None:
    (match,) = find_secrets(text)
    assert match.placeholder is placeholder
    assert match.confidence >= minimum


@pytest.mark.parametrize(
    "text",
    [
        "Server=db;Password=${DB_PASSWORD};",
        "Authorization: Basic bm90IGEgcGFpcg==",  # decodes to text without a colon
        f"aws secret {rand(40, string.ascii_lowercase)}",  # one character class
        "sk-" + rand(40, string.ascii_lowercase),  # no digit: a slug, not a key
        "hf_" + rand(34, string.ascii_lowercase + string.digits),  # no mixed case
        "eyJub3QiOiJqc29uIn0." + rand(20) + "." + rand(20),  # header without "alg"
    ],
)
def test_rejected_shapes(text: str) -> None:
    assert [m for m in find_secrets(text) if m.kind != "high_entropy"] == []


def test_scan_secrets_budget() -> None:
    text = " ".join(github() for _ in range(30))
    matches, cut = scan_secrets(text, 10)
    assert cut and len(matches) == 10
    matches, cut = scan_secrets(text)
    assert not cut and len(matches) == 30


def test_a_provider_token_is_not_also_high_entropy() -> None:
    token = "sk-proj-" + rand(60)
    matches = find_secrets(f"key {token} and {token}")
    assert [m.kind for m in matches] == ["openai_api_key", "openai_api_key"]


_ANCHOR_FRAGMENTS = (
    "SK",
    "AC",
    "password",
    "pwd",
    "accountkey",
    "sharedaccesskey",
    *_ASSIGNMENT_STARTS,
    "Basic",
    "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gx-y_Z.",  # a Discord id and timestamp
    "abcdefghijABCDEFGHIJ0123456789",
    "MTA",
    "Nz",
    "s.",  # the legacy Vault token's start
    "s.AbCdEf0123456789abcdefgh",
    "O",
    ".",
    "AbCdEf",
    "0123456789",
    "_-",
    "://",
    "postgres",
    "a.b+c-d" * 5,
    "@db.example.com",
    ":pw",
    "PASSWORD",
    "Api_Key",
    "x",
    "9",
    "_",
    "-",
    "=",
    ": ",
    " is ",
    " ",
    "\n",
    "'",
    '"',
    ";server=db;",
    "0123456789abcdef" * 2,
    "dXNlcjpzM2NyZXQtdmFsdWU=",
    "Zx9Qw7Lm2Vb8Kp4R",
)


def test_anchored_rules_find_what_a_search_finds() -> None:
    # A rule with ``begins`` is tried only where one of them occurs: on text
    # dense in starts, near-misses and overlaps, it must give exactly the
    # matches finditer gives, in the same order (the budget counts them).
    # Each scan of the text is C-level; the pattern runs only at candidates.
    rng = random.Random(20261123)
    anchored = [rule for rule in _RULES if rule.begins is not None]
    assert anchored
    for _ in range(3000):
        text = "".join(rng.choice(_ANCHOR_FRAGMENTS) for _ in range(rng.randint(1, 24)))
        for rule in anchored:
            haystack = text.lower() if rule.on_lowered else text
            expected = [m.span() for m in rule.pattern.finditer(haystack)]
            assert [m.span() for m in _rule_matches(rule, haystack)] == expected, (rule, text)


def _class_run_texts() -> list[str]:
    """Texts of base64 characters, separators, "=" and characters beyond
    Latin-1 (which the byte search sees as "?"), around the run lengths the
    anchored searches look for (24 and 40)."""
    rng = random.Random(77)
    pieces = [A62, "+/", "_-", "=", " .:", "\u00e9\u20ac\U0001f600?"]
    texts = []
    for _ in range(600):
        parts = []
        for _ in range(rng.randint(1, 6)):
            alphabet = rng.choice(pieces)
            parts.append(
                "".join(
                    rng.choice(alphabet) for _ in range(rng.choice([1, 3, 23, 24, 39, 40, 41, 60]))
                )
            )
        texts.append("".join(parts))
    return texts


def test_token_runs_are_the_patterns_matches() -> None:
    """The entropy sweep's runs, anchored where a byte search finds a run of
    24, are exactly the pattern's matches over the whole text."""
    from mcpscan._secrets import _TOKEN_RUN, _token_runs

    for text in _class_run_texts():
        assert [m.span() for m in _token_runs(text)] == [
            m.span() for m in _TOKEN_RUN.finditer(text)
        ], text


def test_aws_secret_rule_anchored_is_the_patterns_matches() -> None:
    (rule,) = [r for r in _RULES if r.kind == "aws_secret_key"]
    assert rule.begins is not None
    for text in _class_run_texts():
        assert [m.span() for m in _rule_matches(rule, text)] == [
            m.span() for m in rule.pattern.finditer(text)
        ], text


@pytest.mark.parametrize(
    "text",
    [
        "Prose with one token " + A62[:30] + " in it. " + "More plain words follow. " * 20,
        " ".join(base64.b64encode(f"note {i:07d} padding".encode()).decode() for i in range(300)),
    ],
)
def test_token_runs_anchored_and_dense_paths_agree_with_the_pattern(text: str) -> None:
    """A long text with a rare run is anchored; a wall of runs is left to the
    pattern. Both give the pattern's matches."""
    from mcpscan._secrets import _TOKEN_RUN, _token_runs

    assert [m.span() for m in _token_runs(text)] == [m.span() for m in _TOKEN_RUN.finditer(text)]


def test_base64_of_text_is_dropped_before_its_context_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted work: a run that decodes to printable text is never a secret,
    so neither its credential context nor its entropy is computed (ten
    thousand blobs of base64 padding each cost one decode)."""
    from mcpscan import _secrets

    contexts: list[int] = []
    context = _secrets._credential_context

    def counted(text: str, start: int) -> bool:
        contexts.append(start)
        return context(text, start)

    monkeypatch.setattr(_secrets, "_credential_context", counted)
    blobs = " ".join(
        base64.b64encode(f"harmless note number {index:07d}".encode()).decode()
        for index in range(50)
    )
    assert find_secrets("Notes: " + blobs) == []
    assert contexts == []
    token = "".join(random.Random(5).choices(string.ascii_letters + string.digits, k=40))
    assert [m.kind for m in find_secrets("Notes: " + token)] == ["high_entropy"]
    assert len(contexts) == 1


def test_many_literal_starts_are_every_occurrence_of_each_literal() -> None:
    """A rule with many start words finds where they begin by one automaton
    pass: the same offsets as a substring search per word, overlapping and
    nested occurrences included ("passw" holds "pass" and "pw")."""
    from mcpscan import _secrets

    words = ("pass", "pw", "passw", "ss", "token", "tok", "secret")
    literals = ("pass", "pw", "ss", "token", "secret", "client")
    starts = _secrets._at(*literals)
    rng = random.Random(7)
    for _ in range(500):
        text = "".join(rng.choice([*words, " ", "x"]) for _ in range(rng.randint(0, 15)))
        assert starts(text) == _secrets._occurrences(text, literals), text
