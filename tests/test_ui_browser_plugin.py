"""A game written only in the tests (tests/games/counter_game.py) shows in the real app: the app is started
with COMPANION_GAMES naming it, the setup screen offers it, it starts, a tap changes it, a follower sees
it, and after a restart the open game resumes. No file outside the test is touched."""

from __future__ import annotations

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser

PLUG_IN = {"COMPANION_GAMES": "tests.games.counter_game:GAME"}


def test_a_plugged_in_game_plays_and_resumes_in_the_app(tmp_path, playwright_instance):  # noqa: F811
    browser = launch(playwright_instance)
    with app_server(tmp_path, env=PLUG_IN) as url:
        ref = new_tab(browser, url)
        try:
            ref.click("New game")
            ref.click("Counter (test game)")
            ref.text("Two players tap in turn; the first to 3 wins.")
            ref.click("Start game")
            ref.text("Counts: Ann 0, Bob 0", place="counter")
            ref.click("Tap for Ann")
            ref.text("Counts: Ann 1, Bob 0", place="counter")
            ref.click("Tap for Bob")
            ref.text("Counts: Ann 1, Bob 1", place="counter")
            watcher = new_tab(browser, url)
            watcher.text("Ann to play", place="follow-status")
            watcher.text("Ann 1 taps to play", place="player-0")  # the players' chips say what the game's table says (chip_lines)
            watcher.text("Counts: Ann 1, Bob 1", place="counter")
            ref.click("Tap for Ann")
            watcher.text("Counts: Ann 2, Bob 1", place="counter")
        except Exception:
            failure_shot(ref, "plugin-1")
            raise

    with app_server(tmp_path, env=PLUG_IN) as url:
        ref = new_tab(browser, url)
        try:
            ref.text("Counts: Ann 2, Bob 1", place="counter")  # a new tab follows the resumed game
            ref.click("Home")
            ref.text("Resumed the open game of Ann, Bob (4 events).")
            ref.click("Open")  # the home screen lists the table; its page offers to referee it
            ref.click("Referee this game")
            ref.click("Tap for Bob")
            ref.text("Counts: Ann 2, Bob 2", place="counter")
            ref.click("Tap for Ann")
            ref.text("Winner: Ann")
        except Exception:
            failure_shot(ref, "plugin-2")
            raise
    browser.close()

    from companion.store import Store

    with Store(tmp_path / "games.sqlite") as store:
        (info,) = store.games()
        assert info.variant == "counter" and info.last_seq == 6 and info.status == "finished"
