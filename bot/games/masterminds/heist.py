"""Masterminds: the HEIST turn (a step attempt, the interrupt window, the roll, failure, completing a heist)."""
from __future__ import annotations

from collections import Counter
from typing import Any, cast

from bot.rng import Rng

from . import board, effects, options, upkeep
from . import prep as prep_turn
from .board import recruit_value, seat_order
from .cards import CONSEQUENCES, FAILURES, HEISTS, PREP, TALENTS, prep_name
from .constants import PERFECT_FACE, STEP_LETTERS, TEAM_LIMIT

# A heist run: attempts, interrupt windows, rolls, failures and completions.


def _start_attempt(state, seat: int, action, events) -> None:
    slot = action["heist"]
    heist = state["heists"][slot]
    step_index = board._next_step(heist)
    step = board._steps(heist)[step_index]
    tids = action["recruits"]
    for entry in state["teams"][seat]:
        if entry["card"] in tids:
            entry["tapped"] = True
    total, parts = board.attempt_total(state, seat, action["skill"], tids)
    for ability in ("Lone Wolf", "Ringleader"):
        if any(part.startswith(ability) for part in parts):
            board._tally(state, "used", "ability:" + ability)
    team = {entry["card"]: entry for entry in state["teams"][seat]}
    for tid in tids:
        talent = TALENTS[tid]
        if talent["ability"] == "allrounder" and talent["stat"][action["skill"]] < 2:
            board._tally(state, "used", "ability:All-Rounder")
        gear = team[tid]["gear"]
        if talent["ability"] == "gearhead" and gear and PREP[gear]["skill"] in ("all", action["skill"]):
            board._tally(state, "used", "ability:Gearhead")
    state["intel"][seat] = 0
    first = state["run"] is None
    placed = [] if first else state["run"].get("placed", [])
    state["run"] = {"heist": slot, "placed": placed}
    state["attempt"] = {
        "seat": seat, "heist": slot, "step": step_index, "skill": action["skill"], "number": step["number"],
        "recruits": list(tids), "base": total, "parts": parts, "mods": 0, "two_dice": False,
        "no_perfect": False, "cover": False, "played": [], "roll": None, "result": None, "failure": None,
    }
    who = " + ".join(board._talent_name(talent) for talent in tids)
    lead = f"{board._seat_name(state, seat)} goes for a HEIST: " if first else f"{board._seat_name(state, seat)} continues: "
    events.append({"type": "attempt", "text": f"{lead}{board._heist_name(heist)} step {STEP_LETTERS[step_index]} "
                   f"({action['skill']} {step['number']}) with {who}: total {total} ({', '.join(parts)})."})
    _open_window(state, "step", events)


def _open_window(state, kind: str, events) -> None:
    """Every seat is asked, whatever it holds: the window, its texts and its timing
    reveal nothing about hands. Bots answer at once; a timeout passes."""
    players = len(state["names"])
    seats = seat_order(state["turn"], players)
    state["window"] = {"kind": kind, "seats": seats, "done": {}}
    state["phase"] = "window"
    board._tally(state, "available", "mechanic:interrupt window")
    what = "roll" if kind == "step" else "Failure test"
    events.append({"type": "window", "text": f"Interrupt window before the {what}: everyone may play an "
                   f"interrupt or pass; {board._seat_name(state, state['turn'])} rolls when all have answered."})


def _window_commit(state, seat: int, action, events) -> None:
    window = state["window"]
    window["done"][str(seat)] = action.get("card") if action["type"] == "interrupt" else None
    if action["type"] == "interrupt":
        events.append({"type": "commit", "to": seat, "text": f"You will play {prep_name(action['card'])} when the window closes."})
    events.append({"type": "commit", "text": f"{board._seat_name(state, seat)} has decided."})
    if any(str(asked) not in window["done"] for asked in window["seats"]):
        return
    # Everyone has decided: reveal and apply in seat order from the active player.
    played = 0
    for asked in window["seats"]:
        pid = window["done"][str(asked)]
        if not pid:
            continue
        played += 1
        state["hands"][asked].remove(pid)
        state["prep_discard"].append(pid)
        board._tally(state, "used", "prep:" + prep_name(pid))
        board._tally(state, "used", "mechanic:interrupt window")
        _apply_interrupt(state, asked, pid, window["kind"], events)
    if not played:
        events.append({"type": "window", "text": "Nobody plays an interrupt."})
    state["window"] = None
    if window["kind"] == "step":
        _resolve_step(state, events)
    else:
        _resolve_test(state, events)


