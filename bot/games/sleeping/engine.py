"""Sleeping Wizard: hire quiet teams of adventurers you can't see in your own hand."""
from __future__ import annotations

import json
import random
from typing import Any

from bot.engine import Engine, GameMeta, Option, RuleError, competition_ranks
from bot.games.sleeping import scoring
from bot.games.sleeping.cards import (
    BANDS, CARDS, DECK_SIZE, FLOORS, HAND_SIZE, RANDOM_KEYS, ROUNDS, TEAM_SIZE, WAKE_AT,
    card_view, label, short, slot_name, tracker_bonus,
)

SUMMARY = """\
**Goal:** hire quiet teams of adventurers, sneak into the sleeping wizard's tower and grab the most treasure.
**Your hand is back to front:** you see everyone's 4 cards except your own. At the start of each round you *peek* at 2 of your own cards, picked at random since you can't tell them apart (the floor may change how many).
**Each round** (at most 5): a market of 3 face-up cards, 4 cards to each hand, then 4 turns each. On your turn hire ONE adventurer:
• **A)** a card from your hand (known or not), or
• **B)** the top card of the deck, then push one hand card face up to the market, or
• **C)** a market card, then push one hand card to the market.
**Noise** (lower is better): cards of equal value cancel to 0. One Rogue (1*) scores 1, two or more score 10 each and never cancel. Bards (11-14) never cancel. A Shapeshifter (?) copies any non-Bard card in your team (its value and class; copying a Rogue makes it a Rogue). Slimes are 10s.
**Treasure:** the quietest team(s) collect 2 treasures; the floor may pay more (e.g. 1 per Mage, for every team). Your noise goes on the tracker.
**Tower:** Ground Floor in round 1, then one hidden floor revealed per round (peeking, hiring, market, noise or treasure rules).
**End:** after round 5, or at once when a guild reaches 48 noise. Bonus treasure by tracker space (0-9: 5, 10-14: 4, 15-19: 3, 20-26: 2, 27-35: 1, 36+: 0). Most treasure wins, ties to less noise; at 48+ you woke the wizard and cannot win.
**Turn order:** round 1 from the first seat; later rounds the noisiest guild starts (ties: earliest seat), then seat order.
"""

META = GameMeta(
    key="sleeping",
    name="Sleeping Wizard",
    min_players=2,
    max_players=8,
    blurb="Hire quiet adventurers from a hand you can't see; don't wake the wizard.",
    summary=SUMMARY,
    options=(
        Option("floors", "Tower floors", True,
               "Reveal a random floor card with its own rule in rounds 2-5 (off: every round plays like the Ground Floor)."),
    ),
)


def _names(state: dict[str, Any]) -> list[str]:
    return state["names"]


