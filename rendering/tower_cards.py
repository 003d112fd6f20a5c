"""The Wizard's Tower's pictures: sizes, colours and symbols, and the cards (faces and backs) every picture draws."""
from __future__ import annotations

import json
from typing import Any, Mapping

from PIL import Image, ImageDraw

from rendering.common import BG, GOLD, TILES, fit_text, font, seat_colour, wrap_text

W = 1240
MARGIN = 14
LABEL_W = 58
GAP = 8
CARD_W = (W - 2 * MARGIN - LABEL_W - 4 * GAP) // 5
CARD_H = 160
ROW_H = CARD_H + GAP

SUIT_COL = {"Potion": (214, 69, 94), "Fossil": (196, 132, 60), "Artifact": (60, 170, 110),
            "Jewel": (60, 140, 220), "Tome": (150, 95, 210)}
SUITS = ["Potion", "Fossil", "Artifact", "Jewel", "Tome"]
LIGHT_FILL, LIGHT_INK = (238, 229, 204), (40, 34, 30)
DARK_FILL, DARK_INK = (62, 56, 82), (244, 242, 250)
# What a card's power does, in a few words on its face (the "?" and the glossary say it in full).
POWER_TAG = {"amulet": "give it to a rival", "sand": "copies a 3/4/5 card", "hourglass": "take another turn",
             "tales": "pay a curse-free card", "cloak": "also take any card", "distill": "see a rival's secret",
             "codex": "reveal your secret", "crown": "rivals lose a card", "vampire": "may swap a card"}
CURSE = "☠"
STAR = "★"
POWER = "✦"
CURSE_INK = (255, 120, 120)
LEGEND = (f"Card: value, suit · {CURSE} curse · {STAR} prestige · {POWER} power (when claimed) · "
          "any suit = all five")
MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))  # for measuring text before a picture's height is known


def _rr(d: ImageDraw.ImageDraw, box, fill, outline=None, width=1, r=10):
    d.rounded_rectangle(box, radius=r, fill=fill, outline=outline, width=width)


def _pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, r: int = 17, ring=None):
    """A thief: a disc in the seat's colour with its seat number."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=seat_colour(seat), outline=ring or (20, 20, 24), width=3)
    f = font(max(21, r + 6), bold=True)
    d.text((cx, cy + 1), str(seat + 1), font=f, fill=(255, 255, 255), anchor="mm", stroke_width=2,
           stroke_fill=(20, 20, 24))


def _chip_font():
    return font(21, bold=True, condensed=True)


def _suit_chips(d, x, y, suits, h=28):
    """Suit chips, each with the suit's whole name, from (x, y); returns the x after them."""
    f = _chip_font()
    if "Wild" in suits:
        w = int(d.textlength("any suit", font=f)) + 14
        _rr(d, (x, y, x + w, y + h), (250, 250, 250), r=5)
        seg = (w - 6) / 5
        for i, s in enumerate(SUITS):  # the five suits' colours under the words
            d.rectangle((x + 3 + i * seg, y + h - 6, x + 3 + (i + 1) * seg, y + h - 3), fill=SUIT_COL[s])
        d.text((x + w / 2, y + h / 2 - 2), "any suit", font=f, fill=(30, 30, 30), anchor="mm")
        return x + w + 5
    mode, d.fontmode = d.fontmode, "1"  # crisp white letters: no blend of white and the suit colour to encode
    try:
        for s in suits:
            w = int(d.textlength(s, font=f)) + 12
            _rr(d, (x, y, x + w, y + h), SUIT_COL[s], r=5)
            d.text((x + w / 2, y + h / 2), s, font=f, fill=(255, 255, 255), anchor="mm")
            x += w + 5
    finally:
        d.fontmode = mode
    return x


def draw_card(d: ImageDraw.ImageDraw, x: int, y: int, c: Mapping[str, Any], w: int = CARD_W, h: int = CARD_H, glow=None):
    """A card face over the board's background, drawn once per card and pasted after."""
    TILES.paste(d, x, y, (w + 1, h + 1), BG, ("tower card", json.dumps(c, sort_keys=True), glow, w, h),
                lambda d, x, y: _card_face(d, x, y, c, w, h, glow))


