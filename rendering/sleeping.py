"""Sleeping Wizard renderer: draws views only (never the full state)."""
from __future__ import annotations

from PIL import Image, ImageDraw

from bot.games.sleeping.viewtypes import (
    CardView,
    LastRoundView,
    SleepingView,
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
    fit_text,
    font,
    new_canvas,
    seat_colour,
    wrap_text,
)
from rendering.sleeping_cards import (
    CARD_H,
    CARD_W,
    CATEGORY_COLOURS,
    CLASS_COLOURS,
    DARK,
    GAP,
    W,
    _header,
    _mini_backs,
    draw_back,
    draw_card,
)
from rendering.sleeping_scores import render_final, render_round, render_round_summary

__all__ = ["describe", "render_board", "render_final", "render_howto", "render_private", "render_round",
           "render_round_summary"]



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
