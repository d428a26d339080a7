"""Pure game logic: board geometry and layouts, tile sets, placement, words and scores, game flow.

No I/O beyond reading the rules data files in `assets/`, and no UI.
"""

from companion.rules.board import (
    Board,
    Direction,
    Layout,
    PlacedTile,
    Position,
    Square,
    Tile,
    load_layout,
    parse_position,
    parse_square,
)
from companion.rules.errors import IllegalAction, IllegalPlacement, RulesDataError, RulesError
from companion.rules.notation import format_play, parse_play
from companion.rules.placement import validate_placement
from companion.rules.scoring import ScoredPlay, Word, score_play
from companion.rules.tiles import TileSet, load_tileset

__all__ = [
    "Board",
    "Direction",
    "IllegalAction",
    "IllegalPlacement",
    "Layout",
    "PlacedTile",
    "Position",
    "RulesDataError",
    "RulesError",
    "ScoredPlay",
    "Square",
    "Tile",
    "TileSet",
    "Word",
    "format_play",
    "load_layout",
    "load_tileset",
    "parse_play",
    "parse_position",
    "parse_square",
    "score_play",
    "validate_placement",
]
