"""The ``mcpscan`` command line: ``scan``, ``eval``, ``pin`` (and ``pin
list``, ``pin approve``), ``screen-call`` and ``checks``; ``connect`` and
``config`` live in ``_cli_mcp``. Text output is coloured on a terminal
(``_colour``).

Exit codes (``EXIT_CODES``): 0 below the ``--fail-on`` threshold (or a
passing eval gate), 1 at or above it, or an incomplete scan with
``--fail-on-incomplete`` (or a failing gate), 2 for unreadable, oversized
or malformed input, 3 when the output could not be written (a full disk, a
closed stdout; quietly on a closed pipe such as ``| head -1``), each error
a single line on stderr.

While a command runs, ``sys.stdout`` points at stderr: a plugin's ``print``
cannot corrupt ``--format json``; only the command's own output reaches
stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, TextIO, cast

from ._aggregate import INCOMPLETE_THREAT
from ._cli_mcp import register as register_mcp_commands
from ._colour import paint, wanted
from ._config import Config
from ._eval import Thresholds, evaluate, load_corpus
from ._evidence import escape_unsafe
from ._input import loads, read_document
from ._model import Report, ScanError, Tool, Verdict
from ._plugins import discover
from ._progress import terminal_progress
from ._scan import scan
from ._screen import Decision, screen_call
from ._snapshot import Snapshot
from ._version import __version__
from .baseline import Baseline
from .jsonrpc import parse as parse_jsonrpc
from .pins import PinStatus, PinStore
from .policy import Policy
from .sarif import to_sarif

__all__ = ["main"]

_EXIT_OK, _EXIT_FINDINGS, _EXIT_USAGE, _EXIT_OUTPUT = 0, 1, 2, 3
#: What each exit code of ``mcpscan`` means (also shown by ``--help``).
EXIT_CODES = {
    _EXIT_OK: "below the --fail-on threshold; eval: every gate threshold holds",
    _EXIT_FINDINGS: "a report at or above --fail-on, or an incomplete scan "
    "(--fail-on-incomplete); eval: a threshold failed",
    _EXIT_USAGE: "unreadable, oversized or malformed input, or a bad option",
    _EXIT_OUTPUT: "the output could not be written (disk full, closed stdout or pipe)",
}
_EXIT_EPILOG = "exit codes:\n" + "\n".join(f"  {code}  {text}" for code, text in EXIT_CODES.items())
_FAIL_ON = {"quarantine": Verdict.QUARANTINE, "review": Verdict.REVIEW, "never": None}
#: Bytes of one input file read before mcpscan refuses it (--max-input-bytes).
DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024
_READ_CHUNK = 1024 * 1024


class _InputError(Exception):
    """Unreadable or malformed input: exit 2 with this one-line message."""


class _OutputError(Exception):
    """The command's output could not be written: exit 3."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        super().__init__(f"cannot write the output: {reason}")


