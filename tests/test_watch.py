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


def _a_tile_gone(still_frames: int) -> tuple[tuple[int, int], list[WatchStatus]]:
    """A board filmed unchanged for `still_frames` keyframes while the game holds one tile more than it shows
    (a tile taken off, or never there): that tile's square, and the watcher's statuses."""
    keys = streams.rendered_game("black_tiles", seed=3, moves=1)
    board = keys[1].grid
    st = streams.build_stream([keys[1]] * still_frames, fps=1.0, seed=3, size=SIZE)  # nothing changes on the table
    r, c = next((r, c) for r in range(15) for c in range(15) if board[r][c] == "." and
                any(board[r][k] != "." for k in range(15)))
    rows = [row[:c] + "E" + row[c + 1:] if i == r else row for i, row in enumerate(board)]
    return (r, c), _watch(Watcher(rows), st.frames)


def test_a_tile_of_the_games_board_gone_asks_and_commits_nothing() -> None:
    square, statuses = _a_tile_gone(2)
    assert not any(s.commit for s in statuses)
    asked = [s for s in statuses if s.phase is Phase.ASKING]
    assert asked, [s.message for s in statuses]
    assert "gone or moved" in (asked[-1].question or "")
    assert square in asked[-1].squares


def test_a_question_stands_on_every_later_frame_that_shows_the_same_doubt() -> None:
    # Asked once the view stayed so for the settle time, the question must stay on the table's screens while
    # nothing changes: the old rule timed the same doubt again from the next frame ("A move is being laid"
    # for the settle time, then the question again, which the referee's tab took for a new question).
    _, statuses = _a_tile_gone(3)
    first = next(i for i, s in enumerate(statuses) if s.phase is Phase.ASKING)
    after = statuses[first:]
    assert len(after) >= 3, [s.message for s in statuses]
    assert {(s.phase, s.question, s.squares) for s in after} == {(Phase.ASKING, after[0].question, after[0].squares)}


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


# ----- faults that used to need a tap (issue #22: 0 taps for an ordinary move)
def _grid_point(corners: list[list[float]], r: float, c: float) -> tuple[float, float]:
    """Frame pixel of the point (row r, column c) of the grid, in squares from its top-left corner."""
    import cv2

    unit = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]])
    h = cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32))
    x, y = cv2.perspectiveTransform(np.float32([[[c, r]]]), h)[0, 0]
    return float(x), float(y)


def _commit_times(keys: list[streams.Keyframe], st: streams.Stream, faulted_from: float = 0.0
                  ) -> list[tuple[float, list[Any], int | None]]:
    """When each move is committed: the frames from `faulted_from` on (the move the fault comes with, and after)
    may raise no question. A question before it, on a move with no fault, is answered with the true board, as
    the referee would: whether the reader is sure of a clean move's letter moves with the letter network's
    training (the first move's N on E8 of cream_blue_letters seed 2 at 960x720: committed at 0.92 with the
    models shipped before issue 27's last retraining, asked with the retrained ones, whose nearest stored
    example to it is an R), and these tests are about the fault."""
    watcher = Watcher(keys[0].grid)
    out = []
    for t, frame in st.frames:
        status = watcher.feed(frame, t)
        if status.commit is not None:
            out.append((status.t, _tiles(status.commit), status.commit.score))
            watcher.set_board(watcher.board)
        elif status.phase is Phase.ASKING:
            assert t < faulted_from, status.question
            out.append((status.t, _truth(keys)[len(out)][0], None))
            watcher.set_board(keys[len(out)].grid)
    return out


def test_a_reflection_over_the_boards_edge_is_no_hand_and_the_move_is_committed_in_time() -> None:
    # A lamp's reflection comes with the second move's hand, over the board's right edge, and stays. It
    # used to be taken for an arm reaching in until it had lain still for the settle time: the move was
    # proposed 5 s after it was laid and not committed by the time the next player reached in (a tap).
    keys = streams.rendered_game("cream_blue_letters", seed=2, moves=2)
    st = streams.build_stream(keys, fps=1.0, seed=2, size=SIZE)
    second = st.moves[1]
    first_hand = st.moves[0].end + 1.0
    spot = _grid_point(st.corners, 2.5, 14.6)  # over the top right of the grid and the edge beside it
    square = float(np.linalg.norm(np.subtract(st.corners[1], st.corners[0]))) / 15
    frames = [(t, streams.glare(img, spot, 1.4 * square) if t >= first_hand else img) for t, img in st.frames]
    commits = _commit_times(keys, streams.Stream(frames, st.moves, st.fps, st.corners), faulted_from=first_hand)
    assert [tiles for _, tiles, _ in commits] == [tiles for tiles, _ in _truth(keys)]
    assert (commits[1][1], commits[1][2]) == _truth(keys)[1]  # the move under the reflection: committed and scored
    assert commits[1][0] <= second.laid + 4.0 + 1.0  # proposed when laid, committed after the settle time


