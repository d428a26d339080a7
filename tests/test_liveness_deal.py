"""The liveness law (`tests/liveness_law.py`, issue #26) for Monopoly Deal: `legal_moves` is live, every
move it offers is accepted, near-misses are refused in one sentence changing nothing, and the log is the
game. Random games (2 to 5 players, random house rules, hands unseen or partly dealt face up) take every
optional move the rules offer at every step: Just Say No chains, Double the Rent, every payment offered
(money, property, buildings, cards out of complete sets), wild moves, discards, undo. The table's end by
agreement is offered in every state before the end (checked), but the walk does not take it: the law is
that the game moves on without it.

Figures (this machine, 2 cores shared): `pytest tests/test_liveness_deal.py -q -s` prints the games,
events and seconds; a longer run: `python benchmarks/deal_rules.py --liveness 200`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from typing import Any

from deal_table import BLUE, BROWN, GREEN, RED, Table
from liveness_law import LawGame, LawReport, check_law, check_state

from companion.events import Event, GameLog, PlayerEvent
from companion.games.monopoly_deal.legal import legal_moves
from companion.games.monopoly_deal.rules import (
    Accept,
    BankCard,
    DealState,
    DebtCollector,
    Discard,
    DoubleRent,
    Draw,
    EndByAgreement,
    EndTurn,
    HouseRules,
    Lay,
    Pay,
    Rent,
    new_game,
)

NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve"]


def random_house(rng: random.Random) -> HouseRules:
    return HouseRules(
        received_building=rng.choice(["bank", "property"]), stack_double_rent=rng.random() < 0.7,
        double_with_any_rent=rng.random() < 0.7, excess_cards_to=rng.choice(["discard_pile", "draw_pile_bottom"]),
        broken_set_buildings=rng.choice(["stay", "bank", "discard"]), reshuffle_discards=rng.random() < 0.8,
        bank_property_wilds=rng.random() < 0.7, forced_deal_from_full_set=rng.random() < 0.3)


LOGS: list[GameLog[DealState]] = []  # the walks' games, for the counts the test prints


def event_counts() -> str:
    from collections import Counter

    counts = Counter(e.type for log in LOGS for e in log.events)
    return ", ".join(f"{k} {v}" for k, v in counts.most_common())


def new_log(rng: random.Random) -> GameLog[DealState]:
    log = _new_log(rng)
    LOGS.append(log)
    return log


def _new_log(rng: random.Random) -> GameLog[DealState]:
    players = NAMES[:rng.randint(2, 5)]
    log = new_game(players, random_house(rng))
    if rng.random() < 0.5:  # some tables deal face up (the referee sees the hands): seen-card paths
        assert log.state.deck is not None
        ids = [c.id for c in log.state.deck.cards]
        rng.shuffle(ids)
        dealt = {p: ids[i * 5:(i + 1) * 5] for i, p in enumerate(players) if rng.random() < 0.6}
        log = new_game(players, random_house(rng), dealt=dealt)
    return log


AGREEMENT_MISSING: list[str] = []


def moves_without_agreement(s: DealState) -> list[Event]:
    """The rules' moves minus the end by agreement (checked to be there before the end of the game)."""
    moves = legal_moves(s)
    if not s.finished and not any(isinstance(m, EndByAgreement) for m in moves):
        AGREEMENT_MISSING.append(s.waiting().sentence)
    return [m for m in moves if not isinstance(m, EndByAgreement)]


PICK = random.Random(0)


def one_move_per_kind(s: DealState) -> list[Event]:
    """For the random walk: one offered move of each kind (a random one), so the walk takes each kind of
    move as often as the others (uniform over all moves, it moved wilds half the time: a multicolour wild
    offers nine moves). Every offered move is applied by `test_every_offered_move_is_accepted...`."""
    by_kind: dict[str, list[Event]] = {}
    for m in moves_without_agreement(s):
        by_kind.setdefault(m.type, []).append(m)
    return [PICK.choice(ms) for ms in by_kind.values()]


