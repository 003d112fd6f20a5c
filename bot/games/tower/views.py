"""What each seat may see: the public table, and a seat's own secret card, peeks and draft hand."""
from __future__ import annotations

from bot.engine import State

from . import cards
from .board import BALCONY, BRIDGE, FLOORS, HIDDEN, SLOTS, hidden_there, is_hidden, to_act
from .cards import CARDS
from .scoring import final, head_start, winners
from .texts import pending_text, status_line
from .viewtypes import (
    CardView,
    CellView,
    DraftView,
    FinalView,
    HaulView,
    PawnView,
    PendingView,
    ScoringTileView,
    StandingAward,
    StandingView,
    TowerPrivate,
    TowerView,
)


def card_view(cid: int) -> CardView:
    """A face-up card as the views show it."""
    card = CARDS[cid]
    return {"id": cid, "name": card["name"], "suits": card["suits"], "values": card["values"], "curses": card["curses"],
            "prestige": card["prestige"], "power": card["power"], "set": card["set"], "deck": card["deck"]}


def view(state: State, viewer: int | None) -> TowerView:
    """The public table (``viewer`` None), plus ``private`` for a seat."""
    players = state["n"]
    over = state["phase"] == "over"
    draft: DraftView | None = None
    if state["phase"] == "draft":
        d = state["draft"]
        draft = {"seat": d["order"][d["pos"]], "order": d["order"], "hand_size": len(d["hand"])}
    exits = list(state["exits"])
    v: TowerView = {
        "game": "tower", "names": list(state["names"]), "n": players, "phase": state["phase"],
        "status": status_line(state), "turn": state["turn"], "to_act": to_act(state),
        "options": {**state["options"], "two_player": players == 2},
        "tower": tower_view(state, over), "pawns": [pawn_view(state, seat) for seat in range(players)],
        "hauls": [haul_view(state, seat, over) for seat in range(players)], "exits": exits,
        "tiles": scoring_tiles_view(players, exits), "pending": pending_view(state, over),
        "draft": draft, "box": [card_view(c) for c in state["box"]], "box_unseen_count": len(state["box_unseen"]),
        "extra_turn": state["extra"], "recent": list(state["recent"]),
    }
    if "head_start" in state:
        v["head_start"] = list(state["head_start"])
    if not over:
        v["standing"] = standing(state, [list(h) for h in state["hauls"]])
    if over:
        v["final"] = final_view(state)
    if viewer is not None:
        v["private"] = private_view(state, viewer, draft)
    return v


def standing(state: State, hauls: list[list[int]]) -> StandingView:
    """Who would win each scoring tile, and everyone's prestige, if the game ended now with these hauls (the
    public board: face-up cards only; a seat's own view: what it knows of face-down cards too)."""
    result = cards.final_scores(hauls, state["sand_target"], state["exits"], head_start(state))
    awards: list[StandingAward] = [{"tile": a["tile"], "label": a["label"], "prestige": a["prestige"],
                                    "seat": a["seat"], "values": a["values"]} for a in result["awards"]]
    return {"awards": awards, "totals": result["totals"]}


def final_view(state: State) -> FinalView:
    """The end of the game: awards, totals, ranks, tiles, figures, winners, and the bottom card if never claimed."""
    result = final(state)
    return {"awards": result["awards"], "totals": result["totals"], "ranks": result["ranks"],
            "tiles": result["tiles"], "stats": result["stats"], "winners": winners(state, result),
            "bottom_card": card_view(state["tower"][HIDDEN[0]][HIDDEN[1]]) if hidden_there(state) else None}


def tower_view(state: State, over: bool) -> list[list[CellView | None]]:
    """Floor by floor: empty spaces, the face-down bottom card's back, face-up cards."""
    tower: list[list[CellView | None]] = []
    for floor in range(FLOORS):
        row: list[CellView | None] = []
        for slot in range(SLOTS):
            cid = state["tower"][floor][slot]
            if cid is None:
                row.append(None)
            elif is_hidden(floor, slot) and not over:
                row.append({"back": "dark"})
            else:
                cell: CellView = {"card": card_view(cid)}
                if is_hidden(floor, slot):
                    cell["was_face_down"] = True
                row.append(cell)
        tower.append(row)
    return tower


