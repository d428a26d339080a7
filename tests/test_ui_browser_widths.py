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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import Tab, failure_shot

pytestmark = pytest.mark.browser


class _Screens:
    """The referee's tab at one width (phone 360 x 1100, laptop 1280 x 900), and a follower's when asked."""

    def __init__(self, browser: Any, url: str, width: int) -> None:
        self.browser, self.url = browser, url
        self.viewport = {"width": width, "height": 1100 if width == 360 else 900}
        self.height = self.viewport["height"]
        self.ref = new_tab(browser, url, viewport=self.viewport)
        self.fol: Tab | None = None

    def follow(self, url: str = "") -> Tab:
        self.fol = new_tab(self.browser, url or self.url, viewport=self.viewport)
        return self.fol


@contextmanager
def _screens(tmp_path, playwright, width: int, name: str) -> Iterator[_Screens]:
    """A fresh app and browser; on a failure the tabs' screenshots go to /tmp/fail-<name>-<width>*.png."""
    browser = launch(playwright)
    with app_server(tmp_path) as url:
        t = _Screens(browser, url, width)
        try:
            yield t
        except Exception:
            failure_shot(t.ref, f"{name}-{width}")
            if t.fol is not None:
                failure_shot(t.fol, f"{name}-fol-{width}")
            raise
    browser.close()


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
    with _screens(tmp_path, playwright_instance, width, "widths") as t:
        ref = t.ref
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
        ref.text(re.compile(r"Free Parking pot"), place="free-parking", contains=True)
        ref.page.wait_for_timeout(1500)  # the canvas can lag the semantics tree on a loaded machine
        ref.shot(f"w03-monopoly-bank-{width}")
        fol = t.follow(ref.page.url)
        fol.text("Watching (read-only)")
        fol.text("Bob to play", place="follow-status")
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


def _beside(left: dict[str, float], right: dict[str, float]) -> None:
    """`right` starts right of `left`'s right edge and overlaps its height band (drawn side by side)."""
    assert right["x"] >= left["x"] + left["width"] - 1, (left, right)
    assert right["y"] < left["y"] + left["height"] and left["y"] < right["y"] + right["height"], (left, right)


def _right_on_first_screen(left: dict[str, float], right: dict[str, float], height: int) -> None:
    """`right` starts right of `left`'s right edge and is on the first screen (seen without scrolling)."""
    assert right["x"] >= left["x"] + left["width"] - 1, (left, right)
    assert right["y"] + right["height"] <= height, right


def _above(top: dict[str, float], below: dict[str, float]) -> None:
    """One column: `top` ends before `below` begins, both within a phone's width."""
    assert top["y"] + top["height"] <= below["y"] + 1, (top, below)
    assert max(top["x"] + top["width"], below["x"] + below["width"]) <= 360 + 1, (top, below)


