"""Masterminds: the PREP turn (recruit phase, plan phase) and the card effects it triggers (drawing and the immediate cards: effects.py)."""
from __future__ import annotations

from bot.rng import Rng

from . import board, options, upkeep
from .cards import ABILITIES, PREP, TALENTS, prep_name
from .constants import TEAM_LIMIT
from .effects import _burn_and_refill, _draw_prep, _pop_last_die

# Recruiting, drawing, action cards, gear and gems.


def _recruit(state, seat: int, tid: str, replace: str | None, events) -> None:
    name = board._seat_name(state, seat)
    team = state["teams"][seat]
    text = f"{name} recruits {board._talent_name(tid)}"
    if replace:
        _discard_recruit(state, seat, replace)
        text += f", replacing {board._talent_name(replace)}"
    team.append({"card": tid, "gear": None, "tapped": False, "injured": False})
    events.append({"type": "recruit", "text": text + "."})
    board._tally(state, "used", "talent:" + board._talent_name(tid))
    board._tally(state, "available", "ability:" + ABILITIES[TALENTS[tid]["ability"]]["name"])
    if TALENTS[tid]["ability"] == "scout":
        board._tally(state, "used", "ability:Scout")
        events.append({"type": "ability", "text": f"{board._talent_name(tid)} (Scout) brings a Prep card."})
        _draw_prep(state, seat, 1, events)


def _discard_recruit(state, seat: int, tid: str) -> None:
    team = state["teams"][seat]
    for i, entry in enumerate(team):
        if entry["card"] == tid:
            if entry["gear"]:
                state["prep_discard"].append(entry["gear"])
            state["talent_discard"].append(tid)
            del team[i]
            return


def _start_plan(state, events) -> None:
    state["phase"] = "plan"
    state["plan_left"] = 2


def _plan_done(state, events) -> None:
    state["plan_left"] -= 1
    if state["plan_left"] <= 0:
        upkeep._upkeep(state, events)
    else:
        state["phase"] = "plan"


def _play_action(state, seat: int, pid: str, gem: str | None, events, in_hand: bool = True) -> None:
    card = PREP[pid]
    name = board._seat_name(state, seat)
    if in_hand:  # (else it is already on the table, waiting for its gem: phase ``pay``)
        state["hands"][seat].remove(pid)
    state["prep_discard"].append(pid)
    board._tally(state, "used", "prep:" + card["name"])
    if any(state["gems"][seat].values()):
        board._tally(state, "available", "mechanic:gem bonus")
    text = f"{name} plays {card['name']}"
    if gem:
        board._tally(state, "used", "mechanic:gem bonus")
        state["gems"][seat][gem] -= 1
        state["bag"][gem] += 1
        text += f", spending a {gem} gem ({card['gem_text'].rstrip('.')})"
    else:
        text += f" ({card['text'].rstrip('.')})"
    events.append({"type": "action", "text": text + "."})
    effect = card["effect"]
    targets = options._action_targets(state, seat, pid, gem)
    if targets is not None:
        state["pending"] = {"card": pid, "gem": gem, "targets": targets}
        if len(targets) == 1:
            _resolve_target(state, seat, targets[0], events)
        else:
            state["phase"] = "target"
        return
    if effect == "intel":
        state["intel"][seat] += 4 if gem else 2
        events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
    elif effect == "draw":
        _draw_prep(state, seat, 3 if gem else 2, events)
    elif effect == "blackmarket":
        _draw_prep(state, seat, 3 if gem else 1, events)
        if not gem:
            state["intel"][seat] += 1
            events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
    elif effect == "headhunt":
        _burn_and_refill(state, events)
        if gem and state["pool"]:
            state["phase"] = "hire"
            state["pending"] = {"card": pid}
            return
    _plan_done(state, events)


