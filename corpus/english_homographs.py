"""List each lexicon file's English homographs (``settings.english_homographs``).

A phrase of another language written in ASCII whose scanned (normalized)
form is also a common English word puts that language's cue on English
text: Dutch "toon" (show) on "returns TOON format", French "modifier"
(change) on "modifier key", Spanish "llama" (calls) on "llama-3". The
engine counts such a phrase only beside a second word of its language
(``mcpscan._instruction._cue_hits``); this script decides which phrases
are such homographs, so the lists are generated, not hand-picked.

An English word here is one listed in Webster's Second (public domain,
the ``english-words`` package's ``web2`` list) and used at least about
once in three million words of English (Zipf frequency 2.5, the
``wordfreq`` package): "toon", "llama", "modifier", "poi"; not the foreign
words English text quotes ("vous", "nicht") nor rare dictionary words
("envie", "usar"). A phrase is a homograph when its scanned form is itself
such a word and reads the same normalized ("profiler" from Dutch
"profilering"; not "envi" from Portuguese "envie", which English reaches
only through "envy"), or, for a ``*`` phrase, when such a word starts with
it ("belge*" and "Belgian"); a phrase of several words when each of its
words is such a word of four letters or more ("audit trail"; not "por
favor"). Phrases English itself lists are left out: they are English
evidence already.

Not run in CI (the two packages are not dependencies):

    pip install english-words wordfreq
    python corpus/english_homographs.py          # print the lists
    python corpus/english_homographs.py --write  # update mcpscan/lexicon/*.json
"""

from __future__ import annotations

import bisect
import json
import sys
from pathlib import Path

from english_words import get_english_words_set  # type: ignore[import-not-found]
from wordfreq import iter_wordlist, zipf_frequency  # type: ignore[import-not-found]

from mcpscan import _instruction as instruction
from mcpscan._normalize import normalize

LEXICON = Path(__file__).resolve().parents[1] / "mcpscan" / "lexicon"
MIN_ZIPF = 2.5
MIN_PART_CHARS = 4


def _english_words() -> list[str]:
    dictionary = get_english_words_set(["web2"], lower=True, alpha=True)
    words = []
    for word in iter_wordlist("en"):
        if zipf_frequency(word, "en") < MIN_ZIPF:
            break
        if word.isascii() and word.isalpha() and word in dictionary:
            words.append(word)
    return words


def homographs() -> dict[str, list[str]]:
    words = _english_words()
    whole = {word for word in words if normalize(word) == word}
    starts = sorted(normalize(word) for word in words)

    def starts_a_word(key: str) -> bool:
        at = bisect.bisect_left(starts, key)
        return at < len(starts) and starts[at].startswith(key)

    files = dict(instruction._lexicon_files())
    english = files["en.json"]
    english_keys = {
        key
        for cue, phrases in english["cues"].items()
        if not cue.startswith("name:")
        for phrase in phrases
        for key in instruction._variants(phrase.rstrip("*"), english.get("settings", {}))
    }
    found: dict[str, list[str]] = {}
    for name, data in files.items():
        if name == "en.json":
            continue
        settings = data.get("settings", {})
        listed = set()
        for cue, phrases in data["cues"].items():
            if cue.startswith("name:"):
                continue
            for phrase in phrases:
                base = phrase.rstrip("*")
                if not base.isascii():
                    continue
                for key in instruction._variants(base, settings):
                    parts = key.split()
                    if key in english_keys or not parts:
                        continue
                    if len(parts) > 1 and any(len(part) < MIN_PART_CHARS for part in parts):
                        continue
                    last = parts[-1]
                    last_ok = starts_a_word(last) if phrase.endswith("*") else last in whole
                    if last_ok and all(part in whole for part in parts[:-1]):
                        listed.add(phrase)
        found[name] = sorted(listed)
    return found


def main(argv: list[str]) -> None:
    for name, listed in homographs().items():
        print(name, len(listed), listed)
        path = LEXICON / name
        data = json.loads(path.read_text(encoding="utf-8"))
        if "--write" not in argv or (not listed and "english_homographs" not in str(data)):
            continue
        settings = data.setdefault("settings", {})
        if listed:
            settings["english_homographs"] = listed
        else:
            settings.pop("english_homographs", None)
            if not settings:
                del data["settings"]
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
