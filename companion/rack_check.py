""""Can anyone still play?" and the best play of each turn: the move generator asked about one rack.

Pure (no UI, no I/O beyond the word list the caller hands in) and typed. The word-board table asks
`check_rack` when a player types their rack (the answer is yes or no; the play itself is only given
when asked, for learning) and `review_plays` for the end-of-game review of a game whose plays were
entered with the player's rack (`WordPlay.rack`).

A typed rack is read the way players write it: letters in any case, `?` for a blank, spaces ignored.
It is refused with one sentence when it cannot be a rack of this game: a character that is no tile,
more tiles than a rack holds, or more of a tile than is left off the board (a rack is drawn from the
tiles not yet played, so three Qs on a board with one Q in the set is a typing slip, not a question).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.events import Event, effective_events
from companion.rules.board import Board, Layout, Square
from companion.rules.errors import RulesError
from companion.rules.notation import parse_play
from companion.rules.scoring import score_play
from companion.rules.tiles import BLANK, TileSet
from companion.rules.word_game import WordPlay
from lexicon.movegen import Move, RackError, best_plays, has_any_play
from lexicon.store import Lexicon

MAX_TYPED = 40  # characters read from the rack field; anything longer is not a rack


class RackRefused(ValueError):
    """A typed rack that cannot be a rack of this game; the message is one sentence for the table."""


@dataclass(frozen=True)
class RackAnswer:
    """The answer for one rack on one board: `can_play`, and the best play when it was asked for."""

    rack: str
    can_play: bool
    lexicon: str
    best: Move | None = None
    best_word: str = ""  # the best play's whole main word, board tiles included (`.iN` -> `IN`)

    @property
    def sentence(self) -> str:
        if self.can_play:
            return f"Yes: {self.rack} has a play on this board ({self.lexicon})."
        return f"No: {self.rack} has no play on this board ({self.lexicon})."

    @property
    def best_sentence(self) -> str:
        """The best play in words, in GCG notation: `Best play: 8G RAJA (across), 22 points.`"""
        if self.best is None:
            return "There is no play to show."
        move = self.best
        way = "down" if move.down else "across"
        blanks = [ch.upper() for ch in move.word if ch.islower()]
        note = f", the {' and the '.join(blanks)} a blank" if blanks else ""
        return (f"Best play: {move.position.notation} {move.word} ({way}{note}): "
                f"{self.best_word or move.word}, {move.score} points.")


def unseen_tiles(board: Board, tileset: TileSet) -> Counter[str] | None:
    """Tiles not on the board (on racks or in the bag), or None when the tile set gives no counts."""
    if tileset.counts is None:
        return None
    unseen = tileset.bag()
    for placed in board.tiles():
        unseen[BLANK if placed.tile.blank else placed.tile.letter] -= 1
    return +unseen


def parse_rack(text: str, tileset: TileSet, unseen: Counter[str] | None = None) -> str:
    """The rack as the move generator takes it (upper case letters, `?` blanks), or `RackRefused`."""
    typed = text.strip()
    if not typed:
        raise RackRefused("Type the tiles on the rack: letters, and ? for a blank.")
    if len(typed) > MAX_TYPED:
        raise RackRefused(f"That is {len(typed)} characters, not a rack: a rack holds at most "
                          f"{tileset.rack_size} tiles.")
    rack = "".join(typed.split()).upper()
    for ch in rack:
        if ch != BLANK and not tileset.has_letter(ch):
            what = "a digit" if ch.isdigit() else f"'{ch}'"
            raise RackRefused(f"'{typed}' has {what}, which is no tile of the {tileset.name} set: "
                              "type letters, and ? for a blank.")
    if len(rack) > tileset.rack_size:
        raise RackRefused(f"'{typed}' has {len(rack)} tiles but a rack holds at most {tileset.rack_size}.")
    if unseen is not None:
        for ch, n in sorted(Counter(rack).items()):
            left = unseen.get(ch, 0)
            if n > left:
                name = "blank" if ch == BLANK else ch
                plural = "blanks" if ch == BLANK else f"{ch}s"
                held = f"{n} {plural if n > 1 else name}"
                if left == 0:
                    raise RackRefused(f"The rack has {held} but every {name} is on the board: check the rack.")
                off = f"{left} {name} is" if left == 1 else f"{left} {plural} are"
                raise RackRefused(f"The rack has {held} but only {off} off the board: check the rack.")
    return rack


def check_rack(board: Board, text: str, lexicon: Lexicon, layout: Layout, tileset: TileSet,
               best: bool = False) -> RackAnswer:
    """Can the typed rack make any legal placement on `board`? With `best`, also the highest-scoring one.

    Raises `RackRefused` (one sentence) for a rack this game cannot have."""
    rack = parse_rack(text, tileset, unseen_tiles(board, tileset))
    try:
        if best:
            top = best_plays(board, rack, 1, lexicon, layout, tileset)
            word = _whole_word(board, top[0]) if top else ""
            return RackAnswer(rack, bool(top), lexicon.name, top[0] if top else None, word)
        return RackAnswer(rack, has_any_play(board, rack, lexicon, layout, tileset), lexicon.name)
    except RackError as exc:
        raise RackRefused(_sentence(str(exc))) from None


def _whole_word(board: Board, move: Move) -> str:
    """The move's main word in capitals, reading the board's tiles where the move writes `.`."""
    out = []
    for placed, ch in zip(_squares(move), move.word, strict=True):
        tile = board.get(placed) if ch == "." else None
        out.append(tile.letter if tile is not None else ch.upper())
    return "".join(out)


def _squares(move: Move) -> list[Square]:
    dr, dc = (1, 0) if move.down else (0, 1)
    return [Square(move.row + dr * i, move.col + dc * i) for i in range(len(move.word))]


# ----------------------------------------------------------------------------- end-of-game review


class WordBoardState(Protocol):
    """What the review reads of a word-board game's folded state (classic and Monopoly Scrabble have it)."""

    board: Board
    layout: Layout | None
    tileset: TileSet | None

    def apply(self, event: Any) -> None: ...


