""""Can anyone still play?" and the best-play review, asked of the word-board table on real positions.

Positions come from real GCG records (`../shared/data/gcg`), loaded into the referee's table exactly as
the app loads an imported record, and from legal games made by play (`tests/games/classic_play.py`, any
clone has them) for the claims that need no particular recorded endgame; every yes, no and best play is
checked against `companion moves`, the command-line move generator, run as a user runs it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REPO, shared_path

from companion.games.classic.gcg import classic_events_from_record
from companion.games.classic.rules import EndGame, Play
from companion.games.classic.table import ClassicTable, rebuild
from companion.gcg import parse_gcg
from companion.ui.table import TableError
from tests.games.classic_play import self_play

# A Quackle self-play game that ends with New_Player_1 holding RRV on a bag-empty board and passing
# twice: the real endgame where a rack has no play.
ENDGAME = ("gcg", "quackle_selfplay", "traditional", "traditional117.gcg")
NO_PLAY_LINE = ">New_Player_1: RRV -"


def _record_lines() -> list[str]:
    return shared_path(*ENDGAME).read_text(encoding="utf-8").splitlines()


def table_before(line_start: str) -> ClassicTable:
    """The referee's table of the record up to (not including) the first line starting `line_start`."""
    lines = _record_lines()
    cut = next(i for i, line in enumerate(lines) if line.startswith(line_start))
    events = classic_events_from_record(parse_gcg("\n".join(lines[:cut]) + "\n"))
    return rebuild("test", {}, events)


def played_table() -> ClassicTable:
    """The table of a played game at the first turn where the Q and exactly one blank are on the board
    (so a rack of Qs, or of three blanks, is one the game cannot have)."""
    events = [e for e in self_play(0) if not isinstance(e, EndGame)]
    for cut in range(1, len(events) + 1):
        table = rebuild("test", {}, events[:cut])
        tiles = "".join(table.board.rows())
        if "Q" in tiles.upper() and sum(ch.islower() for ch in tiles) == 1:
            return table
    raise AssertionError("the played game never held the Q and one blank")


def cli_moves(tmp_path: Path, rows: list[str], rack: str) -> list[str]:
    """`companion moves` on the board: its move lines, best first."""
    board = tmp_path / "board.txt"
    board.write_text("\n".join(rows) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "moves", "--board", str(board), "--rack", rack],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line.strip()]


def test_a_bag_empty_endgame_rack_with_no_play_is_answered_no(tmp_path: Path) -> None:
    table = table_before(NO_PLAY_LINE)
    assert table.engine.state.bag_count == 0 and table.current_player == "New_Player_1"
    answer = table.rack_check("rrv")
    assert not answer.can_play
    assert answer.sentence == "No: RRV has no play on this board (ENABLE)."
    assert cli_moves(tmp_path, table.board.rows(), "RRV") == []
    shown = table.rack_check("RRV", best=True)
    assert shown.best is None and shown.best_sentence == "There is no play to show."


def test_the_other_rack_of_the_same_endgame_has_a_play_and_its_best_matches_the_move_generator(tmp_path: Path) -> None:
    table = table_before(NO_PLAY_LINE)
    answer = table.rack_check("?N")
    assert answer.can_play and answer.best is None  # the play is only given when asked
    assert answer.sentence == "Yes: ?N has a play on this board (ENABLE)."
    best = table.rack_check("?N", best=True).best
    assert best is not None
    assert cli_moves(tmp_path, table.board.rows(), "?N")[0] == best.notation
    # Said so a learner can place it: GCG position, the whole word with the board's tiles, the blank named.
    assert table.rack_check("?N", best=True).best_sentence == f"Best play: {best.position.notation} {best.word} " \
        f"(across, the I a blank): DIN, {best.score} points."


def test_a_mid_game_rack_has_a_play_matching_the_move_generator(tmp_path: Path) -> None:
    # Before New_Player_1's 90-point PERTA.NS: the rack AENPRST, seven tiles, a bag still full.
    table = table_before(">New_Player_1: AENPRST")
    answer = table.rack_check("AENPRST", best=True)
    assert answer.can_play and answer.best is not None
    assert cli_moves(tmp_path, table.board.rows(), "AENPRST")[0] == answer.best.notation
    assert answer.best.score == 90


def test_asking_changes_nothing_in_the_game() -> None:
    table = played_table()
    before = (table.board.rows(), len(table.log.events), table.moves, table.revision)
    table.rack_check("?N", best=True)
    table.rack_check("RRV")
    assert (table.board.rows(), len(table.log.events), table.moves, table.revision) == before


@pytest.mark.parametrize(("typed", "sentence"), [
    ("R1V", "'R1V' has a digit, which is no tile of the en set: type letters, and ? for a blank."),
    ("R-V", "'R-V' has '-', which is no tile of the en set: type letters, and ? for a blank."),
    ("", "Type the tiles on the rack: letters, and ? for a blank."),
    ("ABCDEFGH", "'ABCDEFGH' has 8 tiles but a rack holds at most 7."),
    ("QQQ", "The rack has 3 Qs but every Q is on the board: check the rack."),
    ("???", "The rack has 3 blanks but only 1 blank is off the board: check the rack."),
])
def test_a_rack_the_game_cannot_have_gets_a_sentence(typed: str, sentence: str) -> None:
    table = played_table()
    with pytest.raises(TableError) as refused:
        table.rack_check(typed)
    assert str(refused.value) == sentence


