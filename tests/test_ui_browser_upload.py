"""A real board photo uploaded through the browser and read by the project's real reader (`vision`,
no stand-in), then the club game's clocks across an app restart.

The photo (shared data, cava_ro 1_01) shows PUNCT across row 8; the reader must find it and the
engine score it 20 before the play is confirmed. The clocks run, the app is stopped and started
again on the same data folder, and the resumed game shows the time used, paused.
"""

from __future__ import annotations

import re

import pytest
from browser.conftest_shared import CAVA, app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser
PHOTO = CAVA / "1_01.jpg"


@pytest.mark.skipif(not PHOTO.exists(), reason="shared board photos (../shared/data/boards) are not here")
def test_real_photo_upload_and_clocks_after_restart(tmp_path, playwright_instance):  # noqa: F811
    browser = launch(playwright_instance)
    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            ref.click("New game")
            ref.click("Classic Scrabble")
            ref.click("Club")
            ref.click("Start game")
            ref.text("Ann to play")
            ref.click("Start clocks")
            with ref.page.expect_file_chooser() as fc:
                ref.click("Upload photo")
            fc.value.set_files(str(PHOTO))
            ref.wait_ident("play-score", timeout=60_000)
            ref.text("PUNCT 20 = 20 points", place="play-score")
            ref.click("Confirm play")
            ref.text(re.compile(r"Ann played PUNCT at 8H: 20 points"), place="info", contains=True)
            ref.text("Bob to play")
            # Bob's clock runs for more than 10 s (the running clock is saved every few seconds).
            ref.ident("player-1").filter(has_text=re.compile(r"24:4\d")).first.wait_for(timeout=30_000)
        except Exception:
            failure_shot(ref, "upload-1")
            raise

    with app_server(tmp_path) as url:
        ref = new_tab(browser, url)
        try:
            bob = ref.wait_ident("player-1")
            assert re.search(r"24:[45]\d", bob.inner_text() or bob.get_attribute("aria-label") or ""), \
                "Bob's time used came back after the restart (not 25:00)"
            ref.click("Home")
            ref.text(re.compile(r"The clocks are as they were saved, paused"), contains=True)
        except Exception:
            failure_shot(ref, "upload-2")
            raise
    browser.close()