@pytest.mark.parametrize("width", [360, 1280])
def test_deal_screens_at_phone_and_laptop_width(tmp_path, playwright_instance, width):  # noqa: F811
    """Monopoly Deal: at 1280 px the players' sides of the table (banks, sets) are on the left and the
    turn (status, the step, the card picker) beside them; the story, end and follower screens in two
    columns. At 360 px one column in the phone order: status, the sides, the picker."""
    with _screens(tmp_path, playwright_instance, width, "widths-deal") as t:
        ref = t.ref
        ref.click("New game")
        ref.click("Monopoly Deal")
        ref.click("House rules")
        ref.text("Double the Rent with the any-colour rent card?")
        ref.shot(f"w09-deal-setup-{width}")
        ref.click("Start game")
        ref.click("Ann draws 2")
        ref.text("Ann's turn: 3 of 3 plays left.", place="deal-status")
        for card in ("Boardwalk", "Park Place"):
            ref.click(card)
            ref.text(f"Ann lays {card} (Dark Blue).", place="info")
        ref.click("3M")
        ref.text("Ann's turn: 0 of 3 plays left.", place="deal-status")
        ref.click("End Ann's turn")
        ref.click("Bob draws 2")
        ref.click("Kentucky Avenue")
        ref.text("Bob lays Kentucky Avenue (Red).", place="info")
        ref.click("2M")
        ref.text("Bob's turn: 1 of 3 plays left.", place="deal-status")
        ref.shot(f"w10-deal-table-{width}")
        status = _box(ref, ref.wait_ident("deal-status"))
        side = _box(ref, ref.wait_ident("board-0"))
        picker = _box(ref, ref.wait_ident("card-picker"))
        if width == 1280:  # the sides on the left, the turn and the picker beside them
            _beside(side, status)
            assert picker["x"] >= side["x"] + side["width"] - 1, (side, picker)
        else:
            _above(status, side)
            _above(side, picker)
        ref.click("Rent Red / Yellow")
        ref.click("Charge everyone 2M")
        ref.wait_ident("payment")
        ref.text("Paying 3M for 2M. No change is given: 1M over.", place="payment-note")
        ref.shot(f"w11-deal-payment-{width}")
        payment = _box(ref, ref.wait_ident("payment"))
        side = _box(ref, ref.wait_ident("board-0"))
        if width == 1280:  # beside the sides, on the first screen
            _right_on_first_screen(side, payment, t.height)
        else:
            _above(payment, side)
        ref.click("Ann pays 3M")
        ref.click("End Bob's turn")

        fol = t.follow()
        fol.text("Watching (read-only)")
        fol.text("Ann draws 2.", place="deal-status")
        fol.shot(f"w12-deal-follower-{width}")
        fside = _box(fol, fol.wait_ident("board-0"))
        fstatus = _box(fol, fol.wait_ident("follow-status"))
        if width == 1280:  # the sides on the left, who is to play beside them on the first screen
            _right_on_first_screen(fside, fstatus, t.height)
        else:
            _above(fstatus, fside)

        # Ann completes Brown beside Dark Blue, then the utilities: three sets, she wins.
        ref.click("Ann draws 2")
        for card, colour in (
            ("Mediterranean Avenue", "Brown"),
            ("Baltic Avenue", "Brown"),
            ("Electric Company", "Utility"),
        ):
            ref.click(card)
            ref.text(f"Ann lays {card} ({colour}).", place="info")
        ref.click("End Ann's turn")
        ref.click("Bob draws 2")
        ref.click("End Bob's turn")
        ref.click("Ann draws 2")
        ref.click("Water Works")
        ref.text("Ann wins!", place="deal-status")
        ref.click("See the winner")
        ref.wait_ident("winner")
        chart = _box(ref, ref.wait_ident("chart"))
        side = _box(ref, ref.wait_ident("board-0"))
        ref.shot(f"w13-deal-end-{width}")
        if width == 1280:  # the final sides on the left, the chart beside them
            _beside(side, chart)
        else:
            _above(side, chart)
        ref.click("What happened")
        paid_line = "Ann paid Bob 3M of 2M (rent for Red): 3M; 1M over, no change."
        paid = _box(ref, ref.text(paid_line))
        story = _box(ref, ref.wait_ident("story"))
        ref.shot(f"w14-deal-story-{width}")
        if width == 1280:  # the payments on the left, the story beside them
            _beside(paid, story)
        else:
            _above(paid, story)


