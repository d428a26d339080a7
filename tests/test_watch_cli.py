"""`companion watch` end to end (issue #22): rendered streams from `vision.stream`/`vision.synth` run in any
clone; the real-photo run skips without ../shared.

The command must print every committed move, every question and its answer, and go on to the final board
(`--answer read`, the default), stop at the first question only when told (`--answer stop`), read y4m, mp4
and folders of frames, and refuse bad input in one sentence with exit 2 and nothing printed.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.cli import main as cli
from companion.rules.tiles import load_tileset
from vision import stream as streams
from vision.labelled import SHARED_BOARDS

SIZE = (960, 720)  # small frames keep the tests quick; the benchmarks use 2 MP

Tiles = list[tuple[int, int, str]]


def _truth(keys: list[streams.Keyframe], tiles: str = "en") -> list[tuple[Tiles, int | None]]:
    from benchmarks.vision_sequence import label_change

    tileset = load_tileset(tiles)
    return [label_change(a.grid, b.grid, tileset) for a, b in itertools.pairwise(keys)]


def _tiles(record: dict[str, Any], key: str = "tiles") -> Tiles:
    return sorted((int(t.split()[0][1:]) - 1, ord(t[0]) - 65, t.split()[1]) for t in record[key])


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    status = cli(["watch", *args, "--json"])
    out = capsys.readouterr().out
    records = [json.loads(line) for line in out.splitlines()]  # JSON lines: every line one object
    assert records and records[-1]["type"] == "final"
    assert all(r["type"] in ("move", "question") for r in records[:-1])
    return status, records


def _board_file(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def game() -> tuple[list[streams.Keyframe], streams.Stream]:
    keys = streams.rendered_game("cream_blue_letters", seed=2, moves=3)
    return keys, streams.build_stream(keys, fps=1.0, seed=2, size=SIZE)


def _with_tile(key: streams.Keyframe, source: streams.Keyframe, r: int, c: int) -> streams.Keyframe:
    """`key` with the tile `source` shows on square (r, c) put on it (its image and its grid)."""
    (x0, y0), (x1, _y) = key.corners[0], key.corners[1]
    cell = (x1 - x0) / 15
    pad = round(0.15 * cell)
    y, x, side = round(y0 + r * cell), round(x0 + c * cell), round(cell)
    image = key.image.copy()
    image[y - pad:y + side + pad, x - pad:x + side + pad] = source.image[y - pad:y + side + pad,
                                                                         x - pad:x + side + pad]
    grid = [row[:c] + source.grid[r][c] + row[c + 1:] if i == r else row for i, row in enumerate(key.grid)]
    return streams.Keyframe(image, key.corners, grid)


@pytest.fixture(scope="module")
def stray_tile() -> tuple[list[streams.Keyframe], streams.Stream]:
    """A game whose second change is one tile laid apart from every other (not a legal play: the watcher
    asks), followed by an ordinary move."""
    keys = streams.rendered_game("black_tiles", seed=3, moves=6)
    after = keys[2].grid
    r, c = next((r, c) for r in range(15) for c in range(15) if keys[-1].grid[r][c] != "." and all(
        after[i][j] == "." for i in range(max(r - 1, 0), min(r + 2, 15)) for j in range(max(c - 1, 0), min(c + 2, 15))))
    shown = [keys[0], keys[1], _with_tile(keys[1], keys[-1], r, c), _with_tile(keys[2], keys[-1], r, c)]
    return shown, streams.build_stream(shown, fps=1.0, seed=3, size=SIZE)


def test_a_y4m_game_prints_every_move_as_json_lines_and_the_final_board(game: Any, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    keys, st = game
    video = tmp_path / "game.y4m"
    streams.write_y4m(video, st.frames, st.fps)
    status, records = _run([str(video)], capsys)
    moves = [r for r in records if r["type"] == "move"]
    assert [(_tiles(m), m["score"]) for m in moves] == _truth(keys)
    assert all(m["by"] == "watcher" for m in moves)
    assert all(m["t"] >= move.laid for m, move in zip(moves, st.moves, strict=True))  # never before the move was laid
    final = records[-1]
    assert final["board"] == keys[-1].grid
    assert final["frames"] == len(st.frames) and final["questions"] == 0 and final["stopped"] is None
    assert status == 0  # nothing was asked


def test_a_question_is_printed_and_the_watch_goes_on_to_the_final_board(stray_tile: Any, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    keys, st = stray_tile
    truth = _truth(keys)
    assert truth[1][1] is None and len(truth[1][0]) == 1  # the second change is not a play
    folder = tmp_path / "frames"
    streams.write_folder(folder, st.frames)
    status, records = _run([str(folder)], capsys)
    kinds = [r["type"] for r in records[:-1]]
    assert kinds == ["move", "question", "move"], records
    first, question, last = records[:3]
    assert (_tiles(first), first["score"]) == truth[0] and first["by"] == "watcher"
    # the question says why, names the squares, and was not answered with a play (the tiles are no play):
    # they went on the board as read, unscored, and the watch went on
    assert "not one legal play" in question["question"]
    assert sorted(question["squares"]) == sorted(f"{chr(65 + c)}{r + 1}" for r, c, _ in truth[1][0])
    assert question["answer"].startswith("none") and _tiles(question, "unscored") == truth[1][0]
    assert question["t"] >= st.moves[1].laid
    assert (_tiles(last), last["score"]) == truth[2] and last["by"] == "watcher"
    assert records[-1]["board"] == keys[-1].grid
    assert records[-1]["questions"] == 1 and records[-1]["stopped"] is None
    assert status == 1  # the referee would have been needed


def test_answer_stop_stops_at_the_first_question(stray_tile: Any, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    keys, st = stray_tile
    folder = tmp_path / "frames"
    streams.write_folder(folder, st.frames)
    status, records = _run([str(folder), "--answer", "stop"], capsys)
    assert [r["type"] for r in records[:-1]] == ["move", "question"]
    assert "--answer stop" in records[-1]["stopped"]
    assert records[-1]["board"] == keys[1].grid  # the board when it stopped
    assert status == 1


def test_a_question_the_reading_answers_with_a_legal_play_is_recorded_as_the_answer(
        game: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The game's board holds a tile the table does not show: every reading says it looks gone, so each
    move is asked about; the reading's new tiles are one legal play, taken as the referee's answer (printed
    as such, never as the watcher's commit), and the same question about the same board is printed once."""
    keys = game[0][1:]  # from the first move on (the first move must cover the centre: no tile to join yet)
    st = streams.build_stream(keys, fps=1.0, seed=4, size=SIZE)
    final = keys[-1].grid
    r, c = 14, 14
    assert final[r][c] == "." and final[r - 1][c] == final[r][c - 1] == "."
    start = [row[:c] + "E" + row[c + 1:] if i == r else row for i, row in enumerate(keys[0].grid)]
    board = _board_file(tmp_path / "board.txt", start)
    video = tmp_path / "game.y4m"
    streams.write_y4m(video, st.frames, st.fps)
    assert cli(["watch", str(video), "--board", str(board)]) == 1
    text = capsys.readouterr().out
    status, records = _run([str(video), "--board", str(board)], capsys)
    moves = [m for m in records if m["type"] == "move"]
    assert [(_tiles(m), m["score"]) for m in moves] == _truth(keys)
    assert all(m["by"] == "answer" for m in moves)
    questions = [q for q in records if q["type"] == "question"]
    assert all("gone or moved (O15)" in q["question"] and q["squares"] == ["O15"] for q in questions)
    assert len([q for q in questions if q["answer"].startswith("the reading")]) == len(moves)
    assert records[-1]["committed"] == 0 and records[-1]["answered"] == len(moves)
    assert records[-1]["board"] == [row[:c] + "E" + row[c + 1:] if i == r else row for i, row in enumerate(final)]
    # printed for a person: each question, each answer, and the final board
    for m in moves:
        assert f"{m['move']} ({', '.join(m['tiles'])}) [the question's answer: the reading]" in text
    assert text.count("asks: a tile of the game's board looks gone or moved (O15)") == len(questions)
    assert "final board:\n" + "\n".join("  " + row for row in records[-1]["board"]) in text
    assert status == 1


