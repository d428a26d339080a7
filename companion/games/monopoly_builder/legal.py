"""Monopoly Builder's one source of what is legal now: `legal_moves(state)` offers the moves the table may
record at this moment as concrete events (as a chess library's `legal_moves`), and every one of them is
accepted by `BuilderState.apply`. The app's pickers and buttons are drawn only from these moves; no table or
screen module decides legality again.

What is offered, from the state as it is now (nothing remembered from an earlier moment):

- the step the turn waits for: the discard owed (every choice of chips), the roll (each of the 36 throws),
  the Jail choices, buy or auction, bids, the Chance cards left in the deck, the Roll for Resources throw,
  each steal;
- after the move: each floor on each foundation with each way of paying it from the hand, Free Parking's
  2-for-1s, the Bank's 4-for-1s (in the Trade step, or any time on the player's turn with that setting), a
  FORCED TRADE! card's swaps, and End turn or the next player's roll, which ends the turn in one event
  (after doubles: the next roll or the discard before it);
- at any time: each rent an owner may still ask (naming the deed and the amount), mortgages, unmortgages,
  trades between players (a finite representative set: each single chip, deed or kept card for nothing or
  for a price step of cash), the correction of a token ("it is really on X"), and the end by agreement;
- while a player owes a debt: mortgages, trades, bankruptcy once every deed is mortgaged, the end by agreement.

Dice are offered as every throw, cash in trades as a few price steps, bids as a few raises: the table may
record any other amount or throw the rules accept; the set offered is what the app draws and what the
liveness law (`tests/test_liveness_builder.py`) checks.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from companion.events import Event
from companion.games.monopoly_builder import rules
from companion.games.monopoly_builder.profile import FloorCost

# Cash a single-item trade is offered at: a gift, and a price step (any other amount is still accepted).
TRADE_PRICES = (0, 10)
# Bids offered above the least bid, in numbers of the least raise (any other amount is still accepted).
BID_RAISES = (0, 1, 10)
THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def legal_moves(s: rules.BuilderState) -> list[Event]:
    """Every move offered now, the step the turn waits for first (see the module docstring)."""
    if s.settings is None or s.finished:
        return []
    if s.debt is not None:
        return debt_moves(s)
    out: list[Event] = step_moves(s)
    out += turn_options(s)
    out += rent_moves(s)
    out += mortgage_moves(s) + unmortgage_moves(s)
    out += trade_moves(s)
    out += token_moves(s)
    out.append(rules.EndGame())
    return out


def step_moves(s: rules.BuilderState) -> list[Event]:
    """What the turn waits for: the discard, the roll and Jail's choices, the space's action, End turn."""
    p = s.mover
    assert p is not None and s.profile is not None
    phase = s.phase
    if phase == "discard":
        return [rules.Discard(player=p, resources=chips) for chips in choose(s.resources[p], s.discard_owed())]
    if phase == "roll":
        out: list[Event] = []
        if p in s.jail:
            if s.cash[p] >= s.profile.amounts.jail_fee.value:
                out.append(rules.JailPay(player=p))
            if "get_out_of_jail" in s.kept_cards[p]:
                out.append(rules.JailCard(player=p))
        return out + [rules.Roll(player=p, dice=d) for d in THROWS]
    if phase == "buy":
        deed = s.profile.track.spaces[s.positions[p]].deed
        assert deed is not None
        buy: list[Event] = [rules.Buy(player=p)] if s.cash[p] >= s.profile.number(deed, "price") else []
        return buy + [rules.Auction(player=p)]
    if phase == "auction":
        return bid_moves(s) + [rules.AuctionEnd()]
    if phase == "chance":
        return [rules.ChanceDraw(player=p, card=c.id) for c in s.profile.chance.cards if s.deck.get(c.id, 0) > 0]
    if phase == "resource_roll":
        return [rules.ResourceRoll(player=p, dice=d) for d in THROWS]
    if phase == "steal":
        steals: list[Event] = [rules.Steal(player=p, target=o, resource=c) for o in s.players if o != p
                               for c in s.colours if s.resources[o][c] > 0]
        return steals + [rules.Steal(player=p)]
    if phase == "act":
        if s.rolls_again():
            owed = s.discard_owed()
            if owed:
                return [rules.Discard(player=p, resources=chips) for chips in choose(s.resources[p], owed)]
            return [rules.Roll(player=p, dice=d) for d in THROWS]
        return [rules.EndTurn(player=p)] + next_rolls(s)
    return []


def next_rolls(s: rules.BuilderState) -> list[Event]:
    """The next player's roll, which ends the turn that may end now (one event for End turn and roll),
    unless that turn starts with something else first (a discard owed)."""
    nxt, p = s.turn_passes_to(), s.mover
    if nxt is None or p is None:
        return []
    ended = copy.deepcopy(s)
    ended.apply(rules.EndTurn(player=p))
    if ended.phase != "roll" or ended.mover != nxt:
        return []
    return [rules.Roll(player=nxt, dice=d) for d in THROWS]


def turn_options(s: rules.BuilderState) -> list[Event]:
    """What the player whose turn it is may do besides the step: build, Free Parking, the Bank, a card."""
    p = s.mover
    assert p is not None
    out: list[Event] = []
    if s.stage == "act":
        out += build_moves(s, p)
        out += free_parking_moves(s, p)
    out += bank_trade_moves(s, p)
    out += forced_trade_moves(s, p)
    return out


def bid_moves(s: rules.BuilderState) -> list[Event]:
    assert s.profile is not None and s.auction is not None
    least = s.least_bid()
    step = s.profile.amounts.auction_raise.value
    return [rules.Bid(player=q, amount=least + k * step) for q in s.active_players for k in BID_RAISES
            if s.cash[q] >= least + k * step]


def build_moves(s: rules.BuilderState, p: str) -> list[Event]:
    """Each floor the player may add now, on each foundation, with each way of paying it from their hand."""
    if p in s.jail:
        return []
    assert s.profile is not None
    out: list[Event] = []
    for cell in s.profile.foundation_cells():
        floor = s.next_floor(cell, p)
        if floor is None:
            continue
        out += [rules.Build(player=p, cell=cell, paid=paid)
                for paid in payments(s.floor_cost(p, floor), s.resources[p])]
    return out


def payments(cost: FloorCost, hand: Mapping[str, int]) -> list[dict[str, int]]:
    """Every way to pay `cost` from `hand`: the named colours, then `cost.any` chips of what is left."""
    left = dict(hand)
    for colour, n in cost.colours.items():
        if left.get(colour, 0) < n:
            return []
        left[colour] -= n
    out = []
    for extra in choose(left, cost.any):
        paid = {c: cost.colours.get(c, 0) + extra.get(c, 0) for c in hand}
        out.append({c: n for c, n in paid.items() if n})
    return out


def choose(hand: Mapping[str, int], k: int) -> list[dict[str, int]]:
    """Every way to pick `k` chips from `hand` (colour -> count), as colour -> count without zeros."""
    colours = [c for c, n in hand.items() if n > 0]
    out: list[dict[str, int]] = []

    def walk(i: int, left: int, picked: dict[str, int]) -> None:
        if left == 0:
            out.append(dict(picked))
            return
        if i == len(colours):
            return
        c = colours[i]
        for n in range(min(hand[c], left), -1, -1):
            if n:
                picked[c] = n
            walk(i + 1, left - n, picked)
            picked.pop(c, None)

    if k > 0:
        walk(0, k, {})
    return out


def free_parking_moves(s: rules.BuilderState, p: str) -> list[Event]:
    if not s.free_parking_open:
        return []
    assert s.profile is not None
    need = s.profile.counts.free_parking_give.value
    return [rules.FreeParking(player=p, give=give, take=take) for give in choose(s.resources[p], need)
            for take in s.colours if take not in give and s.resources[rules.BANK][take] > 0]


def bank_trade_moves(s: rules.BuilderState, p: str) -> list[Event]:
    """The Bank's 4-for-1s allowed now (the Trade step, or any time on the turn with that setting)."""
    if s.bank_trade_now(p) is not None:
        return []
    assert s.profile is not None
    rate = s.profile.counts.bank_trade_rate.value
    return [rules.BankTrade(player=p, give=give, take=take) for give in s.colours if s.resources[p][give] >= rate
            for take in s.colours if take != give and s.resources[rules.BANK][take] > 0]


