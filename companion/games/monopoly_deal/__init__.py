"""Monopoly Deal: the rules and bookkeeping (the `rules` package), the deck as validated data (`deck.py`,
`assets/decks/monopoly_deal.json`), the table around them (`table.py`) and its screens (`ui.py`...)."""

from companion.games.monopoly_deal import rules
from companion.games.spec import GameSpec

GAME = GameSpec(id=rules.VARIANT, label="Monopoly Deal", rules=rules,
                ui="companion.games.monopoly_deal.ui:UI")
