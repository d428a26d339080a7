"""Monopoly Scrabble's folded state: the state with its derived views (`pending`, `next_step`, `wealth`,
`summary`...) and the handler of each event (the package docstring describes the rules).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.events import Event
from companion.games.monopoly_scrabble.profile import Profile, load_profile, validate_profile
from companion.games.monopoly_scrabble.rules.events import (
    BANK,
    POT,
    VARIANT,
    BingoChoice,
    Card,
    CardEffectKind,
    Challenge,
    EndGame,
    JailFee,
    Pass,
    Play,
    ReplaceBlank,
    Sell,
    Settings,
    Start,
)
from companion.games.monopoly_scrabble.rules.records import CardTransfer, Step, TurnRecord
from companion.rules.board import Board, Position, Square, Tile, parse_square
from companion.rules.errors import IllegalAction, RulesDataError
from companion.rules.ledger import Transaction, transfer
from companion.rules.notation import format_play, parse_play
from companion.rules.placement import rack_letters_used, validate_placement
from companion.rules.scoring import score_play
from companion.rules.state_copy import copy_state
from companion.rules.tiles import BLANK, TileSet, load_tileset
from companion.rules.turns import expect_player, expect_turn
from companion.rules.word_game import LastPlay, WordBoardState, tile_count

Judge = Callable[[list[str]], bool]
ELIMINATED = "has been eliminated"  # how a player who could not pay a debt left the game, in a sentence

# What a refused step event was, in a sentence ("the game is not waiting for a jail fee now: ...").
STEP_WORDS = {"jail_fee": "a jail fee", "bingo_choice": "a bingo's Property Card", "card": "a card",
              "debt": "a sale to pay a debt"}



# Fields restored when a challenged play is withdrawn (everything the play could change).
_SNAPSHOT_FIELDS = ("board", "cash", "ledger", "owners", "card_transfers", "positions", "in_jail", "rack_counts",
                    "bag_count", "bank_rack_count", "bank_rack", "eliminated", "queue", "acted", "bank_taken",
                    "went_out", "to_move", "skip_next", "passes")
# Fields shared between copies: immutable rules data and the judge.
_SHARED_FIELDS = ("settings", "profile", "layout", "tileset", "judge", "square_groups")


def _fresh(value: Any) -> Any:
    """A copy deep enough for the state's fields: boards and containers of immutable values."""
    if isinstance(value, Board):
        return value.copy()
    if isinstance(value, (list, dict, set)):
        return copy.copy(value)
    return value


def _copy_field(name: str, value: Any) -> Any:
    """One field of a state's copy: the immutable rules data and the frozen records (transactions, steps)
    shared, the containers events change copied."""
    if name in _SHARED_FIELDS:
        return value
    if name == "turns":
        return [copy.copy(t) for t in value]
    if name == "last_play":
        return copy.copy(value)  # its snapshot is never mutated: shared
    return _fresh(value)


@dataclass(kw_only=True)
class _LastPlay(LastPlay):
    """The play's words (what a challenge judges) and the state before it (what a withdrawal restores)."""

    words: list[str]
    snapshot: dict[str, Any]


