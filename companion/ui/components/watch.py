"""Watching the board (issue #22): the referee's Watch switch with the camera's live preview, and the
watch state every tab shows (the referee's and the followers').

The referee's tab is the phone standing over the board: while Watch is on it takes a picture every
`FRAME_INTERVAL` and offers it to the table's watcher (`companion.ui.watching.TableWatch`, which reads
it off the event loop and drops it when a read is still running). Everything the watcher decides is the
table's (`TableWatch.view`), so every tab draws the same state: "Watching", "Move seen: ... confirming in
5 s", "Asking the referee: ...". With the game's clocks running, the player's clock tap ends the move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Future
from typing import Any

import flet as ft
import flet_camera as fc
from flet.components.hooks.use_ref import MutableRef

from companion.ui.models import AppState
from companion.ui.watching import FRAME_INTERVAL, STALL_SECONDS, WatchView

VERDICT_SECONDS = 8
REFUSED = ("The camera was refused: allow this page to use the camera (the browser's site settings), "
           "then switch Watch on again. Nothing was changed.")
STALLED = ("The camera stopped sending pictures: nothing is confirmed until it comes back. Check the phone, then "
           "switch Watch off and on.")


def play_summary(check: Any, identifier: str = "play-score", effects_identifier: str = "play-effects") -> ft.Control:
    """A checked play as the table reads it: each word's score, the total, and (Monopoly Scrabble) what
    confirming it does with the money, the cards and the token."""
    parts = [f"{w} {s}" for w, s in check.words]
    if check.bonus:
        parts.append(f"{check.bonus_label} +{check.bonus}")
    score = ft.Semantics(identifier=identifier, content=ft.Text(
        f"{', '.join(parts)} = {check.total} points", size=16, weight=ft.FontWeight.BOLD))
    effects = [e for e in check.effects if " plays " not in e]
    if not effects:
        return score
    return ft.Column([score, ft.Semantics(identifier=effects_identifier, content=ft.Column(
        [ft.Text("If confirmed:", size=12, italic=True), *(ft.Text(e, size=13) for e in effects)],
        spacing=1, tight=True))], spacing=4, tight=True)


_COLOURS = {"watching": "#E3F2FD", "move seen": "#FFF8E1", "asking the referee": "#FFEBEE",
            "waiting for the withdrawn tiles to be lifted": "#FFF3E0"}


# No picture from the referee's camera for this long (it takes three a second): the other tabs say so.
SILENT_SECONDS = 10


@ft.component
def WatchState(view: WatchView, silent: int = 0) -> ft.Control:
    """The watch state as every tab shows it (plain data in, so followers draw exactly what the referee
    sees). A countdown redraws itself each half second until it ends."""
    _, set_tick = ft.use_state(0)

    def start() -> Any:
        async def ticker() -> None:
            while True:
                await asyncio.sleep(0.5)
                set_tick(lambda t: t + 1)

        if view.countdown_until is None:
            return None
        running = ft.context.page.run_task(ticker)
        return running.cancel

    ft.use_effect(start, [view.countdown_until])
    if not view.on:
        if view.problem:
            return ft.Semantics(identifier="watch-problem", content=ft.Text(view.problem, color="#B71C1C"))
        return ft.Container()
    # The headline: what is wrong first (bad input), else why nothing is read now, else the watcher's word.
    headline = view.problem or view.paused or view.message or "Watching."
    if silent >= SILENT_SECONDS and not view.problem:
        headline = (f"No picture from the referee's camera for {silent} s: is its screen still on? Nothing is "
                    "recorded meanwhile.")
    lines: list[ft.Control] = [ft.Semantics(identifier="watch-state", content=ft.Text(
        headline, size=16, weight=ft.FontWeight.BOLD, color="#B71C1C" if view.problem or silent else None))]
    if view.countdown_until is not None:
        # The watcher's sentence says the seconds left; the bar shows them going, redrawn every half second.
        lines.append(ft.Semantics(identifier="watch-countdown", content=ft.ProgressBar(
            value=view.share_left(), width=280, bar_height=8, color="#F9A825", bgcolor="#FFF3E0")))
    # A question comes with the reading that raised it (for the referee's correction screen), not a play to
    # score yet: its summary shows once the referee has answered.
    if view.proposal is not None and view.proposal.ok and not view.question:
        rows = view.proposal_rows or ()
        tiles = [f"{'ABCDEFGHIJKLMNO'[c]}{r + 1} {rows[r][c].upper()}" for r, c in sorted(view.proposal.new_squares)
                 if r < len(rows)]
        if tiles:
            lines.append(ft.Text("New tiles: " + ", ".join(tiles), size=13))
        lines.append(play_summary(view.proposal, "watch-score", "watch-effects"))
    elif view.proposal is not None and view.proposal.error and view.phase == "move seen":
        lines.append(ft.Text(view.proposal.error, size=13, color="#B71C1C"))
    if view.question:
        squares = ", ".join(f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for r, c in view.squares)
        lines.append(ft.Semantics(identifier="watch-question", content=ft.Text(
            f"Asking the referee: {view.question}" + (f" (squares {squares})" if squares else ""),
            size=14, color="#B71C1C")))
    if view.fps:
        lines.append(ft.Semantics(identifier="watch-rate", content=ft.Text(
            f"Camera: {view.fps:.1f} pictures a second, {view.read_fps:.1f} read.", size=11, italic=True)))
    return ft.Container(bgcolor=_COLOURS.get(view.phase, "#F5F5F5"), padding=8, border_radius=6,
                        content=ft.Column(lines, spacing=4, tight=True))


def _ruling(game: Any) -> ft.Control | None:
    """A challenge's ruling while watching: shown here, since leaving the screen would stop the camera."""
    verdict = game.last_verdict
    if verdict is None or time.time() - game.last_verdict_at >= VERDICT_SECONDS:
        return None
    return ft.Semantics(identifier="watch-verdict", content=ft.Container(
        bgcolor="#2E7D32" if verdict.acceptable else "#C62828", padding=10, border_radius=8,
        content=ft.Column([
            ft.Text(("ACCEPTABLE " if verdict.acceptable else "UNACCEPTABLE ") + " ".join(verdict.words),
                    color="#FFFFFF", size=20, weight=ft.FontWeight.BOLD),
            ft.Text(f"Word list: {verdict.lexicon}. {game.notice}", color="#FFFFFF", size=13)],
            spacing=2, tight=True)))