class _Output(io.TextIOBase):
    """stdout for the command's own output; a failed write raises _OutputError."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as error:
            raise _OutputError(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError) as error:
            raise _OutputError(error) from None


def _read_bounded(handle: BinaryIO, limit: int, path: str) -> bytes:
    # Never more than limit + 1 bytes: enough to know the input is too big.
    chunks: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = handle.read(min(_READ_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
    raise _InputError(
        f"{path}: larger than --max-input-bytes ({limit} bytes); "
        "raise the limit to read it, or split the input"
    )


def read_text(path: str, stdin: TextIO, limit: int = DEFAULT_MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of a file, or of stdin for ``-``, at most ``limit``
    bytes; one-line errors."""
    try:
        if path == "-":
            if hasattr(stdin, "buffer"):
                data = _read_bounded(stdin.buffer, limit, "stdin")
            else:
                data = stdin.read(limit + 1).encode()
                if len(data) > limit:
                    data = _read_bounded(io.BytesIO(data), limit, "stdin")
        else:
            with Path(path).open("rb") as handle:
                data = _read_bounded(handle, limit, path)
    except OSError as error:
        raise _InputError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        return str(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise _InputError(f"{path}: not valid UTF-8 (byte {error.start})") from None


def parse_json(path: str, text: str, *, unique_keys: bool = False) -> object:
    """Parse JSON read from ``path`` with the shared reader (duplicate keys
    kept for the scan to judge, or refused with ``unique_keys``)."""
    try:
        return loads(text, path, unique_keys=unique_keys)
    except ScanError as error:
        raise _InputError(str(error)) from None


def _read_json(
    path: str, stdin: TextIO, limit: int = DEFAULT_MAX_INPUT_BYTES, *, unique_keys: bool = False
) -> object:
    return parse_json(path, read_text(path, stdin, limit), unique_keys=unique_keys)


def _default_server(path: str) -> str:
    return "stdin" if path == "-" else Path(path).stem or "default"


def _tools_of(value: object, default_server: str, path: str) -> dict[str, list[Tool]]:
    """The document's tools per server; an error names the file and the
    place the user wrote (``tools.json: [3].name: ...``)."""
    document = read_document(value, default_server)
    servers: dict[str, list[Tool]] = {}
    for server, tools in document.servers.items():
        servers[server] = []
        for index, tool in enumerate(tools):
            try:
                servers[server].append(Tool.from_mcp(tool, server=server))
            except ScanError as error:
                position = document.position(server, index)
                field = f"{position}.{error.field}" if position else error.field
                raise _InputError(f"{path}: {field}: {error.problem}") from None
    return servers


def incomplete_config(args: argparse.Namespace) -> Config:
    """The scan configuration ``--[no-]fail-on-incomplete`` asks for."""
    return Config(on_incomplete="review" if args.fail_on_incomplete else "pass")


def _scan_document(value: object, default_server: str, args: argparse.Namespace) -> list[Report]:
    servers = _tools_of(value, default_server, args.path)
    snapshot = Snapshot.from_servers(servers)
    config = incomplete_config(args)
    work = [(server, tool) for server, tools in servers.items() for tool in tools]
    # Then each server's prompts, resources and instructions, against the
    # same snapshot of tools.
    rest = read_document(value, default_server).surfaces
    work.extend((server, item) for server, items in rest.items() for item in items)
    progress = terminal_progress(sys.stderr, "tools", len(work))
    reports = []
    for server, tool in work:
        reports.append(scan(tool, snapshot, server=server, config=config))
        if progress is not None:
            progress(len(reports), len(work))
    return reports


def _summary(reports: Sequence[Report]) -> dict[str, int]:
    counts = {verdict.value: 0 for verdict in Verdict}
    for report in reports:
        counts[report.verdict.value] += 1
    return counts


#: What the tiers mean, printed under a text report that shows any.
LEGEND = (
    "legend: [hard] a finding that quarantines the tool (never shown to the model); "
    "[soft] one that sends it to review (a person decides)"
)


def _painter(colour: bool) -> Any:
    return paint if colour else (lambda text, _kind: text)


def _render_text(reports: Sequence[Report], out: TextIO, colour: bool = False) -> None:
    shade = _painter(colour)
    for report in reports:
        ref = report.tool
        severity = report.severity.value if report.severity else "-"
        verdict = shade(report.verdict.value.upper(), report.verdict.value)
        out.write(
            f"{ref.server}/{ref.name}: {verdict}"
            f" (severity {severity}, risk {report.risk_score:.2f})\n"
        )
        for finding in report.findings:
            if finding.suppressed is not None:
                out.write(f"  [suppressed] {finding.tier.value} finding: {finding.suppressed}\n")
        for signal in report.signals:
            tier = shade(f"[{signal.tier.value}]", signal.tier.value)
            out.write(
                f"  {tier} {signal.rule_id} ({signal.check_id}, "
                f"confidence {signal.confidence:.2f}) at {signal.location}: {signal.evidence}\n"
            )
        for degraded in report.coverage.degraded:
            out.write(
                f"  [degraded] {degraded.check_id}: {degraded.error_type}: {degraded.message}\n"
            )
        for cap in report.coverage.capped:
            who = f"{cap.check_id}: " if cap.check_id else ""
            out.write(
                f"  [capped] {who}{cap.limit} at {cap.location or '-'}: skipped {cap.skipped}\n"
            )
    counts = _summary(reports)
    suppressed = _suppressed(reports)
    tail = f", {suppressed} findings suppressed by the baseline" if suppressed else ""
    out.write(
        f"{len(reports)} tools: {counts['quarantine']} quarantine, "
        f"{counts['review']} review, {counts['pass']} pass{tail}\n"
    )
    if any(report.signals for report in reports):
        out.write(LEGEND + "\n")


def _suppressed(reports: Sequence[Report]) -> int:
    return sum(f.suppressed is not None for r in reports for f in r.findings)


def _cmd_scan(args: argparse.Namespace, out: TextIO) -> int:
    text = read_text(args.path, sys.stdin, args.max_input_bytes)
    value = parse_json(args.path, text)
    reports = _scan_document(value, _default_server(args.path), args)
    if args.write_baseline:
        written = Baseline.from_reports(reports)
        try:
            Path(args.write_baseline).write_text(written.to_json(), encoding="utf-8")
        except OSError as error:
            raise _InputError(
                f"{args.write_baseline}: cannot write: {error.strerror or error}"
            ) from None
        reports = [written.apply(r) for r in reports]
    elif args.baseline:
        baseline = Baseline.load(args.baseline)
        reports = [baseline.apply(r) for r in reports]
    uri = None if args.path == "-" else Path(args.path).as_posix()
    return emit_reports(
        reports,
        args.format,
        args.fail_on,
        out,
        artifact_uri=uri,
        fail_on_incomplete=args.fail_on_incomplete,
        source_text=text,
        colour=args.colour,
    )


def _exit_code(reports: Sequence[Report], fail_on: str, fail_on_incomplete: bool) -> int:
    threshold = _FAIL_ON[fail_on]
    if threshold is not None and any(r.verdict.rank >= threshold.rank for r in reports):
        return _EXIT_FINDINGS
    # A scan that did not read everything is not a pass, whatever the
    # threshold; a baseline can accept the gap like any other finding.
    if fail_on_incomplete and any(_open_gap(r) for r in reports):
        return _EXIT_FINDINGS
    return _EXIT_OK


def _open_gap(report: Report) -> bool:
    if report.coverage.complete:
        return False
    gaps = [f for f in report.findings if f.threat == INCOMPLETE_THREAT]
    return not gaps or any(f.suppressed is None for f in gaps)


def emit_reports(
    reports: Sequence[Report],
    fmt: str,
    fail_on: str,
    out: TextIO,
    *,
    artifact_uri: str | None = None,
    extra: dict[str, Any] | None = None,
    fail_on_incomplete: bool = True,
    source_text: str | None = None,
    colour: bool = False,
) -> int:
    """Write reports as text (``colour``ed for a terminal), JSON (plus
    ``extra`` keys) or SARIF; return the exit code for ``--fail-on`` and
    ``--fail-on-incomplete``. Shared by every scanning command;
    ``source_text`` (the file the reports' tools were read from, in order)
    gives SARIF results their line and column."""
    if fmt == "json":
        payload: dict[str, Any] = {
            **(extra or {}),
            "reports": [r.to_dict() for r in reports],
            "summary": {**_summary(reports), "suppressed": _suppressed(reports)},
        }
        out.write(json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=True) + "\n")
    elif fmt == "sarif":
        sarif = to_sarif(reports, artifact_uri=artifact_uri, source_text=source_text)
        out.write(json.dumps(sarif, sort_keys=True, indent=2) + "\n")
    else:
        _render_text(reports, out, colour)
    return _exit_code(reports, fail_on, fail_on_incomplete)


