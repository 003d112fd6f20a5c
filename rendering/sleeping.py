"""Sleeping Wizard renderer: draws views only (never the full state)."""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (
    BG, GOLD, GREEN, INK, MUTED, PANEL, RED, fit_text, font, new_canvas, seat_colour, wrap_text,
)

W = 1280
CARD_W, CARD_H = 108, 132
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
              w: int = CARD_W, h: int = CARD_H, note: str | None = None) -> None:
    colour = CLASS_COLOURS.get(card["class"], PANEL)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=(245, 240, 228), outline=colour, width=4)
    d.rounded_rectangle((x + 4, y + 4, x + w - 4, y + 46), radius=7, fill=colour)
    d.text((x + 10, y + 6), card["label"], font=font(32, bold=True), fill=(255, 255, 255))
    cls = card["class"] if card["class"] != "Shapeshifter" else "Shifter"
    name = card.get("name")
    if name is None:  # round summaries are anonymous: show the class big instead
        d.text((x + w // 2, y + 72), fit_text(d, cls, font(19, bold=True, condensed=True), w - 8),
               font=font(19, bold=True, condensed=True), fill=colour, anchor="mm")
    else:
        name_font = font(19, bold=True, condensed=True)
        for size in (19, 18, 17, 16):
            name_font = font(size, bold=True, condensed=True)
            if d.textlength(name, font=name_font) <= w - 8:
                break
        d.text((x + w // 2, y + 66), fit_text(d, name, name_font, w - 8), font=name_font, fill=DARK, anchor="mm")
        d.text((x + w // 2, y + 89), fit_text(d, cls, font(16, condensed=True), w - 10),
               font=font(16, condensed=True), fill=colour, anchor="mm")
    if note:
        d.text((x + w // 2, y + 110), fit_text(d, note, font(15, condensed=True), w - 8),
               font=font(15, condensed=True), fill=(60, 60, 70), anchor="mm")
    if score is not None:
        cx, cy, r = x + w - 20, y + 24, 17
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DARK if score else GREEN, outline=(255, 255, 255), width=2)
        d.text((cx, cy), str(score), font=font(18, bold=True), fill=(255, 255, 255), anchor="mm")


def draw_back(d: ImageDraw.ImageDraw, x: int, y: int, letter: str = "", w: int = CARD_W, h: int = CARD_H,
              caption: str = "?") -> None:
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
    d.text((20, 14), title, font=font(30, bold=True), fill=GOLD)
    status = view.get("status", "")
    d.text((20, 54), fit_text(d, status, font(20), width - 40), font=font(20), fill=INK)
    return 88


def _floor_banner(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    floor = view["floor"]
    colour = CATEGORY_COLOURS.get(floor.get("category", "basic"), PANEL)
    lines = wrap_text(d, floor["text"], font(19), w - 28, max_lines=3)
    h = 44 + 24 * len(lines)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL, outline=colour, width=3)
    d.text((x + 14, y + 8), f"This round: {floor['name']}", font=font(22, bold=True), fill=GOLD)
    for i, line in enumerate(lines):
        d.text((x + 14, y + 38 + 24 * i), line, font=font(19), fill=INK)
    return y + h


def _tower(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), "The tower", font=font(22, bold=True), fill=INK)
    y += 32
    floors = list(reversed(view["tower"]))  # Attic on top
    box_h = 62
    for entry in floors:
        current = entry.get("current")
        if entry["revealed"]:
            colour = CATEGORY_COLOURS.get(entry.get("category", "basic"), PANEL)
            d.rounded_rectangle((x, y, x + w, y + box_h), radius=8, fill=PANEL,
                                outline=GOLD if current else colour, width=4 if current else 2)
            d.rectangle((x + 4, y + 6, x + 12, y + box_h - 6), fill=colour)
            d.text((x + 22, y + 8), fit_text(d, entry["name"], font(20, bold=True), w - 32), font=font(20, bold=True),
                   fill=GOLD if current else INK)
            sub = "now" if current else entry.get("category", "")
            if entry.get("key") == "attic":
                sub = "the wizard sleeps here"
            d.text((x + 22, y + 34), sub, font=font(17), fill=MUTED)
        else:
            d.rounded_rectangle((x, y, x + w, y + box_h), radius=8, fill=DARK, outline=(70, 74, 90), width=2)
            d.text((x + w // 2, y + box_h // 2), "? face-down floor", font=font(18), fill=MUTED, anchor="mm")
        y += box_h + 6
    return y


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
        draw_card(d, cx, cy, card, w=w, h=h)
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    return y + rows * (h + GAP)


def render_board(view: dict[str, Any]) -> Image.Image:
    n = len(view["names"])
    left_w = 290
    rx = 20 + left_w + 20
    rw = W - rx - 20
    per_row = max(1, (rw + GAP) // (CARD_W + GAP))
    market_rows = max(1, (len(view["market"]) + per_row - 1) // per_row)
    team_h = CARD_H + 16
    tower_h = 32 + len(view["tower"]) * 68
    est = 88 + 150 + 40 + market_rows * (CARD_H + GAP) + 50 + n * (team_h + 8) + 40
    est = max(est, 88 + 150 + tower_h + 20)
    last = view.get("last_round")
    height = est + 150 + (40 + 26 * ((n + 1) // 2) if last else 0)
    img, d = new_canvas(W, height)
    y = _header(d, view, f"Sleeping Wizard — round {view['round']} of {view['rounds']}", W)
    y = _floor_banner(d, view, 20, y, W - 40) + 16
    _tower(d, view, 20, y, left_w)
    # Market
    ry = y
    d.text((rx, ry), f"Market ({len(view['market'])})", font=font(22, bold=True), fill=INK)
    d.text((rx + rw, ry + 2), f"Deck: {view['deck_count']} cards", font=font(20), fill=MUTED, anchor="ra")
    ry += 32
    if view["market"]:
        ry = _card_rows(d, view["market"], rx, ry, per_row)
    else:
        d.text((rx, ry + 10), "(empty)", font=font(20), fill=MUTED)
        ry += 50
    ry += 8
    d.text((rx, ry), "Teams this round", font=font(22, bold=True), fill=INK)
    ry += 34
    current = view.get("current")
    waiting = set(view.get("peek_wait", [])) | set(view.get("copy_wait", []))
    for team in view["teams"]:
        seat = team["seat"]
        colour = seat_colour(seat)
        outline = GOLD if seat == current or seat in waiting else PANEL
        d.rounded_rectangle((rx, ry, rx + rw, ry + team_h), radius=10, fill=PANEL, outline=outline, width=3)
        d.rectangle((rx + 4, ry + 8, rx + 12, ry + team_h - 8), fill=colour)
        d.ellipse((rx + 20, ry + 10, rx + 46, ry + 36), fill=colour, outline=(255, 255, 255), width=2)
        d.text((rx + 33, ry + 23), str(seat + 1), font=font(15, bold=True), fill=DARK, anchor="mm")
        d.text((rx + 54, ry + 10), fit_text(d, view["names"][seat], font(22, bold=True), 160), font=font(22, bold=True), fill=INK)
        d.text((rx + 22, ry + 40), f"Treasure {view['treasure'][seat]}", font=font(19), fill=GOLD)
        d.text((rx + 22, ry + 64), f"Total noise {view['noise'][seat]}", font=font(19), fill=INK)
        d.text((rx + 22, ry + 92), "hand:", font=font(17), fill=MUTED)
        _mini_backs(d, rx + 76, ry + 88, view["hand_counts"][seat])
        tx = rx + 230
        for i, card in enumerate(team["cards"]):
            note = f"= {card['copies']}" if card.get("copies") else None
            draw_card(d, tx + i * (CARD_W + GAP), ry + 8, card, score=card["score"], note=note)
        for i in range(len(team["cards"]), 4):
            bx = tx + i * (CARD_W + GAP)
            d.rounded_rectangle((bx, ry + 8, bx + CARD_W, ry + 8 + CARD_H), radius=10, outline=(80, 84, 100), width=2)
        nx = tx + 4 * (CARD_W + GAP) + 10
        d.text((nx, ry + 14), "noise", font=font(18), fill=MUTED)
        d.text((nx, ry + 38), str(team["noise"]), font=font(40, bold=True), fill=INK)
        if team.get("bonus"):
            d.text((nx, ry + 92), f"+{team['bonus']} floor", font=font(18, bold=True), fill=GOLD)
        tag = ""
        if seat == current:
            tag = "hiring"
        elif seat in set(view.get("peek_wait", [])):
            tag = "peeking"
        elif seat in set(view.get("copy_wait", [])):
            tag = "choosing"
        if tag:
            d.text((rx + rw - 12, ry + 10), tag, font=font(18, bold=True), fill=GOLD, anchor="ra")
        ry += team_h + 8
    y = max(ry, y + tower_h) + 12
    y = _tracker(d, view, 20, y, W - 40)
    if last:
        y = _last_round_lines(d, view, last, 20, y + 4, W - 40)
    return img.crop((0, 0, W, min(height, y + 16)))


def _last_round_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], last: dict[str, Any], x: int, y: int, w: int) -> int:
    names = view["names"]
    d.text((x, y), f"Last round ({last['round']}, {last['floor_name']}): noise and treasure won",
           font=font(20, bold=True), fill=INK)
    y += 30
    col_w = w // 2
    for i, t in enumerate(last["teams"]):
        cx = x + (i % 2) * col_w
        cy = y + (i // 2) * 26
        gained = t["base"] + t["bonus"]
        text = f"{names[t['seat']]}: noise {t['noise']}" + (f", +{gained} treasure" if gained else "")
        d.ellipse((cx, cy + 4, cx + 14, cy + 18), fill=seat_colour(t["seat"]))
        d.text((cx + 20, cy), fit_text(d, text, font(19), col_w - 30), font=font(19),
               fill=GOLD if t["base"] else INK)
    return y + 26 * ((len(last["teams"]) + 1) // 2)


def render_private(view: dict[str, Any]) -> Image.Image | None:
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
    if p.get("must_peek"):
        hint = f"choose {view['peek_count']} card{'s' if view['peek_count'] != 1 else ''} to peek at"
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
    names = view["names"]
    n = len(names)
    final = view.get("final") or []
    last = view.get("last_round")
    row_h = 44
    team_rows = n if last else 0
    height = 88 + 60 + n * row_h + 40 + (60 + team_rows * (CARD_H + 20) if last else 0) + 60
    img, d = new_canvas(W, height)
    y = _header(d, view, "Sleeping Wizard — final score", W)
    cols = [(20, "#"), (80, "Guild"), (420, "Treasure"), (580, "Tracker bonus"), (800, "Total"), (940, "Noise"), (1080, "")]
    for x, label in cols:
        d.text((x, y), label, font=font(20, bold=True), fill=MUTED)
    y += 34
    by_seat = {f["seat"]: f for f in final}
    order = sorted(range(n), key=lambda s: (by_seat[s]["rank"], s)) if final else list(range(n))
    for s in order:
        f = by_seat.get(s, {"rank": "-", "treasure": view["treasure"][s], "bonus": 0, "total": view["treasure"][s],
                             "noise": view["noise"][s], "eligible": True, "won": False})
        fill = PANEL if not f["won"] else (70, 64, 36)
        d.rounded_rectangle((14, y - 4, W - 14, y + row_h - 8), radius=8, fill=fill)
        d.ellipse((84, y + 6, 100, y + 22), fill=seat_colour(s))
        d.text((20, y), str(f["rank"]), font=font(22, bold=True), fill=GOLD if f["won"] else INK)
        d.text((108, y), fit_text(d, names[s], font(22, bold=True), 300), font=font(22, bold=True), fill=INK)
        d.text((420, y), str(f["treasure"]), font=font(22), fill=INK)
        d.text((580, y), f"+{f['bonus']}", font=font(22), fill=INK)
        d.text((800, y), str(f["total"]), font=font(22, bold=True), fill=GOLD)
        d.text((940, y), str(f["noise"]), font=font(22), fill=RED if not f["eligible"] else INK)
        tag = "WINNER" if f["won"] else ("woke the wizard" if not f["eligible"] else "")
        d.text((1080, y), tag, font=font(20, bold=True), fill=GOLD if f["won"] else RED)
        y += row_h
    if last:
        y = render_round_summary(d, view, last, 20, y + 20)
    return img.crop((0, 0, W, min(height, y + 16)))


def render_round_summary(d: ImageDraw.ImageDraw, view: dict[str, Any], last: dict[str, Any], x: int, y: int) -> int:
    names = view["names"]
    d.text((x, y), f"Round {last['round']} on {last['floor_name']}", font=font(24, bold=True), fill=GOLD)
    y += 40
    for t in last["teams"]:
        d.rounded_rectangle((x - 4, y - 4, W - 16, y + CARD_H + 8), radius=10, fill=PANEL)
        d.rectangle((x, y + 4, x + 8, y + CARD_H), fill=seat_colour(t["seat"]))
        d.text((x + 18, y + 6), fit_text(d, names[t["seat"]], font(22, bold=True), 200), font=font(22, bold=True), fill=INK)
        d.text((x + 18, y + 40), f"noise {t['noise']}", font=font(20), fill=INK)
        gained = t["base"] + t["bonus"]
        d.text((x + 18, y + 68), f"+{gained} treasure" if gained else "no treasure", font=font(20),
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
