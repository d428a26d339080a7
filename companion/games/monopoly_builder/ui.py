"""Monopoly Builder's UI side for the app shell: setup form, screens (turn with the building grid, Bank,
score, the board profile editor reached from the setup form), follower view (read-only). The game's
screens use the width of a laptop page (`layout`)."""

from __future__ import annotations

import flet as ft

from companion.games.monopoly_builder.bank import BuilderBank
from companion.games.monopoly_builder.drafts import BuilderTab
from companion.games.monopoly_builder.end import BuilderEnd, score_card
from companion.games.monopoly_builder.grid import grid_width
from companion.games.monopoly_builder.profile_editor import EDITOR_SCREEN, ProfileEditor
from companion.games.monopoly_builder.setup import BuilderSetupForm, start
from companion.games.monopoly_builder.table import BuilderTable, rebuild
from companion.games.monopoly_builder.trades import hands_panel
from companion.games.monopoly_builder.turn import BuilderTurn, grid_panel, news
from companion.games.spec import GameUI, Screen
from companion.ui.components.layout import content_width, is_wide
from companion.ui.models import AppState

# A watching laptop: the width left for the shell's column beside the follower view (the players' chips,
# who is to play, the PIN field and Referee this game: 160 px each, side by side), and the narrowest
# column of what happened worth putting beside the grid (the hand-out lines wrap to 3 lines at 220 px).
FOLLOW_SIDE = 340
FOLLOW_TEXT_MIN = 220


@ft.component
def BuilderFollower(app: AppState) -> ft.Control:
    """What a watching phone shows under the shell's status line: the roll and its hand-out, what just
    happened, everyone's resources, tokens and deeds, the building grid; the score once it is over."""
    game: BuilderTable | None = app.game
    if game is None:
        return ft.Container()
    items: list[ft.Control] = []
    if game.finished:
        items += [score_card(game, p, rank) for rank, p in enumerate(game.ranking(), 1)]
    else:
        items.append(ft.Text(game.waiting_for(), size=14, italic=True))
    items += news(game)
    items += [ft.Text(sentence, size=13) for _move, sentence in game.rent_prompts()]
    items += hands_panel(game)
    items += [ft.Text(line, size=13) for line in game.follow_lines()]
    grid = grid_panel(app, game, interactive=False)
    page_width = ft.context.page.width
    if not is_wide(page_width):
        return ft.Column([*items, *grid], spacing=8)
    # A wide page: the shell draws this in its left column, which takes its content's width, so every part
    # gets a width of its own. What happened goes beside the grid when there is room for it and the
    # shell's column; else above the grid, as on a phone, at the grid's width.
    drawn = grid_width(page_width, max((len(row) for row in game.sites()), default=1))
    beside = content_width(page_width) - drawn - 2 * 20 - FOLLOW_SIDE
    if beside < FOLLOW_TEXT_MIN:
        return ft.Container(width=drawn, content=ft.Column([*items, *grid], spacing=8))
    return ft.Row([ft.Column(grid, spacing=8, tight=True),
                   ft.Container(width=beside, content=ft.Column(items, spacing=8))],
                  spacing=20, tight=True, vertical_alignment=ft.CrossAxisAlignment.START)


UI = GameUI(
    setup_form=BuilderSetupForm,
    start=start,
    rebuild=rebuild,
    screens=(Screen("builder_turn", "Turn", BuilderTurn, wide=True),
             Screen("builder_bank", "Bank", BuilderBank, wide=True),
             Screen("builder_end", "Score", BuilderEnd, wide=True),
             Screen(EDITOR_SCREEN, "", ProfileEditor, needs_game=False, wide=True)),
    follower=BuilderFollower,
    end_screen="builder_end",
    min_players=2,
    max_players=4,
    tab_state=BuilderTab,
)