def _apply_interrupt(state, seat: int, pid: str, kind: str, events) -> None:
    card = PREP[pid]
    target = state["attempt"] if kind == "step" else state["test"]
    effect = card["effect"]
    if effect == "plus2":
        target["mods"] += 2
    elif effect == "minus2":
        target["mods"] -= 2
    elif effect == "twodice":
        target["two_dice"] = True
    elif effect == "noperfect":
        target["no_perfect"] = True
    elif effect == "cover":
        target["cover"] = True
    target.setdefault("played", []).append(card["name"])
    events.append({"type": "interrupt", "text": f"{board._seat_name(state, seat)} plays {card['name']}: {card['text']}"})


def _roll(state, two: bool, lucky: bool) -> tuple[int, str]:
    rng = Rng(state)
    dice = [rng.die(6)] + ([rng.die(6)] if two else [])
    text = ", ".join(map(str, dice))
    die = max(dice)
    if two:
        text += f" (keeps {die})"
    if lucky and die == 1:
        die = rng.die(6)
        text += f", Lucky re-roll {die}"
    return die, text


def _resolve_step(state, events) -> None:
    """The window has closed: PERFECTION if the total already beats the number, else roll."""
    attempt = state["attempt"]
    seat = attempt["seat"]
    total = attempt["base"] + attempt["mods"]
    # The face only matters for matching your own dice on this heist (three alike pay a bonus gem), so a
    # free face is set for you: the value most of your dice there show; with none there, every face is alike.
    heist = state["heists"][attempt["heist"]]
    match = _matching_face(heist, seat)
    if total > attempt["number"] and not attempt["no_perfect"]:
        _perfection(state, total, match, events)
    else:
        _roll_step(state, total, match, events)


def _perfection(state, total: int, match: int | None, events) -> None:
    """The total already beats the step: the die is placed on the best face, no roll."""
    attempt = state["attempt"]
    attempt["result"] = "perfection"
    rolls = state.setdefault("stats", {}).setdefault("rolls", {})
    rolls["perfection"] = rolls.get("perfection", 0) + 1
    face = PERFECT_FACE if match is None else match
    why = ("no other die of theirs on this heist, so any face is as good" if match is None
           else "matching their dice on this heist")
    text = (f"{board._seat_name(state, attempt['seat'])}'s total {total} already beats {attempt['skill']} {attempt['number']}: "
            f"PERFECTION, no roll needed! The die shows {face} ({why}).")
    state["last_roll"] = text
    events.append({"type": "tally", "text": text})
    _place_die(state, face, events)


def _roll_step(state, total: int, match: int | None, events) -> None:
    """Roll for the step: SUCCESS places the die, PUSH ends the run, FAILURE busts and flips a Failure card."""
    attempt = state["attempt"]
    name = board._seat_name(state, attempt["seat"])
    abilities = {TALENTS[talent]["ability"] for talent in attempt["recruits"]}
    die, roll_text = _roll(state, attempt["two_dice"], "lucky" in abilities)
    attempt["roll"] = die
    final = total + die
    if attempt["no_perfect"] and die == 1:
        result = "failure"
    elif final > attempt["number"]:
        result = "success"
    elif final == attempt["number"]:
        result = "push"
    else:
        result = "failure"
    note = ""
    if result == "push" and "clutch" in abilities:
        board._tally(state, "used", "ability:Clutch")
        result = "success"
        note = " (Clutch turns the PUSH into a success)"
    if attempt["no_perfect"] and die == 1:
        note = " (Tripped Alarm: a rolled 1 fails)"
    attempt["result"] = result
    rolls = state.setdefault("stats", {}).setdefault("rolls", {})
    rolls[result] = rolls.get(result, 0) + 1
    if "Lucky re-roll" in roll_text:
        board._tally(state, "used", "ability:Lucky")
    verdict = {"success": f"beats {attempt['number']}: SUCCESS",
               "push": f"equals {attempt['number']}: PUSH (no die placed)",
               "failure": f"doesn't beat {attempt['number']}: FAILURE"}[result]
    if note:
        verdict = f"{'equals' if final == attempt['number'] else 'vs'} {attempt['number']}: {result.upper()}{note}"
    text = f"{name} rolls {roll_text} for {attempt['skill']} {attempt['number']}: total {total} + {die} = {final} {verdict}."
    state["last_roll"] = text
    events.append({"type": "roll", "text": text})
    if result == "success":
        if "perfectionist" in abilities and match is not None and match != die:
            board._tally(state, "used", "ability:Perfectionist")
            events.append({"type": "ability", "text": f"Perfectionist: {name}'s die shows {match} instead of "
                           f"{die}, matching their dice on this heist."})
            die = match
        _place_die(state, die, events)
    elif result == "push":
        events.append({"type": "push", "text": f"PUSH: {name}'s heist run is over."})
        _end_run(state, events)
    else:
        _step_failed(state, events)