def _class_floor(text: str) -> tuple[str, float]:
    name, _, value = text.partition("=")
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected CLASS=RECALL, got {text!r}") from None


def _cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    entries = load_corpus(Path(p) for p in args.corpus)
    floors = dict(args.class_recall or [])
    if args.min_class_recall is not None:
        floors.setdefault("*", args.min_class_recall)
    kind_floors = dict(args.kind_recall or [])
    if args.min_kind_recall is not None:
        kind_floors.setdefault("*", args.min_kind_recall)
    thresholds = Thresholds(
        min_recall=args.min_recall,
        max_fp=args.max_fp,
        max_benign_fp=args.max_benign_fp,
        min_class_recall=floors,
        max_quarantine=args.max_quarantine,
        min_kind_recall=kind_floors,
        require_malicious=not args.benign_only,
        require_non_malicious=not args.malicious_only,
    )
    progress = terminal_progress(sys.stderr, "entries", len(entries))
    result = evaluate(entries, thresholds, progress=progress)
    if args.format == "json":
        report = result.to_dict()
        if args.summary:
            report.pop("misses")
            report.pop("false_alarms")
        out.write(json.dumps(report, sort_keys=True, indent=2) + "\n")
    else:
        for line in result.render(summary=args.summary):
            out.write(line + "\n")
    return _EXIT_FINDINGS if result.failures() else _EXIT_OK


