"""A short Monopoly Scrabble game played through the browser, with a follower tab watching.

Photo upload of a real board (shared data), a corrected misread letter, a challenge, hand-entered
plays, a bought Bank tile, undo, rent, the end of the game; screenshots for the README.
"""

from __future__ import annotations

import re

import pytest

from browser.conftest_shared import CAVA, app_server, launch, new_tab, playwright_instance, reader_env  # noqa: F401
from browser.harness import LAPTOP, failure_shot

pytestmark = pytest.mark.browser
PHOTO = CAVA / "1_01.jpg"


@pytest.mark.skipif(not PHOTO.exists(), reason="shared board photos (../shared/data/boards) are not here")
def test_monopoly_game(tmp_path, playwright_instance):  # noqa: F811
    env = reader_env(CAVA / "1_01.json", misread="7,8=V")
    with app_server(tmp_path, env) as url:
        browser = launch(playwright_instance)
        ref = new_tab(browser, url)
        ref.click("New game")
        ref.text("Banker (may also play)")
        ref.shot("01-new-game")
        ref.click("Start game")
        ref.text("Ann to play")

        fol = None
        try:
            # A follower opens the same address on another device (laptop-sized).
            fol = new_tab(browser, url, viewport=LAPTOP)
            fol.text("Watching (read-only)")

            # Ann: photo of the board; the reader misread U as V (low confidence, marked).
            with ref.page.expect_file_chooser() as fc:
                ref.click("Upload photo")
            fc.value.set_files(str(PHOTO))
            ref.wait_ident("play-score", timeout=30_000)
            ref.ident("cell-7-8").first.wait_for()
            assert "check" in (ref.ident("cell-7-8").first.get_attribute("aria-label") or
                               ref.ident("cell-7-8").first.inner_text())
            ref.shot("02-board-read")
            ref.ident("cell-7-8").first.click()
            ref.wait_ident("correction")
            ref.fill("Letter", "U")
            ref.click("Set letter")
            ref.text(re.compile(r"PUNCT 20, first word doubled \+20 = 40 points"))
            ref.click("Confirm play")
            ref.wait_ident("turn-steps")
            ref.text(re.compile(r"Passed GO: collect M2,000"))
            ref.text(re.compile(r"Dark Blue card captured"))
            ref.shot("03-turn-steps")
            fol.text(re.compile(r"M3,000"))

            # Bob challenges: PUNCT is not in ENABLE, Ann takes the tiles back and loses the turn.
            ref.click("Challenge by Bob")
            ref.wait_ident("verdict")
            ref.text("UNACCEPTABLE")
            ref.text("Word list: ENABLE")
            ref.shot("04-verdict")
            fol.text(re.compile(r"UNACCEPTABLE"))
            ref.ident("verdict").first.click()
            ref.text("Bob to play")

            # Bob enters a play by hand; an illegal one first, explained.
            ref.fill("Word", "HOTEL")
            ref.fill("Square", "A1")
            ref.click("Confirm play")
            ref.text(re.compile(r"first play must cover the centre square H8"))
            ref.fill("Square", "E8")
            ref.click("Check")
            ref.text(re.compile(r"HOTEL 16, first word doubled \+16 = 32 points"))
            ref.click("Confirm play")
            ref.text(re.compile(r"Green card captured"))
            ref.click("Next player")
            ref.text("Ann to play")

            # Ann buys a Bank tile, buys one too many by mistake and undoes it in the Bank.
            ref.click("Buy 1 Bank tile")
            ref.click("Buy 1 Bank tile")
            ref.click("Bank")
            ref.wait_ident("free-parking")
            ref.text("Free Parking pot: M700")
            ref.click("Undo last action")
            ref.text("Free Parking pot: M600")
            ref.shot("05-bank")
            ref.click("Turn")
            ref.fill("Word", "FOX")
            ref.fill("Square", "F7")
            ref.click("Down")
            ref.click("Confirm play")
            ref.text(re.compile(r"Banker refills the Bank rack with 1"))
            ref.click("Next player")

            # Bob extends HOTEL; Ann then lands on Bob's Green property and pays rent.
            ref.fill("Word", "HOTELS")
            ref.fill("Square", "E8")
            ref.click("Across")
            ref.click("Confirm play")
            ref.click("Next player")
            ref.fill("Word", "LAKES")
            ref.fill("Square", "J4")
            ref.click("Down")
            ref.click("Confirm play")
            ref.text(re.compile(r"rent M700 to Bob"))
            ref.click("Next player")
            fol.text(re.compile(r"Bob to play"))
            fol.shot("06-follower")

            # End of the game by agreement: tiles left on the racks cost M100 each.
            ref.click("End")
            ref.fill("Ann tiles left", "2")
            ref.click("Finish and show the winner")
            ref.wait_ident("winner")
            ref.text(re.compile(r"Winner: Bob"))
            ref.wait_ident("chart")
            ref.shot("07-end")
            fol.text(re.compile(r"Game over. Winner: Bob"))
        except Exception:
            failure_shot(ref, "monopoly-ref")
            if fol is not None:
                failure_shot(fol, "monopoly-fol")
            raise
        browser.close()
