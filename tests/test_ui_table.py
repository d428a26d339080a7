"""The UI's game wrapper without a browser: Monopoly previews and wording from the real engine, the
store round trip and resume, the classic GCG export, clocks, the reader and judge adapters."""

from __future__ import annotations

import pytest

from companion.games.classic.gcg import classic_events_from_record
from companion.games.classic.table import new_classic
from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
from companion.gcg import parse_gcg
from companion.ui.adapters import JUDGE, read_board
from companion.ui.persist import GameStore
from companion.ui.table import PlayerInfo, TableError

PLAYERS = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]


def monopoly_game():
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    g.play("8H", "PUNCT")
    return g


def test_preview_changes_nothing_and_matches_the_confirmed_play():
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    check = g.check("8H", "PUNCT")
    assert check.ok and check.total == 20
    assert "Ann's token moves from GO to Free Parking (space 20)." in check.effects
    assert g.cash() == {"Ann": 1000, "Bob": 1000} and g.current_player == "Ann"  # nothing changed
    g.play("8H", "PUNCT")
    assert g.turn_lines == check.effects
    assert g.cash()["Ann"] == 1500 and g.current_player == "Bob"


def test_refusals_are_sentences_and_change_nothing():
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    assert g.check("1A", "HOTEL").error == "The first play must cover the centre square H8."
    with pytest.raises(TableError, match="Bought tiles Z are not in the word"):
        g.play("8H", "HOTEL", "Z")
    with pytest.raises(TableError, match="not what the turn waits for"):
        g.card("collect", 200)
    assert len(g.engine.log.events) == 1


def test_challenge_withdraws_the_play_and_says_so():
    g = monopoly_game()
    verdict = g.challenge("Bob")
    assert not verdict.acceptable and verdict.lexicon == "ENABLE" and verdict.bad_words == ("PUNCT",)
    assert g.cash()["Ann"] == 1000
    assert g.turn_lines[0] == "Ann's 8H PUNCT is withdrawn (challenged by Bob: not a valid word)."
    assert "loses the turn" in g.notice


def test_card_rent_history_and_end():
    g = monopoly_game()
    g.challenge("Bob")
    g.play("8E", "HOTEL")
    g.play("E8", "HUG", "G")
    assert g.turn_stage() == "card"
    g.card("go_to_jail")
    g.undo()
    assert g.turn_stage() == "card" and g.turn_lines == ["The last action was undone."]
    g.card("take_property", group="orange")
    g.play("H6", "ATE")
    assert "Bob pays M600 to Ann: rent for Orange." in g.turn_lines
    history = g.history()
    assert history[0] == {"Ann": 1000, "Bob": 1000} and history[-1] == {"Ann": 2400, "Bob": 400}
    g.end_game({}, agreed=True)
    assert g.finished and g.winner() == ["Ann"]
    assert g.history()[-2:] == [{"Ann": 2400, "Bob": 400}, {"Ann": 1700, "Bob": 0}]  # 7 unplayed tiles each


def test_store_keeps_every_event_and_resumes_the_open_game(tmp_path):
    store = GameStore(tmp_path)
    g = monopoly_game()
    store.save(g)
    g.challenge("Bob")
    g.undo()
    store.save(g)
    assert store.error == ""
    again, note = GameStore(tmp_path).resume()
    assert again is not None and again.id == g.id and "4 events" in note
    assert again.cash() == g.cash() and again.colour("Bob") == "blue" and again.banker == "Ann"
    assert again.last_play_words() == ("Ann", ["PUNCT"])  # the undone challenge can be made again
    g.end_game({}, agreed=True)
    store.save(g)
    assert GameStore(tmp_path).resume() == (None, "")  # a finished game is not resumed


def test_clocks_come_back_after_a_restart(tmp_path):
    """A club game's clocks: the time used is saved beside the store and a resumed game shows it (paused)."""
    store = GameStore(tmp_path)
    g = new_classic(PLAYERS, preset="club")
    assert g.clocks is not None
    g.start_clock()
    g.clocks.used["Ann"] = 125.0  # two minutes of Ann's thinking, without waiting for them
    g.play("8H", "PUNCT")  # Bob's clock runs now
    g.clocks.used["Bob"] = 30.0
    store.save(g)
    again, note = GameStore(tmp_path).resume()
    assert again is not None and again.clocks is not None
    assert again.clocks.paused() and "clocks are as they were saved" in note
    assert 125 <= again.clock_seconds("Ann") < 127 and 30 <= again.clock_seconds("Bob") < 32
    # While a clock runs the tabs ask every second; the file is written at most every few seconds.
    again.start_clock()
    again.clocks.used["Bob"] = 300.0
    store2 = GameStore(tmp_path)
    store2.save_clocks(again)
    assert 300 <= GameStore(tmp_path).resume()[0].clock_seconds("Bob") < 302  # type: ignore[union-attr]
    again.clocks.used["Bob"] = 400.0
    store2.save_clocks(again)  # too soon after the last write: skipped
    assert GameStore(tmp_path).resume()[0].clock_seconds("Bob") < 302  # type: ignore[union-attr]
    # A damaged clocks file does not stop the game: its clocks start from zero, and the note says so.
    (tmp_path / "clocks.json").write_text("{not json", encoding="utf-8")
    game, note = GameStore(tmp_path).resume()
    assert game is not None and game.clock_seconds("Ann") == 0 and "start again from zero" in note