def _introduced(store: PinStore, server: str, tools: Sequence[Any], name: str) -> list[Any]:
    """The signals a changed tool has that its trusted pinned version had not."""
    current = next(t for t in tools if isinstance(t, dict) and t.get("name") == name)
    return [signal.to_dict() for signal in store.rescan(current, server=server).introduced]


def _shown(value: str | None) -> str:
    return "(absent)" if value is None else f'"{value}"'


def _render_pin_row(row: dict[str, Any], out: TextIO) -> None:
    extra = f" (was {row['previous_name']})" if row["previous_name"] else ""
    out.write(f"{row['server']}/{row['tool']}: {row['status'].upper()}{extra}\n")
    for change in row["changes"]:
        before, after = change.get("before"), change.get("after")
        # The values are already render-safe (escaped once); repr() would
        # escape their backslashes a second time ("\\n" for a newline).
        out.write(f"  changed {change['path']}: {_shown(before)} -> {_shown(after)}\n")
    for signal in row["introduced"]:
        where = f"{signal['rule_id']} at {signal['location']}"
        out.write(f"  introduced [{signal['tier']}] {where}: {signal['evidence']}\n")


def _pin_key(store: PinStore, target: str) -> tuple[str, str]:
    """The (server, tool) a ``SERVER/TOOL`` names; either part may hold a slash."""
    splits = [(target[:i], target[i + 1 :]) for i, c in enumerate(target) if c == "/"]
    for server, name in splits:
        if server and name and store.get(server, name) is not None:
            return server, name
    raise _InputError(f"{target}: no such pin in {store.path} (see mcpscan pin list)")


def _cmd_pin_approve(args: argparse.Namespace, out: TextIO) -> int:
    if not args.target:
        raise _InputError("pin approve: name the pin as SERVER/TOOL")
    store = PinStore.load(args.store)
    server, name = _pin_key(store, args.target)
    pin = store.approve(server, name, by=args.by or _user())
    store.save()
    if args.format == "json":
        out.write(json.dumps(_pin_row(pin), sort_keys=True, indent=2, ensure_ascii=True) + "\n")
    else:
        out.write(
            f"{_pin_name(pin)}: APPROVED by {escape_unsafe(pin.approved_by or '')} "
            f"({pin.fingerprint}); saved to {args.store}\n"
        )
    return _EXIT_OK


def _user() -> str:
    try:
        return getpass.getuser() or "mcpscan"
    except (OSError, KeyError, ImportError):
        return "mcpscan"


def _pin_name(pin: Any) -> str:
    return f"{escape_unsafe(pin.server)}/{escape_unsafe(pin.name)}"


def _pin_row(pin: Any) -> dict[str, Any]:
    return {
        "server": escape_unsafe(pin.server),
        "tool": escape_unsafe(pin.name),
        "state": pin.state.value,
        "fingerprint": pin.fingerprint,
        "pending_fingerprint": pin.pending_fingerprint,
        "approved_by": pin.approved_by,
    }


