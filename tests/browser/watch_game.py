"""A whole watched game for the watch-mode tests: its moves, and the camera stream a phone standing over
the table would film of it (rendered board, no photos needed, so it runs in a clone with no ../shared).

The stream is made with the core's `vision.stream` (its camera, hands, tile pasting and y4m writer) on a
board drawn by `vision.synth` for exactly this game's tiles. Besides laying moves (tiles one or two at a
time, the hand lifted between them) it shows a play being taken back after a challenge: the hand reaches
in and lifts the withdrawn tiles, which `vision.stream.build_stream` (moves only add tiles) cannot show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# Monopoly Scrabble, Ann and Bob (Ann the Banker). Every step was checked with the game's engine: no
# step of the turn (card, jail, bingo) stops it, so the referee taps nothing but Watch and the challenge.
# Ann's XOL is not a word: Bob challenges it, the play is withdrawn and the table lifts its two tiles.
# Ann's HOE passes GO: the Bank pays her M2,000.
MOVES: list[tuple[str, str] | str] = [("8D", "HOTEL"), ("E7", "NOT"), ("H6", "XOL"), "CHALLENGE", ("10D", "HEN"),
                                      ("9G", "HOE")]
PLAYERS = ("Ann", "Bob")


@dataclass
class Segment:
    """What the stream shows for one step: the squares that change, and when."""

    step: str  # "lay" or "lift"
    squares: list[tuple[int, int]]
    last_hand: float = 0.0  # the time of the last frame with a hand over the board
    end: float = 0.0


@dataclass
class GameStream:
    frames: list[tuple[float, Any]]
    fps: float
    segments: list[Segment] = field(default_factory=list)


def play_in_process(moves: list[tuple[str, str] | str] = MOVES) -> tuple[Any, list[list[str]]]:
    """The game played straight into the engine (what the watched game must end as), and the board's
    rows after each step (the challenge's step: the board with the play taken back)."""
    from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
    from companion.ui.table import PlayerInfo

    game = new_monopoly_scrabble([PlayerInfo(PLAYERS[0], "red"), PlayerInfo(PLAYERS[1], "blue")], PLAYERS[0])
    boards = [game.board.rows()]
    for move in moves:
        if move == "CHALLENGE":
            last = game.last_play_words()
            assert last is not None
            game.challenge(PLAYERS[1 - PLAYERS.index(last[0])])
        else:
            position, word = move
            game.play(position, word)
        assert not game.mstate.pending, f"{move} leaves a step to tap: {game.mstate.pending}"
        boards.append(game.board.rows())
    return game, boards


def build(boards: list[list[str]], fps: float = 2.0, size: tuple[int, int] = (640, 480), seed: int = 3,
          style: str = "cream_blue_letters", hold: float = 7.5, final_hold: float = 30.0,
          hold_before_lift: float = 20.0) -> GameStream:
    """The stream of a game whose board goes through `boards` (each step adds a move's tiles or lifts a
    withdrawn play's). A move is held still for `hold` s (the watcher commits after its settle time); the
    withdrawn play for `hold_before_lift` s (the referee challenges meanwhile, after answering a question about
    one of its letters when the watcher asks one: room for the question, its answer, the challenge window and
    the verdict on a loaded machine, ~10 s, before the hand lifts the tiles); the last board for
    `final_hold` s (Chromium's fake camera loops the file: the test ends before it starts again)."""
    from vision import synth
    from vision.stream import CANVAS_CELL, SKIN, Camera, Keyframe, draw_hand, paste_tile, straighten

    final = ["".join(next((b[r][c] for b in boards if b[r][c] not in ".#"), ".") for c in range(15))
             for r in range(15)]
    cell = CANVAS_CELL
    st = synth.STYLES[style]
    full, g0, _ = synth._flat_board(st, final, np.random.default_rng([seed, 7]), cell)
    empty, _, _ = synth._flat_board(st, ["." * 15] * 15, np.random.default_rng([seed, 7]), cell)
    g1 = g0 + 15 * cell
    corners = [[g0, g0], [g1, g0], [g1, g1], [g0, g1]]
    full_canvas = straighten(Keyframe(full, corners, final))
    empty_canvas = straighten(Keyframe(empty, corners, ["." * 15] * 15))
    canvas = empty_canvas.copy()
    rng = np.random.default_rng(seed)
    cam = Camera(canvas.shape[0], size, rng)
    noise = [np.clip(rng.normal(0, 2.0, (size[1], size[0], 3)), -30, 30).astype(np.int16) for _ in range(3)]
    out = GameStream([], fps)
    t = 0.0

    def shoot(hand: tuple[float, float] | None = None, who: int = 0) -> None:
        nonlocal t
        img = cam.frame(canvas)
        if hand is not None:
            img = draw_hand(img, cam.square_xy(*hand), "bottom", cam.square_px(), SKIN[who % len(SKIN)], 1.0,
                            seed * 1000 + len(out.frames))
        img = np.clip(img.astype(np.int16) + noise[len(out.frames) % 3], 0, 255).astype(np.uint8)
        out.frames.append((round(t, 3), img))
        t += 1.0 / fps

    def still(seconds: float) -> None:
        for _ in range(max(1, round(seconds * fps))):
            shoot()

    still(3.0)
    for i in range(1, len(boards)):
        before, after = boards[i - 1], boards[i]
        added = [(r, c) for r in range(15) for c in range(15) if before[r][c] in ".#" and after[r][c] not in ".#"]
        lifted = [(r, c) for r in range(15) for c in range(15) if before[r][c] not in ".#" and after[r][c] in ".#"]
        seg = Segment("lay" if added else "lift", added or lifted)
        source = full_canvas if added else empty_canvas
        squares = list(seg.squares)
        groups = []
        while squares:  # one or two tiles at a time, the hand lifted off the board between them
            k = 1 if len(squares) == 1 or rng.random() < 0.5 else 2
            groups.append(squares[:k])
            squares = squares[k:]
        for g, group in enumerate(groups):
            r0, c0 = group[0]
            shoot((r0 + 2.5, c0 + 1.0), i)
            shoot((r0 + 0.8, c0 + 0.3), i)
            for r, c in group:
                paste_tile(canvas, source, r, c)
            shoot((r0 + 0.4, c0 + 0.2), i)
            seg.last_hand = out.frames[-1][0]
            if g < len(groups) - 1:
                still(float(rng.uniform(0.5, 2.0)))
        last = i == len(boards) - 1
        lift_next = i + 1 < len(boards) and any(
            boards[i][r][c] not in ".#" and boards[i + 1][r][c] in ".#" for r in range(15) for c in range(15))
        still(final_hold if last else hold_before_lift if lift_next else hold)
        seg.end = out.frames[-1][0]
        out.segments.append(seg)
    return out


def write(stream: GameStream, path: Path) -> Path:
    from vision.stream import write_y4m

    write_y4m(path, stream.frames, stream.fps)
    return path