def _step_failed(state, events) -> None:
    """FAILURE: a Cover Story saves everything; else (tuned) the run's dice come off, and a recruit suffers."""
    attempt = state["attempt"]
    if attempt["cover"]:
        events.append({"type": "fail", "text": f"FAILURE, but {board._seat_name(state, attempt['seat'])}'s Cover Story means "
                       "no Failure card and no lost dice. The run is over."})
        _end_run(state, events)
        return
    if not board._rulebook(state):  # the rulebook: "Fail = Draw Failure card and End of Heist run"
        _bust(state, events)
    if len(attempt["recruits"]) == 1:
        _suffer(state, attempt["recruits"][0], events)
    else:
        state["phase"] = "suffer"


def _matching_face(heist: dict[str, Any], seat: int) -> int | None:
    """The face that matches most of ``seat``'s dice on heist ``h`` (ties: the higher), None if it has none."""
    own = Counter(die["value"] for die in heist["dice"] if die and die["seat"] == seat)
    return max(own, key=lambda value: (own[value], value)) if own else None


def _bust(state, events) -> None:
    """Press your luck (tuned): a FAILURE knocks off the dice you placed on this heist during this run."""
    attempt = state["attempt"]
    heist = state["heists"][attempt["heist"]]
    placed = sorted(state["run"].get("placed", []), reverse=True)
    if placed:
        events.append({"type": "bust", "text": f"Bust: the failure takes back the dice "
                       f"{board._seat_name(state, attempt['seat'])} placed on {board._heist_name(heist)} this run."})
    for step_index in placed:
        die = heist["dice"][step_index]
        if die and die["seat"] == attempt["seat"] and board._next_step(heist) == step_index + 1:
            effects._pop_last_die(state, heist, events)
    if placed:
        board._tally(state, "used", "mechanic:bust")
    state["run"]["placed"] = []


def _place_die(state, value: int, events) -> None:
    attempt = state["attempt"]
    seat = attempt["seat"]
    state["pending"] = None
    heist = state["heists"][attempt["heist"]]
    heist["dice"][attempt["step"]] = {"seat": seat, "value": value}
    state["dice"][seat] -= 1
    state["run"].setdefault("placed", []).append(attempt["step"])
    events.append({"type": "die", "text": f"{board._seat_name(state, seat)} places a {value} on {board._heist_name(heist)} step {STEP_LETTERS[attempt['step']]}."})
    if attempt["step"] == 3:
        _complete(state, events)
        return
    if options._step_options(state, seat, (attempt["heist"],)):
        state["phase"] = "continue"
        board._tally(state, "available", "mechanic:hold")
    else:
        events.append({"type": "hold", "text": f"{board._seat_name(state, seat)} has no fresh recruits or dice left to continue; the run ends."})
        _end_run(state, events)


