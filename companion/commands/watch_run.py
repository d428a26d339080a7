"""The body of `companion watch` (what the command does is told in `companion/commands/watch.py`).

Imported only when the command runs: OpenCV and the reader (`vision.read`, `vision.watch`) cost about 1 s
of start-up that every other subcommand, and `companion --help`, would pay (`python -X importtime`:
`vision.read` ~515 ms, measured for issue #24), so `commands/watch.py` holds the parser and loads this.
"""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import cv2

from companion.cli import CommandError
from companion.commands.replay import replay_text
from companion.commands.watch import QUESTION_STATUS
from companion.events import load_events
from companion.games import GAMES
from companion.rules.board import Board, PlacedTile, Square, Tile, load_layout
from companion.rules.errors import IllegalPlacement, RulesDataError
from companion.rules.placement import validate_placement
from companion.rules.tiles import load_tileset
from companion.ui.table import TableError
from companion.ui.watching import words_fit
from companion.ui.word_table import WordTable
from lexicon.store import LexiconError, default_lexicon_name, load_lexicon
from vision.decode import decode_image
from vision.errors import NotAnImage, VisionError
from vision.read import read_board
from vision.stream import StreamError, folder_frames, read_y4m
from vision.watch import Phase, WatchConfig, Watcher, describe, merged_rows, square_name


def _frames(source: Path, fps: float | None) -> Iterator[tuple[float, Any]]:
    """(t, BGR frame) in time order; `CommandError` with one sentence for anything unreadable."""


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


