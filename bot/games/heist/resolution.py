"""HEIST: resolving a test (success or failure and where every card goes), the failure upgrade,
the end of a turn, of a round and of the game."""
from __future__ import annotations

from typing import Any

from bot.engine import Action, Event, State

from . import cards, rules
from .board import ROUNDS, distinct_cards, mandatory, obstacles_left, total
from .cards import OBSTACLE, RESOURCE, SKILL_NAME
from .scoring import final_rows
from .supply import apply_effect, refill


def resolve(state: State) -> list[Event]:
    """The test is resolved: total against target, then the success or the failure."""
    test = state["test"]
    name = state["names"][state["active"]]
    numbers = total(state)
    obstacle = OBSTACLE[test["obstacle"]]
    source = f"{obstacle['id']} {obstacle['name']}"
    breakdown = (f"skill {numbers['skill']}, assists {numbers['assists']:+d}, tokens {numbers['tokens']:+d}, "
                 f"tricks {numbers['tricks']:+d}")
    state["tests"] += 1
    if numbers["success"]:
        events: list[Event] = [{"type": "success", "text": f"SUCCESS! {name} overcomes {source}: "
                                f"{numbers['total']} against {numbers['target']} ({breakdown})."}]
        _succeed(state, obstacle, source, events)
        return events
    events = [{"type": "failure", "text": f"FAILURE. {name} fails {source}: {numbers['total']} "
               f"against {numbers['target']} ({breakdown})."}]
    _fail(state, obstacle, source, events)
    return events


def _succeed(state: State, obstacle: dict[str, Any], source: str, events: list[Event]) -> None:
    """The obstacle is scored (completing its job if it was the last), its success effect applies,
    the assists pay their owners; the turn ends."""
    test = state["test"]
    active = state["active"]
    letter = test["job"]
    stack = state["jobs"][letter]
    for effect in obstacle["success"]:
        apply_effect(state, active, effect, events, source)
    stack.pop(0)
    state["piles"][active].append(obstacle["id"])
    if not stack:
        state["completed"].append(letter)
        events.append({"type": "job", "text": f"{cards.JOB[letter]['name']} is complete! Each of its "
                       f"obstacles is worth 1 more cheese."})
    for assist in test["assists"]:
        card = RESOURCE[assist["card"]]
        owner = state["names"][assist["seat"]]
        if card["special"] == "double_cross":
            state["discard"].append(assist["card"])
        elif card["upgrade"]:
            state["upgrades"][assist["seat"]].append(assist["card"])
            events.append({"type": "upgrade", "text": f"{owner} learns from {card['name']}: "
                           f"+1 {SKILL_NAME[card['upgrade']]}."})
        elif card["cheese"]:
            state["piles"][assist["seat"]].append(assist["card"])
            events.append({"type": "score", "text": f"{owner} banks {card['name']} ({card['cheese']} cheese)."})
        else:
            state["discard"].append(assist["card"])
    state["discard"].extend(test["tricks"])
    finish_turn(state, events)


def _fail(state: State, obstacle: dict[str, Any], source: str, events: list[Event]) -> None:
    """The failure effect applies (unless a Clean Exit), the obstacle is boxed unless Mandatory, the
    cards on the table leave it; then the upgrade step, or the end of the turn."""
    test = state["test"]
    active = state["active"]
    test["resolved"] = True  # assists and tricks have left the table (see leftover)
    if test["clean_exit"]:
        if obstacle["failure"]:
            events.append({"type": "clean", "text": "Clean Exit: the failure effect is ignored."})
    else:
        for effect in obstacle["failure"]:
            apply_effect(state, active, effect, events, source)
    state["failed"] += 1
    if mandatory(state, obstacle["id"]):
        events.append({"type": "mandatory", "text": f"{obstacle['name']} is Mandatory: it stays on top of the job."})
    else:
        state["jobs"][test["job"]].pop(0)
        state["boxed"].append(obstacle["id"])
        events.append({"type": "boxed", "text": f"{obstacle['name']} is returned to the box."})
    _clear_table_after_failure(state, events)
    if upgrade_choices(state):
        state["phase"] = "upgrade"
        events.append({"type": "upgrade_call", "text": f"{state['names'][active]} may put one trick on their "
                       "identity to upgrade a skill."})
    else:
        finish_turn(state, events)


def _clear_table_after_failure(state: State, events: list[Event]) -> None:
    """Assists are discarded (a Double Cross scores, a Backup Plan goes home); played tricks with
    cheese score for the active player, the others wait as upgrade candidates."""
    test = state["test"]
    active = state["active"]
    for assist in test["assists"]:
        card = RESOURCE[assist["card"]]
        owner = state["names"][assist["seat"]]
        if card["special"] == "double_cross":
            state["piles"][assist["seat"]].append(assist["card"])
            events.append({"type": "score", "text": f"{owner}'s Double Cross pays off ({card['cheese']} cheese)."})
        elif card["special"] == "backup":
            state["hands"][assist["seat"]].append(assist["card"])
            events.append({"type": "backup", "text": f"{owner}'s Backup Plan returns to their hand."})
        else:
            state["discard"].append(assist["card"])
    for card_id in test["tricks"]:
        card = RESOURCE[card_id]
        if card["cheese"]:
            state["piles"][active].append(card_id)
            events.append({"type": "score", "text": f"{state['names'][active]} banks {card['name']} "
                           f"({card['cheese']} cheese)."})
        else:
            test["leftover"].append(card_id)