def test_a_constructed_board_where_qqq_has_no_play_but_a_vowel_rack_does(tmp_path: Path) -> None:
    # Early in a played game (three Qs are not in the set, so this is a made-up rack on a real board).
    from companion.rack_check import check_rack
    from companion.rules.board import load_layout
    from companion.rules.tiles import load_tileset
    from lexicon import load_lexicon

    table = rebuild("test", {}, self_play(0)[:4])
    lex, layout, tiles = load_lexicon("ENABLE"), load_layout("standard"), load_tileset("en")
    answer = check_rack(table.board, "QQQ", lex, layout, replace(tiles, counts=None))  # no counts: QQQ allowed
    assert not answer.can_play
    assert cli_moves(tmp_path, table.board.rows(), "QQQ") == []
    assert check_rack(table.board, "AEI", lex, layout, tiles).can_play


def test_the_review_gives_each_turn_played_with_a_rack_its_best_play(tmp_path: Path) -> None:
    lines = _record_lines()
    events = classic_events_from_record(parse_gcg("\n".join(lines) + "\n"))
    table = rebuild("review", {}, events)
    reviews = table.play_reviews()
    plays = [line for line in lines if line.startswith(">") and len(line.split()) == 6
             and re.fullmatch(r"\d+[A-O]|[A-O]\d+", line.split()[2])]
    assert len(reviews) == len(plays) == 26
    first = reviews[0]
    assert (first.number, first.player, first.rack, first.played, first.played_score) == (
        1, "New_Player_1", "AAEJLOR", "8G RAJA", 22)
    empty = ["." * 15] * 15
    assert first.best is not None and cli_moves(tmp_path, empty, "AAEJLOR")[0] == first.best.notation
    for review in reviews:
        assert review.best is not None and review.played_score is not None
        if review.played_in_list:
            assert review.best.score >= review.played_score, review  # nobody beats the best
    # The record is TWL06; WEET is not in ENABLE, so Quackle's 32 beats ENABLE's best 26: said, not hidden.
    weet = reviews[13]
    assert (weet.played, weet.played_score, weet.played_in_list) == ("8A WEET", 32, False)
    assert weet.best is not None and weet.best.score == 26 and weet.missed == 0
    assert table.play_reviews() is reviews  # kept until the log changes
    assert sum(r.missed for r in reviews) > 0  # Quackle's opponent missed points somewhere


def test_the_review_of_a_played_game_gives_each_play_the_best_the_move_generator_finds(tmp_path: Path) -> None:
    """A whole played game, every play entered with its rack (the player took one of the best three)."""
    events = self_play(3)
    table = rebuild("review", {}, events)
    plays = [e for e in events if isinstance(e, Play)]
    reviews = table.play_reviews()
    assert [(r.player, r.rack, r.played) for r in reviews] == [(e.player, e.rack, f"{e.position} {e.word}")
                                                               for e in plays]
    before_each = [events[:i] for i, e in enumerate(events) if isinstance(e, Play)]
    for i, (review, play, before) in enumerate(zip(reviews, plays, before_each, strict=True)):
        assert review.played_in_list and review.best is not None and review.played_score is not None
        assert review.best.score - review.played_score == review.missed >= 0
        if i in (0, len(plays) // 2):  # the command line's best, on the empty board and a busy one
            rows = rebuild("before", {}, before).board.rows()
            assert cli_moves(tmp_path, rows, play.rack or "")[0] == review.best.notation
    assert sum(r.missed for r in reviews) > 0  # picking among the best three missed points somewhere
    assert table.play_reviews() is reviews


def test_a_game_entered_without_racks_has_nothing_to_review() -> None:
    from companion.games.classic.table import new_classic
    from companion.ui.table import PlayerInfo

    table = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
    table.play("8H", "QUIZ")
    assert not table.has_racks()
    assert table.play_reviews() == []
    assert table.rack_check("AEIRST?").can_play


def test_plays_typed_with_their_racks_are_checked_against_them_and_reviewed() -> None:
    from companion.games.classic.table import new_classic
    from companion.ui.table import PlayerInfo

    table = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
    with pytest.raises(TableError, match="does not hold"):
        table.play_with_rack("8H", "QUIZ", "AEIOUXY")
    with pytest.raises(TableError, match="is not tiles"):
        table.play_with_rack("8H", "QUIZ", "QUIZ12")
    assert len(table.log.events) == 1  # refusals change nothing
    table.play_with_rack("8H", "QUIZ", "quizaei")
    assert table.log.events[-1].rack == "QUIZAEI"  # type: ignore[attr-defined]
    table.play("H7", "A.E")  # Bob's play without a rack: counted, not reviewed
    assert table.has_racks()
    (review,) = table.play_reviews()
    assert (review.number, review.player, review.rack, review.played, review.played_score) == (
        1, "Ann", "QUIZAEI", "8H QUIZ", 44)
    assert review.best is not None and review.best.score >= 44


def test_monopoly_scrabble_tables_answer_too_and_the_shell_asks_the_table_not_the_game_name() -> None:
    from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
    from companion.ui.components.rack_check import supports_rack_check
    from companion.ui.components.review import offers_review
    from companion.ui.table import PlayerInfo, TableBase

    game = new_monopoly_scrabble([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")], "Ann")
    game.play("8H", "PUNCT")
    assert not game.rack_check("Q").can_play  # a lone Q on a board holding only PUNCT
    answer = game.rack_check("XYZ", best=True)
    assert answer.can_play and answer.best is not None and answer.best_word == "XU"
    assert supports_rack_check(game) and not offers_review(game)  # no play carries a rack
    other = TableBase("some_card_game", [PlayerInfo("Ann", "red")], game.log)
    assert not supports_rack_check(other) and not offers_review(other)
    assert not supports_rack_check(None)
