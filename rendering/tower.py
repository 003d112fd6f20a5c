"""Renderer for The Wizard's Tower. Draws views only (never full state).

Every word a player must read is drawn at 22 px or more on a 1240 px wide picture, so that it still reads at
about 7 px when a phone shows the picture 400 px wide. The board explains its own symbols (a legend strip) and
shows, during play, the scoring tiles and who would win each if the game ended now (the running score).
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from PIL import Image, ImageDraw

from bot.games.tower.cards import brief, curse_words
from bot.games.tower.viewtypes import TowerView
from rendering.common import BG, GOLD, INK, MUTED, PANEL, TILES, fit_text, font, new_canvas, seat_colour, wrap_text

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


# ---------------------------------------------------------------------------------------------- the board

HEADER_H = 104
LEGEND_H = 40
BALCONY_H = 58
BRIDGE_H = 100


def _header(d, view, y=10, anchors: dict[str, tuple[int, int]] | None = None):
    """The title, the table's options, and whose turn it is (the one line everyone needs, in big letters)."""
    d.text((MARGIN, y), "The Wizard's Tower", font=font(34, bold=True), fill=GOLD)
    opts = view.get("options", {})
    tags = [f"special cards: set {opts.get('special_set', 'A')}"]
    if opts.get("master_thief"):
        tags.append("Master Thief")
    if opts.get("rules") == "rulebook":
        tags.append("rulebook rules")
    tf = font(24)
    t = " · ".join(tags)
    d.text((W - MARGIN - d.textlength(t, font=tf), y + 8), t, font=tf, fill=MUTED)
    sf = font(36, bold=True)
    status = fit_text(d, view.get("status", ""), sf, W - 2 * MARGIN - 50)
    d.text((MARGIN, y + 48), status, font=sf, fill=INK)
    if anchors is not None:
        anchors["status"] = (int(MARGIN + d.textlength(status, font=sf) + 28), y + 70)
    return y + HEADER_H - 10


def _legend(d, y):
    """What the symbols on the cards mean."""
    d.text((MARGIN, y + 4), fit_text(d, LEGEND, font(24), W - 2 * MARGIN), font=font(24), fill=MUTED)
    return y + LEGEND_H


