"""Take the board photo with the device camera (flet-camera: web, Android, iOS)."""

from __future__ import annotations

import flet as ft

from companion.ui.models import AppState


@ft.component
def CameraPanel(app: AppState):
    status, set_status = ft.use_state("Starting the camera...")
    ready, set_ready = ft.use_state(False)
    try:
        import flet_camera as fc
    except ImportError:  # pragma: no cover
        return ft.Text("No camera on this device: use Upload photo.")
    # A fresh Camera each render: the reconciler hands the live control's identity to the new instance
    # and stamps its parent. Reusing one instance across renders leaves it pointing at a discarded parent
    # ("Control must be added to the page first" on take_picture). Handlers use the latest instance.
    camera = fc.Camera(width=320, height=240, preview_enabled=True)
    latest = ft.use_ref(camera)
    latest.current = camera

    async def start():
        try:
            cams = await latest.current.get_available_cameras()
            if not cams:
                set_status("No camera found: use Upload photo.")
                return
            back = [c for c in cams if "back" in str(getattr(c, "lens_direction", "")).lower()]
            await latest.current.initialize(description=(back or cams)[0], resolution_preset=fc.ResolutionPreset.VERY_HIGH,
                                    enable_audio=False)
            app.camera_mirrored = not back
            set_ready(True)
            set_status("Point at the whole board, then take the photo.")
        except Exception as exc:  # noqa: BLE001 - any camera failure: say so, offer the upload instead
            set_status(f"The camera could not start ({exc}). Use Upload photo instead.")

    ft.on_mounted(lambda: ft.context.page.run_task(start))

    async def shoot(e):
        try:
            data = await latest.current.take_picture()
        except Exception as exc:  # noqa: BLE001 - any camera failure: say so, keep the turn as it was
            app.fail(f"The photo could not be taken ({exc}).")
            return
        app.camera_open = False
        await app.read_photo(bytes(data), mirrored=app.camera_mirrored)

    return ft.Column([
        ft.Container(content=camera, width=320, height=240, bgcolor="#000000"),
        ft.Text(status, size=12),
        ft.FilledButton("Take photo", icon=ft.Icons.CAMERA, on_click=shoot, disabled=not ready),
    ], tight=True)
