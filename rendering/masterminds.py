"""Pillow renderer for Masterminds: Heist Society (draws views only)."""
from __future__ import annotations

import json
from typing import Any

from PIL import Image, ImageDraw

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
SKILL_ABBR = ["Drv", "Stl", "Hck", "Mus", "Chm"]
SKILLS = ["Driving", "Stealth", "Hacking", "Muscle", "Charm"]
GEM_RGB = {"Red": (231, 76, 60), "Blue": (52, 152, 219), "Green": (46, 204, 113), "Yellow": (241, 196, 15),
           "Purple": (155, 89, 182), "Clear": (225, 238, 248)}
KIND_RGB = {"gear": BLUE, "action": GREEN, "interrupt": PURPLE, "immediate": RED}
DARK = (22, 23, 30)
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
    f = font(int(size * 0.62), bold=True)
    d.text((x + size / 2, y + size / 2), str(value), font=f, fill=ink, anchor="mm")


def _text(d, xy, text, size=20, bold=False, fill=INK, anchor="la", width=None, condensed=False):
    f = font(size, bold=bold, condensed=condensed)
    if width:
        text = fit_text(d, text, f, width)
    d.text(xy, text, font=f, fill=fill, anchor=anchor)


def _heist(d, x: int, y: int, w: int, h: int, hv: dict[str, Any] | None, names: list[str], active: dict | None) -> None:
    d.rounded_rectangle([x, y, x + w, y + h], radius=12, fill=PANEL)
    if hv is None:
        _text(d, (x + w / 2, y + h / 2), "No heist", 28, fill=MUTED, anchor="mm")
        return
    _text(d, (x + 12, y + 8), hv["name"], 30, bold=True, width=w - 24, condensed=True)
    _text(d, (x + 12, y + 46), f"TAKE {hv['take']} gems", 24, bold=True, fill=GOLD)
    row_h = (h - 84) / 4
    for i, st in enumerate(hv["steps"]):
        ry = int(y + 80 + i * row_h)
        is_next = i == hv["next"]
        is_active = active is not None and active.get("heist") == hv["slot"] and active.get("step") == i
        fill = (70, 74, 96) if is_next else PANEL2 if st["die"] else PANEL
        d.rounded_rectangle([x + 8, ry, x + w - 8, ry + row_h - 6], radius=8, fill=fill,
                            outline=GOLD if is_active else (INK if is_next else None), width=3)
        cy = ry + (row_h - 6) / 2
        _text(d, (x + 28, cy), st["letter"], 28, bold=True, fill=GOLD if is_next else MUTED, anchor="mm")
        skills = "/".join(SKILL_ABBR[SKILLS.index(k)] for k in st["skills"]) if len(st["skills"]) > 1 else st["skills"][0]
        size = int(row_h - 14)
        _text(d, (x + 50, cy), skills, 26, anchor="lm", width=w - 150 - size, condensed=True)
        _text(d, (x + w - 26 - size, cy), str(st["number"]), 32, bold=True, anchor="rm")
        dx = x + w - 16 - size
        if st["die"]:
            _die(d, dx, int(cy - size / 2), size, st["die"]["seat"], st["die"]["value"])
        else:
            d.rounded_rectangle([dx, cy - size / 2, dx + size, cy + size / 2], radius=6, outline=MUTED, width=2)


def _values_line(values: list[int]) -> str:
    return " ".join(f"{SKILL_ABBR[i][0]}{v}" for i, v in enumerate(values))


def _talent_card(d, x: int, y: int, w: int, h: int, t: dict[str, Any], tapped: bool = False,
                 injured: bool = False, small: bool = False, over: tuple[int, int, int] | None = None) -> None:
    """A Talent: name, the five skill values that count (gear and All-Rounder included), ability.
    Over a flat colour ``over`` it is drawn once per Talent and look, and pasted after."""
    if over is None:
        _talent_face(d, x, y, w, h, t, tapped, injured, small)
        return
    TILES.paste(d, x, y, (w + 1, h + 1), over, ("masterminds talent", json.dumps(t, sort_keys=True), tapped, injured,
                                                small), lambda d, x, y: _talent_face(d, x, y, w, h, t, tapped, injured,
                                                                                      small))