def _tower(d, view, y, anchors: dict[str, tuple[int, int]] | None = None):
    """The balcony, then the eight floors (top first) with the thieves on the spaces they emptied."""
    acting = set(view.get("to_act", []))
    pawns = view["pawns"]
    x0 = MARGIN + LABEL_W
    bal = [p["seat"] for p in pawns if p["where"] == "balcony"]
    _rr(d, (MARGIN, y, W - MARGIN, y + BALCONY_H - 8), (70, 62, 50), r=8)
    bf = font(24, bold=True)
    d.text((MARGIN + 12, y + 25), "Balcony", font=bf, fill=(230, 215, 180), anchor="lm")
    for i, s in enumerate(bal):
        _pawn(d, MARGIN + 150 + i * 44, y + 25, s, ring=GOLD if s in acting else None)
    hint = "Claim a card on your floor or below: thieves never go back up."
    hx = MARGIN + 150 + max(len(bal), 1) * 44
    d.text((hx, y + 25), fit_text(d, hint, font(22), W - MARGIN - 60 - hx), font=font(22), fill=(230, 215, 180),
           anchor="lm")
    if anchors is not None:
        anchors["balcony"] = (W - MARGIN - 30, y + 25)
        anchors["floors"] = (MARGIN + LABEL_W // 2 - 4, y + BALCONY_H + ROW_H - GAP // 2)
    y += BALCONY_H
    lf = font(24, bold=True)
    for f, row in enumerate(view["tower"]):
        ry = y + f * ROW_H
        col = (200, 190, 160) if f < 2 else (150, 140, 190)
        d.text((MARGIN + LABEL_W / 2 - 4, ry + CARD_H / 2), f"F{f + 1}", font=lf, fill=col, anchor="mm")
        for s, cell in enumerate(row):
            cx = x0 + s * (CARD_W + GAP)
            if cell is None:
                _rr(d, (cx, ry, cx + CARD_W, ry + CARD_H), BG, outline=(70, 72, 86), width=2)
                here = [p["seat"] for p in pawns if p["where"] == "tower" and p["floor"] == f and p["slot"] == s]
                for i, ps in enumerate(here):
                    _pawn(d, cx + CARD_W / 2 + (i - (len(here) - 1) / 2) * 46, ry + CARD_H / 2, ps, r=22,
                          ring=GOLD if ps in acting else None)
                    if anchors is not None and "thief" not in anchors and len(here) == 1:
                        anchors["thief"] = (int(cx + CARD_W / 2) + 50, ry + CARD_H // 2)
            elif "back" in cell:
                draw_back(d, cx, ry, label="face-down")
                if anchors is not None:
                    anchors["face-down"] = (cx + CARD_W - 26, ry + 26)
            else:
                draw_card(d, cx, ry, cell["card"], glow=GOLD if cell.get("was_face_down") else None)
                if anchors is not None:
                    card = cell["card"]
                    if "card" not in anchors and len(card["suits"]) == 1 and card["suits"] != ["Wild"]:
                        anchors["card"] = (cx + CARD_W - 26, ry + CARD_H - 22)
                    if "power" not in anchors and card.get("power") in ("amulet", "hourglass", "cloak", "codex"):
                        anchors["power"] = (cx + CARD_W - 24, ry + CARD_H - 80)
    return y + 8 * ROW_H


def _bridge(d, view, y, anchors: dict[str, tuple[int, int]] | None = None):
    """The bridge out of the tower: the exit tiles still to take (or who took them) and the thieves out."""
    names = view["names"]
    _rr(d, (MARGIN, y, W - MARGIN, y + BRIDGE_H - 8), (78, 60, 44), outline=(140, 110, 70), width=2, r=10)
    d.text((MARGIN + 14, y + 28), "Bridge", font=font(24, bold=True), fill=(240, 220, 180), anchor="lm")
    d.text((MARGIN + 14, y + 62), "(exit)", font=font(22), fill=(240, 220, 180), anchor="lm")
    if anchors is not None:
        anchors["bridge"] = (W - MARGIN - 30, y + 46)
    x = MARGIN + 120
    for t in view["tiles"]:
        if t["key"] not in ("first", "second", "last") or not t["in_play"]:
            continue
        w = 230
        _rr(d, (x, y + 8, x + w, y + BRIDGE_H - 16), (232, 214, 160), outline=(120, 90, 40), width=2, r=8)
        d.text((x + 10, y + 14), t["label"], font=font(24, bold=True), fill=(50, 35, 20))
        d.text((x + 10, y + 46), f"{STAR}{t['prestige']:+d}", font=font(24, bold=True), fill=(140, 90, 10))
        if t["holder"] is not None:
            _pawn(d, x + w - 28, y + 58, t["holder"], r=18)
            d.text((x + 72, y + 48), fit_text(d, names[t["holder"]], font(22), w - 120), font=font(22),
                   fill=(50, 35, 20))
        x += w + 10
    d.text((x + 10, y + 14), "Out:", font=font(24, bold=True), fill=(240, 220, 180))
    for i, s in enumerate(view.get("exits", [])):
        _pawn(d, x + 30 + i * 44, y + 62, s, r=18)
    return y + BRIDGE_H


# The running score: one row per scoring tile, one column per thief; the leader's cell in their colour.
TABLE_LABEL_W = 330
TABLE_ROW = 40


def _table_rows(awards: Sequence[Mapping[str, Any]], extra: Sequence[tuple[str, list[int]]],
                total: tuple[str, list[int]]) -> list[tuple[str, Any]]:
    """The table's rows in order: ("tile", award), ("extra", (label, values)), then ("total", (label, totals))."""
    rows: list[tuple[str, Any]] = [("tile", a) for a in awards]
    rows += [("extra", e) for e in extra]
    rows.append(("total", total))
    return rows


def _table_height(rows: list[tuple[str, Any]], title_lines: int) -> int:
    return title_lines * 30 + 12 + TABLE_ROW + len(rows) * TABLE_ROW + 8


def _title_lines(title: str, note: str) -> list[tuple[str, Any, Any]]:
    """The table's title (bold, gold) and its note (wrapped, muted) as (line, font, colour)."""
    out: list[tuple[str, Any, Any]] = [(title, font(26, bold=True), GOLD)]
    for line in wrap_text(MEASURE, note, font(24), W - 2 * MARGIN, max_lines=4):
        out.append((line, font(24), MUTED))
    return out


def _score_table(d, y: int, names: list[str], title: str, note: str, rows: list[tuple[str, Any]],
                 anchors: dict[str, tuple[int, int]] | None = None) -> int:
    """Draw the scoring table from ``y``; returns the y after it."""
    n = len(names)
    for line, f, colour in _title_lines(title, note):
        d.text((MARGIN, y), line, font=f, fill=colour)
        y += 30
    y += 12
    if anchors is not None:
        anchors["tiles"] = (MARGIN + 40, y + TABLE_ROW // 2)
    col_w = (W - 2 * MARGIN - TABLE_LABEL_W) // n
    x0 = MARGIN + TABLE_LABEL_W
    hf = font(24, bold=True)
    for s in range(n):
        cx = x0 + s * col_w
        _pawn(d, cx + 20, y + TABLE_ROW // 2, s, r=15)
        d.text((cx + 42, y + TABLE_ROW // 2), fit_text(d, names[s], hf, col_w - 48), font=hf, fill=INK, anchor="lm")
    y += TABLE_ROW
    vf = font(26, bold=True)
    lf = font(24, bold=True)
    for kind, row in rows:
        _rr(d, (MARGIN, y + 2, W - MARGIN, y + TABLE_ROW - 2), (70, 62, 30) if kind == "total" else PANEL, r=6)
        if kind == "tile":
            label, values, leader = row["label"], row["values"], row["seat"]
            suit = SUIT_COL.get(row["tile"])
            lx = MARGIN + 10
            if suit:
                d.rectangle((lx, y + 10, lx + 12, y + TABLE_ROW - 10), fill=suit)
                lx += 20
            d.text((lx, y + TABLE_ROW // 2), label, font=lf, fill=INK, anchor="lm")
            star = f"{STAR}{row['prestige']:+d}"
            d.text((x0 - 12, y + TABLE_ROW // 2), star, font=lf, fill=GOLD if row["prestige"] > 0 else CURSE_INK,
                   anchor="rm")
            for s in range(n):
                cx = x0 + s * col_w
                if leader == s:
                    _rr(d, (cx + 4, y + 4, cx + col_w - 4, y + TABLE_ROW - 4), seat_colour(s), outline=(250, 250, 250),
                        width=2, r=6)
                if values is not None:
                    text = str(values[s])
                elif leader == s:
                    text = star
                else:
                    text = ""
                d.text((cx + col_w / 2, y + TABLE_ROW // 2), text, font=vf, fill=(20, 20, 24) if leader == s else INK,
                       anchor="mm")
        else:
            label, values = row
            d.text((MARGIN + 10, y + TABLE_ROW // 2), label, font=lf, fill=GOLD if kind == "total" else INK,
                   anchor="lm")
            for s in range(n):
                text = str(values[s]) if kind == "total" else (f"{values[s]:+d}" if values[s] else "")
                d.text((x0 + s * col_w + col_w / 2, y + TABLE_ROW // 2), text, font=vf,
                       fill=GOLD if kind == "total" else INK, anchor="mm")
            if kind == "total" and anchors is not None:
                anchors["total"] = (MARGIN + TABLE_LABEL_W - 60, y + TABLE_ROW // 2)
        y += TABLE_ROW
    return y + 8


def _standing_rows(view: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The running score's rows: the tiles in play as they would go now, head start, card prestige, the total."""
    standing = view.get("standing") or {"awards": [], "totals": [0] * view["n"]}
    extra = _extras(view.get("head_start"), [h["visible"]["prestige"] for h in view["hauls"]])
    return _table_rows(standing["awards"], extra, ("Prestige now", standing["totals"]))


def _extras(head_start: list[int] | None, card_prestige: list[int]) -> list[tuple[str, list[int]]]:
    """The rows under the tiles: the second player's head start (if any) and the prestige printed on cards."""
    extra: list[tuple[str, list[int]]] = []
    if head_start and any(head_start):
        extra.append(("Head start (2nd player)", list(head_start)))
    extra.append(("Prestige on cards", list(card_prestige)))
    return extra


STANDING_TITLE = "Scoring tiles if the game ended now"
STANDING_NOTE = ("Face-up cards only (face-down cards count at the end). Each tile goes to the one player who leads "
                 "it, in their colour; a tie gives it to nobody. Suit rows: the sum of card values of that suit; "
                 "3s, 4s, 5s: how many cards show that number.")


def _haul_lines(h: Mapping[str, Any]) -> list[str]:
    """A haul's card names, wrapped (three lines at most)."""
    parts = [c["name"] + (" (+Sand)" if h.get("sand_under") == c["id"] else "") for c in h["cards"]]
    text = " · ".join(parts) if parts else "(no cards yet)"
    return wrap_text(MEASURE, text, font(24, condensed=True), W - 2 * MARGIN - 80, max_lines=3)


def _haul_row_h(h: Mapping[str, Any]) -> int:
    return 48 + 28 * len(_haul_lines(h)) + 8


def _where(pw: Mapping[str, Any]) -> str:
    if pw["where"] == "balcony":
        return "on the balcony"
    if pw["where"] == "bridge":
        return "out (on the bridge)"
    return f"on floor {pw['floor'] + 1}"


def _haul_rows(d, view, y, acting, anchors: dict[str, tuple[int, int]] | None = None):
    """One row per thief: where they are, how many cards, and the names of their face-up cards."""
    names = view["names"]
    if anchors is not None:
        anchors["hauls"] = (W - MARGIN - 90, y + 30)
    for h in view["hauls"]:
        s = h["seat"]
        pw = view["pawns"][s]
        row_h = _haul_row_h(h)
        TILES.paste(d, 0, y, (W, row_h + 1), BG, ("tower haul", json.dumps(h, sort_keys=True), json.dumps(pw),
                                                  names[s], s in acting),
                    lambda d, x, y, h=h, pw=pw, row_h=row_h, on=s in acting: _haul_row(d, h, names, pw, on, y, row_h))
        y += row_h + 6
    return y


def _haul_row(d, h, names, pw, acting, y, row_h):
    s = h["seat"]
    _rr(d, (MARGIN, y, W - MARGIN, y + row_h), PANEL, outline=GOLD if acting else None, width=3 if acting else 1)
    d.rectangle((MARGIN, y + 6, MARGIN + 8, y + row_h - 6), fill=seat_colour(s))
    _pawn(d, MARGIN + 36, y + 26, s, r=17)
    hf = font(26, bold=True)
    nm = fit_text(d, names[s], hf, 330)
    d.text((MARGIN + 62, y + 10), nm, font=hf, fill=INK)
    x = MARGIN + 62 + d.textlength(nm, font=hf) + 16
    count = len(h["cards"])
    info = f"{_where(pw)} · {count} card{'s' if count != 1 else ''} face-up"
    if h.get("secret"):
        info += " + 1 face-down"
    if h["visible"]["curses"]:
        info += f" · {CURSE} {curse_words(h['visible']['curses'])}"
    d.text((x, y + 13), fit_text(d, info, font(24), W - MARGIN - 120 - x), font=font(24), fill=MUTED)
    sec = h.get("secret")
    sx, sy = W - MARGIN - 56, y + 8
    if sec == "back":
        _rr(d, (sx, sy, sx + 42, sy + 58), (40, 30, 62), outline=(150, 120, 200), width=2, r=6)
        d.text((sx + 21, sy + 29), "?", font=font(26, bold=True), fill=(210, 190, 255), anchor="mm")
    ly = y + 46
    for line in _haul_lines(h):
        d.text((MARGIN + 62, ly), line, font=font(24, condensed=True), fill=(205, 206, 215))
        ly += 28


RECENT = 3
RECENT_FONT = 24


def _board_height(view: Mapping[str, Any]) -> int:
    rows = _standing_rows(view)
    recent = view.get("recent", [])[-RECENT:]
    return (10 + HEADER_H + LEGEND_H + BALCONY_H + 8 * ROW_H + 4 + BRIDGE_H + 6
            + _table_height(rows, len(_title_lines(STANDING_TITLE, STANDING_NOTE))) + 6
            + sum(_haul_row_h(h) + 6 for h in view["hauls"])
            + (len(recent) * 32 + 10 if recent else 0) + 10)


def _draw_board(view: TowerView, anchors: dict[str, tuple[int, int]] | None = None) -> Image.Image:
    img, d = new_canvas(W, _board_height(view))
    y = _header(d, view, 10, anchors)
    y = _legend(d, y)
    y = _tower(d, view, y, anchors)
    y = _bridge(d, view, y + 4, anchors)
    y = _score_table(d, y + 6, view["names"], STANDING_TITLE, STANDING_NOTE, _standing_rows(view), anchors)
    acting = set(view.get("to_act", []))
    y = _haul_rows(d, view, y + 6, acting, anchors)
    ef = font(RECENT_FONT)
    for t in view.get("recent", [])[-RECENT:]:
        d.text((MARGIN, y + 4), fit_text(d, "• " + t.replace("**", ""), ef, W - 2 * MARGIN), font=ef, fill=INK)
        y += 32
    return img


def render_board(view: TowerView) -> Image.Image:
    """The public board: whose turn, the legend, the tower's floors, the bridge, the scoring tiles as they would
    go now, each thief's haul, what just happened."""
    return _draw_board(view)


# What each numbered label of the how-to-play picture points at, in the order they are numbered.
HOWTO_PARTS = (
    ("status", "Whose turn it is, and what they must do."),
    ("balcony", "The balcony: every thief starts here, above floor 1."),
    ("floors", "Floors 1 (top) to 8. On your turn, claim a card on your thief's floor or below; never go back up."),
    ("card", "A card: its value, its suit, its curses (☠) and prestige (★). Suits and values win the tiles."),
    ("power", "✦ a power: it happens as soon as you claim the card."),
    ("thief", "A thief (numbered disc) on the space of the card it took last."),
    ("face-down", "The face-down card: nobody knows it until someone claims it."),
    ("bridge", "The bridge: leave the tower here. 1st out +2 prestige; then no more turns."),
    ("tiles", "The scoring tiles: who would win each if the game ended now (their colour)."),
    ("total", "Each thief's prestige now: the most at the end wins."),
    ("hauls", "Each thief's haul: their cards, and a ? for their secret face-down card."),
)


def render_howto(view: TowerView) -> Image.Image:
    """The how-to-play picture: a board with numbered labels on its parts and a key under it saying what each is."""
    anchors: dict[str, tuple[int, int]] = {}
    board = _draw_board(view, anchors)
    parts = [(key, text) for key, text in HOWTO_PARTS if key in anchors]
    kf = font(26)
    key_lines: list[list[str]] = [wrap_text(MEASURE, text, kf, W - 2 * MARGIN - 60, max_lines=3) for _, text in parts]
    key_h = 70 + sum(34 * len(lines) + 10 for lines in key_lines) + 10
    img, d = new_canvas(W, board.height + key_h)
    img.paste(board, (0, 0))
    for number, (key, _) in enumerate(parts, 1):
        _callout(d, anchors[key], number)
    y = board.height + 14
    d.text((MARGIN, y), "How to read the board", font=font(30, bold=True), fill=GOLD)
    y += 50
    for number, lines in enumerate(key_lines, 1):
        _callout(d, (MARGIN + 22, y + 16), number)
        for line in lines:
            d.text((MARGIN + 54, y + 2), line, font=kf, fill=INK)
            y += 34
        y += 10
    return img


def _callout(d, at: tuple[int, int], number: int) -> None:
    """A numbered gold label."""
    x, y = at
    r = 20
    d.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=(20, 20, 24), width=3)
    d.text((x, y + 1), str(number), font=font(24, bold=True), fill=(20, 20, 24), anchor="mm")


# ---------------------------------------------------------------------------------------------- private view

def render_private(view: TowerView) -> Image.Image | None:
    """A thief's secrets: their face-down card, the ones they peeked at, a draft hand, and the tiles they would
    win counting what they know."""
    p = view.get("private")
    if not p:
        return None
    cards: list[tuple[str, Any]] = []
    if p.get("secret"):
        cards.append(("Your secret card", p["secret"]))
    for s in p.get("seen", []):
        cards.append((f"{s['name']}'s face-down card", s["card"]))
    for c in p.get("draft_hand") or []:
        cards.append(("Draft: keep one?", c))
    cols = min(4, max(2, len(cards)))
    rows = max(1, (len(cards) + cols - 1) // cols)
    w = MARGIN * 2 + cols * (CARD_W + GAP)
    lines = _private_lines(view, w)
    h = 60 + rows * (CARD_H + 36) + 20 + 32 * len(lines) + 10
    img, d = new_canvas(w, h)
    d.text((MARGIN, 14), fit_text(d, f"{view['names'][p['seat']]}: only you see this", font(28, bold=True),
                                  w - 2 * MARGIN), font=font(28, bold=True), fill=GOLD)
    for i, (label, c) in enumerate(cards):
        x = MARGIN + (i % cols) * (CARD_W + GAP)
        y = 58 + (i // cols) * (CARD_H + 36)
        lf = font(22, bold=True, condensed=True)
        d.text((x, y), fit_text(d, label, lf, CARD_W), font=lf, fill=MUTED)
        draw_card(d, x, y + 28, c)
    if not cards:
        d.text((MARGIN, 70), "No face-down card.", font=font(24), fill=INK)
    y = 60 + rows * (CARD_H + 36) + 20
    for line in lines:
        d.text((MARGIN, y), line, font=font(24), fill=INK)
        y += 32
    return img


def _private_lines(view: Mapping[str, Any], width: int) -> list[str]:
    """What the private picture says under the cards: the tiles you would win counting your face-down card."""
    p = view["private"]
    standing = p.get("standing")
    if not standing or view.get("phase") in ("over", "draft"):
        return []
    seat = p["seat"]
    led = [f"{a['label']} ({a['prestige']:+d})" for a in standing["awards"] if a["seat"] == seat]
    text = (f"Counting your face-down card you would take: {', '.join(led) or 'no tile yet'}; "
            f"prestige now {standing['totals'][seat]}.")
    return wrap_text(MEASURE, text, font(24), width - 2 * MARGIN, max_lines=4)


# ---------------------------------------------------------------------------------------------- final scoring

FINAL_TITLE = "Scoring tiles, awarded one by one"
FINAL_NOTE = ("Face-down cards revealed. Each tile goes to the one player who leads it, in their colour; a tie gives "
              "it to nobody.")


def render_final(view: TowerView, scores: list[dict[str, Any]] | None = None) -> Image.Image:
    """The final scoring: ranks, the scoring tiles one by one with everyone's figures, every haul."""
    final: Mapping[str, Any] = view.get("final") or {}
    n = view["n"]
    awards = final.get("awards", [])
    stats = final.get("stats", [])
    card_prestige = [st["card_prestige"] for st in stats] if stats else [0] * n
    totals = final.get("totals", [0] * n)
    rows = _table_rows(awards, _extras(view.get("head_start"), card_prestige), ("Total prestige", totals))
    hauls = [_final_haul_lines(h) for h in view["hauls"]]
    bottom = final.get("bottom_card")
    height = (80 + 44 + n * 46 + 20 + _table_height(rows, len(_title_lines(FINAL_TITLE, FINAL_NOTE))) + 20
              + (40 if bottom else 0) + sum(36 + 30 * len(lines) + 10 for lines in hauls) + 10)
    img, d = new_canvas(W, height)
    d.text((MARGIN, 14), "The Wizard's Tower: final scoring", font=font(30, bold=True), fill=GOLD)
    d.text((MARGIN, 54), fit_text(d, view.get("status", ""), font(24), W - 2 * MARGIN), font=font(24), fill=INK)
    y = _final_ranking(d, view, final, scores, 92)
    y = _score_table(d, y + 20, view["names"], FINAL_TITLE, FINAL_NOTE, rows)
    if bottom:
        d.text((MARGIN, y + 10), fit_text(d, f"The face-down card nobody claimed: {bottom['name']} {brief(bottom)}",
                                          font(24, bold=True), W - 2 * MARGIN), font=font(24, bold=True),
               fill=(210, 190, 255))
        y += 40
    y += 20
    for h, lines in zip(view["hauls"], hauls):
        d.text((MARGIN, y), f"{view['names'][h['seat']]}'s haul", font=font(26, bold=True), fill=seat_colour(h["seat"]))
        y += 36
        for line in lines:
            d.text((MARGIN + 10, y), line, font=font(22, condensed=True), fill=INK)
            y += 30
        y += 10
    return img


def _final_haul_lines(h: Mapping[str, Any]) -> list[str]:
    """A haul at the end: the secret card first, then the face-up cards, wrapped."""
    items = []
    secret = h.get("secret")
    if isinstance(secret, dict):
        items.append("face-down: " + secret["name"])
    items += [c["name"] + (" (+Sand)" if h.get("sand_under") == c["id"] else "") for c in h["cards"]]
    return wrap_text(MEASURE, " · ".join(items) or "(no cards)", font(22, condensed=True), W - 2 * MARGIN - 20,
                     max_lines=6)


def _final_ranking(d: ImageDraw.ImageDraw, view: TowerView, final: Mapping[str, Any],
                   scores: list[dict[str, Any]] | None, y: int) -> int:
    """One row per thief, best first: rank, thief, prestige, curses, tiles won. Returns the next y."""
    names = view["names"]
    n = view["n"]
    rows = sorted(scores or [{"seat": s, "score": final.get("totals", [0] * n)[s], "rank": final.get("ranks", [1] * n)[s],
                              "won": s in final.get("winners", []), "detail": ""} for s in range(n)],
                  key=lambda r: (r["rank"], r["seat"]))
    bf = font(26, bold=True)
    hf = font(24, bold=True)
    d.text((MARGIN, y), "Rank   Thief", font=hf, fill=MUTED)
    for label, x in ((f"{STAR} Prestige", W - MARGIN - 480), (f"{CURSE} Curses", W - MARGIN - 300),
                     ("Tiles", W - MARGIN - 120)):
        d.text((x, y), label, font=hf, fill=MUTED, anchor="ma")
    y += 38
    stats = final.get("stats", [])
    tiles = final.get("tiles", [[] for _ in range(n)])
    for r in rows:
        s = r["seat"]
        _rr(d, (MARGIN, y, W - MARGIN, y + 40), (70, 62, 30) if r["won"] else PANEL, r=8)
        d.text((MARGIN + 12, y + 20), f"#{r['rank']}", font=bf, fill=GOLD if r["won"] else INK, anchor="lm")
        _pawn(d, MARGIN + 90, y + 20, s, r=16)
        d.text((MARGIN + 116, y + 20), fit_text(d, names[s] + ("  — winner" if r["won"] else ""), bf, 560),
               font=bf, fill=INK, anchor="lm")
        d.text((W - MARGIN - 480, y + 20), str(r["score"]), font=bf, fill=GOLD, anchor="mm")
        cur = stats[s]["curses"] if stats else "?"
        d.text((W - MARGIN - 300, y + 20), str(cur), font=bf, fill=CURSE_INK, anchor="mm")
        d.text((W - MARGIN - 120, y + 20), str(len(tiles[s])), font=bf, fill=INK, anchor="mm")
        y += 46
    return y


# ---------------------------------------------------------------------------------------------- alt text

def _card_words(c: Mapping[str, Any]) -> str:
    """A card in words for the alt text: its name and brief ("Amulet of Nae (value 0, 2 curses)")."""
    return f"{c['name']} {brief(c)}"


def describe(view: TowerView) -> str:
    """Alt text for the public board: whose turn, who would win each scoring tile now, each thief's place and
    haul, then the cards still in the tower from the top floor down (the platform adds what just happened).
    The most needed first: a screen reader's text may be cut at its end."""
    names = view["names"]
    parts = [view.get("status", "")]
    standing = view.get("standing")
    if standing:
        leads = []
        for seat, name in enumerate(names):
            led = [a["label"] for a in standing["awards"] if a["seat"] == seat]
            leads.append(f"{name} {standing['totals'][seat]} prestige" + (f" ({', '.join(led)})" if led else ""))
        parts.append("If the game ended now (face-up cards): " + "; ".join(leads) + ".")
    for h in view["hauls"]:
        pawn = view["pawns"][h["seat"]]
        vis = h["visible"]
        suits = ", ".join(f"{s} {vis['suits'][s]}" for s in SUITS if vis["suits"][s])
        secret = " and a face-down card" if h.get("secret") else ""
        parts.append(f"{names[h['seat']]}: {_where(pawn)}, {len(h['cards'])} cards{secret} "
                     f"({suits or 'no suit yet'}), {curse_words(vis['curses'])}.")
    floors = []
    for f, row in enumerate(view["tower"]):
        cards = [_card_words(cell["card"]) if "card" in cell else "a face-down card" for cell in row if cell]
        if cards:
            floors.append(f"Floor {f + 1}: " + "; ".join(cards) + ".")
    parts.append("Tower: " + (" ".join(floors) if floors else "empty."))
    return " ".join(p for p in parts if p)
