"""Wizard's Rage pictures: the colours and sizes, the token marks, and the legend strip that explains every symbol
the board shows (rage.py draws the board with them)."""
from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from bot.games.rage.viewtypes import RageView
from rendering.common import (
    BLUE,
    GOLD,
    INK,
    MUTED,
    RED,
    fit_text,
    font,
    seat_colour,
)

WIDTH = 1040
PAD = 16
FACE_DOWN = (62, 58, 74)
FACE_UP = (92, 86, 70)
CAMP = (60, 96, 70)
VOID = (14, 14, 18)
TOWER = (96, 60, 140)
DARK = (20, 20, 26)
TOKEN = (214, 196, 150)  # a face-down token: a parchment card back
TOKEN_EDGE = (168, 152, 112)
# Sizes chosen for a phone: the image is shown ~400 px wide, so x0.385; 30 px type reads as ~11.5 px.
TITLE, STATUS, EVENT, HERO, DETAIL = 40, 34, 30, 34, 26


def secret_marks(tokens: list[Any]) -> tuple[str, str]:
    """The wizard's note of a tile's face-down tokens: each monster card's total level ("8 4"), then "T" a trap
    and "D" a decoy ("2T", "6D" for several)."""
    levels = sorted((tk.get("level", 0) * tk.get("count", 1) for tk in tokens if tk["kind"] == "monster"), reverse=True)
    rest = []
    for kind, letter in (("trap", "T"), ("blank", "D")):
        n = sum(tk["kind"] == kind for tk in tokens)
        if n:
            rest.append(letter if n == 1 else f"{n}{letter}")
    return " ".join(map(str, levels)), " ".join(rest)


def token_mark(d: ImageDraw.ImageDraw, cx: float, cy: float, r: int, count: int, fnt: Any,
               counted: bool = True) -> float:
    """Face-down tokens: a card back marked "?" (a second card behind it when there are several) and "x2" beside
    it (unless not ``counted``); returns where the mark ends on the right."""
    if count > 1:
        d.rounded_rectangle((cx - r + 6, cy - r - 6, cx + r + 6, cy + r - 6), radius=6, fill=TOKEN_EDGE, outline=DARK,
                            width=2)
    d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=6, fill=TOKEN, outline=DARK, width=2)
    d.text((cx, cy), "?", font=fnt, fill=DARK, anchor="mm")
    right = cx + r + (6 if count > 1 else 0)
    if count > 1 and counted:
        d.text((right + 4, cy), f"x{count}", font=fnt, fill=INK, anchor="lm")
        right += 4 + d.textlength(f"x{count}", font=fnt)
    return right



# --- the legend: every symbol the board shows, explained under it --------------------------------
LEGEND = 28  # the legend's type: ~11 px on a phone
LEGEND_ROW = LEGEND + 16


