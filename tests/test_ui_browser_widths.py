"""The same screens at phone width (360 px) and laptop width (1280 px), in a real browser (issue 16.4).

At 1280 px the turn and follower screens put the board on the left and the players and controls
beside it, the home screen's tables sit side by side, and the setup screen's two halves sit side by
side; at 360 px everything is one column as before. Each screen is checked by what is on it and saved
to docs/screenshots/w*-<width>.png (looked at by a person: the README shows them).

Where each part is drawn is checked too: at 1280 px the first square of the board and the "to play"
line are side by side (same height band, the line to the right), at 360 px the line is above the board.
"""

from __future__ import annotations

import re

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser


def _box(tab, locator) -> dict[str, float]:
    locator.wait_for(timeout=25_000)
    box = locator.bounding_box()
    assert box is not None
    return box


def _start_and_play(tab, players: tuple[str, str], word: str) -> None:
    """Start the game set up on the tab's setup screen and play `word` across from H8 by hand."""
    tab.click("Start game")
    tab.text(f"{players[0]} to play")
    tab.fill("Word", word)
    tab.fill("Square", "H8")
    tab.click("Confirm play")
    tab.text(f"{players[1]} to play")


@pytest.mark.parametrize("width", [360, 1280])
def test_shell_and_word_board_screens_at_phone_and_laptop_width(tmp_path, playwright_instance, width):  # noqa: F811
    height = 1100 if width == 360 else 900
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url, viewport={"width": width, "height": height})
        fol = None
        try:
            ref.click("New game")
            ref.text("Banker (may also play)")
            ref.shot(f"w01-setup-monopoly-{width}")
            _start_and_play(ref, ("Ann", "Bob"), "HOTEL")
            ref.shot(f"w02-monopoly-turn-{width}")
            status = _box(ref, ref.page.get_by_text("Bob to play", exact=True).first)
            corner = _box(ref, ref.wait_ident("cell-0-0"))
            if width == 1280:  # side by side: the line right of the board, level with its top rows
                assert status["x"] > corner["x"] + 15 * corner["width"] - 1
                assert status["y"] < corner["y"] + 6 * corner["height"]
            else:  # one column: the line above the board
                assert status["y"] + status["height"] <= corner["y"]
            ref.click("Bank")
            ref.text(re.compile(r"Free Parking pot"))
            ref.page.wait_for_timeout(1500)  # the canvas can lag the semantics tree on a loaded machine
            ref.shot(f"w03-monopoly-bank-{width}")
            fol = new_tab(browser, ref.page.url, viewport={"width": width, "height": height})
            fol.text("Watching (read-only)")
            fol.text("Bob to play")
            fol.shot(f"w04-monopoly-follower-{width}")

            ref.click("Home")
            ref.click("New game")
            ref.click("Classic Scrabble")
            ref.fill("Player 1 name", "Cleo")
            ref.fill("Player 2 name", "Dev")
            _start_and_play(ref, ("Cleo", "Dev"), "QUIZ")
            ref.shot(f"w05-classic-turn-{width}")
            ref.click("Scoresheet")
            ref.text("8H QUIZ")
            ref.shot(f"w06-classic-scoresheet-{width}")
            ref.click("End")
            ref.click("Finish and show the winner")
            ref.wait_ident("winner")
            ref.shot(f"w07-classic-end-{width}")
            ref.click("Home")
            ref.text("Games in progress")
            ref.text("Finished games")
            ref.shot(f"w08-home-{width}")
        except Exception:
            failure_shot(ref, f"widths-{width}")
            if fol is not None:
                failure_shot(fol, f"widths-fol-{width}")
            raise
    browser.close()
