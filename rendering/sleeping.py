"""Sleeping Wizard renderer: draws views only (never the full state)."""
from __future__ import annotations

import json
from typing import Any

from PIL import Image, ImageDraw

from bot.games.sleeping.viewtypes import (
    CardView,
    FinalView,
    LastRoundView,
    SleepingView,
    SummaryCardView,
    TeamCardView,
    TeamView,
)
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


def _floor_banner(d: ImageDraw.ImageDraw, view: SleepingView, x: int, y: int, w: int) -> int:
    floor = view["floor"]
    colour = CATEGORY_COLOURS.get(floor.get("category", "basic"), PANEL)
    lines = wrap_text(d, floor["text"], font(24), w - 28, max_lines=3)
    h = 50 + 30 * len(lines)
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=PANEL, outline=colour, width=3)
    d.text((x + 14, y + 8), f"This round: {floor['name']}", font=font(26, bold=True), fill=GOLD)
    for i, line in enumerate(lines):
        d.text((x + 14, y + 44 + 30 * i), line, font=font(24), fill=INK)
    return y + h


def _tower(d: ImageDraw.ImageDraw, view: SleepingView, x: int, y: int, w: int) -> int:
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
            for row, line in enumerate(words):
                d.text((bx + box_w / 2, y + box_h / 2 + (row - (len(words) - 1) / 2) * 22), line,
                       font=font(19, bold=True, condensed=True), fill=GOLD if current else INK, anchor="mm")
        else:
            d.rounded_rectangle((bx, y, bx + box_w, y + box_h), radius=8, fill=DARK, outline=(70, 74, 90), width=2)
            d.text((bx + box_w / 2, y + box_h / 2), "?", font=font(26, bold=True), fill=MUTED, anchor="mm")
    return y + box_h


def tracker_label(wake: int) -> str:
    """What the tracker's last space means, beside it on the board."""
    return f"{wake}: the wizard wakes, that guild loses"


def _tracker(d: ImageDraw.ImageDraw, view: SleepingView, x: int, y: int, w: int,
             anchors: dict[str, tuple[int, int]] | None = None) -> int:
    wake = view.get("wake_at", 48)
    d.text((x, y), "Noise tracker", font=font(24, bold=True), fill=INK)
    d.text((x + w, y + 2), tracker_label(wake), font=font(24, bold=True), fill=RED, anchor="ra")
    y += 36
    cells = wake + 1
    cw = w / cells
    tokens: dict[int, list[int]] = {}
    for seat, noise in enumerate(view["noise"]):
        tokens.setdefault(min(noise, wake), []).append(seat)
    stack = max((len(seats) for seats in tokens.values()), default=1)
    token_r = 13
    top = y + stack * (token_r * 2 + 2)
    band_of = {}
    for band in view["bands"]:
        for space in range(band["from"], band["to"] + 1):
            band_of[space] = band["treasure"]
    shades = {5: (70, 120, 80), 4: (80, 110, 80), 3: (90, 100, 76), 2: (100, 92, 72), 1: (106, 82, 70), 0: (90, 64, 64)}
    for space in range(cells):
        cx0 = x + space * cw
        fill = (150, 40, 40) if space >= wake else shades.get(band_of.get(space, 0), PANEL)
        d.rectangle((cx0, top, cx0 + cw - 1, top + 30), fill=fill)
        if space % 5 == 0 or space == wake:
            d.text((cx0 + cw / 2, top + 15), str(space), font=font(20, bold=True, condensed=True), fill=INK, anchor="mm")
    for band in view["bands"]:
        bx0 = x + band["from"] * cw
        bx1 = x + (band["to"] + 1) * cw
        d.line((bx0, top + 32, bx0, top + 56), fill=MUTED, width=2)
        d.text(((bx0 + bx1) / 2, top + 46), f"+{band['treasure']}", font=font(22, bold=True), fill=GOLD, anchor="mm")
    d.text((x + wake * cw + cw / 2, top + 46), "✖", font=font(22, bold=True), fill=RED, anchor="mm")
    d.text((x, top + 64), "+N: bonus treasure at the end of the game for a guild on that space",
           font=font(22), fill=MUTED)
    for space, seats in tokens.items():
        for i, seat in enumerate(seats):
            cx = x + space * cw + cw / 2
            cy = top - token_r - 2 - i * (token_r * 2 + 2)
            d.ellipse((cx - token_r, cy - token_r, cx + token_r, cy + token_r), fill=seat_colour(seat), outline=(255, 255, 255), width=2)
            d.text((cx, cy), str(seat + 1), font=font(15, bold=True), fill=DARK, anchor="mm")
    if anchors is not None:
        anchors["tracker"] = (int(x + 24 * cw), int(top - 24))
        anchors["wake"] = (int(x + wake * cw - 18), int(top - 24))
    return top + 96


