"""Classic Scrabble as a fold over an ordered log of events.

The referee at a real table does not see racks or the bag, so it tracks them by count: every player
draws a full rack at the start, refills after a play while the bag lasts, and the bag is the tile
set's total less what is on racks and on the board. Racks are checked letter by letter only when a
play says which rack it came from.

Events (all pydantic, tagged by `type`): `start`, `play`, `pass`, `exchange`, `challenge`,
`end_game`, plus the shared `undo`. Rule presets (`assets/rules/scrabble_presets.json`) decide the
challenge mode, the end-of-game adjustment, how many scoreless turns end the game and the clock.

Variants: the 9-tile game (racks of 9, the bingo bonus for 7, 8 or 9 tiles) and Finish Line (the
first player to reach the target wins at once; no rack adjustment).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, PassEvent, PlayerEvent, StartEvent, Undo
from companion.rules.board import ASSETS, Board, PlacedTile, Position, load_layout
from companion.rules.errors import IllegalAction, RulesDataError
from companion.rules.notation import format_play, parse_play
from companion.rules.placement import validate_placement
from companion.rules.players import check_player_names
from companion.rules.scoring import ScoredPlay, score_play
from companion.rules.tiles import BLANK, load_tileset
from companion.rules.turns import expect_player, expect_turn
from companion.rules.word_game import LastPlay, WordBoardState, WordChallenge, WordPlay, tile_count

VARIANT = "classic"
ChallengeMode = Literal["double", "single", "penalty", "void"]


class Preset(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str
    min_players: int = Field(ge=1)
    max_players: int = Field(le=4)
    challenge_mode: ChallengeMode
    challenge_points: int = Field(ge=0)
    exchange_min_bag: int = Field(ge=0)
    end_adjustment: Literal["box", "tournament"]
    scoreless_turns_per_player: int = Field(ge=1)
    clock_minutes: int | None = None
    overtime_penalty_per_minute: int = 10
    max_overtime_minutes: int | None = None


@cache
def _preset_file() -> dict[str, object]:
    raw: dict[str, object] = json.loads((ASSETS / "rules" / "scrabble_presets.json").read_text(encoding="utf-8"))
    return raw


def presets() -> dict[str, Preset]:
    raw = _preset_file()["presets"]
    assert isinstance(raw, dict)
    return {name: Preset.model_validate(p) for name, p in raw.items()}


def finish_line_target(level: str, players: int) -> int:
    """The target score of Finish Line Scrabble for a skill level and a number of players."""
    table = _preset_file()["finish_line_targets"]
    assert isinstance(table, dict)
    try:
        return int(table[level][str(players)])
    except KeyError:
        raise RulesDataError(f"no Finish Line target for level '{level}' with {players} players") from None


class Settings(BaseModel):
    """Everything chosen before the first tile: who plays, which rules, which tiles and board."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    players: list[str] = Field(min_length=1, max_length=4)
    preset: str = "box"
    variant: Literal["standard", "nine_tile", "finish_line"] = "standard"
    finish_target: int | None = Field(default=None, ge=1)
    tileset: str = "en"
    layout: str = "standard"
    lexicon: str = "ENABLE"
    # Overrides of single preset fields; None keeps the preset's value.
    challenge_mode: ChallengeMode | None = None
    challenge_points: int | None = Field(default=None, ge=0)
    clock_minutes: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _check(self) -> Settings:
        check_player_names(self.players)
        if self.variant == "finish_line" and self.finish_target is None:
            raise ValueError("Finish Line needs a target score")
        return self


class Start(StartEvent):
    settings: Settings


class Play(WordPlay):
    """Tiles placed; `rack` is the rack before the play, when known (checked letter by letter)."""


Pass = PassEvent


class Exchange(PlayerEvent):
    type: Literal["exchange"] = "exchange"
    count: int = Field(ge=1)
    tiles: str | None = None


class Challenge(WordChallenge):
    """A ruling on the latest play: `acceptable` is the word judge's verdict on the whole play (required)."""

    acceptable: bool


class EndGame(Event):
    """Closes the game: tiles left on each rack, and each player's clock (seconds used) when timed."""

    type: Literal["end_game"] = "end_game"
    racks: dict[str, str] = Field(default_factory=dict)
    time_used: dict[str, int] = Field(default_factory=dict)
    agreed: bool = Field(default=False, description="the table ended the game early by agreement")


ClassicEvent = Annotated[Start | Play | Pass | Exchange | Challenge | EndGame | Undo, Field(discriminator="type")]
_EVENT_UNION: Any = ClassicEvent  # mypy reads the Annotated union as a type[] argument; the adapter stays typed
EVENT_ADAPTER: TypeAdapter[ClassicEvent] = TypeAdapter(_EVENT_UNION)