def near_misses(s: DealState, rng: random.Random) -> Iterable[Event]:
    """Events that look like an offered move but break a rule, each certainly illegal by construction."""
    moves = moves_without_agreement(s)
    w = s.waiting()
    out: list[Event] = []
    player_moves = [m for m in moves if isinstance(m, PlayerEvent)]
    if player_moves:
        m = rng.choice(player_moves)
        # The same move by someone who is not the one to act now.
        others = [p for p in s.players if p != m.player and p != w.player
                  and not (isinstance(m, DoubleRent) or (s.pending is not None and p == s.pending.actor))]
        if others:
            out.append(m.model_copy(update={"player": rng.choice(others)}))
    with_card = [m for m in player_moves if hasattr(m, "card")]
    away = [c for p in s.players for c in s.banks.get(p, [])] + list(s.discard)
    if with_card and away:
        # A card that is somewhere else (a bank, the discard pile) played from the hand.
        m = rng.choice(with_card)
        out.append(m.model_copy(update={"card": rng.choice(away)}))
    if w.kind == "play" and w.player is not None:
        out.append(Draw(player=w.player))  # a second draw
        if s.hands[w.player] > s.limits.hand_limit:
            out.append(EndTurn(player=w.player))  # ending over the hand limit
        if s.plays_left == 0:
            bank = [c for c in s.possible_hand_cards(w.player) if s.card(c).kind == "money"]
            if bank:
                out.append(BankCard(player=w.player, card=bank[0]))  # a fourth play
    for m in moves:
        if isinstance(m, Pay) and w.amount and s.pending is not None:
            payable = s.payable(m.player)
            value = sum(s.card(c).value for c in m.cards)
            spare = [c for c in payable if c not in m.cards]
            if value >= w.amount and spare:
                out.append(Pay(player=m.player, cards=[*m.cards, rng.choice(spare)]))  # change would be due
            if len(m.cards) > 1 and sum(s.card(c).value for c in payable) >= w.amount:
                out.append(Pay(player=m.player, cards=m.cards[:-1]))  # one card short
            break
        if isinstance(m, Discard) and m.cards:
            extra = [c for c in s.possible_hand_cards(m.player) if c not in m.cards]
            if extra:
                out.append(Discard(player=m.player, cards=[*m.cards, extra[0]]))  # below the hand limit
            break
    rng.shuffle(out)
    return out


def summary(s: DealState) -> Any:
    return (s.summary(), repr(s.pending), s.plays, s.drawn, len(s.payments), s.turn_number)


DEAL = LawGame("Monopoly Deal", new_log, moves_without_agreement, near_misses, lambda s: bool(s.finished),
               summary, undo_chance=0.04)
DEAL_WALK = LawGame("Monopoly Deal", new_log, one_move_per_kind, near_misses, lambda s: bool(s.finished),
                    summary, undo_chance=0.04)


def test_random_deal_games_obey_the_liveness_law() -> None:
    t0 = time.perf_counter()
    AGREEMENT_MISSING.clear()
    LOGS.clear()
    PICK.seed(0)
    report = check_law(DEAL_WALK, range(11), max_events=450, check_all_offered=False, fold_every=25)
    seconds = time.perf_counter() - t0
    print(f"\nDeal liveness: {report.games} games, {report.events} events, {report.finished} won, "
          f"{report.offered_checked} offered moves applied, {report.near_misses_refused} near-misses refused, "
          f"{seconds:.1f} s\nevents taken: {event_counts()}")
    assert not report.failures, report.failures[:3]
    assert not AGREEMENT_MISSING, AGREEMENT_MISSING[:3]
    assert report.events > 3000 and report.near_misses_refused > 1000


def test_every_offered_move_is_accepted_in_a_few_whole_games() -> None:
    """Every move offered (not a sample) applied, at every state of three games."""
    report = check_law(DEAL, range(100, 103), max_events=250, check_all_offered=True, fold_every=50)
    assert not report.failures, report.failures[:3]
    assert report.offered_checked > 2000


# ---------------------------------------------------------------- hand-written edge states


def law_at(log: GameLog[DealState]) -> tuple[LawReport, list[Event]]:
    report = LawReport()
    moves = check_state(DEAL, log, random.Random(1), report)
    assert not report.failures, report.failures
    return report, moves


