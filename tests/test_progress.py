"""Progress on a terminal only, through callbacks the library calls."""

from __future__ import annotations

import io

import pytest

import mcpscan
from mcpscan import ScanError, cli
from mcpscan._progress import terminal_progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_only_a_terminal_gets_progress() -> None:
    assert terminal_progress(io.StringIO(), "tools") is None
    assert terminal_progress(None, "tools") is None
    assert terminal_progress(Terminal(), "tools", total_hint=3) is None  # too short to show


def test_redraws_on_each_new_percent_and_ends_the_line() -> None:
    screen = Terminal()
    draw = terminal_progress(screen, "tools")
    assert draw is not None
    for done in range(1, 1001):
        draw(done, 1000)
    text = screen.getvalue()
    assert text.count("\r") == 101  # 0% .. 100%
    assert text.endswith("\rmcpscan: 1,000/1,000 tools (100%)\n")


def test_a_closed_terminal_does_not_stop_the_work() -> None:
    screen = Terminal()
    draw = terminal_progress(screen, "tools")
    screen.close()
    assert draw is not None
    draw(1, 2)
    draw(2, 2)


@pytest.mark.parametrize("workers", [1, 2])
def test_scan_many_reports_progress_serial_and_parallel(workers: int) -> None:
    tools = [{"name": f"t{i}", "description": f"Tool {i}."} for i in range(130)]
    seen: list[tuple[int, int]] = []
    mcpscan.scan_many(tools, workers=workers, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (130, 130)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    with pytest.raises(ScanError, match="progress"):
        mcpscan.scan_many(tools, progress=3)  # type: ignore[arg-type]


def test_cli_scan_draws_progress_on_a_terminal_stderr(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    from pathlib import Path

    path = Path(str(tmp_path)) / "tools.json"
    path.write_text(
        json.dumps([{"name": f"t{i}", "description": f"Tool {i}."} for i in range(250)])
    )
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    out = io.StringIO()
    assert cli.main(["scan", str(path), "--format", "json"], out=out) == 0
    assert "250/250 tools (100%)" in screen.getvalue()
    assert "\r" not in out.getvalue()  # stdout carries only the report