def pawn_view(state: State, seat: int) -> PawnView:
    """Where a thief is: on the balcony, on the bridge, or on a tower space."""
    f, slot = state["pawns"][seat]
    if f == BALCONY or f == BRIDGE:
        return {"seat": seat, "where": "balcony" if f == BALCONY else "bridge", "floor": None, "slot": None}
    return {"seat": seat, "where": "tower", "floor": f, "slot": slot}


def haul_view(state: State, seat: int, over: bool) -> HaulView:
    """A player's face-up haul, its visible figures, and the back of its face-down card (the card once over)."""
    face_up = state["hauls"][seat]
    st = cards.haul_stats(face_up, state["sand_target"])
    entry: HaulView = {
        "seat": seat, "name": state["names"][seat], "cards": [card_view(c) for c in face_up],
        "sand_under": state["sand_target"] if cards.SAND in face_up and state["sand_target"] in face_up else None,
        "secret": None, "revealed": state["revealed"][seat],
        "visible": {"suits": st["suits"], "numbers": st["numbers"], "curses": st["raw_curses"],
                    "prestige": st["card_prestige"]}}
    if state["secret"][seat] is not None:
        entry["secret"] = card_view(state["secret"][seat]) if over else "back"
    return entry


def scoring_tiles_view(n: int, exits: list[int]) -> list[ScoringTileView]:
    """The scoring tiles, with who holds the exit tiles so far."""
    tiles: list[ScoringTileView] = []
    for t in cards.TILES:
        in_play = not (n == 2 and t["key"] in cards.TWO_PLAYER_OUT)
        holder = None
        if t["key"] == "first" and exits:
            holder = exits[0]
        elif t["key"] == "second" and len(exits) >= 2 and n > 2:
            holder = exits[1]
        elif t["key"] == "last" and len(exits) == n and n > 2:
            holder = exits[-1]
        tiles.append({"key": t["key"], "label": t["label"], "prestige": t["prestige"], "in_play": in_play,
                      "holder": holder})
    return tiles


def pending_view(state: State, over: bool) -> PendingView | None:
    """The power choice waited for: who decides, its kind and words (and the card to give, the floor to discard from)."""
    if not state["queue"] or over:
        return None
    step = state["queue"][0]
    pending: PendingView = {"seat": step["seat"], "kind": step["k"], "text": pending_text(state, step)}
    if step["k"] == "vamp_take":
        pending["give"] = step["give"]
    if step["k"] == "row_discard":
        pending["floor"] = step["floor"]
    return pending


def private_view(state: State, viewer: int, draft: DraftView | None) -> TowerPrivate:
    """A seat's own face-down card, the cards it peeked at, the draft hands it saw, and its totals with its secret."""
    secret = state["secret"][viewer]
    priv: TowerPrivate = {"seat": viewer,
                          "secret": card_view(secret) if secret is not None else None,
                          "seen": [{"seat": t, "name": state["names"][t], "card": card_view(c)}
                                   for t, c in state["seen"][viewer]],
                          "draft_offered": [card_view(c) for c in state["offered"][viewer]],
                          "draft_hand": None}
    if draft and draft["seat"] == viewer:
        priv["draft_hand"] = [card_view(c) for c in sorted(state["draft"]["hand"])]
    mine = list(state["hauls"][viewer]) + ([secret] if secret is not None else [])
    priv["my_totals"] = cards.haul_stats(mine, state["sand_target"])
    if state["phase"] != "over":
        known = [list(h) for h in state["hauls"]]
        known[viewer] = mine
        for seat, cid in state["seen"][viewer]:
            if state["secret"][seat] == cid:
                known[seat].append(cid)
        priv["standing"] = standing(state, known)
    return priv
