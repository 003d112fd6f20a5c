"""HEIST: what each seat may see (the public board, plus a seat's own hand, secret and commit)."""
from __future__ import annotations

from typing import Any

from bot.engine import State

from . import cards, rules
from .assists import commit_text, picking
from .board import ROUNDS, current_option, mandatory, skills, to_act, total
from .cards import OBSTACLE, RESOURCE
from .scoring import scores, secret_met_now, secret_progress
from .texts import status_line
from .viewtypes import (
    AssistView,
    CardView,
    CurrentTestView,
    HeistPrivate,
    HeistView,
    JobView,
    LastView,
    ObstacleView,
    PlayerView,
    SecretResultView,
    TokenView,
)


def obstacle_view(state: State, obstacle_id: str) -> ObstacleView:
    """An obstacle as printed, plus whether it is Mandatory or its job's finale in this game."""
    obstacle = OBSTACLE[obstacle_id]
    return {"id": obstacle_id, "name": obstacle["name"], "job": obstacle["job"], "cheese": obstacle["cheese"],
            "mandatory": mandatory(state, obstacle_id), "finale": state["finales"][obstacle["job"]] == obstacle_id,
            "tests": [{"skills": option["skills"], "target": option["target"], "label": cards.test_label(option)}
                      for option in obstacle["test"]],
            "test_text": cards.obstacle_test_text(obstacle),
            "success": cards.effects_text(obstacle["success"]), "failure": cards.effects_text(obstacle["failure"])}


def card_view(card_id: str, with_id: bool = False) -> CardView:
    """A resource card's name, kind, text and rewards (and its id where a move may name it)."""
    card = RESOURCE[card_id]
    out: CardView = {"name": card["name"], "kind": card["kind"], "text": cards.card_text(card_id),
                     "cheese": card["cheese"], "upgrade": card["upgrade"]}
    if with_id:
        out["id"] = card_id
    return out


def _token_view(token: dict[str, Any]) -> TokenView:
    return {"colour": token["colour"], "face": token["face"], "value": cards.token_value(token),
            "ignored": token["ignored"]}


def _assist_view(assist: dict[str, Any]) -> AssistView:
    """An assist on the current test: the card, and who gave it (the seat comes first)."""
    return {"seat": assist["seat"], **card_view(assist["card"])}


def _jobs_view(state: State) -> list[JobView]:
    active_job = state["test"]["job"] if state["test"] else None
    return [{"letter": job["letter"], "name": job["name"], "left": len(state["jobs"][job["letter"]]),
             "length": rules.of(state).job_length[state["n"]],
             "stack": list(state["jobs"][job["letter"]]),
             "top": obstacle_view(state, state["jobs"][job["letter"]][0]) if state["jobs"][job["letter"]] else None,
             "completed": job["letter"] in state["completed"], "active": job["letter"] == active_job}
            for job in cards.JOBS]


def _player_view(state: State, seat: int) -> PlayerView:
    identity = cards.IDENTITY[state["identities"][seat]]
    pile = state["piles"][seat]
    return {
        "seat": seat, "name": state["names"][seat], "identity": identity["name"], "base": dict(identity["skills"]),
        "skills": skills(state, seat), "upgrades": [cards.card_name(card) for card in state["upgrades"][seat]],
        "location": state["locations"][seat], "hand": len(state["hands"][seat]),
        "pile": [card if card in OBSTACLE else cards.card_name(card) for card in pile],
        "pile_obstacles": [card for card in pile if card in OBSTACLE],
        "cheese": sum(OBSTACLE[card]["cheese"] if card in OBSTACLE else RESOURCE[card]["cheese"] for card in pile),
        "head_start": rules.of(state).head_start[state["n"]] if seat == state["start"] else 0,
        "wins_ties": seat == state["start"] and rules.of(state).start_wins_ties[state["n"]],
    }