def _complete(state, events) -> None:
    attempt = state["attempt"]
    seat = attempt["seat"]
    name = board._seat_name(state, seat)
    slot = attempt["heist"]
    heist = state["heists"][slot]
    heist_name = board._heist_name(heist)
    events.append({"type": "complete", "text": f"{name} completes {heist_name}!"})
    mine = sum(1 for die in heist["dice"][:3] if die and die["seat"] == seat)
    state.setdefault("stats", {}).setdefault("completions", []).append({"seat": seat, "own": mine})
    effects._take_gems(state, seat, HEISTS[heist["b"]]["take"], events, f"the take of {heist_name}")
    if len(state["teams"][seat]) < TEAM_LIMIT:
        state["completing"] = slot  # a Lockdown drawn here can't undo the heist being completed
        effects._draw_prep(state, seat, 1, events)
        state["completing"] = None
    own = Counter(die["value"] for die in heist["dice"] if die and die["seat"] == seat)
    for die in heist["dice"]:
        if die:
            state["dice"][die["seat"]] += 1
    heist["dice"] = [None] * 4
    if own and max(own.values()) >= 3:
        value = max(own, key=lambda v: (own[v], v))
        events.append({"type": "bonus", "text": f"{name} had three matching dice ({value}s) on {heist_name}: bonus gem!"})
        effects._take_gems(state, seat, 1, events, "matching dice bonus")
    state["mementos"][seat].append(heist["a"])
    state["heist_deck"].insert(0, heist["b"])
    state["heists"][slot] = None
    state["completed"] += 1
    if state["completed"] >= state["target"] and not state.get("final_round"):
        state["final_round"] = True
        if board._rulebook(state):  # "3 Players = 4th completed Heist ends the game"
            events.append({"type": "end", "text": f"That is heist {state['completed']} of {state['target']}: "
                           f"the game ends once {name} has finished this heist's checklist!"})
        else:  # tuned: everyone gets the same number of turns, so the round is played out
            events.append({"type": "end", "text": f"That is heist {state['completed']} of {state['target']}: "
                           "the game ends when this round is over!"})
    gear = [entry for entry in state["teams"][seat] if entry["gear"]]
    for entry in gear:
        state["prep_discard"].append(entry["gear"])
        entry["gear"] = None
    if gear:
        events.append({"type": "gear", "text": f"{name} discards all gear on the team (a completed heist burns it)."})
    team = state["teams"][seat]
    if len(team) > 1:
        state["phase"] = "retire"
    elif team:
        _retire(state, seat, team[0]["card"], events)
        _end_run(state, events)
    else:  # pragma: no cover - an attempt needs a recruit, who is still on the team
        _end_run(state, events)


def _retire(state, seat: int, tid: str, events) -> None:
    prep_turn._discard_recruit(state, seat, tid)
    events.append({"type": "retire", "text": f"{board._talent_name(tid)} fences the loot and retires from {board._seat_name(state, seat)}'s team."})
    if TALENTS[tid]["ability"] == "fence":
        board._tally(state, "used", "ability:Fence")
        effects._take_gems(state, seat, 1, events, "Fence")


def _suffer(state, tid: str, events) -> None:
    attempt = state["attempt"]
    # (never None: each drawn Failure goes straight to the discard pile, which refills an empty deck)
    fid = cast(str, board._draw_from(state, "failure_deck", "failure_discard", events, "Failure"))
    state["failure_discard"].append(fid)
    failure = FAILURES[fid]
    attempt["failure"] = fid
    test = failure["test"]
    who = board._talent_name(tid)
    events.append({"type": "failure", "text": f"{who} draws the Failure card {failure['name']}: it only bites on a "
                   f"{' or '.join(failure['triggers'])} step."})
    if attempt["skill"] not in failure["triggers"]:
        events.append({"type": "failure", "text": f"This was a {attempt['skill']} step: {who} is safe. The run is over."})
        _end_run(state, events)
        return
    events.append({"type": "failure", "text": f"This was a {attempt['skill']} step: {who} must beat {test['skill']} "
                   f"{test['number']} ({test['skill']} + a die), or: {CONSEQUENCES[failure['consequence']]}"})
    state["test"] = {"recruit": tid, "card": fid, "skill": test["skill"], "number": test["number"],
                     "mods": 0, "two_dice": False, "played": []}
    _open_window(state, "test", events)


