"""HEIST renderer: draws views only (never the full state)."""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from rendering.common import (BG, GOLD, GREEN, INK, MUTED, PANEL, RED, fit_text, font, new_canvas, seat_colour,
                              wrap_text)

W = 1200
PAD = 20
TOKEN_RGB = {
    "blue": (60, 120, 230), "green": (60, 170, 80), "yellow": (225, 195, 40),
    "orange": (235, 130, 40), "red": (210, 55, 55), "purple": (150, 80, 200),
}
SKILL_SHORT = {"agility": "AGI", "charm": "CHA", "dexterity": "DEX"}
DARK = (20, 21, 27)


def _token(draw: ImageDraw.ImageDraw, x: int, y: int, r: int, colour: str, label: str,
           crossed: bool = False, dim: bool = False) -> None:
    rgb = TOKEN_RGB[colour]
    if dim:
        rgb = tuple(int(c * 0.45) for c in rgb)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=rgb, outline=INK if not dim else MUTED, width=2)
    fnt = font(max(14, int(r * 0.9)), bold=True)
    ink = DARK if colour in ("yellow",) and not dim else INK
    draw.text((x, y), label, font=fnt, fill=ink, anchor="mm")
    if crossed:
        draw.line((x - r, y - r, x + r, y + r), fill=INK, width=4)


def _panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], outline=None, width: int = 3) -> None:
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=outline, width=width if outline else 0)


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    draw.text((PAD, y), "HEIST", font=font(34, bold=True), fill=GOLD)
    rnd = f"Round {min(view['round'], view['rounds'])}/{view['rounds']}"
    if view["over"]:
        rnd = "Final"
    draw.text((W - PAD, y + 4), rnd, font=font(28, bold=True), fill=INK, anchor="ra")
    y += 46
    for line in wrap_text(draw, view["status"], font(22), W - 2 * PAD, max_lines=2):
        draw.text((PAD, y), line, font=font(22), fill=INK)
        y += 28
    return y + 6


