"""A random but legal Monopoly Builder table, for the property tests and the example game.

`next_event(state, rng)` picks one event the rules should accept now (what a table might do: roll, buy or
auction, pay for floors with the chips in hand, trade, mortgage when short...). `play(seed)` plays a
whole game with it. Every choice comes from the rules' offered moves (`legal.legal_moves` and its parts:
rents, builds with their payments) and the state's public helpers (`discard_owed`, `rolls_again`), so a
refusal of a bot's event is a bug in the rules or in those helpers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from companion.events import Event, GameLog
from companion.games.monopoly_builder.legal import rent_moves
from companion.games.monopoly_builder.profile import FloorCost, Profile
from companion.games.monopoly_builder.rules import (
    BANK,
    Auction,
    AuctionEnd,
    Bankrupt,
    BankTrade,
    Bid,
    Build,
    BuilderState,
    Bundle,
    Buy,
    ChanceDraw,
    Discard,
    EndTurn,
    ForcedTrade,
    FreeParking,
    JailCard,
    JailPay,
    Mortgage,
    ResourceRoll,
    Roll,
    Steal,
    Trade,
    Unmortgage,
    new_game,
)

SEATS = [("Ann", "red"), ("Bob", "purple"), ("Cy", "green"), ("Di", "yellow")]


def payment(cost: FloorCost, hand: Mapping[str, int]) -> dict[str, int] | None:
    """Chips from `hand` that pay `cost` (named colours first, then the most plentiful), or None."""
    left = dict(hand)
    paid: dict[str, int] = {}
    for colour, n in cost.colours.items():
        if left.get(colour, 0) < n:
            return None
        left[colour] -= n
        paid[colour] = paid.get(colour, 0) + n
    for _ in range(cost.any):
        colour = max(left, key=lambda c: left[c])
        if left[colour] < 1:
            return None
        left[colour] -= 1
        paid[colour] = paid.get(colour, 0) + 1
    return {c: n for c, n in paid.items() if n}


def dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def build_choice(s: BuilderState, p: str, rng: random.Random) -> Build | None:
    """A floor the player can pay for: the tallest of their own buildings first, else a random empty foundation."""
    assert s.profile is not None
    own = sorted((c for c, b in s.buildings.items() if b.owner == p), key=lambda c: -s.buildings[c].height)
    empty = [c for c in s.profile.foundation_cells() if c not in s.buildings]
    rng.shuffle(empty)
    # Start a new building only with blocks to spare: the game ends with a penthouse on a tall one.
    fresh = empty[:3] if len(own) < 4 or s.blocks[p] > 6 else []
    for cell in [*own, *fresh]:
        floor = s.next_floor(cell, p)
        if floor is None:
            continue
        paid = payment(s.floor_cost(p, floor), s.resources[p])
        if paid is not None:
            return Build(player=p, cell=cell, paid=paid)
    return None


def next_event(s: BuilderState, rng: random.Random) -> Event:
    assert s.profile is not None
    allowed = s.allowed_events()
    if s.debt is not None:
        d = s.debt.debtor
        free = [x for x in s.deeds_of(d) if x not in s.mortgaged]
        return Mortgage(player=d, deed=free[0]) if free else Bankrupt(player=d)
    p = s.players[s.to_move]
    rents = rent_moves(s)
    if rents and rng.random() < 0.7:
        return rng.choice(rents)
    if s.phase == "discard" or (s.rolls_again() and s.discard_owed()):
        extra = s.discard_owed()
        chips: dict[str, int] = {}
        for _ in range(extra):
            colour = max(s.resources[p], key=lambda c: s.resources[p][c] - chips.get(c, 0))
            chips[colour] = chips.get(colour, 0) + 1
        return Discard(player=p, resources=chips)
    if s.phase == "roll":
        if p in s.jail:
            if "get_out_of_jail" in s.kept_cards[p] and rng.random() < 0.5:
                return JailCard(player=p)
            if s.cash[p] >= s.profile.amounts.jail_fee.value and rng.random() < 0.4:
                return JailPay(player=p)
        return Roll(player=p, dice=dice(rng))
    if s.phase == "buy":
        deed = s.profile.track.spaces[s.positions[p]].deed
        assert deed is not None
        if s.cash[p] >= s.profile.number(deed, "price") and rng.random() < 0.75:
            return Buy(player=p)
        return Auction(player=p)
    if s.phase == "auction":
        assert s.auction is not None
        least = (s.profile.amounts.auction_start.value if s.auction.high_bidder is None
                 else s.auction.high_bid + s.profile.amounts.auction_raise.value)
        bidders = [q for q in s.active_players if s.cash[q] >= least + 20]
        if bidders and rng.random() < 0.6:
            return Bid(player=rng.choice(bidders), amount=least + 5 * rng.randint(0, 3))
        return AuctionEnd()
    if s.phase == "chance":
        return ChanceDraw(player=p, card=rng.choice([c for c, n in s.deck.items() if n > 0]))
    if s.phase == "resource_roll":
        return ResourceRoll(player=p, dice=dice(rng))
    if s.phase == "steal":
        targets = [q for q in s.players if q != p and s.hand(q) > 0]
        if not targets or rng.random() < 0.1:
            return Steal(player=p)
        t = rng.choice(targets)
        return Steal(player=p, target=t, resource=rng.choice([c for c, n in s.resources[t].items() if n]))
    # phase "act": trades, building, then the end of the turn
    if "build" in allowed:
        build = build_choice(s, p, rng)
        if build is not None and rng.random() < 0.9:
            return build
    roll = rng.random()
    if s.free_parking_open and roll < 0.3 and s.hand(p) >= 2:
        give: dict[str, int] = {}
        for _ in range(2):
            colour = max(s.resources[p], key=lambda c: s.resources[p][c] - give.get(c, 0))
            give[colour] = give.get(colour, 0) + 1
        takes = [c for c in s.colours if c not in give and s.resources[BANK][c] > 0]
        if takes:
            return FreeParking(player=p, give=give, take=rng.choice(takes))
    rich = [c for c, n in s.resources[p].items() if n >= s.profile.counts.bank_trade_rate.value]
    if rich and roll < 0.5:
        takes = [c for c in s.colours if c != rich[0] and s.resources[BANK][c] > 0]
        wanted = [c for c in takes if s.resources[p][c] == 0]
        if takes:
            return BankTrade(player=p, give=rich[0], take=rng.choice(wanted or takes))
    others = [q for q in s.active_players if q != p]
    if "forced_trade" in s.kept_cards[p] and others and roll < 0.6:
        t = rng.choice(others)
        mine = [c for c, n in s.resources[p].items() if n]
        theirs = [c for c, n in s.resources[t].items() if n]
        if mine and theirs:
            return ForcedTrade(player=p, target=t, give=rng.choice(mine), take=rng.choice(theirs))
    if others and roll < 0.15:
        q = rng.choice(others)
        mine = [c for c, n in s.resources[p].items() if n]
        theirs = [c for c, n in s.resources[q].items() if n]
        deeds = s.deeds_of(q)
        if mine and (theirs or deeds):
            get = (Bundle(deeds=[rng.choice(deeds)]) if deeds and rng.random() < 0.3
                   else Bundle(resources={rng.choice(theirs): 1}) if theirs else Bundle())
            cash = min(s.cash[p], rng.choice([0, 5, 20]))
            return Trade(player=p, partner=q, give=Bundle(cash=cash, resources={rng.choice(mine): 1}), get=get)
    mortgaged = [d for d in s.deeds_of(p) if d in s.mortgaged and s.cash[p] > s.profile.number(d, "mortgage") + 100]
    if mortgaged and roll < 0.2:
        return Unmortgage(player=p, deed=mortgaged[0])
    free = [d for d in s.deeds_of(p) if d not in s.mortgaged]
    if free and roll > 0.97:
        return Mortgage(player=p, deed=free[0])
    if s.rolls_again():
        return Roll(player=p, dice=dice(rng))  # doubles: the next roll is the next turn, no end_turn
    return EndTurn(player=p)


def play(seed: int, players: int = 3, max_events: int = 3000, profile: Profile | str = "monopoly_builder",
         **table: object) -> GameLog[BuilderState]:
    """A whole game (to the penthouse, or `max_events`) from a seeded random table."""
    rng = random.Random(seed)
    log = new_game(SEATS[:players], profile, **table)
    while not log.state.finished and len(log.events) < max_events:
        log.push(next_event(log.state, rng))
    return log
