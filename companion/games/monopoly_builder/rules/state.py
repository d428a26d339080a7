"""Monopoly Builder's folded state: the views on its fields (`views.BuilderView`), copying (through the
constructor) and the handler of each event (the package docstring describes the rules).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.events import Event, PlayerEvent
from companion.games.monopoly_builder.profile import (
    KEPT_CARDS,
    Space,
    cell_name,
    parse_cell,
    validate_profile,
)
from companion.games.monopoly_builder.rules.events import (
    BANK,
    Auction,
    AuctionEnd,
    Bankrupt,
    BankTrade,
    Bid,
    Build,
    Bundle,
    Buy,
    ChanceDraw,
    Discard,
    EndGame,
    EndTurn,
    ForcedTrade,
    FreeParking,
    JailCard,
    JailPay,
    Mortgage,
    PlaceToken,
    Rent,
    ResourceRoll,
    Roll,
    Start,
    Steal,
    Trade,
    Unmortgage,
)
from companion.games.monopoly_builder.rules.records import (
    AuctionState,
    Building,
    Debt,
    Handout,
    Phase,
    RentDue,
)
from companion.games.monopoly_builder.rules.views import BuilderView, _chips
from companion.rules.errors import IllegalAction, RulesDataError
from companion.rules.ledger import transfer
from companion.rules.money import money_prefixed as money
from companion.rules.state_copy import copy_state
from companion.rules.turns import expect_player, expect_turn

# Immutable rules data shared between the copies GameLog makes on every event.
_SHARED_FIELDS = ("settings", "profile")
# Containers whose items are immutable (copied one level) and those holding containers of immutables (two).
_FLAT_FIELDS = frozenset({"cash", "ledger", "owners", "mortgaged", "positions", "jail", "deck", "buildings",
                          "blocks", "bankrupt", "last_handout", "rents", "notes"})
_NESTED_FIELDS = frozenset({"resources", "space_resources", "kept_cards"})


def _copy_field(name: str, value: Any) -> Any:
    """One field of a state's copy: the immutable rules data and frozen records shared, the containers events
    change copied (as deep as they hold something that changes)."""
    if name in _SHARED_FIELDS or not isinstance(value, (dict, list, set)):
        return value
    if isinstance(value, dict) and name in _NESTED_FIELDS:  # holder -> colour -> chips, player -> cards
        return {k: copy.copy(v) for k, v in value.items()}
    if isinstance(value, dict) and name in _FLAT_FIELDS:  # values are ints, strings, frozen records
        return dict(value)
    if isinstance(value, (list, set)) and name in _FLAT_FIELDS:
        return copy.copy(value)
    return copy.deepcopy(value)


@dataclass
class BuilderState(BuilderView):
    """The folded state of a Monopoly Builder game: the views (`BuilderView`) and the handler of each event."""

    def __deepcopy__(self, memo: dict[int, Any]) -> BuilderState:
        # GameLog copies the state on every event: through the constructor, field by field (`copy_state`).
        return copy_state(self, _copy_field)

    def allowed_events(self) -> list[str]:
        """The event types of the moves `legal.legal_moves` offers now (in the order first offered)."""
        from companion.games.monopoly_builder.legal import legal_moves

        if self.settings is None:
            return ["start"]
        return list(dict.fromkeys(m.type for m in legal_moves(self)))

    # ------------------------------------------------------------ bookkeeping
    def _note(self, text: str) -> None:
        self.notes.append(text)

    def _transfer(self, payer: str, payee: str, amount: int, reason: str) -> None:
        transfer(self.cash, self.ledger, payer, payee, amount, reason, self.turn, overdraft=(BANK,))

    def _charge(self, payer: str, payee: str, amount: int, reason: str) -> None:
        """A payment that must be made: short of cash, the payer owes a debt (mortgage, trade or go bankrupt)."""
        if self.debt is None and self.cash[payer] >= amount:
            self._transfer(payer, payee, amount, reason)
            return
        if self.debt is not None:
            # A second payment in the same event (the third failed Jail roll, then a Chance card on the
            # space reached): both are owed to the Bank by the same player, so they add up.
            old = self.debt
            assert old.debtor == payer and old.creditor == payee
            self.debt = Debt(payer, payee, old.amount + amount, f"{old.reason}; {reason}")
        else:
            self.debt = Debt(payer, payee, amount, reason)
        self._note(f"{payer} owes {money(amount)} to {self._account_name(payee)} ({reason}) and is short of cash")

    def _settle_debt(self) -> None:
        d = self.debt
        if d is not None and self.cash[d.debtor] >= d.amount:
            self.debt = None
            self._transfer(d.debtor, d.creditor, d.amount, d.reason)
            self._note(f"{d.debtor} pays the {money(d.amount)} owed to {self._account_name(d.creditor)}")

    def _chip_holder(self, holder: str | int) -> dict[str, int]:
        if isinstance(holder, int):
            return self.space_resources.setdefault(holder, {})
        return self.resources[holder]

    def _move_chips(self, giver: str | int, taker: str | int, colour: str, count: int) -> None:
        """Move chips between the Bank, players and spaces (an int = a track space); checked by callers."""
        src, dst = self._chip_holder(giver), self._chip_holder(taker)
        if count < 0 or src.get(colour, 0) < count:
            raise IllegalAction(f"{giver} does not have {count} {colour} resources")
        src[colour] = src.get(colour, 0) - count
        dst[colour] = dst.get(colour, 0) + count
        for key in [k for k, v in self.space_resources.items() if not any(v.values())]:
            del self.space_resources[key]

    def _from_bank(self, player: str, colour: str, count: int, reason: str) -> int:
        """The Bank gives up to `count` chips (what it has left: chips are finite); returns how many."""
        given = min(count, self.resources[BANK][colour])
        if given:
            self._move_chips(BANK, player, colour, given)
            self.last_handout.append(Handout(player, colour, given, reason))
        if given < count:
            self._note(f"the Bank has run out of {colour} resources: {player} takes {given} of {count}")
        return given

    def _check_chips(self, player: str, chips: Mapping[str, int], what: str) -> None:
        for colour, n in chips.items():
            if colour not in self.colours:
                raise IllegalAction(f"{colour} is not a resource colour: the colours are {', '.join(self.colours)}")
            if n < 0:
                raise IllegalAction(f"a number of resources cannot be negative ({colour} {n})")
            if self.resources[player].get(colour, 0) < n:
                raise IllegalAction(f"{player} has {self.resources[player].get(colour, 0)} {colour} resources, "
                                    f"not the {n} {what}")

    def _colour(self, colour: str) -> None:
        if colour not in self.colours:
            raise IllegalAction(f"{colour} is not a resource colour: the colours are {', '.join(self.colours)}")

    def _known_deed(self, deed: str) -> None:
        if deed not in self.owners:
            assert self.profile is not None
            raise IllegalAction(f"there is no deed '{deed}' on this board")

    def _own_deed(self, player: str, deed: str) -> str:
        """The printed name of `deed`, which must be on this board and `player`'s."""
        self._known_deed(deed)
        assert self.profile is not None
        name = self.profile.deed_name(deed)
        if self.owners[deed] != player:
            raise IllegalAction(f"{player} does not own {name}")
        return name

    # ------------------------------------------------------------ folding
    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        return {Discard: self._discard, Roll: self._roll, JailPay: self._jail_pay, JailCard: self._jail_card,
                Buy: self._buy, Auction: self._auction, Bid: self._bid, AuctionEnd: self._auction_end,
                Rent: self._rent, ChanceDraw: self._chance, ResourceRoll: self._resource_roll, Steal: self._steal,
                FreeParking: self._free_parking, BankTrade: self._bank_trade, Trade: self._trade,
                ForcedTrade: self._forced_trade, Build: self._build, Mortgage: self._mortgage,
                Unmortgage: self._unmortgage, Bankrupt: self._bankrupt, EndTurn: self._end_turn,
                EndGame: self._end_game, PlaceToken: self._place_token}

    def _handle(self, event: Event) -> None:
        if isinstance(event, PlayerEvent):
            expect_player(event.player, self.players)
        if self.debt is not None and not isinstance(event, (Mortgage, Trade, Bankrupt, EndGame)):
            d = self.debt
            raise IllegalAction(f"{d.debtor} must first pay the {money(d.amount)} owed to "
                                f"{self._account_name(d.creditor)}: mortgage, trade, or declare bankruptcy")
        if isinstance(event, PlayerEvent):
            expect_player(event.player, self.players, self.bankrupt, "is bankrupt")
        super()._handle(event)
        self._settle_debt()
        if not self.finished and not self.penthouse_possible():
            # Every block is used and no building has its four floors (or only bankrupt players could
            # build): the game's end can never come, so it ends now and is scored as it stands.
            self.finished, self.end_reason, self.stage = True, "the penthouse can no longer be built", "over"
            self._note("nobody can build the penthouse any more: the game ends and is scored")

    def _start(self, event: Start) -> None:
        s = event.settings
        try:
            profile = validate_profile(s.profile)
        except RulesDataError as exc:
            raise IllegalAction(str(exc)) from None
        if not profile.min_players <= len(s.players) <= profile.max_players:
            raise IllegalAction(f"Monopoly Builder is for {profile.min_players}-{profile.max_players} players, "
                                f"not {len(s.players)}")
        colours = profile.colours.value
        for seat in s.players:
            if seat.colour not in colours:
                raise IllegalAction(f"{seat.name}'s token colour {seat.colour} is not one of {', '.join(colours)}")
        self.settings, self.profile = s, profile
        counts, amounts = profile.counts, profile.amounts
        self.cash = {BANK: amounts.bank_float.value, **{p: 0 for p in s.names}}
        self.resources = {BANK: {c: counts.chips_per_colour.value for c in colours},
                          **{p: {c: 0 for c in colours} for p in s.names}}
        for seat in s.players:
            self._transfer(BANK, seat.name, amounts.starting_cash.value, "starting money")
            if self.resources[BANK][seat.colour] < counts.starting_resources.value:
                raise IllegalAction(f"the Bank has too few {seat.colour} resources for the starting hands")
            self._move_chips(BANK, seat.name, seat.colour, counts.starting_resources.value)
        self.owners = {d.id: None for d in profile.deeds}
        self.positions = {p: 0 for p in s.names}
        self.kept_cards = {p: [] for p in s.names}
        self.deck = {c.id: c.count for c in profile.chance.cards}
        self.blocks = {p: counts.blocks_per_player.value for p in s.names}
        self.to_move = 0
        self._begin_turn()

    # ------------------------------------------------------------ turn flow
    def _expect_mover(self, player: str, action: str) -> None:
        expect_turn(player, action, players=self.players, current=self.players[self.to_move])

    def _expect_phase(self, phase: Phase, action: str) -> None:
        if self.phase != phase:  # `phase`: the discard owed is derived from the hand now
            raise IllegalAction(f"{action} is not possible now: {self.waiting_for()}")

    def _begin_turn(self) -> None:
        self.free_parking_open = False
        self.turn += 1
        self.stage = "roll"  # a discard owed before the roll is derived from the hand (`phase`)

    def _advance(self) -> None:
        """The turn is over: the same player again after doubles, else the next player still in play."""
        self.free_parking_open = False
        if not self.active_players:
            self.finished, self.end_reason, self.stage = True, "everyone is bankrupt", "over"
            return
        p = self.players[self.to_move]
        if self.again and p not in self.bankrupt and p not in self.jail:
            self.again = False
            self._begin_turn()
            return
        self.again, self.doubles = False, 0
        n = len(self.players)
        for step in range(1, n + 1):
            nxt = (self.to_move + step) % n
            if self.players[nxt] not in self.bankrupt:
                self.to_move = nxt
                break
        self._begin_turn()

    def _discard(self, event: Discard) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "discard")
        limit = self.profile.counts.hand_limit.value
        extra = self.discard_owed()
        if extra == 0:
            if self.stage == "roll" or self.rolls_again():
                raise IllegalAction(f"{p} holds {self.hand(p)} resources, no more than {limit}: nothing to discard")
            raise IllegalAction(f"discarding is not possible now: {self.waiting_for()}")
        self._check_chips(p, event.resources, "to discard")
        if sum(event.resources.values()) != extra:
            raise IllegalAction(f"{p} has {self.hand(p)} resources and must discard exactly {extra} to keep "
                                f"{limit}")
        if self.rolls_again():
            self._advance()  # doubles: the discard begins the player's next turn
        for colour, n in event.resources.items():
            self._move_chips(p, self.positions[p], colour, n)
        self._note(f"{p} discards {_chips(event.resources)} onto {self.space_name(self.positions[p])}")
        self.stage = "roll"

    def _jail_pay(self, event: JailPay) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "pay to leave Jail")
        self._expect_phase("roll", "paying to leave Jail")
        if p not in self.jail:
            raise IllegalAction(f"{p} is not in Jail")
        fee = self.profile.amounts.jail_fee.value
        if self.cash[p] < fee:
            raise IllegalAction(f"{p} has {money(self.cash[p])}, not the {money(fee)} to leave Jail: "
                                f"mortgage a deed, use a card or roll for doubles")
        self._transfer(p, BANK, fee, "leaves Jail")
        del self.jail[p]
        self._note(f"{p} pays {money(fee)} and leaves Jail")

    def _jail_card(self, event: JailCard) -> None:
        p = event.player
        self._expect_mover(p, "use a Get Out of Jail Free card")
        self._expect_phase("roll", "using a Get Out of Jail Free card")
        if p not in self.jail:
            raise IllegalAction(f"{p} is not in Jail")
        if "get_out_of_jail" not in self.kept_cards[p]:
            raise IllegalAction(f"{p} has no Get Out of Jail Free card")
        self._return_card(p, "get_out_of_jail")
        del self.jail[p]
        self._note(f"{p} uses a Get Out of Jail Free card")

    def _return_card(self, player: str, card: str) -> None:
        self.kept_cards[player].remove(card)
        self.deck[card] += 1

    def turn_passes_to(self) -> str | None:
        """Who takes the next turn if the player whose turn it is ends it now (None: the turn may not end
        now: its step is not done, a debt is owed, or it is doubles' next roll). That player's roll is
        accepted as ending the turn, as an `end_turn` before it would (one tap, one event)."""
        if self.debt is not None or self.stage != "act" or self.rolls_again():
            return None
        n = len(self.players)  # as `_advance` picks (doubles' same player again is `rolls_again`, above)
        return next((self.players[(self.to_move + k) % n] for k in range(1, n + 1)
                     if self.players[(self.to_move + k) % n] not in self.bankrupt), None)

    def _roll(self, event: Roll) -> None:
        p = event.player
        assert self.profile is not None and self.settings is not None
        if p == self.turn_passes_to():
            # The next player's roll ends the turn that may end now, exactly as `end_turn` would (old logs
            # record that `end_turn` first: both replay). A discard owed first is refused below.
            self._end_turn(EndTurn(player=self.players[self.to_move]))
        self._expect_mover(p, "roll")
        if self.rolls_again() and self.discard_owed() == 0:
            self._advance()  # doubles: this roll is the player's next turn, with no end_turn to record
        self._expect_phase("roll", "rolling")
        d1, d2 = event.dice
        total, double = d1 + d2, d1 == d2
        self.last_roll = (d1, d2)
        self._close_rent_windows(p)
        self.last_handout = []
        self._note(f"{p} rolls {d1}+{d2} = {total}" + (" (doubles)" if double else ""))
        if p in self.jail:
            self._gather(total)
            if double:
                del self.jail[p]
                self._note(f"{p} rolls doubles and leaves Jail")
                self.again = self.settings.jail_doubles_again
                if self.again:
                    self.doubles = 1
            else:
                self.jail[p] += 1
                if self.jail[p] < 3:
                    self._note(f"{p} stays in Jail (attempt {self.jail[p]} of 3)")
                    self.stage = "act"
                    return
                del self.jail[p]
                self._charge(p, BANK, self.profile.amounts.jail_fee.value, "third failed roll in Jail")
                self._note(f"{p} pays to leave Jail after three rolls without doubles")
            self._move_by(p, total)
            return
        if double:
            self.doubles += 1
            if self.doubles == 3:
                self._note(f"{p} rolls doubles three times in a row and goes to Jail")
                self._send_to_jail(p)
                return
            self.again = True
        else:
            self.again = False
        self._gather(total)
        self._move_by(p, total)

    def _close_rent_windows(self, roller: str) -> None:
        """A roll closes the rent windows it ends (the next player's roll; any roll with the stricter
        setting): an owner who has not asked by now has lost the rent, and the table is told."""
        assert self.settings is not None and self.profile is not None
        strict = self.settings.rent_window == "next_roll"
        askable = {(r.payer, r.deed): (r.owner, amount) for r, amount in self.rents_due()}
        kept = []
        for r in self.rents:
            if not strict and r.payer == roller:
                kept.append(r)
                continue
            owner, amount = askable.get((r.payer, r.deed), (None, 0))
            if owner is not None and amount > 0:
                self._note(f"{owner} did not ask {r.payer} for the {money(amount)} rent on "
                           f"{self.profile.deed_name(r.deed)}: the rent is lost")
        self.rents = kept

    def _gather(self, total: int) -> None:
        """Every owner of an unmortgaged deed with this number takes its chips; a 6 gives every player
        their own colour. The Bank hands out what it has, in turn order from the roller."""
        assert self.profile is not None
        n = len(self.players)
        order = [self.players[(self.to_move + i) % n] for i in range(n)]
        counts = self.profile.counts
        for player in order:
            if player in self.bankrupt:
                continue
            for deed in self.deeds_of(player):
                if deed not in self.mortgaged and self.profile.number(deed, "dice_number") == total:
                    self._from_bank(player, self.profile.deed_resource(deed), counts.gather.value,
                                    f"{self.profile.deed_name(deed)} on {total}")
            if total == 6:
                self._from_bank(player, self.colour_of(player), counts.six_bonus.value, "a roll of 6")

    def _move_by(self, player: str, steps: int, collect_go: bool = True) -> None:
        """Move forward `steps` spaces: GO pays when passed or landed on; chips on every space entered are
        picked up; then the landing space acts."""
        assert self.profile is not None
        size = len(self.profile.track.spaces)
        pos = self.positions[player]
        for _ in range(steps):
            pos = (pos + 1) % size
            if pos == 0 and collect_go:
                self._transfer(BANK, player, self.profile.amounts.go_salary.value, "passes GO")
            for colour, n in list(self.space_resources.get(pos, {}).items()):
                if n:
                    self._move_chips(pos, player, colour, n)
                    self.last_handout.append(Handout(player, colour, n, f"picked up on {self.space_name(pos)}"))
        self.positions[player] = pos
        self._land(player, pos)

    def _send_to_jail(self, player: str) -> None:
        assert self.profile is not None
        jail = self.profile.space_index("jail")
        assert jail is not None  # the profile has a Jail whenever a space or card sends there
        self.positions[player] = jail
        self.jail[player] = 0
        self.again = False
        self._advance()

    def _land(self, player: str, pos: int) -> None:
        assert self.profile is not None
        space = self.profile.track.spaces[pos]
        self._note(f"{player} lands on {space.name}")
        self.stage = "act"
        landing = self._landings().get(space.kind)
        if landing is not None:  # GO, Jail (just visiting)...: the space itself does nothing
            landing(player, space)

    def _landings(self) -> dict[str, Callable[[str, Space], None]]:
        """What landing on each kind of space does (dispatched by table, as events are)."""
        return {"deed": self._land_on_deed, "collect": self._land_on_collect,
                "roll_for_resources": self._land_on_roll_for_resources, "chance": self._land_on_chance,
                "steal": self._land_on_steal, "free_parking": self._land_on_free_parking,
                "go_to_jail": self._land_on_go_to_jail}

    def _land_on_deed(self, player: str, space: Space) -> None:
        assert space.deed is not None
        owner = self.owners[space.deed]
        if owner is None:
            self.stage = "buy"
        elif owner != player and space.deed not in self.mortgaged:
            self.rents.append(RentDue(player, owner, space.deed))

    def _land_on_collect(self, player: str, space: Space) -> None:
        assert space.resource is not None and self.profile is not None
        self._from_bank(player, space.resource, self.profile.counts.collect.value, space.name)

    def _land_on_roll_for_resources(self, player: str, space: Space) -> None:
        self.stage = "resource_roll"

    def _land_on_chance(self, player: str, space: Space) -> None:
        self.stage = "chance"

    def _land_on_steal(self, player: str, space: Space) -> None:
        if any(self.hand(o) for o in self.players if o != player):
            self.stage = "steal"

    def _land_on_free_parking(self, player: str, space: Space) -> None:
        self.free_parking_open = True

    def _land_on_go_to_jail(self, player: str, space: Space) -> None:
        self._note(f"{player} goes to Jail")
        self._send_to_jail(player)

    def _buy(self, event: Buy) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "buy")
        self._expect_phase("buy", "buying")
        deed = self._deed_here(p)
        price = self.profile.number(deed, "price")
        if self.cash[p] < price:
            raise IllegalAction(f"{p} has {money(self.cash[p])}, not the {money(price)} "
                                f"{self.profile.deed_name(deed)} costs: mortgage a deed first or auction it")
        self._transfer(p, BANK, price, f"buys {self.profile.deed_name(deed)}")
        self.owners[deed] = p
        self._note(f"{p} buys {self.profile.deed_name(deed)} for {money(price)}")
        self.stage = "act"

    def _auction(self, event: Auction) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "put a deed up for auction")
        self._expect_phase("buy", "an auction")
        deed = self._deed_here(p)
        self.auction = AuctionState(deed)
        self.stage = "auction"
        self._note(f"{self.profile.deed_name(deed)} goes up for auction")

    def _bid(self, event: Bid) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_phase("auction", "bidding")
        assert self.auction is not None
        a = self.auction
        least = (self.profile.amounts.auction_start.value if a.high_bidder is None
                 else a.high_bid + self.profile.amounts.auction_raise.value)
        if event.amount < least:
            raise IllegalAction(f"{p}'s bid of {money(event.amount)} is too low: the next bid is at least {money(least)}"
                                + ("" if a.high_bidder is None else
                                   f" (raises of at least {money(self.profile.amounts.auction_raise.value)})"))
        if self.cash[p] < event.amount:
            raise IllegalAction(f"{p} has {money(self.cash[p])} and cannot bid {money(event.amount)}")
        self.auction = AuctionState(a.deed, event.amount, p)
        self._note(f"{p} bids {money(event.amount)}")

    def _auction_end(self, event: AuctionEnd) -> None:
        assert self.profile is not None
        self._expect_phase("auction", "closing an auction")
        assert self.auction is not None
        a = self.auction
        name = self.profile.deed_name(a.deed)
        if a.high_bidder is None:
            self._note(f"nobody bids: {name} stays with the Bank")
        else:
            self.owners[a.deed] = a.high_bidder
            self._note(f"{a.high_bidder} wins {name} for {money(a.high_bid)}")
            # A trade since the bid may have left the bidder short: they owe it (mortgage, trade or bankruptcy).
            self._charge(a.high_bidder, BANK, a.high_bid, f"wins the auction of {name}")
        self.auction = None
        self.stage = "act"

    def _rent(self, event: Rent) -> None:
        p = event.player
        assert self.profile is not None
        due = self.rents_due()
        if event.deed is not None:
            self._known_deed(event.deed)
            due = [(r, a) for r, a in due if r.deed == event.deed]
            if not due:
                raise IllegalAction(f"no rent can be asked on {self.profile.deed_name(event.deed)} now: rent is "
                                    f"asked after a landing, before the next player rolls, or it is lost")
        if not due:
            raise IllegalAction("no rent can be asked now: rent is asked before the next player rolls, or it is lost")
        mine = [(r, a) for r, a in due if r.owner == p]
        if not mine:
            raise IllegalAction(f"{p} does not own {self.profile.deed_name(due[0][0].deed)}: only its owner asks "
                                f"for the rent")
        # The latest landing first: a log from before rent windows outlived a re-roll asked only that one.
        r, amount = mine[-1]
        name = self.profile.deed_name(r.deed)
        if amount == 0:
            raise IllegalAction(f"{name} is mortgaged: it earns no rent")
        if event.amount is not None and event.amount != amount:
            raise IllegalAction(f"the rent on {name} is {money(amount)} now, not {money(event.amount)}")
        self.rents.remove(next(x for x in self.rents if x.payer == r.payer and x.deed == r.deed))
        self._note(f"{p} asks {r.payer} for {money(amount)} rent on {name}")
        self._charge(r.payer, p, amount, f"rent on {name}")

    def _chance(self, event: ChanceDraw) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "draw a Chance card")
        self._expect_phase("chance", "drawing a Chance card")
        try:
            card = self.profile.chance_card(event.card)
        except RulesDataError:
            ids = ", ".join(c.id for c in self.profile.chance.cards)
            raise IllegalAction(f"there is no Chance card '{event.card}': the cards are {ids}") from None
        if self.deck[card.id] < 1:
            raise IllegalAction(f"every '{card.text}' card is held by a player: it cannot be drawn")
        self._note(f"{p} draws Chance: {card.text}")
        self.stage = "act"
        if card.effect in KEPT_CARDS:
            self.deck[card.id] -= 1
            self.kept_cards[p].append(card.id)
        elif card.effect == "collect":
            assert card.amount is not None
            self._transfer(BANK, p, card.amount, f"Chance: {card.text}")
        elif card.effect == "pay":
            assert card.amount is not None
            self._charge(p, BANK, card.amount, f"Chance: {card.text}")
        elif card.effect == "resources":
            assert card.resource is not None and card.resources is not None
            self._from_bank(p, card.resource, card.resources, f"Chance: {card.text}")
        elif card.effect == "move_to":
            assert card.space is not None
            size = len(self.profile.track.spaces)
            self._move_by(p, (card.space - self.positions[p]) % size or size, card.collect_go)
        elif card.effect == "go_to_jail":
            self._send_to_jail(p)

    def _resource_roll(self, event: ResourceRoll) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "roll for resources")
        self._expect_phase("resource_roll", "rolling for resources")
        space = self.profile.track.spaces[self.positions[p]]
        assert space.chart is not None
        total = sum(event.dice)
        colour = space.chart[str(total)]
        self._note(f"{p} rolls {event.dice[0]}+{event.dice[1]} = {total} for resources: {colour}")
        self._from_bank(p, colour, self.profile.counts.roll_for_resources.value, f"Roll for Resources ({total})")
        self.stage = "act"

    def _steal(self, event: Steal) -> None:
        p = event.player
        self._expect_mover(p, "steal")
        self._expect_phase("steal", "stealing")
        if event.target is not None:
            if event.target == p or event.target not in self.players:
                raise IllegalAction(f"{p} steals from another player in the game, not {event.target}")
            if event.resource is None:
                raise IllegalAction("say which resource is stolen")
            self._colour(event.resource)
            if self.resources[event.target][event.resource] < 1:
                raise IllegalAction(f"{event.target} has no {event.resource} resource to steal")
            self._move_chips(event.target, p, event.resource, 1)
            self._note(f"{p} steals a {event.resource} resource from {event.target}")
        self.stage = "act"

    def _place_token(self, event: PlaceToken) -> None:
        p = event.player
        assert self.profile is not None
        size = len(self.profile.track.spaces)
        if not 0 <= event.space < size:
            raise IllegalAction(f"there is no space {event.space} on the track: its spaces are 0 (GO) to {size - 1}")
        name = self.space_name(event.space)
        if event.space == self.positions[p]:
            raise IllegalAction(f"{p}'s token is already on {name}")
        if p in self.jail:
            raise IllegalAction(f"{p} is in Jail: the token stays there until {p} leaves Jail")
        if self.stage == "auction":
            raise IllegalAction("a token is corrected once the auction is closed")
        if p == self.mover and self.stage not in ("roll", "act"):
            raise IllegalAction(f"{p}'s landing is being played ({self.waiting_for()}): undo the roll to "
                                f"correct where the token went")
        self.positions[p] = event.space
        if p == self.mover:
            self.free_parking_open = False  # the landing it opened was elsewhere
        self._note(f"{p}'s token is really on {name}: it is put there (no GO money, no resources picked up, "
                   f"the space does nothing)")

    def _expect_my_turn_free(self, player: str, action: str) -> None:
        """Trades with the Bank happen on the player's own turn, outside an auction."""
        self._expect_mover(player, action)
        if self.phase == "auction":
            raise IllegalAction(f"{action} must wait until the auction is closed")

    def _free_parking(self, event: FreeParking) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "trade at Free Parking")
        if not self.free_parking_open:
            raise IllegalAction(f"{p} trades 2-for-1 with the Bank only once, on landing on Free Parking")
        self._colour(event.take)
        self._check_chips(p, event.give, "to give")
        need = self.profile.counts.free_parking_give.value
        if sum(event.give.values()) != need:
            raise IllegalAction(f"Free Parking trades exactly {need} resources for one")
        if event.give.get(event.take, 0):
            raise IllegalAction(f"Free Parking gives a resource of a different type from those given, not {event.take}")
        if self.resources[BANK][event.take] < 1:
            raise IllegalAction(f"the Bank has no {event.take} resource left")
        for colour, n in event.give.items():
            self._move_chips(p, BANK, colour, n)
        self._move_chips(BANK, p, event.take, 1)
        self.free_parking_open = False
        self._note(f"{p} trades {_chips(event.give)} for 1 {event.take} at Free Parking")

    def _bank_trade(self, event: BankTrade) -> None:
        p = event.player
        assert self.profile is not None
        problem = self.bank_trade_now(p)
        if problem:
            raise IllegalAction(problem)
        self._colour(event.give)
        self._colour(event.take)
        rate = self.profile.counts.bank_trade_rate.value
        if event.give == event.take:
            raise IllegalAction(f"the Bank trades {rate} resources of one type for one of another type")
        if self.resources[p][event.give] < rate:
            raise IllegalAction(f"{p} has {self.resources[p][event.give]} {event.give} resources, not {rate}")
        if self.resources[BANK][event.take] < 1:
            raise IllegalAction(f"the Bank has no {event.take} resource left")
        self._move_chips(p, BANK, event.give, rate)
        self._move_chips(BANK, p, event.take, 1)
        self._note(f"{p} trades {rate} {event.give} for 1 {event.take} with the Bank")

    def _check_bundle(self, player: str, bundle: Bundle) -> None:
        assert self.profile is not None
        if self.cash[player] < bundle.cash:
            raise IllegalAction(f"{player} has {money(self.cash[player])}, not the {money(bundle.cash)} offered")
        self._check_chips(player, bundle.resources, "offered")
        for deed in bundle.deeds:
            self._known_deed(deed)
            if self.owners[deed] != player:
                raise IllegalAction(f"{player} does not own {self.profile.deed_name(deed)}")
        if len(set(bundle.deeds)) != len(bundle.deeds):
            raise IllegalAction("a deed is listed twice in the trade")
        for card in set(bundle.cards):
            if self.kept_cards[player].count(card) < bundle.cards.count(card):
                raise IllegalAction(f"{player} does not hold the card '{card}' offered")

    def _hand_over(self, giver: str, taker: str, bundle: Bundle, reason: str) -> None:
        self._transfer(giver, taker, bundle.cash, reason)
        for colour, n in bundle.resources.items():
            self._move_chips(giver, taker, colour, n)
        for deed in bundle.deeds:
            self.owners[deed] = taker  # a mortgaged deed stays mortgaged: the new owner may unmortgage it
        for card in bundle.cards:
            self.kept_cards[giver].remove(card)
            self.kept_cards[taker].append(card)

    def _trade(self, event: Trade) -> None:
        p, q = event.player, event.partner
        if q not in self.players or q == p:
            raise IllegalAction(f"{p} trades with another player in the game, not {q}")
        if q in self.bankrupt:
            raise IllegalAction(f"{q} is bankrupt and cannot trade")
        if event.give.empty() and event.get.empty():
            raise IllegalAction("the trade gives nothing either way")
        self._check_bundle(p, event.give)
        self._check_bundle(q, event.get)
        self._hand_over(p, q, event.give, f"trade with {q}")
        self._hand_over(q, p, event.get, f"trade with {p}")
        self._note(f"{p} and {q} trade")

    def _forced_trade(self, event: ForcedTrade) -> None:
        p, t = event.player, event.target
        self._expect_my_turn_free(p, "play a FORCED TRADE! card")
        if "forced_trade" not in self.kept_cards[p]:
            raise IllegalAction(f"{p} holds no FORCED TRADE! card")
        if t not in self.players or t == p:
            raise IllegalAction(f"a forced trade is with another player in the game, not {t}")
        self._colour(event.give)
        self._colour(event.take)
        if self.resources[p][event.give] < 1:
            raise IllegalAction(f"{p} has no {event.give} resource to give")
        if self.resources[t][event.take] < 1:
            raise IllegalAction(f"{t} has no {event.take} resource to give")
        self._move_chips(p, t, event.give, 1)
        self._move_chips(t, p, event.take, 1)
        self._return_card(p, "forced_trade")
        self._note(f"{p} forces {t} to trade a {event.take} for a {event.give}")

    def _build(self, event: Build) -> None:
        p = event.player
        assert self.profile is not None
        self._expect_mover(p, "build")
        self._expect_phase("act", "building")
        if p in self.jail:
            raise IllegalAction(f"{p} is in Jail and may not build this turn")
        try:
            cell = cell_name(*parse_cell(event.cell))
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        problem = self.build_problem(cell, p)
        if problem:
            raise IllegalAction(problem)
        floor = self._floor_at(cell)
        cost = self.floor_cost(p, floor)
        self._check_chips(p, event.paid, "to pay")
        what = "the penthouse" if floor > self.profile.counts.max_floors.value else f"floor {floor}"
        short = [c for c, n in cost.colours.items() if event.paid.get(c, 0) < n]
        if short or sum(event.paid.values()) != cost.total:
            raise IllegalAction(f"{what} costs {p} {cost.describe()} ({cost.total} resources), "
                                f"not {_chips(event.paid) or 'nothing'}")
        for colour, n in event.paid.items():
            self._move_chips(p, BANK, colour, n)
        old = self.buildings.get(cell)
        if floor > self.profile.counts.max_floors.value:
            assert old is not None
            self.buildings[cell] = Building(p, old.floors, True)
            self.penthouse_by = p
            self._note(f"{p} builds the penthouse on {cell}: the game is over")
            self.finished, self.end_reason, self.stage = True, "penthouse", "over"
            return
        self.blocks[p] -= 1
        self.buildings[cell] = Building(p, floor)
        self._note(f"{p} builds floor {floor} on {cell}")

    def _mortgage(self, event: Mortgage) -> None:
        p = event.player
        assert self.profile is not None
        name = self._own_deed(p, event.deed)
        if event.deed in self.mortgaged:
            raise IllegalAction(f"{name} is already mortgaged")
        value = self.profile.number(event.deed, "mortgage")
        self.mortgaged.add(event.deed)
        self._transfer(BANK, p, value, f"mortgages {name}")
        self._note(f"{p} mortgages {name} for {money(value)}")

    def _unmortgage(self, event: Unmortgage) -> None:
        p = event.player
        assert self.profile is not None
        name = self._own_deed(p, event.deed)
        if event.deed not in self.mortgaged:
            raise IllegalAction(f"{name} is not mortgaged")
        value = self.profile.number(event.deed, "mortgage")
        if self.cash[p] < value:
            raise IllegalAction(f"{p} has {money(self.cash[p])}, not the {money(value)} to unmortgage {name}")
        self._transfer(p, BANK, value, f"unmortgages {name}")
        self.mortgaged.discard(event.deed)
        self._note(f"{p} unmortgages {name}")

    def _bankrupt(self, event: Bankrupt) -> None:
        p = event.player
        assert self.profile is not None
        d = self.debt
        if d is None or d.debtor != p:
            raise IllegalAction(f"{p} owes nothing: a player declares bankruptcy only when they cannot pay a debt")
        unmortgaged = [self.profile.deed_name(x) for x in self.deeds_of(p) if x not in self.mortgaged]
        if unmortgaged:
            raise IllegalAction(f"{p} can still mortgage {unmortgaged[0]} to pay what they owe")
        self.debt = None
        creditor = d.creditor
        self.rents = [r for r in self.rents if p != r.payer and self.owners[r.deed] != p]
        self._transfer(p, creditor, self.cash[p], f"bankrupt: {d.reason}")
        for colour, n in list(self.resources[p].items()):
            self._move_chips(p, creditor, colour, n)
        for deed in self.deeds_of(p):
            if creditor == BANK:
                self.owners[deed] = None
                self.mortgaged.discard(deed)  # back to the Bank: the mortgage is cancelled, the deed for sale again
            else:
                self.owners[deed] = creditor
        for card in list(self.kept_cards[p]):
            if creditor == BANK:
                self._return_card(p, card)
            else:
                self.kept_cards[p].remove(card)
                self.kept_cards[creditor].append(card)
        self.bankrupt.append(p)
        self.jail.pop(p, None)
        self._note(f"{p} is bankrupt: their assets go to {self._account_name(creditor)}; "
                   f"their buildings stay and still score")
        if self.players[self.to_move] == p:
            self.again = False
            if self.auction is not None:
                self.auction = None
            self._advance()
        elif self.auction is not None and self.auction.high_bidder == p:
            self.auction = AuctionState(self.auction.deed)

    def _end_turn(self, event: EndTurn) -> None:
        p = event.player
        self._expect_mover(p, "end the turn")
        self._expect_phase("act", "ending the turn")
        self._note(f"{p} ends the turn")
        self._advance()

    def _end_game(self, event: EndGame) -> None:
        self.finished, self.end_reason, self.stage = True, event.reason or "agreed", "over"
        self._note("the table ends the game: it is scored as it stands")


