"""What the rules of the games played on the 15x15 word board (classic Scrabble, Monopoly Scrabble) share:
the events of a word laid on the board and of a challenge of it, and the part of the folded state every
such game tracks (board, layout, tile set, racks by count, turn order). Each game extends them with what
only it records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field

from companion.events import Event, PlayerEvent, RulesState
from companion.rules.board import Board, Layout
from companion.rules.tiles import TileSet


class WordPlay(PlayerEvent):
    """Tiles placed: `position` as `8D`/`D8`, `word` in GCG form (`.` = tile already on the board, lower
    case = a blank)."""

    type: Literal["play"] = "play"
    position: str
    word: str
    rack: str | None = Field(default=None, description="the player's own rack before the play, when known")


class WordChallenge(Event):
    """A ruling on the latest play: `acceptable` is the word judge's verdict on the whole play."""

    type: Literal["challenge"] = "challenge"
    challenger: str
    acceptable: bool | None = None
    lexicon: str = ""
    words: list[str] = Field(default_factory=list)


@dataclass
class WordBoardState(RulesState):
    """The board and what a referee who cannot see racks tracks by count; `to_move` indexes the players in
    turn order, `skip_next` holds players who lose their next turn, `went_out` who emptied their rack."""

    layout: Layout | None = None
    tileset: TileSet | None = None
    board: Board = field(default_factory=Board)
    rack_counts: dict[str, int] = field(default_factory=dict)
    to_move: int = 0
    skip_next: set[str] = field(default_factory=set)
    went_out: str | None = None
    finished: bool = False


@dataclass(kw_only=True)
class LastPlay:
    """The latest play, open to a challenge until the next player acts: who made it, its line in the
    game's turn record, and whether it has been challenged already (a play is challenged once)."""

    player: str
    turn_index: int
    challenged: bool = False