def forced_trade_moves(s: rules.BuilderState, p: str) -> list[Event]:
    """A kept FORCED TRADE! card, played on its holder's own turn outside an auction."""
    if "forced_trade" not in s.kept_cards[p] or s.stage == "auction":
        return []
    mine = [c for c in s.colours if s.resources[p][c] > 0]
    return [rules.ForcedTrade(player=p, target=t, give=give, take=take) for t in s.players if t != p
            for take in s.colours if s.resources[t][take] > 0 for give in mine]


def rent_moves(s: rules.BuilderState) -> list[Event]:
    """Each rent an owner may still ask, naming the deed and the amount."""
    return [rules.Rent(player=r.owner, deed=r.deed, amount=amount) for r, amount in s.rents_due() if amount > 0]


def mortgage_moves(s: rules.BuilderState) -> list[Event]:
    return [rules.Mortgage(player=o, deed=d) for d, o in s.owners.items()
            if o is not None and o not in s.bankrupt and d not in s.mortgaged]


def unmortgage_moves(s: rules.BuilderState) -> list[Event]:
    assert s.profile is not None
    return [rules.Unmortgage(player=o, deed=d) for d, o in s.owners.items()
            if o is not None and o not in s.bankrupt and d in s.mortgaged
            and s.cash[o] >= s.profile.number(d, "mortgage")]


