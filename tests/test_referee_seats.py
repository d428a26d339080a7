"""The referee's seat kept for a tab whose session is gone (`companion.ui.seats`, `Hub.reseat`): only a
key that refereed a game gets it back, the file holds no key, and an unreadable file costs only the seat."""

from __future__ import annotations

import json

from companion.ui.seats import KEYS_PER_GAME, SEATS_FILE, RefereeSeats


def test_a_referees_old_key_gets_its_games_back_after_a_restart_and_no_other_key_does(tmp_path):
    seats = RefereeSeats(tmp_path / SEATS_FILE)
    seats.remember("game-a", "referee-key-1")
    seats.remember("game-b", "referee-key-1")
    seats.remember("game-b", "other-referee")
    again = RefereeSeats(tmp_path / SEATS_FILE)  # a restarted server reads the file
    assert sorted(again.games_of("referee-key-1")) == ["game-a", "game-b"]
    assert again.games_of("other-referee") == ["game-b"]
    assert again.games_of("a-followers-key") == [] and again.games_of("") == []
    text = (tmp_path / SEATS_FILE).read_text()
    assert "referee-key-1" not in text and "other-referee" not in text, "the file holds digests, not keys"


def test_the_seats_per_game_are_bounded_and_a_damaged_file_only_forgets_them(tmp_path):
    seats = RefereeSeats(tmp_path / SEATS_FILE)
    for i in range(KEYS_PER_GAME + 5):
        seats.remember("game", f"key-{i}")
    assert len(json.loads((tmp_path / SEATS_FILE).read_text())["game"]) == KEYS_PER_GAME
    assert seats.games_of("key-0") == [] and seats.games_of(f"key-{KEYS_PER_GAME + 4}") == ["game"]
    (tmp_path / SEATS_FILE).write_text("{not json")
    assert RefereeSeats(tmp_path / SEATS_FILE).games_of("key-10") == []


def test_the_hub_reseats_only_a_referees_key(tmp_path):
    from companion.ui.hub import Hub

    hub = Hub()
    hub.configure(str(tmp_path))
    hub.authorise("g1", "ref-old")
    assert hub.reseat("fol-old", "fol-new") == []
    assert hub.reseat("ref-old", "ref-new") == ["g1"]
    assert "ref-new" in hub._referees["g1"] and "fol-new" not in hub._referees.get("g1", set())
