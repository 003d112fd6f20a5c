"""Sleeping Wizard renderer: draws views only (never the full state)."""
from __future__ import annotations

import json
from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (
    BG,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    RED,
    TILES,
    fit_text,
    font,
    new_canvas,
    seat_colour,
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


def draw_card(d: ImageDraw.ImageDraw, x: int, y: int, card: dict[str, Any], score: int | None = None,
              w: int = CARD_W, h: int = CARD_H, note: str | None = None, over: tuple[int, int, int] | None = None) -> None:
    """A card face; over a flat colour ``over`` it is drawn once per card and pasted after."""
    if over is None:
        _card_face(d, x, y, card, score, w, h, note)
        return
    TILES.paste(d, x, y, (w + 1, h + 1), over, ("sleeping card", json.dumps(card, sort_keys=True), score, note),
                lambda d, x, y: _card_face(d, x, y, card, score, w, h, note))


def _card_face(d: ImageDraw.ImageDraw, x: int, y: int, card: dict[str, Any], score: int | None,
               w: int, h: int, note: str | None) -> None:
    colour = CLASS_COLOURS.get(card["class"], PANEL)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=(245, 240, 228), outline=colour, width=4)
    d.rounded_rectangle((x + 4, y + 4, x + w - 4, y + 52), radius=7, fill=colour)
    d.text((x + 10, y + 4), card["label"], font=font(40, bold=True), fill=(255, 255, 255))
    cls = card["class"] if card["class"] != "Shapeshifter" else "Shifter"
    name = card.get("name")
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
              caption: str = "?") -> None:
    """A face-down card (its letter under it when known)."""
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=BACK, outline=(120, 130, 190), width=3)
    d.rounded_rectangle((x + 10, y + 10, x + w - 10, y + h - 10), radius=8, outline=(80, 90, 150), width=2)
    d.text((x + w // 2, y + h // 2 - 8), caption, font=font(40, bold=True), fill=(150, 160, 220), anchor="mm")
    if letter:
        d.text((x + w // 2, y + h - 24), letter, font=font(20, bold=True), fill=INK, anchor="mm")


def _mini_backs(d: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    for i in range(count):
        bx = x + i * 20
        d.rounded_rectangle((bx, y, bx + 26, y + 34), radius=4, fill=BACK, outline=(120, 130, 190), width=2)


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], title: str, width: int) -> int:
    d.text((20, 12), title, font=font(30, bold=True), fill=GOLD)
    status = view.get("status", "")
    lines = wrap_text(d, status, font(27, bold=True), width - 40, max_lines=2)
    for i, line in enumerate(lines):
        d.text((20, 52 + 34 * i), line, font=font(27, bold=True), fill=INK)
    return 60 + 34 * len(lines)


def _floor_banner(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    floor = view["floor"]
    colour = CATEGORY_COLOURS.get(floor.get("category", "basic"), PANEL)
    lines = wrap_text(d, floor["text"], font(24), w - 28, max_lines=3)
    h = 50 + 30 * len(lines)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL, outline=colour, width=3)
    d.text((x + 14, y + 8), f"This round: {floor['name']}", font=font(26, bold=True), fill=GOLD)
    for i, line in enumerate(lines):
        d.text((x + 14, y + 44 + 30 * i), line, font=font(24), fill=INK)
    return y + h


def _tower(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    """The tower as one strip, Ground Floor on the left, Attic on the right."""
    floors = view["tower"]
    gap = 6
    box_w = (w - gap * (len(floors) - 1)) / len(floors)
    box_h = 58
    for i, entry in enumerate(floors):
        bx = x + i * (box_w + gap)
        current = entry.get("current")
        if entry["revealed"]:
            colour = CATEGORY_COLOURS.get(entry.get("category", "basic"), PANEL)
            d.rounded_rectangle((bx, y, bx + box_w, y + box_h), radius=8, fill=PANEL,
                                outline=GOLD if current else colour, width=4 if current else 2)
            words = wrap_text(d, entry["name"], font(19, bold=True, condensed=True), box_w - 12, max_lines=2)
            for k, line in enumerate(words):
                d.text((bx + box_w / 2, y + box_h / 2 + (k - (len(words) - 1) / 2) * 22), line,
                       font=font(19, bold=True, condensed=True), fill=GOLD if current else INK, anchor="mm")
        else:
            d.rounded_rectangle((bx, y, bx + box_w, y + box_h), radius=8, fill=DARK, outline=(70, 74, 90), width=2)
            d.text((bx + box_w / 2, y + box_h / 2), "?", font=font(26, bold=True), fill=MUTED, anchor="mm")
    return y + box_h


def _tracker(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    wake = view.get("wake_at", 48)
    d.text((x, y), "Noise tracker (bonus treasure at game end)", font=font(22, bold=True), fill=INK)
    y += 34
    cells = wake + 1
    cw = w / cells
    tokens: dict[int, list[int]] = {}
    for seat, noise in enumerate(view["noise"]):
        tokens.setdefault(min(noise, wake), []).append(seat)
    stack = max((len(v) for v in tokens.values()), default=1)
    token_r = 13
    top = y + stack * (token_r * 2 + 2)
    band_of = {}
    for band in view["bands"]:
        for s in range(band["from"], band["to"] + 1):
            band_of[s] = band["treasure"]
    shades = {5: (70, 120, 80), 4: (80, 110, 80), 3: (90, 100, 76), 2: (100, 92, 72), 1: (106, 82, 70), 0: (90, 64, 64)}
    for s in range(cells):
        cx0 = x + s * cw
        fill = (150, 40, 40) if s >= wake else shades.get(band_of.get(s, 0), PANEL)
        d.rectangle((cx0, top, cx0 + cw - 1, top + 30), fill=fill)
        if s % 5 == 0 or s == wake:
            d.text((cx0 + cw / 2, top + 15), str(s), font=font(14, bold=True, condensed=True), fill=INK, anchor="mm")
    for band in view["bands"]:
        bx0 = x + band["from"] * cw
        bx1 = x + (band["to"] + 1) * cw
        d.line((bx0, top + 32, bx0, top + 56), fill=MUTED, width=2)
        d.text(((bx0 + bx1) / 2, top + 46), f"+{band['treasure']}", font=font(18, bold=True), fill=GOLD, anchor="mm")
    d.text((x + wake * cw + cw / 2, top + 46), "Zz!", font=font(16, bold=True), fill=RED, anchor="mm")
    for space, seats in tokens.items():
        for i, seat in enumerate(seats):
            cx = x + space * cw + cw / 2
            cy = top - token_r - 2 - i * (token_r * 2 + 2)
            d.ellipse((cx - token_r, cy - token_r, cx + token_r, cy + token_r), fill=seat_colour(seat), outline=(255, 255, 255), width=2)
            d.text((cx, cy), str(seat + 1), font=font(15, bold=True), fill=DARK, anchor="mm")
    return top + 64


def _card_rows(d: ImageDraw.ImageDraw, cards: list[dict[str, Any]], x: int, y: int, per_row: int,
               w: int = CARD_W, h: int = CARD_H) -> int:
    for i, card in enumerate(cards):
        cx = x + (i % per_row) * (w + GAP)
        cy = y + (i // per_row) * (h + GAP)
        draw_card(d, cx, cy, card, w=w, h=h, over=BG)
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    return y + rows * (h + GAP)


def _recent(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    """What just happened: the last public sentences (from the view)."""
    lines: list[str] = []
    for text in view.get("recent") or []:
        lines += wrap_text(d, text.replace("**", ""), font(23), w - 20, max_lines=2)
    lines = lines[-4:]
    for line in lines:
        d.text((x, y), line, font=font(23), fill=MUTED)
        y += 30
    return y + (6 if lines else 0)


def render_board(view: dict[str, Any]) -> Image.Image:
    """The public board: the round's floor, the tower, the market, each team, the noise tracker."""
    n = len(view["names"])
    per_row = max(1, (W - 40 + GAP) // (CARD_W + GAP))
    market_rows = max(1, (len(view["market"]) + per_row - 1) // per_row)
    team_h = CARD_H + 16
    last = view.get("last_round")
    height = (140 + 130 + 210 + 80 + market_rows * (CARD_H + GAP) + 60 + n * (team_h + 8) + 190
              + (40 + 34 * ((n + 1) // 2) if last else 0))
    img, d = new_canvas(W, height)
    y = _header(d, view, f"Sleeping Wizard — round {view['round']} of {view['rounds']}", W)
    y = _recent(d, view, 20, y, W - 40)
    y = _floor_banner(d, view, 20, y, W - 40) + 12
    y = _tower(d, view, 20, y, W - 40) + 16
    # Market
    d.text((20, y), f"Market ({len(view['market'])})", font=font(26, bold=True), fill=INK)
    d.text((W - 20, y + 2), f"Deck: {view['deck_count']}", font=font(24), fill=MUTED, anchor="ra")
    y += 36
    if view["market"]:
        y = _card_rows(d, view["market"], 20, y, per_row)
    else:
        d.text((20, y + 10), "(empty)", font=font(24), fill=MUTED)
        y += 50
    y += 8
    d.text((20, y), "Teams this round", font=font(26, bold=True), fill=INK)
    y += 38
    current = view.get("current")
    waiting = set(view.get("copy_wait", []))
    rx, rw = 20, W - 40
    for team in view["teams"]:
        seat = team["seat"]
        colour = seat_colour(seat)
        acting = seat == current or seat in waiting
        d.rounded_rectangle((rx, y, rx + rw, y + team_h), radius=10, fill=PANEL, outline=GOLD if acting else PANEL,
                            width=4)
        d.rectangle((rx + 4, y + 8, rx + 12, y + team_h - 8), fill=colour)
        d.ellipse((rx + 20, y + 10, rx + 50, y + 40), fill=colour, outline=(255, 255, 255), width=2)
        d.text((rx + 35, y + 25), str(seat + 1), font=font(18, bold=True), fill=DARK, anchor="mm")
        d.text((rx + 58, y + 10), fit_text(d, view["names"][seat], font(26, bold=True), 150), font=font(26, bold=True),
               fill=GOLD if acting else INK)
        d.text((rx + 22, y + 48), f"Treasure {view['treasure'][seat]}", font=font(24, bold=True), fill=GOLD)
        d.text((rx + 22, y + 80), f"Noise {view['noise'][seat]}", font=font(24), fill=INK)
        _mini_backs(d, rx + 22, y + 114, view["hand_counts"][seat])
        tag = "hiring" if seat == current else "choosing" if seat in waiting else ""
        if tag:
            d.text((rx + 124, y + 112), tag, font=font(22, bold=True), fill=GOLD)
        tx = rx + 214
        for i, card in enumerate(team["cards"]):
            note = f"= {card['copies']}" if card.get("copies") else None
            draw_card(d, tx + i * (CARD_W + GAP), y + 8, card, score=card["score"], note=note, over=PANEL)
        for i in range(len(team["cards"]), 4):
            bx = tx + i * (CARD_W + GAP)
            d.rounded_rectangle((bx, y + 8, bx + CARD_W, y + 8 + CARD_H), radius=10, outline=(80, 84, 100), width=2)
        nx = tx + 4 * (CARD_W + GAP) + 12
        d.text((nx, y + 12), "noise", font=font(22), fill=MUTED)
        d.text((nx, y + 38), str(team["noise"]), font=font(48, bold=True), fill=INK)
        if team.get("bonus"):
            d.text((nx, y + 104), f"+{team['bonus']} floor", font=font(22, bold=True), fill=GOLD)
        y += team_h + 8
    y = _tracker(d, view, 20, y + 12, W - 40)
    if last:
        y = _last_round_lines(d, view, last, 20, y + 4, W - 40)
    return img.crop((0, 0, W, min(height, y + 16)))


def _last_round_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], last: dict[str, Any], x: int, y: int, w: int) -> int:
    names = view["names"]
    d.text((x, y), fit_text(d, f"Last round ({last['round']}, {last['floor_name']}): noise, treasure won",
                             font(24, bold=True), w), font=font(24, bold=True), fill=INK)
    y += 36
    col_w = w // 2
    for i, t in enumerate(last["teams"]):
        cx = x + (i % 2) * col_w
        cy = y + (i // 2) * 34
        gained = t["base"] + t["bonus"]
        text = f"{names[t['seat']]}: noise {t['noise']}" + (f", +{gained}" if gained else "")
        d.ellipse((cx, cy + 6, cx + 18, cy + 24), fill=seat_colour(t["seat"]))
        d.text((cx + 26, cy), fit_text(d, text, font(24), col_w - 36), font=font(24),
               fill=GOLD if t["base"] else INK)
    return y + 34 * ((len(last["teams"]) + 1) // 2)


def render_private(view: dict[str, Any]) -> Image.Image | None:
    """A player's own view: their hand; None when they have nothing private."""
    p = view.get("private")
    if not p:
        return None
    width = 1000
    others = p["others"]
    row_h = CARD_H + 56
    height = 88 + 150 + row_h + 20 + len(others) * row_h + 20
    img, d = new_canvas(width, height)
    y = _header(d, view, f"Your view, {p['name']} — round {view['round']}", width)
    y = _floor_banner(d, view, 20, y, width - 40) + 14
    hint = "peeked cards show; the rest face away from you"
    d.text((20, y), "Your hand", font=font(22, bold=True), fill=GOLD)
    d.text((160, y + 3), f"({hint})", font=font(18), fill=MUTED)
    y += 34
    if not p["hand"]:
        d.text((20, y + 10), "(empty — your team is hired)", font=font(20), fill=MUTED)
    for i, h in enumerate(p["hand"]):
        x = 20 + i * (CARD_W + 14)
        if h["known"]:
            draw_card(d, x, y, h["card"])
            d.text((x + CARD_W // 2, y + CARD_H + 4), f"{h['letter']} · peeked", font=font(17, bold=True),
                   fill=INK, anchor="ma")
        else:
            draw_back(d, x, y, h["letter"])
    y += row_h
    d.text((20, y - 10), "What you see in the other hands", font=font(22, bold=True), fill=GOLD)
    y += 24
    for o in others:
        colour = seat_colour(o["seat"])
        d.rounded_rectangle((16, y, width - 16, y + CARD_H + 16), radius=10, fill=PANEL)
        d.rectangle((20, y + 8, 28, y + CARD_H + 8), fill=colour)
        d.text((38, y + 12), fit_text(d, o["name"], font(22, bold=True), 170), font=font(22, bold=True), fill=INK)
        d.text((38, y + 42), f"{len(o['cards'])} in hand", font=font(18), fill=MUTED)
        for i, c in enumerate(o["cards"]):
            x = 220 + i * (CARD_W + GAP + 20)
            draw_card(d, x, y + 8, c["card"])
            d.text((x + CARD_W + 4, y + 10), c["letter"], font=font(18, bold=True), fill=MUTED)
        y += CARD_H + 24
    return img.crop((0, 0, width, y + 10))


def render_final(view: dict[str, Any], scores: list[dict[str, Any]] | None = None) -> Image.Image:
    """The final scoreboard, each team's treasure."""
    names = view["names"]
    n = len(names)
    final = view.get("final") or []
    last = view.get("last_round")
    row_h = 48
    team_rows = n if last else 0
    height = 88 + 60 + n * row_h + 40 + (60 + team_rows * (CARD_H + 20) if last else 0) + 60
    img, d = new_canvas(W, height)
    y = _header(d, view, "Sleeping Wizard — final score", W)
    cols = [(20, "#"), (70, "Guild"), (340, "Treasure"), (480, "Bonus"), (590, "Total"), (690, "Noise"), (790, "")]
    for x, label in cols:
        d.text((x, y), label, font=font(22, bold=True), fill=MUTED)
    y += 34
    by_seat = {f["seat"]: f for f in final}
    order = sorted(range(n), key=lambda s: (by_seat[s]["rank"], s)) if final else list(range(n))
    for s in order:
        f = by_seat.get(s, {"rank": "-", "treasure": view["treasure"][s], "bonus": 0, "total": view["treasure"][s],
                             "noise": view["noise"][s], "eligible": True, "won": False})
        fill = PANEL if not f["won"] else (70, 64, 36)
        d.rounded_rectangle((14, y - 4, W - 14, y + row_h - 8), radius=8, fill=fill)
        d.ellipse((70, y + 6, 88, y + 24), fill=seat_colour(s))
        d.text((20, y), str(f["rank"]), font=font(26, bold=True), fill=GOLD if f["won"] else INK)
        d.text((96, y), fit_text(d, names[s], font(26, bold=True), 236), font=font(26, bold=True), fill=INK)
        d.text((340, y), str(f["treasure"]), font=font(26), fill=INK)
        d.text((480, y), f"+{f['bonus']}", font=font(26), fill=INK)
        d.text((590, y), str(f["total"]), font=font(26, bold=True), fill=GOLD)
        d.text((690, y), str(f["noise"]), font=font(26), fill=RED if not f["eligible"] else INK)
        tag = "WINNER" if f["won"] else ("woke the wizard" if not f["eligible"] else "")
        d.text((790, y), fit_text(d, tag, font(24, bold=True), W - 810), font=font(24, bold=True),
               fill=GOLD if f["won"] else RED)
        y += row_h
    if last:
        y = render_round_summary(d, view, last, 20, y + 20)
    return img.crop((0, 0, W, min(height, y + 16)))


def render_round_summary(d: ImageDraw.ImageDraw, view: dict[str, Any], last: dict[str, Any], x: int, y: int) -> int:
    """What each team scored in the round just played; returns the y below it."""
    names = view["names"]
    d.text((x, y), f"Round {last['round']} on {last['floor_name']}", font=font(28, bold=True), fill=GOLD)
    y += 44
    for t in last["teams"]:
        d.rounded_rectangle((x - 4, y - 4, W - 16, y + CARD_H + 8), radius=10, fill=PANEL)
        d.rectangle((x, y + 4, x + 8, y + CARD_H), fill=seat_colour(t["seat"]))
        d.text((x + 18, y + 6), fit_text(d, names[t["seat"]], font(26, bold=True), 200), font=font(26, bold=True), fill=INK)
        d.text((x + 18, y + 44), f"noise {t['noise']}", font=font(25, bold=True), fill=INK)
        gained = t["base"] + t["bonus"]
        d.text((x + 18, y + 78), f"+{gained} treasure" if gained else "no treasure", font=font(24),
               fill=GOLD if gained else MUTED)
        for i, card in enumerate(t["cards"]):
            note = f"= {card['copies']}" if card.get("copies") else None
            draw_card(d, x + 240 + i * (CARD_W + GAP), y, card, score=card["score"], note=note)
        y += CARD_H + 20
    return y


def render_round(view: dict[str, Any]) -> Image.Image | None:
    """The end-of-round summary (the last scored round) as its own image."""
    last = view.get("last_round")
    if not last:
        return None
    n = len(last["teams"])
    img, d = new_canvas(W, 60 + n * (CARD_H + 20) + 20, BG)
    y = render_round_summary(d, view, last, 20, 16)
    return img.crop((0, 0, W, y + 8))


def describe(view: dict[str, Any]) -> str:
    """Plain-words alt text (at most 1,000 characters) for the public board, from the public parts only."""
    names = view["names"]
    floor = view["floor"]
    parts = [f"Sleeping Wizard, round {view['round']} of {view['rounds']}, on the {floor['name']}: {floor['text']}",
             view.get("status", "").rstrip(".") + "."]
    recent = [t.replace("**", "") for t in view.get("recent") or []]
    if recent:
        parts.append("Just now: " + " ".join(recent))
    if view.get("final"):
        order = sorted(view["final"], key=lambda f: f["rank"])
        parts.append("Final: " + "; ".join(
            f"{f['rank']}. {names[f['seat']]} {f['total']} treasure, noise {f['noise']}"
            + (" (woke the wizard)" if not f["eligible"] else "") for f in order) + ".")
    else:
        market = ", ".join(f"{c['label']} {c['class']}" for c in view["market"]) or "empty"
        parts.append(f"Market: {market}. Deck: {view['deck_count']} cards.")
        guilds = []
        for team in view["teams"]:
            s = team["seat"]
            cards = ", ".join(f"{c['label']} {c['class']}" for c in team["cards"]) or "nobody yet"
            guilds.append(f"{names[s]}: treasure {view['treasure'][s]}, total noise {view['noise'][s]}; "
                          f"team {cards} (noise {team['noise']})")
        parts.append("Guilds: " + ". ".join(guilds) + f". The wizard wakes at {view.get('wake_at', 48)} noise.")
    text = " ".join(p for p in parts if p)
    return text if len(text) <= 1000 else text[:997].rstrip() + "..."
