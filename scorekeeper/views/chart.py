"""The score-progression chart of a game, drawn on the server as SVG coordinates (no script
needed), with the table of the same figures as its text alternative."""

from __future__ import annotations

import math

from scorekeeper.services.stats import Progression
from scorekeeper.views.helpers import seat_tint

WIDTH, HEIGHT = 300, 200
LEFT, RIGHT, TOP, BOTTOM = 38, 14, 10, 24


def nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2, 5, 10, 20, 25, 50 ...) giving about ``ticks`` gridlines."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * power
        if step >= raw and float(step).is_integer():
            return int(step)
    return int(10 * power)


def chart(series: Progression) -> dict | None:
    """Coordinates of the score-progression chart in a 300 x 200 viewBox (None before any
    score): one polyline per side, gridlines with round values, hand numbers underneath."""
    count = len(series.labels)
    if count < 2:
        return None
    values = [value for line in series.series.values() for value in line]
    low, high = min(0, *values), max(1, *values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + plot_w * index / (count - 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    every = max(1, math.ceil((count - 1) / 8))
    xticks = [
        {"x": x(i), "label": label}
        for i, label in enumerate(series.labels)
        if i % every == 0 or i == count - 1
    ]
    if len(xticks) >= 2 and xticks[-1]["x"] - xticks[-2]["x"] < 24:
        del xticks[-2]
    lines = []
    for index, side in enumerate(series.sides):
        points = [(x(i), y(v)) for i, v in enumerate(series.series[side])]
        lines.append(
            {
                "side": side,
                "cls": seat_tint(index),
                "seat": index + 1,
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dots": points if count <= 16 else [],
                "final": series.series[side][-1],
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "yticks": [{"y": y(v), "label": v} for v in range(low, high + 1, step)],
        "zero": y(0),
        "xticks": xticks,
        "lines": lines,
        "word": series.hand_word,
    }
