"""Renderer for The Wizard's Tower. Draws views only (never full state)."""
from __future__ import annotations

import json
from typing import Any, Mapping

from PIL import Image, ImageDraw

from bot.games.tower.viewtypes import TowerView
from rendering.common import BG, GOLD, INK, MUTED, PANEL, TILES, fit_text, font, new_canvas, seat_colour, wrap_text

W = 1240
MARGIN = 14
LABEL_W = 58
GAP = 8
CARD_W = (W - 2 * MARGIN - LABEL_W - 4 * GAP) // 5
CARD_H = 134
ROW_H = CARD_H + GAP

SUIT_COL = {"Potion": (214, 69, 94), "Fossil": (196, 132, 60), "Artifact": (60, 170, 110),
            "Jewel": (60, 140, 220), "Tome": (150, 95, 210)}
SUIT_ABBR = {"Potion": "POT", "Fossil": "FOS", "Artifact": "ART", "Jewel": "JWL", "Tome": "TOM"}
SUITS = ["Potion", "Fossil", "Artifact", "Jewel", "Tome"]
LIGHT_FILL, LIGHT_INK = (238, 229, 204), (40, 34, 30)
DARK_FILL, DARK_INK = (62, 56, 82), (244, 242, 250)
POWER_TAG = {"amulet": "discard, then give away", "sand": "doubles a 3/4/5 card", "hourglass": "take another turn",
             "tales": "discard a card to claim", "cloak": "also take any card", "distill": "peek at a secret",
             "codex": "reveal your secret", "crown": "others discard a card", "vampire": "may swap a card"}
CURSE = "☠"
STAR = "★"


def _rr(d: ImageDraw.ImageDraw, box, fill, outline=None, width=1, r=10):
    d.rounded_rectangle(box, radius=r, fill=fill, outline=outline, width=width)


def _pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, name: str, r: int = 17, ring=None):
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=seat_colour(seat), outline=ring or (20, 20, 24), width=3)
    f = font(max(14, r + 2), bold=True)
    d.text((cx, cy + 1), str(seat + 1), font=f, fill=(255, 255, 255), anchor="mm", stroke_width=2,
           stroke_fill=(20, 20, 24))


def _suit_chips(d, x, y, suits, h=26, ink=None, small=False):
    """Draws suit chips from (x, y); returns the x after them."""
    f = font(16 if small else 17, bold=True, condensed=True)
    if "Wild" in suits:
        w = 62
        seg = w / 5
        for i, s in enumerate(SUITS):
            d.rectangle((x + i * seg, y, x + (i + 1) * seg, y + h), fill=SUIT_COL[s])
        d.rectangle((x, y, x + w, y + h), outline=(250, 250, 250), width=1)
        d.text((x + w / 2, y + h / 2), "WILD", font=f, fill=(255, 255, 255), anchor="mm", stroke_width=2,
               stroke_fill=(30, 30, 30))
        return x + w + 5
    for s in suits:
        w = 44
        _rr(d, (x, y, x + w, y + h), SUIT_COL[s], r=5)
        d.text((x + w / 2, y + h / 2), SUIT_ABBR[s], font=f, fill=(255, 255, 255), anchor="mm")
        x += w + 5
    return x


def draw_card(d: ImageDraw.ImageDraw, x: int, y: int, c: Mapping[str, Any], w: int = CARD_W, h: int = CARD_H, glow=None):
    """A card face over the board's background, drawn once per card and pasted after."""
    TILES.paste(d, x, y, (w + 1, h + 1), BG, ("tower card", json.dumps(c, sort_keys=True), glow),
                lambda d, x, y: _card_face(d, x, y, c, w, h, glow))


