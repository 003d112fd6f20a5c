"""Wizard's Rage: what each seat may see (the public view, and the wizard's or a hero's private part)."""
from __future__ import annotations

from . import board, cards, texts
from .constants import FREE_LIMIT
from .viewtypes import (
    HeroPrivate,
    HeroView,
    LootCardView,
    MonsterView,
    PendingPublic,
    RageView,
    TileView,
    TokenPrivate,
    WizardCardView,
    WizardPrivate,
)

# ``view(state, viewer)``: the board everyone sees, plus the viewer's own secrets.


# ------------------------------------------------------------------ views
def view(state: dict, viewer: int | None) -> RageView:
    """The public board (``viewer`` None), plus ``private`` for the wizard (0) or a hero."""
    wizard = state["wizard"]
    out: RageView = {
        "game": "rage", "names": list(state["names"]), "n": state["n"], "size": state["size"],
        "phase": state["phase"], "round": state["round"], "round_limit": state["round_limit"],
        "options": dict(state["options"]),
        "tower": state["tower"], "entrance": state["entrance"], "entrance_tile": board.entrance_tile(state),
        "tower_open": state["tower_open"], "keys_found": state["keys_found"],
        "keys_taken": state["keys_taken"], "keys_hidden": state["keys_hidden"],
        "tiles": [_tile_view(state, i) for i in range(len(state["tiles"]))],
        "heroes": [_hero_public(state, s) for s in range(1, state["n"])],
        "token_cap": board.tile_capacity(state), "scout_range": board.scout_range(state),
        "wizard": {"seat": 0, "name": state["names"][0], "mana": wizard["mana"], "mana_max": cards.MANA_MAX,
                   "mana_left": board.mana_left(state) if state["phase"] == "wizard" else None,
                   "hand_count": len(wizard["hand"]), "deck_count": len(wizard["deck"]),
                   "discard_count": len(wizard["discard"])},
        "loot": {"deck_count": len(state["loot"]["deck"]), "discard_count": len(state["loot"]["discard"])},
        "pending": _pending_public(state["pending"]), "winner": state["winner"],
        "end_reason": state["end_reason"],
        "recent": list(state.get("recent", [])),
        "status": texts.status_line(state),
    }
    if viewer is None:
        return out
    out["private"] = _wizard_private(state) if viewer == 0 else _hero_private(state, viewer)
    return out


def _tile_view(state: dict, i: int) -> TileView:
    """One square as everyone sees it (a face-down room shows no name or values)."""
    tile = state["tiles"][i]
    tokens = state["tokens"]
    hidden = 0
    monsters: list[MonsterView] = []
    for tid in tile["tokens"]:  # each token looked up once (this runs for every square of every view)
        token = tokens[str(tid)]
        if not token["up"]:
            hidden += 1
        elif token["kind"] == "monster":
            name, level, damage = board._monster_name(token), token["level"], board.damage_of(state, token)
            monsters.extend({"name": name, "level": level, "damage": damage} for _ in range(token.get("count", 1)))
    v: TileView = {"i": i, "label": board.label(state, i), "removed": tile["removed"], "up": tile["up"],
                         "tower": i == state["tower"], "camp": tile["camp"],
                         "hidden_tokens": hidden,
                         "monsters": monsters,
                         "searched": tile["searched"], "conquered": tile["conquered"],
                         "drop": {"cards": [board.loot_card(state, c)["name"] for c in tile["drop"]["cards"]],
                                  "keys": tile["drop"]["keys"]}}
    if tile["up"] and not tile["removed"]:
        room = board.room_tile(state, i)
        v["name"], v["draw"], v["mana"] = room["name"], room["draw"], room["mana"]
        v["key_tile"], v["key"], v["sense"] = tile["key_tile"], tile["key"], tile.get("sense")
    return v


def _hero_public(state: dict, s: int) -> HeroView:
    hero = state["heroes"][s]
    return {"seat": s, "name": state["names"][s], "hp": hero["hp"], "alive": hero["alive"],
            "pos": hero["pos"], "pos_label": board.label(state, hero["pos"]),
            "keys": hero["keys"], "frozen": hero["frozen"], "hand_count": len(hero["hand"]),
            "equip": [_card_view(state, c) for c in hero["equip"]],
            "attack": board.attack(state, s), "save": board.save_bonus(state, s),
            "committed": str(s) in state["commits"], "strength": hero["strength"], "ward": hero["ward"],
            "thawed": hero["thawed"]}


def _pending_public(p: dict | None) -> PendingPublic | None:
    """The wizard's open decision as the heroes see it (not whether a placed card is a trap)."""
    if not p:
        return None
    if p["kind"] == "place":
        return {"kind": "place", "left": p.get("total") or sum(p.get("left", {}).values())}
    if p["kind"] == "rage":
        return {"kind": "rage", "left": p["left"]}
    if p["kind"] == "target":
        return {"kind": "target", "effect": p["effect"]}
    return {"kind": p["kind"]}


def _wizard_private(state: dict) -> WizardPrivate:
    wizard = state["wizard"]
    pending = state["pending"]
    tok_map: dict[str, list[TokenPrivate]] = {}
    for i, tile in enumerate(state["tiles"]):
        hid = board.hidden_tokens(state, i)
        if hid:
            tok_map[str(i)] = [_token_private(state, tid) for tid in hid]
    return {
        "role": "wizard",
        "hand": [_wcard_view(state, c) for c in sorted(wizard["hand"], key=lambda c: state["wcards"][c])],
        "opening": [_wcard_view(state, c) for c in wizard["opening"]],
        "tokens": tok_map,
        "keys": [i for i, tile in enumerate(state["tiles"]) if tile["key"]],
        "mana_left": board.mana_left(state),
        "pending": dict(pending) if pending else None,
        "playing": _wcard_view(state, wizard["pending_card"]) if wizard["pending_card"] is not None else None,
        "habit": list(wizard.get("habit", [0, 0])),
    }


def _hero_private(state: dict, viewer: int) -> HeroPrivate:
    hero = state["heroes"][viewer]
    c = state["commits"].get(str(viewer))
    return {
        "role": "hero", "seat": viewer, "hp": hero["hp"], "keys": hero["keys"],
        "hand": [_card_view(state, cid) for cid in sorted(hero["hand"])],
        "equip": [_card_view(state, cid) for cid in hero["equip"]],
        "commit": c, "commit_text": texts.describe_action(state, viewer, c) if c else None,
        "free_left": FREE_LIMIT - hero["free"], "route_to": hero.get("route_to"),
    }


def _card_view(state: dict, cid: int) -> LootCardView:
    card = board.loot_card(state, cid)
    v: LootCardView = {"id": cid, "name": card["name"], "kind": card["kind"], "text": card["text"]}
    if card["kind"] == "equipment":
        v["slot"], v["attack"], v["save"] = card["slot"], card["attack"], card["save"]
    return v


def _wcard_view(state: dict, cid: int) -> WizardCardView:
    card = board.wizard_card(state, cid)
    text = card["text"].format(damage=board.damage_of(state, card)) if card["kind"] == "monster" else card["text"]
    return {"id": cid, "name": card["name"], "kind": card["kind"], "cost": card["cost"], "text": text,
            "level": card.get("level")}


def _token_private(state: dict, tid: int) -> TokenPrivate:
    token = board.token(state, tid)
    if token["kind"] == "monster":
        return {"kind": "monster", "name": board._monster_name(token), "level": token["level"], "count": token.get("count", 1)}
    return {"kind": token["kind"]}

