"""Masterminds: Heist Society -- the rules engine (pure, deterministic, JSON state).

Flow of a turn (``state["phase"]``):

* ``turn``      the active player picks a PREP recruit-phase action (recruit / burn /
                draw) or a HEIST step (``heist``: heist slot + skill).
* ``crew``      after picking a step: choose 1-3 untapped recruits (``crew``) or go ``back``.
* ``burned``    after a burn: hire the drawn Talent or put it into the pool.
* ``plan``      two plan actions (draw, play an action, play gear, trade gear, end).
* ``gear2``     the optional second Gear card of a "play two gear" plan action.
* ``target``    an action card asks for its target.
* ``hire``      Headhunter (with a gem) lets you recruit from the fresh pool.
* ``window``    the interrupt window before a roll: EVERY seat commits one interrupt or
                passes, simultaneously and hidden (who is asked never depends on hands).
* ``suffer``    a FAILURE: choose which activated recruit suffers the Failure card.
* ``lose_gem``  a Failure consequence: choose a gem to return to the bag.
* ``continue``  after a success: pick the next step of that heist (then a crew) or hold.
* ``retire``    after completing a heist: choose the recruit who retires.
* ``discard``   upkeep: discard down to the hand limit of 6.
* ``over``      the game has ended; ``state["final"]`` holds the gem values.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations
from typing import Any

from bot.engine import Engine, GameMeta, Option, RuleError, competition_ranks
from bot.rng import Rng

from . import bot_player, calc
from .cards import (ABILITIES, CLEAR, COLOURS, FAILURES, HEISTS, PREP, TALENTS,
                    heist_steps, prep_name, prep_public, step_label, talent_public)

HAND_LIMIT = 6
TEAM_LIMIT = 4
DICE_PER_PLAYER = 5
MAX_ACTIVATE = 3
STEP_LETTERS = "ABCD"
PERFECT_FACE = 6  # the face shown when the choice can't matter
RECENT = 6  # public event lines kept for the board's "what just happened"

SUMMARY = """\
**Goal:** complete heists to collect gems. At the end every mastermind colour's gem value is rolled (1-6); Clear gems are worth 2. Most points wins.
**Your turn: PREP or HEIST.**
**PREP** — 1) *Recruit phase*, one of: recruit a Talent from the pool (team of up to 4, you may replace one); burn the pool and draw the top Talent (hire it or put it in the pool); or draw a Prep card. 2) *Plan phase*, twice: draw a Prep card, play ONE action card (💎 spend a gem for its bonus; "Instead" bonuses replace the normal effect), play up to TWO gear cards (one gear per recruit), or move/swap gear between your recruits. 3) Upkeep.
**HEIST** — pick the next open step of a heist (A→D) and the skill (if two are shown), then activate 1-3 untapped recruits and add their skill (+gear, abilities, Intel). An **interrupt window** opens for everyone: each player plays one interrupt or passes (hidden, revealed together; no answer = pass). Then:
• total already **greater** than the number → **PERFECTION**: place your die on any face (it is set to match most of your dice on that heist).
• else roll a die: total+roll **greater** → **SUCCESS** (place the rolled die); **equal** → **PUSH** (run over); **less** → **FAILURE**: the dice you placed on that heist this run come off again (bust), and one activated recruit flips a Failure card. If the step's skill is a trigger, that recruit rolls skill+die and must beat the test or suffer the consequence. Run over.
After a success: **hold** (end the run; your die stays) or **continue** to the next step of the same heist with recruits not yet used this turn. Anyone may continue a heist others started, but **step D is an inside job**: only a player with a die on that heist may attempt it. Whoever completes step D takes it.
**Completing step D:** take the TAKE in gems from the bag; draw a Prep card if your team has fewer than 4; all dice go back (3 of *your* dice showing the same number there = bonus gem); keep the heist's name card; discard all your gear; retire one recruit.
**Upkeep:** Fixer draws, recruits untap (injured ones stay tapped one more upkeep), pool and heists refill, discard to 6 cards.
**End:** when players+1 heists are completed the round is played out, then the game ends; it ends at once when the bag is emptied; or after the round limit. Tiebreak: more Clear gems, then more heists completed.
"""


# Never in a view: the decks' orders, the hands, hidden interrupt choices, the RNG, and the balance
# tallies (they name the cards dealt to hands).
_SECRET_KEYS = frozenset({"rng", "talent_deck", "prep_deck", "heist_deck", "failure_deck", "hands", "window", "stats"})


def _seat_order(start: int, n: int) -> list[int]:
    return [(start + i) % n for i in range(n)]


def recruit_value(entry: dict[str, Any], skill: str) -> int:
    """A team entry's value in ``skill``: effective stat (All-Rounder: at least 2) plus gear."""
    return calc.recruit_value(entry["card"], entry.get("gear"), skill)