@ft.component
def WatchPanel(app: AppState) -> ft.Control:
    """The referee's watch: the switch, the live preview while on, the state, the clock tap, the setting."""
    watch = app.watch()
    task: MutableRef[Future[None] | None] = ft.use_ref(None)
    if watch is None:
        return ft.Container()
    game = app.game
    # This tab's camera feeds the watcher only when this tab switched Watch on (another referee tab on the
    # same table, a laptop beside the phone, shows the state and may switch it off, but films nothing).
    on = watch.on and watch.camera_tab == app.session_key
    # A fresh Camera each render (see components/camera.py): handlers use the latest instance.
    camera = fc.Camera(width=320, height=240, preview_enabled=True) if on else None
    latest: MutableRef[fc.Camera | None] = ft.use_ref(None)
    latest.current = camera
    mirrored = ft.use_ref(False)
    flip, set_flip = ft.use_state(False)  # the preview of a mirrored camera is shown flipped back

    def on_screen() -> fc.Camera:
        """The Camera of the latest render (each render makes a fresh one)."""
        cam = latest.current
        if cam is None:
            raise RuntimeError("the camera is not on the screen")
        return cam

    async def take() -> bytes:
        return bytes(await asyncio.wait_for(on_screen().take_picture(), timeout=STALL_SECONDS))

    async def run() -> None:
        """Start the camera, then offer it a picture every FRAME_INTERVAL until Watch is switched off."""
        for _ in range(50):  # the Camera control reaches the page with this render's update
            if latest.current is not None and latest.current.page is not None:
                break
            await asyncio.sleep(0.1)
        try:
            cams = await on_screen().get_available_cameras()
            if not cams:
                watch.stop("No camera was found on this device: use Upload photo instead. Nothing was changed.")
                return
            back = [c for c in cams if "back" in str(getattr(c, "lens_direction", "")).lower()]
            await on_screen().initialize(description=(back or cams)[0],
                                         resolution_preset=fc.ResolutionPreset.VERY_HIGH, enable_audio=False)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - refused or no camera: one sentence, nothing changes
            text = str(exc).lower()
            refused = any(w in text for w in ("denied", "notallowed", "permission", "not allowed"))
            watch.stop(REFUSED if refused else
                       f"The camera could not start ({exc}). Use Upload photo instead. Nothing was changed.")
            return
        mirrored.current = not back  # the web hands a non-back camera's picture back mirrored
        set_flip(not back)  # and mirrors its preview: the board reads the right way round on the screen
        watch.camera_ready()
        while watch.on:
            started = time.monotonic()
            try:
                data = await take()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the stream stopped: say so, commit nothing
                if not isinstance(exc, TimeoutError):
                    logging.getLogger("companion.watch").warning("watch: no picture from the camera: %s", exc)
                watch.camera_failed(STALLED)
                await asyncio.sleep(1.0)
                continue
            watch.offer(data, mirrored.current, time.monotonic())
            await asyncio.sleep(max(0.0, FRAME_INTERVAL - (time.monotonic() - started)))

    def effect() -> Any:
        if not on:
            return None
        task.current = ft.context.page.run_task(run)

        def cleanup() -> None:
            if task.current is not None:
                task.current.cancel()  # switched off, or the screen left: the loop ends with the camera
            if watch.on:
                # The referee's phone left the turn screen (its camera went with it): say so on every tab
                # rather than show a watch that no longer sees anything.
                watch.stop("Watching stopped: the referee's phone left the turn screen. Switch Watch on there "
                           "again.")

        return cleanup

    ft.use_effect(effect, [on])

    async def hold(e: Any) -> None:
        await app.watch_hold()

    async def carry_on(e: Any) -> None:
        await app.watch_carry_on()

    async def clock_tap(e: Any) -> None:
        """The player's clock tap: the frame taken now ends the move (`Watcher.boundary`)."""
        try:
            data: bytes | None = await take()
        except Exception:  # noqa: BLE001 - no picture: the boundary is judged from the frames already seen
            data = None
        await watch.boundary(data, mirrored.current, time.monotonic())

    items: list[ft.Control] = [ft.Row([
        ft.Switch(label="Watch", value=watch.on, on_change=lambda e: app.watch_on() if e.control.value else app.watch_off()),
        ft.Text("the phone stands over the board; moves are read as they are laid", size=12, italic=True),
    ], wrap=True)]
    if on and camera is not None:
        # Always the panel's second control while watching, keyed: a redraw that adds or drops a line around
        # it (a ruling, a question) must keep the live camera, not make a new, uninitialised one.
        items.append(ft.Container(key="watch-camera", content=camera, width=320, height=240, bgcolor="#000000",
                                  # always a scale, so flipping it later keeps the live camera's widget
                                  scale=ft.Scale(scale_x=-1 if flip else 1, scale_y=1)))
    ruling = _ruling(game)
    if ruling is not None:
        items.append(ruling)
    items.append(WatchState(watch.view))
    if watch.on:
        buttons: list[ft.Control] = []
        if watch.view.countdown_until is not None:
            buttons.append(ft.OutlinedButton("Wait", icon=ft.Icons.PAUSE, on_click=hold))
        if watch.view.question:
            # The answer is a play (the correction screen below, or by hand), or this: nothing was played.
            buttons.append(ft.OutlinedButton("Nothing was played: watch on", on_click=carry_on))
        if game.clocks is not None and not game.clocks.paused() and game.current_player:
            buttons.append(ft.Semantics(identifier="clock-tap", content=ft.FilledButton(
                f"{game.current_player}: stop my clock", icon=ft.Icons.TIMER, on_click=clock_tap)))
        if buttons:
            items.append(ft.Row(buttons, wrap=True))
    items.append(ft.Row([
        # 180 px: at 140 the label "Settle seconds" wrapped onto two lines at a phone's 360 px
        # (docs/screenshots/watch-7-referee-phone.png); 180 plus "Set" still fits one row there.
        ft.TextField(label="Settle seconds", value=app.form.settle, width=180, dense=True,
                     hint_text=f"{watch.settle():g}", keyboard_type=ft.KeyboardType.NUMBER,
                     on_change=lambda e: setattr(app.form, "settle", e.control.value),
                     on_submit=lambda e: app.set_watch_settle()),
        ft.TextButton("Set", on_click=lambda e: app.set_watch_settle()),
    ], wrap=True))
    # A tap on the panel outside its buttons stops a countdown as any such tap on the turn screen does
    # (`TurnScreen`'s detector), and as the Wait button does.
    return ft.Semantics(identifier="watch-panel", content=ft.Container(content=ft.Column(items, spacing=6, tight=True)))


