"""Pillow renderer for Masterminds: Heist Society (draws views only)."""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (BG, BLUE, GOLD, GREEN, INK, MUTED, PANEL, PURPLE, RED, fit_text, font, new_canvas,
                              seat_colour, wrap_text)

W = 1200
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


def _stats(d, x: int, y: int, stats: list[int], width: int, size: int = 18, highlight: list[int] | None = None) -> None:
    cell = width / 5
    for i, v in enumerate(stats):
        cx = x + cell * i
        _text(d, (cx + cell / 2, y), SKILL_ABBR[i], size - 4, fill=MUTED, anchor="ma", condensed=True)
        colour = GOLD if v >= 4 else INK if v >= 2 else MUTED
        _text(d, (cx + cell / 2, y + size - 2), str(v), size + 2, bold=True, fill=colour, anchor="ma")


def _heist(d, x: int, y: int, w: int, h: int, hv: dict[str, Any] | None, names: list[str], active: dict | None) -> None:
    d.rounded_rectangle([x, y, x + w, y + h], radius=12, fill=PANEL)
    if hv is None:
        _text(d, (x + w / 2, y + h / 2), "No heist", 24, fill=MUTED, anchor="mm")
        return
    _text(d, (x + 14, y + 10), hv["name"], 26, bold=True, width=w - 150)
    # Take badge
    bx = x + w - 124
    d.rounded_rectangle([bx, y + 10, bx + 110, y + 44], radius=8, fill=DARK)
    _text(d, (bx + 8, y + 14), f"TAKE {hv['take']}", 20, bold=True, fill=GOLD)
    _gem(d, bx + 88, y + 17, 16, "Clear")
    row_h = (h - 60) / 4
    for i, st in enumerate(hv["steps"]):
        ry = int(y + 54 + i * row_h)
        is_next = i == hv["next"]
        is_active = active is not None and active.get("heist") == hv["slot"] and active.get("step") == i
        fill = (70, 74, 96) if is_next else PANEL2 if st["die"] else PANEL
        d.rounded_rectangle([x + 10, ry, x + w - 10, ry + row_h - 6], radius=8, fill=fill,
                            outline=GOLD if is_active else (INK if is_next else None), width=2)
        cy = ry + (row_h - 6) / 2
        _text(d, (x + 34, cy), st["letter"], 24, bold=True, fill=GOLD if is_next else MUTED, anchor="mm")
        _text(d, (x + 58, cy), " or ".join(st["skills"]), 21, anchor="lm", width=w - 220)
        _text(d, (x + w - 90, cy), str(st["number"]), 28, bold=True, anchor="rm")
        size = int(row_h - 14)
        dx = x + w - 20 - size
        if st["die"]:
            _die(d, dx, int(cy - size / 2), size, st["die"]["seat"], st["die"]["value"])
        else:
            d.rounded_rectangle([dx, cy - size / 2, dx + size, cy + size / 2], radius=6, outline=MUTED, width=2)


def _talent_card(d, x: int, y: int, w: int, h: int, t: dict[str, Any], tapped: bool = False,
                 injured: bool = False, small: bool = False) -> None:
    fill = (40, 42, 52) if tapped else PANEL2
    d.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=fill, outline=RED if injured else None, width=2)
    size = 19 if small else 22
    _text(d, (x + 10, y + 8), t["name"], size, bold=True, fill=MUTED if tapped else INK, width=w - 20)
    _stats(d, x + 6, y + 8 + size + 6, t["stats"], w - 12, 17 if small else 19)
    ay = y + 8 + size + 6 + 44
    _text(d, (x + 10, ay), t["ability"], 17, bold=True, fill=GOLD, width=w - 20 - (95 if tapped or injured else 0),
          condensed=True)
    if not small:
        lines = wrap_text(d, t["ability_text"], font(17, condensed=True), w - 20, 2)
        for i, line in enumerate(lines):
            _text(d, (x + 10, ay + 22 + i * 20), line, 17, fill=MUTED, condensed=True)
    else:
        gear = t.get("gear")
        if gear:
            _text(d, (x + 10, ay + 22), f"⚙ {gear['name']}", 17, fill=BLUE, width=w - 20, condensed=True)
        else:
            _text(d, (x + 10, ay + 22), "no gear", 17, fill=(110, 112, 125), condensed=True)
    if tapped or injured:
        label = "INJURED" if injured else "TAPPED"
        f = font(17, bold=True)
        tw = d.textlength(label, font=f)
        ly = ay - 3
        d.rounded_rectangle([x + w - tw - 22, ly, x + w - 6, ly + 24], radius=6, fill=RED if injured else (90, 90, 100))
        d.text((x + w - tw - 14, ly + 2), label, font=f, fill=INK)


