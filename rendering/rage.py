"""Wizard's Rage renderer: draws views only (never full state).

render_board(public view)  - the grid, face-down tokens all alike, heroes, the tower, the status.
render_private(view)       - the wizard's own board: token identities, key tiles, hand. Heroes: None
                             (their secrets are a short card list, sent as text).
render_final(view, scores) - the board with the result banner.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (BG, BLUE, GOLD, GREEN, INK, MUTED, PANEL, PURPLE, RED, fit_text, font, new_canvas,
                              seat_colour, wrap_text)

BOARD_PX = 800
SIDE_W = 400
PAD = 16
HEADER = 64
FACE_DOWN = (62, 58, 74)
FACE_UP = (92, 86, 70)
CAMP = (60, 96, 70)
VOID = (14, 14, 18)
TOWER = (96, 60, 140)
DARK = (20, 20, 26)


def _cell(view: dict) -> int:
    return BOARD_PX // view["size"]


def _xy(view: dict, i: int) -> tuple[int, int]:
    r, c = divmod(i, view["size"])
    cell = _cell(view)
    return PAD + c * cell, HEADER + r * cell


def _draw_board(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, secret: dict | None = None) -> None:
    cell = _cell(view)
    small = font(max(14, cell // 7))
    name_f = font(max(15, cell // 7), bold=True, condensed=True)
    badge_f = font(max(15, cell // 7), bold=True)
    secret_tokens = (secret or {}).get("tokens", {})
    secret_keys = set((secret or {}).get("keys", []))
    for t in view["tiles"]:
        i = t["i"]
        x, y = _xy(view, i)
        box = (x + 2, y + 2, x + cell - 2, y + cell - 2)
        if t["removed"]:
            d.rectangle(box, fill=VOID)
            d.line((x + 10, y + 10, x + cell - 10, y + cell - 10), fill=(40, 40, 48), width=2)
            d.line((x + cell - 10, y + 10, x + 10, y + cell - 10), fill=(40, 40, 48), width=2)
            continue
        if t["tower"]:
            fill = TOWER
        elif t["camp"]:
            fill = CAMP
        elif t["up"]:
            fill = FACE_UP
        else:
            fill = FACE_DOWN
        d.rounded_rectangle(box, radius=8, fill=fill)
        d.text((x + 6, y + 4), t["label"], font=small, fill=MUTED)
        if t["tower"]:
            tf = font(max(16, cell // 6), bold=True)
            d.text((x + cell / 2, y + cell / 2 - 10), "TOWER", font=tf, fill=INK, anchor="mm")
            state = "open" if view["tower_open"] else f"keys {view['keys_taken']}/3"
            d.text((x + cell / 2, y + cell / 2 + 14), state, font=small, fill=GOLD, anchor="mm")
            ent = view.get("entrance")
            if ent:
                w = 8
                seg = {"N": (x + cell * 0.3, y + 2, x + cell * 0.7, y + 2 + w),
                       "S": (x + cell * 0.3, y + cell - 2 - w, x + cell * 0.7, y + cell - 2),
                       "W": (x + 2, y + cell * 0.3, x + 2 + w, y + cell * 0.7),
                       "E": (x + cell - 2 - w, y + cell * 0.3, x + cell - 2, y + cell * 0.7)}[ent]
                d.rectangle(seg, fill=GOLD)
        elif t["up"]:
            name = t.get("name", "")
            if t["camp"]:
                name = "Camp"
            d.text((x + 6, y + 4 + small.size + 2), fit_text(d, name, name_f, cell - 12), font=name_f, fill=INK)
            if not t["camp"]:
                d.text((x + 6, y + 8 + small.size + name_f.size), f"C{t.get('draw', 0):+d} M{t.get('mana', 0):+d}",
                       font=small, fill=MUTED)
        else:
            qf = font(max(18, cell // 4), bold=True)
            d.text((x + cell - 8, y + 6), "?", font=qf, fill=(120, 112, 140), anchor="ra")
        if t.get("key") or i in secret_keys:
            kx, ky = x + cell - 22, y + cell // 2 - 4
            d.ellipse((kx - 9, ky - 9, kx + 9, ky + 9), outline=GOLD, width=4)
            d.line((kx, ky + 9, kx, ky + 24), fill=GOLD, width=4)
            if i in secret_keys and not t.get("key"):
                d.rounded_rectangle(box, radius=8, outline=GOLD, width=3)
        # tokens: face-down discs (all alike), face-up monsters as red badges
        ty = y + cell - 6
        tx = x + 6
        hidden = t["hidden_tokens"]
        rad = max(8, cell // 12)
        ids = secret_tokens.get(str(i), [])
        for k in range(hidden):
            cx = tx + rad + k * (2 * rad + 3)
            d.ellipse((cx - rad, ty - 2 * rad, cx + rad, ty), fill=(190, 190, 200), outline=DARK, width=2)
            if k < len(ids):
                tk = ids[k]
                letter = {"monster": str(tk.get("level", "")), "trap": "T", "blank": "-"}[tk["kind"]]
                col = RED if tk["kind"] == "monster" else (PURPLE if tk["kind"] == "trap" else (90, 90, 100))
                d.text((cx, ty - rad), letter, font=font(max(12, rad + 2), bold=True), fill=col, anchor="mm")
        if t["monsters"]:
            level = sum(m["level"] for m in t["monsters"])
            label = f"{len(t['monsters'])}x L{level}" if len(t["monsters"]) > 1 else f"L{level}"
            bw = d.textlength(label, font=badge_f) + 12
            bx = x + cell - 6 - bw
            by = y + cell - 8 - badge_f.size - 6
            d.rounded_rectangle((bx, by, bx + bw, by + badge_f.size + 6), radius=6, fill=RED)
            d.text((bx + 6, by + 2), label, font=badge_f, fill=INK)
        if t["drop"]["cards"] or t["drop"]["keys"]:
            d.rectangle((x + cell - 20, y + small.size + 10, x + cell - 8, y + small.size + 24), fill=GOLD)
    # heroes
    hero_r = max(12, cell // 8)
    hf = font(max(14, hero_r), bold=True)
    by_tile: dict[int, list[dict]] = {}
    for h in view["heroes"]:
        if h["alive"]:
            by_tile.setdefault(h["pos"], []).append(h)
    for i, hs in by_tile.items():
        x, y = _xy(view, i)
        for k, h in enumerate(hs):
            cx = x + cell / 2 + (k - (len(hs) - 1) / 2) * (hero_r * 2 + 2)
            cy = y + cell * 0.64
            d.ellipse((cx - hero_r, cy - hero_r, cx + hero_r, cy + hero_r), fill=seat_colour(h["seat"]),
                      outline=INK if not h["frozen"] else BLUE, width=3 if not h["frozen"] else 5)
            d.text((cx, cy), str(h["seat"]), font=hf, fill=DARK, anchor="mm")


def _draw_side(d: ImageDraw.ImageDraw, view: dict, x0: int, y0: int, height: int) -> None:
    d.rounded_rectangle((x0, y0, x0 + SIDE_W - PAD, y0 + height), radius=10, fill=PANEL)
    x = x0 + 14
    y = y0 + 12
    big = font(22, bold=True)
    norm = font(19)
    w = view["wizard"]
    d.text((x, y), fit_text(d, f"Wizard: {w['name']}", big, SIDE_W - 50), font=big, fill=PURPLE)
    y += 30
    mana = f"Mana Wheel {w['mana']}/{w['mana_max']}"
    if w.get("mana_left") is not None:
        mana += f" ({w['mana_left']} left)"
    d.text((x, y), mana, font=norm, fill=INK)
    y += 26
    d.text((x, y), f"Hand {w['hand_count']}  Deck {w['deck_count']}  Discard {w['discard_count']}", font=norm,
           fill=MUTED)
    y += 26
    # mana wheel bar
    bw = SIDE_W - 60
    d.rectangle((x, y, x + bw, y + 12), fill=DARK)
    d.rectangle((x, y, x + bw * w["mana"] / max(1, w["mana_max"]), y + 12), fill=PURPLE)
    y += 26
    keys = f"Keys found {view['keys_taken']}/3" + ("  - RAGE!" if view["keys_found"] else "")
    d.text((x, y), keys, font=big, fill=RED if view["keys_found"] else GOLD)
    y += 36
    for h in view["heroes"]:
        col = seat_colour(h["seat"])
        d.ellipse((x, y + 3, x + 20, y + 23), fill=col)
        d.text((x + 10, y + 13), str(h["seat"]), font=font(15, bold=True), fill=DARK, anchor="mm")
        state = f"{h['hp']} HP" if h["alive"] else "fallen"
        line = f"{h['name']}  {state}"
        d.text((x + 28, y), fit_text(d, line, big, SIDE_W - 80), font=big, fill=INK if h["alive"] else MUTED)
        y += 28
        if h["alive"]:
            extra = []
            if h["keys"]:
                extra.append(f"{h['keys']} key{'s' if h['keys'] > 1 else ''}")
            if h["frozen"]:
                extra.append("frozen")
            if h["committed"]:
                extra.append("ready")
            info = f"{h['pos_label']}  atk +{h['attack']}  save +{h['save']}  hand {h['hand_count']}"
            d.text((x + 28, y), fit_text(d, info, norm, SIDE_W - 80), font=norm, fill=MUTED)
            y += 24
            gear = ", ".join(e["name"] for e in h["equip"]) or "no equipment"
            for line in wrap_text(d, gear + ("  | " + ", ".join(extra) if extra else ""), norm, SIDE_W - 80, 2):
                d.text((x + 28, y), line, font=norm, fill=GREEN if extra else MUTED)
                y += 24
        y += 8
    d.text((x, y0 + height - 30), f"Loot deck {view['loot']['deck_count']}  Max tokens/tile {view['token_cap']}",
           font=norm, fill=MUTED)


def _canvas(view: dict, extra_h: int = 0) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    cell = _cell(view)
    board_h = cell * view["size"]
    height = HEADER + board_h + PAD + extra_h
    img, d = new_canvas(PAD + cell * view["size"] + PAD + SIDE_W, max(height, 620))
    title = font(26, bold=True)
    round_txt = f"Round {view['round']}/{view['round_limit']}" if view["round"] else "Setup"
    d.text((PAD, 10), f"Wizard's Rage - {round_txt}", font=title, fill=GOLD)
    status = fit_text(d, view.get("status", ""), font(19), img.width - 2 * PAD)
    d.text((PAD, 40), status, font=font(19), fill=INK)
    return img, d, board_h


def render_board(view: dict) -> Image.Image:
    img, d, board_h = _canvas(view)
    _draw_board(img, d, view)
    x0 = PAD + _cell(view) * view["size"] + PAD
    _draw_side(d, view, x0, HEADER, max(board_h, img.height - HEADER - PAD))
    return img


def render_private(view: dict) -> Image.Image | None:
    priv = view.get("private") or {}
    if priv.get("role") != "wizard":
        return None
    hand = priv.get("hand", []) + priv.get("opening", [])
    extra = 50 + 30 * (len(hand) + 1)
    img, d, board_h = _canvas(view, extra)
    _draw_board(img, d, view, secret=priv)
    x0 = PAD + _cell(view) * view["size"] + PAD
    _draw_side(d, view, x0, HEADER, board_h)
    y = HEADER + board_h + PAD
    big = font(22, bold=True)
    norm = font(19)
    d.text((PAD, y), "Your secret board: numbers = monster levels, T = trap, - = decoy, gold rings = keys.",
           font=norm, fill=GOLD)
    y += 32
    label = "Opening draw (keep 3)" if priv.get("opening") else f"Your hand ({priv.get('mana_left', 0)} mana left)"
    d.text((PAD, y), label, font=big, fill=INK)
    y += 30
    for c in hand:
        line = f"{c['name']} ({c['cost']}): {c['text']}"
        d.text((PAD + 10, y), fit_text(d, line, norm, img.width - 3 * PAD), font=norm, fill=INK)
        y += 30
    return img


def render_final(view: dict, scores: list[dict[str, Any]] | None = None) -> Image.Image:
    img = render_board(view)
    d = ImageDraw.Draw(img)
    winner = view.get("winner")
    text = "The heroes win!" if winner == "heroes" else "The wizard wins!"
    f = font(44, bold=True)
    w = d.textlength(text, font=f) + 40
    cx = PAD + _cell(view) * view["size"] / 2
    cy = HEADER + _cell(view) * view["size"] / 2
    d.rounded_rectangle((cx - w / 2, cy - 70, cx + w / 2, cy + 70), radius=14, fill=BG, outline=GOLD, width=4)
    d.text((cx, cy - 28), text, font=f, fill=GOLD, anchor="mm")
    for k, line in enumerate(wrap_text(d, view.get("end_reason", ""), font(19), w - 30, 2)):
        d.text((cx, cy + 18 + k * 24), line, font=font(19), fill=INK, anchor="mm")
    return img