def _read_text(path: Path, missing: str, unreadable: str) -> str:
    """The file's text; `CommandError(missing)` when there is no such file, `CommandError(unreadable)` when it
    is a folder or not UTF-8 text."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(missing) from None
    except (IsADirectoryError, UnicodeDecodeError):
        raise CommandError(unreadable) from None


def _table(log: Path) -> Any:
    """The game's table rebuilt from its log (the app's own `rebuild`), word-board games only."""
    text = _read_text(log, f"{log} does not exist: give a game log file", f"{log} is not a JSON game log")
    variant, _state = replay_text(text)  # the same checks and sentences as `companion replay`
    spec = GAMES.get(variant)
    rules_module = cast(ModuleType, spec.rules)  # a module, typed by the protocol it meets
    module_name = rules_module.__name__.rsplit(".", 1)[0] + ".table"  # the game folder's table.py
    _, events = load_events(text, spec.adapter, variant)
    table = importlib.import_module(module_name).rebuild("watch", {}, events)
    if not isinstance(table, WordTable):
        raise CommandError(f"the game log is a {spec.label} game: watching reads word boards (classic or "
                           "Monopoly Scrabble)")
    table.lexicon = _log_lexicon(table, events) or table.lexicon
    return table


def _log_lexicon(table: Any, events: list[Any]) -> str:
    """The word list the game's log names ('' when none): a classic game's settings hold it; a Monopoly
    Scrabble log names it only on its challenges (the latest one's list). The app keeps a Monopoly
    Scrabble table's list with the table's settings, which a log file does not carry."""
    settings = getattr(table.engine.state, "settings", None)
    named = str(getattr(settings, "lexicon", "") or "")
    for event in events:
        if getattr(event, "type", "") == "challenge" and getattr(event, "lexicon", ""):
            named = named or str(event.lexicon)
    return named


def _words(choice: str | None, table: Any, tiles: str) -> tuple[Any, str]:
    """The watcher's word list (its membership test, or None) and its name ('' for none): `--words`
    (a name, a file, or `none`), else the game's list with `--game`, else the default list (ENABLE) when
    it fits the tile set (English tiles: `companion.ui.watching.words_fit`, as the app decides), else none."""
    if choice is not None and choice.strip().lower() == "none":
        return None, ""
    if choice is not None:
        try:
            lexicon = load_lexicon(choice)
        except LexiconError as exc:
            raise CommandError(str(exc)) from None
        return lexicon.__contains__, lexicon.name
    name = str(table.lexicon) if table is not None else default_lexicon_name()
    if not words_fit(name, tiles):
        return None, ""
    try:
        lexicon = load_lexicon(name)
    except LexiconError as exc:
        raise CommandError(f"the game's word list {name} cannot be loaded ({exc}): give --words NAME|FILE, "
                           "or --words none") from None
    return lexicon.__contains__, lexicon.name


def _board_file(path: Path) -> list[str]:
    """The starting board from a file of 15 rows; `CommandError` with one sentence when it is not one."""
    what = "give a file of 15 lines of 15 characters ('.' an empty square, a letter a tile, '?' a blank)"
    text = _read_text(path, f"{path} does not exist: {what}", f"{path} is not a text file of board rows: {what}")
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    if len(rows) != 15 or any(len(row) != 15 for row in rows):
        raise CommandError(f"{path} is not a board ({len(rows)} lines): {what}")
    bad = sorted({ch for row in rows for ch in row if not (ch in ".?" or ch.isalpha())})
    if bad:
        raise CommandError(f"{path} holds {' '.join(bad)}, which is no tile: {what}")
    return rows  # a lowercase letter: a blank standing for it (the game board's own notation)


def _tiles_of(reading: Any) -> list[str]:
    return [f"{tile.square} {tile.letter}" for tile in reading.new_tiles or []]


def _not_a_play(reading: Any, rows: list[str], tiles: str) -> str:
    """Why a reading's new tiles are not one legal play on `rows` ('' when they are, blanks and all)."""

    if not reading.new_tiles:
        return "no new tile was read"
    if any("do not form a legal play" in w for w in reading.warnings):
        return "the new tiles, as read, are not one legal play"
    if reading.score is None:
        return "the new tiles, as read, cannot be scored"
    # The reader does not check where the tiles lie when a blank is among them (it asks for the blank's
    # letter first): checked here, any letter standing for the blank (it scores 0 whatever it is).
    placed = [PlacedTile(Square(int(t.square[1:]) - 1, ord(t.square[0]) - 65),
                         Tile("A", blank=True) if t.letter == "?" else Tile(t.letter.upper(), blank=True)
                         if t.letter.islower() else Tile(t.letter)) for t in reading.new_tiles]
    try:
        validate_placement(Board.from_rows(rows), placed, load_layout("standard"), load_tileset(tiles))
    except IllegalPlacement as exc:
        return f"the new tiles, as read, are not one legal play ({exc})"
    return ""


class _Watch:
    """One run of the command: the watcher, the game's table (or None), and what was printed."""

    def __init__(self, args: argparse.Namespace, table: Any, tiles: str, board: list[str]) -> None:

        self.answer: str = args.answer
        self.table = table
        self.tiles = tiles
        extra = {"settle_seconds": args.settle} if args.settle is not None else {}
        self.config = WatchConfig(tiles=tiles, **extra)
        words, self.words_name = _words(args.words, table, tiles)
        self.watcher = Watcher(board, self.config, words=words)
        self.events: list[dict[str, Any]] = []  # moves and questions in time order
        self.stopped = ""
        self.repeats = 0
        self._last_question: tuple[Any, ...] | None = None

    # ----- a move
    def _move(self, t: float, reading: Any, by: str) -> dict[str, Any]:

        main = (reading.words or [None])[0]
        return {"type": "move", "t": round(t, 3), "by": by, "move": describe(reading), "score": reading.score,
                "square": main.position if main else None, "word": main.word if main else None,
                "words": [w.word for w in reading.words or []], "tiles": _tiles_of(reading)}

    def _play(self, move: dict[str, Any], reading: Any) -> str:
        """Record a play (the watcher's commit or an answer); returns why the watch stops ('' to go on)."""

        rows = merged_rows(self.watcher.board, reading)
        table = self.table
        if table is None:
            self.watcher.set_board(rows)
            return ""

        move["player"] = table.current_player
        check, _warnings = table.check_read(rows)
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
        self.watcher.set_board(table.board.rows())
        if table.turn_stage() != "word":
            return f"the game waits for the referee: {table.turn_stage()}"
        return ""

    def committed(self, status: Any) -> None:
        move = self._move(status.t, status.commit, "watcher")
        self.events.append(move)
        self.stopped = self._play(move, status.commit)

    # ----- a question
    def asked(self, status: Any, frame: Any) -> None:

        key = (status.question, tuple(status.squares), tuple(self.watcher.board))
        question: dict[str, Any] = {"type": "question", "t": round(status.t, 3), "question": status.question,
                                    "squares": [square_name(sq) for sq in status.squares]}
        if self.answer == "stop":
            question["answer"] = "none: --answer stop"
            self.events.append(question)
            self.stopped = "a question for the referee (--answer stop)"
            return
        reading = None
        why = ""
        try:
            # What the referee's correction screen shows: the frame read against the game's board.
            reading = read_board(frame, corners=self.watcher.corners, previous=self.watcher.board,
                                 tiles=self.tiles, upright=False)
        except (VisionError, ValueError) as exc:
            why = f"the frame could not be read ({exc})"
        why = why or (_not_a_play(reading, self.watcher.board, self.tiles) if self.answer == "read"
                      else "--answer skip")
        repeated = key == self._last_question
        self._last_question = key
        if not repeated:
            self.events.append(question)
        else:
            self.repeats += 1
        if not why:
            move = self._move(status.t, reading, "answer")
            question["answer"] = f"the reading: {move['move']}"
            self.events.append(move)
            self.stopped = self._play(move, reading)
            return
        tiles = _tiles_of(reading) if reading is not None else []
        question["answer"] = f"none ({why})"
        question["unscored"] = tiles
        if self.table is not None:
            # A game's record cannot take tiles without their play: the referee must answer.
            self.stopped = f"a question the reading does not answer with a legal play ({why})"
            return
        # The tiles are on the table whatever they are: the watch goes on against them, unscored.
        self.watcher.set_board(merged_rows(self.watcher.board, reading) if reading is not None else self.watcher.board)

    def status(self, status: Any, frame: Any) -> None:

        if status.commit is not None:
            self.committed(status)
        if not self.stopped and status.phase is Phase.ASKING and frame is not None:
            self.asked(status, frame)


def _print_text(out: dict[str, Any], events: list[dict[str, Any]], table: Any) -> None:

    print(f"{out['frames']} frames watched, word list: "
          f"{out['words'] or 'none (an unsure letter is always asked about)'}")
    for e in events:
        if e["type"] == "move":
            who = f" {e['player']}:" if e.get("player") else ""
            by = {"watcher": "", "answer": " [the question's answer: the reading]"}[e["by"]]
            print(f"t={e['t']:.1f} s{who} {e['move']} ({', '.join(e['tiles'])}){by}")
            for effect in e.get("effects", []):
                print(f"    {effect}")
            if e.get("refused"):
                print(f"    refused: {e['refused']}")
        else:
            print(f"t={e['t']:.1f} s asks: {e['question']} (squares {', '.join(e['squares']) or '-'})")
            if e.get("unscored"):
                print(f"    answer: {e['answer']}; tiles taken onto the board as read, unscored: "
                      f"{', '.join(e['unscored'])}")
            elif not e["answer"].startswith("the reading"):
                print(f"    answer: {e['answer']}")
    if out["stopped"]:
        print(f"stopped: {out['stopped']}")
    def count(n: int, what: str) -> str:
        return f"{n} {what}{'' if n == 1 else 's'}"

    print(f"{count(out['committed'], 'move')} committed by the watcher, {count(out['questions'], 'question')} "
          f"({out['answered']} answered by the reading)"
          + (f", {out['repeats']} asked again about the same board (not printed)" if out["repeats"] else ""))
    print("final board:")
    for row in out["board"]:
        print("  " + row)
    if table is not None:
        print(GAMES.get(table.kind).format_summary(out["summary"]))


def run(args: argparse.Namespace) -> int:

    if not args.source.exists():
        raise CommandError(f"no file or folder at {args.source}: give a y4m or mp4 video or a folder of frames")
    if args.settle is not None and not 0 < args.settle <= 600:
        raise CommandError("--settle must be a number of seconds above 0 (at most 600)")
    if args.fps is not None and not 0 < args.fps <= 240:
        raise CommandError("--fps must be a frame rate above 0 (at most 240)")
    if args.game is not None and args.board is not None:
        raise CommandError("give --game or --board, not both: with --game the stream starts on the game's board")
    table = _table(args.game) if args.game is not None else None
    tiles = table.tileset_name if table is not None else args.tiles
    try:
        load_tileset(tiles)
    except RulesDataError as exc:
        raise CommandError(str(exc)) from None
    if table is not None:
        board = table.board.rows()
    elif args.board is not None:
        board = _board_file(args.board)
    else:
        board = ["." * 15] * 15
    watch = _Watch(args, table, tiles, board)
    saw_board = False
    last: tuple[float, Any] | None = None
    frames = 0
    try:

        for t, frame in _frames(args.source, args.fps):
            frames += 1
            last = (t, frame)
            status = watch.watcher.feed(frame, t)
            saw_board = saw_board or status.phase is not Phase.NO_BOARD
            watch.status(status, frame)
            if watch.stopped:
                break
        if not watch.stopped and last is not None:
            # The board left alone after the stream: a standing proposal's countdown (or a doubt's wait) runs out.
            watch.status(watch.watcher.tick(last[0] + watch.config.settle_seconds), last[1])
    except VisionError as exc:
        raise CommandError(str(exc)) from None
    if frames == 0:
        raise CommandError(f"{args.source} holds no frames: give a video or a folder of frames of the board")
    if not saw_board:
        raise CommandError(f"no board was found in any of the {frames} frames of {args.source}: film the whole "
                           "board from above")
    events = watch.events
    moves = [e for e in events if e["type"] == "move"]
    questions = [e for e in events if e["type"] == "question"]
    out: dict[str, Any] = {
        "type": "final", "frames": frames, "committed": sum(m["by"] == "watcher" for m in moves),
        "answered": sum(m["by"] == "answer" for m in moves), "questions": len(questions),
        "repeats": watch.repeats, "stopped": watch.stopped or None, "words": watch.words_name or None,
        "board": table.board.rows() if table is not None else watch.watcher.board}
    if table is not None:

        out["summary"] = GAMES.get(table.kind).summary(table.engine.state)
    if args.json:
        for record in [*events, out]:
            print(json.dumps(record, ensure_ascii=False))
    else:
        _print_text(out, events, table)
    needed = questions or watch.stopped or any(m.get("refused") for m in moves)
    return QUESTION_STATUS if needed else 0
