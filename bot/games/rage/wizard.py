"""Wizard's Rage: the wizard's turn (the rage, drawing, playing monster, trap and spell cards)."""
from __future__ import annotations

from typing import Callable

from bot.engine import RuleError
from bot.rng import Rng

from . import board, cards, loot, placement, views
from .constants import AMBUSH_LEVEL, DIR_NAMES, TRAP_DAMAGE

# What the wizard may do on their turn, and what it does.


# ------------------------------------------------------------------ wizard actions
def _wizard_actions(state: dict) -> list[dict]:
    pending = state["pending"]
    if pending:
        kind = pending["kind"]
        if kind == "rage":
            return [{"type": "remove", "tile": i} for i in safe_removals(state)]
        if kind == "place":
            return [{"type": "place", "tile": i} for i in place_options(state)]
        if kind == "target":
            return [{"type": "target", "tile": i} for i in spell_targets(state, pending["effect"])]
        if kind == "turn_tower":
            return [{"type": "entrance", "dir": d} for d in "NESW" if d != state["entrance"]]
        return []
    wizard = state["wizard"]
    out = []
    seen = set()
    for cid in sorted(wizard["hand"]):
        key = state["wcards"][cid]
        if key in seen:
            continue
        seen.add(key)
        if playable(state, cid):
            out.append({"type": "play", "card": cid})
    if len(wizard["hand"]) > cards.HAND_LIMIT:
        seen = set()
        for cid in sorted(wizard["hand"]):
            key = state["wcards"][cid]
            if key not in seen:
                seen.add(key)
                out.append({"type": "discard", "card": cid})
    else:
        out.append({"type": "end_turn"})
    return out


def place_options(state: dict) -> list[int]:
    """The tiles the card being placed may put its next token on: the placeable ones, less those its own
    earlier tokens (the rulebook's one by one placing) already fill."""
    pending = state["pending"]
    picks = pending.get("picks") or []
    tiles = board.placeable(state, pending["trap"])
    if not picks:
        return tiles
    room = board.tile_capacity(state)
    return [i for i in tiles if len(state["tiles"][i]["tokens"]) + picks.count(i) < room]


def playable(state: dict, cid: int) -> bool:
    """Whether the wizard can play card ``cid`` now: affordable, and it has a legal tile or target."""
    card = board.wizard_card(state, cid)
    if card["cost"] > board.mana_left(state):
        return False
    if card["kind"] in ("monster", "trap"):
        spots = board.placeable(state, card["kind"] == "trap")
        if not board.rulebook(state):  # tuned: the decoys take no room (``counted_tokens``)
            return bool(spots)
        return sum(board.tile_capacity(state) - board.counted_tokens(state, i) for i in spots) >= 1 + card["decoys"]
    eff = card["effect"]
    if eff in ("frost", "fireball", "ambush"):
        return bool(spell_targets(state, eff))
    return True


def spell_targets(state: dict, effect: str) -> list[int]:
    """Tiles a spell may target: those with heroes (ambush: no tower, no tokens; frost: someone not frozen)."""
    tiles = sorted({state["heroes"][s]["pos"] for s in board.living(state)})
    if effect == "ambush":  # never on the tower, never on a tile that already has tokens
        tiles = [i for i in tiles if i != state["tower"] and not state["tiles"][i]["tokens"]]
    if effect == "frost":  # a hero who just thawed can't be frozen again at once
        tiles = [i for i in tiles if any(not state["heroes"][s]["frozen"] and not state["heroes"][s]["thawed"]
                                         for s in board.heroes_on(state, i))]
    return tiles


def safe_removals(state: dict) -> list[int]:
    """Tiles the rage may remove: not the tower or its ring, no hero or dropped items on it,
    and every living hero still reaches the tower entrance and every dropped key."""
    ent = board.door(state)
    ring = board.ring(state)
    heroes = [state["heroes"][s]["pos"] for s in board.living(state)]
    key_drops = [i for i, tile in enumerate(state["tiles"]) if tile["drop"]["keys"] and not tile["removed"]]
    whole = board.component(state, ent)
    if not (all(h in whole for h in heroes) and all(k in whole for k in key_drops)):
        return []  # someone is cut off already: no removal can join them again
    cuts = board.cut_tiles(state, ent)
    out = []
    for i, tile in enumerate(state["tiles"]):
        if tile["removed"] or i == state["tower"] or i in ring or i in heroes:
            continue
        if tile["drop"]["cards"] or tile["drop"]["keys"]:
            continue
        if i in cuts:  # only a tile that splits the board can cut a hero or a key off the door
            comp = board.component(state, ent, without=i)
            if not (all(h in comp for h in heroes) and all(k in comp for k in key_drops)):
                continue
        out.append(i)
    return out


