"""Wizard's Rage: the words (rules summary, status line, move descriptions, refusals, private hand text)."""
from __future__ import annotations

from typing import Any

from . import board, cards
from .constants import DIR_NAMES, FREE_LIMIT, HERO_HP

SUMMARY = """**Wizard's Rage** - the table's first seat is the **Wizard**; everyone else is a **hero** (10 hit points, starting in a corner camp), and the heroes play as one team.
**Goal.** Heroes: find the 3 hidden keys, bring them to the tower's door and storm the tower. Wizard: stop them until every hero falls or the last round ends ("Round 3 of 16").
The board is a face-down grid (5x5 / 6x6 / 7x7 for 3 / 4 / 5 players) with the wizard's tower in the centre. The wizard secretly hid **3 key tiles**.

**Round** = the wizard's turn, then all heroes move at once.
**Wizard turn:** (after the keys are all found: the *rage* - tiles crumble, as many as there are players) draw 1 card (+1 if the Mana Wheel is at its maximum 8), then play cards with mana up to the wheel's value; the turn ends when you end it or nothing is playable. A monster or trap card goes face down with a blank decoy; everyone sees only the set of tiles (max tokens per tile = number of players; never on a hero's tile; the tower only after all keys were found). Ley Tap, Dark Surge and Scrying Pool act when drawn. Hand limit 6.
**Heroes:** before committing you may drink potions, equip, or give cards/keys to heroes on your tile (even when frozen). Then commit a move: 1 tile, stay, quick march (2 tiles over a token-free first room, 3 over known safe rooms) or Sprint (a card: 2-3 tiles through anything, even when frozen); where several ways reach a tile you pick the tile, then the way. Moves are secret until everyone has committed.
- Entering a face-down room turns it over: it makes the wizard draw or discard and turns the Mana Wheel. **Scouting:** the room shows how many key vaults lie within 2 steps.
- Tokens on your tile flip: decoys vanish; **traps**: d20 + trap save 10+ or take 2 damage; **monsters** fight.
- An empty room you enter for the first time gives 1 loot card.
- **Combat:** wizard rolls d20 + all monster levels; heroes roll d20 each, keep the best, add all their equipment. Ties go to the heroes. Win: monsters removed, 1 loot (2 on the room's first victory). Lose: step back and take each monster's damage (1 for small ones, 2-3 for big ones).
- Standing on tokens at the start of your turn (Ambush!) means you can't move: you fight where you are.
- Equipment: 2 swords, 1 boots, 1 shield. A dead hero drops everything on the tile, for the next hero standing there.
**Keys:** taken from an empty (or cleared) key tile. Heroes on the tile in front of the tower's door, holding all 3 keys between them, may enter the tower (the keys are used; it stays open). Beat the tower's monsters (or find none) and the heroes win.
**Rules option:** `tuned` (default, above) or `rulebook`: 1 damage per monster, the wizard places every decoy and picks every crumbling tile, no quick march, no scouting."""


# Sentences players read: never decide anything here.


# ------------------------------------------------------------------ text
def status_line(state: dict) -> str:
    """Whose move it is and what they are deciding (or how the game ended)."""
    phase = state["phase"]
    names = state["names"]
    wiz = names[0]
    if phase == "over":
        return state["end_reason"] or "Game over."
    if phase == "tower":
        return f"{wiz} (wizard) chooses where the tower stands."
    if phase == "entrance":
        return f"{wiz} (wizard) chooses which way the tower door faces."
    if phase == "keys":
        return f"{wiz} (wizard) hides key {state['keys_hidden'] + 1} of 3 - heroes, close your eyes!"
    if phase == "keep":
        return f"{wiz} (wizard) keeps 3 of 5 opening cards."
    if phase == "wizard":
        pending = state["pending"]
        base = f"Round {state['round']} of {state['round_limit']}: {wiz} (wizard)"
        if pending and pending["kind"] == "rage":
            return f"{base} rages: pick where {pending['left']} tiles crumble."
        if pending and pending["kind"] == "place":
            return f"{base} places {pending.get('total') or sum(pending.get('left', {}).values())} face-down tokens."
        if pending:
            return f"{base} picks a target."
        return f"{base} plays cards ({board.mana_left(state)} mana left)."
    waiting = [names[s] for s in board.seats_to_act(state)]
    return f"Round {state['round']} of {state['round_limit']}: heroes move - waiting for " + \
        ", ".join(waiting) + "."