def upgrade_choices(state: State) -> list[str]:
    """Tricks that can go on the identity after a failure: played ones, then ones in hand."""
    test = state["test"]
    played = [card for card in test["leftover"] if RESOURCE[card]["upgrade"]]
    hand = [card for card in state["hands"][state["active"]] if cards.is_trick(card) and RESOURCE[card]["upgrade"]]
    return distinct_cards(played) + [card for card in distinct_cards(hand)]


def upgrade_actions(state: State, seat: int) -> list[Action]:
    """After a failure: each trick that can upgrade a skill, or no upgrade."""
    actions: list[Action] = [{"type": "upgrade", "card": card} for card in upgrade_choices(state)]
    actions.append({"type": "no_upgrade"})
    return actions


def upgrade(state: State, seat: int, action: Action) -> list[Event]:
    """The active player puts a trick on their identity (+1 to its skill), or takes none; the turn ends."""
    test = state["test"]
    active = state["active"]
    events: list[Event] = []
    if action["type"] == "upgrade":
        card_id = action["card"]
        if card_id in test["leftover"]:
            test["leftover"].remove(card_id)
        else:
            state["hands"][active].remove(card_id)
        state["upgrades"][active].append(card_id)
        card = RESOURCE[card_id]
        events.append({"type": "upgrade", "text": f"{state['names'][active]} learns from failure with "
                       f"{card['name']}: +1 {SKILL_NAME[card['upgrade']]}."})
    else:
        events.append({"type": "upgrade", "text": f"{state['names'][active]} takes no upgrade."})
    finish_turn(state, events)
    return events


def finish_turn(state: State, events: list[Event]) -> None:
    """Tokens go in front of the player, the test is remembered as the last one, the hand is refilled;
    then the next player's turn, or the end of the round (or of the game when every job is empty)."""
    test = state["test"]
    active = state["active"]
    state["discard"].extend(test["leftover"])
    test["leftover"] = []
    state["spent"].extend({"colour": token["colour"], "face": token["face"], "ignored": False}
                          for token in test["tokens"])
    numbers = total(state)
    state["last"] = {"seat": active, "obstacle": test["obstacle"], "option": test["option"],
                     "total": numbers["total"], "target": numbers["target"], "success": numbers["success"],
                     "tokens": [dict(token) for token in test["tokens"]],
                     "assists": [dict(assist) for assist in test["assists"]],
                     "tricks": list(test["tricks"])}
    state["test"] = None
    refill(state, active, events)
    state["turns"] += 1
    if obstacles_left(state) == 0:
        events.append({"type": "empty", "text": "Every job is empty: the heist is over."})
        end_round(state, events, last=True)
    elif state["turns"] >= state["n"]:
        end_round(state, events, last=state["round"] >= ROUNDS)
    else:
        state["active"] = (active + 1) % state["n"]
        state["phase"] = "choose"
        events.append({"type": "turn", "text": f"{state['names'][state['active']]}'s turn: choose an obstacle."})


def end_round(state: State, events: list[Event], last: bool) -> None:
    """The heat rises (this round's tokens into the bag) and drawn tokens go back; then the next
    round, or the end of the game."""
    space = state["heat"][state["round"] - 1]
    space["done"] = True
    added = space["count"]
    state["bag"][space["colour"]] += added
    space["count"] = 0
    for token in state["spent"]:
        state["bag"][token["colour"]] += 1
    state["spent"] = []
    events.append({"type": "round", "text": f"Round {state['round']} ends: the heat rises ({added} "
                   f"{space['colour']} token{'s' if added != 1 else ''} into the bag) and the drawn tokens go back."})
    if last:
        _end_game(state, events)
        return
    state["round"] += 1
    state["turns"] = 0
    state["leader"] = rules.of(state).leader(state["start"], state["round"], state["n"])
    state["active"] = state["leader"]
    state["phase"] = "choose"
    moved = " (each round starts one seat further left)" if rules.of(state).start_moves_left else ""
    events.append({"type": "turn", "text": f"Round {state['round']}: {state['names'][state['active']]} "
                   f"chooses an obstacle{moved}."})


def _end_game(state: State, events: list[Event]) -> None:
    """Secrets are checked against the final bag, the scores counted and the winners named."""
    names = state["names"]
    state["phase"] = "over"
    state["final"] = final_rows(state)
    best = [row for row in state["final"] if row["won"]]
    for row in state["final"]:
        secret = cards.SECRET[state["secrets"][row["seat"]]]
        events.append({"type": "secret", "text": f"{names[row['seat']]}'s secret was {secret['name']} "
                       f"({cards.secret_text(secret['id'], state['n'], rules.of(state).printed)}) - "
                       f"{'met' if row['secret_met'] else 'not met'}."})
    ranked = ", ".join(f"{names[row['seat']]} {row['score']}"
                       for row in sorted(state["final"], key=lambda row: row["rank"]))
    if state["n"] > 1:
        outcome = ". Winner: " + " and ".join(names[row["seat"]] for row in best) + "."
    else:
        outcome = (f" (target {cards.SOLO_TARGET}): rated {state['final'][0]['rating']}, "
                   f"{'the heist is pulled off' if best else 'not enough'}.")
    events.append({"type": "over", "text": "Game over! " + ranked + outcome})

