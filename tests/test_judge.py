"""The word judge: API on words and on placements, and the `companion judge` command."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import Board, load_layout, load_tileset, parse_play
from companion.rules.errors import IllegalPlacement
from lexicon.judge import NotAWordError, judge_placement, judge_words
from lexicon.store import load_lexicon


@pytest.fixture(scope="module")
def enable() -> object:
    return load_lexicon()


def test_judge_words_whole_play(enable: object) -> None:
    ruling = judge_words(["quiz", "QAT"], enable)  # type: ignore[arg-type]
    assert ruling.acceptable and ruling.verdict == "ACCEPTABLE" and ruling.lexicon == "ENABLE"
    ruling = judge_words(["QUIZ", "ZA"], enable)  # type: ignore[arg-type]
    assert not ruling.acceptable and ruling.lines() == ["QUIZ ok", "ZA not in ENABLE"]


@pytest.mark.parametrize("bad", ["", "AB1", "QU IZ", "QUIZ!"])
def test_not_words_are_refused(bad: str, enable: object) -> None:
    with pytest.raises(NotAWordError):
        judge_words(["QUIZ", bad], enable)  # type: ignore[arg-type]


def test_judge_placement_checks_every_word_formed(enable: object) -> None:
    board = Board.from_rows(["." * 15] * 7 + ["...." + "QUIZ" + "......."] + ["." * 15] * 7)
    tileset, layout = load_tileset("en"), load_layout("standard")
    good = parse_play("7E", "AT", board)  # AT across, forming AQ? no: A over Q is AQ -> refused
    ruling = judge_placement(board, good, tileset, enable, layout)  # type: ignore[arg-type]
    assert [w.word for w in ruling.words] == ["AT", "AQ", "TU"] and not ruling.acceptable
    play = parse_play("H5", "MAT.", board)  # down through the Z? H8 holds Z: MATZ is not a word
    assert not judge_placement(board, play, tileset, enable, layout).acceptable  # type: ignore[arg-type]
    play = parse_play("G6", "QU.T", board)  # QUIT down through the I on G8
    ruling = judge_placement(board, play, tileset, enable, layout)  # type: ignore[arg-type]
    assert ruling.acceptable and [w.word for w in ruling.words] == ["QUIT"]
    with pytest.raises(IllegalPlacement):
        judge_placement(board, parse_play("1A", "QAT", board), tileset, enable, layout)  # type: ignore[arg-type]


def test_cli_judge(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["judge", "QUIZ", "qat"]) == 0
    assert capsys.readouterr().out == "ACCEPTABLE\n"
    assert main(["judge", "QUIZ", "ZA"]) == 1
    assert capsys.readouterr().out == "UNACCEPTABLE\n"
    assert main(["judge", "--each", "QUIZ", "ZA"]) == 1
    assert capsys.readouterr().out == "QUIZ ok\nZA not in ENABLE\n"
    assert main(["judge", "QUIZ", "4X"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "'4X' is not a word" in captured.err
    assert main(["judge", ""]) == 2
    own = tmp_path / "tournament.txt"
    own.write_text("# my words\nza\nqi\n12\n", encoding="utf-8")
    assert main(["judge", "--lexicon", str(own), "--each", "ZA", "QUIZ"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "ZA ok\nQUIZ not in TOURNAMENT\n" and "line 4" in captured.err
    assert main(["judge", "--lexicon", str(tmp_path / "missing.txt"), "ZA"]) == 2
    assert "no word list at" in capsys.readouterr().err
    assert main(["judge", "--lexicon", "enable", "ZA"]) == 1
    capsys.readouterr()
    assert main(["judge", "ABSENTMINDEDNESS"]) == 1  # in the ENABLE file, but 16 letters
    assert "longer than 15 letters" in capsys.readouterr().err
