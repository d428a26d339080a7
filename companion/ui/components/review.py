"""End-of-game review: for every play entered with the player's rack, the best play that rack had.
Computed only when asked, in a worker thread (the whole game's move generation), and kept by the table
(`WordTable.play_reviews`) until its log changes. Offered when the table has the capability and a play
carries a rack (games imported from GCG records do; the referee may type racks with hand plays)."""

from __future__ import annotations

import asyncio
import logging

import flet as ft

from companion.rack_check import TurnReview
from companion.ui.models import AppState

LOG = logging.getLogger("companion.ui")


def offers_review(game: object) -> bool:
    return callable(getattr(game, "play_reviews", None)) and bool(getattr(game, "has_racks", lambda: False)())


def _line(review: TurnReview) -> str:
    played = f"{review.played} {review.played_score if review.played_score is not None else '?'}"
    if not review.played_in_list:
        played += " (not in the word list)"
    best = review.best
    if best is None:
        return f"{review.number}. {review.player} ({review.rack}): played {played}; no play found."
    move = f"{best.position.notation} {best.word} {best.score}"
    if not review.played_in_list:
        verdict = f"best in the list {move}"
    elif best.score <= (review.played_score or 0):
        verdict = "the best play"
    else:
        verdict = f"best {move} (+{review.missed})"
    return f"{review.number}. {review.player} ({review.rack}): played {played}; {verdict}."


def review_lines(game: object) -> list[str]:
    """The review's lines (run in a worker thread), or the one sentence saying it could not be made: the
    review is extra, a failure keeps the screen; the fault (a bug in the move generator) is logged."""
    try:
        return [_line(r) for r in game.play_reviews()]  # type: ignore[attr-defined]
    except Exception as exc:  # the review is extra: say what failed, keep the screen
        LOG.exception("the best-play review failed")
        return [f"The review could not be made ({exc.__class__.__name__}: {exc})."]


@ft.component
def PlayReview(app: AppState) -> ft.Control:
    game = app.game
    not_computed: list[str] | None = None
    lines, set_lines = ft.use_state(not_computed)
    busy, set_busy = ft.use_state(False)
    if game is None or not offers_review(game):
        return ft.Container()

    async def compute() -> None:
        set_busy(True)
        set_lines(await asyncio.get_running_loop().run_in_executor(None, review_lines, game))
        set_busy(False)

    items: list[ft.Control] = [ft.Text("Review: the best play of each turn", size=18, weight=ft.FontWeight.BOLD)]
    if lines is None:
        items.append(ft.Text("For each play entered with its rack, the highest-scoring play that rack had "
                             "(the game's word list).", size=13))
        items.append(ft.OutlinedButton("Show the best play of each turn", icon=ft.Icons.LIGHTBULB_OUTLINE,
                                       on_click=compute, disabled=busy))
        if busy:
            items.append(ft.Text("Working it out...", italic=True))
    else:
        items.append(ft.Semantics(identifier="play-review", content=ft.Column(
            [ft.Text(line, size=13) for line in lines], spacing=4, tight=True)))
    return ft.Column(items, spacing=8)
