"""Pillow renderer for Masterminds: Heist Society (draws views only)."""
from __future__ import annotations

import json
from typing import Any

from PIL import Image, ImageDraw

from bot.games.masterminds.calc import GEM_AVERAGE, gem_points
from bot.games.masterminds.viewtypes import (
    AttemptView,
    FinalView,
    HeistView,
    MastermindsView,
    PickingView,
    PlayerView,
    RecruitView,
    TalentCardView,
)
from rendering.common import (
    BG,
    BLUE,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PANEL,
    PURPLE,
    RED,
    TILES,
    fit_text,
    font,
    new_canvas,
    seat_colour,
    wrap_text,
)

W = 800  # drawn at 800 px so a phone's 400 px shows it at half size
PAD = 16
SKILL_LETTERS = "DSHMC"  # Driving, Stealth, Hacking, Muscle, Charm: named by the legend under the heists
GEM_RGB = {"Red": (231, 76, 60), "Blue": (52, 152, 219), "Green": (46, 204, 113), "Yellow": (241, 196, 15),
           "Purple": (155, 89, 182), "Clear": (225, 238, 248)}
KIND_RGB = {"gear": BLUE, "action": GREEN, "interrupt": PURPLE, "immediate": RED}
DARK = (22, 23, 30)
KIND_USE = {"gear": " · put on one recruit", "action": " · a plan action", "interrupt": " · before a roll"}
PANEL2 = (60, 64, 80)


def _gem(d: ImageDraw.ImageDraw, x: int, y: int, size: int, colour: str) -> None:
    rgb = GEM_RGB.get(colour, INK)
    s = size
    d.polygon([(x + s * 0.5, y), (x + s, y + s * 0.38), (x + s * 0.5, y + s), (x, y + s * 0.38)], fill=rgb, outline=DARK)
    d.line([(x, y + s * 0.38), (x + s, y + s * 0.38)], fill=DARK, width=1)


def _die(d: ImageDraw.ImageDraw, x: int, y: int, size: int, seat: int, value: int) -> None:
    rgb = seat_colour(seat)
    d.rounded_rectangle([x, y, x + size, y + size], radius=size // 6, fill=rgb, outline=INK, width=2)
    ink = DARK if sum(rgb) > 450 else INK
    face = font(int(size * 0.62), bold=True)
    d.text((x + size / 2, y + size / 2), str(value), font=face, fill=ink, anchor="mm")


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int = 20, bold: bool = False,
          fill: tuple[int, int, int] = INK, anchor: str = "la", width: int | None = None, condensed: bool = False) -> None:
    face = font(size, bold=bold, condensed=condensed)
    if width:
        text = fit_text(d, text, face, width)
    d.text(xy, text, font=face, fill=fill, anchor=anchor)


def _heist(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, heist: HeistView | None, names: list[str],
           active: PickingView | AttemptView | None) -> None:
    d.rounded_rectangle([x, y, x + w, y + h], radius=12, fill=PANEL)
    if heist is None:
        _text(d, (x + w / 2, y + h / 2), "No heist", 28, fill=MUTED, anchor="mm")
        return
    _text(d, (x + 12, y + 8), heist["name"], 30, bold=True, width=w - 24, condensed=True)
    _text(d, (x + 12, y + 46), f"TAKE {heist['take']} gems", 24, bold=True, fill=GOLD)
    row_h = (h - 84) / 4
    for i, step in enumerate(heist["steps"]):
        ry = int(y + 80 + i * row_h)
        is_next = i == heist["next"]
        is_active = active is not None and active.get("heist") == heist["slot"] and active.get("step") == i
        fill = (70, 74, 96) if is_next else PANEL2 if step["die"] else PANEL
        d.rounded_rectangle([x + 8, ry, x + w - 8, ry + row_h - 6], radius=8, fill=fill,
                            outline=GOLD if is_active else (INK if is_next else None), width=3)
        cy = ry + (row_h - 6) / 2
        _text(d, (x + 28, cy), step["letter"], 28, bold=True, fill=GOLD if is_next else MUTED, anchor="mm")
        size = int(row_h - 14)
        if len(step["skills"]) > 1:  # "Stealth or" / "Hacking": two lines, never abbreviated
            _text(d, (x + 50, cy + 1), step["skills"][0] + " or", 20, anchor="ld", width=w - 150 - size, condensed=True)
            _text(d, (x + 50, cy + 1), step["skills"][1], 20, anchor="la", width=w - 150 - size, condensed=True)
        else:
            _text(d, (x + 50, cy), step["skills"][0], 26, anchor="lm", width=w - 150 - size, condensed=True)
        _text(d, (x + w - 26 - size, cy), str(step["number"]), 32, bold=True, anchor="rm")
        dx = x + w - 16 - size
        if step["die"]:
            _die(d, dx, int(cy - size / 2), size, step["die"]["seat"], step["die"]["value"])
        else:
            d.rounded_rectangle([dx, cy - size / 2, dx + size, cy + size / 2], radius=6, outline=MUTED, width=2)


