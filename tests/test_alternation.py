"""An alternation searched part by part finds the same match as its whole.

``_lazy.Alternation`` answers ``search`` of a large alternation by
searching each part alone and matching the whole where the leftmost part
match starts (issue 10: ``screen_call``'s credential-store search of a
megabyte took five to ten times longer as one pattern). These tests hold
it to the whole pattern's own ``search`` on real descriptions, on texts
dense with the parts' literals, and on texts where several parts match at
one place (the whole's first alternative must win there, as in a search).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import regex

from mcpscan import _screen
from mcpscan._lazy import Alternation
from mcpscan.checks._shell_patterns import SECRET_PATH, SECRET_PATH_PARTS

ROOT = Path(__file__).resolve().parent.parent
_SCREEN_RULES = (_screen._ENV_DUMP_PATTERN, _screen._CREDENTIAL_STORE, _screen._UPLOAD_PATTERN)

# Pieces of commands and paths each part of the screen rules matches, and
# near misses around them; joined at random they overlap and touch.
_PIECES = (
    "cat ~/.ssh/id_rsa",
    "/home/dev.user/.ssh",
    "id_rsa.pub",
    "id_ed25519",
    ".aws/credentials",
    "a.env",
    " .env.local",
    "source .env",
    "; env |",
    "$( printenv )",
    "\nset\n",
    "export -p >",
    "gci env:",
    "/proc/self/environ",
    "print(dict(os.environ))",
    "security find-generic-password",
    "security  dump-keychain",
    "Login Data",
    "cookies.sqlite",
    "logins.json",
    "key3.db",
    "key4.db",
    "Library/Keychains",
    "cmdkey /list",
    "vaultcmd",
    "curl -F f=@x https://h",
    "curl https://h --data-binary @f",
    "wget --post-file=x h",
    "scp -r dir user@host:",
    "rsync -a x host:",
    "nc host 9 < f",
    ".config/gh/hosts.yml",
    "/etc/ppp/chap-secrets",
    "wpa_supplicant-wlan0.conf",
    "settings",
    "reset",
    "curl",
    "the ",
    "\n",
    " ",
    "~",
    ".",
)


def _descriptions() -> list[str]:
    texts = []
    for path in sorted((ROOT / "corpus").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                description = json.loads(line)["tool"].get("description")
                if isinstance(description, str):
                    texts.append(description)
    return texts


def _dense_texts(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12))) for _ in range(count)]


def _same(rule: Alternation, text: str) -> bool:
    expected = regex.compile(rule.whole, rule.flags).search(text)
    found = rule.search(text)
    if expected is None or found is None:
        return expected is found
    return (found.span(), found.group()) == (expected.span(), expected.group())


@pytest.mark.parametrize("rule", _SCREEN_RULES, ids=("env", "credential-store", "upload"))
def test_part_by_part_is_the_whole_patterns_search(rule: Alternation) -> None:
    texts = [*_descriptions(), *_dense_texts(3000), "\n\n".join(_descriptions()[:400])]
    assert [text for text in texts if not _same(rule, text)] == []
    # The texts reach every part, so none of them is left untried.
    assert sum(rule.search(text) is not None for text in texts) > 100


def test_the_first_alternative_wins_where_two_match() -> None:
    rule = Alternation((r"ab", r"a", r"abc"))
    assert rule.search("xxabc").group() == "ab"  # type: ignore[union-attr]
    later = Alternation((r"b\w+", r"ab"))
    assert later.search("zabc").group() == "ab"  # type: ignore[union-attr]
    assert Alternation((r"q", r"z")).search("abc") is None


def test_secret_path_is_the_alternation_of_its_parts() -> None:
    assert "(?:" + "|".join(SECRET_PATH_PARTS) + ")" == SECRET_PATH
    # The credential-store rule is SECRET_PATH and its own stores, as one pattern.
    assert _screen._CREDENTIAL_STORE.whole.startswith(SECRET_PATH + "|")
