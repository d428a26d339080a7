"""Take the board photo with the device camera (flet-camera: web, Android, iOS)."""

from __future__ import annotations

import logging

import flet as ft
import flet_camera as fc

from companion.ui.models import AppState

LOG = logging.getLogger("companion.ui")


async def start_camera(camera: fc.Camera, app: AppState, resolution: fc.ResolutionPreset) -> tuple[bool, str]:
    """Start `camera` (the back one when there is one): whether it is ready, and the line shown under it.
    Any failure is said in that line (the upload is offered instead) and logged with its traceback."""
    try:
        cams = await camera.get_available_cameras()
        if not cams:
            return False, "No camera found: use Upload photo."
        back = [c for c in cams if "back" in str(getattr(c, "lens_direction", "")).lower()]
        await camera.initialize(description=(back or cams)[0], resolution_preset=resolution, enable_audio=False)
        app.camera_mirrored = not back
        return True, "Point at the whole board, then take the photo."
    except Exception as exc:  # any camera failure: say so, offer the upload instead
        LOG.warning("the camera could not start", exc_info=True)
        return False, f"The camera could not start ({exc}). Use Upload photo instead."


async def take_photo(camera: fc.Camera, app: AppState) -> bytes | None:
    """The photo's bytes, or None with the error line said (the fault logged); the turn stays as it was."""
    try:
        return bytes(await camera.take_picture())
    except Exception as exc:  # any camera failure: say so, keep the turn as it was
        LOG.warning("the camera could not take the photo", exc_info=True)
        app.fail(f"The photo could not be taken ({exc}).")
        return None


@ft.component
def CameraPanel(app: AppState) -> ft.Control:
    status, set_status = ft.use_state("Starting the camera...")
    ready, set_ready = ft.use_state(False)
    # A fresh Camera each render: the reconciler hands the live control's identity to the new instance
    # and stamps its parent. Reusing one instance across renders leaves it pointing at a discarded parent
    # ("Control must be added to the page first" on take_picture). Handlers use the latest instance.
    camera = fc.Camera(width=320, height=240, preview_enabled=True)
    latest = ft.use_ref(camera)
    latest.current = camera

    def current() -> fc.Camera:
        return latest.current or camera  # set on every render, never None

    async def start() -> None:
        ready_now, line = await start_camera(current(), app, fc.ResolutionPreset.VERY_HIGH)
        set_ready(ready_now)
        set_status(line)

    ft.on_mounted(lambda: ft.context.page.run_task(start))

    async def shoot() -> None:
        data = await take_photo(current(), app)
        if data is None:
            return
        app.camera_open = False
        await app.read_photo(data, mirrored=app.camera_mirrored)

    return ft.Column([
        ft.Container(content=camera, width=320, height=240, bgcolor="#000000"),
        ft.Text(status, size=12),
        ft.FilledButton("Take photo", icon=ft.Icons.CAMERA, on_click=shoot, disabled=not ready),
    ], tight=True)