# ------------------------------------------------------------------ wizard turn
def _start_wizard_turn(state: dict) -> list[dict]:
    state["phase"] = "wizard"
    state["wizard"]["spent"] = -state["wizard"].pop("bonus", 0)  # a Dark Surge drawn on the heroes' turn
    events = [board._event("turn", f"Round {state['round']}: {state['names'][0]}, the wizard, takes a turn.")]
    if state["keys_found"]:
        left = state["n"]
        if safe_removals(state):
            state["pending"] = {"kind": "rage", "left": left}
            events.append(board._event("rage", f"The wizard rages: the world shakes and {left} tiles will crumble."))
            return events
        events.append(board._event("rage", "The wizard rages, but no tile can crumble."))
    events.extend(_wizard_draw(state))
    return events


def _wizard_draw(state: dict) -> list[dict]:
    wizard = state["wizard"]
    k = 2 if wizard["mana"] >= cards.MANA_MAX else 1
    events: list[dict] = []
    every: list[int] = []
    drawn = _draw_wizard(state, k, events, every)
    extra = " (the Mana Wheel is full: +1)" if k == 2 else ""
    events.insert(0, board._event("draw", f"The wizard draws {len(every)} card{'s' if len(every) != 1 else ''}{extra}."))
    if drawn:
        events.append(board._event("draw", "You draw " + ", ".join(board.wizard_card(state, c)["name"] for c in drawn) + ".",
                          to=0))
    return events


def _draw_wizard(state: dict, k: int, events: list[dict] | None = None,
                 every: list[int] | None = None) -> list[int]:
    """Draw k cards into the wizard's hand; returns those that stay there (``every`` collects all the cards
    drawn). An *instant* card (Ley Tap, Dark Surge) acts at once when drawn and is discarded -- its events go
    to ``events``."""
    wizard = state["wizard"]
    drawn = []
    instants = []
    for _ in range(k):
        if not wizard["deck"]:
            if not wizard["discard"]:
                break
            wizard["deck"] = wizard["discard"]
            wizard["discard"] = []
            Rng(state).shuffle(wizard["deck"])
        cid = wizard["deck"].pop()
        if every is not None:
            every.append(cid)
        board._note_held(state, "w", state["wcards"][cid])
        if board.wizard_card(state, cid).get("instant") and events is not None:
            wizard["discard"].append(cid)
            instants.append(cid)
            continue
        wizard["hand"].append(cid)
        drawn.append(cid)
    for cid in instants:  # set aside only when there is an ``events`` to report them in
        assert events is not None
        events.extend(_instant(state, cid))
    return drawn


def _instant(state: dict, cid: int) -> list[dict]:
    card = board.wizard_card(state, cid)
    wizard = state["wizard"]
    acted = state.setdefault("acted", [])
    if card["key"] not in acted:
        acted.append(card["key"])
    text = card["text"].removeprefix("Acts when drawn: ")
    events = [board._event("spell", f"The wizard draws **{card['name']}**, which acts at once: {text}")]
    if card["effect"] == "wheel":
        events.extend(_spin(state, card["amount"]))
    elif card["effect"] == "surge":
        if state["phase"] == "wizard":
            wizard["spent"] -= card["amount"]
            events.append(board._event("spell", f"The wizard has {board.mana_left(state)} mana left this turn."))
        else:
            wizard["bonus"] = wizard.get("bonus", 0) + card["amount"]
    elif card["effect"] == "scry":
        drawn = _draw_wizard(state, card["amount"], events)
        if drawn:
            events.append(board._event("draw", "You draw " + ", ".join(board.wizard_card(state, c)["name"] for c in drawn) + ".",
                              to=0))
    return events


def _wizard_phase_options(state: dict, seat: int) -> list[dict]:
    return _wizard_actions(state)