@dataclass(frozen=True)
class TurnReview:
    """One play of the game beside the best play its rack had on the board it was played on."""

    number: int  # 1-based count of the game's plays
    player: str
    rack: str
    played: str  # GCG: `8G RAJA`
    played_score: int | None  # None when the recorded play could not be scored
    best: Move | None
    # Every word the play formed is in the word list (a record made with another list, or a phony that
    # stood unchallenged, can score more than the list's best play).
    played_in_list: bool = True

    @property
    def missed(self) -> int:
        """Points left on the table (0 when the best play was found)."""
        if self.best is None or self.played_score is None:
            return 0
        return max(0, self.best.score - self.played_score)


def review_plays(events: Sequence[Event], new_state: Callable[[], Any], lexicon: Lexicon) -> list[TurnReview]:
    """Replay the game and, for every play recorded with its rack, the best play that rack had then.

    `new_state` is the game's rules' `new_state` (its state must fold the events and show `board`,
    `layout` and `tileset`). Plays without a rack are counted but not reviewed."""
    state: WordBoardState = new_state()
    out: list[TurnReview] = []
    number = 0
    for event in effective_events(list(events)):
        if isinstance(event, WordPlay):
            number += 1
            layout, tileset = state.layout, state.tileset
            if event.rack and layout is not None and tileset is not None:
                board = state.board.copy()
                rack = event.rack.replace(" ", "").upper()
                try:
                    top = best_plays(board, rack, 1, lexicon, layout, tileset)
                except RackError:
                    top = []
                score, words = _score(board, event, layout, tileset)
                out.append(TurnReview(number, event.player, rack, f"{event.position} {event.word}", score,
                                      top[0] if top else None, all(w in lexicon for w in words)))
        state.apply(event)
    return out


def _score(board: Board, play: WordPlay, layout: Layout, tileset: TileSet) -> tuple[int | None, list[str]]:
    """The play's score and the words it formed (None and no words when it cannot be scored)."""
    try:
        scored = score_play(board, parse_play(play.position, play.word, board), layout, tileset)
    except (RulesError, ValueError):
        return None, []
    return scored.total, [w.text for w in scored.words]


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


__all__ = ["RackAnswer", "RackRefused", "TurnReview", "check_rack", "parse_rack", "review_plays", "unseen_tiles"]