@ft.component
def WatchFollower(app: AppState) -> ft.Control:
    """A follower's view of the watch (nothing when the table is not watched)."""
    watch = app.watch()
    _, set_tick = ft.use_state(0)
    # The watch state this tab last drew: a change the hub's redraw did not bring (a redraw lost while the tab was
    # busy) is drawn at the next look, so a follower never keeps showing "Watching" after the referee's camera
    # stopped (seen once under load: the server had said the camera failed, the follower still said "Watching").
    drawn: MutableRef[object | None] = ft.use_ref(None)

    def start() -> Any:
        async def ticker() -> None:  # a referee's phone gone quiet changes nothing else: look every 2 s
            while True:
                await asyncio.sleep(2.0)
                w = app.watch()
                if w is not None and (w.view is not drawn.current
                                      or w.on and w.silent_for() >= SILENT_SECONDS):
                    set_tick(lambda t: t + 1)

        running = ft.context.page.run_task(ticker)
        return running.cancel

    ft.use_effect(start, [])
    drawn.current = watch.view if watch is not None else None
    if watch is None or not (watch.on or watch.view.problem):
        return ft.Container()
    silent = int(watch.silent_for())
    return WatchState(watch.view, silent - silent % 5 if silent >= SILENT_SECONDS else 0)