def trade_moves(s: rules.BuilderState) -> list[Event]:
    """A finite representative set of trades between players (any other deal both agree is accepted too):
    each single chip, deed or kept card one player holds, given for nothing or sold for a price step."""
    out: list[Event] = []
    for p in s.active_players:
        items = ([rules.Bundle(resources={c: 1}) for c in s.colours if s.resources[p][c] > 0]
                 + [rules.Bundle(deeds=[d]) for d in s.deeds_of(p)]
                 + [rules.Bundle(cards=[c]) for c in sorted(set(s.kept_cards[p]))])
        for q in s.active_players:
            if q == p:
                continue
            out += [rules.Trade(player=p, partner=q, give=item, get=rules.Bundle(cash=price))
                    for item in items for price in TRADE_PRICES if s.cash[q] >= price]
    return out


def token_moves(s: rules.BuilderState) -> list[Event]:
    """Corrections: a token the app has on the wrong space is put where it really is (not while its
    landing is being played, not in Jail, not during an auction)."""
    assert s.profile is not None
    if s.stage == "auction":
        return []
    size = len(s.profile.track.spaces)
    out: list[Event] = []
    for p in s.active_players:
        if p in s.jail or (p == s.mover and s.stage not in ("roll", "act")):
            continue
        out += [rules.PlaceToken(player=p, space=i) for i in range(size) if i != s.positions[p]]
    return out


def debt_moves(s: rules.BuilderState) -> list[Event]:
    """While a player owes a debt: mortgages, trades, bankruptcy once every deed is mortgaged, the end."""
    assert s.debt is not None
    debtor = s.debt.debtor
    out: list[Event] = mortgage_moves(s)
    if not any(d not in s.mortgaged for d in s.deeds_of(debtor)):
        out.append(rules.Bankrupt(player=debtor))
    return out + trade_moves(s) + [rules.EndGame()]
