"""A photo the reader doubts, uploaded through the browser: the app shows why and asks instead of scoring.

Ann plays HOTEL by hand; Bob uploads a photo of an empty board (shared data, cava_ro template_1), read
by the project's real reader. No tile is read on a board the game knows holds five, so the reading is
doubtful: the turn screen shows the reader's reason and offers 'The board is right' or 'Enter by hand',
never the words and their score, and nothing is recorded until the referee chooses.
"""

from __future__ import annotations

import re

import pytest
from browser.conftest_shared import CAVA, app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser
PHOTO = CAVA / "template_1.jpg"


@pytest.mark.skipif(not PHOTO.exists(), reason="shared board photos (../shared/data/boards) are not here")
def test_doubtful_photo_is_not_scored_and_the_referee_is_asked(tmp_path, playwright_instance):  # noqa: F811
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            ref.click("New game")
            ref.click("Classic Scrabble")
            ref.click("Start game")
            ref.text("Ann to play")
            ref.fill("Word", "HOTEL")
            ref.fill("Square", "H8")
            ref.click("Check")
            ref.text(re.compile(r"HOTEL \d+ = \d+ points"), place="play-score")
            ref.click("Confirm play")
            ref.text("Bob to play")
            with ref.page.expect_file_chooser() as fc:
                ref.click("Upload photo")
            fc.value.set_files(str(PHOTO))
            ref.text("The reader is not sure of this photo: check the board, correct it or enter the play by hand.", timeout=60_000, place="info")
            ref.text(re.compile(r"No tile was read, but the board of the game holds 5"), contains=True)
            ref.button("The board is right").wait_for()
            # Nothing to score from: no words and points, no 'Confirm play' while the reading is doubted.
            assert ref.page.get_by_role("button", name="Confirm play").count() == 0
            ref.shot("v01-doubtful-read")
            ref.click("Enter by hand")
            ref.text("Enter the play by hand below.", place="info")
            ref.text("Bob to play")
        except Exception:
            failure_shot(ref, "doubtful-read")
            raise
    browser.close()
