"""The app's side of watch mode (issue #22) without a browser: the table's `TableWatch` fed a camera
stream frame by frame, as the referee's tab feeds it, with the real watcher (`vision.watch`), a real
classic Scrabble table in the hub and the referee's `AppState` recording the commits.

- every move of a rendered game is recorded, each as one play through the confirmed-photo path, and
  undo takes the last one back like any play;
- one read at a time per table: a frame offered while a read runs is dropped, never queued;
- a frame that is not an image, and the blank pictures of a stopped stream: one sentence, nothing read,
  the game unchanged.
"""

from __future__ import annotations

import asyncio
from typing import Any

import cv2
import numpy as np
import pytest

from companion.games.classic.table import new_classic
from companion.ui.hub import HUB
from companion.ui.models import AppState
from companion.ui.table import PlayerInfo
from companion.ui.watching import STOPPED


def referee_at_new_table(key: str) -> tuple[Any, AppState]:
    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
    HUB.add(game, referee=key)
    app = AppState(screen="turn", role="referee", table=game.id, session_key=key)
    app.look()
    return game, app


def jpeg(image: np.ndarray) -> bytes:
    return bytes(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1])


@pytest.fixture(scope="module")
def rendered_stream() -> Any:
    from vision.stream import build_stream, rendered_game

    keys = rendered_game("cream_blue_letters", seed=5, moves=3)
    return keys, build_stream(keys, fps=1.0, seed=5, size=(960, 720))


def test_every_move_of_a_watched_stream_is_recorded_once_and_undo_takes_one_back(rendered_stream):
    keys, stream = rendered_stream
    game, app = referee_at_new_table("watch-test-1")
    watch = app.watch()
    notified: list[int] = []

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: notified.append(1)  # the hub's redraw: no tab here to redraw
        for t, frame in stream.frames:
            future = watch.offer(jpeg(frame), False, t)
            assert future is not None
            await future

    asyncio.run(run())
    assert game.board.rows() == [r.replace("#", ".") for r in keys[-1].grid]
    assert len(game.log.events) == 1 + len(keys) - 1  # the start, then one play per move: nothing twice
    assert [t.kind for t in game.engine.state.turns] == ["play"] * (len(keys) - 1)
    assert notified, "the tabs showing the table were told of the watch state"
    assert watch.view.proposal is None and watch.view.question == ""
    app.undo()
    assert game.board.rows() == [r.replace("#", ".") for r in keys[-2].grid]


def test_one_read_at_a_time_per_table_the_frames_between_are_dropped(rendered_stream):
    _, stream = rendered_stream
    _, app = referee_at_new_table("watch-test-2")
    watch = app.watch()

    async def run() -> tuple[int, int]:
        app.watch_on()
        watch._notify = lambda: None
        t0, frame = stream.frames[0]
        first = watch.offer(jpeg(frame), False, t0)
        # Offered while the first is being read (the read takes far longer than this loop): all dropped.
        dropped = sum(watch.offer(jpeg(frame), False, t0 + 0.01 * k) is None for k in range(1, 6))
        assert first is not None
        await first
        later = watch.offer(jpeg(frame), False, t0 + 1.0)
        assert later is not None
        await later
        return dropped, len(watch._rates.read)

    dropped, read = asyncio.run(run())
    assert dropped == 5 and read == 2


@pytest.mark.parametrize("picture, sentence", [
    (b"this is not a picture", "The camera sent a picture that is not an image"),
    (jpeg(np.zeros((480, 640, 3), np.uint8)), STOPPED),  # what the web camera hands back once its stream stopped
])
def test_a_frame_that_is_no_picture_of_anything_is_one_sentence_and_changes_nothing(picture, sentence):
    game, app = referee_at_new_table("watch-test-3")
    watch = app.watch()

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: None
        future = watch.offer(picture, False, 1.0)
        assert future is not None
        await future

    asyncio.run(run())
    assert watch.view.problem.startswith(sentence)
    assert watch.view.proposal is None
    assert len(game.log.events) == 1 and game.current_player == "Ann"