def _card_face(d: ImageDraw.ImageDraw, x: int, y: int, c: Mapping[str, Any], w: int, h: int, glow) -> None:
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
    nf = font(25, bold=True, condensed=True)  # legible at phone width (about 8 px when 1240 px show as 400)
    lines = wrap_text(d, c["name"], nf, w - 16, max_lines=2)
    ty = y + 13
    for line in lines:
        d.text((x + 8, ty), line, font=nf, fill=ink)
        ty += 29
    if c.get("power"):
        pf = font(16, condensed=True)
        d.text((x + 8, y + h - 58), fit_text(d, "✦ " + POWER_TAG.get(c["power"], ""), pf, w - 16),
               font=pf, fill=(150, 80, 30) if light else (240, 200, 120))
    # bottom row: value(s), suits, curses, prestige
    by = y + h - 33
    vals = c["values"]
    vtxt = "/".join(str(v) for v in vals) if vals else "0"
    vf = font(24 if len(vals) <= 1 else 20, bold=True)
    vw = max(34, int(d.textlength(vtxt, font=vf)) + 12)
    _rr(d, (x + 6, by, x + 6 + vw, by + 27), (255, 255, 255) if not light else (60, 50, 40), r=6)
    d.text((x + 6 + vw / 2, by + 14), vtxt, font=vf, fill=(20, 20, 20) if not light else (250, 245, 230), anchor="mm")
    cx = _suit_chips(d, x + 12 + vw, by + 1, c["suits"], h=25)
    rx = x + w - 8
    sf = font(20, bold=True)
    if c.get("prestige"):
        t = f"{STAR}{c['prestige']:+d}"
        tw = d.textlength(t, font=sf)
        d.text((rx - tw, by + 2), t, font=sf, fill=(200, 150, 20) if light else GOLD)
        rx -= tw + 8
    if c.get("curses"):
        t = f"{CURSE}{c['curses']}" if c["curses"] > 0 else f"{CURSE}{c['curses']}"
        tw = d.textlength(t, font=sf)
        col = (190, 30, 30) if light else (255, 110, 110)
        if c["curses"] < 0:
            col = (30, 140, 60) if light else (120, 230, 140)
        d.text((rx - tw, by + 2), t, font=sf, fill=col)
    _ = cx


def draw_back(d, x, y, w=CARD_W, h=CARD_H, label="face-down"):
    """A face-down card over the board's background (drawn once, pasted after)."""
    TILES.paste(d, x, y, (w + 1, h + 1), BG, ("tower back", label), lambda d, x, y: _card_back(d, x, y, w, h, label),
                margin=2)


def _card_back(d, x, y, w, h, label):
    _rr(d, (x, y, x + w, y + h), (40, 30, 62), outline=(150, 120, 200), width=3)
    for i in range(0, w + h, 18):
        d.line((x + max(0, i - h), y + min(h, i), x + min(w, i), y + max(0, i - w)), fill=(58, 44, 88), width=3)
    d.text((x + w / 2, y + h / 2 - 10), "?", font=font(40, bold=True), fill=(210, 190, 255), anchor="mm")
    d.text((x + w / 2, y + h - 18), label, font=font(17, bold=True), fill=(210, 190, 255), anchor="mm")


def _header(d, view, y=10):
    d.text((MARGIN, y), "The Wizard's Tower", font=font(34, bold=True), fill=GOLD)
    opts = view.get("options", {})
    tags = [f"set {opts.get('special_set', 'A')}"]
    if opts.get("master_thief"):
        tags.append("Master Thief")
    if opts.get("two_player"):
        tags.append("2-player rules")
    tf = font(18)
    t = " · ".join(tags)
    d.text((W - MARGIN - d.textlength(t, font=tf), y + 10), t, font=tf, fill=MUTED)
    sf = font(36, bold=True)  # whose turn: the one line everyone needs, readable on a phone
    d.text((MARGIN, y + 48), fit_text(d, view.get("status", ""), sf, W - 2 * MARGIN), font=sf, fill=INK)
    return y + 100


def _haul_rows(d, view, y, acting):
    names = view["names"]
    row_h = 86
    for h in view["hauls"]:
        s = h["seat"]
        pw = view["pawns"][s]
        # the whole row, over the background: drawn once per look (the haul, where the pawn is, whose turn)
        TILES.paste(d, 0, y, (W, row_h + 1), BG, ("tower haul", json.dumps(h, sort_keys=True), json.dumps(pw),
                                                  names[s], s in acting),
                    lambda d, x, y, h=h, pw=pw: _haul_row(d, h, names, pw, s in acting, y, row_h))
        y += row_h + 6
    return y


