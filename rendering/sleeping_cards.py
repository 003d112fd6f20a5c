"""Sleeping Wizard pictures: sizes and colours, the cards (faces and backs) and the title every picture draws."""
from __future__ import annotations

import json

from PIL import ImageDraw

from bot.games.sleeping.viewtypes import (
    CardView,
    SleepingView,
    SummaryCardView,
    TeamCardView,
)
from rendering.common import (
    GOLD,
    GREEN,
    INK,
    PANEL,
    TILES,
    fit_text,
    font,
    wrap_text,
)

W = 1000  # scaled to 400 px on a phone: 25 px type reads as 10 px
CARD_W, CARD_H = 116, 146
GAP = 8

CLASS_COLOURS = {
    "Healer": (76, 160, 96),
    "Mage": (140, 92, 206),
    "Warrior": (196, 70, 62),
    "Ranger": (40, 150, 150),
    "Rogue": (92, 96, 110),
    "Slime": (132, 178, 40),
    "Bard": (214, 150, 40),
    "Shapeshifter": (60, 120, 210),
}
CATEGORY_COLOURS = {
    "basic": (90, 96, 120), "end": (110, 70, 120), "peek": (60, 120, 210), "hiring": (196, 110, 50),
    "market": (214, 150, 40), "noise": (196, 70, 62), "treasure": (76, 160, 96),
}
BACK = (38, 44, 78)
DARK = (22, 23, 30)


def draw_card(d: ImageDraw.ImageDraw, x: int, y: int, card: CardView | TeamCardView | SummaryCardView,
              score: int | None = None, w: int = CARD_W, h: int = CARD_H, note: str | None = None,
              over: tuple[int, int, int] | None = None) -> None:
    """An adventurer face up: value and class colour on top, name (if the card has one), a note, its noise.
    Over a flat colour ``over`` it is drawn once per card and pasted after."""
    if over is None:
        _card_face(d, x, y, card, score, w, h, note)
        return
    TILES.paste(d, x, y, (w + 1, h + 1), over, ("sleeping card", json.dumps(card, sort_keys=True), score, note),
                lambda d, x, y: _card_face(d, x, y, card, score, w, h, note))


def _card_face(d: ImageDraw.ImageDraw, x: int, y: int, card: CardView | TeamCardView | SummaryCardView,
               score: int | None, w: int, h: int, note: str | None) -> None:
    colour = CLASS_COLOURS.get(card["class"], PANEL)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=(245, 240, 228), outline=colour, width=4)
    d.rounded_rectangle((x + 4, y + 4, x + w - 4, y + 52), radius=7, fill=colour)
    d.text((x + 10, y + 4), card["label"], font=font(40, bold=True), fill=(255, 255, 255))
    cls = card["class"] if card["class"] != "Shapeshifter" else "Shifter"
    name = card["name"] if "name" in card else None
    if name is None:  # round summaries are anonymous: show the class big instead
        d.text((x + w // 2, y + 82), fit_text(d, cls, font(24, bold=True, condensed=True), w - 8),
               font=font(24, bold=True, condensed=True), fill=colour, anchor="mm")
    else:
        name_font = font(24, bold=True, condensed=True)
        for size in (24, 23, 22, 21, 20):
            name_font = font(size, bold=True, condensed=True)
            if d.textlength(name, font=name_font) <= w - 8:
                break
        d.text((x + w // 2, y + 72), fit_text(d, name, name_font, w - 8), font=name_font, fill=DARK, anchor="mm")
        d.text((x + w // 2, y + 98), fit_text(d, cls, font(21, condensed=True), w - 10),
               font=font(21, condensed=True), fill=colour, anchor="mm")
    if note:
        d.text((x + w // 2, y + 124), fit_text(d, note, font(19, condensed=True), w - 8),
               font=font(19, condensed=True), fill=(60, 60, 70), anchor="mm")
    if score is not None:
        cx, cy, r = x + w - 22, y + 27, 20
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DARK if score else GREEN, outline=(255, 255, 255), width=2)
        d.text((cx, cy), str(score), font=font(23, bold=True), fill=(255, 255, 255), anchor="mm")


def draw_back(d: ImageDraw.ImageDraw, x: int, y: int, letter: str = "", w: int = CARD_W, h: int = CARD_H,
              caption: str = "unseen") -> None:
    """A card seen from the back (one of your own you haven't peeked at): its slot letter, big, and "unseen" (not a
    "?", which is the Shapeshifter's number)."""
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=BACK, outline=(120, 130, 190), width=3)
    d.rounded_rectangle((x + 10, y + 10, x + w - 10, y + h - 10), radius=8, outline=(80, 90, 150), width=2)
    if letter:
        d.text((x + w // 2, y + h // 2 - 14), letter, font=font(48, bold=True), fill=(170, 180, 235), anchor="mm")
    d.text((x + w // 2, y + h - 32), caption, font=font(22, bold=True), fill=INK, anchor="mm")


def _mini_backs(d: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    for i in range(count):
        bx = x + i * 20
        d.rounded_rectangle((bx, y, bx + 26, y + 34), radius=4, fill=BACK, outline=(120, 130, 190), width=2)


def _header(d: ImageDraw.ImageDraw, view: SleepingView, title: str, width: int) -> int:
    d.text((20, 12), title, font=font(30, bold=True), fill=GOLD)
    status = view.get("status", "")
    lines = wrap_text(d, status, font(27, bold=True), width - 40, max_lines=2)
    for i, line in enumerate(lines):
        d.text((20, 52 + 34 * i), line, font=font(27, bold=True), fill=INK)
    return 60 + 34 * len(lines)