class SleepingEngine(Engine):
    meta = META

    # ------------------------------------------------------------------ setup
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict[str, Any]:
        from bot.rng import Rng

        n = len(names)
        self.meta.check_players(n)
        state: dict[str, Any] = {
            "names": list(names),
            "rng": Rng.seed_state(seed),
            "options": {"floors": bool(options.get("floors", True))},
            "round": 0,
            "phase": "setup",
            "noise": [0] * n,
            "treasure": [0] * n,
            "history": [],
            "stats": {"used": []},  # for balance_tally only: never in a view
            "last_round": None,
            "final": None,
        }
        rng = Rng(state)
        if state["options"]["floors"]:
            middle = rng.sample(RANDOM_KEYS, 4)
        else:
            middle = []
        state["tower"] = ["ground"] + middle + ["attic"]
        self._start_round(state, 1)
        return state

    # ---------------------------------------------------------------- helpers
    def floor_key(self, state: dict[str, Any], rnd: int | None = None) -> str:
        rnd = state["round"] if rnd is None else rnd
        tower = state["tower"]
        if len(tower) == 2:  # floors option off: every round is the Ground Floor
            return "ground"
        return tower[rnd - 1]

    def effect(self, state: dict[str, Any]) -> dict[str, Any]:
        return FLOORS[self.floor_key(state)]["effect"]

    def peek_count(self, state: dict[str, Any]) -> int:
        return int(self.effect(state).get("peek", 2))

    def current_seat(self, state: dict[str, Any]) -> int | None:
        if state["phase"] == "turns":
            order = state["order"]
            return order[state["turn"] % len(order)]
        if state["phase"] == "push":
            return state["pending"]["seat"]
        return None

    def hand_slots(self, state: dict[str, Any], seat: int) -> list[int]:
        return [i for i, cid in enumerate(state["hands"][seat]) if cid is not None]

    def turns_taken(self, state: dict[str, Any], seat: int) -> int:
        return len(state["teams"][seat])

    def _start_round(self, state: dict[str, Any], rnd: int) -> list[dict[str, Any]]:
        from bot.rng import Rng

        n = len(state["names"])
        state["round"] = rnd
        deck = list(range(DECK_SIZE))
        Rng(state).shuffle(deck)
        effect = self.effect(state)
        market_size = int(effect.get("market_size", 3))
        state["market"] = [deck.pop() for _ in range(market_size)]
        state["hands"] = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
        state["deck"] = deck  # the top card is the end of the list
        state["teams"] = [[] for _ in range(n)]
        state["known"] = [[] for _ in range(n)]
        state["pending"] = None
        state["copy_wait"] = []
        state["copy_choice"] = [None] * n
        state["turn"] = 0
        if rnd == 1:
            first = 0
        else:
            top = max(state["noise"])
            first = min(s for s in range(n) if state["noise"][s] == top)
        state["order"] = [(first + i) % n for i in range(n)]
        floor = FLOORS[self.floor_key(state)]
        names = _names(state)
        events: list[dict[str, Any]] = []
        if rnd == 1:
            events.append({"type": "round", "text": f"Round 1 begins on the Ground Floor. {names[first]} goes first."})
        else:
            events.append({"type": "round", "text": f"Round {rnd}: the tower reveals **{floor['name']}** — {floor['text']} "
                                                    f"{names[first]} (noisiest guild) goes first."})
        # Peeking is automatic: a player can't tell their own cards apart, so "which k cards?" is no choice.
        # Every seat sees k random cards of its hand (which ones is told to that seat only).
        peek = max(0, min(HAND_SIZE, self.peek_count(state)))
        state["phase"] = "turns"
        rng = Rng(state)
        for s in range(n):
            slots = sorted(rng.sample(range(HAND_SIZE), peek)) if peek < HAND_SIZE else list(range(HAND_SIZE))
            state["known"][s] = [state["hands"][s][i] for i in slots]
            if slots:
                seen = ", ".join(f"{slot_name(i)}: {short(state['hands'][s][i])}" for i in slots)
                what = "all your cards" if peek >= HAND_SIZE else f"card{'s' if peek > 1 else ''}"
                events.append({"type": "peek", "to": s, "text": f"You peek at {what} — {seen}."})
        if peek <= 0:
            events.append({"type": "peek", "text": "Nobody may peek at their cards this round."})
        elif peek >= HAND_SIZE:
            events.append({"type": "peek", "text": "Everyone sees all 4 of their own cards this round."})
        else:
            events.append({"type": "peek", "text": f"Everyone peeks at {peek} of their own card{'s' if peek > 1 else ''}."})
        return events

    # ------------------------------------------------------------- contract
    def to_act(self, state: dict[str, Any]) -> list[int]:
        phase = state["phase"]
        if phase in ("turns", "push"):
            return [self.current_seat(state)]
        if phase == "copy":
            return [s for s in state["copy_wait"] if state["copy_choice"][s] is None]
        return []

    def is_terminal(self, state: dict[str, Any]) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "push":
            return [{"type": "push", "slot": s} for s in self.hand_slots(state, seat)]
        if phase == "copy":
            team = state["teams"][seat]
            ss = scoring.shapeshifters(team)
            return [{"type": "copy", "targets": [opt["copies"].get(c) for c in ss]}
                    for opt in scoring.copy_options(team, self.effect(state))]
        # turns
        effect = self.effect(state)
        actions: list[dict[str, Any]] = []
        if not effect.get("no_hand"):
            actions += [{"type": "hire_hand", "slot": s} for s in self.hand_slots(state, seat)]
        if state["deck"] and not effect.get("no_deck"):
            actions.append({"type": "hire_deck"})
        if not effect.get("no_market"):
            seen: set[tuple] = set()
            for cid in state["market"]:
                card = CARDS[cid]
                key = (card["kind"], card["value"], card["class"])
                if card["kind"] == "regular" or key not in seen:  # identical Slimes/Rogues/Shapeshifters once
                    seen.add(key)
                    actions.append({"type": "hire_market", "card": cid})
        return actions

    def illegal_message(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        phase = state["phase"]
        floor = FLOORS[self.floor_key(state)]
        if kind == "peek":
            return "Peeking is automatic: at the start of each round you see as many of your cards as the floor allows."
        if phase == "push":
            if kind != "push":
                return "You must first push one of your hand cards to the market to finish your hire."
            return "Push a card that is still in your hand."
        if phase == "copy":
            return "Pick one of the listed ways for your Shapeshifters to copy your team."
        if kind == "hire_deck":
            if floor["effect"].get("no_deck"):
                return f"{floor['name']}: nobody may hire the deck's top card this round."
            if not state["deck"]:
                return "The deck is empty: hire from your hand or the market."
        if kind == "hire_market":
            if floor["effect"].get("no_market"):
                return f"{floor['name']}: nobody may hire from the market this round."
            card = action.get("card")
            if type(card) is int and card in state["market"]:
                return "Identical Slimes, Rogues and Shapeshifters are listed once: pick the one offered."
            return "That adventurer isn't in the market."
        if kind == "hire_hand":
            if floor["effect"].get("no_hand"):
                return f"{floor['name']}: nobody may hire from their own hand this round (deck or market only)."
            return "You have no card in that slot of your hand."
        return "That move isn't allowed right now: hire from your hand, the deck or the market."

    # ----------------------------------------------------------------- apply
    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        rnd = state["round"]
        events = super().apply(state, seat, action)
        state["recent"] = self._recent(events, new_round=state["round"] != rnd)
        return events

    @staticmethod
    def _recent(events: list[dict[str, Any]], new_round: bool) -> list[str]:
        """The last public sentences, for the board ("what just happened"). Once a new round is dealt, the
        hire and push lines of the old round go: they name cards that may now sit, unpeeked, in a hand."""
        public = [e for e in events if "to" not in e and not (new_round and e["type"] in ("hire", "push"))]
        return [e["text"] for e in public][-4:]

    def _legal_match(self, state: dict[str, Any], seat: int, action: Any) -> dict[str, Any]:
        """The legal action ``action`` is, matched exactly (1.0 is not 1, True is not 1), or RuleError.

        Everything below works on the engine's own copy, so a look-alike value can never get into
        the state or crash a move half-way."""
        try:
            text = json.dumps(action, sort_keys=True)
        except (TypeError, ValueError):
            raise RuleError("That move isn't allowed right now.") from None
        for legal in self.legal_actions(state, seat):
            if json.dumps(legal, sort_keys=True) == text:
                return legal
        raise RuleError(self.illegal_message(state, seat, action))

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        action = self._legal_match(state, seat, action)
        names = _names(state)
        name = names[seat]
        kind = action["type"]
        events: list[dict[str, Any]] = []
        if kind == "hire_hand":
            cid = state["hands"][seat][action["slot"]]
            state["hands"][seat][action["slot"]] = None
            self._forget(state, seat, cid)
            state["teams"][seat].append(cid)
            self._note(state, "hire: from hand", f"adventurer: {CARDS[cid]['class']}")
            events.append({"type": "hire", "text": f"{name} hires {short(cid)} from their hand (card {slot_name(action['slot'])})."})
            return events + self._next_turn(state)
        if kind in ("hire_deck", "hire_market"):
            if kind == "hire_deck":
                cid = state["deck"].pop()
                events.append({"type": "hire", "text": f"{name} hires {short(cid)} from the top of the deck."})
            else:
                cid = action["card"]
                state["market"].remove(cid)
                events.append({"type": "hire", "text": f"{name} hires {short(cid)} from the market."})
            state["teams"][seat].append(cid)
            self._note(state, f"hire: from {kind[5:]}", f"adventurer: {CARDS[cid]['class']}")
            state["pending"] = {"seat": seat, "card": cid}
            slots = self.hand_slots(state, seat)
            if len(slots) == 1:  # the last hand card has to go
                return events + self._push(state, seat, slots[0], forced=True)
            state["phase"] = "push"
            return events
        if kind == "push":
            return self._push(state, seat, action["slot"])
        if kind == "copy":
            team = state["teams"][seat]
            if action != self.legal_actions(state, seat)[0]:
                self._note(state, "Shapeshifter: a louder copy for floor treasure")
            state["copy_choice"][seat] = {str(c): t for c, t in zip(scoring.shapeshifters(team), action["targets"])
                                          if t is not None}
            events.append({"type": "copy", "text": f"{name} has set their Shapeshifters."})
            if all(state["copy_choice"][s] is not None for s in state["copy_wait"]):
                events += self._end_round(state)
            return events
        raise RuleError("Unknown action.")

    @staticmethod
    def _note(state: dict[str, Any], *names: str) -> None:
        """Count a card or mechanic as used this game (for the balance report)."""
        used = state.setdefault("stats", {"used": []})["used"]
        used.extend(n for n in names if n not in used)

    def _forget(self, state: dict[str, Any], seat: int, cid: int) -> None:
        if cid in state["known"][seat]:
            state["known"][seat].remove(cid)

    def _push(self, state: dict[str, Any], seat: int, slot: int, forced: bool = False) -> list[dict[str, Any]]:
        cid = state["hands"][seat][slot]
        state["hands"][seat][slot] = None
        self._forget(state, seat, cid)
        state["market"].append(cid)
        state["pending"] = None
        state["phase"] = "turns"
        how = "their last hand card" if forced else f"their card {slot_name(slot)}"
        events = [{"type": "push", "text": f"{_names(state)[seat]} pushes {how}, {short(cid)}, to the market."}]
        return events + self._next_turn(state)

    def _next_turn(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        state["turn"] += 1
        n = len(state["names"])
        if state["turn"] < TEAM_SIZE * n:
            return []
        # Every team is complete: Shapeshifter choices, then scoring.
        effect = self.effect(state)
        wait = [s for s in range(n) if len(scoring.copy_options(state["teams"][s], effect)) > 1]
        if wait:
            state.setdefault("stats", {"used": []})["copy_offered"] = True
            state["phase"] = "copy"
            state["copy_wait"] = wait
            who = ", ".join(_names(state)[s] for s in wait)
            return [{"type": "copy_phase", "text": f"All teams are hired. {who} must choose what their Shapeshifters copy."}]
        return self._end_round(state)

    def _floor_mattered(self, state: dict[str, Any], teams: list[dict[str, Any]], effect: dict[str, Any]) -> bool:
        """Did this round's floor rule change anything? Peek, hiring and market floors always do; a noise or
        treasure floor only when some team scores or collects differently than under the Ground Floor's rules."""
        if FLOORS[self.floor_key(state)]["category"] not in ("noise", "treasure"):
            return True
        if int(effect.get("lowest_reward", 2)) != 2:
            return True
        return any((t["noise"], t["bonus"]) != (scoring.copy_options(t["team"], {})[0]["noise"], 0) for t in teams)

    def team_copies(self, state: dict[str, Any], seat: int) -> dict[int, int]:
        choice = state["copy_choice"][seat] if state.get("copy_choice") else None
        if choice is not None:
            return {int(k): v for k, v in choice.items()}
        return scoring.best_copies(state["teams"][seat], self.effect(state))

    def _end_round(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        n = len(state["names"])
        names = _names(state)
        effect = self.effect(state)
        floor = FLOORS[self.floor_key(state)]
        teams = []
        for s in range(n):
            team = state["teams"][s]
            copies = self.team_copies(state, s)
            scores = scoring.card_scores(team, copies, effect)
            teams.append({"team": team, "copies": copies, "scores": scores, "noise": sum(scores.values()),
                          "bonus": scoring.floor_bonus(team, copies, effect)})
        low = min(t["noise"] for t in teams)
        reward = int(effect.get("lowest_reward", 2))
        if self._floor_mattered(state, teams, effect):
            self._note(state, f"floor: {floor['name']}")
        summary_teams = []
        for s, t in enumerate(teams):
            base = reward if t["noise"] == low else 0
            state["treasure"][s] += base + t["bonus"]
            state["noise"][s] += t["noise"]
            cards = []
            for cid in t["team"]:
                # Anonymous on purpose: these cards go back into the deck and may sit, unpeeked,
                # in a hand next round, so the summary names no card (value, class and score only).
                card = CARDS[cid]
                entry = {"label": label(card), "class": card["class"], "kind": card["kind"],
                         "value": card["value"], "score": t["scores"][cid]}
                if cid in t["copies"]:
                    target = CARDS[t["copies"][cid]]
                    entry["copies"] = f"{label(target)} {target['class']}"
                cards.append(entry)
            summary_teams.append({"seat": s, "cards": cards, "noise": t["noise"], "base": base, "bonus": t["bonus"],
                                  "treasure": state["treasure"][s], "total_noise": state["noise"][s]})
        summary = {"round": state["round"], "floor": floor["key"], "floor_name": floor["name"], "low": low,
                   "reward": reward, "teams": summary_teams}
        state["history"].append({"round": state["round"], "floor": floor["key"],
                                 "noise": [t["noise"] for t in teams],
                                 "gained": [st["base"] + st["bonus"] for st in summary_teams]})
        state["last_round"] = summary
        quiet = [names[s] for s in range(n) if teams[s]["noise"] == low]
        parts = ", ".join(f"{names[s]} {teams[s]['noise']}" for s in range(n))
        events = [{"type": "score", "image": "round", "text": f"Round {state['round']} noise: {parts}. Quietest: {', '.join(quiet)} (+{reward} treasure each)."}]
        bonus = [f"{names[s]} +{teams[s]['bonus']}" for s in range(n) if teams[s]["bonus"]]
        if bonus:
            events.append({"type": "bonus", "text": f"{floor['name']} pays: {', '.join(bonus)}."})
        events.append({"type": "tracker", "text": "Noise tracker: " + ", ".join(f"{names[s]} {state['noise'][s]}" for s in range(n)) + "."})
        woke = [s for s in range(n) if state["noise"][s] >= WAKE_AT]
        if woke or state["round"] >= ROUNDS:
            events += self._end_game(state, woke)
        else:
            events += self._start_round(state, state["round"] + 1)
        return events

    def _end_game(self, state: dict[str, Any], woke: list[int]) -> list[dict[str, Any]]:
        names = _names(state)
        n = len(names)
        state["phase"] = "over"
        state["pending"] = None
        events = []
        if woke:
            events.append({"type": "wake", "text": f"{', '.join(names[s] for s in woke)} woke the wizard (48+ noise)! The game ends now."})
        final = []
        for s in range(n):
            bonus = tracker_bonus(state["noise"][s])
            final.append({"seat": s, "treasure": state["treasure"][s], "bonus": bonus,
                          "total": state["treasure"][s] + bonus, "noise": state["noise"][s],
                          "eligible": state["noise"][s] < WAKE_AT})
        key = lambda f: (not f["eligible"], -f["total"], f["noise"])  # noqa: E731
        ordered = sorted(final, key=key)
        for f, rank in zip(final, competition_ranks([key(f) for f in final])):
            f["rank"] = rank
            f["won"] = f["eligible"] and rank == 1
        state["final"] = final
        winners = [names[f["seat"]] for f in ordered if f["won"]]
        bonus_text = ", ".join(f"{names[f['seat']]} +{f['bonus']}" for f in final)
        events.append({"type": "bonus", "text": f"Tracker bonus: {bonus_text}."})
        if winners:
            best = ordered[0]
            events.append({"type": "end", "text": f"Game over! {' and '.join(winners)} win{'s' if len(winners) == 1 else ''} "
                                                  f"with {best['total']} treasure."})
        else:
            events.append({"type": "end", "text": "Game over! Everyone woke the wizard: nobody wins."})
        return events

    def balance_tally(self, state: dict[str, Any], trace: list[dict[str, Any]]) -> dict[str, Any]:
        available = [f"adventurer: {c}" for c in ("Healer", "Mage", "Warrior", "Ranger", "Rogue", "Slime", "Bard",
                                                  "Shapeshifter")]
        available += ["hire: from hand", "hire: from deck", "hire: from market"]
        if len(state["tower"]) > 2:
            available += [f"floor: {FLOORS[k]['name']}" for k in state["tower"][1:state["round"]]]
        used = list(state.get("stats", {}).get("used", []))
        if state.get("stats", {}).get("copy_offered"):
            available.append("Shapeshifter: a louder copy for floor treasure")
        return {"end": "woke the wizard" if max(state["noise"]) >= WAKE_AT else "after round 5",
                "available": available, "used": [u for u in used if u in available]}

    # ------------------------------------------------------------------ views
    def _team_view(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        team = state["teams"][seat]
        effect = self.effect(state)
        copies = self.team_copies(state, seat) if state["phase"] != "copy" else scoring.best_copies(team, effect)
        scores = scoring.card_scores(team, copies, effect)
        cards = []
        for cid in team:
            entry = card_view(cid)
            entry["score"] = scores[cid]
            if cid in copies:
                entry["copies"] = CARDS[copies[cid]]["name"]
            cards.append(entry)
        return {"seat": seat, "cards": cards, "noise": sum(scores.values()),
                "bonus": scoring.floor_bonus(team, copies, effect)}

    def view(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        n = len(state["names"])
        rnd = state["round"]
        tower = []
        for i, key in enumerate(state["tower"]):
            revealed = key in ("ground", "attic") or i < rnd
            entry: dict[str, Any] = {"level": i, "revealed": revealed, "current": False}
            if revealed:
                entry.update({"key": key, "name": FLOORS[key]["name"], "text": FLOORS[key]["text"],
                              "category": FLOORS[key]["category"]})
            tower.append(entry)
        current_key = self.floor_key(state)
        for entry in tower:
            if entry.get("key") == current_key and entry["level"] == (rnd - 1 if len(state["tower"]) > 2 else 0):
                entry["current"] = True
        floor = FLOORS[current_key]
        pending = state.get("pending")
        v: dict[str, Any] = {
            "game": "sleeping",
            "names": list(state["names"]),
            "round": rnd,
            "rounds": ROUNDS,
            "phase": state["phase"],
            "tower": tower,
            "floor": {"key": current_key, "name": floor["name"], "text": floor["text"], "category": floor["category"]},
            "peek_count": self.peek_count(state),
            "market": [card_view(c) for c in state["market"]],
            "deck_count": len(state["deck"]),
            "hand_counts": [len(self.hand_slots(state, s)) for s in range(n)],
            "teams": [self._team_view(state, s) for s in range(n)],
            "noise": list(state["noise"]),
            "treasure": list(state["treasure"]),
            "order": list(state["order"]),
            "current": self.current_seat(state),
            "turn": state["turn"],
            "copy_wait": [s for s in state["copy_wait"] if state["copy_choice"][s] is None] if state["phase"] == "copy" else [],
            "pending": {"seat": pending["seat"], "card": card_view(pending["card"])} if pending else None,
            "last_round": state["last_round"],
            "history": list(state["history"]),
            "wake_at": WAKE_AT,
            "bands": BANDS,
            "final": state["final"],
            "recent": list(state.get("recent", [])),
            "status": self.status_line(state),
        }
        if viewer is None:
            return v
        private: dict[str, Any] = {"seat": viewer, "name": state["names"][viewer]}
        known = state["known"][viewer]
        hand = []
        for slot, cid in enumerate(state["hands"][viewer]):
            if cid is None:
                continue
            if cid in known:
                hand.append({"slot": slot, "letter": slot_name(slot), "known": True, "card": card_view(cid)})
            else:
                hand.append({"slot": slot, "letter": slot_name(slot), "known": False})
        private["hand"] = hand
        private["others"] = [
            {"seat": s, "name": state["names"][s],
             "cards": [{"slot": slot, "letter": slot_name(slot), "card": card_view(cid)}
                       for slot, cid in enumerate(state["hands"][s]) if cid is not None]}
            for s in range(n) if s != viewer
        ]
        if state["phase"] == "copy" and viewer in state["copy_wait"]:
            team = state["teams"][viewer]
            private["copy_options"] = [
                {"noise": o["noise"], "bonus": o["bonus"],
                 "copies": {CARDS[ss]["name"]: CARDS[o["copies"][ss]]["name"] if ss in o["copies"] else None
                            for ss in scoring.shapeshifters(team)}}
                for o in scoring.copy_options(team, self.effect(state))]
            choice = state["copy_choice"][viewer]
            private["copy_choice"] = ({CARDS[int(k)]["name"]: CARDS[t]["name"] for k, t in choice.items()}
                                      if choice is not None else None)
        v["private"] = private
        return v

    def status_line(self, state: dict[str, Any]) -> str:
        names = _names(state)
        phase = state["phase"]
        if phase == "over":
            final = state.get("final") or []
            winners = [names[f["seat"]] for f in final if f["won"]]
            if winners:
                best = max(f["total"] for f in final if f["won"])
                return f"Game over: {' and '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best} treasure."
            return "Game over: the wizard woke up and nobody wins."
        floor = FLOORS[self.floor_key(state)]["name"]
        head = f"Round {state['round']}/{ROUNDS} ({floor})"
        if phase == "push":
            return f"{head}: {names[state['pending']['seat']]} must push a hand card to the market"
        if phase == "copy":
            return f"{head}: waiting for {', '.join(names[s] for s in self.to_act(state))} to set Shapeshifters"
        seat = self.current_seat(state)
        return f"{head}: {names[seat]} to hire (hire {self.turns_taken(state, seat) + 1} of {TEAM_SIZE})"

    def scores(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        final = state.get("final")
        n = len(state["names"])
        if not final:  # not over yet: provisional standing by treasure
            final = [{"seat": s, "treasure": state["treasure"][s], "bonus": 0, "total": state["treasure"][s],
                      "noise": state["noise"][s], "eligible": True, "rank": 0, "won": False} for s in range(n)]
            for f, rank in zip(final, competition_ranks([(-f["total"], f["noise"]) for f in final])):
                f["rank"] = rank
        out = []
        for f in final:
            detail = f"{f['treasure']} treasure + {f['bonus']} tracker bonus, noise {f['noise']}"
            if not f["eligible"]:
                detail += " (woke the wizard: cannot win)"
            out.append({"seat": f["seat"], "score": f["total"], "rank": f["rank"], "won": f["won"], "detail": detail})
        return out

    # ------------------------------------------------------------ describing
    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        kind = action.get("type")
        known = state["known"][seat]
        hand = state["hands"][seat]

        def own(slot: int) -> str:
            cid = hand[slot]
            return f"your card {slot_name(slot)} ({short(cid) if cid in known else 'unknown'})"

        if kind == "hire_hand":
            return f"Hire {own(action['slot'])}"[:80]
        if kind == "hire_deck":
            return "Hire the deck's top card (then push a hand card)"
        if kind == "hire_market":
            return f"Hire {short(action['card'])} from the market"[:80]
        if kind == "push":
            return f"Push {own(action['slot'])} to the market"[:80]
        if kind == "copy":
            team = state["teams"][seat]
            ss = scoring.shapeshifters(team)
            copies = {s: t for s, t in zip(ss, action["targets"]) if t is not None}
            effect = self.effect(state)
            parts = ", ".join(f"{CARDS[s]['name']}→{CARDS[copies[s]]['name'] if s in copies else 'nothing'}" for s in ss)
            text = f"{parts}: noise {scoring.noise(team, copies, effect)}, +{scoring.floor_bonus(team, copies, effect)} treasure"
            return text[:80]
        return str(kind)

    def action_group(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        return {"hire_hand": "Hire from your hand", "hire_deck": "Hire from deck or market",
                "hire_market": "Hire from deck or market", "push": "Push to the market",
                "copy": "Shapeshifters"}.get(action.get("type"), "Moves")

    def private_text(self, view: dict[str, Any]) -> str:
        p = view["private"]
        lines = [f"**Your hand** (round {view['round']}, {view['floor']['name']}):"]
        if p["hand"]:
            for h in p["hand"]:
                if h["known"]:
                    c = h["card"]
                    lines.append(f"• {h['letter']}: **{c['name']}** ({c['label']} {c['class']}) — peeked")
                else:
                    lines.append(f"• {h['letter']}: face away from you (not peeked)")
        else:
            lines.append("• (empty)")
        lines.append("**What you see in the others' hands:**")
        for o in p["others"]:
            cards = ", ".join(f"{c['letter']}: {c['card']['name']} ({c['card']['label']} {c['card']['class']})" for c in o["cards"])
            lines.append(f"• {o['name']}: {cards or '(empty)'}")
        if p.get("copy_options"):
            lines.append("**Shapeshifter choices:**")
            for o in p["copy_options"]:
                copies = ", ".join(f"{a}→{b or 'nothing'}" for a, b in o["copies"].items())
                lines.append(f"• {copies}: noise {o['noise']}, +{o['bonus']} treasure")
        return "\n".join(lines)

    # -------------------------------------------------------------------- bot
    def bot_action(self, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        from bot.games.sleeping.bot_player import choose

        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return choose(self.view(state, seat), legal, rng)