def _apply_wizard_phase(state: dict, seat: int, action: dict) -> list[dict]:
    return _apply_wizard(state, action)


def _apply_wizard(state: dict, action: dict) -> list[dict]:
    handler = WIZARD_ACTIONS.get(action["type"])
    if handler is None:
        raise RuleError("That move isn't allowed right now.")
    return handler(state, action)


def _do_remove(state: dict, action: dict) -> list[dict]:
    """The rage. By the rulebook the wizard "chooses a number of tiles equal to the number of players ...
    and remove them": one decision per tile, until as many are gone or none is safe. Tuned, one decision:
    the wizard picks where the world breaks; the crack spreads to the safe tiles nearest to it (ties by the
    game's dice) until as many tiles as players are gone."""
    i = action["tile"]
    events = _remove_tile(state, i)
    if board.rulebook(state):
        state["pending"]["left"] -= 1
        if state["pending"]["left"] > 0 and safe_removals(state):
            return events
        state["pending"] = None
        events.extend(_wizard_draw(state))
        return events
    rng = Rng(state)
    r0, c0 = board.row_col(state, i)
    for _ in range(state["pending"]["left"] - 1):
        safe = safe_removals(state)
        if not safe:
            break
        dist = {j: abs(board.row_col(state, j)[0] - r0) + abs(board.row_col(state, j)[1] - c0) for j in safe}
        near = [j for j in safe if dist[j] == min(dist.values())]
        events.extend(_remove_tile(state, near[rng.below(len(near))]))
    state["pending"] = None
    events.extend(_wizard_draw(state))
    return events


def _do_discard(state: dict, action: dict) -> list[dict]:
    wizard = state["wizard"]
    cid = action["card"]
    wizard["hand"].remove(cid)
    wizard["discard"].append(cid)
    return [board._event("discard", "The wizard discards a card down to the hand limit."),
            board._event("discard", f"You discard {board.wizard_card(state, cid)['name']}.", to=0)]


def _start_hero_phase(state: dict) -> list[dict]:
    """The wizard's turn is over: the heroes' phase starts (every living hero commits a move)."""
    state["phase"] = "heroes"
    state["commits"] = {}
    for s in board.living(state):
        hero = state["heroes"][s]
        hero["free"] = 0
    return []


def _do_end_turn(state: dict, action: dict) -> list[dict]:
    events = [board._event("end", "The wizard ends the turn. Heroes, commit your moves!")]
    events.extend(_start_hero_phase(state))
    return events


def _do_play(state: dict, action: dict) -> list[dict]:
    wizard = state["wizard"]
    cid = action["card"]
    card = board.wizard_card(state, cid)
    wizard["hand"].remove(cid)
    wizard["spent"] += card["cost"]
    wizard["pending_card"] = cid
    if card["kind"] in ("monster", "trap"):
        total = 1 + card["decoys"]
        state["pending"] = {"kind": "place", "trap": card["kind"] == "trap", "total": total}
        decoys = "decoy" if card["decoys"] == 1 else f"{card['decoys']} decoys"
        if board.rulebook(state):
            state["pending"]["picks"] = []
            mine = (f"You play {card['name']}: pick the tile for the {_real_word(card)}, then one for "
                    f"its {decoys}. Nobody sees a tile before the last one is placed.")
        else:
            mine = (f"You play {card['name']}: pick the tile for the {_real_word(card)}; its {decoys} "
                    "goes where the wizard bot would put a real token, so nothing tells them apart.")
        return [board._event("play", f"The wizard plays a card ({card['cost']} mana): {total} face-down "
                                "tokens will appear."),
                board._event("play", mine, to=0)]
    events = [board._event("spell", f"The wizard casts **{card['name']}** ({card['cost']} mana): {card['text']}")]
    eff = card["effect"]
    if eff in ("frost", "fireball", "ambush"):
        state["pending"] = {"kind": "target", "effect": eff}
        return events
    if eff == "turn_tower":
        state["pending"] = {"kind": "turn_tower"}
        return events
    events.extend(_play_at_once(state, card))
    _finish_card(state)
    return events