@pytest.mark.parametrize("width", [360, 1280])
def test_builder_screens_at_phone_and_laptop_width(tmp_path, playwright_instance, width):  # noqa: F811
    """Monopoly Builder: at 1280 px the building grid on the left and the players, the roll, the step and
    the trades beside it; the Bank's cash, resources and deeds beside the trades; the score beside its
    chart; the follower's grid beside what happened; the board profile editor's parts beside the part
    being edited. At 360 px one column as on a phone."""
    with _screens(tmp_path, playwright_instance, width, "widths-builder") as t:
        ref = t.ref
        ref.click("New game")
        ref.click("Monopoly Builder")
        ref.text("Table settings")
        ref.shot(f"w15-builder-setup-{width}")
        ref.click("Edit board profile")
        ref.text("Board profile", contains=True)
        ref.click("Oriental Avenue")
        placeholders = _box(ref, ref.wait_ident("placeholders"))
        deed = _box(ref, ref.wait_ident("deed-values"))
        ref.shot(f"w20-builder-profile-{width}")
        if width == 1280:  # which part on the left, the part being edited beside it
            _right_on_first_screen(placeholders, deed, t.height)
        else:
            _above(placeholders, deed)
        ref.click("Back to the new game")
        ref.click("Start game")
        ref.text("Ann rolls the dice.", place="status")
        ref.tap_ident("dice-2-3")
        ref.text("Ann lands on Oriental Avenue.", place="turn-steps", contains=True)
        ref.click("Buy for M100")
        ref.text("Ann buys Oriental Avenue for M100.", place="turn-steps")
        ref.tap_ident("site-A1")  # a floor on A1 (2 chips of any colour), then B1 picked: its cost shown
        ref.wait_ident("build")
        ref.click("Build floor 1 on A1")
        ref.text("Ann builds floor 1 on A1.", place="turn-steps")
        ref.tap_ident("site-B1")
        ref.wait_ident("build")
        ref.shot(f"w16-builder-turn-{width}")
        status = _box(ref, ref.wait_ident("status"))
        corner = _box(ref, ref.wait_ident("site-A1"))
        if width == 1280:  # the grid on the left, the turn beside its top rows
            assert status["x"] > corner["x"] + 6 * corner["width"], (corner, status)
            assert status["y"] < corner["y"] + 3 * corner["height"], (corner, status)
        else:
            _above(status, corner)

        fol = t.follow()
        fol.text("Watching (read-only)")
        fol.text("Ann builds floor 1 on A1.", place="turn-steps")
        fol.shot(f"w17-builder-follower-{width}")
        fcorner = _box(fol, fol.wait_ident("site-A1"))
        fhand = _box(fol, fol.wait_ident("turn-steps"))
        if width == 1280:
            _beside(fcorner, fhand)
            # A narrower laptop (1000 px): no room for what happened beside both the grid and the shell's
            # column, so it goes above the grid (as on a phone) and the shell's column keeps its width.
            fol.page.set_viewport_size({"width": 1000, "height": t.height})
            fol.page.wait_for_function(
                """() => {
                    const box = id => document.querySelector(`[flt-semantics-identifier="${id}"]`)
                        ?.getBoundingClientRect();
                    const steps = box("turn-steps"), corner = box("site-A1");
                    return steps && corner && steps.bottom <= corner.top;
                }""",
                timeout=25_000,
            )
            fstatus = _box(fol, fol.wait_ident("follow-status"))
            fcorner = _box(fol, fol.wait_ident("site-A1"))
            assert fstatus["x"] > fcorner["x"] + 6 * fcorner["width"], (fcorner, fstatus)
            assert fstatus["x"] + 200 <= 1000, fstatus
        else:
            _above(fhand, fcorner)

        ref.click("Bank")
        ref.wait_ident("cash")
        cash = _box(ref, ref.wait_ident("cash"))
        trades = _box(ref, ref.page.get_by_text("Trade between players", exact=True).first)
        ref.shot(f"w18-builder-bank-{width}")
        if width == 1280:  # cash, resources and deeds on the left, the trades beside them on the first screen
            _right_on_first_screen(cash, trades, t.height)
        else:
            _above(cash, trades)
        ref.click("Score")
        ref.click("End the game by agreement")
        ref.wait_ident("winner")
        chart = _box(ref, ref.wait_ident("chart"))
        card = _box(ref, ref.wait_ident("score-1"))
        ref.shot(f"w19-builder-score-{width}")
        if width == 1280:
            _beside(card, chart)
        else:
            _above(card, chart)
