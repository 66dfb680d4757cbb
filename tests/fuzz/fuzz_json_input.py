"""Coverage-guided fuzz target for the JSON input path (atheris).

Bytes go the way the command line takes them: UTF-8 decoding, JSON parsing,
the five document shapes, Snapshot building and a scan of every tool; the
same value also goes to scan_output and screen_call. Anything but a Report,
a CallDecision or a ScanError is a crash.

    nox -s fuzz -- -max_total_time=1800
    python tests/fuzz/fuzz_json_input.py -max_total_time=60 corpus_dir/

Not collected by pytest and not run in CI.
"""

from __future__ import annotations

import contextlib
import json
import sys

import atheris

with atheris.instrument_imports():
    import mcpscan
    from mcpscan import ScanError
    from mcpscan._input import read_document
    from mcpscan.cli import _parse_int

_CONFIG = mcpscan.Config(max_strings=500, max_nodes=2_000, max_string_chars=20_000)


def _parse(data: bytes) -> object:
    text = data.decode("utf-8")
    return json.loads(text, parse_int=_parse_int)


def test_one_input(data: bytes) -> None:
    try:
        value = _parse(data)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return
    with contextlib.suppress(ScanError):
        document = read_document(value, "fuzz")
        snapshot = mcpscan.Snapshot.from_servers(document.servers)
        for server, tool in document.entries():
            report = mcpscan.scan(tool, snapshot, server=server, config=_CONFIG)
            json.loads(report.to_json())
    with contextlib.suppress(ScanError):
        mcpscan.scan_output(value, config=_CONFIG)
    if isinstance(value, dict):
        name = str(value.get("name", "tool")) or "tool"
        with contextlib.suppress(ScanError):
            mcpscan.screen_call(name, value.get("arguments"), config=_CONFIG)


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
