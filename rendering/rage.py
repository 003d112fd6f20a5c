"""Wizard's Rage renderer: draws views only (never full state).

render_board(public view)  - a phone-first layout: big header (round, whose turn, what just happened),
                             the grid (face-down tokens all alike), then one big line per hero.
render_private(view)       - the wizard's own board: token identities, key tiles, hand. Heroes: None
                             (their secrets are a short card list, sent as text).
render_final(view, scores) - the board with the result banner.
render_howto(view)         - the how-to-play picture: a board with numbered callouts and what each names.
describe(public view)      - plain-words alt text for a screen reader.
"""
from __future__ import annotations

import json
from typing import Any

from PIL import Image, ImageDraw

from bot.games.rage.viewtypes import HeroView, RageView, WizardPrivate
from rendering.common import (
    BG,
    BLUE,
    GOLD,
    GREEN,
    INK,
    MUTED,
    PURPLE,
    RED,
    TILES,
    drawing,
    fit_text,
    font,
    new_canvas,
    seat_colour,
    wrap_text,
)
from rendering.rage_legend import (
    CAMP,
    DARK,
    DETAIL,
    EVENT,
    FACE_DOWN,
    FACE_UP,
    HERO,
    PAD,
    STATUS,
    TITLE,
    TOWER,
    VOID,
    WIDTH,
    _draw_legend,
    _legend_height,
    legend_entries,
    secret_marks,
    token_mark,
)

__all__ = ["describe", "legend_entries", "render_board", "render_final", "render_howto", "render_private"]


def _cell(view: RageView) -> int:
    return (WIDTH - 2 * PAD) // view["size"]


def _xy(view: RageView, top: int, i: int) -> tuple[int, int]:
    r, c = divmod(i, view["size"])
    cell = _cell(view)
    return PAD + c * cell, top + r * cell


def round_words(view: RageView) -> str:
    """The round and the round limit ("Round 3 of 16"), or the set-up."""
    return f"Round {view['round']} of {view['round_limit']}" if view["round"] else "Setting up"


def goal_words(view: RageView) -> str:
    """Who wins how, in a line under the title (a newcomer's first question)."""
    return (f"Heroes win by finding the 3 keys and storming the tower. The wizard wins if every hero falls "
            f"or round {view['round_limit']} ends first.")


def _header_lines(d: ImageDraw.ImageDraw, view: RageView) -> list[tuple[str, Any, tuple]]:
    """(text, font, colour) lines of the header: round, the goal, whose turn, what just happened."""
    width = WIDTH - 2 * PAD
    out: list[tuple[str, Any, tuple]] = [(f"Wizard's Rage - {round_words(view)}", font(TITLE, bold=True), GOLD)]
    if view["phase"] != "over":
        out += [(line, font(DETAIL), MUTED) for line in wrap_text(d, goal_words(view), font(DETAIL), width, 2)]
    status = view.get("status", "")
    prefix = f"{round_words(view)}: "
    if status.startswith(prefix):
        status = status[len(prefix):]
        status = status[:1].upper() + status[1:]
    for line in wrap_text(d, status, font(STATUS, bold=True), width, 2):
        out.append((line, font(STATUS, bold=True), INK))
    recent = [t for t in view.get("recent") or [] if t != view.get("status")]
    lines: list[str] = []
    for text in reversed(recent):  # the newest events first, as many as fit in 3 lines
        wrapped = wrap_text(d, text.replace("**", ""), font(EVENT), width, 3)
        if len(lines) + len(wrapped) > 3:
            if not lines:
                lines = wrapped[:3]
            break
        lines = wrapped + lines
    out += [(line, font(EVENT), MUTED) for line in lines]
    return out


def _header_height(view: RageView) -> int:
    d = new_canvas(4, 4)[1]
    return PAD + sum(f.size + 8 for _, f, _ in _header_lines(d, view)) + 8


def _draw_header(d: ImageDraw.ImageDraw, view: RageView) -> None:
    y = PAD
    for text, fnt, colour in _header_lines(d, view):
        d.text((PAD, y), text, font=fnt, fill=colour)
        y += fnt.size + 8