class MastermindsEngine(Engine):
    meta = GameMeta(
        key="masterminds",
        name="Masterminds: Heist Society",
        min_players=2,
        max_players=5,
        blurb="Recruit a crew, gear up and push your luck through four-step heists for gems.",
        summary=SUMMARY,
        options=(
            Option("round_limit", "Round limit", 25, "The game also ends after this many rounds (anti-stall).",
                   minimum=8, maximum=60),
            Option("gems_per_colour", "Gems per colour", 5, "Gems of each mastermind colour put in the bag.",
                   minimum=3, maximum=10),
            Option("interrupt_seconds", "Interrupt window (seconds)", 20,
                   "How long everyone gets to play an interrupt or pass before a roll (then they pass).",
                   minimum=5, maximum=300),
        ),
    )

    # ------------------------------------------------------------------ setup
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict[str, Any]:
        n = len(names)
        self.meta.check_players(n)
        opts = self.meta.resolve_options(options)
        state: dict[str, Any] = {
            "names": list(names),
            "rng": Rng.seed_state(seed),
            "options": opts,
            "colours": COLOURS[:n],
        }
        rng = Rng(state)
        talent = sorted(TALENTS)
        prep = sorted(PREP)
        heist = sorted(HEISTS)
        failure = sorted(FAILURES)
        for deck in (talent, prep, heist, failure):
            rng.shuffle(deck)
        # Decks: the top card is the END of the list.
        state.update({
            "talent_deck": talent, "talent_discard": [],
            "prep_deck": prep, "prep_discard": [],
            "heist_deck": heist,
            "failure_deck": failure, "failure_discard": [],
            "bag": {c: opts["gems_per_colour"] for c in state["colours"]} | {CLEAR: 10},
            "gems": [{c: 0 for c in state["colours"]} | {CLEAR: 1} for _ in range(n)],
            "gem_total": {c: opts["gems_per_colour"] for c in state["colours"]} | {CLEAR: 10 + n},
            "dice": [DICE_PER_PLAYER] * n,
            "hands": [[] for _ in range(n)],
            "teams": [[] for _ in range(n)],
            "intel": [0] * n,
            "mementos": [[] for _ in range(n)],
            "pool": [],
            "heists": [None, None],
            "completed": 0,
            "target": n + 1,
            "round": 1,
            "phase": "turn",
            "plan_left": 0,
            "pending": None,
            "attempt": None,
            "test": None,
            "window": None,
            "run": None,
            "end_reason": None,
            "final": None,
            "last_roll": None,
            "recent": [],
            "stats": {"available": [], "used": [], "completions": [], "rolls": {}},
        })
        # Deal 4 Prep cards each; "play immediately" cards are set aside and shuffled back.
        aside = []
        for _ in range(4):
            for s in range(n):
                while True:
                    pid = state["prep_deck"].pop()
                    if PREP[pid]["kind"] == "immediate":
                        aside.append(pid)
                        continue
                    state["hands"][s].append(pid)
                    self._stat(state, "available", "prep:" + PREP[pid]["name"])
                    break
        state["prep_deck"].extend(aside)
        rng.shuffle(state["prep_deck"])
        events: list[dict[str, Any]] = []
        self._refresh_pool(state, events)
        self._refresh_heists(state, events)
        # Highest roll starts; ties roll off among the tied seats.
        contenders = list(range(n))
        rolloffs = []
        while True:
            rolls = [[s, rng.die(6)] for s in contenders]
            rolloffs.append(rolls)
            best = max(r for _, r in rolls)
            contenders = [s for s, r in rolls if r == best]
            if len(contenders) == 1:
                break
        state["first_rolls"] = rolloffs
        state["first"] = contenders[0]
        state["turn"] = contenders[0]
        return state

    # ------------------------------------------------------------------ helpers
    def _name(self, state, seat: int) -> str:
        return state["names"][seat]

    def _tname(self, tid: str) -> str:
        return TALENTS[tid]["name"]

    def _entry(self, state, tid: str) -> tuple[int, dict[str, Any]] | tuple[None, None]:
        for s, team in enumerate(state["teams"]):
            for e in team:
                if e["card"] == tid:
                    return s, e
        return None, None

    def _next_step(self, h: dict[str, Any]) -> int:
        for k, d in enumerate(h["dice"]):
            if d is None:
                return k
        return 4

    def _steps(self, h: dict[str, Any]) -> list[dict[str, Any]]:
        return heist_steps(h["a"], h["b"])

    def _heist_name(self, h: dict[str, Any]) -> str:
        return HEISTS[h["a"]]["name"]

    def _gem_colours(self, state) -> list[str]:
        return list(state["colours"]) + [CLEAR]

    def _draw_from(self, state, deck_key: str, discard_key: str | None, events, what: str) -> str | None:
        deck = state[deck_key]
        if not deck and discard_key and state[discard_key]:
            deck.extend(state[discard_key])
            state[discard_key].clear()
            Rng(state).shuffle(deck)
            events.append({"type": "reshuffle", "text": f"The {what} discard pile is shuffled into a new deck."})
        return deck.pop() if deck else None

    def attempt_total(self, state, seat: int, skill: str, tids: list[str], intel: bool = True) -> tuple[int, list[str]]:
        """Total and its parts for ``tids`` of ``seat`` on ``skill`` (before interrupts)."""
        team = {e["card"]: e for e in state["teams"][seat]}
        members = [(tid, team[tid]["gear"]) for tid in tids]
        return calc.crew_total(members, skill, state["intel"][seat] if intel else 0)

    # ------------------------------------------------------------------ contract
    def to_act(self, state) -> list[int]:
        if state["phase"] == "over":
            return []
        if state["phase"] == "window":
            w = state["window"]
            return [s for s in w["seats"] if str(s) not in w["done"]]
        return [state["turn"]]

    def turn_seats(self, state) -> list[int]:
        """An interrupt window is part of the rolling player's turn (the board is edited, not posted anew)."""
        return [] if state["phase"] == "over" else [state["turn"]]

    def is_terminal(self, state) -> bool:
        return state["phase"] == "over"

    def window_seconds(self, state, options: dict[str, Any]) -> int | None:
        """The interrupt window is real-time: a short deadline of its own, then "pass"."""
        if state["phase"] == "window":
            return int(options.get("interrupt_seconds", 20))
        return None

    def timeout_action(self, state, seat: int, rng: random.Random) -> dict[str, Any]:
        if state["phase"] == "window":
            return {"type": "pass"}
        return self.bot_action(state, seat, rng)

    def bot_action(self, state, seat: int, rng: random.Random) -> dict[str, Any]:
        """The bot sees what its seat sees: its view and its legal actions, nothing else."""
        return bot_player.choose(self.view(state, seat), self.legal_actions(state, seat), rng)

    # ----------------------------------------------------------- legal actions
    def _hire_replacements(self, state, seat: int) -> list[str | None]:
        team = state["teams"][seat]
        opts: list[str | None] = [None] if len(team) < TEAM_LIMIT else []
        return opts + [e["card"] for e in team]

    def _step_options(self, state, seat: int, slots) -> list[dict[str, Any]]:
        """First half of a heist attempt: which step (heist + skill). Needs a free die and a fresh recruit."""
        if state["dice"][seat] <= 0 or not any(not e["tapped"] for e in state["teams"][seat]):
            return []
        out = []
        for slot in slots:
            h = state["heists"][slot]
            if h is None:
                continue
            k = self._next_step(h)
            if k == 3 and not any(d and d["seat"] == seat for d in h["dice"][:3]):
                continue  # inside job: only a player with a die on the heist may attempt its step D
            for skill in self._steps(h)[k]["skills"]:
                out.append({"type": "heist", "heist": slot, "skill": skill})
                out.append({"type": "heist", "heist": slot, "skill": skill,
                            "recruits": self.suggested_crew(state, seat, slot, skill)})
        return out

    def suggested_crew(self, state, seat: int, slot: int, skill: str) -> list[str]:
        """The one-click crew offered next to each step: the best chance to beat the step,
        then the fewest recruits, then the least overkill (public facts only)."""
        h = state["heists"][slot]
        number = self._steps(h)[self._next_step(h)]["number"]
        best, key = [], None
        for option in self._crew_options(state, seat):
            tids = option["recruits"]
            total, _ = self.attempt_total(state, seat, skill, tids)
            clutch = any(TALENTS[t]["ability"] == "clutch" for t in tids)
            k = (-calc.p_beat(total, number, clutch), len(tids), total)
            if key is None or k < key:
                best, key = tids, k
        return best

    def _crew_options(self, state, seat: int) -> list[dict[str, Any]]:
        """Second half: which 1-3 untapped recruits attempt the chosen step."""
        untapped = [e["card"] for e in state["teams"][seat] if not e["tapped"]]
        return [{"type": "crew", "recruits": list(c)}
                for k in range(1, min(MAX_ACTIVATE, len(untapped)) + 1) for c in combinations(untapped, k)]

    def _unique_cards(self, hand: list[str], kind: str) -> list[str]:
        seen, out = set(), []
        for pid in hand:
            p = PREP[pid]
            if p["kind"] == kind and p["name"] not in seen:
                seen.add(p["name"])
                out.append(pid)
        return out

    def _action_targets(self, state, seat: int, pid: str, gem: str | None) -> list[dict[str, Any]] | None:
        """Targets for an action card (None = needs no target)."""
        eff = PREP[pid]["effect"]
        n = len(state["names"])
        if eff == "sabotage":
            return [{"type": "target", "seat": s} for s in range(n) if s != seat and state["hands"][s]]
        if eff == "doublecross":
            if gem:
                return [{"type": "target", "heist": i} for i, h in enumerate(state["heists"])
                        if h is not None and self._next_step(h) > 0]
            return [{"type": "target", "recruit": e["card"]} for s in range(n) if s != seat
                    for e in state["teams"][s] if e["gear"]]
        return None

    def _plan_options(self, state, seat: int) -> list[dict[str, Any]]:
        hand = state["hands"][seat]
        team = state["teams"][seat]
        out: list[dict[str, Any]] = [{"type": "draw"}]
        held = [c for c in self._gem_colours(state) if state["gems"][seat][c] > 0]
        for pid in self._unique_cards(hand, "action"):
            for gem in [None, *held]:
                targets = self._action_targets(state, seat, pid, gem)
                if targets is not None and not targets:
                    continue
                out.append({"type": "action", "card": pid, "gem": gem})
        bare = [e["card"] for e in team if not e["gear"]]
        for pid in self._unique_cards(hand, "gear"):
            for tid in bare:
                out.append({"type": "gear", "card": pid, "recruit": tid})
        geared = [e["card"] for e in team if e["gear"]]
        for a in geared:
            for e in team:
                if e["card"] != a:
                    out.append({"type": "trade", "from": a, "to": e["card"]})
        out.append({"type": "end_plan"})
        return out

    def _interrupt_ok(self, state, seat: int, pid: str, kind: str) -> bool:
        p = PREP[pid]
        if p["kind"] != "interrupt" or kind not in p["when"]:
            return False
        actor = state["turn"]
        if p["who"] == "self":
            return seat == actor
        if p["who"] == "other":
            return seat != actor
        return True

    def legal_actions(self, state, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "turn":
            out: list[dict[str, Any]] = []
            for tid in state["pool"]:
                for rep in self._hire_replacements(state, seat):
                    out.append({"type": "recruit", "card": tid, "replace": rep})
            out.append({"type": "burn"})
            out.append({"type": "draw_prep"})
            out.extend(self._step_options(state, seat, (0, 1)))
            return out
        if phase == "crew":
            return self._crew_options(state, seat) + [{"type": "back"}]
        if phase == "burned":
            return [{"type": "hire", "replace": rep} for rep in self._hire_replacements(state, seat)] + [{"type": "to_pool"}]
        if phase == "plan":
            return self._plan_options(state, seat)
        if phase == "gear2":
            bare = [e["card"] for e in state["teams"][seat] if not e["gear"]]
            return [{"type": "gear", "card": pid, "recruit": tid}
                    for pid in self._unique_cards(state["hands"][seat], "gear") for tid in bare] + [{"type": "gear_done"}]
        if phase == "target":
            return list(state["pending"]["targets"])
        if phase == "hire":
            return [{"type": "hire_pool", "card": tid, "replace": rep}
                    for tid in state["pool"] for rep in self._hire_replacements(state, seat)] + [{"type": "hire_skip"}]
        if phase == "window":
            kind = state["window"]["kind"]
            cards = [pid for pid in self._unique_cards(state["hands"][seat], "interrupt") if self._interrupt_ok(state, seat, pid, kind)]
            return [{"type": "pass"}] + [{"type": "interrupt", "card": pid} for pid in cards]
        if phase == "suffer":
            return [{"type": "suffer", "recruit": tid} for tid in state["attempt"]["recruits"]]
        if phase == "lose_gem":
            return [{"type": "give_gem", "colour": c} for c in self._gem_colours(state) if state["gems"][seat][c] > 0]
        if phase == "continue":
            return self._step_options(state, seat, (state["run"]["heist"],)) + [{"type": "hold"}]
        if phase == "retire":
            return [{"type": "retire", "recruit": e["card"]} for e in state["teams"][seat]]
        if phase == "discard":
            seen, out = set(), []
            for pid in state["hands"][seat]:
                if PREP[pid]["name"] not in seen:
                    seen.add(PREP[pid]["name"])
                    out.append({"type": "discard", "card": pid})
            return out
        return []

    # ------------------------------------------------------------------ apply
    def _apply(self, state, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        t = action["type"]
        name = self._name(state, seat)
        phase = state["phase"]
        if phase == "window":
            self._window_commit(state, seat, action, events)
        elif t == "recruit":
            events.append({"type": "prep", "text": f"{name} chooses PREP."})
            state["pool"].remove(action["card"])
            self._recruit(state, seat, action["card"], action["replace"], events)
            self._start_plan(state, events)
        elif t == "burn":
            events.append({"type": "prep", "text": f"{name} chooses PREP and burns the Talent Pool."})
            self._stat(state, "used", "mechanic:burn")
            state["talent_discard"].extend(state["pool"])
            state["pool"].clear()
            tid = self._draw_from(state, "talent_deck", "talent_discard", events, "Talent")
            if tid is None:
                events.append({"type": "burn", "text": "The Talent deck is empty."})
                self._start_plan(state, events)
            else:
                events.append({"type": "burn", "text": f"{name} draws {self._tname(tid)} from the Talent deck."})
                state["pending"] = {"card": tid}
                state["phase"] = "burned"
                self._stat(state, "available", "talent:" + self._tname(tid))
        elif t == "hire":
            tid = state["pending"]["card"]
            state["pending"] = None
            self._recruit(state, seat, tid, action["replace"], events)
            self._start_plan(state, events)
        elif t == "to_pool":
            tid = state["pending"]["card"]
            state["pending"] = None
            state["pool"].append(tid)
            events.append({"type": "pool", "text": f"{name} puts {self._tname(tid)} into the Talent Pool."})
            self._start_plan(state, events)
        elif t == "draw_prep":
            events.append({"type": "prep", "text": f"{name} chooses PREP and skips recruiting to draw a Prep card."})
            self._draw_prep(state, seat, 1, events)
            self._start_plan(state, events)
        elif t == "draw":
            self._draw_prep(state, seat, 1, events)
            self._plan_done(state, events)
        elif t == "action":
            self._play_action(state, seat, action["card"], action["gem"], events)
        elif t == "target":
            self._resolve_target(state, seat, action, events)
        elif t == "gear":
            self._play_gear(state, seat, action["card"], action["recruit"], events)
            if phase == "gear2":
                state["pending"] = None
                self._plan_done(state, events)
            else:
                bare = [e for e in state["teams"][seat] if not e["gear"]]
                if bare and any(PREP[p]["kind"] == "gear" for p in state["hands"][seat]):
                    state["phase"] = "gear2"
                    state["pending"] = {"first": action["card"]}
                else:
                    self._plan_done(state, events)
        elif t == "gear_done":
            state["pending"] = None
            self._plan_done(state, events)
        elif t == "trade":
            self._trade(state, seat, action["from"], action["to"], events)
            self._plan_done(state, events)
        elif t == "end_plan":
            events.append({"type": "plan", "text": f"{name} ends the plan phase."})
            state["plan_left"] = 0
            self._upkeep(state, events)
        elif t == "hire_pool":
            state["pool"].remove(action["card"])
            self._recruit(state, seat, action["card"], action["replace"], events)
            state["pending"] = None
            self._plan_done(state, events)
        elif t == "hire_skip":
            state["pending"] = None
            self._plan_done(state, events)
        elif t == "heist" and "recruits" in action:  # the one-click step + suggested crew
            self._start_attempt(state, seat, action, events)
        elif t == "heist":
            state["pending"] = {"heist": action["heist"], "skill": action["skill"], "back": phase}
            state["phase"] = "crew"
        elif t == "back":
            state["phase"] = state["pending"]["back"]
            state["pending"] = None
        elif t == "crew":
            pend = state["pending"]
            state["pending"] = None
            self._start_attempt(state, seat, {"heist": pend["heist"], "skill": pend["skill"],
                                              "recruits": action["recruits"]}, events)
        elif t == "hold":
            self._stat(state, "used", "mechanic:hold")
            h = state["heists"][state["run"]["heist"]]
            events.append({"type": "hold", "text": f"{name} holds the run on {self._heist_name(h)}."})
            self._upkeep(state, events)
        elif t == "suffer":
            self._suffer(state, action["recruit"], events)
        elif t == "give_gem":
            self._give_gem(state, seat, action["colour"], events)
            state["pending"] = None
            self._end_run(state, events)
        elif t == "retire":
            self._retire(state, seat, action["recruit"], events)
            self._end_run(state, events)
        elif t == "discard":
            state["hands"][seat].remove(action["card"])
            state["prep_discard"].append(action["card"])
            events.append({"type": "discard", "text": f"{name} discards {prep_name(action['card'])} (hand limit)."})
            if len(state["hands"][seat]) <= HAND_LIMIT:
                self._next_turn(state, events)
        else:  # pragma: no cover - legal_actions guards this
            raise RuleError("That move isn't part of this game.")
        if state.get("end_reason") and state["phase"] != "over":
            self._finish(state, events)
        recent = state.setdefault("recent", [])
        recent.extend(e["text"] for e in events if "to" not in e)
        del recent[:-RECENT]
        return events

    # ------------------------------------------------------------------ balance facts
    def _stat(self, state, key: str, name: str) -> None:
        """Remember for the balance report that ``name`` was available / used this game."""
        stats = state.setdefault("stats", {"available": [], "used": [], "completions": [], "rolls": {}})
        keys = ["available", "used"] if key == "used" else [key]
        for k in keys:
            if name not in stats[k]:
                stats[k].append(name)

    def balance_tally(self, state, trace) -> dict[str, Any]:
        stats = state.get("stats") or {"available": [], "used": [], "completions": [], "rolls": {}}
        comps = stats["completions"]
        reason = (state.get("final") or {}).get("reason") or state.get("end_reason")
        return {
            "end": {"heists": "heists completed", "bag": "bag emptied", "rounds": "round limit"}.get(reason, str(reason)),
            "available": sorted(stats["available"]),
            "used": sorted(stats["used"]),
            "completions": len(comps),
            "snipes": sum(1 for c in comps if c["own"] == 0),
            "rolls": dict(stats["rolls"]),
        }

    # ------------------------------------------------------------------ prep
    def _recruit(self, state, seat: int, tid: str, replace: str | None, events) -> None:
        name = self._name(state, seat)
        team = state["teams"][seat]
        text = f"{name} recruits {self._tname(tid)}"
        if replace:
            self._discard_recruit(state, seat, replace)
            text += f", replacing {self._tname(replace)}"
        team.append({"card": tid, "gear": None, "tapped": False, "injured": False})
        events.append({"type": "recruit", "text": text + "."})
        self._stat(state, "used", "talent:" + self._tname(tid))
        self._stat(state, "available", "ability:" + ABILITIES[TALENTS[tid]["ability"]]["name"])
        if TALENTS[tid]["ability"] == "scout":
            self._stat(state, "used", "ability:Scout")
            events.append({"type": "ability", "text": f"{self._tname(tid)} (Scout) brings a Prep card."})
            self._draw_prep(state, seat, 1, events)

    def _discard_recruit(self, state, seat: int, tid: str) -> None:
        team = state["teams"][seat]
        for i, e in enumerate(team):
            if e["card"] == tid:
                if e["gear"]:
                    state["prep_discard"].append(e["gear"])
                state["talent_discard"].append(tid)
                del team[i]
                return

    def _start_plan(self, state, events) -> None:
        state["phase"] = "plan"
        state["plan_left"] = 2

    def _plan_done(self, state, events) -> None:
        state["plan_left"] -= 1
        if state["plan_left"] <= 0:
            self._upkeep(state, events)
        else:
            state["phase"] = "plan"

    def _draw_prep(self, state, seat: int, count: int, events, ctx: dict | None = None) -> None:
        """Draw ``count`` Prep cards; immediate cards resolve at once (one reshuffle per draw effect)."""
        ctx = ctx if ctx is not None else {"reshuffled": False}
        name = self._name(state, seat)
        drawn = []
        for _ in range(count):
            if state["phase"] == "over" or state.get("end_reason"):
                break
            if not state["prep_deck"]:
                if ctx["reshuffled"] or not state["prep_discard"]:
                    events.append({"type": "draw", "text": "The Prep deck is empty."})
                    break
                ctx["reshuffled"] = True
            pid = self._draw_from(state, "prep_deck", "prep_discard", events, "Prep")
            if pid is None:
                break
            p = PREP[pid]
            if p["kind"] == "immediate":
                if drawn:
                    self._draw_event(state, seat, drawn, events)
                    drawn = []
                events.append({"type": "immediate", "text": f"{name} draws {p['name']} and must play it at once: {p['text'].split(': ', 1)[-1]}"})
                state["prep_discard"].append(pid)
                self._stat(state, "used", "prep:" + p["name"])
                self._immediate(state, seat, p["effect"], events, ctx)
            else:
                self._stat(state, "available", "prep:" + p["name"])
                state["hands"][seat].append(pid)
                drawn.append(pid)
        if drawn:
            self._draw_event(state, seat, drawn, events)

    def _draw_event(self, state, seat, drawn, events) -> None:
        n = len(drawn)
        events.append({"type": "draw", "text": f"{self._name(state, seat)} draws {n} Prep card{'s' if n > 1 else ''}."})
        events.append({"type": "draw", "to": seat, "text": "You draw " + ", ".join(prep_name(p) for p in drawn) + "."})

    def _immediate(self, state, seat: int, effect: str, events, ctx) -> None:
        if effect == "windfall":
            self._take_gems(state, seat, 1, events, "Windfall")
        elif effect == "tip":
            self._draw_prep(state, seat, 2, events, ctx)
        elif effect == "rivals":
            self._burn_and_refill(state, events)
        elif effect == "lockdown":
            for slot, h in enumerate(state["heists"]):
                if h is not None and slot != state.get("completing"):
                    self._pop_last_die(state, h, events)
            if state.get("completing") is not None:
                events.append({"type": "immediate", "text": "The heist being completed is already cracked: "
                               "Lockdown doesn't touch its dice."})

    def _burn_and_refill(self, state, events) -> None:
        state["talent_discard"].extend(state["pool"])
        state["pool"].clear()
        self._refresh_pool(state, events)
        events.append({"type": "pool", "text": "The Talent Pool is burned and refilled: "
                       + (", ".join(self._tname(t) for t in state["pool"]) or "nobody") + "."})

    def _pop_last_die(self, state, h, events) -> None:
        k = self._next_step(h) - 1
        if k < 0:
            return
        d = h["dice"][k]
        h["dice"][k] = None
        state["dice"][d["seat"]] += 1
        events.append({"type": "die", "text": f"{self._name(state, d['seat'])}'s die on {self._heist_name(h)} step {STEP_LETTERS[k]} goes back to them."})

    def _take_gems(self, state, seat: int, count: int, events, reason: str) -> None:
        rng = Rng(state)
        got: Counter = Counter()
        colours = self._gem_colours(state)
        for _ in range(count):
            total = sum(state["bag"].values())
            if total == 0:
                break
            r = rng.below(total)
            for c in colours:
                if r < state["bag"][c]:
                    state["bag"][c] -= 1
                    state["gems"][seat][c] += 1
                    got[c] += 1
                    break
                r -= state["bag"][c]
        left = sum(state["bag"].values())
        if got:
            desc = ", ".join(f"{n} {c}" for c, n in got.items())
            events.append({"type": "gems", "text": f"{self._name(state, seat)} takes {sum(got.values())} gem{'s' if sum(got.values()) > 1 else ''} from the bag ({reason}): {desc}. Bag: {left} left."})
        if left == 0:
            events.append({"type": "end", "text": "The last gem has been taken from the bag!"})
            state["end_reason"] = "bag"

    def _give_gem(self, state, seat: int, colour: str, events) -> None:
        state["gems"][seat][colour] -= 1
        state["bag"][colour] += 1
        events.append({"type": "gems", "text": f"{self._name(state, seat)} returns a {colour} gem to the bag."})

    def _play_action(self, state, seat: int, pid: str, gem: str | None, events) -> None:
        p = PREP[pid]
        name = self._name(state, seat)
        state["hands"][seat].remove(pid)
        state["prep_discard"].append(pid)
        self._stat(state, "used", "prep:" + p["name"])
        if any(state["gems"][seat].values()):
            self._stat(state, "available", "mechanic:gem bonus")
        text = f"{name} plays {p['name']}"
        if gem:
            self._stat(state, "used", "mechanic:gem bonus")
            state["gems"][seat][gem] -= 1
            state["bag"][gem] += 1
            text += f", spending a {gem} gem ({p['gem_text'].rstrip('.')})"
        else:
            text += f" ({p['text'].rstrip('.')})"
        events.append({"type": "action", "text": text + "."})
        eff = p["effect"]
        targets = self._action_targets(state, seat, pid, gem)
        if targets is not None:
            state["pending"] = {"card": pid, "gem": gem, "targets": targets}
            if len(targets) == 1:
                self._resolve_target(state, seat, targets[0], events)
            else:
                state["phase"] = "target"
            return
        if eff == "intel":
            state["intel"][seat] += 4 if gem else 2
            events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
        elif eff == "draw":
            self._draw_prep(state, seat, 3 if gem else 2, events)
        elif eff == "blackmarket":
            self._draw_prep(state, seat, 3 if gem else 1, events)
            if not gem:
                state["intel"][seat] += 1
                events.append({"type": "intel", "text": f"{name} now has {state['intel'][seat]} Intel for the next heist attempt."})
        elif eff == "headhunt":
            self._burn_and_refill(state, events)
            if gem and state["pool"]:
                state["phase"] = "hire"
                state["pending"] = {"card": pid}
                return
        self._plan_done(state, events)

    def _resolve_target(self, state, seat: int, action, events) -> None:
        pend = state["pending"]
        state["pending"] = None
        eff = PREP[pend["card"]]["effect"]
        gem = pend["gem"]
        rng = Rng(state)
        if eff == "sabotage":
            victim = action["seat"]
            hand = state["hands"][victim]
            lost = []
            for _ in range(2 if gem else 1):
                if hand:
                    lost.append(hand.pop(rng.below(len(hand))))
            state["prep_discard"].extend(lost)
            events.append({"type": "sabotage", "text": f"{self._name(state, victim)} discards "
                           + ", ".join(prep_name(p) for p in lost) + " at random."})
        elif eff == "doublecross" and gem:
            self._pop_last_die(state, state["heists"][action["heist"]], events)
        elif eff == "doublecross":
            owner, e = self._entry(state, action["recruit"])
            g = e["gear"]
            e["gear"] = None
            state["prep_discard"].append(g)
            events.append({"type": "gear", "text": f"{self._name(state, owner)}'s {self._tname(e['card'])} loses {prep_name(g)}."})
        self._plan_done(state, events)

    def _play_gear(self, state, seat: int, pid: str, tid: str, events) -> None:
        state["hands"][seat].remove(pid)
        self._stat(state, "used", "prep:" + prep_name(pid))
        _, e = self._entry(state, tid)
        e["gear"] = pid
        events.append({"type": "gear", "text": f"{self._name(state, seat)} equips {self._tname(tid)} with {prep_name(pid)} ({PREP[pid]['text'].rstrip('.')})."})

    def _trade(self, state, seat: int, a: str, b: str, events) -> None:
        self._stat(state, "used", "mechanic:trade gear")
        _, ea = self._entry(state, a)
        _, eb = self._entry(state, b)
        ea["gear"], eb["gear"] = eb["gear"], ea["gear"]
        verb = "swaps gear between" if ea["gear"] and eb["gear"] else "moves gear from"
        sep = "and" if ea["gear"] and eb["gear"] else "to"
        events.append({"type": "trade", "text": f"{self._name(state, seat)} {verb} {self._tname(a)} {sep} {self._tname(b)}."})

    # ------------------------------------------------------------------ heist
    def _start_attempt(self, state, seat: int, action, events) -> None:
        slot = action["heist"]
        h = state["heists"][slot]
        k = self._next_step(h)
        step = self._steps(h)[k]
        tids = action["recruits"]
        for e in state["teams"][seat]:
            if e["card"] in tids:
                e["tapped"] = True
        total, parts = self.attempt_total(state, seat, action["skill"], tids)
        for ability in ("Lone Wolf", "Ringleader"):
            if any(x.startswith(ability) for x in parts):
                self._stat(state, "used", "ability:" + ability)
        team = {e["card"]: e for e in state["teams"][seat]}
        for tid in tids:
            t = TALENTS[tid]
            if t["ability"] == "allrounder" and t["stat"][action["skill"]] < 2:
                self._stat(state, "used", "ability:All-Rounder")
            gear = team[tid]["gear"]
            if t["ability"] == "gearhead" and gear and PREP[gear]["skill"] in ("all", action["skill"]):
                self._stat(state, "used", "ability:Gearhead")
        state["intel"][seat] = 0
        first = state["run"] is None
        placed = [] if first else state["run"].get("placed", [])
        state["run"] = {"heist": slot, "placed": placed}
        state["attempt"] = {
            "seat": seat, "heist": slot, "step": k, "skill": action["skill"], "number": step["number"],
            "recruits": list(tids), "base": total, "parts": parts, "mods": 0, "two_dice": False,
            "no_perfect": False, "cover": False, "played": [], "roll": None, "result": None, "failure": None,
        }
        who = " + ".join(self._tname(t) for t in tids)
        lead = f"{self._name(state, seat)} goes for a HEIST: " if first else f"{self._name(state, seat)} continues: "
        events.append({"type": "attempt", "text": f"{lead}{self._heist_name(h)} step {STEP_LETTERS[k]} "
                       f"({action['skill']} {step['number']}) with {who}: total {total} ({', '.join(parts)})."})
        self._open_window(state, "step", events)

    def _open_window(self, state, kind: str, events) -> None:
        """Every seat is asked, whatever it holds: the window, its texts and its timing
        reveal nothing about hands. Bots answer at once; a timeout passes."""
        n = len(state["names"])
        seats = _seat_order(state["turn"], n)
        state["window"] = {"kind": kind, "seats": seats, "done": {}}
        state["phase"] = "window"
        self._stat(state, "available", "mechanic:interrupt window")
        what = "roll" if kind == "step" else "Failure test"
        events.append({"type": "window", "text": f"Interrupt window before the {what}: everyone may play an "
                       f"interrupt or pass; {self._name(state, state['turn'])} rolls when all have answered."})

    def _window_commit(self, state, seat: int, action, events) -> None:
        w = state["window"]
        w["done"][str(seat)] = action.get("card") if action["type"] == "interrupt" else None
        if action["type"] == "interrupt":
            events.append({"type": "commit", "to": seat, "text": f"You will play {prep_name(action['card'])} when the window closes."})
        events.append({"type": "commit", "text": f"{self._name(state, seat)} has decided."})
        if any(str(s) not in w["done"] for s in w["seats"]):
            return
        # Everyone has decided: reveal and apply in seat order from the active player.
        played = 0
        for s in w["seats"]:
            pid = w["done"][str(s)]
            if not pid:
                continue
            played += 1
            state["hands"][s].remove(pid)
            state["prep_discard"].append(pid)
            self._stat(state, "used", "prep:" + prep_name(pid))
            self._stat(state, "used", "mechanic:interrupt window")
            self._apply_interrupt(state, s, pid, w["kind"], events)
        if not played:
            events.append({"type": "window", "text": "Nobody plays an interrupt."})
        state["window"] = None
        if w["kind"] == "step":
            self._resolve_step(state, events)
        else:
            self._resolve_test(state, events)

    def _apply_interrupt(self, state, s: int, pid: str, kind: str, events) -> None:
        p = PREP[pid]
        target = state["attempt"] if kind == "step" else state["test"]
        eff = p["effect"]
        if eff == "plus2":
            target["mods"] += 2
        elif eff == "minus2":
            target["mods"] -= 2
        elif eff == "twodice":
            target["two_dice"] = True
        elif eff == "noperfect":
            target["no_perfect"] = True
        elif eff == "cover":
            target["cover"] = True
        target.setdefault("played", []).append(p["name"])
        events.append({"type": "interrupt", "text": f"{self._name(state, s)} plays {p['name']}: {p['text']}"})

    def _roll(self, state, two: bool, lucky: bool) -> tuple[int, str]:
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

    def _resolve_step(self, state, events) -> None:
        at = state["attempt"]
        seat = at["seat"]
        name = self._name(state, seat)
        total = at["base"] + at["mods"]
        label = f"{at['skill']} {at['number']}"
        abilities = {TALENTS[t]["ability"] for t in at["recruits"]}
        # The face only matters for matching your own dice on this heist (three alike pay a bonus gem), so a
        # free face is set for you: the value most of your dice there show; with none there, every face is alike.
        h = state["heists"][at["heist"]]
        match = self._matching_face(h, seat)
        if total > at["number"] and not at["no_perfect"]:
            at["result"] = "perfection"
            rolls = state.setdefault("stats", {}).setdefault("rolls", {})
            rolls["perfection"] = rolls.get("perfection", 0) + 1
            face = PERFECT_FACE if match is None else match
            why = ("no other die of theirs on this heist, so any face is as good" if match is None
                   else "matching their dice on this heist")
            text = f"{name}'s total {total} already beats {label}: PERFECTION! The die shows {face} ({why})."
            state["last_roll"] = text
            events.append({"type": "tally", "text": text})
            self._place_die(state, face, events)
            return
        die, dtext = self._roll(state, at["two_dice"], "lucky" in abilities)
        at["roll"] = die
        final = total + die
        if at["no_perfect"] and die == 1:
            result = "failure"
        elif final > at["number"]:
            result = "success"
        elif final == at["number"]:
            result = "push"
        else:
            result = "failure"
        note = ""
        if result == "push" and "clutch" in abilities:
            self._stat(state, "used", "ability:Clutch")
            result = "success"
            note = " (Clutch turns the push into a success)"
        if at["no_perfect"] and die == 1:
            note = " (Tripped Alarm: a rolled 1 fails)"
        at["result"] = result
        rolls = state.setdefault("stats", {}).setdefault("rolls", {})
        rolls[result] = rolls.get(result, 0) + 1
        if "Lucky re-roll" in dtext:
            self._stat(state, "used", "ability:Lucky")
        text = f"{name} rolls {dtext} for {label}: total {total} + {die} = {final}: {result}{note}."
        state["last_roll"] = text
        events.append({"type": "roll", "text": text})
        if result == "success":
            if "perfectionist" in abilities and match is not None and match != die:
                self._stat(state, "used", "ability:Perfectionist")
                events.append({"type": "ability", "text": f"Perfectionist: {name}'s die shows {match} instead of "
                               f"{die}, matching their dice on this heist."})
                die = match
            self._place_die(state, die, events)
        elif result == "push":
            events.append({"type": "push", "text": f"PUSH: {name}'s heist run is over."})
            self._end_run(state, events)
        else:
            if at["cover"]:
                events.append({"type": "fail", "text": f"FAILURE, but {name}'s Cover Story means no Failure card "
                               "and no lost dice. The run is over."})
                self._end_run(state, events)
                return
            self._bust(state, events)
            if len(at["recruits"]) == 1:
                self._suffer(state, at["recruits"][0], events)
            else:
                state["phase"] = "suffer"

    @staticmethod
    def _matching_face(h: dict[str, Any], seat: int) -> int | None:
        """The face that matches most of ``seat``'s dice on heist ``h`` (ties: the higher), None if it has none."""
        own = Counter(d["value"] for d in h["dice"] if d and d["seat"] == seat)
        return max(own, key=lambda v: (own[v], v)) if own else None

    def _bust(self, state, events) -> None:
        """Press your luck: a FAILURE knocks off the dice you placed on this heist during this run."""
        at = state["attempt"]
        h = state["heists"][at["heist"]]
        placed = sorted(state["run"].get("placed", []), reverse=True)
        for k in placed:
            d = h["dice"][k]
            if d and d["seat"] == at["seat"] and self._next_step(h) == k + 1:
                self._pop_last_die(state, h, events)
        if placed:
            self._stat(state, "used", "mechanic:bust")
        state["run"]["placed"] = []

    def _place_die(self, state, value: int, events) -> None:
        at = state["attempt"]
        seat = at["seat"]
        state["pending"] = None
        h = state["heists"][at["heist"]]
        h["dice"][at["step"]] = {"seat": seat, "value": value}
        state["dice"][seat] -= 1
        state["run"].setdefault("placed", []).append(at["step"])
        events.append({"type": "die", "text": f"{self._name(state, seat)} places a {value} on {self._heist_name(h)} step {STEP_LETTERS[at['step']]}."})
        if at["step"] == 3:
            self._complete(state, events)
            return
        if self._step_options(state, seat, (at["heist"],)):
            state["phase"] = "continue"
            self._stat(state, "available", "mechanic:hold")
        else:
            events.append({"type": "hold", "text": f"{self._name(state, seat)} has no fresh recruits or dice left to continue; the run ends."})
            self._end_run(state, events)

    def _complete(self, state, events) -> None:
        at = state["attempt"]
        seat = at["seat"]
        name = self._name(state, seat)
        slot = at["heist"]
        h = state["heists"][slot]
        hname = self._heist_name(h)
        events.append({"type": "complete", "text": f"{name} completes {hname}!"})
        mine = sum(1 for d in h["dice"][:3] if d and d["seat"] == seat)
        state.setdefault("stats", {}).setdefault("completions", []).append({"seat": seat, "own": mine})
        self._take_gems(state, seat, HEISTS[h["b"]]["take"], events, f"the take of {hname}")
        if len(state["teams"][seat]) < TEAM_LIMIT:
            state["completing"] = slot  # a Lockdown drawn here can't undo the heist being completed
            self._draw_prep(state, seat, 1, events)
            state["completing"] = None
        own = Counter(d["value"] for d in h["dice"] if d and d["seat"] == seat)
        for d in h["dice"]:
            if d:
                state["dice"][d["seat"]] += 1
        h["dice"] = [None] * 4
        if own and max(own.values()) >= 3:
            value = max(own, key=lambda v: (own[v], v))
            events.append({"type": "bonus", "text": f"{name} had three matching dice ({value}s) on {hname}: bonus gem!"})
            self._take_gems(state, seat, 1, events, "matching dice bonus")
        state["mementos"][seat].append(h["a"])
        state["heist_deck"].insert(0, h["b"])
        state["heists"][slot] = None
        state["completed"] += 1
        if state["completed"] >= state["target"] and not state.get("final_round"):
            # Everyone gets the same number of turns: the round is played out, then the game ends.
            state["final_round"] = True
            events.append({"type": "end", "text": f"That is heist {state['completed']} of {state['target']}: "
                           "the game ends when this round is over!"})
        gear = [e for e in state["teams"][seat] if e["gear"]]
        for e in gear:
            state["prep_discard"].append(e["gear"])
            e["gear"] = None
        if gear:
            events.append({"type": "gear", "text": f"{name} burns all gear on the team."})
        team = state["teams"][seat]
        if len(team) > 1:
            state["phase"] = "retire"
        elif team:
            self._retire(state, seat, team[0]["card"], events)
            self._end_run(state, events)
        else:  # pragma: no cover - an attempt needs a recruit, who is still on the team
            self._end_run(state, events)

    def _retire(self, state, seat: int, tid: str, events) -> None:
        self._discard_recruit(state, seat, tid)
        events.append({"type": "retire", "text": f"{self._tname(tid)} fences the loot and retires from {self._name(state, seat)}'s team."})
        if TALENTS[tid]["ability"] == "fence":
            self._stat(state, "used", "ability:Fence")
            self._take_gems(state, seat, 1, events, "Fence")

    def _suffer(self, state, tid: str, events) -> None:
        at = state["attempt"]
        fid = self._draw_from(state, "failure_deck", "failure_discard", events, "Failure")
        state["failure_discard"].append(fid)
        f = FAILURES[fid]
        at["failure"] = fid
        test = f["test"]
        events.append({"type": "failure", "text": f"FAILURE: {self._tname(tid)} flips {f['name']} (triggers: {', '.join(f['triggers'])}; "
                       f"test {test['skill']} {test['number']}; {f['consequence'].replace('_', ' ')})."})
        if at["skill"] not in f["triggers"]:
            events.append({"type": "failure", "text": f"{at['skill']} isn't a trigger: {self._tname(tid)} is safe. The run is over."})
            self._end_run(state, events)
            return
        state["test"] = {"recruit": tid, "card": fid, "skill": test["skill"], "number": test["number"],
                         "mods": 0, "two_dice": False, "played": []}
        self._open_window(state, "test", events)

    def _resolve_test(self, state, events) -> None:
        te = state["test"]
        at = state["attempt"]
        seat = at["seat"]
        tid = te["recruit"]
        _, e = self._entry(state, tid)
        value = recruit_value(e, te["skill"])
        ability = TALENTS[tid]["ability"]
        bonus = 3 if ability == "slippery" else 0
        if bonus:
            self._stat(state, "used", "ability:Slippery")
        die, dtext = self._roll(state, te["two_dice"], ability == "lucky")
        final = value + bonus + te["mods"] + die
        ok = final > te["number"]
        extra = " + Slippery 3" if bonus else ""
        extra += f" {'+' if te['mods'] >= 0 else '-'} {abs(te['mods'])}" if te["mods"] else ""
        text = (f"{self._tname(tid)} rolls {dtext} for the {te['skill']} {te['number']} test: "
                f"{te['skill']} {value}{extra} + {die} = {final}: {'safe' if ok else 'caught'}.")
        state["last_roll"] = text
        events.append({"type": "test", "text": text})
        state["test"] = None
        if ok:
            self._end_run(state, events)
            return
        cons = FAILURES[te["card"]]["consequence"]
        name = self._name(state, seat)
        if cons == "busted":
            self._discard_recruit(state, seat, tid)
            events.append({"type": "busted", "text": f"{self._tname(tid)} is arrested and leaves {name}'s team."})
        elif cons == "injured":
            e["injured"] = True
            events.append({"type": "injured", "text": f"{self._tname(tid)} is injured and stays tapped through {name}'s next upkeep."})
        elif cons == "lost_gear":
            if e["gear"]:
                g = e["gear"]
                e["gear"] = None
                state["prep_discard"].append(g)
                events.append({"type": "gear", "text": f"{self._tname(tid)} loses {prep_name(g)}."})
            else:
                events.append({"type": "gear", "text": f"{self._tname(tid)} had no gear to lose."})
        elif cons == "lose_gem":
            held = [c for c in self._gem_colours(state) if state["gems"][seat][c] > 0]
            if len(held) > 1:
                state["phase"] = "lose_gem"
                return
            if held:
                self._give_gem(state, seat, held[0], events)
            else:
                events.append({"type": "gems", "text": f"{name} has no gem to lose."})
        elif cons == "lose_cards":
            hand = state["hands"][seat]
            rng = Rng(state)
            lost = [hand.pop(rng.below(len(hand))) for _ in range(min(2, len(hand)))]
            state["prep_discard"].extend(lost)
            events.append({"type": "discard", "text": f"{name} discards {', '.join(prep_name(p) for p in lost) or 'nothing'} at random."})
        self._end_run(state, events)

    def _end_run(self, state, events) -> None:
        self._upkeep(state, events)

    # ------------------------------------------------------------------ upkeep
    def _refresh_pool(self, state, events) -> None:
        while len(state["pool"]) < 3:
            tid = self._draw_from(state, "talent_deck", "talent_discard", events, "Talent")
            if tid is None:
                break
            state["pool"].append(tid)
            self._stat(state, "available", "talent:" + self._tname(tid))

    def _refresh_heists(self, state, events) -> None:
        for slot in (0, 1):
            if state["heists"][slot] is None and len(state["heist_deck"]) >= 2:
                a = state["heist_deck"].pop()
                b = state["heist_deck"].pop()
                state["heists"][slot] = {"a": a, "b": b, "dice": [None] * 4}
                steps = heist_steps(a, b)
                events.append({"type": "heist", "text": f"New heist: {HEISTS[a]['name']} — "
                               + ", ".join(f"{STEP_LETTERS[i]}: {step_label(s)}" for i, s in enumerate(steps))
                               + f"; take {HEISTS[b]['take']} gems."})

    def _upkeep(self, state, events) -> None:
        seat = state["turn"]
        state["phase"] = "upkeep"
        state["pending"] = None
        for e in list(state["teams"][seat]):
            if TALENTS[e["card"]]["ability"] == "fixer" and len(state["hands"][seat]) < 3:
                events.append({"type": "ability", "text": f"{self._tname(e['card'])} (Fixer) finds a Prep card."})
                self._stat(state, "used", "ability:Fixer")
                self._draw_prep(state, seat, 1, events)
        for e in state["teams"][seat]:
            if e["injured"]:
                e["injured"] = False
            else:
                e["tapped"] = False
        self._refresh_pool(state, events)
        self._refresh_heists(state, events)
        state["run"] = None
        if all(h is None for h in state["heists"]) and not state.get("end_reason"):
            state["end_reason"] = "heists"  # no heist left to attempt (unreachable with the designed deck)
        if len(state["hands"][seat]) > HAND_LIMIT and not state.get("end_reason"):
            state["phase"] = "discard"
            return
        self._next_turn(state, events)

    def _next_turn(self, state, events) -> None:
        if state.get("end_reason"):
            return
        n = len(state["names"])
        nxt = (state["turn"] + 1) % n
        if nxt == state["first"]:
            if state.get("final_round"):
                events.append({"type": "end", "text": "The last round is over: the game ends."})
                state["end_reason"] = "heists"
                return
            state["round"] += 1
            if state["round"] > state["options"]["round_limit"]:
                events.append({"type": "end", "text": f"The round limit ({state['options']['round_limit']}) is reached: the game ends."})
                state["end_reason"] = "rounds"
                return
        state["turn"] = nxt
        state["phase"] = "turn"
        state["plan_left"] = 0
        state["attempt"] = None
        events.append({"type": "turn", "text": f"{self._name(state, nxt)}'s turn."})

    def _finish(self, state, events) -> None:
        rng = Rng(state)
        values = {c: rng.die(6) for c in state["colours"]}
        values[CLEAR] = 2
        state["phase"] = "over"
        state["window"] = None
        state["pending"] = None
        state["test"] = None
        rows = []
        for s in range(len(state["names"])):
            pts = sum(state["gems"][s][c] * values[c] for c in values)
            rows.append({"seat": s, "score": pts, "clear": state["gems"][s][CLEAR], "heists": len(state["mementos"][s])})
        for r, rank in zip(rows, competition_ranks([(-r["score"], -r["clear"], -r["heists"]) for r in rows])):
            r["rank"] = rank
            r["won"] = rank == 1
        state["final"] = {"values": values, "reason": state["end_reason"], "rows": rows}
        events.append({"type": "values", "text": "Gem values: " + ", ".join(
            f"{self._name(state, s)}'s {c} = {values[c]}" for s, c in enumerate(state["colours"])) + ", Clear = 2."})
        ranked = sorted(rows, key=lambda r: r["rank"])
        events.append({"type": "over", "text": "Final scores: " + "; ".join(
            f"{self._name(state, r['seat'])} {r['score']}" for r in ranked) + ". "
            + " and ".join(self._name(state, r["seat"]) for r in ranked if r["won"]) + " wins!"})

    # ------------------------------------------------------------------ results
    def scores(self, state) -> list[dict[str, Any]]:
        if not state.get("final"):
            return []
        values = state["final"]["values"]
        out = []
        for r in state["final"]["rows"]:
            s = r["seat"]
            detail = ", ".join(f"{state['gems'][s][c]}×{c}({values[c]})" for c in self._gem_colours(state) if state["gems"][s][c])
            out.append({"seat": s, "score": r["score"], "rank": r["rank"], "won": r["won"],
                        "detail": (detail or "no gems") + f"; {r['heists']} heist(s)"})
        return out

    # ------------------------------------------------------------------ views
    def _heist_view(self, state, slot: int) -> dict[str, Any] | None:
        h = state["heists"][slot]
        if h is None:
            return None
        steps = self._steps(h)
        nxt = self._next_step(h)
        return {
            "slot": slot, "name": self._heist_name(h), "take": HEISTS[h["b"]]["take"], "next": nxt,
            "steps": [{"letter": STEP_LETTERS[i], "skills": list(s["skills"]), "number": s["number"],
                       "die": h["dice"][i]} for i, s in enumerate(steps)],
        }

    def _picking_view(self, state) -> dict[str, Any] | None:
        """The step chosen in the first half of an attempt (phase ``crew``)."""
        if state["phase"] != "crew":
            return None
        pend = state["pending"]
        h = state["heists"][pend["heist"]]
        k = self._next_step(h)
        return {"heist": pend["heist"], "name": self._heist_name(h), "step": k, "letter": STEP_LETTERS[k],
                "skill": pend["skill"], "number": self._steps(h)[k]["number"]}

    @staticmethod
    def _public_table(state) -> dict[str, Any]:
        """Every public fact of the state, as stored (for the search bot's sampler): all but the
        decks' orders, the hands, the window's hidden choices, the RNG and the balance tallies."""
        table = {k: copy.deepcopy(v) for k, v in state.items() if k not in _SECRET_KEYS}
        w = state.get("window")
        table["window"] = {"kind": w["kind"], "seats": list(w["seats"])} if w else None
        return table

    def view(self, state, viewer: int | None) -> dict[str, Any]:
        n = len(state["names"])
        players = []
        for s in range(n):
            team = []
            for e in state["teams"][s]:
                team.append(talent_public(e["card"]) | {
                    "tapped": e["tapped"], "injured": e["injured"],
                    "gear": prep_public(e["gear"]) if e["gear"] else None,
                    "values": calc.recruit_values(e["card"], e["gear"]),
                })
            players.append({
                "seat": s, "name": state["names"][s], "colour": state["colours"][s],
                "gems": dict(state["gems"][s]), "gem_count": sum(state["gems"][s].values()),
                "hand": len(state["hands"][s]), "dice_free": state["dice"][s], "intel": state["intel"][s],
                "heists": [HEISTS[a]["name"] for a in state["mementos"][s]], "team": team,
            })
        at = state.get("attempt")
        attempt = None
        if at:
            attempt = {k: at[k] for k in ("seat", "heist", "step", "skill", "number", "base", "mods", "two_dice",
                                          "no_perfect", "cover", "played", "roll", "result", "parts")}
            attempt["recruits"] = [self._tname(t) for t in at["recruits"]]
            attempt["recruit_ids"] = list(at["recruits"])
            attempt["failure"] = FAILURES[at["failure"]]["name"] if at.get("failure") else None
        test = None
        if state.get("test"):
            te = state["test"]
            test = {"recruit": self._tname(te["recruit"]), "recruit_id": te["recruit"], "skill": te["skill"], "number": te["number"],
                    "card": FAILURES[te["card"]]["name"], "mods": te["mods"], "two_dice": te["two_dice"]}
        window = None
        if state.get("window"):
            w = state["window"]
            window = {"kind": w["kind"], "seats": list(w["seats"]),
                      "decided": [s for s in w["seats"] if str(s) in w["done"]]}
        v: dict[str, Any] = {
            "game": "masterminds",
            "names": list(state["names"]),
            "colours": list(state["colours"]),
            "status": self.status_line(state),
            "phase": state["phase"],
            "turn": state["turn"],
            "round": state["round"],
            "round_limit": state["options"]["round_limit"],
            "completed": state["completed"],
            "target": state["target"],
            "bag": sum(state["bag"].values()),
            "decks": {"talent": len(state["talent_deck"]), "talent_discard": len(state["talent_discard"]),
                      "prep": len(state["prep_deck"]), "prep_discard": len(state["prep_discard"]),
                      "heist": len(state["heist_deck"]), "failure": len(state["failure_deck"]),
                      "failure_discard": len(state["failure_discard"])},
            "prep_discard_top": prep_name(state["prep_discard"][-1]) if state["prep_discard"] else None,
            "pool": [talent_public(t) for t in state["pool"]],
            "heists": [self._heist_view(state, 0), self._heist_view(state, 1)],
            "players": players,
            "plan_left": state["plan_left"] if state["phase"] in ("plan", "gear2", "target", "hire") else 0,
            "attempt": attempt,
            "test": test,
            "window": window,
            "burned": talent_public(state["pending"]["card"]) if state["phase"] == "burned" else None,
            "picking": self._picking_view(state),
            "recent": list(state.get("recent", [])),
            "last_roll": state.get("last_roll"),
            "first_rolls": state["first_rolls"],
            "first": state["first"],
            "over": state["phase"] == "over",
            "table": self._public_table(state),
        }
        if state.get("final"):
            f = state["final"]
            v["final"] = {"values": dict(f["values"]), "reason": f["reason"], "scores": self.scores(state)}
        if viewer is not None:
            priv: dict[str, Any] = {"seat": viewer, "hand": [prep_public(p) for p in state["hands"][viewer]]}
            if state.get("window") and state["window"]["done"].get(str(viewer)):
                priv["committed"] = prep_name(state["window"]["done"][str(viewer)])
                priv["committed_id"] = state["window"]["done"][str(viewer)]
            v["private"] = priv
        return v

    def status_line(self, state) -> str:
        phase = state["phase"]
        if phase == "over":
            f = state.get("final") or {}
            why = {"heists": "the last heist was completed", "bag": "the bag is empty",
                   "rounds": "the round limit was reached"}.get(f.get("reason"), "")
            return f"Game over: {why}." if why else "Game over."
        name = state["names"][state["turn"]]
        head = f"Round {state['round']}/{state['options']['round_limit']} · heists {state['completed']}/{state['target']} · "
        if state.get("final_round"):
            head += "LAST ROUND · "
        what = {
            "turn": f"{name}: PREP (recruit, burn or draw) or go for a HEIST",
            "burned": f"{name}: hire the drawn Talent or put it in the pool",
            "plan": f"{name}: plan action {3 - state['plan_left']} of 2",
            "gear2": f"{name}: equip a second gear card or stop",
            "target": f"{name}: choose a target",
            "hire": f"{name}: recruit from the fresh Talent Pool",
            "crew": f"{name}: choose the recruits for the heist step",
            "suffer": f"{name}: choose who suffers the Failure card",
            "lose_gem": f"{name}: choose a gem to return to the bag",
            "continue": f"{name}: continue the heist or hold",
            "retire": f"{name}: choose a recruit to retire",
            "discard": f"{name}: discard down to {HAND_LIMIT} cards",
        }.get(phase)
        if phase == "window":
            waiting = [state["names"][s] for s in self.to_act(state)]
            what = "Interrupt window: waiting for " + ", ".join(waiting)
        return head + (what or name)

    # ------------------------------------------------------------------ text
    def describe_action(self, state, seat: int, action: dict[str, Any]) -> str:
        t = action["type"]
        tn = self._tname
        if t == "recruit":
            s = f"Recruit {tn(action['card'])}"
            return (s + f" (replace {tn(action['replace'])})" if action["replace"] else s)[:80]
        if t == "burn":
            return "Burn the Talent Pool and draw a Talent"
        if t == "draw_prep":
            return "Don't recruit: draw a Prep card"
        if t == "hire":
            tid = state["pending"]["card"] if state.get("pending") else None
            s = f"Hire {tn(tid)}" if tid else "Hire"
            return (s + f" (replace {tn(action['replace'])})" if action["replace"] else s)[:80]
        if t == "to_pool":
            return "Put the drawn Talent into the pool"
        if t == "draw":
            return "Draw a Prep card"
        if t == "action":
            p = PREP[action["card"]]
            if action["gem"]:
                return f"{p['name']} + {action['gem']} gem: {p['gem_text']}"[:80]
            return f"{p['name']}: {p['text']}"[:80]
        if t == "gear":
            return f"Equip {prep_name(action['card'])} on {tn(action['recruit'])}"[:80]
        if t == "gear_done":
            return "No second gear card"
        if t == "trade":
            _, b = self._entry(state, action["to"])
            verb = "Swap gear:" if b and b["gear"] else "Move gear:"
            return f"{verb} {tn(action['from'])} → {tn(action['to'])}"[:80]
        if t == "end_plan":
            return "End the plan phase"
        if t == "target":
            if "seat" in action:
                return f"Target {state['names'][action['seat']]}"
            if "heist" in action:
                h = state["heists"][action["heist"]]
                k = self._next_step(h) - 1
                d = h["dice"][k]
                return f"{self._heist_name(h)}: remove {state['names'][d['seat']]}'s die on step {STEP_LETTERS[k]}"[:80]
            owner, e = self._entry(state, action["recruit"])
            return f"{state['names'][owner]}'s {tn(e['card'])}: discard {prep_name(e['gear'])}"[:80]
        if t == "hire_pool":
            s = f"Recruit {tn(action['card'])}"
            return (s + f" (replace {tn(action['replace'])})" if action["replace"] else s)[:80]
        if t == "hire_skip":
            return "Recruit nobody"
        if t == "heist":
            h = state["heists"][action["heist"]]
            k = self._next_step(h)
            number = self._steps(h)[k]["number"]
            head = f"{self._heist_name(h)} {STEP_LETTERS[k]} {action['skill']} {number}"
            if "recruits" in action:
                total, _ = self.attempt_total(state, seat, action["skill"], action["recruits"])
                who = " + ".join(tn(x) for x in action["recruits"])
                return f"{head}: send {who} ({total})"[:80]
            return f"{head}: choose the crew…"[:80]
        if t == "crew":
            pend = state["pending"]
            h = state["heists"][pend["heist"]]
            number = self._steps(h)[self._next_step(h)]["number"]
            total, _ = self.attempt_total(state, seat, pend["skill"], action["recruits"])
            who = " + ".join(tn(x) for x in action["recruits"])
            return f"{who}: total {total} vs {number}"[:80]
        if t == "back":
            return "Back: choose another step or move"
        if t == "hold":
            return "Hold: end the run here"
        if t == "pass":
            if state["phase"] == "window" and seat == state["turn"]:
                return "Roll without an interrupt"
            return "Pass (no interrupt)"
        if t == "interrupt":
            p = PREP[action["card"]]
            return f"Play {p['name']}: {p['text']}"[:80]
        if t == "suffer":
            return f"{tn(action['recruit'])} suffers the Failure card"[:80]
        if t == "give_gem":
            return f"Return a {action['colour']} gem"
        if t == "retire":
            return f"Retire {tn(action['recruit'])}"[:80]
        if t == "discard":
            return f"Discard {prep_name(action['card'])}"[:80]
        return t

    def action_group(self, state, seat: int, action: dict[str, Any]) -> str:
        t = action["type"]
        if t == "heist":
            return "Heist: pick a step"
        if t in ("crew", "back"):
            return "Heist: pick the crew"
        if t in ("recruit", "burn", "draw_prep"):
            return "Prep: recruit phase"
        if t in ("draw", "action", "gear", "trade", "end_plan", "gear_done"):
            return {"draw": "Plan", "end_plan": "Plan", "action": "Plan: action card", "gear": "Plan: gear",
                    "gear_done": "Plan: gear", "trade": "Plan: trade gear"}[t]
        if t in ("pass", "interrupt"):
            return "Interrupts"
        return {"hire": "Hire", "to_pool": "Hire", "hire_pool": "Hire", "hire_skip": "Hire", "hold": "Heist",
                "suffer": "Failure", "give_gem": "Gems", "retire": "Retire",
                "discard": "Discard", "target": "Target"}.get(t, "Moves")

    def private_text(self, view: dict[str, Any]) -> str:
        priv = view.get("private") or {}
        seat = priv.get("seat")
        lines = [f"**Your hand ({len(priv.get('hand', []))}/{HAND_LIMIT}):**"]
        for c in priv.get("hand", []):
            line = f"• **{c['name']}** ({c['kind']}): {c['text']}"
            if c.get("gem_text"):
                line += f" 💎 {c['gem_text']}"
            lines.append(line)
        if not priv.get("hand"):
            lines.append("• (empty)")
        if priv.get("committed"):
            lines.append(f"You committed **{priv['committed']}** in this interrupt window.")
        if seat is not None and view.get("players"):
            p = view["players"][seat]
            gems = ", ".join(f"{n} {c}" for c, n in p["gems"].items() if n) or "none"
            lines.append(f"**Your colour:** {p['colour']} · gems: {gems} · free dice: {p['dice_free']} · Intel: {p['intel']}")
        return "\n".join(lines)

    def illegal_message(self, state, seat: int, action: dict[str, Any]) -> str:
        phase = state["phase"]
        t = action.get("type") if isinstance(action, dict) else None
        if phase == "window":
            return "The interrupt window is open: play one of your interrupts that fits this roll, or pass."
        if t == "attempt":
            return "A heist attempt is two picks now: the step (heist + skill), then the recruits."
        if t == "heist":
            if state["dice"][seat] <= 0:
                return "All five of your dice are on heists: you need a free die to attempt a step."
            if not any(not e["tapped"] for e in state["teams"][seat]):
                return "You have no untapped recruit to send on a heist step."
            slot = action.get("heist")
            h = state["heists"][slot] if slot in (0, 1) else None
            if h and self._next_step(h) == 3 and not any(d and d["seat"] == seat for d in h["dice"][:3]):
                return "Inside job: you may only attempt step D of a heist where one of your dice already sits."
            if phase == "continue":
                return "You may only continue to the next step of the same heist."
            if phase != "turn":
                return "You can't start a heist attempt now."
            return "Attempt the next open step of a heist, with one of its skills."
        if t == "crew":
            recruits = action.get("recruits") or []
            if len(recruits) > MAX_ACTIVATE:
                return "You may activate at most 3 recruits for one heist step."
            team = {e["card"]: e for e in state["teams"][seat]}
            for tid in recruits:
                if tid not in team:
                    return "You can only activate recruits on your own team."
                if team[tid]["tapped"]:
                    return f"{TALENTS[tid]['name']} is tapped and can't be activated again this turn."
            if phase != "crew":
                return "Pick the heist step first, then the recruits."
            return "Choose 1 to 3 of your untapped recruits."
        if t == "recruit" and phase == "turn" and len(state["teams"][seat]) >= TEAM_LIMIT and not action.get("replace"):
            return "Your team already has 4 recruits: choose one to replace."
        if t == "gear":
            return "Each recruit may carry only one Gear card; equip gear you hold onto a recruit without gear."
        if t in ("recruit", "burn", "draw_prep") and phase != "turn":
            return "The recruit phase is over for this turn."
        if t == "action":
            return "You can't play that action card now (check its target and your gems)."
        return {
            "turn": "Choose PREP (recruit, burn the pool or draw a Prep card) or attempt a heist step.",
            "plan": "Pick a plan action: draw, play one action card, play gear, trade gear or end the plan phase.",
            "crew": "Choose 1 to 3 of your untapped recruits for this step, or go back.",
            "suffer": "Choose one of the recruits who attempted the step.",
            "continue": "Continue to the next step of this heist with fresh recruits, or hold.",
            "retire": "Choose one of your recruits to retire.",
            "discard": "Discard one of the cards in your hand.",
        }.get(phase, "That move isn't allowed right now.")
