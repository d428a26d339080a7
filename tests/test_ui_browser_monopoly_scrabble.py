"""A short Monopoly Scrabble game played through the browser, with a follower tab watching.

Photo upload of a real board (shared data) read by the stand-in reader (`browser/fake_reader.py`:
the photo's label with U at I8 misread as V, low confidence), because the correction path needs a
misread that happens every run; the real reader reads real photos in `test_ui_browser_upload.py`
(upload) and `test_ui_browser_classic.py` (camera). Then a corrected letter, a challenge, hand-entered
plays, a bought Bank tile, a Chance card recorded wrong and undone in the Bank, rent, the end of the
game; screenshots for the README. The rules are the real engine's (`companion.games.monopoly_scrabble.rules`).
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

        # The table's box: the Red card's rent typed from the card, D8 tapped as a Red property square.
        ref.click("Edit board profile")
        ref.click("Red")
        ref.fill("Rent", "700")
        ref.click("Set card")
        ref.tap_ident("cell-7-3")
        ref.text(re.compile(r"Red: value M\S+, rent M700, squares E3, K13, D8\."), place="card-values")
        ref.click("Save profile")
        ref.text(re.compile(r"Board profile saved"), place="info", contains=True)
        ref.shot("01b-board-profile")
        assert (tmp_path / "profiles" / "table.json").exists()
        ref.click("Back to the new game")
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
            ref.tap_ident("cell-7-8")
            ref.wait_ident("correction")
            ref.fill("Letter", "U")
            ref.click("Set letter")
            ref.text("PUNCT 20 = 20 points", place="play-score")
            # The engine's preview of the rest of the turn, before confirming.
            ref.text("Ann's token moves from GO to Free Parking (space 20).", place="play-effects", contains=True)
            ref.click("Confirm play")
            ref.wait_ident("turn-steps")
            ref.text("Free Parking pays M500 to Ann: Free Parking.", place="turn-steps", contains=True)
            ref.text("Bob to play")
            ref.shot("03-turn-steps")
            fol.text(re.compile(r"M1,500"), place="player-0", contains=True)

            # Bob challenges: PUNCT is not in ENABLE; Ann's play and its money are withdrawn.
            ref.click("Challenge by Bob")
            ref.wait_ident("verdict")
            ref.text("UNACCEPTABLE", place="verdict", contains=True)
            ref.text("Word list: ENABLE", place="verdict", contains=True)
            ref.shot("04-verdict")
            fol.text(re.compile(r"UNACCEPTABLE"), contains=True)
            ref.tap_ident("verdict")
            ref.text("Bob to play")
            ref.text("Ann's 8H PUNCT is withdrawn (challenged by Bob: not a valid word). Ann's token moves from Free Parking to GO (space 0).", place="turn-steps")

            # Bob enters a play by hand; an illegal one first, explained.
            ref.fill("Word", "HOTEL")
            ref.fill("Square", "A1")
            ref.click("Confirm play")
            ref.text("The first play must cover the centre square H8.", place="error")
            ref.fill("Square", "E8")
            ref.click("Check")
            ref.text("HOTEL 16 = 16 points", place="play-score")
            ref.click("Confirm play")
            ref.text("Bob's token moves from GO to Orange (space 16).", place="play-effects", contains=True)
            ref.text("Ann to play")

            # Ann plays HUG down through the H with a G bought from the Bank rack, and lands on Chance.
            ref.fill("Word", "HUG")
            ref.fill("Square", "E8")
            ref.click("Down")
            ref.fill("Bought from Bank", "G")
            ref.click("Confirm play")
            ref.text("Ann pays M100 to Free Parking: bought G from the Bank.", place="turn-steps", contains=True)
            ref.wait_ident("card-step")
            # The referee taps the wrong card effect, then undoes it in the Bank.
            ref.click("Card: go to Jail")
            ref.text("Ann: Chance: go to jail. Ann's token moves from Chance to Jail / Just Visiting (space 10).", place="turn-steps")
            ref.click("Bank")
            ref.wait_ident("free-parking")
            ref.text("Free Parking pot: M600", place="free-parking")
            ref.click("Undo last action")
            ref.text("The last action was undone.", place="info")
            ref.wait_ident("card-step")
            ref.click("Card gives Orange")
            ref.text("Ann: Chance: take property. Ann takes the Orange card (Chance).", place="turn-steps")
            ref.shot("05-bank")
            ref.click("Turn")

            # Bob lands on Ann's Orange property and pays the rent.
            ref.text("Bob to play")
            ref.fill("Word", "ATE")
            ref.fill("Square", "H6")
            ref.click("Down")
            ref.click("Confirm play")
            ref.text("Bob pays M600 to Ann: rent for Orange.", place="turn-steps", contains=True)
            ref.text("Ann to play")
            fol.text(re.compile(r"Ann to play"), place="follow-status")
            fol.shot("06-follower")

            # End of the game by agreement: tiles left on the racks cost M100 each.
            ref.click("End")
            ref.text(re.compile(r"The Bank's count: Ann 7, Bob 7"), contains=True)
            ref.click("Finish and show the winner")
            ref.wait_ident("winner")
            ref.text(re.compile(r"Winner: Ann"), place="winner")
            ref.wait_ident("chart")
            ref.shot("07-end")
            fol.text(re.compile(r"Game over. Winner: Ann"), place="follow-status")
        except Exception:
            failure_shot(ref, "monopoly-ref")
            if fol is not None:
                failure_shot(fol, "monopoly-fol")
            raise
        browser.close()
