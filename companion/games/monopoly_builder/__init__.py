"""Monopoly Builder (Hasbro 2021): the referee keeps the bank, deeds, resource chips and buildings, and counts the score."""

from companion.games.monopoly_builder import rules
from companion.games.spec import GameSpec

GAME = GameSpec(id=rules.VARIANT, label="Monopoly Builder", rules=rules,
                ui="companion.games.monopoly_builder.ui:UI")
