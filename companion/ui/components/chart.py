"""Scores (or wealth) over the turns, one line per player (flet-charts)."""

from __future__ import annotations

import math

import flet as ft

from companion.ui import theme


@ft.component
def HistoryChart(history: list[dict[str, int]], colours: dict[str, str], title: str) -> ft.Control:
    import flet_charts as fch  # lazy: ~550 ms on the server's start, for the end screens only

    players = list(colours)
    top = max([1] + [v for h in history for v in h.values()])
    low = min([0] + [v for h in history for v in h.values()])  # end adjustments can go below zero
    step = _nice_step(top - low)
    max_y = math.ceil(top * 1.05 / step) * step  # a round top label, never two labels on top of each other
    series = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(i, h.get(p, 0)) for i, h in enumerate(history)],
            color=theme.token(colours[p]), stroke_width=3, curved=False,
        )
        for p in players
    ]
    chart = fch.LineChart(
        data_series=series, min_x=0, max_x=max(1, len(history) - 1), min_y=math.floor(low / step) * step, max_y=max_y,
        height=220, expand=True, interactive=False,
        left_axis=fch.ChartAxis(label_size=40, label_spacing=step),
        bottom_axis=fch.ChartAxis(label_size=24, label_spacing=max(1, (len(history) - 1) // 8)),  # whole turns
        horizontal_grid_lines=fch.ChartGridLines(color="#DDDDDD", width=1),
    )
    legend = ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=theme.token(colours[p])), ft.Text(p)],
                            tight=True) for p in players], wrap=True)
    return ft.Semantics(identifier="chart", content=ft.Column(
        [ft.Text(title, weight=ft.FontWeight.BOLD), ft.Container(content=chart, height=230, padding=8), legend],
        tight=True))


def _nice_step(top: float) -> int:
    """1, 2 or 5 times a power of ten, giving about four to eight labels up to `top`."""
    rough = max(1.0, top / 5)
    power = 10 ** math.floor(math.log10(rough))
    for m in (1, 2, 5, 10):
        if m * power >= rough:
            return int(m * power)
    return int(10 * power)