def _haul_row(d, h, names, pw, acting, y, row_h):
    s = h["seat"]
    hf = font(21, bold=True)
    small = font(17, condensed=True)
    _rr(d, (MARGIN, y, W - MARGIN, y + row_h), PANEL, outline=GOLD if acting else None,
        width=3 if acting else 1)
    d.rectangle((MARGIN, y + 6, MARGIN + 8, y + row_h - 6), fill=seat_colour(s))
    _pawn(d, MARGIN + 36, y + 28, s, names[s], r=16)
    nm = fit_text(d, names[s], hf, 230)
    d.text((MARGIN + 60, y + 14), nm, font=hf, fill=INK)
    where = "balcony" if pw["where"] == "balcony" else "bridge" if pw["where"] == "bridge" else f"floor {pw['floor'] + 1}"
    d.text((MARGIN + 60, y + 42), f"{len(h['cards'])} cards · {where}", font=small, fill=MUTED)
    # suit totals
    x = MARGIN + 300
    vis = h["visible"]
    sf = font(18, bold=True, condensed=True)
    for su in SUITS:
        _rr(d, (x, y + 10, x + 78, y + 38), SUIT_COL[su], r=6)
        d.text((x + 39, y + 24), f"{SUIT_ABBR[su]} {vis['suits'][su]}", font=sf, fill=(255, 255, 255), anchor="mm")
        x += 84
    x += 6
    nums = vis["numbers"]
    d.text((x, y + 12), f"3s:{nums['3']} 4s:{nums['4']} 5s:{nums['5']}", font=font(19, bold=True), fill=INK)
    x2 = W - MARGIN - 200
    d.text((x2 + 20, y + 12), f"{CURSE}{vis['curses']}", font=font(20, bold=True), fill=(255, 120, 120))
    d.text((x2 + 74, y + 12), f"{STAR}{vis['prestige']:+d}" if vis["prestige"] else "", font=font(20, bold=True),
           fill=GOLD)
    # secret
    sx, sy = W - MARGIN - 58, y + 8
    sec = h.get("secret")
    if sec == "back":
        _rr(d, (sx, sy, sx + 44, sy + 62), (40, 30, 62), outline=(150, 120, 200), width=2, r=6)
        d.text((sx + 22, sy + 31), "?", font=font(26, bold=True), fill=(210, 190, 255), anchor="mm")
    elif isinstance(sec, dict):
        _rr(d, (sx, sy, sx + 44, sy + 62), LIGHT_FILL, outline=GOLD, width=2, r=6)
        d.text((sx + 22, sy + 31), "/".join(map(str, sec["values"])) or "0", font=font(20, bold=True),
               fill=LIGHT_INK, anchor="mm")
    # card names
    parts = []
    for c in h["cards"]:
        t = c["name"]
        if h.get("sand_under") == c["id"]:
            t += " (+Sand)"
        parts.append(t)
    text = " · ".join(parts) if parts else "(empty haul)"
    d.text((MARGIN + 300, y + 50), fit_text(d, text, small, W - 2 * MARGIN - 300 - 70), font=small, fill=MUTED)


def _tower(d, view, y, show_all=False):
    names = view["names"]
    acting = set(view.get("to_act", []))
    pawns = view["pawns"]
    x0 = MARGIN + LABEL_W
    # balcony
    bal = [p["seat"] for p in pawns if p["where"] == "balcony"]
    _rr(d, (MARGIN, y, W - MARGIN, y + 50), (70, 62, 50), r=8)
    d.text((MARGIN + 12, y + 25), "Balcony", font=font(20, bold=True), fill=(230, 215, 180), anchor="lm")
    for i, s in enumerate(bal):
        _pawn(d, MARGIN + 150 + i * 44, y + 25, s, names[s], ring=GOLD if s in acting else None)
    y += 58
    lf = font(22, bold=True)
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
                    _pawn(d, cx + CARD_W / 2 + (i - (len(here) - 1) / 2) * 40, ry + CARD_H / 2, ps, names[ps], r=22,
                          ring=GOLD if ps in acting else None)
            elif "back" in cell:
                draw_back(d, cx, ry, label="face-down")
            else:
                draw_card(d, cx, ry, cell["card"], glow=GOLD if cell.get("was_face_down") else None)
    return y + 8 * ROW_H


