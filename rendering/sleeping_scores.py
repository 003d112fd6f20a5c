"""Sleeping Wizard pictures: the final score table and the round summary (what each team got, and why)."""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.games.sleeping.viewtypes import (
    FinalView,
    LastRoundView,
    SleepingView,
)
from rendering.common import (
    BG,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    RED,
    fit_text,
    font,
    new_canvas,
    seat_colour,
)
from rendering.sleeping_cards import CARD_H, CARD_W, GAP, W, _header, draw_card


def render_final(view: SleepingView, scores: list[dict[str, Any]] | None = None) -> Image.Image:
    """The final score table (treasure, tracker bonus, total, noise, winners), then the last round's teams."""
    names = view["names"]
    n = len(names)
    final = view.get("final") or []
    last = view.get("last_round")
    row_h = 48
    team_rows = n if last else 0
    height = 88 + 60 + n * row_h + 40 + (60 + team_rows * (CARD_H + 20 + 36) if last else 0) + 60
    img, d = new_canvas(W, height)
    y = _header(d, view, "Sleeping Wizard — final score", W)
    cols = [(20, "#"), (70, "Guild"), (340, "Treasure"), (480, "Bonus"), (590, "Total"), (690, "Noise"), (790, "")]
    for x, heading in cols:
        d.text((x, y), heading, font=font(22, bold=True), fill=MUTED)
    y += 34
    by_seat: dict[int, FinalView | dict[str, Any]] = {row["seat"]: row for row in final}
    order = sorted(range(n), key=lambda seat: (by_seat[seat]["rank"], seat)) if final else list(range(n))
    for seat in order:
        row = by_seat.get(seat, {"rank": "-", "treasure": view["treasure"][seat], "bonus": 0,
                                 "total": view["treasure"][seat], "noise": view["noise"][seat], "eligible": True,
                                 "won": False})
        fill = PANEL if not row["won"] else (70, 64, 36)
        d.rounded_rectangle((14, y - 4, W - 14, y + row_h - 8), radius=8, fill=fill)
        d.ellipse((70, y + 6, 88, y + 24), fill=seat_colour(seat))
        d.text((20, y), str(row["rank"]), font=font(26, bold=True), fill=GOLD if row["won"] else INK)
        d.text((96, y), fit_text(d, names[seat], font(26, bold=True), 236), font=font(26, bold=True), fill=INK)
        d.text((340, y), str(row["treasure"]), font=font(26), fill=INK)
        d.text((480, y), f"+{row['bonus']}", font=font(26), fill=INK)
        d.text((590, y), str(row["total"]), font=font(26, bold=True), fill=GOLD)
        d.text((690, y), str(row["noise"]), font=font(26), fill=RED if not row["eligible"] else INK)
        tag = "WINNER" if row["won"] else ("woke the wizard" if not row["eligible"] else "")
        d.text((790, y), fit_text(d, tag, font(24, bold=True), W - 810), font=font(24, bold=True),
               fill=GOLD if row["won"] else RED)
        y += row_h
    if last:
        y = render_round_summary(d, view, last, 20, y + 20)
    return img.crop((0, 0, W, min(height, y + 16)))


def render_round_summary(d: ImageDraw.ImageDraw, view: SleepingView, last: LastRoundView, x: int, y: int) -> int:
    """The last scored round: each team's anonymous cards with their noise, and the treasure it won."""
    names = view["names"]
    d.text((x, y), f"Round {last['round']} on {last['floor_name']}", font=font(28, bold=True), fill=GOLD)
    y += 44
    for team in last["teams"]:
        why_h = 36 if any(card.get("why") for card in team["cards"]) else 0
        d.rounded_rectangle((x - 4, y - 4, W - 16, y + CARD_H + 8 + why_h), radius=10, fill=PANEL)
        d.rectangle((x, y + 4, x + 8, y + CARD_H), fill=seat_colour(team["seat"]))
        d.text((x + 18, y + 6), fit_text(d, names[team["seat"]], font(26, bold=True), 200), font=font(26, bold=True),
               fill=INK)
        d.text((x + 18, y + 44), f"noise {team['noise']}", font=font(25, bold=True), fill=INK)
        gained = team["base"] + team["bonus"]
        d.text((x + 18, y + 78), f"+{gained} treasure" if gained else "no treasure", font=font(24),
               fill=GOLD if gained else MUTED)
        for i, card in enumerate(team["cards"]):
            note = f"= {card['copies']}" if card.get("copies") else None
            draw_card(d, x + 240 + i * (CARD_W + GAP), y, card, score=card["score"], note=note)
        why = ", ".join(dict.fromkeys(card["why"] for card in team["cards"] if card.get("why")))
        if why:
            d.text((x + 240, y + CARD_H + 10), fit_text(d, f"Why: {why}", font(24, bold=True), W - x - 270),
                   font=font(24, bold=True), fill=GREEN)
        y += CARD_H + 20 + (36 if why else 0)
    return y


def render_round(view: SleepingView) -> Image.Image | None:
    """The end-of-round summary (the last scored round) as its own image."""
    last = view.get("last_round")
    if not last:
        return None
    n = len(last["teams"])
    img, d = new_canvas(W, 60 + n * (CARD_H + 20 + 36) + 20, BG)
    y = render_round_summary(d, view, last, 20, 16)
    return img.crop((0, 0, W, y + 8))