def _test_view(state: State) -> CurrentTestView | None:
    test = state["test"]
    if not test:
        return None
    option = current_option(state)
    out: CurrentTestView = {
        "seat": state["active"], "job": test["job"], "obstacle": obstacle_view(state, test["obstacle"]),
        "option": test["option"], "label": cards.test_label(option), "target": option["target"],
        "revealed": test["revealed"],
        "committed": sorted(int(seat) for seat in test["commits"]),
        "waiting": to_act(state) if state["phase"] == "assist" else [],
        "assists": [_assist_view(assist) for assist in test["assists"]],
        "tokens": [_token_view(token) for token in test["tokens"]],
        "tricks": [card_view(card, True) for card in test["tricks"]],  # ids: a failed test's upgrade names one
    }
    if test["revealed"]:
        out["numbers"] = total(state)
    return out


def _last_view(state: State) -> LastView | None:
    last = state["last"]
    if not last:
        return None
    obstacle = OBSTACLE[last["obstacle"]]
    return {"seat": last["seat"], "obstacle": last["obstacle"], "name": obstacle["name"],
            "label": cards.test_label(obstacle["test"][last["option"]]), "total": last["total"],
            "target": last["target"], "success": last["success"],
            "tokens": [_token_view(token) for token in last["tokens"]],
            "assists": [{"seat": assist["seat"], "name": cards.card_name(assist["card"])}
                        for assist in last["assists"]],
            "tricks": [cards.card_name(card) for card in last["tricks"]]}


def _private_view(state: State, viewer: int) -> HeistPrivate:
    secret = cards.SECRET[state["secrets"][viewer]]
    test = state["test"]
    private: HeistPrivate = {
        "seat": viewer,
        "hand": [card_view(card, True) for card in sorted(state["hands"][viewer])],
        "secret": {"id": secret["id"], "name": secret["name"], "text": cards.secret_text(secret["id"], state["n"], rules.of(state).printed),
                   "cheese": secret["cheese"], "met_now": secret_met_now(state, viewer),
                   "progress": secret_progress(state, viewer)},
    }
    if test and not test["revealed"] and str(viewer) in test["commits"]:
        promise = test["commits"][str(viewer)]
        private["commit"] = commit_text(promise, test["job"]) if promise else "nothing"
    if test and picking(state, viewer) is not None:
        private["picking"] = str(picking(state, viewer))
    return private


def _secret_result(state: State, row: dict[str, Any]) -> SecretResultView:
    """A secret revealed at the end, and whether it was met."""
    secret = cards.SECRET[row["secret"]]
    return {"seat": row["seat"], "name": secret["name"], "text": cards.secret_text(row["secret"], state["n"], rules.of(state).printed),
            "cheese": secret["cheese"], "met": row["secret_met"]}


def view(state: State, viewer: int | None) -> HeistView:
    """The public board (``viewer`` None), plus ``private`` for a seat."""
    over = state["phase"] == "over"
    out: HeistView = {
        "game": "heist", "names": list(state["names"]), "n": state["n"], "round": state["round"], "rounds": ROUNDS,
        "phase": state["phase"], "active": state["active"], "start": state["start"],
        "options": dict(state["options"]),
        "status": status_line(state), "over": over,
        "heat": [{"round": index + 1, "colour": space["colour"], "count": space["count"], "done": space["done"]}
                 for index, space in enumerate(state["heat"])],
        "bag": dict(state["bag"]), "bag_total": sum(state["bag"].values()), "supply": dict(state["supply"]),
        "faces": {colour: list(cards.TOKENS[colour]["faces"]) for colour in cards.COLOURS},
        "spent": [cards.token_label(token) for token in state["spent"]],
        "deck": len(state["deck"]), "discard": len(state["discard"]),
        "discard_top": cards.card_name(state["discard"][-1]) if state["discard"] else None,
        "boxed": list(state["boxed"]), "completed": list(state["completed"]),
        "tests": state["tests"], "failed": state["failed"],  # public: every test is resolved in the open
        "jobs": _jobs_view(state),
        "players": [_player_view(state, seat) for seat in range(state["n"])],
        "test": _test_view(state),
        "last": _last_view(state),
    }
    if over:
        out["scores"] = scores(state)
        out["secrets"] = [_secret_result(state, row) for row in state["final"]]
    if viewer is not None:
        out["private"] = _private_view(state, viewer)
    return out