def _player_panel(d, x: int, y: int, w: int, h: int, p: dict[str, Any], turn: bool, colours: list[str]) -> None:
    rgb = seat_colour(p["seat"])
    d.rounded_rectangle([x, y, x + w, y + h], radius=12, fill=PANEL, outline=GOLD if turn else None, width=3)
    d.rounded_rectangle([x, y, x + 10, y + h], radius=4, fill=rgb)
    lx = x + 22
    _text(d, (lx, y + 10), ("▶ " if turn else "") + p["name"], 24, bold=True, fill=rgb, width=250)
    _text(d, (lx, y + 40), f"{p['colour']} mastermind", 17, fill=MUTED)
    # Gems by colour
    gx, gy = lx, y + 66
    for c in [*colours, "Clear"]:
        n = p["gems"].get(c, 0)
        _gem(d, gx, gy, 18, c)
        _text(d, (gx + 21, gy - 2), str(n), 19, bold=True, fill=INK if n else (110, 112, 125))
        gx += 43 if n < 10 else 53
    info = f"Hand {p['hand']} · Dice {p['dice_free']}/5"
    if p["intel"]:
        info += f" · Intel +{p['intel']}"
    _text(d, (lx, y + h - 52), info, 18, fill=INK, width=255)
    done = len(p["heists"])
    _text(d, (lx, y + h - 28), f"Heists: {done}" + (f" ({', '.join(p['heists'])})" if done else ""), 17,
          fill=GOLD if done else MUTED, width=255, condensed=True)
    # Team
    tx = x + 295
    cw = (w - 295 - 10 - 3 * 8) // 4
    for i in range(4):
        cx = tx + i * (cw + 8)
        if i < len(p["team"]):
            t = p["team"][i]
            _talent_card(d, cx, y + 8, cw, h - 16, t, t["tapped"], t["injured"], small=True)
        else:
            d.rounded_rectangle([cx, y + 8, cx + cw, y + h - 8], radius=10, outline=(80, 83, 100), width=2)
            _text(d, (cx + cw / 2, y + h / 2), "empty slot", 17, fill=(100, 102, 116), anchor="mm")