def _card_rows(d: ImageDraw.ImageDraw, cards: list[CardView], x: int, y: int, per_row: int,
               w: int = CARD_W, h: int = CARD_H) -> int:
    for i, card in enumerate(cards):
        cx = x + (i % per_row) * (w + GAP)
        cy = y + (i // per_row) * (h + GAP)
        draw_card(d, cx, cy, card, w=w, h=h, over=BG)
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    return y + rows * (h + GAP)


def _recent(d: ImageDraw.ImageDraw, view: SleepingView, x: int, y: int, w: int) -> int:
    """What just happened: the last public sentences (from the view)."""
    lines: list[str] = []
    for text in view.get("recent") or []:
        lines += wrap_text(d, text.replace("**", ""), font(23), w - 20, max_lines=2)
    lines = lines[-4:]
    for line in lines:
        d.text((x, y), line, font=font(23), fill=MUTED)
        y += 30
    return y + (6 if lines else 0)


LEGEND = (
    (("2-9", "Healer"), ("2-9", "Mage"), ("2-9", "Warrior"), ("2-9", "Ranger")),
    (("1*", "Rogue"), ("10", "Slime"), ("11-14", "Bard"), ("?", "Shapeshifter")),
)
LEGEND_NOTES = (
    "Healers, Mages, Warriors, Rangers: plain; a floor may pay treasure for a class.",
    "Rogue: 1 alone, 10 each in a pack of 2+. Slime: a 10. Bards never cancel. Shapeshifter: copies a card of its "
    "team (not a Bard). Equal numbers cancel: all score 0 (green disc).",
)


def _legend(d: ImageDraw.ImageDraw, x: int, y: int, w: int) -> int:
    """What each class of adventurer does: a chip per class in its colour, then the rules in a few words."""
    d.text((x, y), "Adventurers", font=font(24, bold=True), fill=INK)
    y += 36
    chip_w = (w - 3 * 10) // 4
    for row in LEGEND:
        for i, (number, cls) in enumerate(row):
            cx = x + i * (chip_w + 10)
            colour = CLASS_COLOURS[cls]
            d.rounded_rectangle((cx, y, cx + chip_w, y + 34), radius=7, fill=colour)
            d.text((cx + 8, y + 17), number, font=font(22, bold=True), fill=(255, 255, 255), anchor="lm")
            d.text((cx + chip_w - 8, y + 17), fit_text(d, cls, font(22, bold=True, condensed=True), chip_w - 70),
                   font=font(22, bold=True, condensed=True), fill=(255, 255, 255), anchor="rm")
        y += 42
    for note in LEGEND_NOTES:
        for line in wrap_text(d, note, font(22), w, max_lines=3):
            d.text((x, y), line, font=font(22), fill=MUTED)
            y += 28
    return y + 6


def _team_why(team: TeamView) -> str:
    """Why the team's cards score other than their numbers, each reason once ("two 5s cancel, Rogue pack...")."""
    return ", ".join(dict.fromkeys(card["why"] for card in team["cards"] if card.get("why")))


def render_board(view: SleepingView) -> Image.Image:
    """The public board: status, what just happened, the floor and tower, market, teams, tracker, legend, last round."""
    return _draw_board(view, None)


def _draw_board(view: SleepingView, anchors: dict[str, tuple[int, int]] | None) -> Image.Image:
    """The board; ``anchors`` (when given) collects where its parts are, for the how-to-play labels."""
    n = len(view["names"])
    per_row = max(1, (W - 40 + GAP) // (CARD_W + GAP))
    market_rows = max(1, (len(view["market"]) + per_row - 1) // per_row)
    card_h = CARD_H + 16
    whys = [_team_why(team) for team in view["teams"]]
    last = view.get("last_round")
    height = (140 + 130 + 210 + 80 + market_rows * (CARD_H + GAP) + 60 + n * (card_h + 8) + 36 * sum(map(bool, whys))
              + 230 + 260 + (40 + 34 * ((n + 1) // 2) if last else 0))
    img, d = new_canvas(W, height)
    y = _header(d, view, f"Sleeping Wizard — round {view['round']} of {view['rounds']}", W)
    y = _recent(d, view, 20, y, W - 40)
    if anchors is not None:
        anchors["floor"] = (W - 44, y + 24)
    y = _floor_banner(d, view, 20, y, W - 40) + 12
    if anchors is not None:
        anchors["tower"] = (W - 44, y + 29)
    y = _tower(d, view, 20, y, W - 40) + 16
    # Market
    d.text((20, y), f"Market ({len(view['market'])}): anyone may hire these", font=font(26, bold=True), fill=INK)
    d.text((W - 20, y + 2), f"Deck: {view['deck_count']}", font=font(24), fill=MUTED, anchor="ra")
    if anchors is not None:
        anchors["market"] = (W - 150, y + 90)
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
    for team, why in zip(view["teams"], whys):
        seat = team["seat"]
        colour = seat_colour(seat)
        acting = seat == current or seat in waiting
        row_h = card_h + (36 if why else 0)
        d.rounded_rectangle((rx, y, rx + rw, y + row_h), radius=10, fill=PANEL, outline=GOLD if acting else PANEL,
                            width=4)
        d.rectangle((rx + 4, y + 8, rx + 12, y + row_h - 8), fill=colour)
        d.ellipse((rx + 20, y + 10, rx + 50, y + 40), fill=colour, outline=(255, 255, 255), width=2)
        d.text((rx + 35, y + 25), str(seat + 1), font=font(18, bold=True), fill=DARK, anchor="mm")
        d.text((rx + 58, y + 10), fit_text(d, view["names"][seat], font(26, bold=True), 150), font=font(26, bold=True),
               fill=GOLD if acting else INK)
        d.text((rx + 22, y + 48), f"Treasure {view['treasure'][seat]}", font=font(24, bold=True), fill=GOLD)
        total = view["noise"][seat]
        d.text((rx + 22, y + 80), f"Tracker {total}/{view['wake_at']}", font=font(24, bold=True),
               fill=RED if total >= view["wake_at"] - 12 else INK)
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
        d.text((nx, y + 12), "team noise", font=font(22), fill=MUTED)
        d.text((nx, y + 38), str(team["noise"]), font=font(48, bold=True), fill=INK)
        if team.get("bonus"):
            d.text((nx, y + 100), f"+{team['bonus']} treasure", font=font(22, bold=True), fill=GOLD)
            d.text((nx, y + 126), "(floor)", font=font(22), fill=GOLD)
        if why:
            d.text((tx, y + card_h + 2), fit_text(d, f"Why: {why}", font(24, bold=True), rw - 214 - 10),
                   font=font(24, bold=True), fill=GREEN)
        if anchors is not None:
            if team["cards"] and "card" not in anchors:
                anchors["card"] = (tx - 18, y + 36)
            if why and "why" not in anchors:
                anchors["why"] = (tx - 22, y + card_h + 16)
            if "row" not in anchors:
                anchors["row"] = (rx, y + row_h // 2)
                anchors["hand"] = (rx + 110, y + 130)
                anchors["noise"] = (nx + 90, y + 60)
        y += row_h + 8
    y = _tracker(d, view, 20, y + 12, W - 40, anchors)
    if anchors is not None:
        anchors["legend"] = (W - 44, y + 16)
    y = _legend(d, 20, y, W - 40)
    if last:
        y = _last_round_lines(d, view, last, 20, y + 4, W - 40)
    return img.crop((0, 0, W, min(height, y + 16)))


def _last_round_lines(d: ImageDraw.ImageDraw, view: SleepingView, last: LastRoundView, x: int, y: int,
                      w: int) -> int:
    names = view["names"]
    d.text((x, y), fit_text(d, f"Last round ({last['round']}, {last['floor_name']}): noise, treasure won",
                             font(24, bold=True), w), font=font(24, bold=True), fill=INK)
    y += 36
    col_w = w // 2
    for i, team in enumerate(last["teams"]):
        cx = x + (i % 2) * col_w
        cy = y + (i // 2) * 34
        gained = team["base"] + team["bonus"]
        text = f"{names[team['seat']]}: noise {team['noise']}" + (f", +{gained}" if gained else "")
        d.ellipse((cx, cy + 6, cx + 18, cy + 24), fill=seat_colour(team["seat"]))
        d.text((cx + 26, cy), fit_text(d, text, font(24), col_w - 36), font=font(24),
               fill=GOLD if team["base"] else INK)
    return y + 34 * ((len(last["teams"]) + 1) // 2)


def render_private(view: SleepingView) -> Image.Image | None:
    """A seat's own view: its hand (peeked cards face up, the rest from the back) and the other hands."""
    return _draw_private(view, None)


def _draw_private(view: SleepingView, anchors: dict[str, tuple[int, int]] | None) -> Image.Image | None:
    private = view.get("private")
    if not private:
        return None
    width = 1000
    others = private["others"]
    row_h = CARD_H + 60
    height = 88 + 150 + 70 + row_h + 80 + len(others) * (CARD_H + 24) + 20
    img, d = new_canvas(width, height)
    y = _header(d, view, f"Your view, {private['name']} — round {view['round']}", width)
    y = _floor_banner(d, view, 20, y, width - 40) + 14
    d.text((20, y), "Your hand faces away from you", font=font(26, bold=True), fill=GOLD)
    y += 34
    d.text((20, y), fit_text(d, "The others see these cards; you see only the ones you peeked at.", font(22),
                             width - 40), font=font(22), fill=MUTED)
    y += 34
    if anchors is not None:
        anchors["your hand"] = (20 + 4 * (CARD_W + 14) + 30, y + CARD_H // 2)
    if not private["hand"]:
        d.text((20, y + 10), "(empty: your team is hired)", font=font(22), fill=MUTED)
    for i, held in enumerate(private["hand"]):
        x = 20 + i * (CARD_W + 14)
        if held["known"]:
            draw_card(d, x, y, held["card"])
            d.text((x + CARD_W // 2, y + CARD_H + 4), f"{held['letter']}: peeked", font=font(22, bold=True),
                   fill=INK, anchor="ma")
        else:
            draw_back(d, x, y, held["letter"])
    y += row_h
    d.text((20, y - 10), "Their hands: they can't see these, you can", font=font(26, bold=True), fill=GOLD)
    y += 30
    if anchors is not None and others:
        anchors["their hands"] = (width - 60, y + 40)
    for other in others:
        colour = seat_colour(other["seat"])
        d.rounded_rectangle((16, y, width - 16, y + CARD_H + 16), radius=10, fill=PANEL)
        d.rectangle((20, y + 8, 28, y + CARD_H + 8), fill=colour)
        d.text((38, y + 12), fit_text(d, other["name"], font(24, bold=True), 170), font=font(24, bold=True), fill=INK)
        d.text((38, y + 44), f"{len(other['cards'])} in hand", font=font(22), fill=MUTED)
        for i, seen in enumerate(other["cards"]):
            x = 220 + i * (CARD_W + GAP + 20)
            draw_card(d, x, y + 8, seen["card"])
            d.text((x + CARD_W + 4, y + 10), seen["letter"], font=font(22, bold=True), fill=MUTED)
        y += CARD_H + 24
    return img.crop((0, 0, width, y + 10))


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


def describe(view: SleepingView) -> str:
    """Plain-words alt text (at most 1,000 characters) for the public board, from the public parts only."""
    names = view["names"]
    floor = view["floor"]
    parts = [f"Sleeping Wizard, round {view['round']} of {view['rounds']}, on the {floor['name']}: {floor['text']}",
             view.get("status", "").rstrip(".") + "."]
    recent = [t.replace("**", "") for t in view.get("recent") or []]
    if recent:
        parts.append("Just now: " + " ".join(recent))
    final = view["final"]
    if final:
        order = sorted(final, key=lambda row: row["rank"])
        parts.append("Final: " + "; ".join(
            f"{row['rank']}. {names[row['seat']]} {row['total']} treasure, noise {row['noise']}"
            + (" (woke the wizard)" if not row["eligible"] else "") for row in order) + ".")
    else:
        market = ", ".join(f"{c['label']} {c['class']}" for c in view["market"]) or "empty"
        parts.append(f"Market: {market}. Deck: {view['deck_count']} cards.")
        guilds = []
        for team in view["teams"]:
            seat = team["seat"]
            cards = ", ".join(f"{c['label']} {c['class']}" for c in team["cards"]) or "nobody yet"
            guilds.append(f"{names[seat]}: treasure {view['treasure'][seat]}, total noise {view['noise'][seat]}; "
                          f"team {cards} (noise {team['noise']})")
        parts.append("Guilds: " + ". ".join(guilds) + f". The wizard wakes at {view.get('wake_at', 48)} noise.")
    text = " ".join(part for part in parts if part)
    return text if len(text) <= 1000 else text[:997].rsplit(" ", 1)[0] + "..."


HOWTO_PARTS = (
    ("floor", "This round's floor and its rule (rounds 2-5 each reveal a new one)."),
    ("tower", "The tower: floors still face down show ?; the Attic at the top is the end of the game."),
    ("market", "The market: face-up adventurers anyone may hire; a pushed hand card lands here."),
    ("row", "A guild: its treasure, its noise tracker total out of 48, the backs of the cards left in its hand."),
    ("card", "A hired adventurer: its number top left, its noise this round in the disc (a green 0 scores nothing)."),
    ("why", "Why cards score 0, or more than their number: equal numbers cancel, a Rogue pack, a floor rule."),
    ("noise", "The team's noise this round: the quietest team collects 2 treasures."),
    ("tracker", "The noise tracker: each guild's total; +N is the bonus treasure for ending the game in that band."),
    ("wake", "48: the wizard wakes. That guild loses, and the game ends that round."),
    ("legend", "What each class of adventurer does."),
    ("your hand", "Your DM: your own hand faces away from you; only the cards you peeked at show."),
    ("their hands", "Your DM: the others' hands, which they can't see themselves; you can."),
)


def render_howto(view: SleepingView) -> Image.Image:
    """The how-to-play picture: the board and, under it, the seat's DM, with numbered labels on their parts and a
    key saying what each is."""
    anchors: dict[str, tuple[int, int]] = {}
    board = _draw_board(view, anchors)
    private_anchors: dict[str, tuple[int, int]] = {}
    private = _draw_private(view, private_anchors)
    gap = 60 if private is not None else 0
    top = board.height + gap
    for key, (x, y) in private_anchors.items():
        anchors[key] = (x, y + top)
    parts = [(key, text) for key, text in HOWTO_PARTS if key in anchors]
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    kf = font(26)
    key_lines = [wrap_text(measure, text, kf, W - 100, max_lines=3) for _, text in parts]
    key_h = 70 + sum(34 * len(lines) + 10 for lines in key_lines) + 10
    img, d = new_canvas(W, top + (private.height if private is not None else 0) + key_h)
    img.paste(board, (0, 0))
    if private is not None:
        d.text((20, board.height + 14), "Your DM (only you see it):", font=font(30, bold=True), fill=GOLD)
        img.paste(private, (0, top))
    for number, (key, _) in enumerate(parts, 1):
        _callout(d, anchors[key], number)
    y = img.height - key_h + 14
    d.text((20, y), "How to read the board", font=font(30, bold=True), fill=GOLD)
    y += 50
    for number, lines in enumerate(key_lines, 1):
        _callout(d, (42, y + 16), number)
        for line in lines:
            d.text((74, y + 2), line, font=kf, fill=INK)
            y += 34
        y += 10
    return img


def _callout(d: ImageDraw.ImageDraw, at: tuple[int, int], number: int) -> None:
    """A numbered gold label."""
    x, y = at
    r = 20
    d.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=DARK, width=3)
    d.text((x, y + 1), str(number), font=font(24, bold=True), fill=DARK, anchor="mm")