def test_classic_gcg_export_reads_back_and_clock_penalty():
    g = new_classic(PLAYERS, preset="club")
    g.play("8H", "HOTEL")
    g.exchange(3)
    g.play("I7", "FOX")
    record = parse_gcg(g.gcg())
    assert [p.name for p in record.players] == ["Ann", "Bob"]
    events = classic_events_from_record(record)
    assert [e.type for e in events][1:] == ["play", "exchange", "play"]
    assert g.clocks is not None and g.clock_minutes == 25
    g.clocks.used["Bob"] = 25 * 60 + 61  # two minutes started over time: 10 points each
    assert g.overtime_penalty("Bob") == 20 and g.overtime_penalty("Ann") == 0


def test_reader_adapter_reads_a_real_photo_and_refuses_junk(shared_data):
    photo = shared_data / "boards" / "cava_ro" / "1_01.jpg"
    read = read_board(photo.read_bytes(), ["." * 15] * 15)
    assert read.rows[7] == ".......PUNCT..."
    with pytest.raises(ValueError, match="not an image"):
        read_board(b"not a photo")


def test_a_romanian_classic_game_reads_and_scores_with_romanian_values(shared_data):
    # The first move of a real CAVA game: PUNCT, officially 14 with Romanian values (20 with English ones).
    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")], tileset="ro")
    assert game.tileset_name == "ro"
    photo = shared_data / "boards" / "cava_ro" / "1_01.jpg"
    read = read_board(photo.read_bytes(), game.board.rows(), game.tileset_name)
    check, warnings = game.check_read(list(read.rows))
    assert check.ok and check.word == "PUNCT" and check.total == 14 and not warnings
    english = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
    assert english.tileset_name == "en" and english.check_read(list(read.rows))[0].total == 20


def test_judge_names_the_word_list():
    v = JUDGE.judge(["HOTEL", "qi"])
    assert v.lexicon == "ENABLE" and not v.acceptable and v.bad_words == ("QI",)


def test_referee_pin_is_kept_hashed_and_locks_after_five_wrong_tries(tmp_path):
    store = GameStore(tmp_path)
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    g.new_pin = "2468"
    store.save(g)
    assert g.new_pin == "" and store.has_pin(g)
    assert "2468" not in (tmp_path / "games.sqlite").read_bytes().decode("latin-1")
    assert store.check_pin(g, "2468") == ""
    answers = [store.check_pin(g, "0000") for _ in range(5)]
    assert answers[0] == "That PIN is not the referee's PIN."
    assert store.check_pin(g, "2468").startswith("Too many wrong PINs: wait")


def test_an_unreadable_store_never_lets_another_phone_skip_the_pin(tmp_path):
    store = GameStore(tmp_path)
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    g.new_pin = "2468"
    store.save(g)
    (tmp_path / "games.sqlite").write_bytes(b"this is not a database any more" * 100)
    assert store.has_pin(g)  # cannot tell: treated as guarded
    answer = store.check_pin(g, "2468")
    assert answer.startswith("The PIN could not be checked") and "\n" not in answer


def test_bingo_card_debt_and_jail_steps():
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    g.play("8D", "ANOTHER")  # all seven tiles: a bingo
    assert g.turn_stage() == "bingo" and g.turn_lines[-1] == "Next: Ann chooses a Property Card for the bingo."
    g.bingo_choice("dark_blue")
    assert "Ann takes the Dark Blue card (bingo)." in g.turn_lines and g.turn_stage() == "card"
    g.card("go_to_jail")
    assert g.current_player == "Bob" and g.turn_stage() == "word"
    g.pass_turn()
    assert g.turn_stage() == "jail" and g.step_player() == "Ann"
    g.pay_jail()
    assert "Ann pays M100 to Free Parking: jail fee." in g.turn_lines and g.turn_stage() == "word"


def test_debt_is_paid_by_selling_cards_then_elimination_ends_the_game():
    g = new_monopoly_scrabble(PLAYERS, "Ann")
    g.play("8D", "ANOTHER")
    g.bingo_choice("dark_blue")
    g.card("pay_bank", 3000)
    assert g.turn_stage() == "debt"
    g.sell("Ann", "dark_blue")
    assert g.finished and g.winner() == ["Bob"]
    assert "Ann is out of the game: could not pay a debt." in g.turn_lines


def test_a_read_blank_must_be_named_before_the_play_counts():
    g = new_classic(PLAYERS)
    rows = ["." * 15] * 15
    rows[7] = ".......HO?EL..."
    check, _ = g.check_read(rows)
    assert not check.ok and check.error == "Name the blank on J8: tap the square and choose its letter."
    rows[7] = ".......HOtEL..."  # named: a blank standing for T scores nothing (L8 is a DL)
    check, _ = g.check_read(rows)
    assert check.ok and check.position == "8H" and check.word == "HOtEL" and check.total == 16  # 18 with a real T
