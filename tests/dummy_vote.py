"""A tiny simultaneous game for platform tests: every seat secretly raises 1 or 2 fingers at once, then the
hands are shown; after two rounds the most fingers win. It has no teaching (no how to play, tutorial or help),
as a game before issue 30 was; register it only inside a test (``registered``), never for the session."""
from __future__ import annotations

import contextlib

from bot.engine import Engine, GameMeta
from bot.games import register, registry
from bot.rng import Rng

ROUNDS = 2


class VoteEngine(Engine):
    meta = GameMeta(key="vote", name="Show of Hands", min_players=2, max_players=4,
                    blurb="Everyone raises 1 or 2 fingers at once; most fingers after two rounds win.",
                    summary="Raise 1 or 2 fingers, all at once, twice.")

    def setup(self, names, options, seed):
        self.meta.check_players(len(names))
        return {"names": names, "rng": Rng.seed_state(seed), "round": 1, "hands": {}, "totals": [0] * len(names)}

    def to_act(self, state):
        if self.is_terminal(state):
            return []
        return [s for s in range(len(state["names"])) if str(s) not in state["hands"]]

    def legal_actions(self, state, seat):
        return [{"type": "raise", "n": n} for n in (1, 2)] if seat in self.to_act(state) else []

    def _apply(self, state, seat, action):
        state["hands"][str(seat)] = action["n"]
        events = [{"type": "raise", "text": f"{state['names'][seat]} has chosen."}]
        if len(state["hands"]) == len(state["names"]):
            for s, n in state["hands"].items():
                state["totals"][int(s)] += n
            shown = ", ".join(f"{state['names'][int(s)]} {n}" for s, n in sorted(state["hands"].items()))
            events.append({"type": "show", "text": f"Hands up: {shown}."})
            state["hands"] = {}
            state["round"] += 1
        return events

    def view(self, state, viewer):
        view = {"names": state["names"], "round": state["round"], "totals": state["totals"],
                "chosen": sorted(state["hands"])}
        if viewer is not None:
            view["private"] = {"mine": state["hands"].get(str(viewer))}
        return view

    def is_terminal(self, state):
        return state["round"] > ROUNDS

    def scores(self, state):
        best = max(state["totals"])
        return [{"seat": s, "score": t, "rank": 1 if t == best else 2, "won": t == best, "detail": ""}
                for s, t in enumerate(state["totals"])]

    def describe_action(self, state, seat, action):
        return f"Raise {action['n']}"

    def private_text(self, view):
        mine = view["private"]["mine"]
        return f"You raised {mine}." if mine else "You haven't chosen yet."

    def bot_action(self, state, seat, rng):
        return {"type": "raise", "n": 2}


ENGINE = VoteEngine()


@contextlib.contextmanager
def registered():
    """The game in the registry for the length of a test."""
    register(ENGINE)
    try:
        yield ENGINE
    finally:
        registry().pop(ENGINE.meta.key, None)
