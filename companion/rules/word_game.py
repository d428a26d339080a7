"""What the rules of the games played on the 15x15 word board (classic Scrabble, Monopoly Scrabble) share:
the events of a word laid on the board and of a challenge of it, the part of the folded state every
such game tracks (board, layout, tile set, racks by count, turn order), and how a game's `legal_moves`
offers a play of tiles (`PlayOffer`: the referee cannot list the plays of a rack it does not see). Each
game extends them with what only it records."""

from __future__ import annotations

from collections.abc import Callable
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


@dataclass(frozen=True)
class PlayOffer:
    """A play of tiles is legal now for `player`. Which tiles cannot be listed (the referee does not see
    the rack), so the offer says how many: at most `own_tiles` from the player's rack and, in Monopoly
    Scrabble, up to `bank_tiles` bought from the Bank rack (`bank_letters` when the table recorded it).
    The squares and letters are judged by the rules when the play is recorded (`validate_placement`)."""

    player: str
    own_tiles: int
    bank_tiles: int = 0
    bank_letters: str | None = None


@dataclass(frozen=True)
class ChallengeWindow:
    """The latest play is open to a challenge: `player` made it, its `words`, who may challenge it
    (`challengers`), and until when (`closes`, words for the table: "until Bob acts")."""

    player: str
    words: tuple[str, ...]
    challengers: tuple[str, ...]
    closes: str


def challengers(events: list[Event]) -> list[str]:
    """Who may challenge now, in seating order, from a list of legal events (each challenger once)."""
    out: list[str] = []
    for event in events:
        if isinstance(event, WordChallenge) and event.challenger not in out:
            out.append(event.challenger)
    return out


def challenge_verdicts(judge: Callable[[list[str]], bool] | None, words: list[str]) -> tuple[bool, ...]:
    """The verdicts a challenge of `words` may carry: the judge's, or either when no judge is given (the
    table's word judge gives it when the challenge is recorded)."""
    return (judge(words),) if judge is not None else (True, False)


def tile_count(n: int) -> str:
    """`1 tile`, `3 tiles`: a count of tiles as a sentence says it."""
    return f"{n} tile" if n == 1 else f"{n} tiles"