def _talent_card(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, talent: TalentCardView | RecruitView,
                 tapped: bool = False, injured: bool = False, small: bool = False,
                 over: tuple[int, int, int] | None = None) -> None:
    """A Talent: name, the five skill values that count (gear and All-Rounder included), ability.
    Over a flat colour ``over`` it is drawn once per Talent and look, and pasted after."""
    if over is None:
        _talent_face(d, x, y, w, h, talent, tapped, injured, small)
        return
    TILES.paste(d, x, y, (w + 1, h + 1), over,
                ("masterminds talent", json.dumps(talent, sort_keys=True), tapped, injured, small),
                lambda d, x, y: _talent_face(d, x, y, w, h, talent, tapped, injured, small))


def _talent_face(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, talent: TalentCardView | RecruitView,
                 tapped: bool, injured: bool, small: bool) -> None:
    fill = (40, 42, 52) if tapped else PANEL2
    d.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=fill, outline=RED if injured else None, width=3)
    _text(d, (x + 8, y + 6), talent["name"], 24, bold=True, fill=MUTED if tapped else INK, width=w - 16, condensed=True)
    values = talent["values"] if "values" in talent else talent["stats"]  # a recruit shows its values with gear
    cell = (w - 12) / 5
    for i, value in enumerate(values):
        cx = x + 6 + cell * i + cell / 2
        _text(d, (cx, y + 37), SKILL_LETTERS[i], 20, fill=MUTED, anchor="ma")
        colour = GOLD if value >= 4 else INK if value >= 2 else MUTED
        _text(d, (cx, y + 58), str(value), 28, bold=True, fill=colour, anchor="ma")
    foot = talent["ability"]
    if small:
        gear = talent["gear"] if "gear" in talent else None
        foot = ("⚙ " + gear["name"]) if gear else talent["ability"]
        if tapped or injured:
            foot = "INJURED" if injured else "TAPPED"
    _text(d, (x + 8, y + 94), foot, 20, bold=True, fill=RED if injured else (BLUE if small and talent.get("gear") and not tapped else GOLD),
          width=w - 16, condensed=True)
    if not small and h > 150:
        for i, line in enumerate(wrap_text(d, talent["ability_text"], font(20, condensed=True), w - 16, 2)):
            _text(d, (x + 8, y + 120 + i * 22), line, 20, fill=MUTED, condensed=True)


def _player_panel(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, player: PlayerView, turn: bool,
                  colours: list[str]) -> None:
    rgb = seat_colour(player["seat"])
    d.rounded_rectangle([x, y, x + w, y + h], radius=12, fill=PANEL, outline=GOLD if turn else None, width=4)
    d.rounded_rectangle([x, y, x + 10, y + h], radius=4, fill=rgb)
    lx = x + 20
    _text(d, (lx, y + 8), ("▶ " if turn else "") + player["name"], 30, bold=True, fill=rgb, width=220)
    # Gems by colour, then what they are worth so far: sure points (Clear) and about the whole (colours at 3.5)
    sure, _, expected = gem_points(player["gems"], "Clear")
    _text(d, (x + w - 14, y + 8), f"≈{expected:g} pts", 30, bold=True, fill=GOLD, anchor="ra")
    gx = x + 250
    for colour in [*colours, "Clear"]:
        count = player["gems"].get(colour, 0)
        if count:
            _gem(d, gx, y + 14, 24, colour)
            _text(d, (gx + 28, y + 10), str(count), 26, bold=True)
            gx += 62
    done = len(player["heists"])
    info = (f"{sure} sure pts · heists {done} · hand {player['hand']} · free dice {player['dice_free']}/5"
            + (f" · Intel +{player['intel']}" if player["intel"] else ""))
    _text(d, (lx, y + 48), info, 22, fill=MUTED, width=w - 40)
    cw = (w - 28 - 3 * 8) // 4
    for i in range(4):
        cx = x + 18 + i * (cw + 8)
        cy = y + 80
        if i < len(player["team"]):
            talent = player["team"][i]
            _talent_card(d, cx, cy, cw, 124, talent, talent["tapped"], talent["injured"], small=True, over=PANEL)
        else:
            d.rounded_rectangle([cx, cy, cx + cw, cy + 124], radius=10, outline=(80, 83, 100), width=2)


