"""The shared money ledger (companion/rules/ledger.py): money moves between named accounts and is never
created or lost; a refused transfer changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.errors import IllegalAction
from companion.rules.ledger import Transaction, describe_transaction, transfer
from companion.rules.money import money_millions, money_prefixed

ACCOUNTS = ["bank", "pot", "Ann", "Bob"]


def test_a_transfer_moves_money_and_is_recorded() -> None:
    cash = {"bank": 1000, "Ann": 0}
    log: list[Transaction] = []
    transfer(cash, log, "bank", "Ann", 300, "starting cash", 0)
    assert cash == {"bank": 700, "Ann": 300}
    assert log == [Transaction(1, "bank", "Ann", 300, "starting cash", 0)]
    assert describe_transaction(log[0]) == "The Bank pays Ann M300: starting cash."


@pytest.mark.parametrize(("payer", "payee", "amount", "message"), [
    ("Ann", "bank", 1, "Ann has M0, not M1"),
    ("bank", "Ann", -5, "cannot be negative"),
    ("bank", "Zed", 5, "no account 'Zed'"),
])
def test_a_refused_transfer_changes_nothing(payer: str, payee: str, amount: int, message: str) -> None:
    cash = {"bank": 1000, "Ann": 0}
    log: list[Transaction] = []
    with pytest.raises(IllegalAction, match=message):
        transfer(cash, log, payer, payee, amount, "test", 0)
    assert cash == {"bank": 1000, "Ann": 0} and log == []


@given(st.lists(st.tuples(st.sampled_from(ACCOUNTS), st.sampled_from(ACCOUNTS), st.integers(-50, 5000))))
def test_money_is_never_created_or_lost(moves: list[tuple[str, str, int]]) -> None:
    cash = {"bank": 10_000, "pot": 0, "Ann": 500, "Bob": 500}
    log: list[Transaction] = []
    for payer, payee, amount in moves:
        before, logged = dict(cash), len(log)
        try:
            transfer(cash, log, payer, payee, amount, "move", 0, overdraft=("bank",))
        except IllegalAction:
            assert cash == before and len(log) == logged  # a refused move changes nothing
        else:
            assert len(log) == logged + (amount > 0)  # recorded once (a zero amount records nothing)
            assert cash[payee] - before[payee] == (0 if payer == payee else amount)
        assert sum(cash.values()) == 11_000
        assert all(cash[a] >= 0 for a in ("pot", "Ann", "Bob"))


def test_each_currency_style_has_its_own_formatter() -> None:
    """The board games print the sign first with thousands separated; Deal's cards print millions, sign last."""
    assert money_prefixed(1500) == "M1,500"
    assert money_millions(5) == "5M"


def test_a_ledger_line_names_the_special_accounts_it_is_given() -> None:
    pot = Transaction(2, "Ann", "pot", 50, "jail fee", 3)
    assert describe_transaction(pot, {"pot": "Free Parking"}) == "Ann pays M50 to Free Parking: jail fee."
    assert describe_transaction(Transaction(3, "Ann", "bank", 1200, "rent", 3)) == "Ann pays M1,200 to the Bank: rent."