def _resolve_target(state, seat: int, action, events) -> None:
    pending = state["pending"]
    state["pending"] = None
    effect = PREP[pending["card"]]["effect"]
    gem = pending["gem"]
    rng = Rng(state)
    if effect == "sabotage":
        victim = action["seat"]
        hand = state["hands"][victim]
        lost = []
        for _ in range(2 if gem else 1):
            if hand:
                lost.append(hand.pop(rng.below(len(hand))))
        state["prep_discard"].extend(lost)
        events.append({"type": "sabotage", "text": f"{board._seat_name(state, victim)} discards "
                       + ", ".join(prep_name(card) for card in lost) + " at random."})
    elif effect == "doublecross" and gem:
        _pop_last_die(state, state["heists"][action["heist"]], events)
    elif effect == "doublecross":
        owner, entry = board._member(state, action["recruit"])
        gear = entry["gear"]
        entry["gear"] = None
        state["prep_discard"].append(gear)
        events.append({"type": "gear", "text": f"{board._seat_name(state, owner)}'s {board._talent_name(entry['card'])} loses {prep_name(gear)}."})
    _plan_done(state, events)


def _play_gear(state, seat: int, pid: str, tid: str, events) -> None:
    state["hands"][seat].remove(pid)
    board._tally(state, "used", "prep:" + prep_name(pid))
    _, entry = board._member(state, tid)
    entry["gear"] = pid
    events.append({"type": "gear", "text": f"{board._seat_name(state, seat)} equips {board._talent_name(tid)} with {prep_name(pid)} ({PREP[pid]['text'].rstrip('.')})."})


def _trade(state, seat: int, from_tid: str, to_tid: str, events) -> None:
    board._tally(state, "used", "mechanic:trade gear")
    _, giver = board._member(state, from_tid)
    _, taker = board._member(state, to_tid)
    giver["gear"], taker["gear"] = taker["gear"], giver["gear"]
    verb = "swaps gear between" if giver["gear"] and taker["gear"] else "moves gear from"
    sep = "and" if giver["gear"] and taker["gear"] else "to"
    events.append({"type": "trade", "text": f"{board._seat_name(state, seat)} {verb} {board._talent_name(from_tid)} {sep} {board._talent_name(to_tid)}."})


# ------------------------------------------------------------------ hiring: the Talent, then who it replaces
def _hiring(state, seat: int, tid: str, source: str, swap: bool, events) -> None:
    """A Talent is chosen (from the pool, the Talent deck after a burn, or Headhunter's fresh pool): it joins
    at once a team with room, unless it is to replace someone (``swap``, or a full team): then the player
    picks who leaves next."""
    if len(state["teams"][seat]) < TEAM_LIMIT and not swap:
        _hired(state, seat, tid, source, None, events)
        return
    state["pending"] = {"card": tid, "from": source, "back": {"phase": state["phase"], "pending": state["pending"]}}
    state["phase"] = "replace"


def _hired(state, seat: int, tid: str, source: str, replace: str | None, events) -> None:
    """The Talent joins the team (replacing ``replace``), then the turn goes on where it came from."""
    if source == "pool":
        events.append({"type": "prep", "text": f"{board._seat_name(state, seat)} chooses PREP."})
    if source in ("pool", "hire"):
        state["pool"].remove(tid)
    state["pending"] = None
    _recruit(state, seat, tid, replace, events)
    if source == "hire":
        _plan_done(state, events)
    else:
        _start_plan(state, events)


def _act_replace(state, seat: int, action, events) -> None:
    """Who leaves the team for the Talent being hired."""
    pending = state["pending"]
    _hired(state, seat, pending["card"], pending["from"], action["recruit"], events)


def _act_back_from_replace(state, seat: int, action, events) -> None:
    """Back from choosing who leaves: to the choice of Talent (nothing has happened yet)."""
    back = state["pending"]["back"]
    state["phase"], state["pending"] = back["phase"], back["pending"]


# ------------------------------------------------------------------ actions of the recruit phase
def _act_recruit(state, seat: int, action, events) -> None:
    """PREP: recruit a Talent from the pool (then who it replaces, if anyone), then plan."""
    _hiring(state, seat, action["card"], "pool", bool(action.get("swap")), events)


def _act_burn(state, seat: int, action, events) -> None:
    """PREP: burn the pool and draw the top Talent (hire it or pool it next), or plan if the deck is empty."""
    name = board._seat_name(state, seat)
    events.append({"type": "prep", "text": f"{name} chooses PREP and burns the Talent Pool."})
    board._tally(state, "used", "mechanic:burn")
    state["talent_discard"].extend(state["pool"])
    state["pool"].clear()
    tid = board._draw_from(state, "talent_deck", "talent_discard", events, "Talent")
    if tid is None:
        events.append({"type": "burn", "text": "The Talent deck is empty."})
        _start_plan(state, events)
    else:
        events.append({"type": "burn", "text": f"{name} draws {board._talent_name(tid)} from the Talent deck."})
        state["pending"] = {"card": tid}
        state["phase"] = "burned"
        board._tally(state, "available", "talent:" + board._talent_name(tid))