def _room(d: ImageDraw.ImageDraw, view: RageView, x: int, y: int, cell: int, t: Any, ids: list[Any],
          secret_key: bool) -> None:
    """One room of the board (its tile, what lies on it; the heroes are drawn over it after)."""
    coord_f = font(max(18, cell // 7))
    name_f = font(max(16, cell // 8), condensed=True)
    count_f = font(max(26, cell // 4), bold=True)
    badge_f = font(max(26, cell // 5), bold=True)
    box = (x + 2, y + 2, x + cell - 2, y + cell - 2)
    if t["removed"]:
        d.rectangle(box, fill=VOID)
        d.line((x + 12, y + 12, x + cell - 12, y + cell - 12), fill=(44, 44, 52), width=3)
        d.line((x + cell - 12, y + 12, x + 12, y + cell - 12), fill=(44, 44, 52), width=3)
        return
    fill = TOWER if t["tower"] else CAMP if t["camp"] else FACE_UP if t["up"] else FACE_DOWN
    d.rounded_rectangle(box, radius=10, fill=fill)
    d.text((x + 7, y + 4), t["label"], font=coord_f, fill=MUTED)
    if t["tower"]:
        d.text((x + cell / 2, y + cell / 2 - cell // 7), "TOWER", font=font(max(22, cell // 5), bold=True),
               fill=INK, anchor="mm")
        state = "open" if view["tower_open"] else f"keys {view['keys_taken']}/3"
        d.text((x + cell / 2, y + cell / 2 + cell // 12), state, font=font(max(20, cell // 6), bold=True),
               fill=GOLD, anchor="mm")
        ent = view.get("entrance")
        if ent:
            w = 10
            seg = {"N": (x + cell * 0.25, y + 2, x + cell * 0.75, y + 2 + w),
                   "S": (x + cell * 0.25, y + cell - 2 - w, x + cell * 0.75, y + cell - 2),
                   "W": (x + 2, y + cell * 0.25, x + 2 + w, y + cell * 0.75),
                   "E": (x + cell - 2 - w, y + cell * 0.25, x + cell - 2, y + cell * 0.75)}[ent]
            d.rectangle(seg, fill=GOLD)
    elif t["up"]:
        name = "Camp" if t["camp"] else t.get("name", "")
        d.text((x + 7, y + 8 + coord_f.size), fit_text(d, name, name_f, cell - 14 - (cell // 4 if t.get("sense") else 0)),
               font=name_f, fill=INK)
    else:
        d.text((x + cell - 10, y + 4), "?", font=font(max(26, cell // 4), bold=True), fill=(120, 112, 140),
               anchor="ra")
    if t.get("sense"):  # scouting: how many key vaults lie within range of this room
        r = max(15, cell // 8)
        cx, cy = x + cell - r - 8, y + r + 8
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=GOLD, width=3)
        d.text((cx, cy), str(t["sense"]), font=font(max(20, cell // 6), bold=True), fill=GOLD, anchor="mm")
    if t.get("key") or secret_key:
        kx, ky = x + cell - cell // 5, y + cell // 2 - 4
        r = max(9, cell // 14)
        d.ellipse((kx - r, ky - r, kx + r, ky + r), outline=GOLD, width=5)
        d.line((kx, ky + r, kx, ky + 2.6 * r), fill=GOLD, width=5)
        if secret_key and not t.get("key"):
            d.rounded_rectangle(box, radius=10, outline=GOLD, width=4)
    hidden = t["hidden_tokens"]
    if hidden:  # face-down tokens: square cards marked "?", never a disc (discs are heroes), all alike in public
        r = max(16, cell // 7)
        cx, cy = x + 8 + r, y + cell - 8 - r
        if ids:  # the wizard's own board: what the cards are instead of how many ("8 T 6D")
            right = token_mark(d, cx, cy, r, 1 if hidden == 1 else 2, count_f, counted=False)
            mark_f = font(max(20, cell // 6), bold=True)
            room = x + cell - right - 12
            levels, rest = secret_marks(ids)
            whole = " ".join(p for p in (levels, rest) if p)
            if d.textlength(whole, font=mark_f) > room and levels:  # the monsters' levels above the cards
                d.text((cx - r, cy - r - 8), fit_text(d, levels, mark_f, cell - 16), font=mark_f, fill=RED,
                       anchor="ld")
                whole = rest
            d.text((right + 6, cy), fit_text(d, whole, mark_f, room), font=mark_f, fill=RED, anchor="lm")
        else:
            token_mark(d, cx, cy, r, hidden, count_f)
    if t["monsters"]:
        level = sum(m["level"] for m in t["monsters"])
        label = f"L{level}" if len(t["monsters"]) == 1 else f"{len(t['monsters'])}xL{level}"
        bw = d.textlength(label, font=badge_f) + 12
        bx, by = x + cell - 6 - bw, y + cell - 10 - badge_f.size - 6
        if hidden:  # above the face-down cards' row, so neither hides the other
            by -= badge_f.size + 14
        d.rounded_rectangle((bx, by, bx + bw, by + badge_f.size + 8), radius=6, fill=RED)
        d.text((bx + 6, by + 3), label, font=badge_f, fill=INK)
    if t["drop"]["cards"] or t["drop"]["keys"]:
        q = max(14, cell // 9)
        d.rectangle((x + cell // 2 - q // 2, y + 8, x + cell // 2 + q // 2, y + 8 + q), fill=GOLD)


def _draw_board(img: Image.Image, d: ImageDraw.ImageDraw, view: RageView, top: int, secret: WizardPrivate | None = None) -> None:
    cell = _cell(view)
    secret_tokens = secret["tokens"] if secret else {}
    secret_keys = set(secret["keys"] if secret else [])
    for t in view["tiles"]:
        i = t["i"]
        x, y = _xy(view, top, i)
        tokens = secret_tokens.get(str(i), [])
        tower = (view["tower_open"], view["keys_taken"], view.get("entrance")) if t["tower"] else None
        if tokens:  # the wizard's own marks may run over the next room: drawn in place
            _room(d, view, x, y, cell, t, tokens, i in secret_keys)
            continue
        # the room's box only (its first rows may hold the header's descenders, drawn before)
        TILES.paste(d, x + 2, y + 2, (cell - 3, cell - 3), BG, ("rage room", json.dumps(t, sort_keys=True), cell,
                                                                tower, i in secret_keys),
                    lambda d, x, y, t=t, i=i: _room(d, view, x - 2, y - 2, cell, t, [], i in secret_keys))
    hero_r = max(16, cell // 6)
    by_tile: dict[int, list[HeroView]] = {}
    for h in view["heroes"]:
        if h["alive"]:
            by_tile.setdefault(h["pos"], []).append(h)
    for i, hs in by_tile.items():
        x, y = _xy(view, top, i)
        r = hero_r if len(hs) <= 2 else max(12, int(hero_r * 0.75))
        for k, h in enumerate(hs):
            cx = x + cell / 2 + (k - (len(hs) - 1) / 2) * (r * 2 + 2)
            cy = y + cell * 0.56
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=seat_colour(h["seat"]),
                      outline=BLUE if h["frozen"] else INK, width=7 if h["frozen"] else 3)
            d.text((cx, cy), str(h["seat"]), font=font(max(18, r), bold=True), fill=DARK, anchor="mm")


def _hero_status(h: HeroView) -> list[str]:
    out = []
    if h["keys"]:
        out.append(f"{h['keys']} key{'s' if h['keys'] > 1 else ''}")
    if h["frozen"]:
        out.append("FROZEN")
    if h["committed"]:
        out.append("ready")
    return out


def hero_details(h: HeroView) -> str:
    """A hero's smaller line: where they stand, what their gear adds, their cards."""
    gear = ", ".join(e["name"] for e in h["equip"]) or "no equipment"
    cards = f"{h['hand_count']} card{'s' if h['hand_count'] != 1 else ''} in hand"
    return f"on {h['pos_label']} - combat +{h['attack']} - trap save +{h['save']} - {cards} - {gear}"


def wizard_line(view: RageView) -> str:
    """The wizard's resources in words: the Mana Wheel is the mana each turn."""
    w = view["wizard"]
    left = f", {w['mana_left']} left now" if w.get("mana_left") is not None else ""
    return (f"Mana Wheel {w['mana']} of {w['mana_max']} (mana per turn{left}) - "
            f"{w['hand_count']} card{'s' if w['hand_count'] != 1 else ''} in hand")


def _panel_height(view: RageView) -> int:
    """The height ``_draw_panel`` fills: the wizard's lines, then each hero's (a fallen one has no details)."""
    d = new_canvas(4, 4)[1]
    width = WIDTH - 2 * PAD - 2 * (HERO // 2) - 12
    details = sum(len(wrap_text(d, hero_details(h), font(DETAIL), width, 2)) for h in view["heroes"] if h["alive"])
    return 3 * STATUS + 28 + len(view["heroes"]) * (HERO + 24) + details * (DETAIL + 6) + 10


def _draw_panel(d: ImageDraw.ImageDraw, view: RageView, y: int) -> int:
    """The wizard's resources and one big line per hero (HP, keys, frozen, ready), details below; returns the
    panel's bottom."""
    x = PAD
    width = WIDTH - 2 * PAD
    big = font(STATUS, bold=True)
    name = fit_text(d, f"Wizard {view['wizard']['name']}", big, width)
    d.text((x, y), name, font=big, fill=PURPLE)
    y += STATUS + 10
    d.text((x, y), fit_text(d, wizard_line(view), font(DETAIL), width), font=font(DETAIL), fill=INK)
    y += STATUS + 4
    keys = f"Keys taken {view['keys_taken']} of 3" + ("  - the world crumbles!" if view["keys_found"] else "")
    d.text((x, y), keys, font=big, fill=RED if view["keys_found"] else GOLD)
    y += STATUS + 14
    hf = font(HERO, bold=True)
    df = font(DETAIL)
    for h in view["heroes"]:
        r = HERO // 2
        d.ellipse((x, y + 2, x + 2 * r, y + 2 + 2 * r), fill=seat_colour(h["seat"]))
        d.text((x + r, y + 2 + r), str(h["seat"]), font=font(HERO - 10, bold=True), fill=DARK, anchor="mm")
        status = ["fallen"] if not h["alive"] else [f"{h['hp']} HP"] + _hero_status(h)
        tail = "  " + "  ·  ".join(status)
        room = width - 2 * r - 12 - d.textlength(tail, font=hf)
        name = fit_text(d, h["name"], hf, max(80, room))
        d.text((x + 2 * r + 12, y), name, font=hf, fill=INK if h["alive"] else MUTED)
        d.text((x + 2 * r + 12 + d.textlength(name, font=hf), y), tail, font=hf,
               fill=(GREEN if h["alive"] else MUTED))
        y += HERO + 12
        if h["alive"]:
            for line in wrap_text(d, hero_details(h), df, width - 2 * r - 12, 2):
                d.text((x + 2 * r + 12, y), line, font=df, fill=MUTED)
                y += DETAIL + 6
        y += 12
    return y + 10



def _layout(view: RageView, extra_h: int = 0) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    """The canvas, the board's top and the panel's top."""
    top = _header_height(view)
    board_h = _cell(view) * view["size"]
    panel_top = top + board_h + _legend_height(view)
    img, d = new_canvas(WIDTH, panel_top + _panel_height(view) + extra_h)
    _draw_header(d, view)
    _draw_legend(d, view, top + board_h)
    return img, d, top, panel_top


def render_board(view: RageView) -> Image.Image:
    """The public board: the dungeon's rooms, the heroes on them, and each hero's state."""
    img, d, top, panel_top = _layout(view)
    _draw_board(img, d, view, top)
    _draw_panel(d, view, panel_top)
    return img


def _callout(d: ImageDraw.ImageDraw, x: float, y: float, number: int) -> None:
    r = 24
    d.ellipse((x - r, y - r, x + r, y + r), fill=BG, outline=GOLD, width=4)
    d.text((x, y), str(number), font=font(30, bold=True), fill=GOLD, anchor="mm")


def howto_callouts(view: RageView) -> list[tuple[tuple[float, float], str]]:
    """Where the how-to-play picture's numbers go on the board, and what each one names."""
    top = _header_height(view)
    cell = _cell(view)
    tiles = view["tiles"]
    private: dict[str, Any] = dict(view.get("private") or {})
    seat = private.get("seat")
    heroes = [h for h in view["heroes"] if h["alive"]]
    me = next((h for h in heroes if h["seat"] == seat), heroes[0] if heroes else None)
    out: list[tuple[tuple[float, float], str]] = [
        ((WIDTH - PAD - 30, PAD + 20), "The round and the last one: the wizard wins when it ends.")]

    def at(i: int, dx: float, dy: float) -> tuple[float, float]:
        x, y = _xy(view, top, i)
        return x + dx * cell, y + dy * cell
    if me is not None:
        out.append((at(me["pos"], 0.17, 0.66), f"A hero's disc ({me['name']}: seat {me['seat']}). The heroes are one "
                                              "team; each round every hero picks a move in secret."))
    camp = next((t["i"] for t in tiles if t["camp"] and not any(h["pos"] == t["i"] for h in heroes)), None)
    if camp is not None:
        out.append((at(camp, 0.5, 0.55), "A camp: where a hero starts."))
    unknown = next((t["i"] for t in tiles if not t["up"] and not t["removed"] and not t["hidden_tokens"]), None)
    if unknown is not None:
        out.append((at(unknown, 0.5, 0.55), "An unexplored room (\"?\"): enter it to turn it over; if no monster is "
                                             "there you loot a card. Three of them hide the keys."))
    token = min((t["i"] for t in tiles if t["hidden_tokens"]), key=lambda i: (tiles[i]["hidden_tokens"] > 1,
                                                                             bool(tiles[i].get("sense")), i), default=None)
    if token is not None:
        out.append((at(token, 0.62, 0.78), "Face-down tokens (\"?\" cards, x2 = two): a monster, a trap or a "
                                            "decoy; they turn over when a hero enters."))
    if view["tower"] is not None:
        out.append((at(view["tower"], 0.84, 0.16), "The tower; its gold bar is the door. Bring the 3 keys to the tile "
                                                   "in front of it, then storm it to win."))
    sensed = min((t["i"] for t in tiles if t.get("sense")), key=lambda i: (tiles[i]["hidden_tokens"] > 0,
                                                                         any(h["pos"] == i for h in heroes), i),
                 default=None)
    if sensed is not None:
        out.append((at(sensed, 0.84, 0.5), "Scouting: how many key vaults lie within 2 steps of this room."))
    monsters = min((t["i"] for t in tiles if t["monsters"]), key=lambda i: (tiles[i]["hidden_tokens"] > 0, i),
                   default=None)
    if monsters is not None:
        out.append((at(monsters, 0.2, 0.82), "Face-up monsters and their total level: entering means a fight."))
    panel = top + cell * view["size"] + _legend_height(view)
    out.append(((WIDTH - PAD - 30, top + cell * view["size"] + 4), "The legend: every symbol on the board."))
    out.append(((WIDTH - PAD - 30, panel + STATUS), "The wizard's Mana Wheel: the mana to spend each turn."))
    out.append(((WIDTH - PAD - 30, panel + 3 * (STATUS + 10) + 30),
                "Each hero: hit points, keys, then their square, combat and trap-save bonuses and gear."))
    return out


def render_howto(view: RageView) -> Image.Image:
    """The how-to-play picture: the board with numbered callouts, and what each number names under it."""
    board = render_board(view)
    callouts = howto_callouts(view)
    d0 = new_canvas(4, 4)[1]
    f = font(30)
    lines = [(k + 1, wrap_text(d0, words, f, WIDTH - 2 * PAD - 70, 3)) for k, (_, words) in enumerate(callouts)]
    extra = 20 + sum(len(wrapped) * 38 + 14 for _, wrapped in lines)
    img, d = new_canvas(WIDTH, board.height + extra)
    img.paste(board, (0, 0))
    for k, ((x, y), _) in enumerate(callouts):
        _callout(d, x, y, k + 1)
    y = board.height + 20
    for number, wrapped in lines:
        _callout(d, PAD + 24, y + 19, number)
        for line in wrapped:
            d.text((PAD + 70, y), line, font=f, fill=INK)
            y += 38
        y += 14
    return img


def render_private(view: RageView) -> Image.Image | None:
    """The wizard's secret board (tokens and key vaults) and hand; None for a hero."""
    priv = view.get("private")
    if priv is None or priv["role"] != "wizard":
        return None
    hand = priv["hand"] + priv["opening"]
    line_h = DETAIL + 12
    extra = 3 * line_h + line_h * (len(hand) + 1)
    img, d, top, panel_top = _layout(view, extra)
    _draw_board(img, d, view, top, secret=priv)
    _draw_panel(d, view, panel_top)
    y = panel_top + _panel_height(view)
    norm = font(DETAIL)
    for line in wrap_text(d, "Your secret board: beside each \"?\" card, a red number = your monster's level, "
                             "T = a trap, D = a decoy (6D = six); a gold frame = your hidden key vault.", norm,
                          WIDTH - 2 * PAD, 3):
        d.text((PAD, y), line, font=norm, fill=GOLD)
        y += line_h
    label = "Opening draw (keep 3)" if priv.get("opening") else f"Your hand ({priv.get('mana_left', 0)} mana left)"
    d.text((PAD, y), label, font=font(STATUS, bold=True), fill=INK)
    y += line_h + 6
    for c in hand:
        d.text((PAD + 10, y), fit_text(d, f"{c['name']} ({c['cost']} mana): {c['text']}", norm, WIDTH - 3 * PAD),
               font=norm, fill=INK)
        y += line_h
    return img


def render_final(view: RageView, scores: list[dict[str, Any]] | None = None) -> Image.Image:
    """The board as the game ended, with who won over it."""
    img = render_board(view)
    d = drawing(img)
    winner = view.get("winner")
    text = "The heroes win!" if winner == "heroes" else "The wizard wins!"
    f = font(52, bold=True)
    w = max(d.textlength(text, font=f) + 60, WIDTH * 0.7)
    cx = WIDTH / 2
    cy = _header_height(view) + _cell(view) * view["size"] / 2
    d.rounded_rectangle((cx - w / 2, cy - 90, cx + w / 2, cy + 90), radius=14, fill=BG, outline=GOLD, width=4)
    d.text((cx, cy - 40), text, font=f, fill=GOLD, anchor="mm")
    for k, line in enumerate(wrap_text(d, view.get("end_reason", ""), font(EVENT), w - 40, 2)):
        d.text((cx, cy + 14 + k * (EVENT + 8)), line, font=font(EVENT), fill=INK, anchor="mm")
    return img


def describe(view: RageView) -> str:
    """Alt text for the public board (at most 1,000 characters), from the public view only."""
    parts = []
    round_txt = (f"Round {view['round']} of {view['round_limit']} (the wizard wins when it ends)" if view["round"]
                 else "Setup")
    parts.append(f"Wizard's Rage, {round_txt}. {view.get('status', '')}")
    if view.get("winner") and view.get("end_reason") != view.get("status"):
        parts.append(view.get("end_reason", ""))
    recent = [t.replace("**", "") for t in view.get("recent") or [] if t not in (view.get("status"), view.get("end_reason"))]
    if recent:
        parts.append("Just now: " + recent[-1])
    w = view["wizard"]
    parts.append(f"Wizard {w['name']}: Mana Wheel {w['mana']} of {w['mana_max']} (mana per turn), {w['hand_count']} "
                 "cards in hand. "
                 f"Keys found {view['keys_taken']} of 3" + (", the rage has begun." if view["keys_found"] else "."))
    for h in view["heroes"]:
        if not h["alive"]:
            parts.append(f"{h['name']} has fallen.")
            continue
        extra = ", ".join(_hero_status(h)).replace("FROZEN", "frozen")
        parts.append(f"{h['name']} on {h['pos_label']} with {h['hp']} HP" + (f", {extra}" if extra else "") + ".")
    tiles = [t for t in view["tiles"] if not t["removed"]]
    monsters = [f"{t['label']} level {sum(m['level'] for m in t['monsters'])}" for t in tiles if t["monsters"]]
    tokens = [f"{t['label']} ({t['hidden_tokens']})" for t in tiles if t["hidden_tokens"]]
    if monsters:
        parts.append("Monsters on " + ", ".join(monsters) + ".")
    if tokens:
        parts.append("Face-down tokens on " + ", ".join(tokens) + ".")
    text = " ".join(p.strip() for p in parts if p.strip())
    return text if len(text) <= 1000 else text[:999] + "…"