@dataclass
class MonopolyScrabbleState(WordBoardState):
    """The folded state of a Monopoly Scrabble game (see the package docstring)."""

    GAME_LABEL = "Monopoly Scrabble"

    judge: Judge | None = None
    settings: Settings | None = None
    profile: Profile | None = None
    square_groups: dict[Square, str] = field(default_factory=dict)
    cash: dict[str, int] = field(default_factory=dict)
    ledger: list[Transaction] = field(default_factory=list)
    owners: dict[str, str | None] = field(default_factory=dict)
    card_transfers: list[CardTransfer] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    in_jail: set[str] = field(default_factory=set)
    bag_count: int = 0
    bank_rack_count: int = 0
    bank_rack: str | None = None
    eliminated: list[str] = field(default_factory=list)
    queue: list[Step] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)
    acted: bool = False
    bank_taken: int = 0
    passes: int = 0
    last_play: _LastPlay | None = None
    ending: bool = False
    end_reason: str | None = None
    _insert_at: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> MonopolyScrabbleState:
        # GameLog copies the state on every event: through the constructor, field by field (`copy_state`).
        return copy_state(self, _copy_field)

    # ----- derived views -----
    @property
    def players(self) -> list[str]:
        return list(self.settings.players) if self.settings else []

    @property
    def active_players(self) -> list[str]:
        return [p for p in self.players if p not in self.eliminated]

    @property
    def current_player(self) -> str | None:
        if self.settings is None or self.finished or self.ending or (self.went_out is not None and not self.queue):
            return None
        return self.players[self.to_move]

    @property
    def pending(self) -> list[Step]:
        """What the game waits for, first item first (empty: the current player plays or passes)."""
        steps = list(self.queue)
        if not steps and self.went_out is not None and not self.ending and not self.finished:
            steps.append(Step("end_game", self.went_out))
        return steps

    def describe_step(self, step: Step) -> str:
        """A pending step in words, with the Property Cards' printed names."""
        return step.describe({g.id: g.name for g in self.profile.groups} if self.profile else None)

    def next_step(self) -> str:
        """One sentence for the table: what happens next."""
        if self.settings is None:
            return "start the game"
        if self.finished:
            return "the game is over: " + ", ".join(self.winner()) + " won"
        steps = self.pending
        if steps:
            return self.describe_step(steps[0])
        if self.nobody_can_play:
            return "nobody can play: end the game (unplayed tiles are paid for)"
        if self.current_player is None:
            return "the game is over: it is being settled"
        return f"{self.current_player} plays a word or passes"

    @property
    def nobody_can_play(self) -> bool:
        """The bag is empty and every player still in the game passed in a row: the table may end the game
        as nobody can play ("none of the players are able to play anymore words", rules text 000)."""
        return self.bag_count == 0 and self.passes >= len(self.active_players)

    def allowed_events(self) -> list[str]:
        """Event types the rules offer now: those of `legal.legal_moves` (its one source), the step the turn
        waits for first, then the turn's own moves, then a challenge."""
        from companion.games.monopoly_scrabble.legal import legal_moves  # legal reads this module

        if self.settings is None:
            return ["start"]
        offered = legal_moves(self)
        out = ["card"] if offered.card is not None else []
        out += ["play"] if offered.play is not None else []
        for event in [e for e in offered.events if e.type != "challenge"] + offered.events:
            if event.type not in out:
                out.append(event.type)
        return out

    def property_value(self, player: str) -> int:
        assert self.profile is not None
        return sum(self.profile.card_value(g) for g, o in self.owners.items() if o == player)

    def wealth(self) -> dict[str, int]:
        """Cash plus the printed values of the Property Cards held, per player still in the game."""
        return {p: self.cash[p] + self.property_value(p) for p in self.active_players}

    def winner(self) -> list[str]:
        w = self.wealth()
        if not w:
            return []
        best = max(w.values())
        return [p for p, v in w.items() if v == best]

    def cards_of(self, player: str) -> list[str]:
        return [g for g, o in self.owners.items() if o == player]

    def space_name(self, index: int) -> str:
        assert self.profile is not None
        return self.profile.track.spaces[index].name

    def summary(self) -> dict[str, Any]:
        """The state as plain data (what `companion replay --json` prints and a UI can show)."""
        assert self.profile is not None
        return {
            "variant": VARIANT,
            "finished": self.finished,
            "end_reason": self.end_reason,
            "next": self.next_step(),
            "players": [
                {
                    "name": p,
                    "cash": self.cash[p],
                    "cards": self.cards_of(p),
                    "card_value": self.property_value(p),
                    "wealth": self.cash[p] + self.property_value(p),
                    "position": self.positions[p],
                    "space": self.space_name(self.positions[p]),
                    "in_jail": p in self.in_jail,
                    "eliminated": p in self.eliminated,
                    "tiles_on_rack": self.rack_counts[p],
                }
                for p in self.players
            ],
            "pot": self.cash[POT],
            "bank": self.cash[BANK],
            "owners": {g: o or BANK for g, o in self.owners.items()},
            "eliminated": list(self.eliminated),
            "winner": self.winner() if self.finished else None,
            "bag": self.bag_count,
            "bank_rack": self.bank_rack_count,
            "turns": len(self.turns),
            "transactions": len(self.ledger),
        }

    @property
    def total_money(self) -> int:
        return sum(self.cash.values())

    # ----- money -----
    def _transfer(self, payer: str, payee: str, amount: int, reason: str) -> None:
        transfer(self.cash, self.ledger, payer, payee, amount, reason, len(self.turns), overdraft=(BANK,))

    def _charge(self, payer: str, payee: str, amount: int, reason: str) -> None:
        """A payment that must be made: short of cash, the payer owes a debt (sell cards) or is eliminated."""
        if payer == BANK or self.cash[payer] >= amount:
            self._transfer(payer, payee, amount, reason)
            return
        if self.cards_of(payer):
            self.queue.insert(self._insert_at, Step("debt", payer, amount, payee, reason=reason))
            self._insert_at += 1
            return
        self._transfer(payer, payee, self.cash[payer], reason + " (all the cash left)")
        self._eliminate(payer)

    def _eliminate(self, player: str) -> None:
        self.eliminated.append(player)
        self.in_jail.discard(player)
        self.skip_next.discard(player)
        self.queue = [s for s in self.queue if s.player != player]
        self._insert_at = min(self._insert_at, len(self.queue))
        self.turns.append(TurnRecord(player, "eliminated", note="could not pay a debt"))
        if len(self.active_players) < 2:
            self.queue = []
            self.finished = True
            self.end_reason = "last_player_standing"

    def _take_card(self, group: str, taker: str | None, reason: str) -> None:
        """Move a Property Card to `taker` (None = back to the Bank)."""
        giver = self.owners[group]
        if giver == taker:
            return
        self.owners[group] = taker
        self.card_transfers.append(CardTransfer(group, giver or BANK, taker or BANK, reason, len(self.turns)))

    # ----- folding -----
    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Challenge: self._challenge, Sell: self._sell, JailFee: self._jail_fee, BingoChoice: self._bingo_choice,
                Card: self._card, ReplaceBlank: self._replace_blank, Play: self._play, Pass: self._pass,
                EndGame: self._end_game}

    def _handle(self, event: Event) -> None:
        self._insert_at = 0
        super()._handle(event)
        self._run()

    def _start(self, event: Start) -> None:
        s = event.settings
        try:
            profile = validate_profile(s.profile_data) if s.profile_data is not None else load_profile(s.profile)
            layout = profile.load_layout()
            tileset = load_tileset(profile.tileset.value)
        except RulesDataError as exc:
            raise IllegalAction(str(exc)) from None
        if not profile.min_players <= len(s.players) <= profile.max_players:
            raise IllegalAction(f"Monopoly Scrabble is for {profile.min_players}-{profile.max_players} players, "
                                f"not {len(s.players)}")
        if tileset.total_tiles is None:
            raise IllegalAction(f"the {tileset.name} tile set does not give tile counts; the bag cannot be tracked")
        # No 50-point bonus in this game: a bingo earns a Property Card instead.
        self.tileset = TileSet(tileset.name, tileset.values, tileset.counts, tileset.rack_size, 0, tileset.label,
                               tileset.bingo_sizes)
        self.settings, self.profile, self.layout = s, profile, layout
        self.square_groups = profile.property_squares()
        self.board = Board(layout.size)
        amounts = profile.amounts
        self.cash = {BANK: amounts.bank_float.value, POT: 0, **{p: 0 for p in s.players}}
        self._transfer(BANK, POT, amounts.free_parking_seed.value, "Free Parking seed")
        for p in s.players:
            self._transfer(BANK, p, amounts.starting_cash.value, "starting cash")
        self.owners = {g: None for g in profile.group_ids}
        self.positions = {p: 0 for p in s.players}
        rack = tileset.rack_size
        self.bag_count = tileset.total_tiles
        if self.bag_count < rack * (len(s.players) + 1):
            raise IllegalAction("the tile set has too few tiles for every rack")
        self.rack_counts = {p: rack for p in s.players}
        self.bank_rack_count = rack
        self.bag_count -= rack * (len(s.players) + 1)
        if s.bank_rack is not None:
            letters = s.bank_rack.upper()
            if len(letters) != rack or any(ch != BLANK and not tileset.has_letter(ch) for ch in letters):
                raise IllegalAction(f"the Bank rack '{s.bank_rack}' must be {rack} tiles of the {tileset.name} set")
            self.bank_rack = letters
        self.to_move = 0

    # ----- turn flow -----
    def _expect_turn(self, player: str, action: str) -> None:
        over = "record the tiles left to settle it" if self.ending or self.went_out is not None else None
        first = self.describe_step(self.queue[0]) if self.queue else None
        expect_turn(player, action, players=self.players, current=self.current_player, out=self.eliminated,
                    how=ELIMINATED, over=over, first=first)
        if self.acted:
            raise IllegalAction(f"{player} has already played this turn")

    def _expect_step(self, kind: str, player: str) -> Step:
        if not self.queue or self.queue[0].kind != kind:
            what = self.describe_step(self.queue[0]) if self.queue else self.next_step()
            raise IllegalAction(f"the game is not waiting for {STEP_WORDS[kind]} now: {what}")
        step = self.queue[0]
        if step.player != player:
            raise IllegalAction(f"the {STEP_WORDS[kind].removeprefix('a ')} is {step.player}'s, not {player}'s")
        return step

    def _close_challenge_window(self) -> None:
        if self.last_play is not None and self.current_player != self.last_play.player:
            self.last_play = None

    def _run(self) -> None:
        """Do every automatic step, then end the turn when nothing is left to do."""
        while self.queue and not self.finished:
            step = self.queue[0]
            if step.kind == "move":
                self.queue.pop(0)
                self._insert_at = 0
                self._move(step.player, step.amount, step.collect_go)
            elif step.kind == "debt" and (self.cash[step.player] >= step.amount or not self.cards_of(step.player)):
                # A debt queued while the payer held cards may, by its turn, need no sale (an earlier sale
                # raised enough cash) or allow none (every card went on an earlier debt): settle it now
                # rather than wait for a sale that cannot happen.
                assert step.creditor is not None
                self.queue.pop(0)
                self._insert_at = 0
                self._charge(step.player, step.creditor, step.amount, step.reason)
            else:
                break
        if self.finished or self.queue:
            return
        if self.ending:
            self.finished = True
            self.end_reason = self.end_reason or "settled"
            return
        current = self.players[self.to_move]
        if self.went_out is not None:
            return
        if self.acted or current in self.eliminated:
            self._advance()

    def _advance(self) -> None:
        self._refill_bank_rack()
        n = len(self.players)
        for _ in range(2 * n):
            self.to_move = (self.to_move + 1) % n
            player = self.players[self.to_move]
            if player in self.eliminated:
                continue
            if player in self.skip_next:
                self.skip_next.discard(player)
                self.turns.append(TurnRecord(player, "lost turn", note="challenged a valid word"))
                continue
            break
        self.acted = False
        self.bank_taken = 0
        player = self.players[self.to_move]
        if player in self.in_jail:
            assert self.profile is not None
            self.queue.append(Step("jail_fee", player, self.profile.amounts.jail_fee.value, POT, reason="jail fee"))

    def _refill_bank_rack(self) -> None:
        """The Banker refills the Bank rack to seven before the player refills (done at the play)."""
        assert self.tileset is not None
        want = self.tileset.rack_size - self.bank_rack_count
        drawn = min(max(0, want), self.bag_count)
        self.bank_rack_count += drawn
        self.bag_count -= drawn
        if drawn and self.bank_rack is not None:
            self.bank_rack = None  # letters drawn without being recorded: no longer known

    # ----- events -----
    def _jail_fee(self, event: JailFee) -> None:
        step = self._expect_step("jail_fee", event.player)
        self._close_challenge_window()
        self.queue.pop(0)
        self.in_jail.discard(event.player)
        self.turns.append(TurnRecord(event.player, "jail", note=f"paid M{step.amount} to leave Jail"))
        self._charge(event.player, POT, step.amount, "jail fee")

    def _sell(self, event: Sell) -> None:
        step = self._expect_step("debt", event.player)
        assert self.profile is not None and step.creditor is not None
        if event.group not in self.owners:
            raise IllegalAction(f"there is no Property Card '{event.group}': the cards are "
                                f"{', '.join(self.profile.group_ids)}")
        if self.owners[event.group] != event.player:
            raise IllegalAction(f"{event.player} does not own the {self.profile.group(event.group).name} card")
        price = self.profile.card_value(event.group) * self.profile.amounts.sale_fraction_percent.value // 100
        self._take_card(event.group, None, "sold to the Bank")
        self._transfer(BANK, event.player, price, f"sale of the {self.profile.group(event.group).name} card")
        if self.cash[event.player] >= step.amount:
            self.queue.pop(0)
            self._transfer(event.player, step.creditor, step.amount, step.reason)
        elif not self.cards_of(event.player):
            self.queue.pop(0)
            self._transfer(event.player, step.creditor, self.cash[event.player], step.reason + " (all the cash left)")
            self._eliminate(event.player)

    def _replace_blank(self, event: ReplaceBlank) -> None:
        self._expect_turn(event.player, "replace a blank")
        assert self.profile is not None and self.tileset is not None
        try:
            square = parse_square(event.square, self.board.size)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        tile = self.board.get(square)
        if tile is None or not tile.blank:
            raise IllegalAction(f"there is no blank on {square}: only a played blank can be replaced")
        fee = self.profile.amounts.blank_replacement_fee.value
        price = self.profile.amounts.bank_tile_price.value if event.source == "bank" else 0
        if self.cash[event.player] < fee + price:
            raise IllegalAction(f"{event.player} has M{self.cash[event.player]}; replacing the blank costs M{fee + price}")
        if event.source == "bank":
            if self.bank_rack_count < 1:
                raise IllegalAction("the Bank rack is empty")
            if self.bank_rack is not None:
                if tile.letter not in self.bank_rack:
                    raise IllegalAction(f"the Bank rack {self.bank_rack} has no {tile.letter}")
                self.bank_rack = self.bank_rack.replace(tile.letter, "", 1)
            self.bank_rack_count -= 1
            self.bank_taken += 1
            self.rack_counts[event.player] += 1  # the blank comes to the rack
            self._transfer(event.player, POT, price, f"bought {tile.letter} from the Bank")
        self._close_challenge_window()
        self.board.remove(square)
        self.board.place(square, Tile(tile.letter, blank=False))
        self._transfer(event.player, POT, fee, f"replaced the blank on {square} with {tile.letter}")
        self.turns.append(TurnRecord(event.player, "replace blank", note=f"{square} {tile.letter}"))

    def _play(self, event: Play) -> None:
        self._expect_turn(event.player, "play")
        assert self.profile is not None and self.layout is not None and self.tileset is not None
        player = event.player
        amounts = self.profile.amounts
        tiles = parse_play(event.position, event.word, self.board)
        validate_placement(self.board, tiles, self.layout, self.tileset)
        bought = Counter(event.bought.upper().replace(" ", ""))
        used = rack_letters_used(tiles)
        if bought - used:
            extra = "".join(sorted((bought - used).elements()))
            raise IllegalAction(f"bought tiles {extra} are not in the word: bought tiles must be played this turn")
        n_bought = sum(bought.values())
        if n_bought > self.bank_rack_count:
            raise IllegalAction(f"the Bank rack has only {tile_count(self.bank_rack_count)}, not {n_bought}")
        if self.bank_rack is not None and bought - Counter(self.bank_rack):
            raise IllegalAction(f"the Bank rack {self.bank_rack} does not hold {event.bought.upper()}")
        own = len(tiles) - n_bought
        # "You must use one or more of your letters. This can include tiles you purchase from the
        # Bank": a word of bought tiles only is legal; placing no tile at all is refused by the placement.
        if own > self.rack_counts[player]:
            raise IllegalAction(f"{player} has only {tile_count(self.rack_counts[player])}, not {own}")
        if event.rack is not None:
            missing = (used - bought) - Counter(event.rack.upper())
            if missing:
                raise IllegalAction(f"the rack {event.rack.upper()} does not hold {''.join(sorted(missing.elements()))}")
        price = n_bought * amounts.bank_tile_price.value
        if self.cash[player] < price:
            raise IllegalAction(f"{player} has M{self.cash[player]}; {n_bought} Bank {'tile costs' if n_bought == 1 else 'tiles cost'} M{price}")
        if event.bank_drawn is not None and any(ch != BLANK and not self.tileset.has_letter(ch)
                                                for ch in event.bank_drawn.upper()):
            raise IllegalAction(f"'{event.bank_drawn}' are not tiles of the {self.tileset.name} set")
        # The Bank rack refills first (rules text, "Buying Letter Tile From the Bank"), then the player's.
        bank_drawn = min(self.tileset.rack_size - (self.bank_rack_count - n_bought), self.bag_count)
        if event.bank_drawn is not None and len(event.bank_drawn) != bank_drawn:
            raise IllegalAction(f"the Banker draws {tile_count(bank_drawn)} for the Bank rack, not {len(event.bank_drawn)}")

        # Snapshot for a challenge (taken before anything of the play happens).
        snapshot = {name: _fresh(getattr(self, name)) for name in _SNAPSHOT_FIELDS}
        self._close_challenge_window()
        first_word = self.board.is_empty()
        scored = score_play(self.board, tiles, self.layout, self.tileset)
        score = scored.total
        if first_word and self.layout.premium(self.layout.centre).word_multiplier == 1:
            # On a board whose star is a plain square the rule doubles the word; a double-word star
            # already is that double (GAME scores 7 x 2 = 14 in the rules text).
            score *= self.profile.first_word_multiplier.value
        position = scored.words[0].position if scored.words else Position(tiles[0].square, scored.direction)
        notation = format_play(position, tiles, self.board)
        if price:
            self._transfer(player, POT, price, f"bought {''.join(sorted(bought.elements()))} from the Bank")
        if self.bank_rack is not None:
            for ch in bought.elements():
                self.bank_rack = self.bank_rack.replace(ch, "", 1)
        self.bank_rack_count -= n_bought
        self.bank_taken += n_bought
        self.board.push(tiles)
        rack_before = self.rack_counts[player]
        if event.bank_drawn is not None:
            if self.bank_rack is not None:
                self.bank_rack += event.bank_drawn.upper()
        elif bank_drawn:
            self.bank_rack = None  # drawn but not recorded: the letters are no longer known
        self.bank_rack_count += bank_drawn
        self.bag_count -= bank_drawn
        drawn = min(max(0, self.tileset.rack_size - (rack_before - own)), self.bag_count)
        self.bag_count -= drawn
        self.rack_counts[player] = rack_before - own + drawn
        self.acted = True
        self.passes = 0
        record = TurnRecord(player, "play", score, notation, [w.text for w in scored.words],
                            self.positions[player])
        self.turns.append(record)
        self.last_play = _LastPlay(player=player, words=record.words, snapshot=snapshot, turn_index=len(self.turns) - 1)

        # Property squares: the first tile placed on a square takes its card (FAQ reading).
        for placed in tiles:
            group = self.square_groups.get(placed.square)
            if group is not None:
                self._take_card(group, player, f"covered {placed.square}")
        if own == self.tileset.rack_size and rack_before == self.tileset.rack_size:
            free = tuple(g for g in self.profile.group_ids if self.owners[g] is None)
            if free:
                self.queue.append(Step("bingo_choice", player, options=free, reason="bingo"))
            else:
                self._transfer(BANK, player, amounts.bingo_cash.value, "bingo with no Property Card left")
        if self.bag_count == 0 and self.rack_counts[player] == 0:
            self.went_out = player
        self.queue.append(Step("move", player, score))

    def _move(self, player: str, steps: int, collect_go: bool = True) -> None:
        assert self.profile is not None
        n = len(self.profile.track.spaces)
        start = self.positions[player]
        if steps == 0:
            return
        end = (start + steps) % n
        if steps > 0 and collect_go:
            laps = (start + steps) // n
            for _ in range(laps):
                self._transfer(BANK, player, self.profile.amounts.go_salary.value, "passed GO")
        self.positions[player] = end
        for record in reversed(self.turns):
            if record.player == player and record.kind == "play":
                record.moved_to = end
                break
        self._land(player, end)

    def _send_to_jail(self, player: str) -> None:
        assert self.profile is not None
        jail = self.profile.space_index("jail")
        if jail is None:
            raise IllegalAction("the board profile has no Jail space")
        self.positions[player] = jail
        self.in_jail.add(player)

    def _land(self, player: str, index: int) -> None:
        assert self.profile is not None
        landing = self._landings().get(self.profile.track.spaces[index].type)
        if landing is not None:  # GO, Jail (just visiting): the space itself does nothing
            landing(player, index)

    def _landings(self) -> dict[str, Callable[[str, int], None]]:
        """What landing on each type of track space does (dispatched by table, as events are)."""
        return {"property": self._land_on_property, "chance": self._land_on_card_space,
                "community_chest": self._land_on_card_space, "free_parking": self._land_on_free_parking,
                "go_to_jail": lambda player, index: self._send_to_jail(player), "tax": self._land_on_tax}

    def _land_on_property(self, player: str, index: int) -> None:
        assert self.profile is not None
        space = self.profile.track.spaces[index]
        assert space.group is not None
        owner = self.owners[space.group]
        if owner is not None and owner != player and owner not in self.eliminated:
            self._charge(player, owner, self.profile.space_rent(index), f"rent for {space.name}")

    def _land_on_card_space(self, player: str, index: int) -> None:
        assert self.profile is not None
        self.queue.insert(self._insert_at, Step("card", player, deck=self.profile.track.spaces[index].type))
        self._insert_at += 1

    def _land_on_free_parking(self, player: str, index: int) -> None:
        assert self.profile is not None
        self._transfer(POT, player, self.cash[POT], "Free Parking")
        seed = self.profile.amounts.free_parking_seed.value
        if self.cash[POT] < seed:
            self._transfer(BANK, POT, seed - self.cash[POT], "Free Parking reseeded")

    def _land_on_tax(self, player: str, index: int) -> None:
        assert self.profile is not None
        space = self.profile.track.spaces[index]
        assert space.amount is not None
        self._charge(player, BANK if space.pay_to == "bank" else POT, space.amount, space.name)

    def _bingo_choice(self, event: BingoChoice) -> None:
        step = self._expect_step("bingo_choice", event.player)
        assert self.profile is not None
        if event.group not in step.options:
            raise IllegalAction(f"a bingo may take {', '.join(step.options)}, not {event.group}")
        if self.owners.get(event.group) is not None and self.owners[event.group] != event.player:
            raise IllegalAction(f"the {event.group} card belongs to {self.owners[event.group]}")
        self.queue.pop(0)
        self._take_card(event.group, event.player, "bingo")

    def _card(self, event: Card) -> None:
        step = self._expect_step("card", event.player)
        assert self.profile is not None
        if event.deck is not None and event.deck != step.deck:
            raise IllegalAction(f"{event.player} landed on {step.deck}, not {event.deck}")
        n = len(self.profile.track.spaces)
        if event.space is not None and event.space >= n:
            raise IllegalAction(f"track space {event.space} is out of range: the track has spaces 0-{n - 1}")
        if event.group is not None and event.group not in self.owners:
            raise IllegalAction(f"there is no Property Card '{event.group}': the cards are "
                                f"{', '.join(self.profile.group_ids)}")
        self.queue.pop(0)
        label = "Chance" if step.deck == "chance" else "Community Chest"
        why = f"{label}: {event.text}" if event.text else label
        # Recorded first, so what the card causes (an elimination, say) follows it in the turn record.
        self.turns.append(TurnRecord(event.player, "card", note=f"{label}: {event.effect} {event.text}".strip()))
        self._card_effects()[event.effect](event, why)

    def _card_effects(self) -> dict[CardEffectKind, Callable[[Card, str], None]]:
        """What each card effect does, given the card event and why (its words for the ledger). `Card`
        checks that the fields an effect needs are there."""
        return {"collect": self._card_collect, "pay_bank": self._card_pay_bank, "pay_pot": self._card_pay_pot,
                "pay_each": self._card_pay_each, "collect_each": self._card_collect_each,
                "move_to": self._card_move_to, "move_by": self._card_move_by,
                "go_to_jail": lambda event, why: self._send_to_jail(event.player),
                "take_property": self._card_take_property, "none": lambda event, why: None}

    def _card_collect(self, event: Card, why: str) -> None:
        self._transfer(BANK, event.player, event.amount or 0, why)

    def _card_pay_bank(self, event: Card, why: str) -> None:
        self._charge(event.player, BANK, event.amount or 0, why)

    def _card_pay_pot(self, event: Card, why: str) -> None:
        self._charge(event.player, POT, event.amount or 0, why)

    def _card_pay_each(self, event: Card, why: str) -> None:
        for other in [p for p in self.active_players if p != event.player]:
            self._charge(event.player, other, event.amount or 0, why)

    def _card_collect_each(self, event: Card, why: str) -> None:
        for other in [p for p in self.active_players if p != event.player]:
            self._charge(other, event.player, event.amount or 0, why)

    def _card_move_to(self, event: Card, why: str) -> None:
        assert event.space is not None and self.profile is not None
        steps = (event.space - self.positions[event.player]) % len(self.profile.track.spaces)
        self.queue.insert(self._insert_at, Step("move", event.player, steps, collect_go=event.collect_go))
        self._insert_at += 1

    def _card_move_by(self, event: Card, why: str) -> None:
        assert event.steps is not None and self.profile is not None
        if event.steps >= 0:
            self.queue.insert(self._insert_at, Step("move", event.player, event.steps, collect_go=event.collect_go))
            self._insert_at += 1
        else:
            # Backwards: never passes GO; the space reached acts as a landing.
            player = event.player
            self.positions[player] = (self.positions[player] + event.steps) % len(self.profile.track.spaces)
            self._land(player, self.positions[player])

    def _card_take_property(self, event: Card, why: str) -> None:
        assert event.group is not None
        self._take_card(event.group, event.player, why)

    def _pass(self, event: Pass) -> None:
        self._expect_turn(event.player, "pass")
        self._close_challenge_window()
        self.acted = True
        self.passes += 1
        self.turns.append(TurnRecord(event.player, "pass"))

    def _challenge(self, event: Challenge) -> None:
        last = self.last_play
        if last is None or last.challenged:
            raise IllegalAction("there is no play to challenge: a challenge must come before the next player acts")
        expect_player(event.challenger, self.players, self.eliminated, ELIMINATED)
        if event.challenger == last.player:
            raise IllegalAction(f"{last.player} cannot challenge their own play")
        acceptable = event.acceptable
        if acceptable is None:
            if self.judge is None:
                raise IllegalAction("the challenge needs the word judge's verdict ('acceptable': true or false)")
            acceptable = self.judge(event.words or last.words)
        last.challenged = True
        if acceptable:
            self.skip_next.add(event.challenger)
            self.turns.append(TurnRecord(event.challenger, "challenge lost", note=", ".join(last.words)))
            # The challenger may be the very next player, already to move: their turn is lost now.
            if self.current_player == event.challenger and not self.acted and last.player != event.challenger:
                self.skip_next.discard(event.challenger)
                self.queue = [s for s in self.queue if not (s.kind == "jail_fee" and s.player == event.challenger)]
                self.turns.append(TurnRecord(event.challenger, "lost turn", note="challenged a valid word"))
                self.acted = True
            return
        # Unacceptable: every effect of the play is withdrawn and the player's turn is lost.
        for name, value in last.snapshot.items():
            setattr(self, name, _fresh(value))
        del self.turns[last.turn_index + 1:]
        record = self.turns[last.turn_index]
        record.kind = "withdrawn"
        record.note = f"challenged by {event.challenger}: not a valid word"
        record.moved_to = record.moved_from
        self.acted = True
        self.queue = []
        self.last_play = None

    def _end_game(self, event: EndGame) -> None:
        assert self.profile is not None
        if self.ending:
            raise IllegalAction("the game is already being settled")
        if self.went_out is not None:
            if self.queue:
                raise IllegalAction(f"first: {self.describe_step(self.queue[0])}")
        else:
            self._expect_turn(self.current_player or "", "end the game")
            if event.reason == "played_out":
                raise IllegalAction("nobody has played out: the bag is not empty or every rack still holds tiles")
            if event.reason == "no_plays" and self.bag_count > 0:
                raise IllegalAction(f"the bag still holds {self.bag_count} tiles: the game ends only once it is empty")
        left = dict(self.rack_counts)
        for name, count in (event.tiles_left or {}).items():
            expect_player(name, self.players)
            if count != left[name]:
                raise IllegalAction(f"{name} should have {tile_count(left[name])} left, not {count}: check the rack")
        self._close_challenge_window()
        self.last_play = None
        self.ending = True
        self.end_reason = "played_out" if self.went_out else event.reason
        fee = self.profile.amounts.unplayed_tile_fee.value
        payee = self.went_out or BANK
        for p in self.active_players:
            if p != self.went_out and left[p]:
                self._charge(p, payee, left[p] * fee, f"{left[p]} unplayed tiles")
        self.turns.append(TurnRecord(payee, "end", note=f"game ends: {self.end_reason}"))
