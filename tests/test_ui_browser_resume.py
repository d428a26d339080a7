"""The app is stopped mid-game and started again on the same data folder: the open game comes back
from the SQLite store with its turns, at its own address, and the referee carries on once the referee PIN
is given."""

from __future__ import annotations

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser


def test_open_game_survives_a_restart(tmp_path, playwright_instance):  # noqa: F811
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            ref.click("New game")
            ref.click("Classic Scrabble")
            ref.fill("Referee PIN (optional)", "2468")
            ref.click("Start game")
            ref.fill("Word", "HOTEL")
            ref.fill("Square", "H8")
            ref.click("Confirm play")
            ref.text("Bob to play")
        except Exception:
            failure_shot(ref, "resume-1")
            raise
    assert (tmp_path / "games.sqlite").exists()

    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            ref.click("Home")
            ref.text("Resumed the open game of Ann, Bob (2 events).")
            # The home screen lists the table; opening it watches the game: no turn controls without the PIN.
            ref.click("Open")
            ref.text("Watching (read-only)")
            assert ref.button("Pass").count() == 0
            ref.fill("Referee PIN", "1111")
            ref.click("Referee this game")
            ref.text("That PIN is not the referee's PIN.", place="error")
            ref.fill("Referee PIN", "2468")
            ref.click("Referee this game")
            ref.text("Bob to play", place="follow-status")
            ref.click("Scoresheet")
            ref.text("8H HOTEL")
            ref.click("Turn")
            ref.fill("Word", "HOTELS")
            ref.fill("Square", "H8")
            ref.click("Confirm play")
            ref.text("Ann to play")
        except Exception:
            failure_shot(ref, "resume-2")
            raise
    browser.close()

    from companion.store import Store

    with Store(tmp_path / "games.sqlite") as store:
        (info,) = store.games()
        assert info.last_seq == 3 and info.status == "active"
