"""HEIST: a semi-cooperative game of jobs, obstacles and a bag of modifier tokens.

A turn: the active player chooses the top obstacle of a job (and, for an "or"
obstacle, which skill to test); every other player secretly commits an assist
card or nothing, all revealed at once; two tokens come out of the bag; the
active player plays tricks; the test resolves; a failure may upgrade a skill
with a trick; the active player refills to 5 cards. Five rounds on the heat
track, then secrets are checked against the final bag and the cheese counted.
"""
from __future__ import annotations

import json
import random
from typing import Any

from bot.engine import Engine, GameMeta, Option, RuleError, competition_ranks
from bot.rng import Rng

from . import cards as K
from .cards import COLOURS, OBSTACLE, RESOURCE, SKILL_NAME

ROUNDS = len(K.HEAT_TRACK)

SUMMARY = """**HEIST**: 1-6 thieves, 5 rounds. Score the most **cheese**.
**Setup**: each player gets an identity (skills Agility/Charm/Dexterity), a hidden secret and 5 resource cards (assists and tricks). Four jobs (A-D) each stack their top obstacles in order (3 obstacles at 1-2 players, 5 at 3, 6 at 4, all 7 at 5-6); the last one is the job's Mandatory finale. Only the top obstacle of each job can be faced.
**Your turn**
1. **Choose** the top obstacle of a job (an "or" obstacle: pick its skill now). Your pawn moves there. Your skill = identity + upgrade cards (several skills listed: add them).
2. **Get help**: every other player secretly commits one assist card or nothing; all are revealed together. An assister away from the job discards one more card (chosen with the commit) to move there. Assist effects on the bag happen now.
3. **Draw 2 tokens** from the bag; each lands on a random face (blue +4/+2, green +2/+1, yellow +1/-1, orange -1/-2, red -2/-4, purple +3/-3).
4. **Tricks**: only you play tricks from your hand (flip, redraw, ignore a token, +2...). Then **Resolve**.
5. total = skill + assists + tokens + tricks. **Success** if total >= target: the obstacle goes to your score pile, its success effect applies, assists with cheese go to their owners' score piles and assists with an upgrade go on their owners' identities. **Failure**: the failure effect applies, the obstacle goes to the box unless Mandatory, assists are discarded, played tricks with cheese go to your score pile, and you may put one trick (played or from your hand) on your identity for its +1 skill upgrade.
6. Refill your hand to 5.
**Round end**: the heat track's tokens for this round go into the bag and all drawn tokens return to it; the next round starts with the player left of this round's first player. After round 5 (or when every job is empty) the game ends.
**Scoring**: cheese on obstacles, assists and tricks in your score pile; +1 per obstacle from a completed job (its 7th obstacle overcome); your secret's cheese if met (bag secrets use the final bag). Tie: most obstacles, then shared. At 3 and 6 players the start player gets a 1-cheese head start. Secret thresholds depend on the player count (your secret shows this game's numbers).
**Solo**: no assists; reach 6 cheese to pull off the heist (rating: 0 Caught red-handed, 3 Small-time crook, 6 Professional, 9 Mastermind).
"""


