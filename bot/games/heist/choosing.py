"""HEIST: the start of a turn (the active player picks the top obstacle of a job and, for an "or"
obstacle, which skill to test)."""
from __future__ import annotations

from bot.engine import Action, Event, State

from . import cards
from .assists import reveal
from .board import skill
from .cards import OBSTACLE


def choose_actions(state: State, seat: int) -> list[Action]:
    """Every job's top obstacle, once per skill test it offers."""
    actions: list[Action] = []
    for letter in cards.LETTERS:
        stack = state["jobs"][letter]
        if stack:
            for option, _ in enumerate(OBSTACLE[stack[0]]["test"]):
                actions.append({"type": "choose", "job": letter, "option": option})
    return actions


def choose(state: State, seat: int, action: Action) -> list[Event]:
    """The pawn moves to the job and a test starts; helpers are asked (solo: the tokens come at once)."""
    letter = action["job"]
    obstacle = OBSTACLE[state["jobs"][letter][0]]
    option = obstacle["test"][action["option"]]
    state["locations"][seat] = letter
    state["test"] = {"job": letter, "obstacle": obstacle["id"], "option": action["option"], "commits": {},
                     "revealed": False, "assists": [], "tokens": [], "tricks": [], "bonus": 0,
                     "double": 0, "favour": 0, "clean_exit": False, "leftover": [],
                     "resolved": False}
    skill_sum = sum(skill(state, seat, name) for name in option["skills"])
    name = state["names"][seat]
    events: list[Event] = [{"type": "choose", "text": f"{name} moves to {cards.JOB[letter]['name']} and faces "
                            f"{obstacle['id']} {obstacle['name']}: {cards.test_label(option)} "
                            f"(their skill {skill_sum})."}]
    if state["n"] == 1:
        events += reveal(state)
    else:
        state["phase"] = "assist"
        events.append({"type": "assist_call", "text": "Everyone else: commit an assist card or nothing "
                       "(secretly; all are revealed together)."})
    return events
