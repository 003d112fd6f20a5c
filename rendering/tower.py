"""Renderer for The Wizard's Tower. Draws views only (never full state).

Every word a player must read is drawn at 22 px or more on a 1240 px wide picture, so that it still reads at
about 7 px when a phone shows the picture 400 px wide. The board explains its own symbols (a legend strip) and
shows, during play, the scoring tiles and who would win each if the game ended now (the running score).
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from PIL import Image

from bot.games.tower.cards import brief, curse_words
from bot.games.tower.viewtypes import TowerView
from rendering.common import BG, GOLD, INK, MUTED, PANEL, TILES, fit_text, font, new_canvas, seat_colour, wrap_text
from rendering.tower_cards import (
    CARD_H,
    CARD_W,
    CURSE,
    GAP,
    LABEL_W,
    LEGEND,
    MARGIN,
    MEASURE,
    POWER_TAG,
    ROW_H,
    STAR,
    SUITS,
    W,
    _pawn,
    _rr,
    draw_back,
    draw_card,
)
from rendering.tower_scores import (
    STANDING_NOTE,
    STANDING_TITLE,
    _score_table,
    _standing_rows,
    _table_height,
    _title_lines,
    render_final,
)

__all__ = ["POWER_TAG", "W", "describe", "render_board", "render_final", "render_howto", "render_private"]


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