def _talent_face(d, x: int, y: int, w: int, h: int, t: dict[str, Any], tapped: bool, injured: bool,
                 small: bool) -> None:
    fill = (40, 42, 52) if tapped else PANEL2
    d.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=fill, outline=RED if injured else None, width=3)
    _text(d, (x + 8, y + 6), t["name"], 24, bold=True, fill=MUTED if tapped else INK, width=w - 16, condensed=True)
    values = t.get("values") or t["stats"]
    cell = (w - 12) / 5
    for i, v in enumerate(values):
        cx = x + 6 + cell * i + cell / 2
        _text(d, (cx, y + 38), SKILL_ABBR[i][0], 18, fill=MUTED, anchor="ma")
        colour = GOLD if v >= 4 else INK if v >= 2 else MUTED
        _text(d, (cx, y + 58), str(v), 28, bold=True, fill=colour, anchor="ma")
    foot = t["ability"]
    if small:
        gear = t.get("gear")
        foot = ("⚙ " + gear["name"]) if gear else t["ability"]
        if tapped or injured:
            foot = "INJURED" if injured else "TAPPED"
    _text(d, (x + 8, y + 94), foot, 20, bold=True, fill=RED if injured else (BLUE if small and t.get("gear") and not tapped else GOLD),
          width=w - 16, condensed=True)
    if not small and h > 150:
        for i, line in enumerate(wrap_text(d, t["ability_text"], font(20, condensed=True), w - 16, 2)):
            _text(d, (x + 8, y + 120 + i * 22), line, 20, fill=MUTED, condensed=True)


def _player_panel(d, x: int, y: int, w: int, h: int, p: dict[str, Any], turn: bool, colours: list[str]) -> None:
    rgb = seat_colour(p["seat"])
    d.rounded_rectangle([x, y, x + w, y + h], radius=12, fill=PANEL, outline=GOLD if turn else None, width=4)
    d.rounded_rectangle([x, y, x + 10, y + h], radius=4, fill=rgb)
    lx = x + 20
    _text(d, (lx, y + 8), ("▶ " if turn else "") + p["name"], 30, bold=True, fill=rgb, width=300)
    # Gems by colour (the score so far), then the public counts
    gx = x + 330
    _text(d, (gx, y + 10), f"{p['gem_count']} gem{'' if p['gem_count'] == 1 else 's'}", 26, bold=True)
    gx += 130
    for c in [*colours, "Clear"]:
        n = p["gems"].get(c, 0)
        if n:
            _gem(d, gx, y + 14, 22, c)
            _text(d, (gx + 25, y + 10), str(n), 26, bold=True)
            gx += 56
    done = len(p["heists"])
    info = f"heists {done} · hand {p['hand']} · dice {p['dice_free']}/5" + (f" · Intel +{p['intel']}" if p["intel"] else "")
    _text(d, (lx, y + 48), info, 22, fill=MUTED, width=w - 40)
    cw = (w - 28 - 3 * 8) // 4
    for i in range(4):
        cx = x + 18 + i * (cw + 8)
        cy = y + 80
        if i < len(p["team"]):
            t = p["team"][i]
            _talent_card(d, cx, cy, cw, 124, t, t["tapped"], t["injured"], small=True, over=PANEL)
        else:
            d.rounded_rectangle([cx, cy, cx + cw, cy + 124], radius=10, outline=(80, 83, 100), width=2)


def _recent_lines(view: dict[str, Any]) -> list[str]:
    """What just happened: the last public events, skipping the noise of who has decided."""
    lines = [t for t in view.get("recent") or [] if not t.endswith("has decided.")]
    return lines[-3:]