def _resolve_test(state, events) -> None:
    test = state["test"]
    attempt = state["attempt"]
    seat = attempt["seat"]
    tid = test["recruit"]
    _, entry = board._member(state, tid)
    value = recruit_value(entry, test["skill"])
    ability = TALENTS[tid]["ability"]
    bonus = 3 if ability == "slippery" else 0
    if bonus:
        board._tally(state, "used", "ability:Slippery")
    die, roll_text = _roll(state, test["two_dice"], ability == "lucky")
    final = value + bonus + test["mods"] + die
    ok = final > test["number"]
    extra = " + Slippery 3" if bonus else ""
    extra += f" {'+' if test['mods'] >= 0 else '-'} {abs(test['mods'])}" if test["mods"] else ""
    text = (f"{board._talent_name(tid)} rolls {roll_text} for the {test['skill']} {test['number']} test: "
            f"{test['skill']} {value}{extra} + {die} = {final}: "
            f"{'beats it, safe' if ok else 'does not beat it, caught'}.")
    state["last_roll"] = text
    events.append({"type": "test", "text": text})
    state["test"] = None
    if ok:
        _end_run(state, events)
        return
    consequence = FAILURES[test["card"]]["consequence"]
    name = board._seat_name(state, seat)
    if consequence == "busted":
        prep_turn._discard_recruit(state, seat, tid)
        events.append({"type": "busted", "text": f"{board._talent_name(tid)} is arrested and leaves {name}'s team."})
    elif consequence == "injured":
        entry["injured"] = True
        events.append({"type": "injured", "text": f"{board._talent_name(tid)} is injured and stays tapped through {name}'s next upkeep."})
    elif consequence == "lost_gear":
        if entry["gear"]:
            gear = entry["gear"]
            entry["gear"] = None
            state["prep_discard"].append(gear)
            events.append({"type": "gear", "text": f"{board._talent_name(tid)} loses {prep_name(gear)}."})
        else:
            events.append({"type": "gear", "text": f"{board._talent_name(tid)} had no gear to lose."})
    elif consequence == "lose_gem":
        held = [colour for colour in board._gem_colours(state) if state["gems"][seat][colour] > 0]
        if len(held) > 1:
            state["phase"] = "lose_gem"
            return
        if held:
            effects._give_gem(state, seat, held[0], events)
        else:
            events.append({"type": "gems", "text": f"{name} has no gem to lose."})
    elif consequence == "lose_cards":
        hand = state["hands"][seat]
        rng = Rng(state)
        lost = [hand.pop(rng.below(len(hand))) for _ in range(min(2, len(hand)))]
        state["prep_discard"].extend(lost)
        events.append({"type": "discard", "text": f"{name} discards {', '.join(prep_name(card) for card in lost) or 'nothing'} at random."})
    _end_run(state, events)


def _end_run(state, events) -> None:
    """The run is over: upkeep, unless (rulebook) the heist just completed was the last one."""
    if state.get("final_round") and board._rulebook(state):
        state["end_reason"] = "heists"  # the engine finishes the game once this move is done
        return
    upkeep._upkeep(state, events)


# ------------------------------------------------------------------ actions of a heist run
def _act_heist(state, seat: int, action, events) -> None:
    """Pick a step (then the crew), or a step with its suggested crew in one click."""
    if "recruits" in action:
        _start_attempt(state, seat, action, events)
    else:
        state["pending"] = {"heist": action["heist"], "skill": action["skill"], "back": state["phase"]}
        state["phase"] = "crew"


def _act_back(state, seat: int, action, events) -> None:
    """Back from choosing a crew to the phase the step was picked in."""
    state["phase"] = state["pending"]["back"]
    state["pending"] = None


def _act_crew(state, seat: int, action, events) -> None:
    """The crew for the step picked: the attempt starts."""
    pending = state["pending"]
    state["pending"] = None
    _start_attempt(state, seat, {"heist": pending["heist"], "skill": pending["skill"],
                                      "recruits": action["recruits"]}, events)


def _act_hold(state, seat: int, action, events) -> None:
    """End the run after a success: the dice placed stay."""
    board._tally(state, "used", "mechanic:hold")
    heist = state["heists"][state["run"]["heist"]]
    events.append({"type": "hold", "text": f"{board._seat_name(state, seat)} holds the run on {board._heist_name(heist)}."})
    upkeep._upkeep(state, events)


def _act_suffer(state, seat: int, action, events) -> None:
    """The activated recruit who flips the Failure card."""
    _suffer(state, action["recruit"], events)


def _act_give_gem(state, seat: int, action, events) -> None:
    """The gem a Failure consequence returns to the bag; the run is over."""
    effects._give_gem(state, seat, action["colour"], events)
    state["pending"] = None
    _end_run(state, events)


def _act_retire(state, seat: int, action, events) -> None:
    """The recruit who retires after a completed heist; the run is over."""
    _retire(state, seat, action["recruit"], events)
    _end_run(state, events)
