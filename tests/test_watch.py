"""Watch mode (issue #22) on rendered boards: runs in a plain clone, no ../shared needed.

Each stream is built by `vision.stream` from a game rendered by `vision.synth`: a hand and arm reach in,
the move's tiles appear one or two at a time with pauses, and the board is left alone. The watcher is
driven as the app drives it: a commit is recorded at once with `set_board`.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from companion.rules.tiles import load_tileset
from vision import stream as streams
from vision.errors import NotAnImage
from vision.watch import Phase, WatchConfig, Watcher, WatchStatus

SIZE = (960, 720)  # small frames keep the tests quick; the benchmark uses 2 MP


def _truth(keys: list[streams.Keyframe]) -> list[tuple[list[tuple[int, int, str]], int | None]]:
    from benchmarks.vision_sequence import label_change

    tileset = load_tileset("en")
    return [label_change(a.grid, b.grid, tileset) for a, b in itertools.pairwise(keys)]


def _tiles(reading: Any) -> list[tuple[int, int, str]]:
    return sorted((int(t.square[1:]) - 1, ord(t.square[0]) - 65, t.letter) for t in reading.new_tiles or [])


def _watch(watcher: Watcher, frames: list[tuple[float, Any]]) -> list[WatchStatus]:
    out = []
    for t, frame in frames:
        status = watcher.feed(frame, t)
        out.append(status)
        if status.commit is not None:
            watcher.set_board(watcher.board)  # what the app does once the move is recorded
    return out


@pytest.fixture(scope="module")
def game() -> tuple[list[streams.Keyframe], streams.Stream]:
    keys = streams.rendered_game("cream_blue_letters", seed=2, moves=3)
    return keys, streams.build_stream(keys, fps=1.0, seed=2, size=SIZE)


def test_a_whole_game_with_hands_and_tiles_laid_one_by_one_commits_every_move_exactly(game: Any) -> None:
    keys, st = game
    statuses = _watch(Watcher(keys[0].grid), st.frames)
    commits = [s.commit for s in statuses if s.commit is not None]
    assert [(_tiles(c), c.score) for c in commits] == _truth(keys)
    assert not any(s.phase is Phase.ASKING for s in statuses)
    # The stream really laid the moves in parts with the hand lifted between them: the watcher proposed
    # partial moves on the way, and committed none of them.
    partial = [s for s in statuses if s.proposal is not None and s.commit is None
               and _tiles(s.proposal) not in [t for t, _ in _truth(keys)]]
    assert partial, "the stream should show moves half laid"
    # hands were seen, and each move was proposed as a whole before being committed
    assert any(s.phase is Phase.HIDDEN for s in statuses)
    for commit in commits:
        assert any(s.proposal is not None and s.commit is None and _tiles(s.proposal) == _tiles(commit)
                   for s in statuses)


def test_a_move_is_committed_at_once_at_a_clock_tap(game: Any) -> None:
    keys, st = game
    watcher = Watcher(keys[0].grid, WatchConfig(settle_seconds=60))
    first = st.moves[0]
    for t, frame in st.frames:
        status = watcher.feed(frame, t)
        if t >= first.laid and status.proposal is not None and _tiles(status.proposal) == _truth(keys)[0][0]:
            tapped = watcher.boundary(t)
            assert tapped.commit is not None and _tiles(tapped.commit) == _truth(keys)[0][0]
            return
        assert status.commit is None  # a 60 s settle time never ran out
    pytest.fail("the first move was never proposed whole")


def test_a_tile_of_the_games_board_gone_asks_and_commits_nothing() -> None:
    keys = streams.rendered_game("black_tiles", seed=3, moves=1)
    board = keys[1].grid
    st = streams.build_stream([keys[1], keys[1]], fps=1.0, seed=3, size=SIZE)  # nothing changes on the table
    # the game holds one tile more than the board shows: a tile taken off (or never there)
    r, c = next((r, c) for r in range(15) for c in range(15) if board[r][c] == "." and
                any(board[r][k] != "." for k in range(15)))
    rows = [row[:c] + "E" + row[c + 1:] if i == r else row for i, row in enumerate(board)]
    statuses = _watch(Watcher(rows), st.frames)
    assert not any(s.commit for s in statuses)
    asked = [s for s in statuses if s.phase is Phase.ASKING]
    assert asked, [s.message for s in statuses]
    assert "gone or moved" in (asked[-1].question or "")
    assert (r, c) in asked[-1].squares


def test_a_withdrawn_play_is_agreed_when_its_tiles_are_lifted() -> None:
    keys = streams.rendered_game("coloured_plastic", seed=4, moves=2)
    # the second move is played, challenged off, and its tiles lifted: the board is the first move's again
    st = streams.build_stream([keys[1], keys[2], keys[1]], fps=1.0, seed=4, size=SIZE)
    watcher = Watcher(keys[1].grid)
    played = _truth([keys[1], keys[2]])[0][0]
    phases = []
    withdrawn = False
    for t, frame in st.frames:
        status = watcher.feed(frame, t)
        phases.append(status.phase)
        if status.commit is not None:
            assert not withdrawn, "nothing may be committed after the withdrawal"
            assert _tiles(status.commit) == played
            watcher.set_board(keys[1].grid, withdrawn=[(r, c) for r, c, _ in played])  # challenged off
            withdrawn = True
        assert status.phase is not Phase.ASKING, status.message
    assert withdrawn
    assert Phase.LIFT in phases
    assert phases[-1] is Phase.WATCHING
    assert watcher.board == keys[1].grid


def test_a_bumped_camera_is_found_again_and_nothing_is_scored_again() -> None:
    keys = streams.rendered_game("worn_wood", seed=5, moves=3)
    st = streams.build_stream(keys, fps=1.0, fault="bump", seed=5, size=SIZE)
    watcher = Watcher(keys[0].grid)
    statuses = _watch(watcher, st.frames)
    commits = [s.commit for s in statuses if s.commit is not None]
    assert [(_tiles(c), c.score) for c in commits] == _truth(keys)
    assert watcher.corners is not None
    found, truth = np.array(watcher.corners), np.array(st.extra["final_corners"])
    assert np.abs(found - truth).max() < 4.0  # the grid where the bumped camera sees it
    assert np.abs(np.array(st.corners) - truth).max() > 4.0  # and it did move


def test_a_frame_that_is_not_an_image_is_refused_and_changes_nothing(game: Any) -> None:
    keys, st = game
    watcher = Watcher(keys[0].grid)
    watcher.feed(st.frames[0][1], 0.0)
    for bad in (b"not an image at all", b"", np.zeros((4, 4), np.float32)):
        with pytest.raises(NotAnImage):
            watcher.feed(bad, 1.0)  # type: ignore[arg-type]
    assert watcher.board == keys[0].grid
    assert watcher.feed(st.frames[1][1], 1.0).phase is Phase.WATCHING


def test_frames_with_no_board_say_so() -> None:
    rng = np.random.default_rng(0)
    watcher = Watcher(["." * 15] * 15)
    table = np.clip(rng.normal(110, 25, (SIZE[1], SIZE[0], 3)), 0, 255).astype(np.uint8)
    for k in range(3):
        status = watcher.feed(table, float(k))
        assert status.phase is Phase.NO_BOARD and status.commit is None
    assert "No board in view" in status.message


# The command (`companion watch`) end to end: tests/test_watch_cli.py.
