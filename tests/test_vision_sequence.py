"""Reading a game's photos in sequence: the known board keeps its tiles, clear changes are flagged.

The policy (`vision.sequence.reconcile`) is tested on grids built here; the reader with real photos of
the cava_ro games from `../shared/data/boards` (skipped when absent), clean and with glare, a hand and a
nudged tile painted on them (`vision.degrade`), where a fresh reading of the photo alone goes wrong.
The whole games are measured by `benchmarks/vision_sequence.py`.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from companion.rules.tiles import load_tileset
from tests.conftest import shared_path
from vision import degrade
from vision.labelled import LabelledPhoto, labelled_photos
from vision.read import BoardReading, read_board
from vision.sequence import CHANGE_SURE, NEW_LETTER_DOUBT, NEW_SURE, reconcile, unclear_letter_doubt

RO = load_tileset("ro")
EN = load_tileset("en")


def _grid(tiles: dict[tuple[int, int], str]) -> list[str]:
    rows = [["."] * 15 for _ in range(15)]
    for (r, c), ch in tiles.items():
        rows[r][c] = ch
    return ["".join(r) for r in rows]


def _cells(rows: list[str]) -> list[list[str]]:
    return [list(r) for r in rows]


# ----------------------------------------------------------------------------- the policy on built grids

BEFORE = _grid({(7, 5): "C", (7, 6): "A", (7, 7): "T"})


def test_unclear_known_tile_keeps_its_letter() -> None:
    grid = _cells(_grid({(7, 5): "C", (7, 6): "O", (7, 7): "."}))  # A misread, T lost under glare
    conf = [[1.0] * 15 for _ in range(15)]
    conf[7][6], conf[7][7] = 0.7, 0.6
    out = reconcile(grid, conf, BEFORE, {(7, 6): 0.2}, EN)
    assert "".join(grid[7][5:8]) == "CAT"
    assert {(d.square, d.known, d.read, d.why) for d in out} == {("G8", "A", "O", "unclear"),
                                                                 ("H8", "T", ".", "unclear")}
    assert conf[7][6] == conf[7][7] == 1.0


def test_a_new_tile_whose_letter_is_a_guess_makes_the_reading_doubtful() -> None:
    """jheidel 170219: the Q of a seven-tile play read C at 0.29 scored 73 for 80 without a doubt."""
    grid = _grid({(7, 5): "C", (7, 6): "A", (7, 7): "T", (8, 7): "O", (9, 7): "E"})
    conf = [[1.0] * 15 for _ in range(15)]
    conf[9][7] = NEW_LETTER_DOUBT - 0.21
    doubt = unclear_letter_doubt(grid, conf, BEFORE)
    assert doubt is not None and "H10 (read E)" in doubt and "H9" not in doubt
    conf[9][7] = NEW_LETTER_DOUBT
    assert unclear_letter_doubt(grid, conf, BEFORE) is None  # read surely enough: scored
    # a known tile read unsurely is the known board's business, and a blank shows no letter to guess
    conf[7][6] = 0.1
    blank = _grid({(7, 5): "C", (7, 6): "A", (7, 7): "T", (8, 7): "?"})
    conf[8][7] = 0.1
    assert unclear_letter_doubt(blank, conf, BEFORE) is None


def test_clear_change_is_left_for_the_move_to_flag() -> None:
    grid = _cells(_grid({(7, 5): "C", (7, 6): "O", (7, 7): "."}))
    conf = [[1.0] * 15 for _ in range(15)]
    conf[7][6] = conf[7][7] = CHANGE_SURE  # the photo is sure: O, and no tile on H8
    out = reconcile(grid, conf, BEFORE, {(7, 6): 0.001}, EN)
    assert out == [] and "".join(grid[7][5:8]) == "CO."


def test_sure_other_letter_but_known_letter_plausible_is_kept() -> None:
    grid = _cells(_grid({(7, 5): "C", (7, 6): "O", (7, 7): "T"}))
    conf = [[1.0] * 15 for _ in range(15)]
    out = reconcile(grid, conf, BEFORE, {(7, 6): 0.05}, EN)  # the network still gives A 5%
    assert grid[7][6] == "A" and [d.square for d in out] == ["G8"]


def test_known_blank_stays_a_blank() -> None:
    before = _grid({(7, 5): "C", (7, 6): "a", (7, 7): "T"})
    grid = _cells(_grid({(7, 5): "C", (7, 6): "R", (7, 7): "T"}))  # a mark on the blank read as R
    conf = [[1.0] * 15 for _ in range(15)]
    reconcile(grid, conf, before, {}, EN)
    assert grid[7][6] == "?"


def test_unsure_stray_mark_off_the_play_is_not_a_new_tile() -> None:
    # O and P laid down from T (TOP, a legal play), and a finger-like mark far away on B2
    grid = _cells(_grid({(7, 5): "C", (7, 6): "A", (7, 7): "T", (8, 7): "O", (9, 7): "P", (1, 1): "I"}))
    conf = [[1.0] * 15 for _ in range(15)]
    conf[1][1] = NEW_SURE - 0.2
    out = reconcile(grid, conf, BEFORE, {}, EN)
    assert grid[1][1] == "." and [(d.square, d.known, d.why) for d in out] == [("B2", ".", "not in the play")]
    assert grid[8][7] == "O" and grid[9][7] == "P"


def test_sure_marks_are_never_dropped() -> None:
    grid = _cells(_grid({(7, 5): "C", (7, 6): "A", (7, 7): "T", (8, 7): "O", (1, 1): "I"}))
    conf = [[1.0] * 15 for _ in range(15)]  # all sure: the photo shows two separate tiles, the move is wrong
    assert reconcile(grid, conf, BEFORE, {}, EN) == [] and grid[1][1] == "I"


# ----------------------------------------------------------------------------- real photos of a game

def _photo(stem: str) -> LabelledPhoto:
    shared_path("boards", "cava_ro", f"{stem}.json")
    return next(p for p in labelled_photos("cava_ro") if p.stem == stem)


def _before(stem: str) -> list[str]:
    return list(json.loads(shared_path("boards", "cava_ro", f"{stem}.json").read_text())["grid"])


def _move(reading: BoardReading) -> set[tuple[int, int, str]]:
    return {(int(t.square[1:]) - 1, ord(t.square[0]) - 65, t.letter) for t in reading.new_tiles or []}


def _far_known(before: list[str], new: set[tuple[int, int, str]]) -> tuple[int, int]:
    known = [(r, c) for r in range(15) for c in range(15) if before[r][c] != "."]
    return max(known, key=lambda k: min(max(abs(k[0] - r), abs(k[1] - c)) for r, c, _ in new))


@pytest.mark.parametrize("fault", ["glare", "hand"])
def test_poor_photo_keeps_the_move_exact_in_sequence(fault: str) -> None:
    photo = _photo("3_15")
    before = _before("3_14")
    want = {(t["row"], t["col"], t["letter"]) for t in photo.meta["new_tiles"]}
    r, c = _far_known(before, want)
    img = cv2.imread(str(photo.image))
    img = degrade.glare(img, photo.corners, r, c) if fault == "glare" else degrade.hand(img, photo.corners, r, c)
    # Alone, the photo no longer shows the board the game holds.
    fresh = read_board(img, corners=photo.corners, tiles=RO, second_opinion=False)
    assert fresh.grid != [row for row in photo.grid]
    # Knowing the board before it, the move is exact, no known tile is reported changed, and the reading
    # says which squares it did not take from the photo.
    seq = read_board(img, corners=photo.corners, previous=before, tiles=RO, second_opinion=False)
    assert _move(seq) == want and seq.score == photo.meta["move_score"]
    assert seq.changed == []
    assert seq.grid == photo.grid
    assert seq.disagreements and all(d.why == "unclear" for d in seq.disagreements)
    assert any("kept" in w for w in seq.warnings)


def test_a_really_removed_tile_is_flagged_changed() -> None:
    # The game's board holds a tile the photo clearly does not show (a withdrawn play not undone).
    photo = _photo("2_05")
    before = [list(r) for r in _before("2_04")]
    r, c = 0, 0  # a corner triple-word square, far from every tile
    assert photo.grid[r][c] == "."
    before[r][c] = "E"
    seq = read_board(photo.image, corners=photo.corners, previous=["".join(x) for x in before], tiles=RO,
                     second_opinion=False)
    assert [(ch.square, ch.was, ch.now) for ch in seq.changed] == [("A1", "E", ".")]
    want = {(t["row"], t["col"], t["letter"]) for t in photo.meta["new_tiles"]}
    assert _move(seq) == want and seq.score == photo.meta["move_score"]


def test_twelve_megapixel_photo_is_read_at_reduced_size_with_full_size_corners() -> None:
    photo = _photo("1_12")
    img = cv2.imread(str(photo.image))
    f = (12e6 / (img.shape[0] * img.shape[1])) ** 0.5
    big = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC)
    data = bytes(cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])
    from vision.decode import decode_photo

    decoded = decode_photo(data)
    assert decoded.scale == 0.5 and decoded.full_size == (big.shape[1], big.shape[0])
    reading = read_board(data, tiles=RO, second_opinion=False)
    assert reading.grid == photo.grid
    square = f * np.linalg.norm(np.subtract(photo.corners[1], photo.corners[0])) / 15
    assert np.abs(np.subtract(reading.corners, np.array(photo.corners) * f)).max() < square / 4


def test_the_app_reads_a_poor_photo_knowing_the_game_and_scores_the_move() -> None:
    # A Romanian classic game holding the real game 3 up to move 14, entered move by move; the photo of
    # move 15 has glare over a known tile. The table passes its board to the reader (as the turn screen
    # does): the rows keep every known tile, the play found is the official move with its official score,
    # and nothing is reported as contradicting the board.
    from companion.games.classic.table import new_classic
    from companion.rules.board import PlacedTile, Square, Tile
    from companion.ui.adapters import read_board as app_read_board
    from companion.ui.table import PlayerInfo
    from companion.ui.word_table import tiles_to_notation

    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")], tileset="ro")
    for k in range(1, 15):
        meta = _photo(f"3_{k:02d}").meta
        tiles = [PlacedTile(Square(t["row"], t["col"]), Tile(t["letter"])) for t in meta["new_tiles"]]
        game.play(*tiles_to_notation(game.board, tiles))
    photo = _photo("3_15")
    want = {(t["row"], t["col"], t["letter"]) for t in photo.meta["new_tiles"]}
    r, c = _far_known(game.board.rows(), want)
    img = degrade.glare(cv2.imread(str(photo.image)), photo.corners, r, c)
    data = bytes(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])
    read = app_read_board(data, game.board.rows(), game.tileset_name)
    assert read.rows == photo.grid
    assert read.extra["changed"] == [] and read.extra["kept"]
    check, warnings = game.check_read(list(read.rows))
    assert check.ok and check.total == photo.meta["move_score"] and warnings == []
    assert not read.doubts


def test_a_hand_across_the_board_makes_the_reading_doubtful() -> None:
    # A hand laid along row 8 of game 3 after move 4 hides the whole first word and the move's own tiles:
    # no reading can find the move, so instead of a wrong score the reading says why it is doubtful.
    photo = _photo("3_05")
    before = _before("3_04")
    img = degrade.hand(cv2.imread(str(photo.image)), photo.corners, 7, 7, seed=5)
    seq = read_board(img, corners=photo.corners, previous=before, tiles=RO, second_opinion=False)
    assert seq.doubtful and any("did not show clearly" in d for d in seq.doubts)
    assert max(max(row) for row in seq.confidence) < 0.98  # nothing of it is sure
    assert seq.changed == []  # nothing is claimed to have changed on the board


def test_a_board_small_in_a_big_photo_is_read_from_a_sharper_decode() -> None:
    # A 12 MP photo (4000 x 3000) whose board spans a fifth of its width: the half-size decode would
    # give it under 48 pixels a square, so the reader decodes the bytes again at full size for the board.
    photo = _photo("2_07")
    img = cv2.imread(str(photo.image))
    f, x0, y0 = 0.9, 1500, 700
    small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    canvas = np.full((3000, 4000, 3), (60, 90, 120), np.uint8)
    canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    data = bytes(cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])
    from vision.decode import decode_photo

    assert decode_photo(data).scale == 0.5
    reading = read_board(data, tiles=RO, second_opinion=False)
    assert reading.grid == photo.grid
    want = np.array(photo.corners) * f + [x0, y0]
    square = np.linalg.norm(want[1] - want[0]) / 15
    assert np.abs(np.subtract(reading.corners, want)).max() < square / 4


def test_an_unsure_blank_off_the_play_is_dropped_and_an_illegal_play_is_doubtful() -> None:
    # Glare beside a known tile can make a bare square look like a blank tile (a tile with no letter):
    # even read with P(tile) 0.95 it is no new tile when the rest is a legal play without it.
    grid = _cells(_grid({(7, 5): "C", (7, 6): "A", (7, 7): "T", (8, 7): "O", (2, 2): "?"}))
    conf = [[1.0] * 15 for _ in range(15)]
    conf[2][2] = 0.95
    out = reconcile(grid, conf, BEFORE, {}, EN)
    assert grid[2][2] == "." and [d.square for d in out] == ["C3"]
    from vision.sequence import illegal_doubt

    assert illegal_doubt(["".join(r) for r in grid], BEFORE, EN) is None
    two_places = _grid({(7, 5): "C", (7, 6): "A", (7, 7): "T", (8, 7): "O", (2, 2): "I"})
    assert "not one legal play" in (illegal_doubt(two_places, BEFORE, EN) or "")


# ----------------------------------------------------------------------------- the jheidel photo series

def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vision_sequence_benchmark",
                                                  Path(__file__).resolve().parents[1] / "benchmarks"
                                                  / "vision_sequence.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_jheidel_photo_series_are_games_whose_changes_are_scored_only_when_one_legal_play() -> None:
    shared_path("boards", "jheidel")
    bench = _benchmark()
    found = bench.games()
    assert [len(found[("jheidel", g)]) for g in ("2014", "2015")] == [10, 43]
    before, changes = ["." * 15] * 15, []
    for photo in found[("jheidel", "2015")]:
        changes.append(bench.label_change(before, photo.grid, EN))
        before = photo.grid
    counts = [len(tiles) for tiles, _ in changes if tiles]
    assert counts == [5, 4, 8, 19, 5, 3, 11, 7, 4, 3, 31]  # 0 -> 100 tiles, several plays between some photos
    scored = [(len(tiles), score) for tiles, score in changes if score is not None]
    # BENDS across H8 from D8 (B on a double letter, the centre doubles the word): (6+1+1+2+1)*2 = 22; the
    # seven tiles down column C (E Q U A I T Y, making ABENDS across) take the 50 bonus: 80
    assert scored[0] == (5, 22) and len(scored) == 7 and (7, 80) in scored
    assert all(not tiles for tiles, _ in changes[:4])  # the empty board photographed four times