def _bridge(d, view, y):
    names = view["names"]
    _rr(d, (MARGIN, y, W - MARGIN, y + 84), (78, 60, 44), outline=(140, 110, 70), width=2, r=10)
    d.text((MARGIN + 14, y + 42), "Bridge", font=font(22, bold=True), fill=(240, 220, 180), anchor="lm")
    x = MARGIN + 120
    for t in view["tiles"]:
        if t["key"] not in ("first", "second", "last") or not t["in_play"]:
            continue
        w = 210
        _rr(d, (x, y + 10, x + w, y + 74), (232, 214, 160), outline=(120, 90, 40), width=2, r=8)
        d.text((x + 10, y + 20), t["label"], font=font(19, bold=True), fill=(50, 35, 20))
        d.text((x + 10, y + 46), f"{STAR}{t['prestige']:+d}", font=font(19, bold=True), fill=(140, 90, 10))
        if t["holder"] is not None:
            _pawn(d, x + w - 30, y + 42, t["holder"], names[t["holder"]], r=18)
            d.text((x + 64, y + 46), fit_text(d, names[t["holder"]], font(17), 100), font=font(17), fill=(50, 35, 20))
        x += w + 10
    on = [p["seat"] for p in view["pawns"] if p["where"] == "bridge"]
    d.text((x + 10, y + 20), "Out:", font=font(18, bold=True), fill=(240, 220, 180))
    for i, s in enumerate(view.get("exits", on)):
        _pawn(d, x + 30 + i * 40, y + 56, s, names[s], r=16)
    return y + 92


def render_board(view: TowerView) -> Image.Image:
    """The public board: the tower's floors, the bridge, each thief's haul, what just happened."""
    n = view["n"]
    recent = view.get("recent", [])[-3:]
    height = 110 + 58 + 8 * ROW_H + 96 + n * 92 + 16 + (len(recent) * 34 + 10 if recent else 0) + 10
    if view.get("pending") or view.get("draft"):
        height += 0
    img, d = new_canvas(W, height)
    y = _header(d, view)
    y = _tower(d, view, y)
    y = _bridge(d, view, y + 4)
    acting = set(view.get("to_act", []))
    y = _haul_rows(d, view, y + 4, acting)
    ef = font(26)
    for t in recent:
        d.text((MARGIN, y + 4), fit_text(d, "• " + t.replace("**", ""), ef, W - 2 * MARGIN), font=ef, fill=INK)
        y += 34
    return img


