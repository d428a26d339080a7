"""Per-move scores of the three complete photographed games in `boards/cava_ro`, by the rules core.

Each move's label gives the board after the move (`grid`), the new tiles and the official score from
the CAVA-2022 annotation; the board before a move is the previous move's grid. Romanian tile values
(`assets/tilesets/ro.json`). A blank (`?`) has no recorded letter: it scores 0 whatever it stands for,
so its letter does not matter for the score.
"""

from __future__ import annotations

import json

import pytest

from companion.rules.board import Board, PlacedTile, Square, Tile, load_layout
from companion.rules.placement import validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import load_tileset
from tests.conftest import shared_path

RO = load_tileset("ro")
LAYOUT = load_layout("standard")


@pytest.mark.parametrize("game", [1, 2, 3])
def test_every_move_scores_as_annotated(game: int) -> None:
    folder = shared_path("boards", "cava_ro")
    before = Board()
    checked = 0
    for move in range(1, 21):
        label = json.loads((folder / f"{game}_{move:02d}.json").read_text(encoding="utf-8"))
        tiles = [PlacedTile(Square(t["row"], t["col"]), Tile(t["letter"].upper(), blank=t["letter"] == "?"))
                 for t in label["new_tiles"]]
        if not any(p.tile.blank for p in tiles):  # a blank of unknown letter cannot be validated as named
            validate_placement(before, tiles, LAYOUT, RO)
        assert score_play(before, tiles, LAYOUT, RO).total == label["move_score"], (game, move)
        after = before.copy()
        after.push(tiles)
        assert after.rows() == label["grid"], (game, move)  # the new tiles are exactly what changed
        before = Board.from_rows(label["grid"])
        checked += 1
    assert checked == 20