def test_a_reading_with_a_blank_is_an_answer_only_where_its_tiles_lie_legally() -> None:
    """The reader does not check where the new tiles lie when a blank is among them (it asks the blank's
    letter first) and still scores them: `--answer read` must not take such a reading as a play unless the
    tiles are one legal play. A real reading's fields (vision.read.BoardReading), the rules' own check."""
    from companion.commands.watch_run import _not_a_play
    from vision.read import BoardReading, NewTile

    rows = ["." * 15] * 7 + ["...HOTEL......."] + ["." * 15] * 7

    def reading(*tiles: tuple[str, str]) -> BoardReading:
        return BoardReading(grid=rows, confidence=[[1.0] * 15] * 15, corners=[[0, 0], [1, 0], [1, 1], [0, 1]],
                            located="given", score=6, warnings=[("a blank tile was played: say which letter it "
                                                                "stands for (it scores 0)")],
                            new_tiles=[NewTile(square=sq, letter=ch, confidence=0.9) for sq, ch in tiles])

    # H9 under the H of HOTEL (D8..H8: the L is H8), and a blank on B12, apart from everything: no play
    assert "not one legal play" in _not_a_play(reading(("H9", "A"), ("B12", "?")), rows, "en")
    # the blank joined in line: a play (its letter is the referee's to name; it scores 0 whatever it is)
    assert _not_a_play(reading(("H9", "A"), ("H10", "?")), rows, "en") == ""