def _play_at_once(state: dict, d: dict) -> list[dict]:
    """A played spell without a target: Dark Surge, Ley Tap, Scrying Pool."""
    eff = d["effect"]
    events: list[dict] = []
    if eff == "surge":
        state["wizard"]["spent"] -= d["amount"]
        events.append(board._event("spell", f"The wizard has {board.mana_left(state)} mana left this turn."))
    elif eff == "wheel":
        events.extend(_spin(state, d["amount"]))
    elif eff == "scry":
        every: list[int] = []
        drawn = _draw_wizard(state, d["amount"], events, every)
        events.append(board._event("draw", f"The wizard draws {len(every)} card{'s' if len(every) != 1 else ''}."))
        if drawn:
            events.append(board._event("draw", "You draw " + ", ".join(board.wizard_card(state, c)["name"] for c in drawn)
                              + ".", to=0))
    return events


def _do_place(state: dict, action: dict) -> list[dict]:
    pending = state["pending"]
    if "picks" not in pending:  # tuned: one decision, the decoys drawn by the engine
        events = _place_card(state, action["tile"])
        _finish_card(state)
        return events
    pending["picks"].append(action["tile"])  # the rulebook: the wizard places every token, none shown yet
    picks = pending["picks"]
    if len(picks) < pending["total"]:
        done = "the real token" if len(picks) == 1 else f"decoy {len(picks) - 1}"
        then = "the decoy" if pending["total"] == 2 else f"decoy {len(picks)} of {pending['total'] - 1}"
        return [board._event("place", f"You put {done} on {board.label(state, action['tile'])}; now {then}.",
                            to=0)]
    events = _place_tokens(state, picks[0], picks[1:])
    _finish_card(state)
    return events


def _do_target(state: dict, action: dict) -> list[dict]:
    events = _cast(state, state["pending"]["effect"], action["tile"])
    _finish_card(state)
    events.extend(board._check_wizard_win(state))
    if state["phase"] != "over":
        events.extend(loot._settle_drops(state))
    return events


def _do_turn_tower(state: dict, action: dict) -> list[dict]:
    state["entrance"] = action["dir"]
    events = [board._event("spell", f"The tower turns: its door now faces {DIR_NAMES[action['dir']]} "
                           f"({board.label(state, board.door(state))}).")]
    _finish_card(state)
    return events


def _real_word(d: dict) -> str:
    if d["kind"] == "trap":
        return "trap"
    return "monsters" if d.get("monsters", 1) > 1 else "monster"


def decoy_tiles(state: dict, real: int, count: int, trap: bool) -> list[int]:
    """Where a card's decoys go (tuned rules) once the wizard put its real token on ``real``: ``count``
    other tiles drawn from the weights the wizard bot places a real token by (``placement``), given the
    real one, so every tile of the set is the real one with the same chance (see ``placement``)."""
    tiles = board.placeable(state, trap)
    rng = Rng(state)
    return placement.draw(tiles, placement.weights(views.view(state, 0), tiles), 1 + count,
                          lambda: rng.next64() / 2 ** 64, taken=[real])


def _place_card(state: dict, real: int) -> list[dict]:
    """Tuned: one decision, the card's real token (a monster gang or a trap) on ``real``, its decoys drawn."""
    card = board.wizard_card(state, state["wizard"]["pending_card"])
    return _place_tokens(state, real, decoy_tiles(state, real, card["decoys"], card["kind"] == "trap"))


def _place_tokens(state: dict, real: int, decoys: list[int]) -> list[dict]:
    """The card's real token on ``real`` and a blank one on each of ``decoys``. The public learns only the
    set of tiles, listed in board order."""
    card = board.wizard_card(state, state["wizard"]["pending_card"])
    _note_habit(state, card, real)
    if card["kind"] == "trap":
        token = {"kind": "trap", "up": False, "card": card["key"], "level": 0}
    else:
        token = {"kind": "monster", "up": False, "card": card["key"], "level": card["level"],
                 "count": card.get("monsters", 1), "damage": card.get("damage", 1)}
    board._new_token(state, real, token)
    for i in decoys:
        board._new_token(state, i, {"kind": "blank", "up": False, "card": "blank", "level": 0})
    spots = sorted([real] + decoys)
    counted = []
    for i in sorted(set(spots)):
        k = spots.count(i)
        counted.append(board.label(state, i) + (f" (x{k})" if k > 1 else ""))
    where = ", ".join(counted[:-1]) + " and " + counted[-1] if len(counted) > 1 else counted[0]
    events = [board._event("place", f"The wizard places {len(spots)} face-down token{'s' if len(spots) != 1 else ''}"
                           f" on {where}.")]
    decoy_text = ", ".join(board.label(state, i) for i in decoys) or "nowhere (no room)"
    events.append(board._event("place", f"You place {card['name']} on {board.label(state, real)}; "
                               f"decoy{'s' if len(decoys) > 1 else ''} on {decoy_text}.", to=0))
    return events