def _canonical(action: Any) -> str | None:
    """A type-exact key for an action (2.0 is not 2, True is not 1), or None if it isn't JSON."""
    try:
        return json.dumps(action, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def _other_seats(state: dict[str, Any], active: int) -> list[int]:
    n = state["n"]
    return [(active + i) % n for i in range(1, n)]


class HeistEngine(Engine):
    meta = GameMeta(
        key="heist",
        name="HEIST",
        min_players=1,
        max_players=6,
        blurb="Semi-cooperative jobs: assist each other, draw tokens, keep your secret.",
        summary=SUMMARY,
        options=(
            Option("token_faces", "Drawn token faces", "random",
                   "random: a drawn token lands on either face; front: always its first (printed) face.",
                   choices=("random", "front")),
        ),
    )

    # ------------------------------------------------------------------ setup
    def setup(self, names: list[str], options: dict[str, Any], seed: int) -> dict[str, Any]:
        n = len(names)
        self.meta.check_players(n)
        opts = self.meta.resolve_options(options)
        state: dict[str, Any] = {"names": list(names), "rng": Rng.seed_state(seed), "options": opts, "n": n}
        rng = Rng(state)
        idents = [i["id"] for i in K.IDENTITIES]
        rng.shuffle(idents)
        # Solo leaves out the secrets nobody can meet alone (no assists, no job within reach).
        secrets = [s["id"] for s in K.SECRETS if n > 1 or s.get("solo", True)]
        rng.shuffle(secrets)
        state["identities"] = idents[:n]
        state["box_identities"] = sorted(idents[n:])
        state["secrets"] = secrets[:n]
        state["box_secrets"] = sorted(set(K.SECRET) - set(secrets[:n]))
        # Jobs are shorter with fewer players: the top k obstacles of each job are used,
        # the last of them is the job's finale (Mandatory); the rest stay in the box.
        k = K.JOB_LENGTH[n]
        state["jobs"] = {j["letter"]: [o["id"] for o in j["obstacles"][:k]] for j in K.JOBS}
        state["unused"] = sorted(o["id"] for j in K.JOBS for o in j["obstacles"][k:])
        state["finales"] = {letter: stack[-1] for letter, stack in state["jobs"].items()}
        state["boxed"] = []
        state["tests"] = 0
        state["failed"] = 0
        state["completed"] = []
        supply = dict(K.TOKEN_TOTAL)
        bag = {c: 0 for c in COLOURS}

        def take(colour: str, count: int) -> int:
            got = min(count, supply[colour])
            supply[colour] -= got
            return got

        for colour, count in K.START_BAG.items():
            bag[colour] += take(colour, count)
        for _ in range(n - 1):
            for colour, count in K.PER_EXTRA_PLAYER.items():
                bag[colour] += take(colour, count)
        per_space = (n + 1) // 2
        state["heat"] = [{"colour": colour, "count": take(colour, per_space), "done": False}
                         for colour in K.HEAT_TRACK]
        state["bag"] = bag
        state["supply"] = supply
        state["spent"] = []  # tokens drawn earlier this round, in front of players
        deck = list(K.RESOURCE_IDS)
        rng.shuffle(deck)
        state["deck"] = deck
        state["discard"] = []
        state["hands"] = [[] for _ in range(n)]
        for s in range(n):
            state["hands"][s] = [state["deck"].pop() for _ in range(K.HAND_SIZE)]
        # Card names that have been in some hand (for the balance report's "available").
        state["held"] = sorted({K.card_name(c) for hand in state["hands"] for c in hand})
        state["upgrades"] = [[] for _ in range(n)]
        state["piles"] = [[] for _ in range(n)]
        state["locations"] = [None] * n  # None = the hideout (no job yet)
        state["start"] = rng.below(n)
        state["leader"] = state["start"]  # this round's first player (moves left each round)
        state["active"] = state["start"]
        state["round"] = 1
        state["turns"] = 0
        state["phase"] = "choose"
        state["test"] = None
        state["last"] = None
        state["final"] = None
        return state

    # ------------------------------------------------------------------ helpers
    def skill(self, state: dict[str, Any], seat: int, skill: str) -> int:
        base = K.IDENTITY[state["identities"][seat]]["skills"][skill]
        return base + sum(1 for c in state["upgrades"][seat] if RESOURCE[c]["upgrade"] == skill)

    def skills(self, state: dict[str, Any], seat: int) -> dict[str, int]:
        return {s: self.skill(state, seat, s) for s in K.SKILLS}

    @staticmethod
    def option_of(state: dict[str, Any]) -> dict[str, Any]:
        test = state["test"]
        return OBSTACLE[test["obstacle"]]["test"][test["option"]]

    def total(self, state: dict[str, Any]) -> dict[str, Any]:
        """The current test's numbers (all public once assists are revealed)."""
        test = state["test"]
        option = self.option_of(state)
        skill = sum(self.skill(state, state["active"], s) for s in option["skills"])
        assists = sum(RESOURCE[a["card"]]["modifier"] for a in test["assists"])
        counted = [K.token_value(t) for t in test["tokens"] if not t["ignored"]]
        tokens = sum(counted)
        double = test["double"] * max(counted) if counted else 0
        favour = test["favour"] * len(test["assists"])
        tricks = test["bonus"] + favour + double
        total = skill + assists + tokens + tricks
        return {"skill": skill, "assists": assists, "tokens": tokens, "tricks": tricks,
                "total": total, "target": option["target"], "success": total >= option["target"]}

    def _draw_cards(self, state: dict[str, Any], seat: int, count: int, events: list) -> list[str]:
        drawn = []
        for _ in range(count):
            if not state["deck"]:
                if not state["discard"]:
                    break
                state["deck"] = state["discard"]
                state["discard"] = []
                Rng(state).shuffle(state["deck"])
                events.append({"type": "reshuffle", "text": "The discard pile is shuffled into a new resource deck."})
            card = state["deck"].pop()
            state["hands"][seat].append(card)
            drawn.append(card)
            if "held" in state and K.card_name(card) not in state["held"]:
                state["held"] = sorted(state["held"] + [K.card_name(card)])
        if drawn:
            events.append({"type": "draw", "to": seat,
                           "text": "You draw " + ", ".join(K.card_name(c) for c in drawn) + "."})
        return drawn

    def _refill(self, state: dict[str, Any], seat: int, events: list) -> None:
        need = K.HAND_SIZE - len(state["hands"][seat])
        if need > 0:
            got = self._draw_cards(state, seat, need, events)
            if got:
                events.append({"type": "refill", "text": f"{state['names'][seat]} draws {len(got)} card"
                               f"{'s' if len(got) != 1 else ''} back up to {len(state['hands'][seat])}."})

    def _draw_token(self, state: dict[str, Any], events: list) -> dict[str, Any] | None:
        bag = state["bag"]
        if sum(bag.values()) == 0 and state["spent"]:
            for t in state["spent"]:
                bag[t["colour"]] += 1
            state["spent"] = []
            events.append({"type": "bag", "text": "The bag is empty: this round's earlier tokens go back into it."})
        total = sum(bag.values())
        if total == 0:
            events.append({"type": "bag", "text": "The bag is empty: no token is drawn."})
            return None
        rng = Rng(state)
        pick = rng.below(total)
        for colour in COLOURS:
            if pick < bag[colour]:
                break
            pick -= bag[colour]
        bag[colour] -= 1
        face = 0 if state["options"].get("token_faces") == "front" else rng.below(2)
        return {"colour": colour, "face": face, "ignored": False}

    def _effect(self, state: dict[str, Any], seat: int, effect: dict[str, Any], events: list, source: str) -> None:
        do, n = effect["do"], effect.get("n", 1)
        name = state["names"][seat]
        if do == "add":
            colour = effect["colour"]
            got = min(n, state["supply"][colour])
            state["supply"][colour] -= got
            state["bag"][colour] += got
            if got:
                events.append({"type": "bag", "text": f"{source}: {got} {colour} token{'s' if got > 1 else ''} "
                               f"added to the bag."})
            else:
                events.append({"type": "bag", "text": f"{source}: no {colour} token is left to add."})
        elif do == "remove":
            colour = effect["colour"]
            got = min(n, state["bag"][colour])
            state["bag"][colour] -= got
            state["supply"][colour] += got
            if got:
                events.append({"type": "bag", "text": f"{source}: {got} {colour} token{'s' if got > 1 else ''} "
                               f"removed from the bag."})
            else:
                events.append({"type": "bag", "text": f"{source}: there is no {colour} token in the bag to remove."})
        elif do in ("draw", "active_draw"):
            got = self._draw_cards(state, seat, n, events)
            events.append({"type": "draw", "text": f"{source}: {name} draws {len(got)} card{'s' if len(got) != 1 else ''}."})
        elif do == "discard_random":
            for _ in range(n):
                hand = state["hands"][seat]
                if not hand:
                    events.append({"type": "discard", "text": f"{source}: {name} has no card to discard."})
                    break
                card = hand.pop(Rng(state).below(len(hand)))
                state["discard"].append(card)
                events.append({"type": "discard", "text": f"{source}: {name} discards {K.card_name(card)} at random."})
        else:  # pragma: no cover - data is validated by tests
            raise ValueError(do)

    @staticmethod
    def mandatory(state: dict[str, Any], oid: str) -> bool:
        """Printed Mandatory, or the finale (last obstacle in play) of its job."""
        return OBSTACLE[oid]["mandatory"] or state["finales"][OBSTACLE[oid]["job"]] == oid

    def obstacles_left(self, state: dict[str, Any]) -> int:
        return sum(len(stack) for stack in state["jobs"].values())

    # ------------------------------------------------------------------ turn flow
    def to_act(self, state: dict[str, Any]) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "assist":
            commits = state["test"]["commits"]
            return [s for s in range(state["n"]) if s != state["active"] and str(s) not in commits]
        return [state["active"]]

    def is_terminal(self, state: dict[str, Any]) -> bool:
        return state["phase"] == "over"

    def _dedupe(self, ids: list[str]) -> list[str]:
        seen: set[str] = set()
        out = []
        for cid in sorted(ids):
            sig = K.card_signature(cid)
            if sig not in seen:
                seen.add(sig)
                out.append(cid)
        return out

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "choose":
            acts = []
            for letter in K.LETTERS:
                stack = state["jobs"][letter]
                if stack:
                    for i, _ in enumerate(OBSTACLE[stack[0]]["test"]):
                        acts.append({"type": "choose", "job": letter, "option": i})
            return acts
        if phase == "assist":
            hand = state["hands"][seat]
            here = state["locations"][seat] == state["test"]["job"]
            acts = []
            for card in self._dedupe([c for c in hand if K.is_assist(c)]):
                if here:
                    acts.append({"type": "assist", "card": card})
                else:
                    rest = list(hand)
                    rest.remove(card)
                    for pay in self._dedupe(rest):
                        acts.append({"type": "assist", "card": card, "pay": pay})
            acts.append({"type": "no_assist"})
            return acts
        if phase == "tricks":
            test = state["test"]
            acts = []
            live = [i for i, t in enumerate(test["tokens"]) if not t["ignored"]]
            for card in self._dedupe([c for c in state["hands"][seat] if K.is_trick(c)]):
                c = RESOURCE[card]
                if c["target"]:
                    for i in live:
                        acts.append({"type": "trick", "card": card, "token": i})
                elif c["effect"]["do"] == "clean_exit" and test["clean_exit"]:
                    continue
                else:
                    acts.append({"type": "trick", "card": card})
            acts.append({"type": "resolve"})
            return acts
        if phase == "upgrade":
            acts = [{"type": "upgrade", "card": c} for c in self._upgrade_choices(state)]
            acts.append({"type": "no_upgrade"})
            return acts
        return []

    def _upgrade_choices(self, state: dict[str, Any]) -> list[str]:
        test = state["test"]
        played = [c for c in test["leftover"] if RESOURCE[c]["upgrade"]]
        hand = [c for c in state["hands"][state["active"]] if K.is_trick(c) and RESOURCE[c]["upgrade"]]
        return self._dedupe(played) + [c for c in self._dedupe(hand)]

    def _exact_legal(self, state: dict[str, Any], seat: int, action: Any) -> dict[str, Any]:
        """The legal action equal to ``action`` in value AND type, or RuleError. Everything a
        move needs is checked here, before anything in the state changes."""
        key = _canonical(action)
        for legal in self.legal_actions(state, seat):
            if key is not None and _canonical(legal) == key:
                return legal
        raise RuleError(self.illegal_message(state, seat, action))

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        action = self._exact_legal(state, seat, action)
        kind = action["type"]
        if kind == "choose":
            events = self._choose(state, seat, action)
        elif kind in ("assist", "no_assist"):
            events = self._commit(state, seat, action)
        elif kind == "trick":
            events = self._trick(state, seat, action)
        elif kind == "resolve":
            events = self._resolve(state)
        else:
            events = self._upgrade(state, action)
        return events + self._skip_forced(state)

    def _pass_is_public(self, state: dict[str, Any], seat: int) -> str | None:
        """Why ``seat`` can't assist, when the public board already shows it (no card in
        hand, or a single card while away from the job, which can't pay to move); else None.
        A hand without assist cards is NOT public, so that seat is still asked."""
        hand = state["hands"][seat]
        if not hand:
            return "has no cards"
        if len(hand) == 1 and state["locations"][seat] != state["test"]["job"]:
            return "has one card and is away from the job, so can't pay to move"
        return None

    def _skip_forced(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Play the prompts whose only answer is forced and whose being forced tells nobody
        anything new (the public board shows it); prompts that would reveal a hidden hand
        are still asked."""
        events: list[dict[str, Any]] = []
        while True:
            phase = state["phase"]
            if phase == "assist":
                stuck = [(s, why) for s in self.to_act(state) if (why := self._pass_is_public(state, s))]
                if not stuck:
                    break
                for s, why in stuck:
                    state["test"]["commits"][str(s)] = None
                    events.append({"type": "commit", "text": f"{state['names'][s]} {why}: no assist."})
                if self.to_act(state):
                    break
                events += self._reveal(state)
            elif phase == "tricks" and not state["hands"][state["active"]]:
                events.append({"type": "auto", "text": f"{state['names'][state['active']]} has no cards left "
                               "to play tricks with."})
                events += self._resolve(state)
            elif phase == "choose" and len(acts := self.legal_actions(state, state["active"])) == 1:
                events += self._choose(state, state["active"], acts[0])
            else:
                break
        return events

    def _choose(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        letter = action["job"]
        ob = OBSTACLE[state["jobs"][letter][0]]
        option = ob["test"][action["option"]]
        state["locations"][seat] = letter
        state["test"] = {"job": letter, "obstacle": ob["id"], "option": action["option"], "commits": {},
                         "revealed": False, "assists": [], "tokens": [], "tricks": [], "bonus": 0,
                         "double": 0, "favour": 0, "clean_exit": False, "leftover": [],
                         "resolved": False}
        skill = sum(self.skill(state, seat, s) for s in option["skills"])
        name = state["names"][seat]
        events = [{"type": "choose", "text": f"{name} moves to {K.JOB[letter]['name']} and faces {ob['id']} "
                   f"{ob['name']}: {K.test_label(option)} (their skill {skill})."}]
        if state["n"] == 1:
            events += self._reveal(state)
        else:
            state["phase"] = "assist"
            events.append({"type": "assist_call", "text": "Everyone else: commit an assist card or nothing "
                           "(secretly; all are revealed together)."})
        return events

    def _commit(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        test = state["test"]
        test["commits"][str(seat)] = action if action["type"] == "assist" else None
        name = state["names"][seat]
        events = [{"type": "commit", "text": f"{name} has committed."}]
        events.append({"type": "commit_private", "to": seat,
                       "text": "You commit " + (self.describe_action(state, seat, action) if action["type"] == "assist"
                                                else "nothing") + "."})
        if not self.to_act(state):
            events += self._reveal(state)
        return events

    def _reveal(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        test = state["test"]
        active = state["active"]
        events: list[dict[str, Any]] = []
        parts = []
        order = _other_seats(state, active)
        for s in order:
            commit = test["commits"].get(str(s))
            name = state["names"][s]
            if commit is None:
                parts.append(f"{name}: nothing")
                continue
            card = commit["card"]
            hand = state["hands"][s]
            text = f"{name}: {K.card_name(card)}"
            if "pay" in commit:
                hand.remove(commit["pay"])
                state["discard"].append(commit["pay"])
                state["locations"][s] = test["job"]
                text += f" (discards {K.card_name(commit['pay'])} to move there)"
            hand.remove(card)
            test["assists"].append({"seat": s, "card": card})
            parts.append(text)
        test["revealed"] = True
        if order:
            events.append({"type": "reveal", "text": "Assists revealed: " + "; ".join(parts) + "."})
        for a in test["assists"]:
            c = RESOURCE[a["card"]]
            for effect in c["effects"]:
                who = active if effect["do"] == "active_draw" else a["seat"]
                self._effect(state, who, effect, events, c["name"])
        drawn = []
        for _ in range(K.DRAW_TOKENS):
            token = self._draw_token(state, events)
            if token is not None:
                test["tokens"].append(token)
                drawn.append(K.token_label(token))
        numbers = self.total(state)
        events.append({"type": "tokens", "text": f"{state['names'][active]} draws "
                       f"{', '.join(drawn) if drawn else 'no token'}: total {numbers['total']} "
                       f"against {numbers['target']}."})
        state["phase"] = "tricks"
        return events

    def _trick(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        test = state["test"]
        card = action["card"]
        c = RESOURCE[card]
        state["hands"][seat].remove(card)
        test["tricks"].append(card)
        do = c["effect"]["do"]
        events: list[dict[str, Any]] = []
        what = ""
        tokens = test["tokens"]
        if do == "flip":
            t = tokens[action["token"]]
            before = K.token_label(t)
            t["face"] ^= 1
            what = f"flips {before} to {K.token_label(t)}"
        elif do == "flip_all":
            for t in tokens:
                if not t["ignored"]:
                    t["face"] ^= 1
            what = "flips every token"
        elif do == "redraw":
            t = tokens[action["token"]]
            state["bag"][t["colour"]] += 1
            new = self._draw_token(state, events)
            tokens[action["token"]] = new  # the bag holds at least the returned token
            what = f"puts {K.token_label(t)} back and draws {K.token_label(new)}"
        elif do == "bonus":
            test["bonus"] += c["effect"]["n"]
            what = f"adds {c['effect']['n']:+d}"
        elif do == "extra":
            new = self._draw_token(state, events)
            if new is not None:
                tokens.append(new)
            what = f"draws {K.token_label(new)}" if new else "finds no token to draw"
        elif do == "ignore":
            t = tokens[action["token"]]
            t["ignored"] = True
            what = f"ignores {K.token_label(t)}"
        elif do == "lucky":
            new = self._draw_token(state, events)
            if new is not None:
                tokens.append(new)
            live = [t for t in tokens if not t["ignored"]]
            if live:
                low = min(live, key=K.token_value)
                low["ignored"] = True
                what = (f"draws {K.token_label(new)} and " if new else "") + f"ignores {K.token_label(low)}"
            else:
                what = "finds no token"
        elif do == "double":
            test["double"] += 1
            what = "makes the highest token count twice"
        elif do == "clean_exit":
            test["clean_exit"] = True
            what = "plans a clean exit (no failure effect)"
        elif do == "favour":
            test["favour"] += 1
            what = f"calls in a favour (+{len(test['assists'])})"
        numbers = self.total(state)
        events.append({"type": "trick", "text": f"{state['names'][seat]} plays {c['name']}: {what}. "
                       f"Total {numbers['total']} against {numbers['target']}."})
        return events

    def _resolve(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        test = state["test"]
        active = state["active"]
        name = state["names"][active]
        numbers = self.total(state)
        ob = OBSTACLE[test["obstacle"]]
        letter = test["job"]
        stack = state["jobs"][letter]
        events: list[dict[str, Any]] = []
        source = f"{ob['id']} {ob['name']}"
        breakdown = (f"skill {numbers['skill']}, assists {numbers['assists']:+d}, tokens {numbers['tokens']:+d}, "
                     f"tricks {numbers['tricks']:+d}")
        state["tests"] += 1
        if numbers["success"]:
            events.append({"type": "success", "text": f"SUCCESS! {name} overcomes {source}: {numbers['total']} "
                           f"against {numbers['target']} ({breakdown})."})
            for effect in ob["success"]:
                self._effect(state, active, effect, events, source)
            stack.pop(0)
            state["piles"][active].append(ob["id"])
            if not stack:
                state["completed"].append(letter)
                events.append({"type": "job", "text": f"{K.JOB[letter]['name']} is complete! Each of its "
                               f"obstacles is worth 1 more cheese."})
            for a in test["assists"]:
                c = RESOURCE[a["card"]]
                owner = state["names"][a["seat"]]
                if c["special"] == "double_cross":
                    state["discard"].append(a["card"])
                elif c["upgrade"]:
                    state["upgrades"][a["seat"]].append(a["card"])
                    events.append({"type": "upgrade", "text": f"{owner} learns from {c['name']}: "
                                   f"+1 {SKILL_NAME[c['upgrade']]}."})
                elif c["cheese"]:
                    state["piles"][a["seat"]].append(a["card"])
                    events.append({"type": "score", "text": f"{owner} banks {c['name']} ({c['cheese']} cheese)."})
                else:
                    state["discard"].append(a["card"])
            state["discard"].extend(test["tricks"])
            self._finish_turn(state, events)
            return events
        test["resolved"] = True  # assists and tricks have left the table (see leftover)
        events.append({"type": "failure", "text": f"FAILURE. {name} fails {source}: {numbers['total']} "
                       f"against {numbers['target']} ({breakdown})."})
        if test["clean_exit"]:
            if ob["failure"]:
                events.append({"type": "clean", "text": "Clean Exit: the failure effect is ignored."})
        else:
            for effect in ob["failure"]:
                self._effect(state, active, effect, events, source)
        state["failed"] += 1
        if self.mandatory(state, ob["id"]):
            events.append({"type": "mandatory", "text": f"{ob['name']} is Mandatory: it stays on top of the job."})
        else:
            stack.pop(0)
            state["boxed"].append(ob["id"])
            events.append({"type": "boxed", "text": f"{ob['name']} is returned to the box."})
        for a in test["assists"]:
            c = RESOURCE[a["card"]]
            owner = state["names"][a["seat"]]
            if c["special"] == "double_cross":
                state["piles"][a["seat"]].append(a["card"])
                events.append({"type": "score", "text": f"{owner}'s Double Cross pays off ({c['cheese']} cheese)."})
            elif c["special"] == "backup":
                state["hands"][a["seat"]].append(a["card"])
                events.append({"type": "backup", "text": f"{owner}'s Backup Plan returns to their hand."})
            else:
                state["discard"].append(a["card"])
        for card in test["tricks"]:
            c = RESOURCE[card]
            if c["cheese"]:
                state["piles"][active].append(card)
                events.append({"type": "score", "text": f"{name} banks {c['name']} ({c['cheese']} cheese)."})
            else:
                test["leftover"].append(card)
        if self._upgrade_choices(state):
            state["phase"] = "upgrade"
            events.append({"type": "upgrade_call", "text": f"{name} may put one trick on their identity to upgrade a skill."})
        else:
            self._finish_turn(state, events)
        return events

    def _upgrade(self, state: dict[str, Any], action: dict[str, Any]) -> list[dict[str, Any]]:
        test = state["test"]
        active = state["active"]
        events: list[dict[str, Any]] = []
        if action["type"] == "upgrade":
            card = action["card"]
            if card in test["leftover"]:
                test["leftover"].remove(card)
            else:
                state["hands"][active].remove(card)
            state["upgrades"][active].append(card)
            c = RESOURCE[card]
            events.append({"type": "upgrade", "text": f"{state['names'][active]} learns from failure with "
                           f"{c['name']}: +1 {SKILL_NAME[c['upgrade']]}."})
        else:
            events.append({"type": "upgrade", "text": f"{state['names'][active]} takes no upgrade."})
        self._finish_turn(state, events)
        return events

    def _finish_turn(self, state: dict[str, Any], events: list) -> None:
        test = state["test"]
        active = state["active"]
        state["discard"].extend(test["leftover"])
        test["leftover"] = []
        state["spent"].extend({"colour": t["colour"], "face": t["face"], "ignored": False} for t in test["tokens"])
        numbers = self.total(state)
        state["last"] = {"seat": active, "obstacle": test["obstacle"], "option": test["option"],
                         "total": numbers["total"], "target": numbers["target"], "success": numbers["success"],
                         "tokens": [dict(t) for t in test["tokens"]],
                         "assists": [dict(a) for a in test["assists"]],
                         "tricks": list(test["tricks"])}
        state["test"] = None
        self._refill(state, active, events)
        state["turns"] += 1
        if self.obstacles_left(state) == 0:
            events.append({"type": "empty", "text": "Every job is empty: the heist is over."})
            self._end_round(state, events, last=True)
        elif state["turns"] >= state["n"]:
            self._end_round(state, events, last=state["round"] >= ROUNDS)
        else:
            state["active"] = (active + 1) % state["n"]
            state["phase"] = "choose"
            events.append({"type": "turn", "text": f"{state['names'][state['active']]}'s turn: choose an obstacle."})

    def _end_round(self, state: dict[str, Any], events: list, last: bool) -> None:
        space = state["heat"][state["round"] - 1]
        space["done"] = True
        added = space["count"]
        state["bag"][space["colour"]] += added
        space["count"] = 0
        for t in state["spent"]:
            state["bag"][t["colour"]] += 1
        state["spent"] = []
        events.append({"type": "round", "text": f"Round {state['round']} ends: the heat rises ({added} "
                       f"{space['colour']} token{'s' if added != 1 else ''} into the bag) and the drawn tokens go back."})
        if last:
            state["phase"] = "over"
            state["final"] = self._final(state)
            best = [r for r in state["final"] if r["won"]]
            for r in state["final"]:
                sec = K.SECRET[state["secrets"][r["seat"]]]
                events.append({"type": "secret", "text": f"{state['names'][r['seat']]}'s secret was {sec['name']} "
                               f"({K.secret_text(sec['id'], state['n'])}) - {'met' if r['secret_met'] else 'not met'}."})
            events.append({"type": "over", "text": "Game over! " + ", ".join(
                f"{state['names'][r['seat']]} {r['score']}" for r in sorted(state["final"], key=lambda r: r["rank"]))
                + (". Winner: " + " and ".join(state["names"][r["seat"]] for r in best) + "." if state["n"] > 1 else
                   f" (target {K.SOLO_TARGET}): rated {state['final'][0]['rating']}, "
                   f"{'the heist is pulled off' if best else 'not enough'}.")})
            return
        state["round"] += 1
        state["turns"] = 0
        state["leader"] = (state["start"] + state["round"] - 1) % state["n"]
        state["active"] = state["leader"]
        state["phase"] = "choose"
        events.append({"type": "turn", "text": f"Round {state['round']}: {state['names'][state['active']]} "
                       f"chooses an obstacle."})

    # ------------------------------------------------------------------ scoring
    def secret_met(self, state: dict[str, Any], seat: int) -> bool:
        check = K.secret_check(state["secrets"][seat], state["n"])
        kind = check["kind"]
        n = state["n"]
        others = [s for s in range(n) if s != seat]
        pile = state["piles"][seat]
        obstacles = [c for c in pile if c in OBSTACLE]
        if kind == "top_skill":
            mine = self.skill(state, seat, check["skill"])
            if not others:
                return mine >= check["solo"]
            if check.get("ties", True):
                return all(mine >= self.skill(state, s, check["skill"]) for s in others)
            return all(mine > self.skill(state, s, check["skill"]) for s in others)
        if kind == "all_skills":  # the lowest skill reaches n, the other two reach "two"
            low, mid, _ = sorted(self.skills(state, seat).values())
            return low >= check["n"] and mid >= check.get("two", check["n"])
        if kind == "upgrades":
            return len(state["upgrades"][seat]) >= check["n"]
        if kind == "distinct_jobs":
            return len({OBSTACLE[o]["job"] for o in obstacles}) >= check["n"] and len(obstacles) >= check["total"]
        if kind == "same_job":
            counts: dict[str, int] = {}
            for o in obstacles:
                counts[OBSTACLE[o]["job"]] = counts.get(OBSTACLE[o]["job"], 0) + 1
            best = max(counts.values(), default=0)
            # "most": that job also holds more of your obstacles than all the others together
            return best >= check["n"] and (not check.get("most") or 2 * best > len(obstacles))
        if kind == "most_obstacles":
            mine = len(obstacles)
            if not others:
                return mine >= check["solo"]
            theirs = [len([c for c in state["piles"][s] if c in OBSTACLE]) for s in others]
            return all(mine >= t if check["ties"] else mine > t for t in theirs)
        if kind == "assists_kept":
            kept = [c for c in pile + state["upgrades"][seat]
                    if c in K.ASSISTS and RESOURCE[c]["special"] != "double_cross"]
            return len(kept) >= check["n"]
        if kind == "tricks_kept":
            return sum(1 for c in pile if c in K.TRICKS) >= check["n"]
        if kind == "failed_share":
            return state["tests"] > 0 and 100 * state["failed"] >= check["n"] * state["tests"]
        if kind == "jobs_completed":
            return len(state["completed"]) >= check["n"]
        if kind == "bag_diff":
            bag = state["bag"]
            return sum(bag[c] for c in check["plus"]) - sum(bag[c] for c in check["minus"]) >= check["n"]
        raise ValueError(kind)  # pragma: no cover

    def _final(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        rows = []
        for seat in range(state["n"]):
            pile = state["piles"][seat]
            obstacles = [c for c in pile if c in OBSTACLE]
            ob_cheese = sum(OBSTACLE[c]["cheese"] for c in obstacles)
            assist_cheese = sum(RESOURCE[c]["cheese"] for c in pile if c in K.ASSISTS)
            trick_cheese = sum(RESOURCE[c]["cheese"] for c in pile if c in K.TRICKS)
            bonus = sum(1 for c in obstacles if OBSTACLE[c]["job"] in state["completed"])
            met = self.secret_met(state, seat)
            sec = K.SECRET[state["secrets"][seat]]
            secret = sec["cheese"] if met else 0
            head = K.HEAD_START[state["n"]] if seat == state["start"] else 0
            score = ob_cheese + assist_cheese + trick_cheese + bonus + secret + head
            detail = (f"obstacles {ob_cheese} ({len(obstacles)}), assists {assist_cheese}, tricks {trick_cheese}, "
                      f"job bonus {bonus}, secret {sec['name']} {secret}")
            if head:
                detail += f", start player's head start {head}"
            if state["n"] == 1:
                detail += f"; target {K.SOLO_TARGET}, rating: {K.solo_rating(score)}"
            rows.append({"seat": seat, "score": score, "obstacles": len(obstacles), "secret_met": met,
                         "secret": sec["id"], "detail": detail})
        for r, rank in zip(rows, competition_ranks([(-r["score"], -r["obstacles"]) for r in rows])):
            r["rank"] = rank
            r["won"] = rank == 1
        if state["n"] == 1:  # solo: beat the target score
            rows[0]["won"] = rows[0]["score"] >= K.SOLO_TARGET
            rows[0]["rating"] = K.solo_rating(rows[0]["score"])
        return rows

    def scores(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        final = state["final"] or self._final(state)
        return [{"seat": r["seat"], "score": r["score"], "rank": r["rank"], "won": r["won"], "detail": r["detail"]}
                for r in final]

    def balance_tally(self, state: dict[str, Any], trace: list[dict[str, Any]]) -> dict[str, Any]:
        """How the game ended, seat order from the start player, cards and mechanics held
        and used, and each dealt secret's goal."""
        n = state["n"]
        start = state["start"]
        roles = [f"{(s - start) % n + 1}. in turn order" for s in range(n)]
        kinds = {a["action"].get("type") for a in trace}
        used = {K.card_name(a["action"]["card"]) for a in trace if a["action"].get("type") in ("assist", "trick")}
        available = set(state.get("held", []))
        if n == 1:  # nobody to assist (so Call in a Favour can only add 0)
            available -= {K.card_name(c) for c in K.ASSISTS}
            available -= {K.card_name(c) for c in K.TRICKS if RESOURCE[c]["effect"]["do"] == "favour"}
        if n > 1:
            available.add("mechanic: pay a card to move and assist")
            if any("pay" in a["action"] for a in trace):
                used.add("mechanic: pay a card to move and assist")
        if kinds & {"upgrade", "no_upgrade"}:
            available.add("mechanic: failure upgrade")
            if "upgrade" in kinds:
                used.add("mechanic: failure upgrade")
        ors = [a["action"] for a in trace if a["action"].get("type") == "choose"]
        if ors:
            available.add("mechanic: second skill of an 'or' obstacle")
            if any(a["option"] == 1 for a in ors):
                used.add("mechanic: second skill of an 'or' obstacle")
        final = state["final"] or self._final(state)
        if state["completed"]:
            end = "heat track done, job completed" if self.obstacles_left(state) else "every job emptied"
        else:
            end = "heat track done, no job completed"
        return {"end": end, "roles": roles, "available": sorted(available), "used": sorted(used & available),
                "goals": {K.SECRET[r["secret"]]["name"]: r["secret_met"] for r in final}}

    # ------------------------------------------------------------------ views and text
    def status_line(self, state: dict[str, Any]) -> str:
        names = state["names"]
        phase = state["phase"]
        if phase == "over":
            final = state["final"] or []
            if state["n"] == 1 and final:
                r = final[0]
                return (f"Game over: {names[0]} scores {r['score']} against a target of {K.SOLO_TARGET} "
                        f"({r['rating']}): {'the heist is pulled off' if r['won'] else 'not enough'}.")
            win = " and ".join(names[r["seat"]] for r in final if r["won"])
            return f"Game over: {win} win{'s' if ' and ' not in win else ''}."
        active = names[state["active"]]
        head = f"Round {state['round']}/{ROUNDS}"
        if phase == "choose":
            return f"{head}: {active} chooses an obstacle."
        ob = OBSTACLE[state["test"]["obstacle"]]
        if phase == "assist":
            waiting = ", ".join(names[s] for s in self.to_act(state))
            return f"{head}: {active} faces {ob['name']}; waiting for assists from {waiting}."
        if phase == "tricks":
            numbers = self.total(state)
            return (f"{head}: {active} faces {ob['name']} ({numbers['total']} vs {numbers['target']}) "
                    f"and may play tricks.")
        return f"{head}: {active} failed {ob['name']} and may upgrade a skill with a trick."

    def _obstacle_view(self, state: dict[str, Any], oid: str) -> dict[str, Any]:
        ob = OBSTACLE[oid]
        return {"id": oid, "name": ob["name"], "job": ob["job"], "cheese": ob["cheese"],
                "mandatory": self.mandatory(state, oid), "finale": state["finales"][ob["job"]] == oid,
                "tests": [{"skills": o["skills"], "target": o["target"], "label": K.test_label(o)} for o in ob["test"]],
                "test_text": K.obstacle_test_text(ob),
                "success": K.effects_text(ob["success"]), "failure": K.effects_text(ob["failure"])}

    def _card_view(self, cid: str, with_id: bool = False) -> dict[str, Any]:
        c = RESOURCE[cid]
        out = {"name": c["name"], "kind": c["kind"], "text": K.card_text(cid),
                "cheese": c["cheese"], "upgrade": c["upgrade"]}
        if with_id:
            out["id"] = cid
        return out

    def view(self, state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        n = state["n"]
        over = state["phase"] == "over"
        v: dict[str, Any] = {
            "game": "heist", "names": list(state["names"]), "n": n, "round": state["round"], "rounds": ROUNDS,
            "phase": state["phase"], "active": state["active"], "start": state["start"],
            "options": dict(state["options"]),
            "status": self.status_line(state), "over": over,
            "heat": [{"round": i + 1, "colour": h["colour"], "count": h["count"], "done": h["done"]}
                     for i, h in enumerate(state["heat"])],
            "bag": dict(state["bag"]), "bag_total": sum(state["bag"].values()), "supply": dict(state["supply"]),
            "spent": [K.token_label(t) for t in state["spent"]],
            "deck": len(state["deck"]), "discard": len(state["discard"]),
            "discard_top": K.card_name(state["discard"][-1]) if state["discard"] else None,
            "boxed": list(state["boxed"]), "completed": list(state["completed"]),
            "tests": state["tests"], "failed": state["failed"],  # public: every test is resolved in the open
        }
        active_job = state["test"]["job"] if state["test"] else None
        v["jobs"] = [{"letter": j["letter"], "name": j["name"], "left": len(state["jobs"][j["letter"]]),
                      "length": K.JOB_LENGTH[n],
                      "stack": list(state["jobs"][j["letter"]]),
                      "top": self._obstacle_view(state, state["jobs"][j["letter"]][0]) if state["jobs"][j["letter"]] else None,
                      "completed": j["letter"] in state["completed"], "active": j["letter"] == active_job}
                     for j in K.JOBS]
        players = []
        for s in range(n):
            ident = K.IDENTITY[state["identities"][s]]
            pile = state["piles"][s]
            players.append({
                "seat": s, "name": state["names"][s], "identity": ident["name"], "base": dict(ident["skills"]),
                "skills": self.skills(state, s), "upgrades": [K.card_name(c) for c in state["upgrades"][s]],
                "location": state["locations"][s], "hand": len(state["hands"][s]),
                "pile": [c if c in OBSTACLE else K.card_name(c) for c in pile],
                "pile_obstacles": [c for c in pile if c in OBSTACLE],
                "cheese": sum(OBSTACLE[c]["cheese"] if c in OBSTACLE else RESOURCE[c]["cheese"] for c in pile),
            })
        v["players"] = players
        test = state["test"]
        if test:
            option = self.option_of(state)
            tv: dict[str, Any] = {
                "seat": state["active"], "job": test["job"], "obstacle": self._obstacle_view(state, test["obstacle"]),
                "option": test["option"], "label": K.test_label(option), "target": option["target"],
                "revealed": test["revealed"],
                "committed": sorted(int(s) for s in test["commits"]),
                "waiting": self.to_act(state) if state["phase"] == "assist" else [],
                "assists": [{"seat": a["seat"], **self._card_view(a["card"])} for a in test["assists"]],
                "tokens": [{"colour": t["colour"], "face": t["face"], "value": K.token_value(t),
                            "ignored": t["ignored"]} for t in test["tokens"]],
                "tricks": [self._card_view(c, True) for c in test["tricks"]],  # ids: a failed test's upgrade names one
            }
            if test["revealed"]:
                tv["numbers"] = self.total(state)
            v["test"] = tv
        else:
            v["test"] = None
        last = state["last"]
        if last:
            ob = OBSTACLE[last["obstacle"]]
            v["last"] = {"seat": last["seat"], "obstacle": last["obstacle"], "name": ob["name"],
                         "label": K.test_label(ob["test"][last["option"]]), "total": last["total"],
                         "target": last["target"], "success": last["success"],
                         "tokens": [{"colour": t["colour"], "face": t["face"], "value": K.token_value(t),
                                     "ignored": t["ignored"]} for t in last["tokens"]],
                         "assists": [{"seat": a["seat"], "name": K.card_name(a["card"])} for a in last["assists"]],
                         "tricks": [K.card_name(c) for c in last["tricks"]]}
        else:
            v["last"] = None
        if over:
            v["scores"] = self.scores(state)
            v["secrets"] = [{"seat": r["seat"], "name": K.SECRET[r["secret"]]["name"],
                             "text": K.secret_text(r["secret"], n), "cheese": K.SECRET[r["secret"]]["cheese"],
                             "met": r["secret_met"]} for r in state["final"]]
        if viewer is not None:
            sec = K.SECRET[state["secrets"][viewer]]
            priv: dict[str, Any] = {
                "seat": viewer,
                "hand": [self._card_view(c, True) for c in sorted(state["hands"][viewer])],
                "secret": {"id": sec["id"], "name": sec["name"], "text": K.secret_text(sec["id"], n), "cheese": sec["cheese"],
                           "met_now": self.secret_met(state, viewer)},
            }
            if test and not test["revealed"] and str(viewer) in test["commits"]:
                commit = test["commits"][str(viewer)]
                priv["commit"] = self.describe_action(state, viewer, commit) if commit else "nothing"
            v["private"] = priv
        return v

    def private_text(self, view: dict[str, Any]) -> str:
        priv = view["private"]
        sec = priv["secret"]
        me = view["players"][priv["seat"]]
        lines = [f"**Your secret: {sec['name']}** ({sec['cheese']} cheese): {sec['text']}"
                 f" _(met right now: {'yes' if sec['met_now'] else 'no'})_",
                 f"**You are the {me['identity']}**: " + ", ".join(
                     f"{SKILL_NAME[s]} {v}" for s, v in me["skills"].items()) +
                 f"; location: {('job ' + me['location']) if me['location'] else 'the hideout'}.",
                 f"**Your hand ({len(priv['hand'])}):**"]
        for c in priv["hand"]:
            lines.append(f"- **{c['name']}** ({c['kind']}): {c['text']}")
        if "commit" in priv:
            lines.append(f"Committed to this test: {priv['commit']}.")
        return "\n".join(lines)

    def describe_action(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        kind = action["type"]
        if kind == "choose":
            ob = OBSTACLE[state["jobs"][action["job"]][0]]
            option = ob["test"][action["option"]]
            skill = sum(self.skill(state, seat, s) for s in option["skills"])
            text = f"{ob['id']} {ob['name']}: {K.test_label(option)} (you {skill}, {ob['cheese']} cheese)"
        elif kind == "assist":
            c = RESOURCE[action["card"]]
            text = f"Assist: {c['name']}"
            if c["modifier"]:
                text += f" ({c['modifier']:+d})"
            if "pay" in action:
                text += f", discard {K.card_name(action['pay'])} to move"
        elif kind == "no_assist":
            text = "No assist"
        elif kind == "trick":
            c = RESOURCE[action["card"]]
            if "token" in action:
                t = state["test"]["tokens"][action["token"]]
                verb = {"flip": "flip", "redraw": "redraw", "ignore": "ignore"}[c["effect"]["do"]]
                text = f"{c['name']}: {verb} {K.token_label(t)} (token {action['token'] + 1})"
            else:
                text = f"{c['name']}: {K.TRICK_EFFECT_TEXT[c['effect']['do']].format(n=c['effect'].get('n', 1))}"
        elif kind == "resolve":
            numbers = self.total(state)
            text = f"Resolve: {numbers['total']} against {numbers['target']} " \
                   f"({'success' if numbers['success'] else 'failure'})"
        elif kind == "upgrade":
            c = RESOURCE[action["card"]]
            where = "played" if action["card"] in state["test"]["leftover"] else "from hand"
            text = f"Upgrade: {c['name']} ({where}) for +1 {SKILL_NAME[c['upgrade']]}"
        elif kind == "no_upgrade":
            text = "No upgrade"
        else:
            text = kind
        return text if len(text) <= 80 else text[:79] + "…"

    def action_group(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        return {"choose": "Obstacles", "assist": "Assist", "no_assist": "Assist", "trick": "Tricks",
                "resolve": "Resolve", "upgrade": "Upgrade", "no_upgrade": "Upgrade"}.get(action["type"], "Moves")

    def illegal_message(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str):
            return "That isn't a HEIST move."
        action = {k: v for k, v in action.items() if isinstance(v, (str, int))}  # odd values match nothing
        phase = state["phase"]
        want = {"choose": "choose", "assist": "assist", "no_assist": "assist", "trick": "tricks",
                "resolve": "tricks", "upgrade": "upgrade", "no_upgrade": "upgrade"}.get(kind)
        if want is None:
            return "That isn't a HEIST move."
        if want != phase:
            return {"choose": "You can only choose an obstacle at the start of your turn.",
                    "assist": "Assists are committed only while the active player waits for help.",
                    "tricks": "Tricks are played only after the tokens are drawn, by the active player.",
                    "upgrade": "Upgrades are only taken after a failed test."}[want]
        hand = state["hands"][seat]
        if kind == "choose":
            letter = action.get("job")
            if letter not in state["jobs"]:
                return "There is no such job: choose A, B, C or D."
            if not state["jobs"][letter]:
                return f"{K.JOB[letter]['name']} has no obstacle left."
            return "Choose the top obstacle of a job (and one of its listed skills)."
        if kind == "assist":
            card = action.get("card")
            if card not in hand:
                return "That card isn't in your hand."
            if not K.is_assist(card):
                return "Only an assist card can be committed to help; tricks are for the active player."
            here = state["locations"][seat] == state["test"]["job"]
            if not here and "pay" not in action:
                return "Your pawn isn't at this job: choose a card to discard to move there."
            if here and "pay" in action:
                return "You are already at this job: no card needs to be discarded."
            if action.get("pay") not in hand or action.get("pay") == card:
                return "You must pay with another card from your hand."
            return "That assist can't be committed."
        if kind == "trick":
            card = action.get("card")
            if card not in hand:
                return "That card isn't in your hand."
            if not K.is_trick(card):
                return "That is an assist card: only tricks can be played on your own test."
            return "That trick needs a drawn token that still counts (give its number)."
        if kind == "upgrade":
            return "Only a trick with a failure upgrade, played this test or from your hand, can upgrade you."
        return "That move isn't allowed right now."

    def timeout_action(self, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        phase = state["phase"]
        if phase == "assist":
            return {"type": "no_assist"}
        if phase == "tricks":
            return {"type": "resolve"}
        if phase == "upgrade":
            return self.bot_action(state, seat, rng)
        return self.bot_action(state, seat, rng)

    def bot_action(self, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        from .bot_player import choose

        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        return choose(self.view(state, seat), legal, rng)