def render_board(view: dict[str, Any]) -> Image.Image:
    """The public board, laid out to be read at 400 px wide on a phone (half size)."""
    players = view["players"]
    heist_h = 300
    pool_h = 130
    pl_h = 214
    img, d = new_canvas(W, 10, BG)  # measured below
    recent = _recent_lines(view)
    wrapped = [ln for t in recent for ln in wrap_text(d, t, font(22, condensed=True), W - 2 * PAD - 20, 2)][-4:]
    info = []
    if view.get("window"):
        w = view["window"]
        waiting = [view["names"][s] for s in w["seats"] if s not in w["decided"]]
        info.append(f"INTERRUPT WINDOW ({'heist roll' if w['kind'] == 'step' else 'Failure test'}): waiting for "
                    + ", ".join(waiting))
    active = view.get("attempt")
    if active and active.get("result") is None:
        mods = f" {'+' if active['mods'] >= 0 else '-'} {abs(active['mods'])}" if active["mods"] else ""
        info.append(f"{view['names'][active['seat']]}: {active['skill']} {active['number']} with "
                    f"{' + '.join(active['recruits'])} = {active['base']}{mods}")
    if view.get("test"):
        te = view["test"]
        info.append(f"Failure test: {te['recruit']} must beat {te['skill']} {te['number']} ({te['card']})")
    if view.get("picking"):
        pk = view["picking"]
        info.append(f"Step chosen: {pk['name']} {pk['letter']} ({pk['skill']} {pk['number']})")
    if view.get("burned"):
        info.append(f"Drawn from the Talent deck: {view['burned']['name']}")
    news_h = 16 + 30 * len(wrapped) + 34 * len(info[:2]) + (8 if wrapped or info else 0)
    height = 104 + news_h + heist_h + 16 + 36 + pool_h + 16 + len(players) * (pl_h + 10) + PAD
    img, d = new_canvas(W, height, BG)
    # Header: whose turn and what is being decided, big.
    d.rectangle([0, 0, W, 96], fill=DARK)
    _text(d, (PAD, 8), f"Round {view['round']}/{view['round_limit']} · Heists {view['completed']}/{view['target']} · "
          f"Bag {view['bag']}", 24, bold=True, fill=MUTED, width=W - 2 * PAD)
    status = view["status"].split(" · ")[-1]
    if view.get("over"):
        status = view["status"]
    _text(d, (PAD, 44), status, 30, bold=True, fill=GOLD, width=W - 2 * PAD, condensed=True)
    y = 104
    # What just happened.
    d.rounded_rectangle([PAD, y, W - PAD, y + news_h - 8], radius=10, fill=DARK)
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
    y += heist_h + 16
    # Talent pool: the cards a player may take.
    _text(d, (PAD, y), "TALENT POOL", 26, bold=True, fill=GOLD)
    _text(d, (W - PAD, y + 4), f"decks: talent {view['decks']['talent']} · prep {view['decks']['prep']}", 20,
          fill=MUTED, anchor="ra")
    y += 36
    cw = (W - 2 * PAD - 2 * 10) // 3
    for i in range(3):
        cx = PAD + i * (cw + 10)
        if i < len(view["pool"]):
            _talent_card(d, cx, y, cw, pool_h, view["pool"][i], over=BG)
        else:
            d.rounded_rectangle([cx, y, cx + cw, y + pool_h], radius=10, outline=(80, 83, 100), width=2)
    y += pool_h + 16
    for p in players:
        _player_panel(d, PAD, y, W - 2 * PAD, pl_h, p, p["seat"] == view["turn"] and not view.get("over"), view["colours"])
        y += pl_h + 10
    return img


def describe(view: dict[str, Any]) -> str:
    """Plain-words alt text for the public board (at most 1,000 characters); public view only."""
    parts = [f"Masterminds, round {view['round']} of {view['round_limit']}; {view['completed']} of "
             f"{view['target']} heists completed; {view['bag']} gems left in the bag."]
    parts.append(view["status"].split(" · ")[-1].rstrip(".") + ".")
    recent = _recent_lines(view)
    if recent:
        parts.append("Just happened: " + " ".join(recent))
    for hv in view["heists"]:
        if hv and hv["next"] < 4:
            st = hv["steps"][hv["next"]]
            dice = [f"{s['letter']} {view['names'][s['die']['seat']]}" for s in hv["steps"] if s["die"]]
            parts.append(f"{hv['name']} (take {hv['take']}): next step {st['letter']}, "
                         f"{' or '.join(st['skills'])} {st['number']}" + (f"; dice on {', '.join(dice)}." if dice else "."))
    parts.append("Talent pool: " + ", ".join(t["name"] for t in view["pool"]) + ".")
    parts.append("Players: " + "; ".join(
        f"{p['name']} {p['gem_count']} gem{'' if p['gem_count'] == 1 else 's'}, {len(p['heists'])} heist"
        f"{'' if len(p['heists']) == 1 else 's'}, team of {len(p['team'])}" for p in view["players"]) + ".")
    text = " ".join(parts)
    if len(text) > 1000:
        text = text[:997].rsplit(" ", 1)[0] + "…"
    return text


