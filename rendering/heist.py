"""HEIST renderer: draws views only (never the full state)."""
from __future__ import annotations

import json
from typing import Any, Literal, Mapping, Sequence

from PIL import Image, ImageDraw

from bot.games.heist.viewtypes import HeistView, JobView, PlayerView, ScoreView, TokenView
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
    rgb: tuple[int, ...] = TOKEN_RGB[colour]
    if dim:
        rgb = tuple(int(c * 0.45) for c in rgb)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=rgb, outline=INK if not dim else MUTED, width=2)
    label_font = font(max(14, int(r * 0.9)), bold=True)
    ink = DARK if colour in ("yellow",) and not dim else INK
    draw.text((x, y), label, font=label_font, fill=ink, anchor="mm")
    if crossed:
        draw.line((x - r, y - r, x + r, y + r), fill=INK, width=4)


def _panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], outline: tuple[int, int, int] | None = None,
           width: int = 3) -> None:
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=outline, width=width if outline else 0)


def _header(draw: ImageDraw.ImageDraw, view: HeistView, y: int) -> int:
    round_label = "Final" if view["over"] else f"Round {min(view['round'], view['rounds'])}/{view['rounds']}"
    draw.text((PAD, y), "HEIST", font=font(40, bold=True), fill=GOLD)
    draw.text((W - PAD, y + 2), round_label, font=font(38, bold=True), fill=INK, anchor="ra")
    y += 54
    for line in wrap_text(draw, view["status"], font(34, bold=True), W - 2 * PAD, max_lines=3):
        draw.text((PAD, y), line, font=font(34, bold=True), fill=INK)
        y += 42
    return y + 8


def faces_text(faces: Sequence[int]) -> str:
    """A token's two faces, e.g. "+4/+2"."""
    return "/".join(f"{face:+d}" for face in faces)


def _heat_and_bag(draw: ImageDraw.ImageDraw, view: HeistView, y: int) -> int:
    """The heat track (the tokens each round's end adds to the bag) and the bag (how many of each colour, and the
    two faces a token of that colour can land on: the legend of every token on the board)."""
    h = 166
    split = 470
    _panel(draw, (PAD, y, split - 8, y + h))
    _panel(draw, (split + 8, y, W - PAD, y + h))
    draw.text((PAD + 14, y + 8), "Heat: into the bag", font=font(26, bold=True), fill=MUTED)
    draw.text((PAD + 14, y + 38), "after each round", font=font(26, bold=True), fill=MUTED)
    x = PAD + 48
    for space in view["heat"]:
        current = space["round"] == view["round"] and not view["over"]
        if current:
            draw.rounded_rectangle((x - 38, y + 70, x + 38, y + h - 6), radius=8, outline=GOLD, width=3)
        label = "✓" if space["done"] else str(space["count"])
        _token(draw, x, y + 104, 26, space["colour"], label, dim=space["done"])
        draw.text((x, y + 134), f"R{space['round']}", font=font(24, bold=True),
                  fill=GOLD if current else MUTED, anchor="ma")
        x += 84
    bx = split + 22
    draw.text((bx, y + 8), f"Bag: {view['bag_total']} tokens, how many of each", font=font(26, bold=True), fill=MUTED)
    x = bx + 46
    for colour, count in view["bag"].items():
        _token(draw, x, y + 82, 34, colour, str(count), dim=count == 0)
        draw.text((x, y + 124), faces_text(view["faces"][colour]), font=font(26, bold=True), fill=INK, anchor="ma")
        x += 112
    return y + h + 12


def _job_panel(draw: ImageDraw.ImageDraw, view: HeistView, job: JobView, box: tuple[int, int, int, int]) -> None:
    """A job's panel over the background: drawn once per look (the job and the pawns on it), pasted after."""
    x0, y0, x1, y1 = box
    pawns = [(player["seat"], player["name"][:1].upper()) for player in view["players"]
             if player["location"] == job["letter"]]
    TILES.paste(draw, x0, y0, (x1 - x0 + 1, y1 - y0 + 1), BG, ("heist job", json.dumps(job, sort_keys=True), tuple(pawns)),
                lambda d, x, y: _job_face(d, job, pawns, (x, y, x + x1 - x0, y + y1 - y0)))