def render_private(view: TowerView) -> Image.Image | None:
    """A thief's secrets: their face-down card, the ones they peeked at, a draft hand."""
    p = view.get("private")
    if not p:
        return None
    cards: list[tuple[str, Any]] = []
    if p.get("secret"):
        cards.append(("Your face-down card", p["secret"]))
    for s in p.get("seen", []):
        cards.append((f"{s['name']}'s face-down card", s["card"]))
    hand = p.get("draft_hand") or []
    for c in hand:
        cards.append(("Draft: pick one", c))
    cols = 4
    rows = max(1, (len(cards) + cols - 1) // cols)
    w = MARGIN * 2 + cols * (CARD_W + GAP)
    h = 60 + rows * (CARD_H + 34) + 60
    img, d = new_canvas(w, h)
    d.text((MARGIN, 14), f"{view['names'][p['seat']]}: your secrets", font=font(26, bold=True), fill=GOLD)
    for i, (label, c) in enumerate(cards):
        x = MARGIN + (i % cols) * (CARD_W + GAP)
        y = 56 + (i // cols) * (CARD_H + 34)
        d.text((x, y), fit_text(d, label, font(17, bold=True), CARD_W), font=font(17, bold=True), fill=MUTED)
        draw_card(d, x, y + 24, c)
    if not cards:
        d.text((MARGIN, 70), "No face-down card.", font=font(20), fill=INK)
    t = p.get("my_totals")
    if t:
        txt = "With your secret: " + "  ".join(f"{SUIT_ABBR[s]} {t['suits'][s]}" for s in SUITS) + \
              f"   3s:{t['numbers']['3']} 4s:{t['numbers']['4']} 5s:{t['numbers']['5']}   {CURSE}{t['curses']}"
        d.text((MARGIN, h - 44), fit_text(d, txt, font(19, bold=True), w - 2 * MARGIN), font=font(19, bold=True),
               fill=INK)
    return img


FINAL_TILE_ROW = 36  # height of one scoring tile's row on the final board


def render_final(view: TowerView, scores: list[dict[str, Any]] | None = None) -> Image.Image:
    """The final scoring: ranks, the scoring tiles one by one, every haul."""
    final: Mapping[str, Any] = view.get("final") or {}
    awards = final.get("awards", [])
    height = _final_height(view, awards)
    img, d = new_canvas(W, height)
    d.text((MARGIN, 14), "The Wizard's Tower: final scoring", font=font(30, bold=True), fill=GOLD)
    d.text((MARGIN, 52), fit_text(d, view.get("status", ""), font(20), W - 2 * MARGIN), font=font(20), fill=INK)
    y = _final_ranking(d, view, final, scores, 90)
    y = _final_tiles(d, view["names"], awards, y + 14)
    y = _final_hauls(d, view, final, y + 18)
    return img.crop((0, 0, W, min(height, y + 10)))


def _final_height(view: TowerView, awards: list[dict[str, Any]]) -> int:
    """The most the final board can need: the ranking, one row per tile, the hauls' wrapped lines."""
    haul_h = 0
    for h in view["hauls"]:
        haul_h += 34 + 26 * max(1, (len(h["cards"]) + (1 if h.get("secret") else 0) + 4) // 5) + 10
    return 80 + 44 + view["n"] * 44 + 30 + 44 + len(awards) * FINAL_TILE_ROW + 30 + haul_h + 60


def _final_ranking(d: ImageDraw.ImageDraw, view: TowerView, final: Mapping[str, Any],
                   scores: list[dict[str, Any]] | None, y: int) -> int:
    """One row per thief, best first: rank, pawn, name, prestige, curses, tiles won. Returns the next y."""
    names = view["names"]
    n = view["n"]
    rows = sorted(scores or [{"seat": s, "score": final.get("totals", [0] * n)[s], "rank": final.get("ranks", [1] * n)[s],
                              "won": s in final.get("winners", []), "detail": ""} for s in range(n)],
                  key=lambda r: (r["rank"], r["seat"]))
    bf = font(22, bold=True)
    d.text((MARGIN, y), "Rank   Thief", font=font(19, bold=True), fill=MUTED)
    d.text((W - MARGIN - 520, y), "Prestige   Curses   Tiles", font=font(19, bold=True), fill=MUTED)
    y += 32
    stats = final.get("stats", [])
    tiles = final.get("tiles", [[] for _ in range(n)])
    for r in rows:
        s = r["seat"]
        _rr(d, (MARGIN, y, W - MARGIN, y + 38), (70, 62, 30) if r["won"] else PANEL, r=8)
        d.text((MARGIN + 12, y + 19), f"#{r['rank']}", font=bf, fill=GOLD if r["won"] else INK, anchor="lm")
        _pawn(d, MARGIN + 86, y + 19, s, names[s], r=15)
        d.text((MARGIN + 112, y + 19), fit_text(d, names[s] + ("  — winner" if r["won"] else ""), bf, 520),
               font=bf, fill=INK, anchor="lm")
        d.text((W - MARGIN - 480, y + 19), str(r["score"]), font=bf, fill=GOLD, anchor="mm")
        cur = stats[s]["curses"] if stats else "?"
        d.text((W - MARGIN - 355, y + 19), f"{CURSE}{cur}", font=bf, fill=(255, 120, 120), anchor="mm")
        d.text((W - MARGIN - 240, y + 19), str(len(tiles[s])), font=bf, fill=INK, anchor="mm")
        y += 44
    return y


def _final_tiles(d: ImageDraw.ImageDraw, names: list[str], awards: list[dict[str, Any]], y: int) -> int:
    """The scoring tiles in award order: prestige, who won it (or the tie), everyone's figure. Returns the next y."""
    d.text((MARGIN, y), "Scoring tiles, awarded one by one", font=font(22, bold=True), fill=GOLD)
    y += 36
    vf = font(18, condensed=True)
    for i, a in enumerate(awards):
        _rr(d, (MARGIN, y, W - MARGIN, y + FINAL_TILE_ROW - 4), PANEL, r=6)
        d.text((MARGIN + 10, y + 16), f"{i + 1:>2}. {a['label']}", font=font(19, bold=True), fill=INK, anchor="lm")
        d.text((MARGIN + 270, y + 16), f"{STAR}{a['prestige']:+d}", font=font(19, bold=True), fill=GOLD, anchor="lm")
        if a["seat"] is not None:
            _pawn(d, MARGIN + 352, y + 16, a["seat"], names[a["seat"]], r=12)
            d.text((MARGIN + 372, y + 16), fit_text(d, names[a["seat"]], font(19, bold=True), 230),
                   font=font(19, bold=True), fill=INK, anchor="lm")
        else:
            d.text((MARGIN + 340, y + 16), "not awarded (tie)" if a["values"] is not None else "—",
                   font=font(19), fill=MUTED, anchor="lm")
        if a["values"] is not None:
            txt = "   ".join(f"{names[s][:10]} {v}" for s, v in enumerate(a["values"]))
            d.text((MARGIN + 610, y + 16), fit_text(d, txt, vf, W - 2 * MARGIN - 620), font=vf, fill=MUTED,
                   anchor="lm")
        y += FINAL_TILE_ROW
    return y


def _final_hauls(d: ImageDraw.ImageDraw, view: TowerView, final: Mapping[str, Any], y: int) -> int:
    """The face-down card nobody claimed, then every haul as wrapped card names (secret first). Returns the next y."""
    names = view["names"]
    hf = font(17, condensed=True)
    bottom = final.get("bottom_card")
    if bottom:
        d.text((MARGIN, y), f"The face-down tower card left on floor 8 was {bottom['name']}.", font=font(19, bold=True),
               fill=(210, 190, 255))
        y += 34
    for h in view["hauls"]:
        s = h["seat"]
        d.text((MARGIN, y), f"{names[s]}'s haul", font=font(20, bold=True), fill=seat_colour(s))
        y += 30
        items = []
        secret = h.get("secret")
        if isinstance(secret, dict):
            items.append(("secret: " + secret["name"], GOLD))
        for c in h["cards"]:
            t = c["name"] + (" (+Sand)" if h.get("sand_under") == c["id"] else "")
            items.append((t, INK))
        x = MARGIN + 10
        for t, col in items:
            tw = d.textlength(t, font=hf) + 20
            if x + tw > W - MARGIN:
                x = MARGIN + 10
                y += 26
            d.text((x, y), t, font=hf, fill=col)
            x += tw
        y += 36
    return y


def _card_words(c: Mapping[str, Any]) -> str:
    values = "/".join(str(v) for v in c["values"]) or "0"
    extras = [f"{c['curses']} curse" if c.get("curses") else "", f"prestige {c['prestige']:+d}" if c.get("prestige") else ""]
    return f"{c['name']} ({values} {'+'.join(c['suits'])}{''.join(', ' + e for e in extras if e)})"


def describe(view: TowerView) -> str:
    """Alt text for the public board: whose turn, each thief's position and haul,
    then the cards still in the tower from the top floor down (the platform adds
    what just happened)."""
    names = view["names"]
    parts = [view.get("status", "")]
    for h in view["hauls"]:
        pawn = view["pawns"][h["seat"]]
        where = pawn["where"] if pawn["where"] != "tower" else f"floor {pawn['floor'] + 1}"
        vis = h["visible"]
        suits = ", ".join(f"{s} {vis['suits'][s]}" for s in SUITS if vis["suits"][s])
        parts.append(f"{names[h['seat']]}: {where}, {len(h['cards'])} cards ({suits or 'none'}), "
                     f"{vis['curses']} curses.")
    floors = []
    for f, row in enumerate(view["tower"]):
        cards = [_card_words(cell["card"]) if "card" in cell else "a face-down card" for cell in row if cell]
        if cards:
            floors.append(f"Floor {f + 1}: " + "; ".join(cards) + ".")
    parts.append("Tower: " + (" ".join(floors) if floors else "empty."))
    return " ".join(p for p in parts if p)
