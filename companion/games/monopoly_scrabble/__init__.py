"""Monopoly Scrabble: the rules and bank (the `rules` package), the box's board profile (`profile.py`), the table
around them (`table.py`) and its screens (`ui.py`, `setup.py`, `steps.py`, `bank.py`, `profile_editor.py`).
Its stored id stays "monopoly" (saved games and logs carry it)."""

from companion.games.monopoly_scrabble import rules
from companion.games.spec import GameSpec

GAME = GameSpec(id=rules.VARIANT, label="Monopoly Scrabble", rules=rules,
                ui="companion.games.monopoly_scrabble.ui:UI")