@dataclass
class Turn:
    """One line of the scoresheet."""

    player: str
    kind: str  # play, pass, exchange, lost (challenged off), penalty bonus, adjustments
    score: int
    total: int
    notation: str = ""
    words: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class _LastPlay(LastPlay):
    """What a withdrawn play gives back: its tiles, score, the tiles drawn after it, the rack before it."""

    tiles: list[PlacedTile]
    score: int
    drawn: int
    rack_before: int
    was_scoreless_run: int
    went_out: bool


@dataclass
class ClassicState(WordBoardState):
    """The folded state of a classic game."""

    GAME_LABEL = "classic"

    settings: Settings | None = None
    rules: Preset | None = None
    scores: dict[str, int] = field(default_factory=dict)
    bag_count: int | None = None
    turns: list[Turn] = field(default_factory=list)
    scoreless_run: int = 0
    last_play: _LastPlay | None = None
    target_reached: str | None = None
    scores_before_adjustment: dict[str, int] = field(default_factory=dict)
    adjustments: dict[str, int] = field(default_factory=dict)

    # ----- derived -----
    @property
    def players(self) -> list[str]:
        return list(self.settings.players) if self.settings else []

    @property
    def current_player(self) -> str | None:
        if self.settings is None or self.finished or self.end_reason is not None:
            return None
        return self.players[self.to_move]

    @property
    def end_reason(self) -> str | None:
        """Why the game is over (waiting for `end_game` to settle racks and clocks), or None."""
        if self.settings is None:
            return None
        if self.target_reached:
            return "target_reached"
        if self.went_out:
            return "played_out"
        assert self.rules is not None
        if self.scoreless_run >= self.rules.scoreless_turns_per_player * len(self.players):
            return "scoreless_turns"
        return None

    def unseen_tiles(self) -> Counter[str] | None:
        """Tiles not on the board (in the bag or on racks), when the tile set gives counts."""
        if self.tileset is None or self.tileset.counts is None:
            return None
        unseen = self.tileset.bag()
        for placed in self.board.tiles():
            key = BLANK if placed.tile.blank else placed.tile.letter
            unseen[key] -= 1
        return +unseen

    def winner(self) -> list[str]:
        """Highest score; a tie is broken by the score before end-of-game adjustments."""
        if not self.scores:
            return []
        best = max(self.scores.values())
        tied = [p for p, s in self.scores.items() if s == best]
        if len(tied) > 1 and self.scores_before_adjustment:
            before = max(self.scores_before_adjustment[p] for p in tied)
            tied = [p for p in tied if self.scores_before_adjustment[p] == before]
        return tied

    def summary(self) -> dict[str, Any]:
        """The state as plain data (what `companion replay --json` prints)."""
        return {
            "variant": VARIANT,
            "finished": self.finished,
            "end_reason": self.end_reason,
            "players": [{"name": p, "score": self.scores[p]} for p in self.players],
            "winner": self.winner() if self.finished else None,
            "bag": self.bag_count,
            "turns": len(self.turns),
        }

    # ----- folding -----
    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Play: self._play, Pass: self._pass, Exchange: self._exchange, Challenge: self._challenge,
                EndGame: self._end}

    def _pass(self, event: Pass) -> None:
        self._expect_turn(event.player, "pass")
        self._scoreless(event.player, "pass", "-")

    def _start(self, event: Start) -> None:
        s = event.settings
        table = presets()
        if s.preset not in table:
            raise IllegalAction(f"no rule preset '{s.preset}': choose one of {', '.join(table)}")
        rules = table[s.preset]
        overrides = {k: v for k, v in (("challenge_mode", s.challenge_mode),
                                       ("challenge_points", s.challenge_points),
                                       ("clock_minutes", s.clock_minutes)) if v is not None}
        rules = rules.model_copy(update=overrides)
        if not rules.min_players <= len(s.players) <= rules.max_players:
            raise IllegalAction(f"{rules.label} are for {rules.min_players}-{rules.max_players} players")
        tileset = load_tileset(s.tileset)
        if s.variant == "nine_tile":
            tileset = tileset.with_rack_size(9, {7, 8, 9})
        self.settings, self.rules, self.tileset = s, rules, tileset
        self.layout = load_layout(s.layout)
        self.board = Board(self.layout.size)
        self.scores = {p: 0 for p in s.players}
        total = tileset.total_tiles
        if total is None:
            self.rack_counts = {p: tileset.rack_size for p in s.players}
            self.bag_count = None
        else:
            self.bag_count = total
            for p in s.players:
                drawn = min(tileset.rack_size, self.bag_count)
                self.rack_counts[p] = drawn
                self.bag_count -= drawn

    def _expect_turn(self, player: str, action: str) -> None:
        over = "record the racks left to finish it" if self.end_reason is not None else None
        expect_turn(player, action, players=self.players, current=self.current_player, over=over)

    def _advance(self) -> None:
        n = len(self.players)
        for _ in range(n):
            self.to_move = (self.to_move + 1) % n
            player = self.players[self.to_move]
            if player in self.skip_next:
                self._lose_turn(player)
                continue
            return

    def _lose_turn(self, player: str) -> None:
        """A turn lost to a failed challenge: a scoreless turn (rules text 001, "Cases for a Scoreless
        Turn: ... Players lose a challenge after disputing a word"; GCG writes it as a pass)."""
        self.skip_next.discard(player)
        self.turns.append(Turn(player, "lost turn", 0, self.scores[player], "(lost turn)"))
        self.scoreless_run += 1

    def _scoreless(self, player: str, kind: str, notation: str) -> None:
        self.turns.append(Turn(player, kind, 0, self.scores[player], notation))
        self.scoreless_run += 1
        self.last_play = None
        self._advance()

    def _exchange(self, event: Exchange) -> None:
        self._expect_turn(event.player, "exchange tiles")
        assert self.rules is not None
        if self.bag_count is not None and self.bag_count < self.rules.exchange_min_bag:
            raise IllegalAction(
                f"an exchange needs at least {tile_count(self.rules.exchange_min_bag)} in the bag; "
                f"{self.bag_count} {'is' if self.bag_count == 1 else 'are'} left"
            )
        if event.count > self.rack_counts[event.player]:
            raise IllegalAction(f"{event.player} has only {tile_count(self.rack_counts[event.player])} to exchange")
        if self.bag_count is not None and event.count > self.bag_count:
            # Rules text 001: "only if that number of tiles is still available in the tile pool" (a
            # 9-tile rack can hold more tiles than the 7 the bag must keep).
            raise IllegalAction(f"the bag holds only {tile_count(self.bag_count)}: exchange at most {self.bag_count}")
        if event.tiles is not None and len(event.tiles) != event.count:
            raise IllegalAction(f"the exchanged tiles {event.tiles} are not {event.count} tiles")
        self._scoreless(event.player, "exchange", f"-{event.tiles or event.count}")

    def _play(self, event: Play) -> None:
        self._expect_turn(event.player, "play")
        assert self.layout is not None and self.tileset is not None
        tiles = parse_play(event.position, event.word, self.board)
        validate_placement(self.board, tiles, self.layout, self.tileset, rack=event.rack)
        player = event.player
        if len(tiles) > self.rack_counts[player]:
            raise IllegalAction(f"{player} has only {tile_count(self.rack_counts[player])}, not {len(tiles)}")
        scored: ScoredPlay = score_play(self.board, tiles, self.layout, self.tileset)
        position: Position = scored.words[0].position if scored.words else Position(tiles[0].square, scored.direction)
        notation = format_play(position, tiles, self.board)
        self.board.push(tiles)
        rack_before = self.rack_counts[player]
        drawn = len(tiles) if self.bag_count is None else min(len(tiles), self.bag_count)
        if self.bag_count is not None:
            self.bag_count -= drawn
        self.rack_counts[player] = rack_before - len(tiles) + drawn
        self.scores[player] += scored.total
        went_out = self.bag_count == 0 and self.rack_counts[player] == 0
        self.last_play = _LastPlay(player=player, tiles=tiles, score=scored.total, turn_index=len(self.turns),
                                   drawn=drawn, rack_before=rack_before, was_scoreless_run=self.scoreless_run,
                                   went_out=went_out)
        self.turns.append(Turn(player, "play", scored.total, self.scores[player], notation,
                               [w.text for w in scored.words]))
        self.scoreless_run = 0 if scored.total > 0 else self.scoreless_run + 1
        if went_out:
            self.went_out = player
        settings = self.settings
        assert settings is not None
        if settings.finish_target is not None and settings.variant == "finish_line" \
                and self.scores[player] >= settings.finish_target:
            self.target_reached = player
        self._advance()

    def _challenge(self, event: Challenge) -> None:
        last = self.last_play
        if last is None or last.challenged:
            raise IllegalAction("there is no play to challenge: a challenge must come before the next turn")
        expect_player(event.challenger, self.players)
        if event.challenger == last.player:
            raise IllegalAction(f"{last.player} cannot challenge their own play")
        assert self.rules is not None
        mode = self.rules.challenge_mode
        last.challenged = True
        if event.acceptable:
            if mode == "double":
                self.skip_next.add(event.challenger)
                # The challenger's lost turn may be the very next one: skip it now.
                if self.current_player == event.challenger:
                    self._lose_turn(event.challenger)
                    self._advance()
            elif mode == "penalty":
                words = max(1, len(event.words))
                bonus = self.rules.challenge_points * words
                self.scores[last.player] += bonus
                self.turns.append(Turn(last.player, "challenge bonus", bonus, self.scores[last.player],
                                       "(challenge)"))
            return
        # Unacceptable: the tiles go back to the rack, the play scores nothing.
        self.board.pop(last.tiles)
        self.scores[last.player] -= last.score
        if self.bag_count is not None:
            self.bag_count += last.drawn
        self.rack_counts[last.player] = last.rack_before
        turn = self.turns[last.turn_index]
        self.turns[last.turn_index] = Turn(turn.player, "phony withdrawn", 0, self.scores[last.player],
                                           turn.notation + " (withdrawn)", turn.words)
        for later in self.turns[last.turn_index + 1:]:
            if later.player == last.player:
                later.total -= last.score
        # The withdrawn play is a scoreless turn, and so is every turn lost since it (a lost turn counts).
        lost_since = sum(1 for t in self.turns[last.turn_index + 1:] if t.kind == "lost turn")
        self.scoreless_run = last.was_scoreless_run + 1 + lost_since
        if self.went_out == last.player:
            self.went_out = None
        if self.target_reached == last.player:
            self.target_reached = None
        if mode == "void":
            # The play never counted: the same player tries again.
            self.to_move = self.players.index(last.player)
            self.scoreless_run = last.was_scoreless_run + lost_since
            self.turns.pop(last.turn_index)

    def _end(self, event: EndGame) -> None:
        reason = self.end_reason
        if reason is None and not event.agreed:
            if self.bag_count == 0:
                raise IllegalAction("the game is not over: nobody has gone out and the scoreless turns have not "
                                    "ended it; end it by agreement or play on")
            raise IllegalAction("the game is not over: the bag is not empty and nobody has gone out")
        assert self.tileset is not None and self.rules is not None
        for name in [*event.racks, *event.time_used]:
            expect_player(name, self.players)
        rack_values = {}
        for p in self.players:
            letters = event.racks.get(p, "").upper().replace(" ", "")
            if any(ch != BLANK and not self.tileset.has_letter(ch) for ch in letters):
                raise IllegalAction(f"{p}'s rack '{letters}' has tiles the {self.tileset.name} set does not have")
            if p == self.went_out and letters:
                raise IllegalAction(f"{p} went out and has no tiles left")
            rack_values[p] = self.tileset.rack_value(letters)
        self.scores_before_adjustment = dict(self.scores)
        adjustments = {p: 0 for p in self.players}
        if reason == "played_out" and self.went_out:
            others = sum(v for p, v in rack_values.items() if p != self.went_out)
            if self.rules.end_adjustment == "tournament":
                adjustments[self.went_out] += 2 * others
            else:
                adjustments[self.went_out] += others
                for p in self.players:
                    if p != self.went_out:
                        adjustments[p] -= rack_values[p]
        elif reason != "target_reached":
            for p in self.players:
                adjustments[p] -= rack_values[p]
        if self.rules.clock_minutes is not None:
            allowed = self.rules.clock_minutes * 60
            for p, used in event.time_used.items():
                over = max(0, used - allowed)
                adjustments[p] -= self.rules.overtime_penalty_per_minute * math.ceil(over / 60)
        for p, delta in adjustments.items():
            if delta:
                self.scores[p] += delta
                self.turns.append(Turn(p, "end of game", delta, self.scores[p], f"({event.racks.get(p, '')})"))
        self.adjustments = adjustments
        self.finished = True
        self.last_play = None


def new_state() -> ClassicState:
    return ClassicState()


def format_summary(s: dict[str, Any]) -> str:
    """`summary()` as the plain text `companion replay` prints."""
    lines = ["Classic Scrabble, " + (f"game over ({s['end_reason'] or 'settled'})" if s["finished"] else "in progress")]
    lines += [f"{p['name']:<10} {p['score']:>5}" for p in s["players"]]
    if s["winner"]:
        lines.append("Winner: " + " and ".join(s["winner"]))
    return "\n".join(lines)
