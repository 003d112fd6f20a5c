"""A tiny game for platform tests: take 1 or 2 coins from a pile; whoever takes
the last coin wins. Each seat holds a secret word (shown only to its owner).
It teaches itself as the real games do (bot/teach.py): how to play, a glossary, help
for its one kind of move and a three-step tutorial, for the platform's teaching tests."""
from __future__ import annotations

from bot.engine import Engine, GameMeta, Option
from bot.rng import Rng
from bot.teach import HowToPlay, Tutorial, TutorialStep

WORDS = ["ZEBRA-SECRET", "MANGO-SECRET", "COMET-SECRET", "OPAL-SECRET"]


class DummyEngine(Engine):
    meta = GameMeta(key="dummy", name="Coin Pile", min_players=2, max_players=4,
                    blurb="Take 1 or 2 coins; the last coin wins.", summary="Take 1 or 2 coins.",
                    options=(Option("pile", "Coins in the pile", 7, minimum=3, maximum=30),
                             Option("streak", "Moves in a row per turn", 1, minimum=1, maximum=3)))

    def setup(self, names, options, seed):
        self.meta.check_players(len(names))
        state = {"names": names, "rng": Rng.seed_state(seed), "pile": options["pile"], "turn": 0, "winner": None,
                 "streak": options.get("streak", 1), "moved": 0}
        words = list(WORDS)
        Rng(state).shuffle(words)
        state["words"] = words[: len(names)]
        return state

    def to_act(self, state):
        return [] if self.is_terminal(state) else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "n": n} for n in (1, 2) if n <= state["pile"]]

    def _apply(self, state, seat, action):
        state["pile"] -= action["n"]
        name = state["names"][seat]
        events = [{"type": "take", "text": f"{name} takes {action['n']} (pile {state['pile']})."}]
        if state["pile"] == 0:
            state["winner"] = seat
            events.append({"type": "win", "text": f"{name} takes the last coin and wins!"})
        elif state.get("moved", 0) + 1 < state.get("streak", 1):
            state["moved"] = state.get("moved", 0) + 1  # the same player goes on
        else:
            state["moved"] = 0
            state["turn"] = (seat + 1) % len(state["names"])
            # A private note, and the secret word changes hands to test DM delivery.
            nxt = state["turn"]
            state["words"][nxt] = state["words"][nxt].split("#")[0] + f"#{state['pile']}"
            events.append({"type": "note", "to": nxt, "text": f"Your word is now {state['words'][nxt]}."})
        return events

    def view(self, state, viewer):
        v = {"names": state["names"], "pile": state["pile"], "turn": state["turn"], "winner": state["winner"],
             "status": self.status_line(state)}
        if viewer is not None:
            v["private"] = {"word": state["words"][viewer]}
        return v

    def is_terminal(self, state):
        return state["winner"] is not None

    def scores(self, state):
        return [{"seat": s, "score": int(s == state["winner"]), "rank": 1 if s == state["winner"] else 2,
                 "won": s == state["winner"], "detail": ""} for s in range(len(state["names"]))]

    def describe_action(self, state, seat, action):
        return f"Take {action['n']}"

    def private_text(self, view):
        return f"Your secret word: **{view['private']['word']}**"

    def bot_action(self, state, seat, rng):
        legal = self.legal_actions(state, seat)
        for a in legal:
            if (state["pile"] - a["n"]) % 3 == 0:
                return a
        return legal[0]


    # --- teaching (a real game has these in its bot/games/<key>/teach.py) ---
    def how_to_play(self):
        return HOW_TO_PLAY

    def glossary(self):
        return {"pile": "The coins still on the table."}

    def action_help(self, state, seat, legal):
        return {"take": f"Take coins from the pile ({state['pile']} left); whoever takes the last one wins."}

    def tutorial(self):
        return TUTORIAL


HOW_TO_PLAY = HowToPlay(
    goal="Be the one who takes the last coin from the pile.",
    winning="Whoever takes the last coin wins; nothing else scores.",
    turn="On your turn take 1 or 2 coins (the buttons say which).",
    board="The board says how many coins are left in the pile.")


def tutorial_start():
    """The lesson's table: the learner ("You", seat 0) against one bot, 7 coins."""
    return ENGINE.setup(["You", "Bot"], ENGINE.meta.resolve_options({"pile": 7}), seed=1)


TUTORIAL = Tutorial(
    seat=0, start=tutorial_start, intro="Coin Pile in three steps.",
    steps=(
        TutorialStep("The goal", "There are 7 coins. You and the bot take turns; whoever takes the last coin wins.",
                     expect=None),
        TutorialStep("Taking coins", "On your turn you take 1 or 2 coins. Take one now.",
                     expect=({"type": "take", "n": 1},), hint="Press **Take 1**.",
                     wrong="This step is about taking one coin: press Take 1.",
                     after="You took one coin; the bot took its turn."),
        TutorialStep("The last coin", "Two coins are left and it's your turn: take them both and win.",
                     expect=({"type": "take", "n": 2},), hint="Press **Take 2**.",
                     wrong="Take 1 would leave the last coin to the bot. Take both.",
                     after="You took the last coin and won.",
                     position=lambda: {**tutorial_start(), "pile": 2}),
    ))

ENGINE = DummyEngine()