def render_board(view: dict[str, Any]) -> Image.Image:
    players = view["players"]
    heist_h = 290
    pool_h = 160
    pl_h = 150
    info_h = 70
    height = 74 + heist_h + info_h + 34 + pool_h + 20 + len(players) * (pl_h + 10) + PAD
    img, d = new_canvas(W, height, BG)
    # Header
    d.rectangle([0, 0, W, 62], fill=DARK)
    _text(d, (PAD, 8), "MASTERMINDS: HEIST SOCIETY", 24, bold=True, fill=GOLD)
    right = f"Round {view['round']}/{view['round_limit']}   Heists {view['completed']}/{view['target']}   Bag {view['bag']}"
    _text(d, (W - PAD, 10), right, 20, bold=True, anchor="ra")
    _text(d, (PAD, 36), view["status"].split(" · ")[-1], 19, fill=INK, width=W - 2 * PAD)
    y = 74
    hw = (W - 3 * PAD) // 2
    active = view.get("attempt")
    for slot in (0, 1):
        _heist(d, PAD + slot * (hw + PAD), y, hw, heist_h, view["heists"][slot], view["names"], active)
    y += heist_h + 8
    # Attempt / roll / window info
    d.rounded_rectangle([PAD, y, W - PAD, y + info_h], radius=10, fill=DARK)
    lines = []
    if view.get("window"):
        w = view["window"]
        waiting = [view["names"][s] for s in w["seats"] if s not in w["decided"]]
        lines.append(f"INTERRUPT WINDOW ({'heist roll' if w['kind'] == 'step' else 'failure test'}): waiting for {', '.join(waiting)}")
    if active and active.get("result") is None:
        mods = f" {'+' if active['mods'] >= 0 else '-'} {abs(active['mods'])}" if active["mods"] else ""
        lines.append(f"{view['names'][active['seat']]}: {active['skill']} {active['number']} with "
                     f"{' + '.join(active['recruits'])} = {active['base']}{mods}")
    if view.get("test"):
        te = view["test"]
        lines.append(f"Failure test: {te['recruit']} must beat {te['skill']} {te['number']} ({te['card']})")
    if view.get("burned"):
        lines.append(f"Drawn from the Talent deck: {view['burned']['name']}")
    if view.get("last_roll"):
        lines.append("Last: " + view["last_roll"])
    if not lines:
        lines.append("No roll yet.")
    for i, line in enumerate(lines[:2]):
        _text(d, (PAD + 12, y + 8 + i * 28), line, 19, fill=GOLD if i == 0 and view.get("window") else INK, width=W - 2 * PAD - 24)
    y += info_h + 8
    # Talent pool
    dk = view["decks"]
    _text(d, (PAD, y), "TALENT POOL", 20, bold=True, fill=GOLD)
    _text(d, (W - PAD, y + 2), f"Talent deck {dk['talent']} · Prep deck {dk['prep']} (discard {dk['prep_discard']}) · "
          f"Heist deck {dk['heist']} · Failure deck {dk['failure']}", 17, fill=MUTED, anchor="ra")
    y += 28
    cw = (W - 2 * PAD - 2 * 12) // 3
    for i in range(3):
        cx = PAD + i * (cw + 12)
        if i < len(view["pool"]):
            _talent_card(d, cx, y, cw, pool_h, view["pool"][i])
        else:
            d.rounded_rectangle([cx, y, cx + cw, y + pool_h], radius=10, outline=(80, 83, 100), width=2)
    y += pool_h + 20
    for p in players:
        _player_panel(d, PAD, y, W - 2 * PAD, pl_h, p, p["seat"] == view["turn"] and not view.get("over"), view["colours"])
        y += pl_h + 10
    return img


def render_private(view: dict[str, Any]) -> Image.Image | None:
    priv = view.get("private")
    if not priv:
        return None
    hand = priv["hand"]
    cols = 3
    cw = (W - 2 * PAD - (cols - 1) * 12) // cols
    ch = 150
    rows = max(1, (len(hand) + cols - 1) // cols)
    height = 70 + rows * (ch + 12) + PAD
    img, d = new_canvas(W, height, BG)
    seat = priv["seat"]
    me = view["players"][seat]
    _text(d, (PAD, 12), f"{me['name']} — your hand ({len(hand)}/6)", 24, bold=True, fill=seat_colour(seat))
    sub = f"{me['colour']} mastermind · free dice {me['dice_free']}/5 · Intel +{me['intel']}"
    if priv.get("committed"):
        sub += f" · committed: {priv['committed']}"
    _text(d, (PAD, 44), sub, 18, fill=MUTED, width=W - 2 * PAD)
    if not hand:
        _text(d, (PAD, 84), "No Prep cards in hand.", 20, fill=MUTED)
    for i, c in enumerate(hand):
        x = PAD + (i % cols) * (cw + 12)
        y = 70 + (i // cols) * (ch + 12)
        kc = KIND_RGB.get(c["kind"], INK)
        d.rounded_rectangle([x, y, x + cw, y + ch], radius=10, fill=PANEL2)
        d.rounded_rectangle([x, y, x + cw, y + 8], radius=4, fill=kc)
        _text(d, (x + 10, y + 14), c["name"], 22, bold=True, width=cw - 20)
        _text(d, (x + 10, y + 42), c["kind"].upper(), 16, bold=True, fill=kc)
        body = c["text"] + (f"  GEM: {c['gem_text']}" if c.get("gem_text") else "")
        for j, line in enumerate(wrap_text(d, body, font(18, condensed=True), cw - 20, 4)):
            _text(d, (x + 10, y + 64 + j * 21), line, 18, condensed=True)
    return img


def render_final(view: dict[str, Any], scores: list[dict[str, Any]]) -> Image.Image:
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
    x += 160
    for c in [*view["colours"], "Clear"]:
        _gem(d, x, 92, 22, c)
        _text(d, (x + 28, 90), f"= {values.get(c, '?')}", 20, bold=True)
        x += 110
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