def test_the_players_clock_tap_ends_the_move_at_once(rendered_stream):
    """With clocks the move's boundary is the player's tap (`Watcher.boundary`), not the countdown: with a
    settle time far longer than the stream waits, the move is recorded at the tap, and only then."""
    _, stream = rendered_stream
    game, app = referee_at_new_table("watch-test-4")
    watch = app.watch()
    app.form.settle = "30"
    app.set_watch_settle()
    assert watch.settle() == 30.0

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: None
        frames = iter(stream.frames)
        for t, frame in frames:  # up to the first move's last tile, and a second more: the player is done
            await watch.offer(jpeg(frame), False, t)
            if t >= stream.moves[0].laid + 1.0:
                break
        assert watch.view.phase == "move seen"
        assert len(game.log.events) == 1, "nothing is recorded before the boundary"
        t, frame = next(frames)
        await watch.boundary(jpeg(frame), False, t)

    asyncio.run(run())
    assert [t.kind for t in game.engine.state.turns] == ["play"]
    assert game.current_player == "Bob"


@pytest.mark.parametrize("typed", ["soon", "0.2", "45", "nan"])
def test_a_settle_time_out_of_range_is_one_sentence_and_keeps_the_setting(typed):
    _, app = referee_at_new_table("watch-test-5")
    watch = app.watch()
    before = watch.settle()
    app.form.settle = typed
    app.set_watch_settle()
    assert app.error.startswith("The settle time must be from 1 to 30 seconds") or app.error.startswith(
        "Type the settle time in seconds")
    assert watch.settle() == before


def test_a_question_opens_the_correction_screen_and_the_referees_answer_is_the_play():
    """When the watcher asks about a move it has read (`WatchView.question` with its rows), the referee's
    tab gets the reading on the photo-correction screen with the squares ringed, once per question; the
    corrected, confirmed reading is recorded as a play and the watcher is told the new board."""
    from companion.ui.watching import WatchView

    game, app = referee_at_new_table("watch-test-6")
    watch = app.watch()
    rows = ["." * 15] * 15
    rows[7] = "...HOTEV......."  # the watcher's reading: V where the tile is an L (H8)
    question = WatchView(on=True, phase="asking the referee", question="The reader is unsure of H8.",
                         squares=((7, 7),), question_seq=1, proposal_rows=tuple(rows))

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: None
        app.load_watch_question(question)
        assert app.read_rows == tuple(rows) and app.read_doubts == ("The reader is unsure of H8.",)
        assert app.read_conf is not None and app.read_conf[7][7] == 0.0  # ringed as unsure on the board
        app.clear_draft()
        app.load_watch_question(question)  # the same question again (the next frame): not loaded twice
        assert app.read_rows is None
        app.load_watch_question(WatchView(**{**question.__dict__, "question_seq": 2}))
        app.select(7, 7)
        app.correct("L")
        app.accept_doubtful_read()
        app.confirm_read()
        assert app.info == "Ann played HOTEL at 8D: 24 points."
        watch._sync_board()  # what the next frame's read does first
        assert watch._watcher.board == game.board.rows()

    asyncio.run(run())
    assert [t.kind for t in game.engine.state.turns] == ["play"]


def test_the_settle_seconds_are_kept_with_the_game_and_survive_a_restart(tmp_path, monkeypatch):
    """The settle seconds are a table setting the referee changes during the game: saved in the game's
    stored settings (a real SQLite file), not as an event (no score changes, no undo takes them back); an
    app started again on the same file (a new `GameStore`, which reads it from disk) watches with them."""
    from companion.ui.persist import GameStore
    from companion.ui.watching import TableWatch

    monkeypatch.setattr(HUB, "store", GameStore(tmp_path))
    game, app = referee_at_new_table("watch-test-7")  # saved at once: the game's row is created here
    default = TableWatch(game).default_settle()
    for typed, expected in (("12", 12.0), ("7,5", 7.5)):  # changed twice after the game was first saved
        app.form.settle = typed
        app.set_watch_settle()
        assert app.error == "" and app.info == f"A still board with new tiles is confirmed after {expected:g} s."
        resumed, notes = GameStore(tmp_path).resume_all()  # the restart: the file read afresh
        assert [g.id for g in resumed] == [game.id], notes
        assert resumed[0].watch().settle() == expected != default
        assert len(resumed[0].log.events) == 1  # the start only: the setting is no event
    # A game whose settle was never set keeps the core's default after a restart.
    monkeypatch.setattr(HUB, "store", GameStore(tmp_path / "other"))
    (tmp_path / "other").mkdir()
    referee_at_new_table("watch-test-8")
    assert GameStore(tmp_path / "other").resume_all()[0][0].watch().settle() == default


