"""The shell's per-tab state names no game (issue #24): the word-board turn's drafts and Monopoly Scrabble's
`bought` letters live with the word games (`companion/ui/word_drafts.py`), mixed into the shell's `AppState`
and `Form`, so the screens call them on `app` as before.

Run `python -m pytest tests/test_ui_shell_names_no_game.py -q`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from companion.ui.models import AppState, Form
from companion.ui.word_drafts import WordBoardForm, WordBoardTurn

MODELS = Path(__file__).resolve().parents[1] / "companion" / "ui" / "models.py"
# What only the 15x15 word-board games draft: a photo's reading and its corrections, the typed play, the
# challenge's ruling, the racks left, the Bank letters bought (Monopoly Scrabble).
WORD_BOARD_NAMES = {"read_rows", "read_conf", "read_check", "read_warnings", "read_doubts", "hand_check",
                    "camera_open", "verdict", "bought", "play_rack", "exchange_count", "racks", "word", "square"}


def _names_in_code(path: Path) -> set[str]:
    """Every attribute and annotated field name the module's code uses (docstrings and comments left out)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_shell_state_names_no_word_board_draft() -> None:
    named = _names_in_code(MODELS) & WORD_BOARD_NAMES
    assert not named, f"companion/ui/models.py names the word board's drafts {sorted(named)}: they belong in " \
                      "companion/ui/word_drafts.py"


def test_the_tab_still_carries_the_word_board_drafts() -> None:
    """The screens read them on the tab as before: through the mixins."""
    tab = AppState(session_key="tab-a")
    assert isinstance(tab, WordBoardTurn) and isinstance(tab.form, WordBoardForm) and isinstance(Form(), WordBoardForm)
    assert tab.read_rows is None and tab.verdict is None and tab.form.bought == "" and tab.form.direction == "across"
    tab.form.bought, tab.form.play_rack = "G", "AEI"
    tab.form.forget_table()
    assert (tab.form.bought, tab.form.play_rack, tab.form.racks) == ("", "", {})