def _recent_lines(view: MastermindsView) -> list[str]:
    """What just happened: the last public events, skipping the noise of who has decided."""
    lines = [text for text in view.get("recent") or [] if not text.endswith("has decided.")]
    return lines[-3:]


LEGEND_H = 66  # the legend under the heists: skill letters, gem values


def _legend(d: ImageDraw.ImageDraw, y: int, view: MastermindsView) -> None:
    """What the board's symbols mean: the skill letters on the cards, and what gems are worth."""
    d.rounded_rectangle([PAD, y, W - PAD, y + LEGEND_H - 8], radius=10, fill=DARK)
    _text(d, (PAD + 12, y + 6), "Cards: D Driving · S Stealth · H Hacking · M Muscle · C Charm", 21, fill=INK,
          width=W - 2 * PAD - 24, condensed=True)
    gx = PAD + 12
    _gem(d, gx, y + 35, 20, "Clear")
    _text(d, (gx + 26, y + 33), f"Clear = 2 pts · a colour's gems = its die roll at the end (1-6, ≈{GEM_AVERAGE:g})",
          21, fill=INK, width=W - 2 * PAD - 50, condensed=True)


def _layout(view: MastermindsView) -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    """The public board, and where its parts are (for the labelled how-to-play picture)."""
    players = view["players"]
    heist_h = 300
    pool_h = 172
    pl_h = 214
    img, d = new_canvas(W, 10, BG)  # measured below
    recent = _recent_lines(view)
    wrapped = [ln for text in recent for ln in wrap_text(d, text, font(22, condensed=True), W - 2 * PAD - 20, 2)][-4:]
    info = []
    if window := view.get("window"):
        waiting = [view["names"][seat] for seat in window["seats"] if seat not in window["decided"]]
        info.append(f"INTERRUPT WINDOW ({'heist roll' if window['kind'] == 'step' else 'Failure test'}): waiting for "
                    + ", ".join(waiting))
    active = view.get("attempt")
    if active and active.get("result") is None:
        mods = f" {'+' if active['mods'] >= 0 else '-'} {abs(active['mods'])}" if active["mods"] else ""
        info.append(f"{view['names'][active['seat']]}: {active['skill']} {active['number']} with "
                    f"{' + '.join(active['recruits'])} = {active['base']}{mods}")
    if test := view.get("test"):
        info.append(f"Failure test: {test['recruit']} must beat {test['skill']} {test['number']} ({test['card']})")
    if picking := view.get("picking"):
        info.append(f"Step chosen: {picking['name']} {picking['letter']} ({picking['skill']} {picking['number']})")
    if burned := view.get("burned"):
        info.append(f"Drawn from the Talent deck: {burned['name']}")
    if hiring := view.get("hiring"):
        info.append(f"Hiring {hiring['name']}: who leaves the team?")
    news_h = 16 + 30 * len(wrapped) + 34 * len(info[:2]) + (8 if wrapped or info else 0)
    height = 104 + news_h + heist_h + 8 + LEGEND_H + 36 + pool_h + 16 + len(players) * (pl_h + 10) + PAD
    img, d = new_canvas(W, height, BG)
    marks: dict[str, tuple[int, int]] = {}
    # Header: whose turn and what is being decided, big.
    d.rectangle([0, 0, W, 96], fill=DARK)
    _text(d, (PAD, 8), f"Round {view['round']}/{view['round_limit']} · Heists done {view['completed']}/{view['target']}"
          f" · {view['bag']} gems in the bag", 24, bold=True, fill=MUTED, width=W - 2 * PAD)
    status = view["status"].split(" · ")[-1]
    if view.get("over"):
        status = view["status"]
    _text(d, (PAD, 44), status, 30, bold=True, fill=GOLD, width=W - 2 * PAD, condensed=True)
    marks["header"] = (W - 30, 22)
    y = 104
    # What just happened.
    d.rounded_rectangle([PAD, y, W - PAD, y + news_h - 8], radius=10, fill=DARK)
    marks["news"] = (W - 40, y + news_h // 2)
    ty = y + 8
    for line in info[:2]:
        _text(d, (PAD + 10, ty), line, 24, bold=True, fill=GOLD if line.startswith("INTERRUPT") else INK,
              width=W - 2 * PAD - 20, condensed=True)
        ty += 34
    for line in wrapped:
        _text(d, (PAD + 10, ty), line, 22, fill=INK, condensed=True)
        ty += 30
    y += news_h
    hw = (W - 3 * PAD) // 2
    focus = view.get("picking") or active  # the step being attempted (or just picked) is outlined in gold
    for slot in (0, 1):
        _heist(d, PAD + slot * (hw + PAD), y, hw, heist_h, view["heists"][slot], view["names"], focus)
    marks["heist"] = (PAD + hw - 110, y + 62)
    marks["step"] = (PAD + 200, y + 80 + 27)
    marks["die"] = (PAD + hw - 16 - 40, y + 80 + 4)  # the top-left corner of step A's die box
    y += heist_h + 8
    _legend(d, y, view)
    marks["legend"] = (W - 36, y + 28)
    y += LEGEND_H
    # Talent pool: the cards a player may take.
    _text(d, (PAD, y), "TALENT POOL (hire with PREP)", 24, bold=True, fill=GOLD)
    _text(d, (W - PAD, y + 4), f"decks: talent {view['decks']['talent']} · prep {view['decks']['prep']}", 20,
          fill=MUTED, anchor="ra")
    y += 36
    cw = (W - 2 * PAD - 2 * 10) // 3
    marks["pool"] = (PAD + cw - 22, y + 20)
    for i in range(3):
        cx = PAD + i * (cw + 10)
        if i < len(view["pool"]):
            _talent_card(d, cx, y, cw, pool_h, view["pool"][i], over=BG)
        else:
            d.rounded_rectangle([cx, y, cx + cw, y + pool_h], radius=10, outline=(80, 83, 100), width=2)
    y += pool_h + 16
    marks["player"] = (PAD + 215, y + 26)
    marks["team"] = (PAD + 18 + (W - 2 * PAD - 28 - 3 * 8) // 4 - 20, y + 80 + 20)
    for player in players:
        _player_panel(d, PAD, y, W - 2 * PAD, pl_h, player, player["seat"] == view["turn"] and not view.get("over"), view["colours"])
        y += pl_h + 10
    return img, marks


def render_board(view: MastermindsView) -> Image.Image:
    """The public board, laid out to be read at 400 px wide on a phone (half size)."""
    return _layout(view)[0]


# The labelled how-to-play picture: a numbered gold disc on each part of the board, and the key under it.
HOWTO_KEY = (
    ("header", "The round, heists done of the target (then the game ends) and gems left; whose turn it is."),
    ("news", "What just happened."),
    ("heist", "A heist and its TAKE: the gems whoever completes step D gets."),
    ("step", "A step: its skill and the number your crew's total + one die must BEAT."),
    ("die", "A die on a step: whose colour it is shows who did that step."),
    ("legend", "The skill letters on the cards, and what gems are worth."),
    ("pool", "Recruits anyone may hire: their values in the five skills and their ability."),
    ("player", "A player: gems by colour, about what they are worth (≈), sure points, hand, free dice."),
    ("team", "Their team (at most 4) with gear; dim = tapped, already used this turn."),
)


def render_howto(view: MastermindsView) -> Image.Image:
    """The board with its parts numbered, and what each number is, to be read at 400 px wide."""
    board, marks = _layout(view)
    key_font = font(26, condensed=True)
    probe = ImageDraw.Draw(board)
    rows = [wrap_text(probe, text, key_font, W - 2 * PAD - 70, 2) for _, text in HOWTO_KEY]
    key_h = 70 + sum(12 + 32 * len(lines) for lines in rows)
    img, d = new_canvas(W, board.height + key_h, BG)
    img.paste(board, (0, 0))
    for number, (mark, _) in enumerate(HOWTO_KEY, 1):
        mx, my = marks[mark]
        d.ellipse([mx - 18, my - 18, mx + 18, my + 18], fill=GOLD, outline=DARK, width=3)
        _text(d, (mx, my), str(number), 24, bold=True, fill=DARK, anchor="mm")
    y = board.height + 10
    _text(d, (PAD, y), "HOW TO READ THE BOARD", 30, bold=True, fill=GOLD)
    y += 50
    for number, lines in enumerate(rows, 1):
        d.ellipse([PAD, y, PAD + 36, y + 36], fill=GOLD)
        _text(d, (PAD + 18, y + 18), str(number), 22, bold=True, fill=DARK, anchor="mm")
        for line in lines:
            _text(d, (PAD + 50, y + 2), line, 26, fill=INK, condensed=True)
            y += 32
        y += 12
    return img


def describe(view: MastermindsView) -> str:
    """Plain-words alt text for the public board (at most 1,000 characters); public view only."""
    parts = [f"Masterminds, round {view['round']} of {view['round_limit']}; {view['completed']} of "
             f"{view['target']} heists completed; {view['bag']} gems left in the bag."]
    parts.append(view["status"].split(" · ")[-1].rstrip(".") + ".")
    recent = _recent_lines(view)
    if recent:
        parts.append("Just happened: " + " ".join(recent))
    for heist in view["heists"]:
        if heist and heist["next"] < 4:
            step = heist["steps"][heist["next"]]
            dice = [f"{placed['letter']} {view['names'][placed['die']['seat']]}" for placed in heist["steps"] if placed["die"]]
            parts.append(f"{heist['name']} (take {heist['take']}): next step {step['letter']}, "
                         f"{' or '.join(step['skills'])} {step['number']}" + (f"; dice on {', '.join(dice)}." if dice else "."))
    parts.append("Talent pool: " + ", ".join(talent["name"] for talent in view["pool"]) + ".")
    parts.append("Players: " + "; ".join(
        f"{player['name']} {player['gem_count']} gem{'' if player['gem_count'] == 1 else 's'}"
        + ("" if view.get("over") else f" (about {gem_points(player['gems'], 'Clear')[2]:g} points)")
        + f", {len(player['heists'])} heist"
        f"{'' if len(player['heists']) == 1 else 's'}, team of {len(player['team'])}" for player in view["players"]) + ".")
    text = " ".join(parts)
    if len(text) > 1000:
        text = text[:997].rsplit(" ", 1)[0] + "…"
    return text


def render_private(view: MastermindsView) -> Image.Image | None:
    """Your hand and your team (the facts you decide on), readable at 400 px wide."""
    priv = view.get("private")
    if not priv:
        return None
    hand = priv["hand"]
    cols = 2
    cw = (W - 2 * PAD - (cols - 1) * 12) // cols
    ch = 176
    rows = max(1, (len(hand) + cols - 1) // cols)
    seat = priv["seat"]
    mine = view["players"][seat]
    team_h = 150 if mine["team"] else 0
    height = 92 + rows * (ch + 12) + (44 + team_h if team_h else 0) + PAD
    img, d = new_canvas(W, height, BG)
    _text(d, (PAD, 10), f"{mine['name']}: your hand ({len(hand)}/6)", 30, bold=True, fill=seat_colour(seat), width=W - 2 * PAD)
    sure, _, expected = gem_points(mine["gems"], "Clear")
    sub = f"gems ≈{expected:g} pts ({sure} sure) · free dice {mine['dice_free']}/5 · Intel +{mine['intel']}"
    if priv.get("committed"):
        sub += f" · committed: {priv['committed']}"
    _text(d, (PAD, 52), sub, 24, fill=MUTED, width=W - 2 * PAD)
    if not hand:
        _text(d, (PAD, 100), "No Prep cards in hand.", 26, fill=MUTED)
    for i, card in enumerate(hand):
        x = PAD + (i % cols) * (cw + 12)
        y = 92 + (i // cols) * (ch + 12)
        kind_rgb = KIND_RGB.get(card["kind"], INK)
        d.rounded_rectangle([x, y, x + cw, y + ch], radius=10, fill=PANEL2)
        d.rounded_rectangle([x, y, x + cw, y + 8], radius=4, fill=kind_rgb)
        _text(d, (x + 10, y + 14), card["name"], 28, bold=True, width=cw - 20, condensed=True)
        _text(d, (x + 10, y + 48), card["kind"].upper() + KIND_USE.get(card["kind"], ""), 20, bold=True, fill=kind_rgb,
              width=cw - 20)
        body = card["text"] + (f"  SPEND A GEM: {card['gem_text']}" if card.get("gem_text") else "")
        for j, line in enumerate(wrap_text(d, body, font(22, condensed=True), cw - 20, 4)):
            _text(d, (x + 10, y + 74 + j * 25), line, 22, condensed=True)
    if team_h:
        y = 92 + rows * (ch + 12) + 4
        _text(d, (PAD, y), "YOUR TEAM (values with gear)", 24, bold=True, fill=GOLD)
        tw = (W - 2 * PAD - 3 * 8) // 4
        for i, talent in enumerate(mine["team"]):
            _talent_card(d, PAD + i * (tw + 8), y + 38, tw, 124, talent, talent["tapped"], talent["injured"], small=True)
    return img


def render_final(view: MastermindsView, scores: list[dict[str, Any]]) -> Image.Image:
    """The final board: the rolled gem values and every player's score, winner first."""
    final: FinalView | dict[str, Any] = view.get("final") or {}
    values = final.get("values", {})
    rows = sorted(scores, key=lambda row: (row["rank"], row["seat"]))
    top = 28  # the reason and how gems score take two lines
    height = 150 + top + len(rows) * 78 + PAD
    img, d = new_canvas(W, height, BG)
    _text(d, (W / 2, 14), "THE HEIST IS OVER", 32, bold=True, fill=GOLD, anchor="ma")
    reason = {"heists": "the last heist was completed", "bag": "the gem bag is empty",
              "rounds": "the round limit was reached"}.get(final.get("reason") or "", "")
    if reason:
        _text(d, (W / 2, 54), f"The game ended because {reason}.", 20, fill=MUTED, anchor="ma", width=W - 2 * PAD)
    _text(d, (W / 2, 54 + top), "A die was rolled for each colour: its gems are worth the roll. Clear gems: 2.",
          20, fill=MUTED, anchor="ma", width=W - 2 * PAD)
    x = PAD + 10
    _text(d, (x, 90 + top), "Gem values:", 20, bold=True)
    x += 150
    step = (W - PAD - x) // (len(view["colours"]) + 1)
    for colour in [*view["colours"], "Clear"]:
        _gem(d, x, 92 + top, 22, colour)
        _text(d, (x + 28, 90 + top), f"= {values.get(colour, '?')}", 20, bold=True)
        x += step
    y = 134 + top
    for row in rows:
        player = view["players"][row["seat"]]
        d.rounded_rectangle([PAD, y, W - PAD, y + 68], radius=12, fill=PANEL, outline=GOLD if row["won"] else None, width=3)
        _text(d, (PAD + 20, y + 34), f"#{row['rank']}", 28, bold=True, fill=GOLD if row["won"] else MUTED, anchor="lm")
        _text(d, (PAD + 90, y + 8), player["name"] + ("  — WINNER" if row["won"] else ""), 24, bold=True,
              fill=seat_colour(row["seat"]), width=560)
        gx = PAD + 90
        for colour in [*view["colours"], "Clear"]:
            count = player["gems"].get(colour, 0)
            if count:
                _gem(d, gx, y + 41, 18, colour)
                _text(d, (gx + 22, y + 39), f"{count}×{values.get(colour, '?')}", 18)
                gx += 92
        _text(d, (W - PAD - 20, y + 34), f"{row['score']} pts", 30, bold=True, anchor="rm")
        _text(d, (W - PAD - 180, y + 34), f"heists {len(player['heists'])}", 18, fill=MUTED, anchor="rm")
        y += 78
    return img