def _cmd_pin_list(args: argparse.Namespace, out: TextIO) -> int:
    pins = PinStore.load(args.store).pins()
    if args.format == "json":
        payload = {"pins": [_pin_row(p) for p in pins]}
        out.write(json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=True) + "\n")
        return _EXIT_OK
    rows = [("PIN", "STATE", "FINGERPRINT", "WAITING", "APPROVED BY")] + [
        (
            _pin_name(p),
            p.state.value,
            (p.fingerprint or "-")[:16],
            (p.pending_fingerprint or "-")[:16],
            escape_unsafe(p.approved_by or "-"),
        )
        for p in pins
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        out.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n")
    out.write(f"{len(pins)} pins in {args.store}\n")
    return _EXIT_OK


def _cmd_pin(args: argparse.Namespace, out: TextIO) -> int:
    if args.path in ("approve", "list"):
        action = _cmd_pin_approve if args.path == "approve" else _cmd_pin_list
        return action(args, out)
    if args.target is not None:
        raise _InputError(f"pin: unexpected {args.target!r} after the tools file")
    value = _read_json(args.path, sys.stdin, args.max_input_bytes)
    _tools_of(value, _default_server(args.path), args.path)  # errors name the file and index
    document = read_document(value, _default_server(args.path))
    store = PinStore.load(args.store, mode=args.mode)
    rows: list[dict[str, Any]] = []
    alarming = 0
    for server, tools in document.servers.items():
        for event in store.reconcile(server, tools):
            row: dict[str, Any] = {
                "server": event.server,
                "tool": event.name,
                "status": event.status.value,
                "trusted": event.check.trusted if event.check else False,
                "previous_name": event.previous_name,
                "changes": [c.to_dict() for c in event.check.changes] if event.check else [],
                "introduced": [],
            }
            if event.status is PinStatus.CHANGED:
                row["introduced"] = _introduced(store, server, tools, event.name)
            if event.status in (PinStatus.CHANGED, PinStatus.RENAMED) or not row["trusted"]:
                alarming += event.status is not PinStatus.REMOVED
            rows.append(row)
    store.save()
    if args.format == "json":
        out.write(json.dumps({"events": rows}, sort_keys=True, indent=2, ensure_ascii=True) + "\n")
    else:
        for row in rows:
            _render_pin_row(row, out)
        out.write(f"{len(rows)} tools; pins saved to {args.store}\n")
    return _EXIT_FINDINGS if alarming else _EXIT_OK


def _load_policy(path: str | None, limit: int) -> Policy | None:
    if path is None:
        return None
    return Policy.from_mapping(_read_json(path, sys.stdin, limit, unique_keys=True))


def _read_call(value: object) -> tuple[str, Any]:
    if isinstance(value, dict) and "jsonrpc" in value:
        calls = [m.call for m in parse_jsonrpc(value) if m.call is not None]
        if not calls:
            raise ScanError("message", "expected a tools/call request")
        return calls[0].name, calls[0].arguments
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        return value["name"], value.get("arguments")
    raise ScanError("call", 'expected a tools/call request or {"name": ..., "arguments": {...}}')


def _cmd_screen_call(args: argparse.Namespace, out: TextIO) -> int:
    limit = args.max_input_bytes
    name, arguments = _read_call(_read_json(args.path, sys.stdin, limit))
    tool = _read_json(args.tool, sys.stdin, limit) if args.tool else None
    decision = screen_call(
        name, arguments, tool=tool, server=args.server, policy=_load_policy(args.policy, limit)
    )
    if args.format == "json":
        out.write(
            json.dumps(decision.to_dict(), sort_keys=True, indent=2, ensure_ascii=True) + "\n"
        )
    else:
        out.write(f"{decision.decision.value.upper()}: {decision.reason}\n")
        for signal in decision.signals:
            where = f"{signal.rule_id} at {signal.location}"
            out.write(f"  [{signal.tier.value}] {where}: {signal.evidence}\n")
    blocked = decision.decision in (Decision.REQUIRE_APPROVAL, Decision.BLOCK)
    return _EXIT_FINDINGS if blocked else _EXIT_OK


def _cmd_checks(_args: argparse.Namespace, out: TextIO) -> int:
    discovery = discover()
    out.write(f"{'CHECK':<24} {'VERSION':<8} {'SOURCE':<40} SURFACES\n")
    for check_id, loaded in discovery.checks.items():
        surfaces = ",".join(sorted(loaded.surfaces))
        out.write(f"{check_id:<24} {loaded.version:<8} {loaded.source:<40} {surfaces}\n")
    for problem in discovery.problems:
        out.write(
            f"{problem.check_id:<24} {'-':<8} {problem.source:<40} NOT LOADED: {problem.message}\n"
        )
    return _EXIT_OK


def _byte_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of bytes, got {text!r}")
    return value


def input_options(parser: argparse.ArgumentParser) -> None:
    """``--max-input-bytes``, for every command that reads a file."""
    parser.add_argument(
        "--max-input-bytes",
        type=_byte_count,
        default=DEFAULT_MAX_INPUT_BYTES,
        metavar="N",
        help="refuse an input file larger than this (default "
        f"{DEFAULT_MAX_INPUT_BYTES} = {DEFAULT_MAX_INPUT_BYTES // 1024 // 1024} MiB; exit 2)",
    )


def verdict_options(parser: argparse.ArgumentParser) -> None:
    """``--fail-on`` and ``--[no-]fail-on-incomplete``, shared by every scanning command."""
    parser.add_argument(
        "--fail-on",
        choices=tuple(_FAIL_ON),
        default="review",
        help="exit 1 when a tool is at least this (default: review)",
    )
    parser.add_argument(
        "--fail-on-incomplete",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="an incomplete scan (a limit hit, a check that did not finish) is a "
        "REVIEW finding and exits 1 (default); --no-fail-on-incomplete lists "
        "the gap in the coverage only (Config(on_incomplete='pass'))",
    )


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    *,
    examples: Sequence[str],
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` ends with examples and the exit codes."""
    shown = "examples:\n" + "".join(f"  {example}\n" for example in examples)
    parser = commands.add_parser(
        name,
        epilog=f"{shown}\n{_EXIT_EPILOG}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **kwargs,
    )
    # An unknown flag is reported with this command's usage, not the top one's.
    parser.set_defaults(command_parser=parser)
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcpscan",
        description="Offline, deterministic detection of poisoned MCP tool definitions.",
        epilog="examples:\n"
        "  mcpscan scan tools.json\n"
        "  mcpscan config                 # the MCP servers your clients configure\n"
        "  mcpscan <command> --help       # each command's options and examples\n\n" + _EXIT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"mcpscan {__version__}")
    parser.set_defaults(command_parser=parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    scan_cmd = _command(
        commands,
        "scan",
        examples=(
            "mcpscan scan tools.json",
            "mcpscan scan --format sarif --fail-on quarantine tools.json > mcpscan.sarif",
            "cat tools.json | mcpscan scan --baseline accepted.json -",
        ),
        help="scan tools from a JSON file or stdin",
    )
    scan_cmd.add_argument("path", help="a JSON file, or - for stdin")
    scan_cmd.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    scan_cmd.add_argument(
        "--baseline", metavar="FILE", help="suppress the findings this baseline accepts"
    )
    scan_cmd.add_argument(
        "--write-baseline", metavar="FILE", help="accept every current finding into FILE"
    )
    verdict_options(scan_cmd)
    input_options(scan_cmd)
    scan_cmd.set_defaults(run=_cmd_scan)

    eval_cmd = _command(
        commands,
        "eval",
        examples=(
            "mcpscan eval corpus/",
            "mcpscan eval --min-recall 0.95 --max-fp 0.02 --format json corpus/",
        ),
        help="measure recall and false alarms on a labelled corpus",
    )
    eval_cmd.add_argument("corpus", nargs="+", help="corpus folders or JSONL files")
    eval_cmd.add_argument("--min-recall", type=float, default=0.90)
    eval_cmd.add_argument(
        "--max-fp",
        type=float,
        default=0.05,
        help="on hard negatives (and benign, unless --max-benign-fp)",
    )
    eval_cmd.add_argument("--max-benign-fp", type=float, default=None)
    eval_cmd.add_argument(
        "--min-class-recall", type=float, default=None, help="floor for every class"
    )
    eval_cmd.add_argument(
        "--class-recall",
        type=_class_floor,
        action="append",
        metavar="CLASS=RECALL",
        help="floor for one class",
    )
    eval_cmd.add_argument(
        "--min-kind-recall", type=float, default=None, help="floor for every attack kind"
    )
    eval_cmd.add_argument(
        "--kind-recall",
        type=_class_floor,
        action="append",
        metavar="KIND=RECALL",
        help="floor for one attack kind",
    )
    eval_cmd.add_argument(
        "--max-quarantine", type=int, default=0, help="non-malicious entries quarantined"
    )
    eval_cmd.add_argument(
        "--summary",
        action="store_true",
        help="figures only, no list of misses and false alarms (for sealed sets)",
    )
    sides = eval_cmd.add_mutually_exclusive_group()
    sides.add_argument(
        "--benign-only",
        action="store_true",
        help="the corpus has no malicious entries on purpose: measure false alarms alone",
    )
    sides.add_argument(
        "--malicious-only",
        action="store_true",
        help="the corpus has only malicious entries on purpose: measure recall alone",
    )
    eval_cmd.add_argument("--format", choices=("text", "json"), default="text")
    eval_cmd.set_defaults(run=_cmd_eval)

    pin_cmd = _command(
        commands,
        "pin",
        examples=(
            "mcpscan pin tools.json --store pins.json       # pin, or report changes",
            "mcpscan pin list --store pins.json",
            "mcpscan pin approve files/read_file --store pins.json --by ada",
        ),
        help="pin tool definitions and report changes (rug pulls); list and approve pins",
        description="mcpscan pin PATH: pin the tools of PATH, or report how they changed. "
        "mcpscan pin list: show the pins. mcpscan pin approve SERVER/TOOL: trust the "
        "definition waiting for approval. (A file named list or approve: write ./list.)",
    )
    pin_cmd.add_argument(
        "path",
        metavar="PATH | list | approve",
        help="a JSON file of tools (any scan shape), - for stdin, or a pin action",
    )
    pin_cmd.add_argument(
        "target", nargs="?", metavar="SERVER/TOOL", help="the pin to approve (approve only)"
    )
    pin_cmd.add_argument(
        "--store", required=True, metavar="FILE", help="the pin file (created if missing)"
    )
    pin_cmd.add_argument(
        "--by", metavar="NAME", help="who approves (approve only; default: your user name)"
    )
    pin_cmd.add_argument(
        "--mode", choices=("pin_on_first_use", "require_approval"), default="pin_on_first_use"
    )
    pin_cmd.add_argument("--format", choices=("text", "json"), default="text")
    input_options(pin_cmd)
    pin_cmd.set_defaults(run=_cmd_pin)

    call_cmd = _command(
        commands,
        "screen-call",
        examples=(
            "mcpscan screen-call call.json --tool tool.json",
            "mcpscan screen-call --policy policy.json --server files -",
        ),
        help="decide on a proposed tools/call request",
    )
    call_cmd.add_argument("path", help="a tools/call request (JSON-RPC or {name, arguments}), or -")
    call_cmd.add_argument(
        "--tool", metavar="FILE", help="the called tool's definition (checks the schema)"
    )
    call_cmd.add_argument("--policy", metavar="FILE", help="a policy as JSON (see docs/policy.md)")
    call_cmd.add_argument("--server", help="the server the tool belongs to")
    call_cmd.add_argument("--format", choices=("text", "json"), default="text")
    input_options(call_cmd)
    call_cmd.set_defaults(run=_cmd_screen_call)

    checks_cmd = _command(
        commands,
        "checks",
        examples=("mcpscan checks",),
        help="list the discovered checks",
    )
    checks_cmd.set_defaults(run=_cmd_checks)
    register_mcp_commands(commands)
    return parser


def _error(message: str) -> None:
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(f"mcpscan: error: {message.replace(chr(10), ' ')}\n")


@contextlib.contextmanager
def _stdout_kept_for(stream: TextIO) -> Iterator[TextIO]:
    """The command's output stream, guarded; meanwhile ``print`` goes to stderr.

    A plugin that prints (at import or while scanning) must not corrupt
    ``--format json`` on stdout, so only this stream reaches the real one.
    """
    elsewhere = sys.stderr if sys.stderr is not None else io.StringIO()
    with contextlib.redirect_stdout(elsewhere):
        yield cast(TextIO, _Output(stream))


def _silence_stdout(stream: TextIO) -> None:
    # Python flushes sys.stdout again at exit; once writing has failed that
    # flush would fail too and print a traceback. Point fd 1 at /dev/null.
    if stream is not sys.__stdout__ or stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (see ``EXIT_CODES``)."""
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # argparse reports these with the top usage; the command's own is the useful one.
        args.command_parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    stream = out if out is not None else sys.stdout
    if args.command is None:  # plain ``mcpscan``: the help, on stdout
        parser.print_help(stream)
        return _EXIT_OK
    if stream is None:  # started with stdout closed (``>&-``)
        _error("cannot write the output: stdout is closed")
        return _EXIT_OUTPUT
    args.colour = wanted(stream, os.environ)
    try:
        with _stdout_kept_for(stream) as guarded:
            code: int = args.run(args, guarded)
            guarded.flush()
    except (_InputError, ScanError) as error:
        _error(str(error))
        return _EXIT_USAGE
    except _OutputError as failure:
        _silence_stdout(stream)
        # A reader that went away (``| head -1``) is not an error to report.
        if not isinstance(failure.error, BrokenPipeError):
            _error(str(failure))
        return _EXIT_OUTPUT
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
