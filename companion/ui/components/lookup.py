"""Instant word lookup, no game needed: a word field, a choice of every installed word list, and the
ruling full screen exactly as a challenge shows it (`verdict.RulingPanel`). Reached from the
navigation row of every screen (`components/tools.py`); it changes no game.

Several words (all the words a play formed) are judged as one play, as a challenge is. Input that is
not words (digits, symbols) gets the judge's sentence instead of a ruling.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

import flet as ft

from companion.ui.adapters import JUDGE, Verdict
from companion.ui.components.choice import Choice
from companion.ui.components.verdict import RulingPanel
from companion.ui.models import AppState

MAX_WORDS = 20  # a play forms at most a handful of words; a paste of a page is not a lookup
RULING_SECONDS = 6  # as long as a challenge's ruling stays up


@dataclass
class LookupDraft:
    """What one tab has typed and chosen, and the ruling it is showing."""

    words: str = ""
    lexicon: str = ""  # "" = the game's list when a word game is on, else the judge's default
    back: str = "home"  # the screen the lookup was opened from
    verdict: Verdict | None = None
    error: str = ""
    shown: int = 0  # counts rulings, so a ruling's timer closes only its own ruling


def draft(app: AppState) -> LookupDraft:
    found: LookupDraft = app.form.tools.setdefault("lookup", LookupDraft())
    return found


def default_list(app: AppState) -> str:
    game = app.game
    return str(getattr(game, "lexicon", "") or JUDGE.default_name())


def open_lookup(app: AppState) -> None:
    d = draft(app)
    if app.screen not in ("lookup", "lookup-ruling"):
        d.back = app.screen
    d.error = ""
    app.go("lookup")


def split_words(text: str) -> list[str]:
    """The words typed: separated by spaces, commas or semicolons."""
    return [w for w in re.split(r"[\s,;]+", text.strip()) if w]


def judge(app: AppState) -> None:
    d = draft(app)
    words = split_words(d.words)
    if len(words) > MAX_WORDS:
        d.error = f"That is {len(words)} words: look up at most {MAX_WORDS} at once (the words of one play)."
        app.touch()
        return
    try:
        verdict = JUDGE.judge(words, d.lexicon or default_list(app))
    except ValueError as exc:  # not words (digits, symbols, nothing), or a list that cannot be loaded
        d.error = _sentence(str(exc))
        app.touch()
        return
    d.error = ""
    d.verdict = verdict
    d.shown += 1
    app.go("lookup-ruling")


def close_ruling(app: AppState) -> None:
    d = draft(app)
    d.verdict = None
    d.words = ""
    app.go("lookup")


def leave(app: AppState) -> None:
    d = draft(app)
    back = d.back if d.back not in ("lookup", "lookup-ruling", "verdict") else "home"
    app.go(back)


@ft.component
def LookupScreen(app: AppState) -> ft.Control:
    d = draft(app)
    _, redraw = ft.use_state(0)
    chosen = d.lexicon or default_list(app)

    def pick(name: str) -> None:
        d.lexicon = name
        redraw(lambda x: x + 1)

    items: list[ft.Control] = [
        ft.Text("Look up a word", size=24, weight=ft.FontWeight.BOLD),
        ft.Text("Type a word, or every word a play formed (separated by spaces). The ruling is for the "
                "whole play, as in a challenge. Nothing in the game changes.", size=13),
        ft.TextField(label="Words", value=d.words, autofocus=True, dense=True,
                     capitalization=ft.TextCapitalization.CHARACTERS,
                     on_change=lambda e: setattr(d, "words", e.control.value),
                     on_submit=lambda e: judge(app)),
        ft.Text("Word list"),
        Choice([(n, n) for n in JUDGE.available()], chosen, pick),
    ]
    if d.error:
        items.append(ft.Semantics(identifier="lookup-error", content=ft.Text(d.error, color="#B71C1C")))
    items.append(ft.Row([ft.FilledButton("Judge", icon=ft.Icons.GAVEL, on_click=lambda e: judge(app)),
                         ft.TextButton("Back", on_click=lambda e: leave(app))], wrap=True))
    return ft.Column(items, spacing=10)


@ft.component
def LookupRuling(app: AppState) -> ft.Control:
    d = draft(app)
    shown = d.shown

    async def close_later() -> None:
        await asyncio.sleep(RULING_SECONDS)
        if app.screen == "lookup-ruling" and d.shown == shown:
            close_ruling(app)

    ft.on_mounted(lambda: ft.context.page.run_task(close_later))
    if d.verdict is None:
        return ft.Container()
    return RulingPanel(d.verdict, "Looked up: no game was changed.", lambda: close_ruling(app))


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