def _note_habit(state: dict, card: dict, real: int) -> None:
    """How often this wizard puts a monster card's real token on a key vault, of as often as it could: the
    decoys' weights follow it (``placement.key_weight``). A card of k tokens with V vaults free can have its
    real token on one in at most min(1, V / k) of its placings whoever places it alike (every tile of the set
    as likely to be the real one), so that is what a card adds to the second count."""
    if card["kind"] != "monster":
        return
    tiles = state["tiles"]
    free = len([i for i in board.placeable(state, False) if tiles[i]["key"]])
    if not free:
        return
    habit = state["wizard"].setdefault("habit", [0, 0])
    habit[0] += 1 if tiles[real]["key"] else 0
    habit[1] = round(habit[1] + min(1.0, free / (1 + card["decoys"])), 4)


def _finish_card(state: dict) -> None:
    wizard = state["wizard"]
    if wizard["pending_card"] is not None:
        wizard["discard"].append(wizard["pending_card"])
        wizard["pending_card"] = None
    state["pending"] = None


def _spin(state: dict, amount: int) -> list[dict]:
    wizard = state["wizard"]
    before = wizard["mana"]
    if amount > 0 and before >= cards.MANA_MAX:
        events = [board._event("mana", "The Mana Wheel is already full: the wizard draws a card instead.")]
        drawn = _draw_wizard(state, 1, events)
        if drawn:
            events.append(board._event("draw", f"You draw {board.wizard_card(state, drawn[0])['name']}.", to=0))
        return events
    wizard["mana"] = max(0, min(cards.MANA_MAX, before + amount))
    return [board._event("mana", f"The Mana Wheel turns to {wizard['mana']}.")]


def _cast(state: dict, eff: str, i: int) -> list[dict]:
    events = []
    lab = board.label(state, i)
    victims = board.heroes_on(state, i)
    names = ", ".join(state["names"][seat] for seat in victims)
    if eff == "frost":
        victims = [seat for seat in victims if not state["heroes"][seat]["thawed"]]
        names = ", ".join(state["names"][seat] for seat in victims)
        for seat in victims:
            state["heroes"][seat]["frozen"] = True
        events.append(board._event("spell", f"Frost bolt on {lab}: {names} will skip their next move."))
    elif eff == "fireball":
        rng = Rng(state)
        for seat in victims:
            events.extend(board._saving_throw(state, seat, rng, f"Fireball on {lab}: ", " and dodges.",
                                             f" and takes {TRAP_DAMAGE} damage."))
    elif eff == "ambush":
        board._new_token(state, i, {"kind": "monster", "up": True, "card": "ambush", "level": AMBUSH_LEVEL})
        events.append(board._event("spell", f"Ambush! A level {AMBUSH_LEVEL} monster leaps onto {lab}: "
                                   f"{names} can't move and must fight."))
    return events


def _remove_tile(state: dict, i: int) -> list[dict]:
    tile = state["tiles"][i]
    tile["removed"] = True
    for tid in tile["tokens"]:
        state["tokens"].pop(str(tid))
    n_tok = len(tile["tokens"])
    tile["tokens"] = []
    tile["key"] = False
    extra = f" taking {n_tok} token{'s' if n_tok != 1 else ''} with it" if n_tok else ""
    return [board._event("rage", f"{board.label(state, i)} crumbles into the void{extra}.")]


WIZARD_ACTIONS: dict[str, Callable[[dict, dict], list[dict]]] = {
    "remove": _do_remove,
    "discard": _do_discard,
    "end_turn": _do_end_turn,
    "play": _do_play,
    "place": _do_place,
    "target": _do_target,
    "entrance": _do_turn_tower,  # the Turn Tower spell
}