def _act_hire(state, seat: int, action, events) -> None:
    """After a burn: hire the drawn Talent (then who it replaces, if anyone), then plan."""
    _hiring(state, seat, state["pending"]["card"], "burned", bool(action.get("swap")), events)


def _act_to_pool(state, seat: int, action, events) -> None:
    """After a burn: the drawn Talent goes into the pool, then plan."""
    tid = state["pending"]["card"]
    state["pending"] = None
    state["pool"].append(tid)
    events.append({"type": "pool", "text": f"{board._seat_name(state, seat)} puts {board._talent_name(tid)} into the Talent Pool."})
    _start_plan(state, events)


def _act_draw_prep(state, seat: int, action, events) -> None:
    """PREP without recruiting: draw a Prep card, then plan."""
    events.append({"type": "prep", "text": f"{board._seat_name(state, seat)} chooses PREP and skips recruiting to draw a Prep card."})
    _draw_prep(state, seat, 1, events)
    _start_plan(state, events)


# ------------------------------------------------------------------ actions of the plan phase
def _act_draw(state, seat: int, action, events) -> None:
    """Plan action: draw a Prep card."""
    _draw_prep(state, seat, 1, events)
    _plan_done(state, events)


def _act_action(state, seat: int, action, events) -> None:
    """Plan action: play an action card; with its gem bonus, the gem's colour is asked next (unless the
    player holds one colour only)."""
    if not action["gem"]:
        _play_action(state, seat, action["card"], None, events)
        return
    held = [colour for colour in board._gem_colours(state) if state["gems"][seat][colour] > 0]
    if len(held) == 1:
        _play_action(state, seat, action["card"], held[0], events)
        return
    state["hands"][seat].remove(action["card"])  # on the table now, waiting for the gem
    state["pending"] = {"card": action["card"]}
    state["phase"] = "pay"


def _act_pay(state, seat: int, action, events) -> None:
    """The colour of the gem spent on the action card's bonus: the card is played."""
    pid = state["pending"]["card"]
    state["pending"] = None
    _play_action(state, seat, pid, action["colour"], events, in_hand=False)


def _act_target(state, seat: int, action, events) -> None:
    """The target of the action card being played."""
    _resolve_target(state, seat, action, events)


def _act_gear(state, seat: int, action, events) -> None:
    """Plan action: equip a Gear card; a second one may follow if a recruit is still bare."""
    _play_gear(state, seat, action["card"], action["recruit"], events)
    bare = [entry for entry in state["teams"][seat] if not entry["gear"]]
    if bare and any(PREP[card]["kind"] == "gear" for card in state["hands"][seat]):
        state["phase"] = "gear2"
        state["pending"] = {"first": action["card"]}
    else:
        _plan_done(state, events)


def _act_second_gear(state, seat: int, action, events) -> None:
    """The second Gear card of the same plan action."""
    _play_gear(state, seat, action["card"], action["recruit"], events)
    state["pending"] = None
    _plan_done(state, events)


def _act_gear_done(state, seat: int, action, events) -> None:
    """No second Gear card."""
    state["pending"] = None
    _plan_done(state, events)


def _act_trade(state, seat: int, action, events) -> None:
    """Plan action: move or swap gear between two of your recruits."""
    _trade(state, seat, action["from"], action["to"], events)
    _plan_done(state, events)


def _act_end_plan(state, seat: int, action, events) -> None:
    """End the plan phase early: upkeep."""
    events.append({"type": "plan", "text": f"{board._seat_name(state, seat)} ends the plan phase."})
    state["plan_left"] = 0
    upkeep._upkeep(state, events)


def _act_hire_pool(state, seat: int, action, events) -> None:
    """Headhunter with a gem: recruit from the fresh pool (then who it replaces, if anyone)."""
    _hiring(state, seat, action["card"], "hire", bool(action.get("swap")), events)


def _act_hire_skip(state, seat: int, action, events) -> None:
    """Headhunter with a gem: recruit nobody."""
    state["pending"] = None
    _plan_done(state, events)