def test_a_move_taken_back_right_after_its_commit_is_lifted_not_recorded_again(rendered_stream):
    """The referee challenges (or undoes) a watched move the moment it is recorded, before the camera's
    next picture is read: the tiles still on the table are the withdrawn play, to be lifted, never the
    next player's move (a browser run recorded Ann's withdrawn XOL again as Bob's play)."""
    _, stream = rendered_stream
    game, app = referee_at_new_table("watch-test-9")
    watch = app.watch()
    first = stream.moves[0]

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: None
        frames = iter(stream.frames)
        for t, frame in frames:  # up to the frame whose read records the first move
            await watch.offer(jpeg(frame), False, t)
            if len(game.log.events) == 2:
                break
        app.undo()  # taken back before the next picture is read
        assert game.current_player == "Ann" and not any(ch.isalpha() for row in game.board.rows() for ch in row)
        for t, frame in frames:  # the tiles stay on the table until the move's last frame
            if t > first.end:
                break
            await watch.offer(jpeg(frame), False, t)

    asyncio.run(run())
    assert watch.view.phase == "waiting for the withdrawn tiles to be lifted", watch.view.message
    assert [t.kind for t in game.engine.state.turns] == []
    assert game.current_player == "Ann"


def test_a_play_confirmed_on_a_question_then_taken_back_is_lifted_not_asked_again(rendered_stream):
    """The watcher asked about a move; the referee confirmed it on the correction screen (so the watcher never
    committed it itself) and took it back at once (a challenge in the window, or undo), before the camera's
    next picture was read: its tiles still on the table are to be lifted, not a new move (stop 33's CI: the
    browser test's XOL, asked about its X, confirmed, challenged off, then asked about again)."""
    from companion.ui.watching import WatchView

    keys, stream = rendered_stream
    game, app = referee_at_new_table("watch-test-10")
    watch = app.watch()
    first = stream.moves[0]
    question = WatchView(on=True, phase="asking the referee", question="The reader is unsure of a letter.",
                         squares=((first.tiles[0][0], first.tiles[0][1]),), question_seq=1,
                         proposal_rows=tuple(keys[1].grid))

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: None
        app.load_watch_question(question)
        app.accept_doubtful_read()
        app.confirm_read()
        assert app.info.startswith("Ann played "), (app.info, app.error)
        app.undo()  # taken back before the next picture is read
        assert not any(ch.isalpha() for row in game.board.rows() for ch in row)
        # what the camera sees from then on: the move laid, its tiles on the table until the move's last frame
        for t, frame in stream.frames:
            if first.laid <= t <= first.end:
                await watch.offer(jpeg(frame), False, t)

    asyncio.run(run())
    assert watch.view.phase == "waiting for the withdrawn tiles to be lifted", watch.view.message
    assert [t.kind for t in game.engine.state.turns] == []
    assert game.current_player == "Ann"


def test_a_question_that_stands_reaches_the_referees_tab_once(rendered_stream):
    """The first move is recorded, then the tiles are gone from the table (swept off): the watcher asks,
    and while the view stays so the question stands on every later frame as the same question (its
    `question_seq` unchanged), so the referee's correction screen is loaded once, not every few seconds,
    with the board as read and the squares asked about ringed."""
    from vision.stream import build_stream

    keys, stream = rendered_stream
    game, app = referee_at_new_table("watch-test-10")
    watch = app.watch()
    swept = build_stream([keys[0], keys[0], keys[0]], fps=1.0, seed=5, size=(960, 720))
    seen: list[tuple[str, str, int]] = []

    async def run() -> None:
        app.watch_on()
        watch._notify = lambda: None
        t_end = 0.0
        for t, frame in stream.frames:  # up to the frame whose read records the first move
            await watch.offer(jpeg(frame), False, t)
            t_end = t
            if len(game.log.events) == 2:
                break
        for t, frame in swept.frames:
            await watch.offer(jpeg(frame), False, t_end + 1.0 + t)
            seen.append((watch.view.phase, watch.view.question, watch.view.question_seq))

    asyncio.run(run())
    asked = [i for i, (phase, _, _) in enumerate(seen) if phase == "asking the referee"]
    assert asked, seen
    after = seen[asked[0]:]
    assert len(after) >= 3 and len(set(after)) == 1, after
    assert "gone or moved" in after[0][1]
    # The question reached the referee's tab as its correction screen, on the board as read (the watcher's
    # question carries the reading that raised it: without it the tab had nothing to correct or accept).
    assert app.read_doubts == (after[0][1],) and app.read_rows is not None
    assert app.read_conf is not None and all(app.read_conf[r][c] == 0.0 for r, c in watch.view.squares)