def describe_action(state: dict, seat: int, action: dict) -> str:
    """An action in words for the move list and the log ("Move to B3", "Play Fireball")."""
    typ = action["type"]
    lab = lambda i: board.label(state, i)  # noqa: E731
    if typ == "tower":
        return f"Raise the tower on {lab(action['tile'])}"
    if typ == "entrance":
        ent = board._step(state, state["tower"], action["dir"]) if state["tower"] is not None else None
        return f"Door faces {DIR_NAMES[action['dir']]}" + (f" ({lab(ent)})" if ent is not None else "")
    if typ == "hide_key":
        return f"Hide a key on {lab(action['tile'])}"
    if typ == "keep":
        return "Keep " + ", ".join(board.wizard_card(state, c)["name"] for c in action["cards"])
    if typ == "remove":
        if board.rulebook(state):
            return f"Crumble {lab(action['tile'])}"
        return f"Crumble {lab(action['tile'])} (and the safe tiles nearest it)"
    if typ == "discard":
        return f"Discard {board.wizard_card(state, action['card'])['name']}"
    if typ == "end_turn":
        return "End turn"
    if typ == "play":
        d = board.wizard_card(state, action["card"])
        return f"Play {d['name']} ({d['cost']} mana)"[:80]
    if typ == "place":
        cid = state["wizard"]["pending_card"]
        name = board.wizard_card(state, cid)["name"] if cid is not None else "the card"
        picks = (state["pending"] or {}).get("picks")
        decoys = state["pending"]["total"] - 1 if state["pending"] else 1
        if picks:
            which = "the decoy" if decoys == 1 else f"decoy {len(picks)} of {decoys}"
            return f"Put {which} on {lab(action['tile'])}"
        word = "decoy" if decoys == 1 else "decoys"
        if picks is not None:
            return f"Put {name} on {lab(action['tile'])} (then its {word})"[:80]
        return f"Put {name} on {lab(action['tile'])} (its {word} drawn)"[:80]
    if typ == "target":
        return f"Target {lab(action['tile'])}"
    if typ == "move":
        if action["to"] == state["tower"]:
            return "Enter the tower!"
        hero = state["heroes"][seat]
        way = _dir_between(state, hero["pos"], action["to"])
        return f"Move {way} to {lab(action['to'])}"
    if typ == "stay":
        return "Stay (fight here)" if seat and board.stuck(state, seat) else "Stay where you are"
    if typ == "go":
        hero = state["heroes"][seat]
        (r0, c0), (r1, c1) = divmod(hero["pos"], state["size"]), divmod(action["to"], state["size"])
        steps = abs(r0 - r1) + abs(c0 - c1)
        return f"Go to {lab(action['to'])} ({steps} tile{'s' if steps != 1 else ''} away: then pick the way)"
    if typ == "back":
        return "Back: pick another tile"
    if typ in ("sprint", "march"):
        path = action["path"]
        via = ", ".join(lab(i) for i in path[:-1])
        how = "spends your Sprint card" if typ == "sprint" else "free"
        verb = "Sprint" if typ == "sprint" else "March"
        return f"{verb} {len(path)} tiles to {lab(path[-1])} via {via} ({how})"[:80]
    if typ == "use":
        return f"Use {board.loot_card(state, action['card'])['name']}"
    if typ == "banish":
        return f"Banish Scroll on {lab(action['tile'])}"
    if typ == "equip":
        d = board.loot_card(state, action["card"])
        if action.get("replace") is not None:
            return f"Equip {d['name']} instead of {board.loot_card(state, action['replace'])['name']}"[:80]
        return f"Equip {d['name']}"
    if typ == "give":
        return f"Give {board.loot_card(state, action['card'])['name']} to {state['names'][action['to']]}"[:80]
    if typ == "give_key":
        return f"Give a key to {state['names'][action['to']]}"[:80]
    return typ


def _dir_between(state: dict, a: int, b: int) -> str:
    for d in "NESW":
        if board._step(state, a, d) == b:
            return DIR_NAMES[d]
    return ""


def action_group(state: dict, seat: int, action: dict) -> str:
    """The heading an action is listed under in the move panel."""
    typ = action["type"]
    if typ == "place":
        return "Place the decoy" if (state["pending"] or {}).get("picks") else "Place the card's real token"
    return {"tower": "Tower", "entrance": "Door", "hide_key": "Hide a key", "keep": "Opening hand",
            "remove": "Rage: crumble a tile", "discard": "Discard", "end_turn": "Turn", "play": "Play a card",
            "target": "Target", "move": "Move", "stay": "Move", "go": "Move", "back": "Move", "sprint": "Move",
            "march": "Move", "use": "Items",
            "banish": "Items", "equip": "Items", "give": "Give", "give_key": "Give"}.get(typ, "Moves")