def render_private(view: dict[str, Any]) -> Image.Image | None:
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
    me = view["players"][seat]
    team_h = 150 if me["team"] else 0
    height = 92 + rows * (ch + 12) + (44 + team_h if team_h else 0) + PAD
    img, d = new_canvas(W, height, BG)
    _text(d, (PAD, 10), f"{me['name']}: your hand ({len(hand)}/6)", 30, bold=True, fill=seat_colour(seat), width=W - 2 * PAD)
    sub = f"free dice {me['dice_free']}/5 · Intel +{me['intel']}"
    if priv.get("committed"):
        sub += f" · committed: {priv['committed']}"
    _text(d, (PAD, 52), sub, 24, fill=MUTED, width=W - 2 * PAD)
    if not hand:
        _text(d, (PAD, 100), "No Prep cards in hand.", 26, fill=MUTED)
    for i, c in enumerate(hand):
        x = PAD + (i % cols) * (cw + 12)
        y = 92 + (i // cols) * (ch + 12)
        kc = KIND_RGB.get(c["kind"], INK)
        d.rounded_rectangle([x, y, x + cw, y + ch], radius=10, fill=PANEL2)
        d.rounded_rectangle([x, y, x + cw, y + 8], radius=4, fill=kc)
        _text(d, (x + 10, y + 14), c["name"], 28, bold=True, width=cw - 20, condensed=True)
        _text(d, (x + 10, y + 48), c["kind"].upper(), 20, bold=True, fill=kc)
        body = c["text"] + (f"  GEM: {c['gem_text']}" if c.get("gem_text") else "")
        for j, line in enumerate(wrap_text(d, body, font(22, condensed=True), cw - 20, 4)):
            _text(d, (x + 10, y + 74 + j * 25), line, 22, condensed=True)
    if team_h:
        y = 92 + rows * (ch + 12) + 4
        _text(d, (PAD, y), "YOUR TEAM (values with gear)", 24, bold=True, fill=GOLD)
        tw = (W - 2 * PAD - 3 * 8) // 4
        for i, t in enumerate(me["team"]):
            _talent_card(d, PAD + i * (tw + 8), y + 38, tw, 124, t, t["tapped"], t["injured"], small=True)
    return img


def render_final(view: dict[str, Any], scores: list[dict[str, Any]]) -> Image.Image:
    """The final scoreboard: why the game ended, what each gem colour was worth, each player's rank and score."""
    final = view.get("final") or {}
    values = final.get("values", {})
    rows = sorted(scores, key=lambda r: (r["rank"], r["seat"]))
    height = 150 + len(rows) * 78 + PAD
    img, d = new_canvas(W, height, BG)
    _text(d, (W / 2, 14), "THE HEIST IS OVER", 32, bold=True, fill=GOLD, anchor="ma")
    reason = {"heists": "the last heist was completed", "bag": "the gem bag is empty",
              "rounds": "the round limit was reached"}.get(final.get("reason"), "")
    _text(d, (W / 2, 54), f"Game ended because {reason}." if reason else "", 19, fill=MUTED, anchor="ma")
    x = PAD + 10
    _text(d, (x, 90), "Gem values:", 20, bold=True)
    x += 150
    step = (W - PAD - x) // (len(view["colours"]) + 1)
    for c in [*view["colours"], "Clear"]:
        _gem(d, x, 92, 22, c)
        _text(d, (x + 28, 90), f"= {values.get(c, '?')}", 20, bold=True)
        x += step
    y = 134
    for r in rows:
        p = view["players"][r["seat"]]
        d.rounded_rectangle([PAD, y, W - PAD, y + 68], radius=12, fill=PANEL, outline=GOLD if r["won"] else None, width=3)
        _text(d, (PAD + 20, y + 34), f"#{r['rank']}", 28, bold=True, fill=GOLD if r["won"] else MUTED, anchor="lm")
        _text(d, (PAD + 90, y + 8), p["name"] + ("  — WINNER" if r["won"] else ""), 24, bold=True,
              fill=seat_colour(r["seat"]), width=560)
        gx = PAD + 90
        for c in [*view["colours"], "Clear"]:
            n = p["gems"].get(c, 0)
            if n:
                _gem(d, gx, y + 41, 18, c)
                _text(d, (gx + 22, y + 39), f"{n}×{values.get(c, '?')}", 18)
                gx += 92
        _text(d, (W - PAD - 20, y + 34), f"{r['score']} pts", 30, bold=True, anchor="rm")
        _text(d, (W - PAD - 180, y + 34), f"heists {len(p['heists'])}", 18, fill=MUTED, anchor="rm")
        y += 78
    return img
