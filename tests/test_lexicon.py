"""Word lists and the compiled lexicon cache: parsing, bad lines, long words, rebuilds, other alphabets."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lexicon.store import _LOADED, LexiconError, cache_dir, load_lexicon, load_word_list
from lexicon.wordlist import parse_word_list


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    _LOADED.clear()


def test_parse_word_list_skips_comments_blanks_and_bad_lines_by_number() -> None:
    text = "# my list\n\nquiz\n  Zax \nab1\nqat\nfoo bar\nQUIZ\n" + "A" * 16 + "\n"
    report = parse_word_list(text)
    assert report.words == ["QAT", "QUIZ", "ZAX"]
    assert [n for n, _ in report.skipped] == [5, 7]
    assert report.too_long == 1 and report.duplicates == 1
    summary = report.summary()
    assert "line 5, 7" in summary and "longer than 15" in summary


def test_user_list_is_named_cached_and_rebuilt_when_changed(tmp_path: Path) -> None:
    src = tmp_path / "house.txt"
    src.write_text("cat\ndog\n", encoding="utf-8")
    lex = load_lexicon(str(src))
    assert lex.name == "HOUSE" and "CAT" in lex and "cat" in lex and "COW" not in lex
    cached = list((cache_dir() / "lexicon").glob("*.lex"))
    assert len(cached) == 1
    _LOADED.clear()
    again = load_word_list(src, name="Our house list")
    assert again.name == "Our house list" and again.words() == ["CAT", "DOG"]
    src.write_text("cat\ndog\ncow\n", encoding="utf-8")
    changed = load_lexicon(str(src))
    assert "COW" in changed
    assert len(list((cache_dir() / "lexicon").glob("*.lex"))) == 2


def test_damaged_cache_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    src = tmp_path / "mini.txt"
    src.write_text("za\nqi\n", encoding="utf-8")
    load_lexicon(str(src))
    (path,) = (cache_dir() / "lexicon").glob("*.lex")
    path.write_bytes(b"garbage")
    _LOADED.clear()
    assert "QI" in load_lexicon(str(src))


def test_missing_list_is_one_clear_sentence(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="no word list at .*ENABLE"):
        load_lexicon(str(tmp_path / "nope.txt"))


def test_list_in_user_folder_is_found_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "table-referee" / "lexicons"
    folder.mkdir(parents=True)
    (folder / "Family.txt").write_text("xyzzy\n", encoding="utf-8")
    lex = load_lexicon("family")
    assert lex.name == "FAMILY" and "XYZZY" in lex


def test_romanian_letters_work(tmp_path: Path) -> None:
    src = tmp_path / "ro.txt"
    src.write_text("casă\nînger\nșah\nțară\napă\n", encoding="utf-8")
    lex = load_lexicon(str(src))
    assert "ȘAH" in lex and "casă" in lex and "CASA" not in lex
    assert set("ĂÎȘȚ") <= set(lex.alphabet)


def test_enable_is_the_default_and_loads_fast_from_cache() -> None:
    lex = load_lexicon()
    assert lex.name == "ENABLE"
    assert lex.word_count == 168548  # ENABLE words of 2-15 letters
    for word in ("QUIZ", "ZYZZYVA", "OXYPHENBUTAZONE", "AA"):
        assert word in lex
    for word in ("QI", "ZA", "XX", "", "OXYPHENBUTAZONES" * 1):
        assert word not in lex
    assert "longer than 15" in lex.summary
    _LOADED.clear()
    start = time.process_time()
    again = load_lexicon()
    # generous bound: the benchmark measures the real figure (a few ms); this only catches a rebuild
    assert time.process_time() - start < 0.5
    assert again.nbytes < 1_000_000 and again.word_count == lex.word_count


def test_cache_dir_follows_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", "/tmp/x-cache")
    assert cache_dir() == Path("/tmp/x-cache/table-referee")
    assert os.environ["XDG_CACHE_HOME"] == "/tmp/x-cache"