def illegal_message(state: dict, seat: int, action: dict) -> str:
    """Why an action is refused (frozen, stuck with monsters, out of mana, hand too full, ...)."""
    typ = action.get("type") if isinstance(action, dict) else None
    phase = state["phase"]
    if phase == "heroes" and seat:
        hero = state["heroes"][seat]
        if hero["frozen"] and typ in ("move", "march"):
            return "You are frozen by a Frost Bolt: you can't move this turn (items, even a Sprint, still work)."
        if typ in ("move", "sprint", "march") and board.stuck(state, seat):
            return "You can't move: there are tokens on your tile, so you fight where you stand."
        if typ == "move" and action.get("to") == state["tower"]:
            return ("The tower opens only from the tile its door faces, for heroes there holding all 3 keys "
                    "between them.")
        if typ == "move":
            return "You can move one tile north, east, south or west onto a tile that still exists."
        if typ in ("give", "give_key"):
            return "You can only give cards or keys to a living hero on your own tile."
        if typ in ("use", "banish", "equip", "give", "give_key") and hero["free"] >= FREE_LIMIT:
            return f"You have used your {FREE_LIMIT} item actions this turn: commit a move."
    if phase == "wizard":
        pending = state["pending"]
        if typ == "play":
            cid: Any = action.get("card")
            if cid in state["wizard"]["hand"] and board.wizard_card(state, cid)["cost"] > board.mana_left(state):
                return f"Not enough mana: you have {board.mana_left(state)} left this turn."
            return "You can't play that card now (no legal place or target for it)."
        if typ == "place":
            return ("Tokens go on an existing tile without heroes, at most "
                    f"{board.tile_capacity(state)} per tile; the tower only after all keys are found (never traps).")
        if typ == "remove":
            return ("The rage can't remove the tower's ring, a hero's tile, a tile with dropped items, "
                    "or a tile that would cut a hero off from the tower or a dropped key.")
        if typ == "end_turn" and pending:
            return "Finish the current card first."
        if typ == "end_turn":
            return f"Discard down to {cards.HAND_LIMIT} cards before ending your turn."
    return "That move isn't allowed right now."


def private_text(view: dict) -> str:
    """A seat's private view in words: the wizard's hand and tokens, or a hero's hit points, keys and cards."""
    p = view.get("private") or {}
    if p.get("role") == "wizard":
        lines = [f"**You are the wizard.** You win if every hero falls or round {view['round_limit']} ends; the "
                 "heroes win by storming your tower with the 3 keys.",
                 f"**Mana Wheel** {view['wizard']['mana']} of {view['wizard']['mana_max']} (your mana each turn), "
                 f"{p['mana_left']} left this turn."]
        if p["opening"]:
            lines.append("**Opening draw (keep 3):** " + ", ".join(c["name"] for c in p["opening"]))
        lines.append("**Hand:** " + (", ".join(f"{c['name']} ({c['cost']} mana)" for c in p["hand"]) or "empty"))
        labels = {t["i"]: t["label"] for t in view["tiles"]}
        if p.get("playing"):
            picks = (p.get("pending") or {}).get("picks") or []
            placed = (" - real token on " + labels[picks[0]] + "".join(
                f", decoy {k} on {labels[i]}" for k, i in enumerate(picks[1:], 1))) if picks else ""
            lines.append(f"**Playing:** {p['playing']['name']}{placed}")
        if p["keys"]:
            lines.append("**Keys hidden on:** " + ", ".join(labels[i] for i in p["keys"]))
        if p["tokens"]:
            parts = []
            for i, toks in sorted(p["tokens"].items(), key=lambda kv: int(kv[0])):
                names = [f"{t['name']} L{t['level']}" if t["kind"] == "monster" else t["kind"].replace(
                    "blank", "decoy") for t in toks]
                parts.append(f"{labels[int(i)]}: {', '.join(names)}")
            lines.append("**Your face-down tokens:** " + "; ".join(parts))
        return "\n".join(lines)
    me = next((h for h in view["heroes"] if h["seat"] == p.get("seat")), None)
    lines = [f"**You are a hero** (your disc on the board shows {p.get('seat')}). The heroes win together: find "
             f"the 3 keys, bring them to the tower's door and storm it. The wizard wins if every hero falls or "
             f"round {view['round_limit']} ends.",
             f"**Hit points:** {p.get('hp')} of {HERO_HP}  **Keys:** {p.get('keys')}"]
    gear = ", ".join(c["name"] for c in p.get("equip", [])) or "nothing"
    bonus = f" (combat +{me['attack']}, trap save +{me['save']})" if me else ""
    lines.append(f"**Equipped:** {gear}{bonus}")
    lines.append("**Hand:** " + (", ".join(f"{c['name']} ({c['text']})" for c in p.get("hand", [])) or "empty"))
    if p.get("commit_text"):
        lines.append(f"**Committed move:** {p['commit_text']}")
    return "\n".join(lines)

