"""The eval gate: recall per class, false alarms per label, thresholds."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mcpscan.cli import main

TAG = "".join(chr(0xE0000 + ord(c)) for c in "exfiltrate")


def _entry(id_: str, label: str, cls: str, description: str, expect: str) -> dict[str, object]:
    return {
        "id": id_,
        "label": label,
        "class": cls,
        "server": "srv",
        "tool": {"name": id_.replace("-", "_"), "description": description},
        "expect": expect,
        "provenance": "original",
        "notes": "test",
    }


def _write(folder: Path, entries: list[dict[str, object]], name: str = "c.jsonl") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("\n".join(json.dumps(e) for e in entries) + "\n")


def _eval(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["eval", *args], out=out), out.getvalue()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    _write(
        root,
        [
            _entry("m-caught", "malicious", "hidden-unicode", "Weather" + TAG, "quarantine"),
            _entry("b-clean", "benign", "real", "Add two numbers.", "pass"),
            _entry("h-clean", "hard_negative", "emoji", "Sunny ☀️ weather", "pass"),
        ],
    )
    _write(
        root / "holdout", [_entry("m-missed", "malicious", "other", "Totally clean text", "review")]
    )
    return root


def test_eval_reports_and_fails_on_recall(corpus: Path) -> None:
    code, out = _eval([str(corpus)])
    assert code == 1
    assert "hidden-unicode" in out and "1/1" in out
    assert "overall recall" in out and "1/2" in out
    assert "m-missed" in out  # each miss by id
    assert "FAIL: overall recall 0.500 < 0.900" in out


def test_eval_passes_when_thresholds_met(corpus: Path) -> None:
    code, out = _eval([str(corpus), "--min-recall", "0.5"])
    assert code == 0, out
    assert out.strip().endswith("result: PASS")


def test_class_floor(corpus: Path) -> None:
    code, out = _eval([str(corpus), "--min-recall", "0", "--class-recall", "other=0.9"])
    assert code == 1
    assert "recall of class other 0.000 < 0.900" in out
    code, _ = _eval([str(corpus), "--min-recall", "0", "--min-class-recall", "0.9"])
    assert code == 1


def test_false_alarms_and_quarantine_counted(tmp_path: Path) -> None:
    root = tmp_path / "fp"
    _write(root, [_entry("b-flag", "benign", "real", "Weather" + TAG, "pass")])
    code, out = _eval([str(root), "--format", "json"])
    payload = json.loads(out)
    assert code == 1
    assert payload["false_positives"]["benign"] == {"flagged": 1, "total": 1, "rate": 1.0}
    assert payload["quarantined_non_malicious"] == 1
    assert payload["false_alarms"][0]["id"] == "b-flag"
    code, _ = _eval([str(root), "--benign-only", "--max-fp", "1", "--max-quarantine", "1"])
    assert code == 0
    limits = ["--max-fp", "1", "--max-benign-fp", "0.5", "--max-quarantine", "1"]
    code, _ = _eval([str(root), "--benign-only", *limits])
    assert code == 1


@pytest.mark.parametrize(
    ("label", "flag", "message"),
    [
        ("benign", "--benign-only", "no malicious entries"),
        ("malicious", "--malicious-only", "no benign or hard_negative entries"),
    ],
)
def test_a_one_sided_corpus_fails_unless_the_flag_says_so(
    tmp_path: Path, label: str, flag: str, message: str
) -> None:
    root = tmp_path / "one"
    _write(root, [_entry("e1", label, "real", "Weather" + TAG, "review")])
    code, out = _eval([str(root), "--max-fp", "1", "--max-quarantine", "1", "--min-recall", "0"])
    assert code == 1
    assert message in out
    code, out = _eval(
        [str(root), flag, "--max-fp", "1", "--max-quarantine", "1", "--min-recall", "0"]
    )
    assert code == 0, out


def test_an_empty_corpus_fails(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    code, out = _eval([str(tmp_path / "empty"), "--benign-only"])
    assert code == 1
    assert "the corpus has no entries" in out


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("{not json", "not valid JSON"),
        ("[1]", "JSON object"),
        (json.dumps({**_entry("x", "evil", "c", "d", "pass")}), "label"),
        (json.dumps({**_entry("x", "benign", "c", "d", "maybe")}), "expect"),
        (json.dumps({**_entry("x", "benign", "c", "d", "pass"), "tool": 3}), "tool"),
        (json.dumps({**_entry("x", "benign", "c", "d", "pass"), "others": 3}), "others"),
        (json.dumps({**_entry("x", "benign", "c", "d", "pass"), "id": ""}), "id"),
    ],
)
def test_bad_corpus_lines_exit_2(
    tmp_path: Path, line: str, field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.jsonl").write_text(line + "\n")
    code, _ = _eval([str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1" in err and field in err


def test_duplicate_ids_and_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = json.dumps(_entry("x", "benign", "c", "d", "pass"))
    (tmp_path / "dup.jsonl").write_text(entry + "\n\n" + entry + "\n")
    assert _eval([str(tmp_path)])[0] == 2
    assert "duplicate id" in capsys.readouterr().err
    assert _eval([str(tmp_path / "nope")])[0] == 2


def test_bad_class_floor_is_usage_error() -> None:
    with pytest.raises(SystemExit):
        _eval(["corpus", "--class-recall", "x=high"])


def _kinded(entry: dict[str, object], kind: str) -> dict[str, object]:
    return {**entry, "kind": kind}


def test_recall_and_look_alikes_are_reported_per_kind(tmp_path: Path) -> None:
    hidden = f"Adds numbers.{TAG}"
    _write(
        tmp_path,
        [
            _kinded(_entry("a-1", "malicious", "hidden-unicode", hidden, "quarantine"), "tags"),
            _kinded(_entry("a-2", "malicious", "hidden-unicode", "Adds.", "quarantine"), "tags"),
            _kinded(_entry("n-1", "hard_negative", "hidden-unicode", "Adds.", "pass"), "tags"),
        ],
    )
    code, out = _eval([str(tmp_path), "--kind-recall", "tags=0.9", "--min-recall", "0"])
    assert "recall by kind" in out
    assert "tags" in out
    assert "recall of kind tags 0.500 < 0.900" in out
    assert code == 1
    code, out = _eval([str(tmp_path), "--format", "json", "--min-recall", "0"])
    report = json.loads(out)
    assert report["recall_by_kind"]["tags"] == {"caught": 1, "total": 2, "recall": 0.5}
    assert report["false_positives_by_kind"]["tags"]["total"] == 1


def test_sealed_sets_are_read_only_when_named(tmp_path: Path) -> None:
    plain = _entry("plain", "hard_negative", "hidden-unicode", "Adds numbers.", "pass")
    sealed = _entry("sealed-1", "malicious", "hidden-unicode", "Adds.", "quarantine")
    _write(tmp_path, [plain])
    _write(tmp_path / "sealed" / "r1", [sealed])
    _, out = _eval([str(tmp_path), "--format", "json"])
    assert json.loads(out)["entries"] == {"hard_negative": 1}
    _, out = _eval([str(tmp_path / "sealed"), "--format", "json", "--summary"])
    report = json.loads(out)
    assert report["entries"] == {"malicious": 1}
    assert "misses" not in report
    _, out = _eval([str(tmp_path / "sealed" / "r1"), "--summary", "--min-recall", "0"])
    assert "sealed-1" not in out
    assert "recall by class" in out
