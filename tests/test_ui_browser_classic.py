"""A short classic Scrabble game played through the browser: camera turn, clocks, exchange, challenge,
scoresheet, GCG export (checked by the project's GCG parser), end of game.

The first play comes through the camera: Chromium's fake camera streams a Y4M made from a real board
photo, flet-camera hands the JPEG to Python and the project's real reader (`vision`) reads PUNCT from it.
No shortcut into the engine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser.conftest_shared import CAVA, app_server, launch, new_tab, playwright_instance, reader_env  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser
PHOTO = CAVA / "1_01.jpg"


def write_y4m(photo: Path, out: Path, width: int = 640, height: int = 480) -> Path:
    """A one-frame Y4M video of the photo (Chromium's fake camera loops it)."""
    import cv2
    import numpy as np

    img = cv2.imread(str(photo))
    h, w = img.shape[:2]
    scale = min(width / w, height / h)
    small = cv2.resize(img, (int(w * scale) // 2 * 2, int(h * scale) // 2 * 2), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((height, width, 3), np.uint8)
    y0, x0 = (height - small.shape[0]) // 2, (width - small.shape[1]) // 2
    canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    yuv = cv2.cvtColor(canvas, cv2.COLOR_BGR2YUV_I420)
    with open(out, "wb") as fh:
        fh.write(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode())
        fh.write(b"FRAME\n" + yuv.tobytes())
    return out


@pytest.mark.skipif(not PHOTO.exists(), reason="shared board photos (../shared/data/boards) are not here")
def test_classic_game(tmp_path, playwright_instance):  # noqa: F811
    from companion.games.classic.gcg import classic_events_from_record
    from companion.gcg import parse_gcg

    video = write_y4m(PHOTO, tmp_path / "board.y4m")
    env = reader_env(CAVA / "1_01.json")
    with app_server(tmp_path, env) as url:
        browser = launch(playwright_instance, [
            "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"])
        ref = new_tab(browser, url, permissions=["camera"])
        try:
            ref.click("New game")
            ref.click("Classic Scrabble")
            ref.click("Club")
            ref.text(re.compile("Finish Line"), place="role:button")
            ref.shot("c01-classic-setup")
            ref.click("Start game")
            ref.text("Ann to play")

            # Clocks: Ann's runs once started.
            ref.click("Start clocks")
            ref.text(re.compile(r"24:[45]\d"), timeout=8000, place="player-0", contains=True)

            # Ann's play through the camera.
            ref.click("Camera")
            ref.text("Point at the whole board, then take the photo.", timeout=20_000)
            ref.shot("c02-camera")
            ref.click("Take photo")
            ref.wait_ident("play-score", timeout=30_000)
            ref.text("PUNCT 20 = 20 points", place="play-score")
            ref.click("Confirm play")
            ref.text(re.compile(r"Ann played PUNCT at 8H: \d+ points"), place="info", contains=True)
            ref.text("Bob to play")

            # Bob exchanges three tiles.
            ref.fill("Tiles", "3")
            ref.click("Exchange")
            ref.text("Bob exchanged 3 tiles.", place="info")

            # Ann extends through the U by hand; Bob challenges and loses 5 points (club rules).
            ref.fill("Word", "UNIT")
            ref.fill("Square", "I8")
            ref.click("Down")
            ref.click("Check")
            ref.text(re.compile(r"UNIT \d+ = \d+ points"), place="play-score")
            ref.click("Confirm play")
            ref.text("Bob to play")
            ref.click("Challenge by Bob")
            ref.wait_ident("verdict")
            ref.text("ACCEPTABLE", place="verdict", contains=True)
            ref.text("Word list: ENABLE", place="verdict", contains=True)
            ref.tap_ident("verdict")
            ref.text("Bob to play")
            ref.click("Pass")
            ref.text("Bob passed.", place="info")

            # Scoresheet and GCG export.
            ref.click("Scoresheet")
            ref.wait_ident("unseen")
            ref.click("Export GCG")
            ref.wait_ident("gcg")
            ref.text(">Ann: PUNCT 8H PUNCT +20 20", place="gcg", contains=True)
            ref.text("exchanged 3 tiles")
            ref.shot("c03-scoresheet")
            saved = list(tmp_path.glob("*.gcg"))
            assert len(saved) == 1, "the GCG file is saved in the --data folder"
            record = parse_gcg(saved[0].read_text(encoding="utf-8"))
            events = classic_events_from_record(record)
            assert [p.name for p in record.players] == ["Ann", "Bob"]
            assert len(events) >= 5  # start, PUNCT, exchange, UNIT, challenge, pass

            # End of the game by agreement with tiles left on the racks.
            ref.click("End")
            ref.fill("Ann rack", "AE")
            ref.fill("Bob rack", "QZ")
            ref.click("Finish and show the winner")
            ref.wait_ident("winner")
            ref.text("Winner: Ann", place="winner")
            ref.wait_ident("chart")
            ref.shot("c04-classic-end")
        except Exception:
            failure_shot(ref, "classic-ref")
            raise
        browser.close()
