"""The Wizard's Tower's pictures: the scoring-tile table (on the board while playing, and at the end) and the final scoring."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from PIL import Image, ImageDraw

from bot.games.tower.cards import brief
from bot.games.tower.viewtypes import TowerView
from rendering.common import GOLD, INK, MUTED, PANEL, fit_text, font, new_canvas, seat_colour, wrap_text
from rendering.tower_cards import CURSE, CURSE_INK, MARGIN, MEASURE, STAR, SUIT_COL, W, _pawn, _rr

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
