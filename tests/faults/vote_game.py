"""A tiny simultaneous game for fault tests: each round every seat secretly picks
1, 2 or 3 at the same time; when all have picked, the picks are revealed and added
to the seats' totals. Three rounds; the highest total wins."""
from __future__ import annotations

from bot.engine import Engine, GameMeta
from bot.rng import Rng


class VoteEngine(Engine):
    meta = GameMeta(key="vote", name="Secret Vote", min_players=2, max_players=6, blurb="Pick together.",
                    summary="Everyone picks 1-3 at once.")

    def setup(self, names, options, seed):
        self.meta.check_players(len(names))
        state = {"names": names, "rng": Rng.seed_state(seed), "round": 1, "rounds": 3,
                 "picks": [None] * len(names), "totals": [0] * len(names)}
        state["codes"] = [f"CODE{Rng(state).randint(1000, 9999)}" for _ in names]
        return state

    def to_act(self, state):
        if self.is_terminal(state):
            return []
        return [s for s, p in enumerate(state["picks"]) if p is None]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "pick", "n": n} for n in (1, 2, 3)]

    def _apply(self, state, seat, action):
        state["picks"][seat] = action["n"]
        name = state["names"][seat]
        events = [{"type": "chose", "text": f"{name} has chosen."},
                  {"type": "note", "to": seat, "text": f"You picked {action['n']} ({state['codes'][seat]})."}]
        if all(p is not None for p in state["picks"]):
            for s, p in enumerate(state["picks"]):
                state["totals"][s] += p
            events.append({"type": "reveal", "text": "Picks: " + ", ".join(map(str, state["picks"]))})
            state["picks"] = [None] * len(state["names"])
            state["round"] += 1
        return events

    def view(self, state, viewer):
        v = {"names": state["names"], "round": state["round"], "totals": state["totals"],
             "chosen": [p is not None for p in state["picks"]], "status": self.status_line(state)}
        if viewer is not None:
            v["private"] = {"pick": state["picks"][viewer], "code": state["codes"][viewer]}
        return v

    def is_terminal(self, state):
        return state["round"] > state["rounds"]

    def scores(self, state):
        best = max(state["totals"])
        return [{"seat": s, "score": t, "rank": 1 + sum(1 for o in state["totals"] if o > t), "won": t == best,
                 "detail": ""} for s, t in enumerate(state["totals"])]

    def describe_action(self, state, seat, action):
        return f"Pick {action['n']}"

    def private_text(self, view):
        return f"Your code: **{view['private']['code']}**; your pick: {view['private']['pick']}"


ENGINE = VoteEngine()
