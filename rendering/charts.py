"""Small charts for /leaderboard: wins per player as horizontal bars."""
from __future__ import annotations

from PIL import Image

from rendering.common import GOLD, INK, MUTED, PANEL, fit_text, font, new_canvas


def leaderboard_chart(title: str, rows: list[tuple[str, int, int]]) -> Image.Image:
    """``rows``: (name, wins, played), best first."""
    width, bar_h, top = 900, 44, 70
    height = top + bar_h * max(1, len(rows)) + 30
    image, draw = new_canvas(width, height)
    draw.text((24, 18), title, font=font(30, bold=True), fill=GOLD)
    most = max([played for _, _, played in rows] + [1])
    name_w, left = 230, 24
    bar_x, bar_max = left + name_w + 10, width - (left + name_w + 10) - 150
    for i, (name, wins, played) in enumerate(rows):
        y = top + i * bar_h
        draw.text((left, y + 8), fit_text(draw, name, font(22), name_w), font=font(22), fill=INK)
        draw.rectangle((bar_x, y + 6, bar_x + bar_max * played / most, y + bar_h - 8), fill=PANEL)
        draw.rectangle((bar_x, y + 6, bar_x + bar_max * wins / most, y + bar_h - 8), fill=GOLD)
        draw.text((width - 140, y + 8), f"{wins} / {played}", font=font(22, bold=True), fill=INK)
    draw.text((bar_x, height - 26), "gold: wins · grey: games played", font=font(16), fill=MUTED)
    return image