def _card_face(d: ImageDraw.ImageDraw, x: int, y: int, c: Mapping[str, Any], w: int, h: int, glow) -> None:
    """Name (two lines at most), the power in a few words, then value, suits, curses and prestige."""
    light = c.get("deck") == "light"
    fill, ink = (LIGHT_FILL, LIGHT_INK) if light else (DARK_FILL, DARK_INK)
    _rr(d, (x, y, x + w, y + h), fill, outline=glow or ((150, 140, 110) if light else (110, 100, 140)),
        width=4 if glow else 2)
    top = SUIT_COL.get(next((s for s in c["suits"] if s != "Wild"), ""), None)
    if "Wild" in c["suits"]:
        seg = (w - 16) / 5
        for i, s in enumerate(SUITS):
            d.rectangle((x + 8 + i * seg, y + 5, x + 8 + (i + 1) * seg, y + 10), fill=SUIT_COL[s])
    elif top:
        d.rectangle((x + 8, y + 5, x + w - 8, y + 10), fill=top)
    # curses and prestige in the top right corner, big enough for a phone; the name wraps beside them
    sf = font(24, bold=True)
    rx = x + w - 8
    if c.get("prestige"):
        t = f"{STAR}{c['prestige']:+d}"
        rx -= d.textlength(t, font=sf)
        d.text((rx, y + 15), t, font=sf, fill=(170, 120, 0) if light else GOLD)
        rx -= 6
    if c.get("curses"):
        t = f"{CURSE}{c['curses']}"
        rx -= d.textlength(t, font=sf)
        col = (190, 30, 30) if light else CURSE_INK
        if c["curses"] < 0:
            col = (30, 140, 60) if light else (120, 230, 140)
        d.text((rx, y + 15), t, font=sf, fill=col)
        rx -= 6
    nf = font(25, bold=True, condensed=True)
    ty = y + 13
    for line in _wrap_name(d, c["name"], nf, rx - x - 10, w - 16):
        d.text((x + 8, ty), line, font=nf, fill=ink)
        ty += 29
    if c.get("power"):  # the power in a few words, one or two lines just above the bottom row
        pf = font(21, condensed=True)
        lines = wrap_text(d, POWER + " " + POWER_TAG.get(c["power"], ""), pf, w - 16, max_lines=2)
        py = y + h - 40 - 24 * len(lines)
        for line in lines:
            d.text((x + 8, py), line, font=pf, fill=(150, 80, 30) if light else (240, 200, 120))
            py += 24
    # bottom row: value(s), suits
    by = y + h - 36
    vals = c["values"]
    vtxt = "/".join(str(v) for v in vals) if vals else "0"
    vf = font(26 if len(vals) <= 1 else 22, bold=True)
    vw = max(36, int(d.textlength(vtxt, font=vf)) + 12)
    _rr(d, (x + 6, by, x + 6 + vw, by + 30), (255, 255, 255) if not light else (60, 50, 40), r=6)
    d.text((x + 6 + vw / 2, by + 15), vtxt, font=vf, fill=(20, 20, 20) if not light else (250, 245, 230), anchor="mm")
    _suit_chips(d, x + 12 + vw, by + 1, c["suits"])


def _wrap_name(d, name: str, fnt, first: float, rest: float) -> list[str]:
    """A card's name in two lines at most: the first beside the corner marks (``first`` wide), the second under
    them (``rest`` wide), the last cut to fit."""
    words = name.split()
    if d.textlength(words[0], font=fnt) > first:  # a long first word: the name starts under the marks
        return ["", fit_text(d, name, fnt, rest)]
    line = ""
    while words and (not line or d.textlength(f"{line} {words[0]}", font=fnt) <= first):
        line = f"{line} {words.pop(0)}".strip()
    lines = [fit_text(d, line, fnt, first)]
    if words:
        lines.append(fit_text(d, " ".join(words), fnt, rest))
    return lines


def draw_back(d, x, y, w=CARD_W, h=CARD_H, label="face-down"):
    """A face-down card over the board's background (drawn once, pasted after)."""
    TILES.paste(d, x, y, (w + 1, h + 1), BG, ("tower back", label, w, h),
                lambda d, x, y: _card_back(d, x, y, w, h, label), margin=2)


def _card_back(d, x, y, w, h, label):
    _rr(d, (x, y, x + w, y + h), (40, 30, 62), outline=(150, 120, 200), width=3)
    for i in range(0, w + h, 18):
        d.line((x + max(0, i - h), y + min(h, i), x + min(w, i), y + max(0, i - w)), fill=(58, 44, 88), width=3)
    d.text((x + w / 2, y + h / 2 - 12), "?", font=font(40, bold=True), fill=(210, 190, 255), anchor="mm")
    d.text((x + w / 2, y + h - 22), label, font=font(22, bold=True), fill=(210, 190, 255), anchor="mm")