def test_an_mp4_video_is_watched_like_a_y4m(game: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys, st = game
    video = tmp_path / "game.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), st.fps, SIZE)
    if not writer.isOpened():
        pytest.skip("this OpenCV cannot write an mp4 (no MPEG-4 encoder)")
    for _t, frame in st.frames:
        writer.write(frame)
    writer.release()
    status, records = _run([str(video)], capsys)
    moves = [r for r in records if r["type"] == "move"]
    assert [(_tiles(m), m["score"]) for m in moves] == _truth(keys)
    assert records[-1]["board"] == keys[-1].grid and records[-1]["frames"] == len(st.frames)
    assert status == 0


def test_with_a_game_log_moves_go_through_the_games_table(game: Any, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from companion.games.monopoly_scrabble.table import new_monopoly_scrabble
    from companion.ui.table import PlayerInfo

    keys, st = game
    table = new_monopoly_scrabble([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")], "Ann")
    log = tmp_path / "game.json"
    log.write_text(table.engine.events_json(), encoding="utf-8")
    folder = tmp_path / "frames"
    streams.write_folder(folder, st.frames)
    status, records = _run([str(folder), "--game", str(log)], capsys)
    moves = [r for r in records if r["type"] == "move"]
    assert moves, records
    first = moves[0]
    assert first["player"] == "Ann" and first["effects"], first  # the money and the token moved
    assert records[-1]["summary"]  # the game's final state, as `companion replay` prints it
    # the moves applied are the stream's, in order, until the game waits for the referee (or the end)
    for m, (tiles, _score) in zip(moves, _truth(keys), strict=False):
        assert _tiles(m) == tiles
    assert status == (1 if records[-1]["stopped"] else 0)


def _cli_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli(["watch", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing committed, nothing printed as a move
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_bad_input_is_one_sentence_and_exit_2(game: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys, st = game
    assert "no file or folder" in _cli_error([str(tmp_path / "missing.y4m")], capsys)
    cut = tmp_path / "cut.y4m"
    streams.write_y4m(cut, st.frames[:3], 1.0)
    cut.write_bytes(cut.read_bytes()[:-1000])  # the stream stops in its last frame
    assert "cut off" in _cli_error([str(cut)], capsys)
    empty = tmp_path / "empty.y4m"
    empty.write_bytes(b"YUV4MPEG2 W960 H720 F1:1 Ip A1:1 C420jpeg\n")
    assert "no frames" in _cli_error([str(empty)], capsys)
    text = tmp_path / "notes.mp4"
    text.write_text("not a video", encoding="utf-8")
    assert "not a video" in _cli_error([str(text)], capsys)
    named = tmp_path / "notes.y4m"  # named like a y4m: our parser's sentence, not OpenCV's complaint
    named.write_text("not a video", encoding="utf-8")
    assert _cli_error([str(named)], capsys) == (f"companion watch: {named} is not a y4m video (no YUV4MPEG2 "
                                                "header): give a y4m video, an mp4 or a folder of frames")
    rng = np.random.default_rng(1)
    noise = [(float(k), np.clip(rng.normal(110, 25, (SIZE[1], SIZE[0], 3)), 0, 255).astype(np.uint8))
             for k in range(3)]
    table = tmp_path / "table.y4m"
    streams.write_y4m(table, noise, 1.0)
    assert "no board was found" in _cli_error([str(table)], capsys)
    folder = tmp_path / "frames"
    streams.write_folder(folder, st.frames[:2])
    (folder / "t0002.000.jpg").write_bytes(b"this is no jpeg")
    assert "is not an image" in _cli_error([str(folder)], capsys)
    video = tmp_path / "game.y4m"
    streams.write_y4m(video, st.frames[:2], 1.0)
    short = _board_file(tmp_path / "short.txt", keys[0].grid[:14])
    assert _cli_error([str(video), "--board", str(short)], capsys) == (
        f"companion watch: {short} is not a board (14 lines): give a file of 15 lines of 15 characters ('.' an "
        "empty square, a letter a tile, '?' a blank)")
    digits = _board_file(tmp_path / "digits.txt", ["1" + row[1:] for row in keys[0].grid])
    assert "holds 1, which is no tile" in _cli_error([str(video), "--board", str(digits)], capsys)
    assert "not both" in _cli_error([str(video), "--board", str(digits), "--game", str(digits)], capsys)


SHARED_CAVA = SHARED_BOARDS / "cava_ro"


@pytest.mark.skipif(not SHARED_CAVA.is_dir(), reason="../shared/data/boards/cava_ro is absent: the real photo "
                                                      "games are not here")
def test_a_photographed_games_stream_from_its_first_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.labelled import labelled_photos

    photos = sorted((p for p in labelled_photos("cava_ro") if p.stem.startswith("1_") and "move" in p.meta),
                    key=lambda p: int(p.meta["move"]))[:5]
    keys = [streams.Keyframe(cv2.imread(str(p.image)), p.corners, [r.replace("#", ".") for r in p.grid])
            for p in photos]
    truth = [(sorted((t["row"], t["col"], t["letter"]) for t in p.meta["new_tiles"]), int(p.meta["move_score"]))
             for p in photos[1:]]
    st = streams.build_stream(keys, fps=1.0, fault="glare", seed=11, size=(1280, 960))
    folder = tmp_path / "frames"
    streams.write_folder(folder, st.frames)
    board = _board_file(tmp_path / "board.txt", keys[0].grid)
    status, records = _run([str(folder), "--board", str(board), "--tiles", "ro"], capsys)
    moves = [r for r in records if r["type"] == "move"]
    assert [(_tiles(m), m["score"]) for m in moves] == truth
    assert all(m["by"] == "watcher" for m in moves) and status == 0
    assert records[-1]["board"] == keys[-1].grid


def _source_strings(*paths: str) -> list[str]:
    """Every string literal of the modules (implicit concatenation joined; an f-string's literal parts
    joined by a NUL where its values go)."""
    import ast

    root = Path(__file__).resolve().parents[1]
    out: list[str] = []
    for path in paths:
        for node in ast.walk(ast.parse((root / path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                out.append("".join(v.value if isinstance(v, ast.Constant) else "\0" for v in node.values))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append(node.value)
    return out


def test_the_messages_docs_watching_quotes_are_the_apps_own() -> None:
    """Each message the tables of docs/watching.md's "What the app says" quote (first column; <...> where
    the app fills in a value) is said by the watcher or the app's watch, word for word."""
    import re

    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "watching.md").read_text(encoding="utf-8")
    doc = doc[doc.index("## What the app says"):]
    doc = doc[:doc.index("\n## ", 5)]  # that section's tables only
    said = _source_strings("vision/watch.py", "companion/ui/watching.py", "companion/ui/components/watch.py")
    quoted = [line.split("|")[1].strip() for line in doc.splitlines()
              if line.startswith("| ") and not line.startswith("| the app says") and not line.startswith("|---")
              and not line.startswith("| Asking the referee: ...")]
    assert len(quoted) >= 20, quoted
    for message in quoted:
        parts = [p for p in re.split(r"<[^>]+>", message) if p.strip()]
        # a question is said after "Asking the referee: " (its own string)
        assert all(any(p.strip() in s for s in said) for p in parts), message