EFFECT = 28  # an obstacle's effect lines (readable on a phone, 400 px wide)


def _job_face(draw: ImageDraw.ImageDraw, job: JobView, pawns: list[tuple[int, str]],
              box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    outline = GOLD if job["active"] else (GREEN if job["completed"] else None)
    _panel(draw, box, outline=outline, width=5)
    tag = "Completed" if job["completed"] else f"{job['left']} of {job['length']} left"
    tag_w = draw.textlength(tag, font=font(26, bold=True))
    title = f"{job['letter']} {job['name']}"
    draw.text((x0 + 14, y0 + 10), fit_text(draw, title, font(26, bold=True), x1 - x0 - tag_w - 40),
              font=font(26, bold=True), fill=GOLD if job["active"] else MUTED)
    draw.text((x1 - 14, y0 + 10), tag, font=font(26, bold=True), fill=GREEN if job["completed"] else MUTED, anchor="ra")
    top = job["top"]
    y = y0 + 48
    if top is None:
        draw.text((x0 + 14, y), "No obstacles left.", font=font(30), fill=MUTED)
    else:
        name = f"{top['id']} {top['name']}"
        draw.text((x0 + 14, y), fit_text(draw, name, font(32, bold=True), x1 - x0 - 28),
                  font=font(32, bold=True), fill=INK)
        y += 44
        cheese = f"{top['cheese']} cheese"
        cheese_w = draw.textlength(cheese, font=font(32, bold=True))
        test_text = " or ".join("+".join(SKILL_SHORT[k] for k in t["skills"]) + f" {t['target']}"
                                for t in top["tests"])
        draw.text((x0 + 14, y), fit_text(draw, test_text, font(32, bold=True), x1 - x0 - cheese_w - 44),
                  font=font(32, bold=True), fill=(140, 200, 255))
        draw.text((x1 - 14, y), cheese, font=font(32, bold=True), fill=GOLD, anchor="ra")
        y += 44
        if top["mandatory"]:
            label = "Finale, Mandatory: stays if failed" if top.get("finale") else "Mandatory: stays if failed"
            draw.text((x0 + 14, y), fit_text(draw, label, font(28, bold=True), x1 - x0 - 28), font=font(28, bold=True),
                      fill=RED)
            y += 36
        key: Literal["success", "failure"]
        for key, colour in (("success", GREEN), ("failure", RED)):
            if top[key]:
                text = f"{'✓ success' if key == 'success' else '✗ failure'}: {top[key]}"
                for line in wrap_text(draw, text, font(EFFECT), x1 - x0 - 28, max_lines=2):
                    draw.text((x0 + 14, y), line, font=font(EFFECT), fill=colour)
                    y += EFFECT + 4
    px = x0 + 14
    for seat, initial in pawns:
        r = 16
        draw.ellipse((px, y1 - 40, px + 2 * r, y1 - 40 + 2 * r), fill=seat_colour(seat), outline=INK, width=2)
        draw.text((px + r, y1 - 40 + r), initial, font=font(20, bold=True), fill=DARK, anchor="mm")
        px += 38
    if job["active"]:
        draw.text((x1 - 14, y1 - 10), "◆ being faced", font=font(26, bold=True), fill=GOLD, anchor="rd")


def _job_height(draw: ImageDraw.ImageDraw, job: JobView, width: int) -> int:
    """The height a job's panel needs: its top obstacle's lines as ``_job_face`` draws them, then the pawns' row."""
    top = job["top"]
    y = 48 + 44
    if top is not None:
        y += 44 + (36 if top["mandatory"] else 0)
        for word, effect in (("✓ success", top["success"]), ("✗ failure", top["failure"])):
            if effect:
                y += (EFFECT + 4) * len(wrap_text(draw, f"{word}: {effect}", font(EFFECT), width - 28, max_lines=2))
    return y + 44  # the pawns and "being faced" under the last line


def _jobs(draw: ImageDraw.ImageDraw, view: HeistView, y: int) -> int:
    cw = (W - 2 * PAD - 16) // 2
    h = max([262] + [_job_height(draw, job, cw) for job in view["jobs"]])
    for i, job in enumerate(view["jobs"]):
        col, row = i % 2, i // 2
        x0 = PAD + col * (cw + 16)
        y0 = y + row * (h + 12)
        _job_panel(draw, view, job, (x0, y0, x0 + cw, y0 + h))
    rows = (len(view["jobs"]) + 1) // 2
    return y + rows * (h + 12) + 4


def _test_panel(draw: ImageDraw.ImageDraw, view: HeistView, y: int) -> int:
    test = view["test"]
    last = view.get("last")
    names = view["names"]
    if test is None and last is None:
        return y
    h = 200
    _panel(draw, (PAD, y, W - PAD, y + h), outline=GOLD if test else None, width=4)
    x = PAD + 16
    inner = W - 2 * PAD - 32
    tokens: Sequence[TokenView]
    numbers: Mapping[str, Any]  # the test's numbers, or the last test's result
    assists: Sequence[Mapping[str, Any]]
    tricks: Sequence[Mapping[str, Any]]
    if test is not None:
        obstacle = test["obstacle"]
        head = f"{names[test['seat']]} faces {obstacle['id']} {obstacle['name']}: {test['label']}"
        draw.text((x, y + 10), fit_text(draw, head, font(30, bold=True), inner), font=font(30, bold=True), fill=GOLD)
        if not test["revealed"]:
            committed = ", ".join(names[s] for s in test["committed"]) or "nobody yet"
            waiting = ", ".join(names[s] for s in test["waiting"]) or "nobody"
            draw.text((x, y + 62), fit_text(draw, f"Waiting for assists: {waiting}", font(30, bold=True), inner),
                      font=font(30, bold=True), fill=INK)
            draw.text((x, y + 112), fit_text(draw, f"Committed (hidden): {committed}", font(28), inner),
                      font=font(28), fill=MUTED)
            return y + h + 12
        tokens, numbers = test["tokens"], test["numbers"]
        assists = test["assists"]
        tricks = test["tricks"]
    else:
        assert last is not None  # (returned above when there is neither)
        head = (f"Last: {names[last['seat']]} {'beat' if last['success'] else 'failed'} {last['obstacle']} "
                f"{last['name']} ({last['label']})")
        draw.text((x, y + 10), fit_text(draw, head, font(30, bold=True), inner), font=font(30, bold=True),
                  fill=GREEN if last["success"] else RED)
        tokens = last["tokens"]
        numbers = {"total": last["total"], "target": last["target"], "success": last["success"]}
        assists = [{"seat": a["seat"], "name": a["name"]} for a in last["assists"]]
        tricks = [{"name": t} for t in last["tricks"]]
    tx = x + 32
    for token in tokens:
        _token(draw, tx, y + 88, 32, token["colour"], f"{token['value']:+d}", crossed=token["ignored"])
        tx += 74
    if not tokens:
        draw.text((tx - 30, y + 72), "no tokens", font=font(26), fill=MUTED)
        tx += 120
    ok = numbers["success"]
    big = f"{numbers['total']} vs {numbers['target']}"
    # the right column starts under the headline, which may run the panel's whole width
    draw.text((W - PAD - 20, y + 54), "total vs needed", font=font(24, bold=True), fill=MUTED, anchor="ra")
    draw.text((W - PAD - 20, y + 84), big, font=font(52, bold=True), fill=GREEN if ok else RED, anchor="ra")
    verdict = ("Success" if ok else "Failure") if test is None else ("would succeed" if ok else "would fail")
    draw.text((W - PAD - 20, y + 148), verdict, font=font(28, bold=True), fill=GREEN if ok else RED, anchor="ra")
    ax = max(tx, x + 160)
    room = W - PAD - 280 - ax
    helper = "; ".join(f"{names[a['seat']]}: {a['name']}" for a in assists) or "none"
    draw.text((ax, y + 58), fit_text(draw, f"Assists: {helper}", font(26), room), font=font(26), fill=INK)
    trick_text = ", ".join(t["name"] for t in tricks) or "none"
    draw.text((ax, y + 96), fit_text(draw, f"Tricks: {trick_text}", font(26), room), font=font(26), fill=INK)
    if test is not None and "skill" in numbers:
        detail = (f"skill {numbers['skill']}  assists {numbers['assists']:+d}  tokens {numbers['tokens']:+d}  "
                  f"tricks {numbers['tricks']:+d}")
        draw.text((x, y + 150), fit_text(draw, detail, font(26), W - 2 * PAD - 300), font=font(26), fill=MUTED)
    return y + h + 12


def _player_row(draw: ImageDraw.ImageDraw, player: PlayerView, active: bool, columns: list[int], x0: int, yy: int,
                row: int) -> None:
    """A thief's row of the players' panel, its box's left at ``x0`` (the panel's left + 6)."""
    cols = [x0 + c - (PAD + 6) for c in columns]
    if active:
        draw.rounded_rectangle((x0, yy + 2, x0 + W - 2 * PAD - 12, yy + row - 4), radius=8, outline=GOLD, width=3)
    draw.ellipse((cols[0], yy + 12, cols[0] + 24, yy + 36), fill=seat_colour(player["seat"]))
    draw.text((cols[0] + 34, yy + 6), fit_text(draw, player["name"], font(32, bold=True), cols[1] - cols[0] - 50),
              font=font(32, bold=True), fill=GOLD if active else INK)
    identity = player["identity"] + (f" · start player, +{player['head_start']} cheese" if player["head_start"] else
                                     " · start player, wins ties" if player["wins_ties"] else "")
    draw.text((cols[0] + 34, yy + 42), fit_text(draw, identity, font(24), cols[1] - cols[0] - 40),
              font=font(24), fill=MUTED)
    for i, skill in enumerate(("agility", "charm", "dexterity")):
        value, base = player["skills"][skill], player["base"][skill]
        draw.text((cols[1 + i], yy + 6), str(value), font=font(36, bold=True), fill=INK)
        if value > base:
            draw.text((cols[1 + i] + 28, yy + 16), f"+{value - base}", font=font(22, bold=True), fill=GREEN)
    draw.text((cols[4], yy + 8), player["location"] or "hideout", font=font(30 if player["location"] else 24),
              fill=INK if player["location"] else MUTED)
    draw.text((cols[5], yy + 6), str(player["hand"]), font=font(34, bold=True), fill=INK)
    draw.text((cols[6], yy + 6), str(player["cheese"]), font=font(36, bold=True), fill=GOLD)
    obstacles = len(player["pile_obstacles"])
    draw.text((cols[6], yy + 42), f"{obstacles} obstacle{'' if obstacles == 1 else 's'}", font=font(24),
              fill=MUTED)


def _players(draw: ImageDraw.ImageDraw, view: HeistView, y: int) -> int:
    row = 74
    h = 46 + row * len(view["players"])
    _panel(draw, (PAD, y, W - PAD, y + h))
    cols = [PAD + 16, PAD + 502, PAD + 592, PAD + 682, PAD + 776, PAD + 896, PAD + 990]
    heads = ["Thief", "AGI", "CHA", "DEX", "At job", "Cards", "Cheese"]
    for cx, head in zip(cols, heads):
        draw.text((cx, y + 10), head, font=font(24, bold=True), fill=MUTED)
    yy = y + 46
    for player in view["players"]:
        active = player["seat"] == view["active"] and not view["over"]
        # the row, over the panel: drawn once per look
        TILES.paste(draw, PAD + 6, yy, (W - 2 * PAD - 11, row - 3), PANEL,
                    ("heist player", json.dumps(player, sort_keys=True), active),
                    lambda d, x, top, player=player, active=active: _player_row(d, player, active, cols, x, top, row))
        yy += row
    return y + h + 12


def _footer(draw: ImageDraw.ImageDraw, view: HeistView, y: int) -> int:
    text = (f"Deck {view['deck']}  ·  Discard {view['discard']}"
            + (f" (top: {view['discard_top']})" if view["discard_top"] else "")
            + f"  ·  Failed obstacles back in the box: {len(view['boxed'])}")
    draw.text((PAD, y), fit_text(draw, text, font(24), W - 2 * PAD), font=font(24), fill=MUTED)
    return y + 36


def _board(view: HeistView) -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    """The public board and where its parts are (name -> (x, y) of each part's top left corner)."""
    height = 200 + 190 + 2 * 274 + 212 + 46 + 74 * len(view["players"]) + 12 + 60
    image, draw = new_canvas(W, height, BG)
    places: dict[str, tuple[int, int]] = {}
    y = _header(draw, view, PAD)
    places["heat"], places["bag"] = (PAD, y), (478, y)
    y = _heat_and_bag(draw, view, y)
    places["test"] = (PAD, y)
    y = _test_panel(draw, view, y)
    places["jobs"] = (PAD, y)
    y = _jobs(draw, view, y)
    places["players"] = (PAD, y)
    y = _players(draw, view, y)
    places["footer"] = (PAD, y)
    y = _footer(draw, view, y)
    return image.crop((0, 0, W, min(height, y + PAD))), places


def render_board(view: HeistView) -> Image.Image:
    """The public board: heat track and bag, the test being faced (or the last one), jobs, thieves."""
    return _board(view)[0]


def render_howto(view: HeistView) -> Image.Image:
    """The board with numbered callouts on its parts and, below it, what each part is (the how-to-play picture)."""
    from bot.games.heist.teach import BOARD_PARTS

    board, places = _board(view)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    legend = [(number, wrap_text(probe, text, font(30), W - 2 * PAD - 80, max_lines=3))
              for number, (_, text) in enumerate(BOARD_PARTS, 1)]
    margin = 64  # the callouts stand left of the board, beside the part they name (the bag's: in its corner)
    height = board.height + 70 + sum(14 + 38 * len(lines) for _, lines in legend) + PAD
    image, draw = new_canvas(W + margin, height, BG)
    image.paste(board, (margin, 0))
    for number, (part, _) in enumerate(BOARD_PARTS, 1):
        x, y = places[part]
        _callout(draw, margin + W - PAD - 58 if part == "bag" else 8, y + 4, number)
    y = board.height + 10
    draw.text((PAD, y), "How to read the board", font=font(36, bold=True), fill=GOLD)
    y += 56
    for number, lines in legend:
        _callout(draw, PAD, y, number)
        for line in lines:
            draw.text((PAD + 70, y + 2), line, font=font(30), fill=INK)
            y += 38
        y += 14
    return image


def _callout(draw: ImageDraw.ImageDraw, x: int, y: int, number: int) -> None:
    """A numbered gold disc (its top left at x, y)."""
    draw.ellipse((x, y, x + 48, y + 48), fill=GOLD, outline=DARK, width=3)
    draw.text((x + 24, y + 24), str(number), font=font(30, bold=True), fill=DARK, anchor="mm")


def render_private(view: HeistView) -> Image.Image | None:
    """A seat's hand and secret (None for a view without a private part)."""
    private = view.get("private")
    if not private:
        return None
    hand = private["hand"]
    card_w = W - 2 * PAD
    card_h = 118
    secret = private["secret"]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    secret_lines = wrap_text(probe, secret["text"], font(30), W - 2 * PAD - 28, max_lines=3)
    progress = f"Progress: {secret['progress']}" + (" · met if the game ended now" if secret["met_now"] else "")
    progress_lines = wrap_text(probe, progress, font(30, bold=True), W - 2 * PAD - 28, max_lines=2)
    secret_h = 64 + 38 * len(secret_lines) + 40 * len(progress_lines)
    top = 86
    height = top + secret_h + 20 + max(1, len(hand)) * (card_h + 12) + PAD
    image, draw = new_canvas(W, height, BG)
    me = view["players"][private["seat"]]
    skills = "  ".join(f"{SKILL_SHORT[s]} {v}" for s, v in me["skills"].items())
    skills_w = draw.textlength(skills, font=font(36, bold=True))
    draw.text((PAD, PAD), fit_text(draw, f"{me['name']}: {me['identity']}", font(36, bold=True), W - 3 * PAD - skills_w),
              font=font(36, bold=True), fill=GOLD)
    draw.text((W - PAD, PAD), skills, font=font(36, bold=True), fill=INK, anchor="ra")
    _panel(draw, (PAD, top, W - PAD, top + secret_h), outline=(120, 90, 200), width=3)
    draw.text((PAD + 14, top + 12), fit_text(draw, f"Secret goal: {secret['name']} ({secret['cheese']} cheese if met)",
                                             font(32, bold=True), W - 2 * PAD - 28),
              font=font(32, bold=True), fill=INK)
    for i, line in enumerate(secret_lines):
        draw.text((PAD + 14, top + 58 + i * 38), line, font=font(30), fill=INK)
    for i, line in enumerate(progress_lines):
        draw.text((PAD + 14, top + 58 + 38 * len(secret_lines) + i * 40), line, font=font(30, bold=True),
                  fill=GREEN if secret["met_now"] else GOLD)
    y = top + secret_h + 20
    for i, card in enumerate(hand):
        x0, y0 = PAD, y + i * (card_h + 12)
        accent = (70, 130, 200) if card["kind"] == "assist" else (200, 120, 60)
        _panel(draw, (x0, y0, x0 + card_w, y0 + card_h), outline=accent, width=3)
        draw.text((x0 + 14, y0 + 8), fit_text(draw, card["name"], font(34, bold=True), card_w - 170),
                  font=font(34, bold=True), fill=INK)
        draw.text((x0 + card_w - 14, y0 + 12), card["kind"].upper(), font=font(26, bold=True), fill=accent,
                  anchor="ra")
        for j, line in enumerate(wrap_text(draw, card["text"], font(28), card_w - 28, max_lines=2)):
            draw.text((x0 + 14, y0 + 50 + j * 32), line, font=font(28), fill=INK)
    if not hand:
        draw.text((PAD, y + 10), "Your hand is empty.", font=font(30), fill=MUTED)
    return image


def render_final(view: HeistView, scores: list[ScoreView]) -> Image.Image:
    """The final take: each thief's rank, score, secret and how the score is made up."""
    rows = sorted(scores, key=lambda r: (r["rank"], r["seat"]))
    secrets = {s["seat"]: s for s in view.get("secrets", [])}
    row_h = 150
    height = 150 + row_h * len(rows) + PAD
    image, draw = new_canvas(W, height, BG)
    draw.text((PAD, PAD), "HEIST: the take", font=font(40, bold=True), fill=GOLD)
    title_w = draw.textlength("HEIST: the take", font=font(40, bold=True))
    draw.text((PAD + title_w + 20, PAD + 12), "(most cheese wins)", font=font(28, bold=True), fill=MUTED)
    done = ", ".join(view["completed"]) or "none"
    draw.text((W - PAD, PAD + 4), f"Jobs completed: {done}", font=font(32, bold=True), fill=INK, anchor="ra")
    bag = "  ".join(f"{c} {n}" for c, n in view["bag"].items())
    draw.text((PAD, 84), fit_text(draw, f"Final bag: {bag}", font(28), W - 2 * PAD), font=font(28), fill=MUTED)
    y = 134
    for row in rows:
        player = view["players"][row["seat"]]
        _panel(draw, (PAD, y, W - PAD, y + row_h - 12), outline=GOLD if row["won"] else None, width=4)
        draw.text((PAD + 14, y + 10), f"#{row['rank']}", font=font(36, bold=True), fill=GOLD if row["won"] else INK)
        draw.ellipse((PAD + 90, y + 20, PAD + 116, y + 46), fill=seat_colour(row["seat"]))
        draw.text((PAD + 128, y + 10),
                  fit_text(draw, f"{player['name']} ({player['identity']})", font(34, bold=True), 820),
                  font=font(34, bold=True), fill=INK)
        draw.text((W - PAD - 16, y + 6), f"{row['score']}", font=font(48, bold=True), fill=GOLD, anchor="ra")
        draw.text((W - PAD - 16, y + 64), "cheese", font=font(24, bold=True), fill=MUTED, anchor="ra")
        secret = secrets.get(row["seat"])
        line = row["detail"]
        if secret:
            line = (f"Secret {secret['name']}: {'met' if secret['met'] else 'missed'} · "
                    + line.replace(", secret ", ", "))
        for j, text in enumerate(wrap_text(draw, line, font(26), W - 2 * PAD - 220, max_lines=2)):
            draw.text((PAD + 90, y + 62 + j * 34), text, font=font(26), fill=MUTED)
        y += row_h
    return image


def describe(view: HeistView) -> str:
    """Plain-words alt text for the public board (at most 1,000 characters): whose turn,
    what just happened, and the position. Reads only public parts of the view."""
    names = view["names"]
    parts = [f"HEIST, {'final' if view['over'] else 'round ' + str(view['round']) + ' of ' + str(view['rounds'])}.",
             view["status"]]
    test, last = view.get("test"), view.get("last")
    if last and not (test and test["revealed"]):
        parts.append(f"Last test: {names[last['seat']]} {'beat' if last['success'] else 'failed'} {last['name']} "
                     f"({last['label']}) with {last['total']} against {last['target']}.")
    if test:
        if test["revealed"]:
            tokens = ", ".join(f"{t['colour']} {t['value']:+d}" + (" (ignored)" if t["ignored"] else "")
                               for t in test["tokens"]) or "none"
            helpers = ", ".join(f"{names[a['seat']]} {a['name']}" for a in test["assists"]) or "none"
            numbers = test["numbers"]
            parts.append(f"Current test: {test['label']}; tokens {tokens}; assists {helpers}; "
                         f"total {numbers['total']} against {numbers['target']}.")
        else:
            parts.append(f"{len(test['committed'])} of {len(test['committed']) + len(test['waiting'])} "
                         f"helpers have committed (hidden).")
    tops = [f"{j['letter']}: {j['top']['name']} ({j['top']['test_text']}, {j['top']['cheese']} cheese)"
            for j in view["jobs"] if j["top"]]
    if tops and not view["over"]:
        parts.append("Obstacles on top: " + "; ".join(tops) + ".")
    if view["completed"]:
        parts.append("Jobs completed: " + ", ".join(view["completed"]) + ".")
    if view["over"] and view.get("scores"):
        ranked = sorted(view["scores"], key=lambda r: (r["rank"], r["seat"]))
        parts.append("Final scores: " + ", ".join(f"{names[r['seat']]} {r['score']}" for r in ranked) + ".")
    else:
        parts.append("Cheese: " + ", ".join(f"{p['name']} {p['cheese']}" for p in view["players"]) + ".")
    bag = ", ".join(f"{n} {c}" for c, n in view["bag"].items() if n)
    parts.append(f"Bag: {bag or 'empty'}.")
    text = " ".join(parts)
    return text if len(text) <= 1000 else text[:999] + "…"