def _legend_hero(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    r = LEGEND // 2 + 2
    d.ellipse((x, y - r, x + 2 * r, y + r), fill=seat_colour(1), outline=INK, width=2)
    d.text((x + r, y), "1", font=font(LEGEND - 6, bold=True), fill=DARK, anchor="mm")


def _legend_unknown(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rounded_rectangle((x, y - 16, x + 32, y + 16), radius=5, fill=FACE_DOWN)
    d.text((x + 16, y), "?", font=font(LEGEND, bold=True), fill=(120, 112, 140), anchor="mm")


def _legend_token(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    token_mark(d, x + 14, y, 14, 2, font(LEGEND - 6, bold=True))


def _legend_monster(d: ImageDraw.ImageDraw, x: float, y: float, label: str = "L6") -> None:
    f = font(LEGEND - 4, bold=True)
    w = d.textlength(label, font=f) + 10
    d.rounded_rectangle((x, y - 16, x + w, y + 16), radius=5, fill=RED)
    d.text((x + 5, y), label, font=f, fill=INK, anchor="lm")


def _legend_gang(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    _legend_monster(d, x, y, "2xL6")


def _legend_sense(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.ellipse((x, y - 15, x + 30, y + 15), outline=GOLD, width=3)
    d.text((x + 15, y), "1", font=font(LEGEND - 8, bold=True), fill=GOLD, anchor="mm")


def _legend_key(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.ellipse((x + 6, y - 14, x + 22, y + 2), outline=GOLD, width=4)
    d.line((x + 14, y + 2, x + 14, y + 16), fill=GOLD, width=4)


def _legend_drop(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rectangle((x + 6, y - 10, x + 26, y + 10), fill=GOLD)


def _legend_gone(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rectangle((x, y - 16, x + 32, y + 16), fill=VOID)
    d.line((x + 5, y - 11, x + 27, y + 11), fill=(90, 90, 104), width=3)
    d.line((x + 27, y - 11, x + 5, y + 11), fill=(90, 90, 104), width=3)


def _legend_door(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rectangle((x, y - 16, x + 32, y + 16), fill=TOWER)
    d.rectangle((x + 6, y + 8, x + 26, y + 16), fill=GOLD)


def _legend_camp(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rounded_rectangle((x, y - 16, x + 32, y + 16), radius=5, fill=CAMP)


def _legend_frozen(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    r = LEGEND // 2 + 2
    d.ellipse((x, y - r, x + 2 * r, y + r), fill=seat_colour(2), outline=BLUE, width=6)


def legend_entries(view: RageView) -> list[tuple[Any, str]]:
    """(symbol drawer, words) for each kind of symbol on this board."""
    tiles = [t for t in view["tiles"]]
    living = [h for h in view["heroes"] if h["alive"]]
    entries: list[tuple[Any, str]] = [(_legend_hero, "a hero (seat number)")] if living else []
    found = {
        "camp": any(t["camp"] and not t["removed"] for t in tiles),
        "unknown": any(not t["up"] and not t["removed"] for t in tiles),
        "token": any(t["hidden_tokens"] for t in tiles),
        "monster": any(t["monsters"] for t in tiles),
        "sense": any(t.get("sense") for t in tiles),
        "key": any(t.get("key") for t in tiles),
        "drop": any(t["drop"]["cards"] or t["drop"]["keys"] for t in tiles),
        "gone": any(t["removed"] for t in tiles),
        "door": bool(view.get("entrance")),
        "frozen": any(h["frozen"] for h in living),
    }
    words = {
        "camp": (_legend_camp, "camp: where a hero starts"),
        "unknown": (_legend_unknown, "unexplored room"),
        "token": (_legend_token, "face-down tokens (x2 = two)"),
        "monster": ((_legend_gang, "2 monsters, total level 6") if any(len(t["monsters"]) > 1 for t in tiles)
                    else (_legend_monster, "monsters, total level 6")),
        "sense": (_legend_sense, f"key vaults {view.get('scout_range') or 2} steps away"),
        "key": (_legend_key, "a key to take"),
        "drop": (_legend_drop, "dropped items"),
        "gone": (_legend_gone, "crumbled: gone"),
        "door": (_legend_door, "the tower's door"),
        "frozen": (_legend_frozen, "frozen: skips a move"),
    }
    return entries + [words[k] for k, shown in found.items() if shown]


def _legend_height(view: RageView) -> int:
    return 8 + LEGEND_ROW * ((len(legend_entries(view)) + 1) // 2) + 8


def _draw_legend(d: ImageDraw.ImageDraw, view: RageView, y: int) -> None:
    column = (WIDTH - 2 * PAD) // 2
    f = font(LEGEND)
    for k, (symbol, words) in enumerate(legend_entries(view)):
        x = PAD + (k % 2) * column
        cy = y + 8 + (k // 2) * LEGEND_ROW + LEGEND_ROW // 2
        symbol(d, x, cy)
        d.text((x + 84, cy), fit_text(d, words, f, column - 90), font=f, fill=MUTED, anchor="lm")
