"""Flet web app entry point (placeholder page until the full UI lands)."""

from __future__ import annotations

import flet as ft


def main(page: ft.Page) -> None:
    page.title = "Table referee"
    page.add(ft.Text("Table referee", size=28, weight=ft.FontWeight.BOLD), ft.Text("Ready."))


def serve(host: str = "127.0.0.1", port: int = 8550, data_dir: str | None = None) -> None:
    print(f"Table referee: open http://{host}:{port} in a browser", flush=True)
    ft.run(main, view=ft.AppView.WEB_BROWSER, host=host, port=port, no_cdn=True)
