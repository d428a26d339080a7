"""Monopoly Scrabble for the UI: uses `companion.rules.monopoly` when it exists, else this stand-in.

STAND-IN NOTICE: the real engine and bank (`companion/rules/monopoly*.py`, profile
`assets/profiles/monopoly_scrabble.json`) are being written by the monopoly helper. Until they land
the UI plays against the small engine below, with the same shape (events folded by `GameLog`, so
undo and the audit trail work). It follows the rules text (rules-text/000): score moves the token,
GO pays M2,000, rent to owners, Free Parking pot (seeded M500), jail fee M100, Bank tiles M100,
blank swap M500, bingo takes a Property Card (or M1,000), first word doubled, M100 per unplayed tile.
Values the sources do not give (track layout, rents, card values, grid property squares) come from
a profile the table edits; the defaults below are placeholders.

`new_monopoly(players, banker)` returns a `TableGame` either way.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from companion.events import Event, GameLog, Undo, dump_events
from companion.rules.board import ASSETS, Board, Layout, PlacedTile, Position, Square, Tile, load_layout
from companion.rules.errors import IllegalAction
from companion.rules.notation import format_play, parse_play
from companion.rules.placement import validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import TileSet, load_tileset
from companion.ui.table import PlayCheck, PlayerInfo, TableError, TableGame, _message

GROUPS = ["brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue", "railroads", "utilities"]
GROUP_LABEL = {g: g.replace("_", " ").title() for g in GROUPS}


class Space(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["go", "property", "chance", "community_chest", "jail", "free_parking", "go_to_jail", "plain"]
    name: str
    group: str | None = None


class PropertyCard(BaseModel):
    model_config = ConfigDict(extra="forbid")
    group: str
    rent: int
    value: int
    squares: list[str] = Field(default_factory=list, description="grid squares that capture this card")


class Profile(BaseModel):
    """What the box decides: the track, the Property Cards and their grid squares, the money rules."""

    model_config = ConfigDict(extra="forbid")
    name: str = "default (edit to match your box)"
    track: list[Space]
    properties: list[PropertyCard]
    starting_cash: int = 1000
    free_parking_seed: int = 500
    go_salary: int = 2000
    jail_fee: int = 100
    tile_price: int = 100
    blank_swap_fee: int = 500
    bingo_cash: int = 1000
    unused_tile_fee: int = 100
    first_word_multiplier: int = 2


def default_profile() -> Profile:
    path = ASSETS / "profiles" / "monopoly_scrabble.json"
    if path.is_file():
        try:
            return Profile.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except Exception:
            pass  # a profile in another shape (the real engine reads it); use the defaults here
    special = {0: ("go", "GO"), 10: ("jail", "Jail"), 20: ("free_parking", "Free Parking"),
               30: ("go_to_jail", "Go to Jail"), 2: ("community_chest", "Community Chest"),
               17: ("community_chest", "Community Chest"), 33: ("community_chest", "Community Chest"),
               7: ("chance", "Chance"), 22: ("chance", "Chance"), 36: ("chance", "Chance")}
    group_at = {1: "brown", 3: "brown", 5: "railroads", 6: "light_blue", 8: "light_blue", 9: "light_blue",
                11: "pink", 12: "utilities", 13: "pink", 14: "pink", 15: "railroads", 16: "orange",
                18: "orange", 19: "orange", 21: "red", 23: "red", 24: "red", 25: "railroads", 26: "yellow",
                27: "yellow", 28: "utilities", 29: "yellow", 31: "green", 32: "green", 34: "green",
                35: "railroads", 37: "dark_blue", 39: "dark_blue"}
    track = []
    for i in range(40):
        if i in special:
            t, n = special[i]
            track.append(Space(type=t, name=n))  # type: ignore[arg-type]
        elif i in group_at:
            track.append(Space(type="property", name=GROUP_LABEL[group_at[i]], group=group_at[i]))
        else:
            track.append(Space(type="plain", name="Tax"))
    squares = {"brown": "C3", "light_blue": "M3", "pink": "C13", "orange": "M13", "red": "H5",
               "yellow": "H11", "green": "E8", "dark_blue": "K8", "railroads": "F6", "utilities": "J10"}
    rents = [100, 200, 300, 600, 400, 500, 700, 800, 250, 150]
    props = [PropertyCard(group=g, rent=r, value=r * 4, squares=[squares[g]]) for g, r in zip(GROUPS, rents)]
    return Profile(track=track, properties=props)


# ============================================================================ events


class MStart(Event):
    type: Literal["m_start"] = "m_start"
    players: list[str]
    banker: str
    profile: Profile


class MPlay(Event):
    type: Literal["m_play"] = "m_play"
    player: str
    position: str
    word: str


class MPass(Event):
    type: Literal["m_pass"] = "m_pass"
    player: str


class MEndTurn(Event):
    type: Literal["m_end_turn"] = "m_end_turn"
    player: str


class MBuyTiles(Event):
    type: Literal["m_buy_tiles"] = "m_buy_tiles"
    player: str
    count: int = Field(ge=1, le=7)


class MJailFee(Event):
    type: Literal["m_jail_fee"] = "m_jail_fee"
    player: str


class MCard(Event):
    """A Chance / Community Chest card the table read out, applied with one tap."""

    type: Literal["m_card"] = "m_card"
    player: str
    effect: Literal["collect", "pay", "go_to_jail", "take_property", "move_to"]
    amount: int = 0
    group: str | None = None
    space: int | None = None


class MBingoChoice(Event):
    type: Literal["m_bingo_choice"] = "m_bingo_choice"
    player: str
    group: str | None = None


class MBlankSwap(Event):
    type: Literal["m_blank_swap"] = "m_blank_swap"
    player: str
    square: str
    from_bank: bool = False


class MSell(Event):
    type: Literal["m_sell"] = "m_sell"
    player: str
    group: str


class MChallenge(Event):
    type: Literal["m_challenge"] = "m_challenge"
    challenger: str
    acceptable: bool
    lexicon: str = ""
    words: list[str] = Field(default_factory=list)


class MEndGame(Event):
    type: Literal["m_end_game"] = "m_end_game"
    tiles_left: dict[str, int] = Field(default_factory=dict)
    agreed: bool = False


MEvent = Annotated[MStart | MPlay | MPass | MEndTurn | MBuyTiles | MJailFee | MCard | MBingoChoice | MBlankSwap
                   | MSell | MChallenge | MEndGame | Undo, Field(discriminator="type")]
M_ADAPTER: TypeAdapter[Any] = TypeAdapter(MEvent)


@dataclass
class Txn:
    text: str
    player: str | None = None
    amount: int = 0


@dataclass
class MonoState:
    profile: Profile | None = None
    players: list[str] = field(default_factory=list)
    banker: str = ""
    layout: Layout | None = None
    tileset: TileSet | None = None
    board: Board = field(default_factory=Board)
    scores: dict[str, int] = field(default_factory=dict)
    cash: dict[str, int] = field(default_factory=dict)
    position: dict[str, int] = field(default_factory=dict)
    owner: dict[str, str | None] = field(default_factory=dict)
    free_parking: int = 0
    bag: int = 0
    racks: dict[str, int] = field(default_factory=dict)
    bank_rack: int = 7
    to_move: int = 0
    stage: str = "word"  # jail, word, resolve, finished
    jailed: set[str] = field(default_factory=set)
    skip_next: set[str] = field(default_factory=set)
    eliminated: set[str] = field(default_factory=set)
    bought: int = 0
    pending: list[str] = field(default_factory=list)  # "card", "bingo"
    steps: list[str] = field(default_factory=list)  # what this turn did, in order
    txns: list[Txn] = field(default_factory=list)
    history: list[dict[str, int]] = field(default_factory=list)
    last_words: list[str] = field(default_factory=list)
    last_player: str | None = None
    before_play: Any = None
    challenged: bool = False
    went_out: str | None = None
    finished: bool = False
    scoreless: int = 0

    # ----- derived
    @property
    def current(self) -> str | None:
        if self.finished or not self.players:
            return None
        return self.players[self.to_move]

    def prop(self, group: str) -> PropertyCard:
        assert self.profile is not None
        for p in self.profile.properties:
            if p.group == group:
                return p
        raise IllegalAction(f"there is no {GROUP_LABEL.get(group, group)} Property Card")

    def wealth(self) -> dict[str, int]:
        out = dict(self.cash)
        for g, o in self.owner.items():
            if o:
                out[o] += self.prop(g).value
        return out

    def property_squares(self) -> dict[tuple[int, int], str]:
        assert self.profile is not None
        out = {}
        for p in self.profile.properties:
            for name in p.squares:
                col = "ABCDEFGHIJKLMNO".index(name[0].upper())
                out[(int(name[1:]) - 1, col)] = p.group
        return out

    # ----- money
    def _pay(self, player: str | None, to: str | None, amount: int, why: str) -> None:
        """Money from player (None = Bank) to `to` (None = Bank, 'FP' = Free Parking)."""
        if amount <= 0:
            return
        if player is not None:
            self.cash[player] -= amount
        if to == "FP":
            self.free_parking += amount
        elif to is not None:
            self.cash[to] += amount
        src = player or "Bank"
        dst = {"FP": "Free Parking", None: "Bank"}.get(to, to)
        self.txns.append(Txn(f"{src} pays M{amount:,} to {dst}: {why}", player, -amount))

    # ----- fold
    def apply(self, e: Event) -> None:
        if isinstance(e, MStart):
            self._start(e)
            return
        if self.profile is None:
            raise IllegalAction("the game has not started")
        if self.finished:
            raise IllegalAction("the game is over")
        handler = getattr(self, "_" + e.type[2:], None)
        if handler is None:
            raise IllegalAction(f"a Monopoly Scrabble game has no '{e.type}' event")
        handler(e)

    def _start(self, e: MStart) -> None:
        if self.profile is not None:
            raise IllegalAction("the game has already started")
        if not 2 <= len(e.players) <= 4:
            raise IllegalAction("Monopoly Scrabble is for 2-4 players")
        if e.banker not in e.players:
            raise IllegalAction("the Banker must be one of the players")
        p = e.profile
        self.profile, self.players, self.banker = p, list(e.players), e.banker
        self.layout = load_layout("standard")
        self.tileset = load_tileset("en")
        self.board = Board(self.layout.size)
        self.scores = {n: 0 for n in e.players}
        self.cash = {n: p.starting_cash for n in e.players}
        self.position = {n: 0 for n in e.players}
        self.owner = {c.group: None for c in p.properties}
        self.free_parking = p.free_parking_seed
        self.racks = {n: 7 for n in e.players}
        self.bag = (self.tileset.total_tiles or 100) - 7 * len(e.players) - 7
        self.txns.append(Txn(f"Game starts: M{p.starting_cash:,} each, Free Parking M{p.free_parking_seed:,}"))
        self.history.append(self.wealth())

    def _expect(self, player: str, stages: tuple[str, ...]) -> None:
        if player not in self.cash:
            raise IllegalAction(f"{player} is not playing in this game")
        if player != self.current:
            raise IllegalAction(f"it is {self.current}'s turn, not {player}'s")
        if self.stage not in stages:
            need = {"jail": f"{player} is in Jail: pay the M100 fee first",
                    "resolve": "finish this turn first (card, bingo choice), then Next player",
                    "word": "the word for this turn is already recorded: tap Next player"}
            raise IllegalAction(need.get(self.stage, "not now"))

    def check(self, position: str, word: str) -> tuple[list[PlacedTile], Any, int]:
        assert self.layout is not None and self.tileset is not None and self.profile is not None
        tiles = parse_play(position, word, self.board)
        validate_placement(self.board, tiles, self.layout, self.tileset)
        scored = score_play(self.board, tiles, self.layout, self.tileset)
        total = scored.total - scored.bingo_bonus
        if self.board.is_empty():
            total *= self.profile.first_word_multiplier
        return tiles, scored, total

    def _play(self, e: MPlay) -> None:
        self._expect(e.player, ("word",))
        assert self.profile is not None
        tiles, scored, total = self.check(e.position, e.word)
        own = len(tiles) - self.bought
        if own > self.racks[e.player]:
            raise IllegalAction(f"{e.player} has only {self.racks[e.player]} tiles (and bought {self.bought})")
        if own < 1:
            raise IllegalAction("a word must use at least one tile from the player's own rack")
        snapshot = copy.deepcopy(self)
        snapshot.before_play = None
        self.before_play = snapshot
        self.challenged = False
        first = self.board.is_empty()
        position = scored.words[0].position if scored.words else Position(tiles[0].square, scored.direction)
        notation = format_play(position, tiles, self.board)
        self.board.push(tiles)
        self.scores[e.player] += total
        self.scoreless = 0
        self.last_player = e.player
        self.last_words = [w.text for w in scored.words]
        p = self.profile
        self.steps = [f"Score: {', '.join(f'{w.text} {w.score}' for w in scored.words)}"
                      + (" x2 (first word)" if first else "") + f" = {total}"]
        self.txns.append(Txn(f"{e.player} plays {notation} for {total}", e.player, 0))
        # token movement
        n = len(p.track)
        start = self.position[e.player]
        end = (start + total) % n
        laps = (start + total) // n
        self.position[e.player] = end
        space = p.track[end]
        self.steps.append(f"Token: {total} spaces, to {end} ({space.name})")
        if laps:
            self._pay(None, e.player, p.go_salary * laps, "passing GO")
            self.steps.append(f"Passed GO: collect M{p.go_salary * laps:,}")
        # landing effect
        self._land(e.player, space)
        # property capture: grid squares newly covered
        squares = self.property_squares()
        for t in tiles:
            g = squares.get((t.square.row, t.square.col))
            if g:
                prev = self.owner.get(g)
                if prev != e.player:
                    self.owner[g] = e.player
                    where = f" from {prev}" if prev else ""
                    self.steps.append(f"Property: {GROUP_LABEL[g]} card captured{where} (covered {t.square})")
                    self.txns.append(Txn(f"{e.player} takes the {GROUP_LABEL[g]} card{where}", e.player))
        # bingo: all seven rack tiles
        if own >= 7:
            free = [g for g, o in self.owner.items() if o is None or o == e.player]
            free = [g for g, o in self.owner.items() if o is None]
            if free:
                self.pending.append("bingo")
                self.steps.append("Bingo: choose a Property Card not owned by another player")
            else:
                self._pay(None, e.player, p.bingo_cash, "bingo, no Property Card left")
                self.steps.append(f"Bingo: no card left, collect M{p.bingo_cash:,}")
        # refills: the Bank rack first, then the player
        bank_draw = min(self.bought, self.bag)
        self.bag -= bank_draw
        self.bank_rack = self.bank_rack - self.bought + bank_draw
        draw = min(own, self.bag)
        self.bag -= draw
        self.racks[e.player] = self.racks[e.player] - own + draw
        refill = []
        if self.bought:
            refill.append(f"Banker refills the Bank rack with {bank_draw}")
        refill.append(f"{e.player} draws {draw}" + (" (bag empty)" if self.bag == 0 else ""))
        self.steps.append("Refill: " + "; ".join(refill))
        self.bought = 0
        if self.bag == 0 and self.racks[e.player] == 0:
            self.went_out = e.player
        self.stage = "resolve"
        self.history.append(self.wealth())

    def _land(self, player: str, space: Space) -> None:
        assert self.profile is not None
        p = self.profile
        if space.type == "property" and space.group:
            owner = self.owner.get(space.group)
            if owner and owner != player:
                rent = self.prop(space.group).rent
                self._pay(player, owner, rent, f"rent on {space.name}")
                self.steps.append(f"Landing: rent M{rent:,} to {owner}")
            else:
                self.steps.append("Landing: " + ("own property, nothing to pay" if owner else
                                                 "unowned property, nothing happens"))
        elif space.type == "free_parking":
            pot = self.free_parking
            self.free_parking = 0
            self.cash[player] += pot
            self.txns.append(Txn(f"{player} collects the Free Parking pot M{pot:,}", player, pot))
            self.free_parking = p.free_parking_seed
            self.steps.append(f"Landing: Free Parking, collect M{pot:,} (Banker reseeds M{p.free_parking_seed:,})")
        elif space.type == "go_to_jail":
            self.jailed.add(player)
            self.position[player] = next((i for i, s in enumerate(p.track) if s.type == "jail"), 0)
            self.steps.append(f"Landing: Go to Jail (pay M{p.jail_fee} next turn)")
        elif space.type in ("chance", "community_chest"):
            self.pending.append("card")
            self.steps.append(f"Landing: {space.name}: draw a card, then tap its effect in the Bank")
        else:
            self.steps.append(f"Landing: {space.name}, nothing to do")

    def _pass(self, e: MPass) -> None:
        self._expect(e.player, ("word",))
        self.bought = 0
        self.steps = [f"{e.player} passes"]
        self.txns.append(Txn(f"{e.player} passes", e.player))
        self.scoreless += 1
        self.before_play = None
        self.last_words = []
        self._advance()

    def _end_turn(self, e: MEndTurn) -> None:
        self._expect(e.player, ("resolve",))
        if self.pending:
            what = {"card": "tap the card's effect", "bingo": "choose the bingo Property Card"}[self.pending[0]]
            raise IllegalAction(f"finish the turn first: {what}")
        if any(c < 0 for c in self.cash.values()):
            who = ", ".join(p for p, c in self.cash.items() if c < 0)
            raise IllegalAction(f"{who} owes money: sell Property Cards in the Bank first")
        self._advance()

    def _advance(self) -> None:
        n = len(self.players)
        self.stage = "word"
        self.steps = []
        for _ in range(n):
            self.to_move = (self.to_move + 1) % n
            p = self.players[self.to_move]
            if p in self.eliminated:
                continue
            if p in self.skip_next:
                self.skip_next.discard(p)
                self.txns.append(Txn(f"{p} loses this turn (lost challenge)", p))
                continue
            break
        current = self.players[self.to_move]
        if current in self.jailed:
            self.stage = "jail"

    def _buy_tiles(self, e: MBuyTiles) -> None:
        self._expect(e.player, ("word",))
        assert self.profile is not None
        if self.bought + e.count > self.bank_rack:
            raise IllegalAction(f"the Bank rack has only {self.bank_rack - self.bought} tiles left to buy")
        self.bought += e.count
        self._pay(e.player, "FP", self.profile.tile_price * e.count, f"{e.count} tile(s) from the Bank rack")

    def _jail_fee(self, e: MJailFee) -> None:
        self._expect(e.player, ("jail",))
        assert self.profile is not None
        self._pay(e.player, "FP", self.profile.jail_fee, "leaving Jail")
        self.jailed.discard(e.player)
        self.stage = "word"

    def _card(self, e: MCard) -> None:
        self._expect(e.player, ("resolve",))
        if "card" not in self.pending:
            raise IllegalAction("no card is waiting: cards are drawn on Chance and Community Chest")
        self.pending.remove("card")
        assert self.profile is not None
        if e.effect == "collect":
            self._pay(None, e.player, e.amount, "card")
        elif e.effect == "pay":
            self._pay(e.player, "FP", e.amount, "card")
        elif e.effect == "go_to_jail":
            self.jailed.add(e.player)
            self.position[e.player] = next((i for i, s in enumerate(self.profile.track) if s.type == "jail"), 0)
        elif e.effect == "take_property":
            if e.group not in self.owner:
                raise IllegalAction("say which Property Card the card gives")
            prev = self.owner[e.group]
            self.owner[e.group] = e.player
            self.txns.append(Txn(f"{e.player} takes the {GROUP_LABEL[e.group]} card by a card"
                                 + (f" from {prev}" if prev else ""), e.player))
        self.steps.append(f"Card: {e.effect.replace('_', ' ')}" + (f" M{e.amount:,}" if e.amount else ""))
        self.history[-1] = self.wealth()

    def _bingo_choice(self, e: MBingoChoice) -> None:
        self._expect(e.player, ("resolve",))
        if "bingo" not in self.pending:
            raise IllegalAction("there is no bingo reward waiting")
        if e.group is None or self.owner.get(e.group, "x") is not None:
            raise IllegalAction("choose a Property Card that nobody owns")
        self.pending.remove("bingo")
        self.owner[e.group] = e.player
        self.txns.append(Txn(f"{e.player} takes the {GROUP_LABEL[e.group]} card (bingo)", e.player))
        self.steps.append(f"Bingo: took the {GROUP_LABEL[e.group]} card")
        self.history[-1] = self.wealth()

    def _blank_swap(self, e: MBlankSwap) -> None:
        self._expect(e.player, ("word",))
        assert self.profile is not None
        col = "ABCDEFGHIJKLMNO".index(e.square[0].upper())
        sq = Square(int(e.square[1:]) - 1, col)
        tile = self.board.get(sq)
        if tile is None or not tile.blank:
            raise IllegalAction(f"there is no blank on {e.square}")
        self.board.remove(sq)
        self.board.place(sq, Tile(tile.letter))
        fee = self.profile.blank_swap_fee
        if e.from_bank:
            self._pay(e.player, "FP", self.profile.tile_price, f"the {tile.letter} from the Bank rack")
        self._pay(e.player, "FP", fee, f"swapping the blank on {e.square} for {tile.letter}")

    def _sell(self, e: MSell) -> None:
        if self.owner.get(e.group) != e.player:
            raise IllegalAction(f"{e.player} does not own the {GROUP_LABEL.get(e.group, e.group)} card")
        value = self.prop(e.group).value // 2
        self.owner[e.group] = None
        self._pay(None, e.player, value, f"sold the {GROUP_LABEL[e.group]} card to the Bank (half value)")
        if self.cash[e.player] < 0 and not any(o == e.player for o in self.owner.values()):
            self.eliminated.add(e.player)

    def _challenge(self, e: MChallenge) -> None:
        if self.before_play is None or self.challenged or self.last_player is None:
            raise IllegalAction("there is no play to challenge: a challenge must come before the next turn")
        if e.challenger == self.last_player:
            raise IllegalAction(f"{self.last_player} cannot challenge their own play")
        if e.acceptable:
            self.challenged = True
            self.skip_next.add(e.challenger)
            self.txns.append(Txn(f"Challenge by {e.challenger} fails: {e.challenger} loses their next turn"))
            return
        player = self.last_player
        was_current = self.current
        restored: MonoState = self.before_play
        self.__dict__.update(copy.deepcopy(restored).__dict__)
        self.txns.append(Txn(f"Challenge by {e.challenger} succeeds: {player} takes the tiles back "
                             "and loses the turn", player))
        self.challenged = True
        self.last_player = None
        # the player loses the turn: the play never happened, play passes on
        self.to_move = self.players.index(player)
        self._advance()
        del was_current

    def _end_game(self, e: MEndGame) -> None:
        assert self.profile is not None
        fee = self.profile.unused_tile_fee
        if not e.agreed and self.bag > 0 and self.went_out is None:
            raise IllegalAction("the game is not over: tiles are left in the bag")
        for p, n in e.tiles_left.items():
            if p not in self.cash:
                raise IllegalAction(f"{p} is not playing in this game")
            if n < 0 or n > 7:
                raise IllegalAction(f"{p} cannot have {n} tiles left")
            if n:
                self._pay(p, self.went_out if self.went_out else None, fee * n, f"{n} unplayed tile(s)")
        self.finished = True
        self.stage = "finished"
        self.history.append(self.wealth())


def _new() -> MonoState:
    return MonoState()


class MonopolyEngine:
    """The stand-in engine with the interface TableGame expects."""

    variant = "monopoly"

    def __init__(self, players: list[str], banker: str, profile: Profile | None = None) -> None:
        self.log: GameLog[MonoState] = GameLog(_new)
        self.log.push(MStart(players=players, banker=banker, profile=profile or default_profile()))

    @property
    def state(self) -> MonoState:
        return self.log.state

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def layout(self) -> Layout:
        assert self.state.layout is not None
        return self.state.layout

    @property
    def players(self) -> list[str]:
        return self.state.players

    @property
    def current_player(self) -> str | None:
        return self.state.current

    def scores(self) -> dict[str, int]:
        return dict(self.state.scores)

    def turn_stage(self) -> str:
        return self.state.stage

    def check(self, position: str, word: str) -> PlayCheck:
        try:
            tiles, scored, total = self.state.check(position, word)
        except (IllegalAction, ValueError, Exception) as exc:
            if not isinstance(exc, (IllegalAction, ValueError)) and not exc.__class__.__name__.startswith("Illegal"):
                raise
            return PlayCheck(False, position, word, error=_message(exc))
        first = self.state.board.is_empty()
        words = [(w.text, w.score) for w in scored.words]
        return PlayCheck(True, position.upper(), word, words, total,
                         bonus=total // 2 if first else 0, bonus_label="first word doubled",
                         new_squares=[(t.square.row, t.square.col) for t in tiles])

    def play(self, position: str, word: str) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self.log.push(MPlay(player=p, position=position, word=word))

    def pass_turn(self) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self.log.push(MPass(player=p))

    def last_play_words(self) -> tuple[str, list[str]] | None:
        st = self.state
        if st.before_play is None or st.challenged or st.last_player is None:
            return None
        return st.last_player, list(st.last_words)

    def challenge(self, challenger: str, verdict: Any) -> None:
        self.log.push(MChallenge(challenger=challenger, acceptable=verdict.acceptable, lexicon=verdict.lexicon,
                                 words=list(verdict.words)))

    def end_game(self, tiles_left: dict[str, int], agreed: bool) -> None:
        self.log.push(MEndGame(tiles_left=tiles_left, agreed=agreed))

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def end_reason(self) -> str | None:
        st = self.state
        return "played_out" if st.went_out else None

    def winner(self) -> list[str]:
        w = self.state.wealth()
        best = max(w.values())
        return [p for p, v in w.items() if v == best]

    def history(self) -> list[dict[str, int]]:
        return list(self.state.history)

    def events_json(self) -> str:
        return dump_events(self.log.events, self.variant)


class MonopolyTable(TableGame):
    """TableGame plus the bank's one-tap actions (each an engine event)."""

    engine: MonopolyEngine

    def _push(self, event: Event) -> None:
        self._do(self.engine.log.push, event)

    @property
    def mstate(self) -> MonoState:
        return self.engine.state

    def cash(self) -> dict[str, int]:
        return dict(self.mstate.cash)

    def wealth(self) -> dict[str, int]:
        return self.mstate.wealth()

    def property_squares(self) -> dict[tuple[int, int], str]:
        return self.mstate.property_squares()

    def end_turn(self) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self._push(MEndTurn(player=p))

    def buy_tiles(self, count: int) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self._push(MBuyTiles(player=p, count=count))

    def pay_jail(self) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self._push(MJailFee(player=p))

    def card(self, effect: str, amount: int = 0, group: str | None = None) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self._push(MCard(player=p, effect=effect, amount=amount, group=group))  # type: ignore[arg-type]

    def bingo_choice(self, group: str) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self._push(MBingoChoice(player=p, group=group))

    def blank_swap(self, square: str, from_bank: bool = False) -> None:
        p = self.current_player
        if p is None:
            raise TableError("The game is over.")
        self._push(MBlankSwap(player=p, square=square.strip().upper(), from_bank=from_bank))

    def sell(self, player: str, group: str) -> None:
        self._push(MSell(player=player, group=group))

    def end_game(self, racks: dict[str, str], agreed: bool = False) -> None:
        left = {}
        for p, text in racks.items():
            text = text.strip()
            if not text:
                continue
            if text.isdigit():
                left[p] = int(text)
            else:
                left[p] = len(text.replace(" ", ""))
        self._do(self.engine.end_game, left, agreed)

    def follow_lines(self) -> list[str]:
        st = self.mstate
        lines = [f"Free Parking: M{st.free_parking:,}. Bag: {st.bag} tiles. Bank rack: {st.bank_rack} tiles."]
        owned = [f"{GROUP_LABEL[g]}: {o}" for g, o in st.owner.items() if o]
        if owned:
            lines.append("Properties: " + ", ".join(owned))
        if st.steps:
            lines.append(" / ".join(st.steps))
        return lines


def new_monopoly(players: list[PlayerInfo], banker: str) -> TableGame:
    names = [p.name.strip() for p in players]
    if len(set(n.lower() for n in names)) != len(names):
        raise TableError("Two players have the same name.")
    real = _real_engine()
    if real is not None:
        try:
            return real(players, banker)  # type: ignore[no-any-return]
        except Exception:
            pass
    try:
        engine = MonopolyEngine(names, banker)
    except (IllegalAction, ValueError) as exc:
        raise TableError(_message(exc)) from None
    return MonopolyTable("monopoly", [PlayerInfo(n, p.colour) for n, p in zip(names, players)], engine,
                         banker=banker)


def _real_engine() -> Any:
    """Hook for `companion.rules.monopoly` once it exists and offers a UI factory."""
    try:
        import importlib

        mod = importlib.import_module("companion.rules.monopoly")
    except Exception:
        return None
    return getattr(mod, "table_game_factory", None)