def test_a_player_with_no_cards_left_can_still_end_the_turn() -> None:
    t = Table()
    t.setup(Ann=BLUE)
    s = t.to("Ann")
    t.do(*[BankCard(player="Ann", card=c) for c in ("money-1-1", "money-1-2", "money-1-3")])
    _, moves = law_at(t.log)
    assert EndTurn(player="Ann") in moves and not any(isinstance(m, (Lay, BankCard)) for m in moves)
    assert s.turn_player == "Ann"


def test_over_the_hand_limit_only_a_discard_is_offered_then_the_end() -> None:
    t = Table()
    t.to("Ann")
    s = t.do(*[Draw(player="Ann")][:0])
    assert s.hands["Ann"] == 7
    from companion.games.monopoly_deal.rules import PassGo
    t.do(PassGo(player="Ann", card="action-pass-go-1"))  # 8 cards
    _, moves = law_at(t.log)
    discards = [m for m in moves if isinstance(m, Discard)]
    assert discards and not any(isinstance(m, EndTurn) for m in moves)
    t.do(discards[0])
    _, moves = law_at(t.log)
    assert EndTurn(player="Ann") in moves


def test_double_the_rent_is_its_own_tap_after_the_rent_and_before_any_answer() -> None:
    t = Table(("Ann", "Bob", "Cleo"))
    t.setup(Ann=RED[:2], Bob=["money-5-1"], Cleo=["money-10-1"])
    t.to("Ann")
    t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))
    _, moves = law_at(t.log)
    doubles = [m for m in moves if isinstance(m, DoubleRent)]
    assert doubles and doubles[0].player == "Ann"
    s = t.do(doubles[0])
    assert [c.amount for c in s.pending.claims] == [6, 6] and s.plays == 2
    _, moves = law_at(t.log)
    # A second double is still open until someone answers (two per rent by default) ...
    assert any(isinstance(m, DoubleRent) for m in moves)
    if s.waiting().kind == "answer":
        t.do(Accept(player="Bob"))
        _, moves = law_at(t.log)
        assert not any(isinstance(m, DoubleRent) for m in moves)  # ... closed once Bob has accepted ...
    pay = next(m for m in moves if isinstance(m, Pay))
    t.do(pay)
    _, moves = law_at(t.log)
    assert not any(isinstance(m, DoubleRent) for m in moves)  # ... or paid
    t.refuse(DoubleRent(player="Ann", card="action-double-the-rent-2"), "comes before")


def test_a_payer_with_only_a_built_set_gives_the_house_first() -> None:
    t = Table()
    t.setup(Ann=BLUE, Ben=[*GREEN, "house-1:green"])
    t.to("Ann")
    t.do(DebtCollector(player="Ann", card="action-debt-collector-1", target="Ben"))
    _, moves = law_at(t.log)
    pays = [m for m in moves if isinstance(m, Pay)]
    # Nothing but the set covers 5M: the default gives the house (a building before a property) and one
    # green card; other payments offered give two green cards, or the house with another green card.
    assert "house-1" in pays[0].cards and len(pays[0].cards) == 2
    assert len(pays) >= 2 and all(sum(t.s.card(c).value for c in p.cards) >= 5 for p in pays)


def test_the_end_by_agreement_is_offered_before_the_end_and_ranks_the_table() -> None:
    t = Table()
    t.setup(Ann=[*BLUE, *BROWN], Ben=RED[:2])
    assert EndByAgreement() in legal_moves(t.s)
    s = t.do(EndByAgreement())
    assert s.finished and s.winner() == ["Ann"] and legal_moves(s) == []
    assert "Ann wins with 2 complete sets" in s.story[-1]


def test_double_the_rent_after_a_payer_with_nothing_was_settled_doubles_the_rest() -> None:
    t = Table(("Ann", "Ben", "Cat"))
    t.setup(Ann=RED[:1], Cat=["money-10-1"])
    t.to("Ann")
    s = t.do(Rent(player="Ann", card="rent-red-yellow-1", colour="red"))
    assert s.pending is not None and s.pending.index == 1  # Ben had nothing: settled at once
    _, moves = law_at(t.log)
    double = next(m for m in moves if isinstance(m, DoubleRent))
    s = t.do(double)
    assert s.pending.claim.target == "Cat" and s.pending.claim.amount == 4
    assert s.payments[-1].payer == "Ben" and s.payments[-1].owed == 4 and s.payments[-1].forgiven == 4
    s.check()