def _heat_and_bag(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    h = 92
    _panel(draw, (PAD, y, W // 2 - 8, y + h))
    _panel(draw, (W // 2 + 8, y, W - PAD, y + h))
    draw.text((PAD + 14, y + 8), "Heat track", font=font(20, bold=True), fill=MUTED)
    x = PAD + 40
    for space in view["heat"]:
        cx = x
        current = space["round"] == view["round"] and not view["over"]
        if current:
            draw.rounded_rectangle((cx - 34, y + 34, cx + 34, y + h - 6), radius=8, outline=GOLD, width=3)
        label = f"×{space['count']}" if not space["done"] else "✓"
        _token(draw, cx - 10, y + 60, 18, space["colour"], str(space["round"]), dim=space["done"])
        draw.text((cx + 12, y + 60), label, font=font(18, bold=True), fill=INK if not space["done"] else MUTED,
                  anchor="lm")
        x += 104
    draw.text((x - 20, y + 60), "END", font=font(18, bold=True), fill=MUTED, anchor="lm")
    bx = W // 2 + 22
    draw.text((bx, y + 8), f"Bag: {view['bag_total']} tokens", font=font(20, bold=True), fill=MUTED)
    x = bx + 26
    for colour, count in view["bag"].items():
        _token(draw, x, y + 60, 20, colour, str(count), dim=count == 0)
        x += 92
    return y + h + 12


def _job_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], job: dict[str, Any], box) -> None:
    x0, y0, x1, y1 = box
    outline = GOLD if job["active"] else (GREEN if job["completed"] else None)
    _panel(draw, box, outline=outline, width=4)
    title = f"{job['letter']}  {job['name']}"
    draw.text((x0 + 14, y0 + 10), fit_text(draw, title, font(24, bold=True), x1 - x0 - 150),
              font=font(24, bold=True), fill=GOLD if job["active"] else INK)
    tag = "COMPLETE" if job["completed"] else f"{job['left']}/7 left"
    draw.text((x1 - 14, y0 + 14), tag, font=font(20, bold=job["completed"]),
              fill=GREEN if job["completed"] else MUTED, anchor="ra")
    top = job["top"]
    y = y0 + 46
    if top is None:
        draw.text((x0 + 14, y), "No obstacles left.", font=font(22), fill=MUTED)
    else:
        name = f"{top['id']} {top['name']}"
        draw.text((x0 + 14, y), fit_text(draw, name, font(23, bold=True), x1 - x0 - 110),
                  font=font(23, bold=True), fill=INK)
        draw.text((x1 - 14, y), f"{top['cheese']} cheese",
                  font=font(20, bold=True), fill=GOLD, anchor="ra")
        y += 32
        test = top["test_text"]
        draw.text((x0 + 14, y), fit_text(draw, test, font(22), x1 - x0 - 150), font=font(22), fill=INK)
        if top["mandatory"]:
            draw.text((x1 - 14, y + 2), "MANDATORY", font=font(18, bold=True), fill=RED, anchor="ra")
        y += 30
        for key, colour in (("success", GREEN), ("failure", RED)):
            if top[key]:
                text = f"{'✓' if key == 'success' else '✗'} {top[key]}"
                draw.text((x0 + 14, y), fit_text(draw, text, font(19), x1 - x0 - 28), font=font(19), fill=colour)
                y += 25
    # pawns at this job
    pawns = [p for p in view["players"] if p["location"] == job["letter"]]
    px = x0 + 14
    for p in pawns:
        r = 13
        draw.ellipse((px, y1 - 34, px + 2 * r, y1 - 34 + 2 * r), fill=seat_colour(p["seat"]), outline=INK, width=2)
        draw.text((px + r, y1 - 34 + r), p["name"][:1].upper(), font=font(16, bold=True), fill=DARK, anchor="mm")
        px += 32
    if job["active"]:
        draw.text((x1 - 14, y1 - 10), "◆ ACTIVE JOB", font=font(18, bold=True), fill=GOLD, anchor="rd")


def _jobs(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    h = 200
    cw = (W - 2 * PAD - 16) // 2
    for i, job in enumerate(view["jobs"]):
        col, row = i % 2, i // 2
        x0 = PAD + col * (cw + 16)
        y0 = y + row * (h + 12)
        _job_panel(draw, view, job, (x0, y0, x0 + cw, y0 + h))
    return y + 2 * h + 12 + 12


def _test_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    test = view["test"]
    last = view.get("last")
    names = view["names"]
    h = 150
    if test is None and last is None:
        return y
    _panel(draw, (PAD, y, W - PAD, y + h), outline=GOLD if test else None, width=3)
    x = PAD + 14
    if test is not None:
        ob = test["obstacle"]
        head = f"{names[test['seat']]} faces {ob['id']} {ob['name']}: {test['label']}"
        draw.text((x, y + 10), fit_text(draw, head, font(23, bold=True), W - 2 * PAD - 28),
                  font=font(23, bold=True), fill=GOLD)
        if not test["revealed"]:
            committed = ", ".join(names[s] for s in test["committed"]) or "nobody yet"
            waiting = ", ".join(names[s] for s in test["waiting"]) or "nobody"
            draw.text((x, y + 48), fit_text(draw, f"Committed (hidden): {committed}", font(21), W - 2 * PAD - 28),
                      font=font(21), fill=INK)
            draw.text((x, y + 80), fit_text(draw, f"Waiting for: {waiting}", font(21), W - 2 * PAD - 28),
                      font=font(21), fill=MUTED)
            return y + h + 12
        tokens, numbers = test["tokens"], test["numbers"]
        assists = test["assists"]
        tricks = test["tricks"]
    else:
        head = (f"Last: {names[last['seat']]} {'beat' if last['success'] else 'failed'} {last['obstacle']} "
                f"{last['name']} ({last['label']})")
        draw.text((x, y + 10), fit_text(draw, head, font(23, bold=True), W - 2 * PAD - 28),
                  font=font(23, bold=True), fill=GREEN if last["success"] else RED)
        tokens = last["tokens"]
        numbers = {"total": last["total"], "target": last["target"], "success": last["success"]}
        assists = [{"seat": a["seat"], "name": a["name"]} for a in last["assists"]]
        tricks = [{"name": t} for t in last["tricks"]]
    tx = x + 26
    for t in tokens:
        _token(draw, tx, y + 78, 26, t["colour"], f"{t['value']:+d}", crossed=t["ignored"])
        tx += 62
    if not tokens:
        draw.text((tx - 26, y + 66), "no tokens", font=font(20), fill=MUTED)
        tx += 100
    ax = max(tx + 10, x + 150)
    helper = "; ".join(f"{names[a['seat']]}: {a['name']}" for a in assists) or "none"
    draw.text((ax, y + 50), fit_text(draw, f"Assists: {helper}", font(20), W - PAD - 250 - ax),
              font=font(20), fill=INK)
    trick_text = ", ".join(t["name"] for t in tricks) or "none"
    draw.text((ax, y + 82), fit_text(draw, f"Tricks: {trick_text}", font(20), W - PAD - 250 - ax),
              font=font(20), fill=INK)
    ok = numbers["success"]
    big = f"{numbers['total']} / {numbers['target']}"
    draw.text((W - PAD - 20, y + 52), big, font=font(40, bold=True), fill=GREEN if ok else RED, anchor="ra")
    verdict = ("SUCCESS" if ok else "FAILURE") if test is None else ("would succeed" if ok else "short")
    draw.text((W - PAD - 20, y + 104), verdict, font=font(20, bold=True), fill=GREEN if ok else RED, anchor="ra")
    if test is not None and "skill" in numbers:
        detail = (f"skill {numbers['skill']}  assists {numbers['assists']:+d}  tokens {numbers['tokens']:+d}  "
                  f"tricks {numbers['tricks']:+d}")
        draw.text((ax, y + 114), fit_text(draw, detail, font(19), W - PAD - 250 - ax), font=font(19), fill=MUTED)
    return y + h + 12


def _players(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    row = 52
    h = 40 + row * len(view["players"])
    _panel(draw, (PAD, y, W - PAD, y + h))
    cols = [PAD + 16, PAD + 250, PAD + 470, PAD + 575, PAD + 680, PAD + 800, PAD + 900, PAD + 1010]
    heads = ["Thief", "Identity", "AGI", "CHA", "DEX", "Where", "Hand", "Cheese (obs)"]
    for cx, head in zip(cols, heads):
        draw.text((cx, y + 10), head, font=font(18, bold=True), fill=MUTED)
    yy = y + 40
    for p in view["players"]:
        active = p["seat"] == view["active"] and not view["over"]
        if active:
            draw.rounded_rectangle((PAD + 6, yy + 2, W - PAD - 6, yy + row - 4), radius=8, outline=GOLD, width=2)
        draw.ellipse((cols[0], yy + 14, cols[0] + 20, yy + 34), fill=seat_colour(p["seat"]))
        draw.text((cols[0] + 30, yy + 12), fit_text(draw, p["name"], font(22, bold=True), cols[1] - cols[0] - 40),
                  font=font(22, bold=True), fill=GOLD if active else INK)
        draw.text((cols[1], yy + 13), fit_text(draw, p["identity"], font(21), cols[2] - cols[1] - 10),
                  font=font(21), fill=INK)
        for i, skill in enumerate(("agility", "charm", "dexterity")):
            value, base = p["skills"][skill], p["base"][skill]
            draw.text((cols[2 + i], yy + 12), str(value), font=font(23, bold=True), fill=INK)
            if value > base:
                draw.text((cols[2 + i] + 26, yy + 16), f"(+{value - base})", font=font(17), fill=GREEN)
        draw.text((cols[5], yy + 13), p["location"] or "hideout", font=font(21), fill=INK if p["location"] else MUTED)
        draw.text((cols[6], yy + 13), str(p["hand"]), font=font(21), fill=INK)
        pile = f"{p['cheese']} ({len(p['pile_obstacles'])})"
        draw.text((cols[7], yy + 13), fit_text(draw, pile, font(21), W - PAD - cols[7] - 10), font=font(21), fill=GOLD)
        yy += row
    return y + h + 12


def _footer(draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    text = (f"Deck {view['deck']}  ·  Discard {view['discard']}"
            + (f" (top: {view['discard_top']})" if view["discard_top"] else "")
            + f"  ·  Boxed {len(view['boxed'])}")
    draw.text((PAD, y), fit_text(draw, text, font(20), W - 2 * PAD), font=font(20), fill=MUTED)
    return y + 34


def render_board(view: dict[str, Any]) -> Image.Image:
    height = 190 + 424 + 162 + 40 + 52 * len(view["players"]) + 12 + 60
    image, draw = new_canvas(W, height, BG)
    y = _header(draw, view, PAD)
    y = _heat_and_bag(draw, view, y)
    y = _jobs(draw, view, y)
    y = _test_panel(draw, view, y)
    y = _players(draw, view, y)
    y = _footer(draw, view, y)
    return image.crop((0, 0, W, min(height, y + PAD)))


def render_private(view: dict[str, Any]) -> Image.Image | None:
    priv = view.get("private")
    if not priv:
        return None
    hand = priv["hand"]
    cols = 2
    card_w = (W - 2 * PAD - (cols - 1) * 14) // cols
    card_h = 96
    rows = (len(hand) + cols - 1) // cols
    height = 200 + rows * (card_h + 14) + PAD
    image, draw = new_canvas(W, height, BG)
    me = view["players"][priv["seat"]]
    draw.text((PAD, PAD), f"{me['name']}: {me['identity']}", font=font(30, bold=True), fill=GOLD)
    skills = "   ".join(f"{SKILL_SHORT[s]} {v}" for s, v in me["skills"].items())
    draw.text((W - PAD, PAD + 4), skills, font=font(26, bold=True), fill=INK, anchor="ra")
    sec = priv["secret"]
    _panel(draw, (PAD, 70, W - PAD, 180), outline=(120, 90, 200), width=3)
    draw.text((PAD + 14, 80), f"Secret: {sec['name']} ({sec['cheese']} cheese)", font=font(24, bold=True), fill=INK)
    status = "met right now" if sec["met_now"] else "not met yet"
    draw.text((W - PAD - 14, 84), status, font=font(20, bold=True), fill=GREEN if sec["met_now"] else MUTED,
              anchor="ra")
    for i, line in enumerate(wrap_text(draw, sec["text"], font(21), W - 2 * PAD - 28, max_lines=2)):
        draw.text((PAD + 14, 116 + i * 28), line, font=font(21), fill=INK)
    y = 196
    for i, card in enumerate(hand):
        col, row = i % cols, i // cols
        x0 = PAD + col * (card_w + 14)
        y0 = y + row * (card_h + 14)
        accent = (70, 130, 200) if card["kind"] == "assist" else (200, 120, 60)
        _panel(draw, (x0, y0, x0 + card_w, y0 + card_h), outline=accent, width=3)
        draw.text((x0 + 14, y0 + 10), fit_text(draw, card["name"], font(24, bold=True), card_w - 130),
                  font=font(24, bold=True), fill=INK)
        draw.text((x0 + card_w - 14, y0 + 14), card["kind"].upper(), font=font(18, bold=True), fill=accent,
                  anchor="ra")
        for j, line in enumerate(wrap_text(draw, card["text"], font(20), card_w - 28, max_lines=2)):
            draw.text((x0 + 14, y0 + 48 + j * 26), line, font=font(20), fill=INK)
    if not hand:
        draw.text((PAD, y + 10), "Your hand is empty.", font=font(22), fill=MUTED)
    return image


def render_final(view: dict[str, Any], scores: list[dict[str, Any]]) -> Image.Image:
    rows = sorted(scores, key=lambda r: (r["rank"], r["seat"]))
    secrets = {s["seat"]: s for s in view.get("secrets", [])}
    row_h = 92
    height = 130 + row_h * len(rows) + PAD
    image, draw = new_canvas(W, height, BG)
    draw.text((PAD, PAD), "HEIST: the take", font=font(34, bold=True), fill=GOLD)
    done = ", ".join(view["completed"]) or "none"
    draw.text((W - PAD, PAD + 8), f"Jobs completed: {done}", font=font(22), fill=INK, anchor="ra")
    bag = "  ".join(f"{c} {n}" for c, n in view["bag"].items())
    draw.text((PAD, 70), fit_text(draw, f"Final bag: {bag}", font(20), W - 2 * PAD), font=font(20), fill=MUTED)
    y = 110
    for r in rows:
        p = view["players"][r["seat"]]
        _panel(draw, (PAD, y, W - PAD, y + row_h - 10), outline=GOLD if r["won"] else None, width=3)
        draw.text((PAD + 14, y + 10), f"#{r['rank']}", font=font(28, bold=True), fill=GOLD if r["won"] else INK)
        draw.ellipse((PAD + 74, y + 16, PAD + 96, y + 38), fill=seat_colour(r["seat"]))
        draw.text((PAD + 106, y + 10), fit_text(draw, f"{p['name']} ({p['identity']})", font(26, bold=True), 560),
                  font=font(26, bold=True), fill=INK)
        draw.text((W - PAD - 16, y + 8), f"{r['score']}", font=font(36, bold=True), fill=GOLD, anchor="ra")
        sec = secrets.get(r["seat"])
        line = r["detail"]
        if sec:
            line = (f"Secret {sec['name']}: {'met' if sec['met'] else 'missed'}  ·  "
                    + r["detail"].split(", secret ")[0])
        draw.text((PAD + 74, y + 50), fit_text(draw, line, font(19), W - 2 * PAD - 100), font=font(19), fill=MUTED)
        y += row_h
    return image
