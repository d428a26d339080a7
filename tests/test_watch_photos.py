"""Watch mode on streams built from real photographed games (../shared/data/boards); skipped without them.

The stream of a cava_ro game's first moves (a fixed camera, hands, tiles laid one or two at a time, the
board left alone) must commit every move exactly, tiles and score as the game's annotation says, with
nothing partial and nothing asked; with the camera bumped, the same.
"""

from __future__ import annotations

from typing import Any

import cv2
import pytest

from vision import stream as streams
from vision.labelled import SHARED_BOARDS, labelled_photos
from vision.watch import Phase, WatchConfig, Watcher

pytestmark = pytest.mark.skipif(not (SHARED_BOARDS / "cava_ro").is_dir(),
                                reason="../shared/data/boards/cava_ro is absent: the real photo games are not here")


def _game(moves: int) -> tuple[list[streams.Keyframe], list[tuple[list[tuple[int, int, str]], int]]]:
    photos = sorted((p for p in labelled_photos("cava_ro") if p.stem.startswith("1_") and "move" in p.meta),
                    key=lambda p: int(p.meta["move"]))[:moves + 1]
    keys = [streams.Keyframe(cv2.imread(str(p.image)), p.corners, [r.replace("#", ".") for r in p.grid])
            for p in photos]
    truth = [(sorted((t["row"], t["col"], t["letter"]) for t in p.meta["new_tiles"]), int(p.meta["move_score"]))
             for p in photos[1:]]
    return keys, truth


def _tiles(reading: Any) -> list[tuple[int, int, str]]:
    return sorted((int(t.square[1:]) - 1, ord(t.square[0]) - 65, t.letter) for t in reading.new_tiles or [])


@pytest.mark.parametrize("fault", ["clean", "bump"])
def test_a_photographed_games_stream_commits_each_move_exactly(fault: str) -> None:
    keys, truth = _game(4)
    st = streams.build_stream(keys, fps=1.0, fault=fault, seed=11, size=(1280, 960))
    watcher = Watcher(keys[0].grid, WatchConfig(tiles="ro"))
    commits = []
    for t, frame in st.frames:
        status = watcher.feed(frame, t)
        assert status.phase is not Phase.ASKING, status.message
        if status.commit is not None:
            commits.append((_tiles(status.commit), status.commit.score))
            watcher.set_board(watcher.board)
    assert commits == truth
