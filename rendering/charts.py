"""Small charts for ``/leaderboard`` and ``/stats``, drawn in the drawing worker like every picture:
``render_async("charts", "ladder", view)`` and ``render_async("charts", "history", view)`` (see
:mod:`rendering`). Drawn for a phone: 640 px wide with text of 20 px and more, still readable scaled to the
400 px a phone shows.

* ``render_ladder(view)``: a ladder's conservative ratings as bars, best first. ``view``: ``{"title",
  "rows": [{"name", "rating", "bot", "provisional", "you"}]}``.
* ``render_history(view)``: one player's rating after each rated game, with the bots' ratings as lines.
  ``view``: ``{"title", "points": [the rating before the first game, then after each], "bots": [{"name",
  "rating"}], "provisional": how many of the first games were provisional}``.
"""
from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import BLUE, GOLD, INK, MUTED, PANEL, fit_text, font, new_canvas

WIDTH = 640
GRID = (70, 73, 88)


def render_ladder(view: dict[str, Any]) -> Image.Image:
    """A ladder's ratings as horizontal bars (bots blue, provisional players grey), best first."""
    rows = view["rows"]
    bar_h, top, left, name_w, value_w = 40, 64, 16, 220, 80
    height = top + bar_h * max(1, len(rows)) + 40
    image, draw = new_canvas(WIDTH, height)
    draw.text((left, 16), fit_text(draw, view["title"], font(28, bold=True), WIDTH - 2 * left), font=font(28, bold=True),
              fill=GOLD)
    values = [row["rating"] for row in rows] or [0.0]
    low, high = min(0.0, min(values)), max(1.0, max(values))
    bar_x = left + name_w + 8
    span = WIDTH - bar_x - value_w - left
    for i, row in enumerate(rows):
        y = top + i * bar_h
        colour = BLUE if row["bot"] else MUTED if row["provisional"] else GOLD
        name = fit_text(draw, row["name"], font(22, bold=row.get("you", False)), name_w)
        draw.text((left, y + 7), name, font=font(22, bold=row.get("you", False)), fill=INK)
        zero = bar_x + span * (0.0 - low) / (high - low)
        end = bar_x + span * (row["rating"] - low) / (high - low)
        draw.rectangle((min(zero, end), y + 6, max(zero, end) + 1, y + bar_h - 8), fill=colour)
        draw.text((WIDTH - left - value_w + 8, y + 7), f"{row['rating']:.1f}", font=font(22, bold=True), fill=INK)
    draw.text((left, height - 32), "blue: bots · grey: provisional (under 5 games)", font=font(18), fill=MUTED)
    return image


def _ticks(low: float, high: float) -> list[float]:
    """Round values for 3 to 6 grid lines between ``low`` and ``high``."""
    raw = (high - low) / 4
    step = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= step * factor:
            step *= factor
            break
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step) + 1)]


def render_history(view: dict[str, Any]) -> Image.Image:
    """A player's rating game by game (gold), the bots' ratings now as dashed lines (blue)."""
    points, bots = view["points"], view["bots"]
    height, left, right, top, bottom = 360, 64, 150, 60, 44
    image, draw = new_canvas(WIDTH, height)
    draw.text((16, 14), fit_text(draw, view["title"], font(26, bold=True), WIDTH - 32), font=font(26, bold=True),
              fill=GOLD)
    values = list(points) + [bot["rating"] for bot in bots]
    low, high = min(values), max(values)
    if high - low < 4:
        low, high = (low + high) / 2 - 2, (low + high) / 2 + 2
    low, high = low - (high - low) * 0.08, high + (high - low) * 0.08
    x0, x1, y0, y1 = left, WIDTH - right, top, height - bottom

    def y_of(value: float) -> float:
        return y1 - (y1 - y0) * (value - low) / (high - low)

    def x_of(index: int) -> float:
        return x0 + (x1 - x0) * index / max(1, len(points) - 1)

    for tick in _ticks(low, high):
        y = y_of(tick)
        draw.line((x0, y, x1, y), fill=GRID, width=1)
        label = f"{tick:g}"
        draw.text((x0 - 8 - draw.textlength(label, font=font(18)), y - 11), label, font=font(18), fill=MUTED)
    provisional = min(view.get("provisional", 0), len(points) - 1)
    if provisional > 0:  # the first games, while the rating was provisional
        draw.rectangle((x0, y0, x_of(provisional), y1), fill=PANEL)
    taken: list[float] = []
    for bot in sorted(bots, key=lambda bot: -bot["rating"]):
        y = y_of(bot["rating"])
        _dashed(draw, x0, x1, y)
        label_y = max([y - 12] + [t + 24 for t in taken if abs(t - (y - 12)) < 24])
        taken.append(label_y)
        draw.text((x1 + 8, label_y), fit_text(draw, f"{bot['name']} {bot['rating']:.1f}", font(18), right - 10),
                  font=font(18), fill=BLUE)
    line = [(x_of(i), y_of(value)) for i, value in enumerate(points)]
    draw.line(line, fill=GOLD, width=4, joint="curve")
    if len(points) <= 40:
        for x, y in line:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=GOLD)
    last, (x, y) = f"{points[-1]:.1f}", line[-1]  # the rating now, beside its point
    draw.text((x - 6 - draw.textlength(last, font=font(24, bold=True)), y - 34 if y - 34 >= y0 else y + 8), last,
              font=font(24, bold=True), fill=INK)
    games = len(points) - 1
    caption = f"{games} rated game{'s' if games != 1 else ''}" + (" · shaded: provisional" if provisional else "")
    draw.text((x0, y1 + 10), caption, font=font(18), fill=MUTED)
    return image


def _dashed(draw: ImageDraw.ImageDraw, x0: float, x1: float, y: float) -> None:
    x = x0
    while x < x1:
        draw.line((x, y, min(x + 10, x1), y), fill=BLUE, width=2)
        x += 18