def _exposed(image: Any, gain: tuple[float, float, float]) -> Any:
    """The frame's scene taken with more or less light per channel (B, G, R), clipped as a camera clips."""
    return np.clip(image.astype(np.float32) * np.float32(gain), 0, 255).astype(np.uint8)


def test_a_lighting_change_on_a_board_the_camera_clips_is_no_change() -> None:
    # cava's white squares read blue 254 in the photos: clipped. Rendered cream tiles with red pushed a
    # quarter up clip likewise (the tile's body, not its letter). The light then turns warmer: the clipped
    # squares stay 255 while the others rise 12%; the gain fitted to all of them left 20 squares "changed".
    keys = streams.rendered_game("cream_blue_letters", seed=2, moves=3)
    from vision.looks import differing, look_of

    corners = np.asarray(keys[-1].corners, np.float32)
    then = look_of(_exposed(keys[-1].image, (1.0, 1.0, 1.25)), corners)
    now = look_of(_exposed(keys[-1].image, (0.9, 0.95, 1.4)), corners)
    assert not differing(now, then, WatchConfig()).any()
    # ... while a tile put down under that light still differs
    later = look_of(_exposed(keys[-1].image, (0.9, 0.95, 1.4)), corners)
    before = look_of(_exposed(keys[-2].image, (1.0, 1.0, 1.25)), corners)
    new = {(r + 1, c + 1) for r in range(15) for c in range(15) if keys[-2].grid[r][c] == "." != keys[-1].grid[r][c]}
    found = differing(later, before, WatchConfig())
    assert new and all(found[sq] for sq in new)


# ----- the ask policy (WatchConfig.sure_new_tile, ask_contradicted)
def _move_with(style: str, seed: int, square: tuple[int, int], letter: str) -> list[streams.Keyframe]:
    keys = streams.rendered_game(style, seed=seed, moves=6)
    r, c = square
    k = next(k for k in range(1, len(keys)) if keys[k - 1].grid[r][c] == "." and keys[k].grid[r][c] == letter)
    return [keys[k - 1], keys[k]]


def test_a_new_tile_whose_point_number_reads_another_value_asks_and_is_not_committed() -> None:
    # The reader reads E5 as Q (right) at 0.95, but the tile's point number reads another value: evidence
    # outside the letter network against the letter. The rule before the ask policy committed it.
    keys = _move_with("cream_blue_letters", 1, (4, 4), "Q")
    st = streams.build_stream(keys, fps=1.0, seed=1)  # 2 MP: at the tests' small size F5 G is not seen
    statuses = _watch(Watcher(keys[0].grid), st.frames)
    assert not any(s.commit for s in statuses)
    asked = [s for s in statuses if s.phase is Phase.ASKING]
    assert asked and (4, 4) in asked[-1].squares
    assert "not sure of the letter" in (asked[-1].question or "") and "E5 (read Q)" in (asked[-1].question or "")
    # the old rule (the reader's own doubt only) commits it
    lenient = WatchConfig(sure_new_tile=0.0, ask_contradicted=False)
    commits = [s.commit for s in _watch(Watcher(keys[0].grid, lenient), st.frames) if s.commit is not None]
    assert [(_tiles(c), c.score) for c in commits] == _truth(keys)


def test_a_tile_missed_with_the_corners_before_a_bump_finds_the_grid_again_and_never_commits_part_of_a_move() -> None:
    # The camera is knocked at each move from the second on. Read with the grid's corners from before the
    # knock, the third move's last tile (a black Y) was read empty while the look showed it: the move
    # without it was committed (a partial play). A change the reading has no tile for finds the grid again.
    keys = streams.rendered_game("black_tiles", seed=2, moves=6)[:4]
    st = streams.build_stream(keys, fps=1.0, fault="bump", seed=2, jpeg_quality=90)  # 2 MP, as the benchmark
    statuses = _watch(Watcher(keys[0].grid), st.frames)
    commits = [s.commit for s in statuses if s.commit is not None]
    truth = _truth(keys)
    assert [(_tiles(c), c.score) for c in commits] == truth, [s.question for s in statuses if s.question]
