"""`companion watch VIDEO|FOLDER`: watch mode on a recorded stream, the same code path as the app.

Reads a y4m video (parsed here, `vision.stream.read_y4m`), another video OpenCV can open (mp4...), or a
folder of frames in time order (times from `--fps`, else from the numbers in the file names, else one a
second), and feeds every frame to `vision.watch.Watcher` as the app's watch mode does. Prints each
committed move (frame time, square, word, score, tiles), each question the watcher asks and why, and the
final board. When the stream ends, the time a standing proposal needs to be committed is let pass (the
table would leave the board alone).

With `--game LOG` (a game log as `companion replay` reads it; classic or Monopoly Scrabble) the board
starts as the game's and each move goes through the game's table (`WordTable.check_read` then `play`,
what the app does with a confirmed photo), so Monopoly Scrabble's money, cards and token effects are
printed too. A question stops the watch: it is printed and the command exits with status 1 (the referee
answers on the app's correction screen; nothing here guesses the answer). So does a move the game's
table refuses, or a step the game waits for (a card to draw...). Bad input (no such file, a video or
frame that is not an image, a stream cut off, a video that shows no board) is one sentence on stderr and
exit status 2, with nothing printed as committed.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.cli import CommandError

QUESTION_STATUS = 1


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "watch", help="watch a recorded stream of a board game and print the moves it would commit",
        description="Watch a video (y4m, or mp4 when OpenCV can open it) or a folder of frames of a word "
                    "board game filmed from above, as the app's watch mode does: print each committed move, "
                    "each question and why, and the final board.")
    parser.add_argument("source", type=Path, metavar="VIDEO|FOLDER", help="a .y4m/.mp4 video or a folder of frames")
    parser.add_argument("--game", type=Path, metavar="LOG",
                        help="the game log the stream continues (classic or monopoly): the board starts as the "
                             "game's and moves go through its table (money and token effects printed)")
    parser.add_argument("--tiles", default="en", metavar="en|ro|FILE", help="tile set without --game (default en)")
    parser.add_argument("--settle", type=float, default=None, metavar="S",
                        help="seconds of a still board with no hand before a move is committed")
    parser.add_argument("--fps", type=float, default=None, metavar="F",
                        help="frames per second of a folder of frames (default: times in the file names)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(func=run)


def _frames(source: Path, fps: float | None) -> Iterator[tuple[float, Any]]:
    """(t, BGR frame) in time order; `CommandError` with one sentence for anything unreadable."""
    import cv2

    from vision.decode import decode_image
    from vision.errors import NotAnImage
    from vision.stream import StreamError, folder_frames, read_y4m

    if source.is_dir():
        listed = folder_frames(source, fps)
        if not listed:
            raise CommandError(f"{source} holds no frames (.jpg, .jpeg, .png, .webp, .bmp): give a folder of "
                               "frames or a video")
        for t, path in listed:
            try:
                yield t, decode_image(path)
            except NotAnImage:
                raise CommandError(f"the frame {path.name} is not an image: remove it or replace it with the "
                                   "camera's frame") from None
        return
    try:
        with open(source, "rb") as f:
            head = f.read(10)
    except OSError as exc:
        raise CommandError(f"cannot open {source}: {exc.strerror or exc}") from None
    # A file named .y4m is read by our own parser, whose refusal is one sentence (OpenCV's ffmpeg would
    # first print its own complaint about the magic number on stderr).
    if head.startswith(b"YUV4MPEG2") or source.suffix.lower() == ".y4m":
        try:
            yield from read_y4m(source)
        except StreamError as exc:
            raise CommandError(str(exc)) from None
        return
    capture = cv2.VideoCapture(str(source))
    try:
        if not capture.isOpened():
            raise CommandError(f"{source} is not a video this command can read: give a y4m video, an mp4 "
                               "OpenCV can open, or a folder of frames")
        rate = capture.get(cv2.CAP_PROP_FPS) or 0.0
        k = 0
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            yield (k / rate if rate > 0 else float(k)), frame
            k += 1
        if k == 0:
            raise CommandError(f"{source} has no frames OpenCV can decode: give a y4m video or a folder of "
                               "frames")
    finally:
        capture.release()


def _table(log: Path) -> Any:
    """The game's table rebuilt from its log (the app's own `rebuild`), word-board games only."""
    import importlib

    from companion.commands.replay import replay_text
    from companion.events import load_events
    from companion.games import GAMES
    from companion.ui.word_table import WordTable

    try:
        text = log.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{log} does not exist: give a game log file") from None
    except (IsADirectoryError, UnicodeDecodeError):
        raise CommandError(f"{log} is not a JSON game log") from None
    variant, _state = replay_text(text)  # the same checks and sentences as `companion replay`
    spec = GAMES.get(variant)
    module_name = (spec.ui or "").split(":")[0].rsplit(".", 1)[0] + ".table"
    _, events = load_events(text, spec.adapter, variant)
    table = importlib.import_module(module_name).rebuild("watch", {}, events)
    if not isinstance(table, WordTable):
        raise CommandError(f"the game log is a {spec.label} game: watching reads word boards (classic or "
                           "Monopoly Scrabble)")
    return table


def run(args: argparse.Namespace) -> int:
    from companion.rules.errors import RulesDataError
    from companion.rules.tiles import load_tileset
    from vision.errors import VisionError
    from vision.watch import Phase, WatchConfig, Watcher, describe, merged_rows

    if not args.source.exists():
        raise CommandError(f"no file or folder at {args.source}: give a y4m or mp4 video or a folder of frames")
    if args.settle is not None and not 0 < args.settle <= 600:
        raise CommandError("--settle must be a number of seconds above 0 (at most 600)")
    if args.fps is not None and not 0 < args.fps <= 240:
        raise CommandError("--fps must be a frame rate above 0 (at most 240)")
    table = _table(args.game) if args.game is not None else None
    tiles = table.tileset_name if table is not None else args.tiles
    try:
        load_tileset(tiles)
    except RulesDataError as exc:
        raise CommandError(str(exc)) from None
    board = table.board.rows() if table is not None else ["." * 15] * 15
    config = WatchConfig(tiles=tiles, **({"settle_seconds": args.settle} if args.settle is not None else {}))
    watcher = Watcher(board, config)
    moves: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    stopped = ""
    saw_board = False
    last_t = 0.0
    frames = 0

    def record(status: Any) -> str:
        """Apply a committed move; returns why the watch stops ("" to go on)."""
        reading = status.commit
        rows = merged_rows(watcher.board if table is None else table.board.rows(), reading)
        move: dict[str, Any] = {
            "t": round(status.t, 3), "move": describe(reading), "score": reading.score,
            "square": (reading.words or [None])[0].position if reading.words else None,
            "word": (reading.words or [None])[0].word if reading.words else None,
            "words": [w.word for w in reading.words or []],
            "tiles": [f"{tile.square} {tile.letter}" for tile in reading.new_tiles or []],
        }
        moves.append(move)
        if table is None:
            watcher.set_board(rows)
            return ""
        from companion.ui.table import TableError

        player = table.current_player
        check, _warnings = table.check_read(rows)
        move["player"] = player
        if not check.ok:
            move["refused"] = check.error
            return f"the game's table refused the move: {check.error}"
        try:
            table.play(check.position, check.word)
        except TableError as exc:
            move["refused"] = str(exc)
            return f"the game's table refused the move: {exc}"
        move["score"] = check.total  # the game's own score (Monopoly Scrabble scores its own way)
        word = check.words[0][0] if check.words else check.word  # the main word, tiles played through included
        move["move"] = f"{word} {check.position} {check.total}"
        move["effects"] = list(check.effects)
        watcher.set_board(table.board.rows())
        if table.turn_stage() != "word":
            return f"the game waits for the referee: {table.turn_stage()}"
        return ""

    try:
        for t, frame in _frames(args.source, args.fps):
            frames += 1
            last_t = t
            status = watcher.feed(frame, t)
            saw_board = saw_board or status.phase is not Phase.NO_BOARD
            if status.commit is not None:
                stopped = record(status)
            if not stopped and status.phase is Phase.ASKING:
                questions.append({"t": round(t, 3), "question": status.question,
                                  "squares": [f"{chr(65 + c)}{r + 1}" for r, c in status.squares]})
                stopped = "a question for the referee"
            if stopped:
                break
        if not stopped and frames:
            status = watcher.tick(last_t + config.settle_seconds)  # the board left alone after the stream
            if status.commit is not None:
                stopped = record(status)
            elif status.phase is Phase.ASKING:
                questions.append({"t": round(status.t, 3), "question": status.question,
                                  "squares": [f"{chr(65 + c)}{r + 1}" for r, c in status.squares]})
                stopped = "a question for the referee"
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    if frames == 0:
        raise CommandError(f"{args.source} holds no frames: give a video or a folder of frames of the board")
    if not saw_board:
        raise CommandError(f"no board was found in any of the {frames} frames of {args.source}: film the whole "
                           "board from above")
    final = table.board.rows() if table is not None else watcher.board
    out: dict[str, Any] = {"frames": frames, "moves": moves, "questions": questions, "stopped": stopped or None,
                           "board": final}
    if table is not None:
        from companion.games import GAMES

        spec = GAMES.get(table.kind)
        out["summary"] = spec.summary(table.engine.state)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{frames} frames watched")
        for m in moves:
            who = f" {m['player']}:" if m.get("player") else ""
            print(f"t={m['t']:.1f} s{who} {m['move']} ({', '.join(m['tiles'])})")
            for effect in m.get("effects", []):
                print(f"    {effect}")
            if m.get("refused"):
                print(f"    refused: {m['refused']}")
        for q in questions:
            print(f"t={q['t']:.1f} s asks: {q['question']} (squares {', '.join(q['squares']) or '-'})")
        if stopped:
            print(f"stopped: {stopped}")
        print("final board:")
        for row in final:
            print("  " + row)
        if table is not None:
            print(GAMES.get(table.kind).format_summary(out["summary"]))
    return QUESTION_STATUS if stopped else 0
