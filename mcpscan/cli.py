"""The ``mcpscan`` command line: ``scan``, ``eval`` and ``checks``.

Exit codes: 0 below the ``--fail-on`` threshold (or a passing eval gate), 1
at or above it (or a failing gate), 2 for unreadable or malformed input,
with a one-line error on stderr naming what is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ._cli_mcp import register as register_mcp_commands
from ._eval import Thresholds, evaluate, load_corpus
from ._input import read_document
from ._model import Report, ScanError, Verdict
from ._plugins import discover
from ._scan import scan
from ._screen import Decision, screen_call
from ._snapshot import Snapshot
from .baseline import Baseline
from .jsonrpc import parse as parse_jsonrpc
from .pins import PinStatus, PinStore
from .policy import Policy
from .sarif import to_sarif

__all__ = ["main"]

_EXIT_OK, _EXIT_FINDINGS, _EXIT_USAGE = 0, 1, 2
_FAIL_ON = {"quarantine": Verdict.QUARANTINE, "review": Verdict.REVIEW, "never": None}
_MAX_INT_DIGITS = 4000


class _InputError(Exception):
    """Unreadable or malformed input: exit 2 with this one-line message."""


def _parse_int(digits: str) -> int | float:
    # Python refuses to convert integers of more than 4,300 digits; a number
    # that long is hostile input, kept as an infinity of the right sign.
    if len(digits) > _MAX_INT_DIGITS:
        return float("-inf") if digits.startswith("-") else float("inf")
    return int(digits)


def read_text(path: str, stdin: TextIO) -> str:
    """The UTF-8 text of a file, or of stdin for ``-``; one-line errors."""
    try:
        if path == "-":
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
        else:
            data = Path(path).read_bytes()
    except OSError as error:
        raise _InputError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        return str(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise _InputError(f"{path}: not valid UTF-8 (byte {error.start})") from None


def parse_json(path: str, text: str) -> object:
    """Parse JSON read from ``path``; huge integers are read as infinities."""
    try:
        return json.loads(text, parse_int=_parse_int)
    except RecursionError:
        raise _InputError(f"{path}: JSON nested too deeply to read") from None
    except ValueError as error:
        raise _InputError(f"{path}: not valid JSON: {error}") from None


def _read_json(path: str, stdin: TextIO) -> object:
    return parse_json(path, read_text(path, stdin))


def _default_server(path: str) -> str:
    return "stdin" if path == "-" else Path(path).stem or "default"


def _scan_document(value: object, default_server: str) -> list[Report]:
    document = read_document(value, default_server)
    snapshot = Snapshot.from_servers(document.servers)
    return [scan(tool, snapshot, server=server) for server, tool in document.entries()]


def _summary(reports: Sequence[Report]) -> dict[str, int]:
    counts = {verdict.value: 0 for verdict in Verdict}
    for report in reports:
        counts[report.verdict.value] += 1
    return counts


def _render_text(reports: Sequence[Report], out: TextIO) -> None:
    for report in reports:
        ref = report.tool
        severity = report.severity.value if report.severity else "-"
        out.write(
            f"{ref.server}/{ref.name}: {report.verdict.value.upper()}"
            f" (severity {severity}, risk {report.risk_score:.2f})\n"
        )
        for finding in report.findings:
            if finding.suppressed is not None:
                out.write(f"  [suppressed] {finding.tier.value} finding: {finding.suppressed}\n")
        for signal in report.signals:
            out.write(
                f"  [{signal.tier.value}] {signal.rule_id} ({signal.check_id}, "
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


def _suppressed(reports: Sequence[Report]) -> int:
    return sum(f.suppressed is not None for r in reports for f in r.findings)


def _cmd_scan(args: argparse.Namespace, out: TextIO) -> int:
    reports = _scan_document(_read_json(args.path, sys.stdin), _default_server(args.path))
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
    return emit_reports(reports, args.format, args.fail_on, out, artifact_uri=uri)


def emit_reports(
    reports: Sequence[Report],
    fmt: str,
    fail_on: str,
    out: TextIO,
    *,
    artifact_uri: str | None = None,
    extra: dict[str, Any] | None = None,
) -> int:
    """Write reports as text, JSON (plus ``extra`` keys) or SARIF; return the
    exit code for the ``--fail-on`` threshold. Shared by every scanning command."""
    if fmt == "json":
        payload: dict[str, Any] = {
            **(extra or {}),
            "reports": [r.to_dict() for r in reports],
            "summary": {**_summary(reports), "suppressed": _suppressed(reports)},
        }
        out.write(json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=True) + "\n")
    elif fmt == "sarif":
        sarif = to_sarif(reports, artifact_uri=artifact_uri)
        out.write(json.dumps(sarif, sort_keys=True, indent=2) + "\n")
    else:
        _render_text(reports, out)
    threshold = _FAIL_ON[fail_on]
    if threshold is not None and any(r.verdict.rank >= threshold.rank for r in reports):
        return _EXIT_FINDINGS
    return _EXIT_OK


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
    thresholds = Thresholds(
        min_recall=args.min_recall,
        max_fp=args.max_fp,
        max_benign_fp=args.max_benign_fp,
        min_class_recall=floors,
        max_quarantine=args.max_quarantine,
    )
    result = evaluate(entries, thresholds)
    if args.format == "json":
        out.write(json.dumps(result.to_dict(), sort_keys=True, indent=2) + "\n")
    else:
        for line in result.render():
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


def _cmd_pin(args: argparse.Namespace, out: TextIO) -> int:
    document = read_document(_read_json(args.path, sys.stdin), _default_server(args.path))
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


def _load_policy(path: str | None) -> Policy | None:
    if path is None:
        return None
    return Policy.from_mapping(_read_json(path, sys.stdin))


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
    name, arguments = _read_call(_read_json(args.path, sys.stdin))
    tool = _read_json(args.tool, sys.stdin) if args.tool else None
    decision = screen_call(
        name, arguments, tool=tool, server=args.server, policy=_load_policy(args.policy)
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
    for check_id, loaded in discovery.checks.items():
        surfaces = ",".join(sorted(loaded.surfaces))
        out.write(f"{check_id:<24} {loaded.version:<8} {loaded.source:<40} {surfaces}\n")
    for problem in discovery.problems:
        out.write(
            f"{problem.check_id:<24} {'-':<8} {problem.source:<40} NOT LOADED: {problem.message}\n"
        )
    return _EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcpscan",
        description="Offline, deterministic detection of poisoned MCP tool definitions.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    scan_cmd = commands.add_parser("scan", help="scan tools from a JSON file or stdin")
    scan_cmd.add_argument("path", help="a JSON file, or - for stdin")
    scan_cmd.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    scan_cmd.add_argument(
        "--baseline", metavar="FILE", help="suppress the findings this baseline accepts"
    )
    scan_cmd.add_argument(
        "--write-baseline", metavar="FILE", help="accept every current finding into FILE"
    )
    scan_cmd.add_argument("--fail-on", choices=tuple(_FAIL_ON), default="quarantine")
    scan_cmd.set_defaults(run=_cmd_scan)

    eval_cmd = commands.add_parser(
        "eval", help="measure recall and false alarms on a labelled corpus"
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
        "--max-quarantine", type=int, default=0, help="non-malicious entries quarantined"
    )
    eval_cmd.add_argument("--format", choices=("text", "json"), default="text")
    eval_cmd.set_defaults(run=_cmd_eval)

    pin_cmd = commands.add_parser("pin", help="pin tool definitions and report changes (rug pulls)")
    pin_cmd.add_argument("path", help="a JSON file of tools (any scan shape), or - for stdin")
    pin_cmd.add_argument(
        "--store", required=True, metavar="FILE", help="the pin file (created if missing)"
    )
    pin_cmd.add_argument(
        "--mode", choices=("pin_on_first_use", "require_approval"), default="pin_on_first_use"
    )
    pin_cmd.add_argument("--format", choices=("text", "json"), default="text")
    pin_cmd.set_defaults(run=_cmd_pin)

    call_cmd = commands.add_parser("screen-call", help="decide on a proposed tools/call request")
    call_cmd.add_argument("path", help="a tools/call request (JSON-RPC or {name, arguments}), or -")
    call_cmd.add_argument(
        "--tool", metavar="FILE", help="the called tool's definition (checks the schema)"
    )
    call_cmd.add_argument("--policy", metavar="FILE", help="a policy as JSON (see docs/policy.md)")
    call_cmd.add_argument("--server", help="the server the tool belongs to")
    call_cmd.add_argument("--format", choices=("text", "json"), default="text")
    call_cmd.set_defaults(run=_cmd_screen_call)

    checks_cmd = commands.add_parser("checks", help="list the discovered checks")
    checks_cmd.set_defaults(run=_cmd_checks)
    register_mcp_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        code: int = args.run(args, stream)
    except (_InputError, ScanError) as error:
        message = str(error).replace("\n", " ")
        sys.stderr.write(f"mcpscan: error: {message}\n")
        return _EXIT_USAGE
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
