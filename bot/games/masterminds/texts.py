"""Masterminds: the words of the game (status line, move descriptions, hand text, refusals)."""
from __future__ import annotations

from typing import Any, Callable

from .calc import CLEAR_POINTS, chance_line, gem_points
from .cards import ABILITIES, CLEAR, PREP, SKILLS, TALENTS, effective_stats, prep_name
from .constants import HAND_LIMIT, MAX_ACTIVATE, STEP_LETTERS, TEAM_LIMIT

SUMMARY = """\
**Goal:** complete heists to collect gems. A Clear gem is worth 2 points; each mastermind colour's gems are worth one die roll (1-6) made at the end, whoever holds them. Most points wins.
**Your turn: PREP or HEIST.**
**PREP** — 1) *Recruit phase*, one of: recruit a Talent from the pool (team of up to 4; it may replace one of yours, and must when the team is full); burn (discard) the pool and draw the top Talent (hire it or put it in the pool); or draw a Prep card. 2) *Plan phase*, twice: draw a Prep card, play ONE action card (💎 spend a gem for its bonus; "Instead" bonuses replace the normal effect), play up to TWO gear cards (one gear per recruit), or move/swap gear between your recruits. 3) Upkeep.
**HEIST** — pick the next open step of a heist (A→D) and the skill (if two are shown), then 1-3 untapped recruits: their skill total (+gear, abilities, Intel) **+ one die must BEAT the step's number**. An **interrupt window** opens for everyone first: each player plays one interrupt or passes (hidden, revealed together; no answer = pass). Then:
• total already **greater** than the number → **PERFECTION**: no roll, your die goes on the step.
• else roll: total+roll **greater** → **SUCCESS** (your die goes on the step); **equal** → **PUSH** (nothing placed, run over); **less** → **FAILURE**: one activated recruit flips a Failure card; if the step's skill is one of its two triggers, that recruit rolls skill+die and must beat the test or suffer the consequence. Run over.
After a success: **hold** (end the run; your die stays) or **continue** to the next step of the same heist with recruits not yet used this turn. Anyone may continue a heist others started; whoever completes step D takes it.
**Completing step D:** take the TAKE in gems from the bag; draw a Prep card if your team has fewer than 4; all dice go back (3 of *your* dice showing the same number there = bonus gem); keep the heist's name card; discard all your gear; retire one recruit.
**Upkeep:** Fixer draws, recruits untap (injured ones stay tapped one more upkeep), pool and heists refill, discard to 6 cards.
**End:** players+1 completed heists, the bag emptied (at once), or the round limit. Tiebreak: more Clear gems, then more heists completed.
**Rules option:** *tuned* (default): step D is an inside job (only for a player with a die on that heist), a FAILURE also busts the dice you placed this run, and after the last heist the round is played out. *rulebook*: the printed rules: any team may try step D, a FAILURE only draws a Failure card, and the last heist ends the game once its checklist is done.
"""


class TextsMixin:
    """Every sentence the game shows about a state or a move."""

    def status_line(self, state) -> str:
        """One line: round, heists completed, and who must decide what."""
        phase = state["phase"]
        if phase == "over":
            final = state.get("final") or {}
            why = {"heists": "the last heist was completed", "bag": "the bag is empty",
                   "rounds": "the round limit was reached"}.get(final.get("reason") or "", "")
            return f"Game over: {why}." if why else "Game over."
        name = state["names"][state["turn"]]
        head = f"Round {state['round']}/{state['options']['round_limit']} · heists {state['completed']}/{state['target']} · "
        if state.get("final_round"):
            head += "LAST HEIST DONE: the game ends after this turn · " if self._rulebook(state) else "LAST ROUND · "
        pending = state.get("pending") or {}
        what = {
            "turn": f"{name}: PREP (build your crew) or HEIST",
            "burned": f"{name}: hire the drawn Talent or put it in the pool",
            "replace": f"{name}: who does {self._talent_name(pending['card'])} replace?" if phase == "replace" else "",
            "plan": f"{name}: plan action {3 - state['plan_left']} of 2",
            "pay": f"{name}: which gem to spend on {prep_name(pending['card'])}" if phase == "pay" else "",
            "gear2": f"{name}: equip a second gear card or stop",
            "target": f"{name}: choose a target",
            "hire": f"{name}: recruit from the fresh Talent Pool",
            "crew": f"{name}: choose the recruits for the heist step",
            "suffer": f"{name}: choose who takes the Failure card",
            "lose_gem": f"{name}: choose a gem to return to the bag",
            "continue": f"{name}: continue the heist or hold",
            "retire": f"{name}: choose a recruit to retire",
            "discard": f"{name}: discard down to {HAND_LIMIT} cards",
        }.get(phase)
        if phase == "window":
            waiting = [state["names"][seat] for seat in self.to_act(state)]
            what = "Interrupt window: waiting for " + ", ".join(waiting)
        return head + (what or name)

    def describe_action(self, state, seat: int, action: dict[str, Any]) -> str:
        """One line (at most 80 characters) saying what ``action`` does, for buttons and the log."""
        kind = action["type"]
        if kind in FIXED_DESCRIPTIONS:
            return FIXED_DESCRIPTIONS[kind]
        describe = DESCRIBERS.get(kind)
        return describe(self, state, seat, action) if describe else kind

    def _hire_label(self, state, seat: int, verb: str, tid: str, action: dict[str, Any]) -> str:
        """"Recruit Byte: Hacking 4, Lucky", and how the team changes: it joins, or someone leaves (picked next)."""
        head = f"{verb} {self._talent_name(tid)}"
        if action.get("swap"):
            return fit(f"{head} in place of one of your team (pick who next)")
        brief, plain = f"{head}: {talent_brief(tid)}", f"{head}: {talent_brief(tid, gloss=False)}"
        if len(state["teams"][seat]) >= TEAM_LIMIT:
            return fit(f"{brief} (team full: pick who leaves)", f"{plain} (team full: pick who leaves)")
        return fit(brief, plain)

    def _describe_recruit(self, state, seat: int, action: dict[str, Any]) -> str:
        return self._hire_label(state, seat, "Recruit", action["card"], action)

    def _describe_hire(self, state, seat: int, action: dict[str, Any]) -> str:
        return self._hire_label(state, seat, "Hire", state["pending"]["card"], action)

    def _describe_to_pool(self, state, seat: int, action: dict[str, Any]) -> str:
        return fit(f"Don't hire: put {self._talent_name(state['pending']['card'])} into the Talent Pool")

    def _describe_replace(self, state, seat: int, action: dict[str, Any]) -> str:
        hired = self._talent_name(state["pending"]["card"])
        return fit(f"{hired} replaces {self._talent_name(action['recruit'])} (who leaves with any gear)")

    def _describe_back(self, state, seat: int, action: dict[str, Any]) -> str:
        if state["phase"] == "replace":
            return "Back: choose someone else or another move"
        return "Back: choose another step or move"

    def _describe_action_card(self, state, seat: int, action: dict[str, Any]) -> str:
        card = PREP[action["card"]]
        if action["gem"]:
            return fit(f"{card['name']} + spend a gem: {card['gem_text']}")
        return fit(f"{card['name']}: {card['text']}")

    def _gem_worth(self, state, colour: str) -> str:
        """A gem colour's worth in words: Clear 2 points; a mastermind colour a die roll at the end."""
        if colour == CLEAR:
            return f"worth {CLEAR_POINTS} points"
        owner = state["names"][state["colours"].index(colour)]
        return f"{owner}'s colour: worth 1-6, rolled at the end"

    def _describe_pay(self, state, seat: int, action: dict[str, Any]) -> str:
        return fit(f"Spend a {action['colour']} gem ({self._gem_worth(state, action['colour'])})")

    def _describe_gear(self, state, seat: int, action: dict[str, Any]) -> str:
        card = PREP[action["card"]]
        return fit(f"Equip {card['name']} ({card['text'].rstrip('.')}) on {self._talent_name(action['recruit'])}")

    def _describe_trade(self, state, seat: int, action: dict[str, Any]) -> str:
        _, giver = self._entry(state, action["from"])
        _, receiver = self._entry(state, action["to"])
        source, dest = self._talent_name(action["from"]), self._talent_name(action["to"])
        if receiver and receiver["gear"]:
            return fit(f"Swap gear between {source} ({prep_name(giver['gear'])}) and {dest} ({prep_name(receiver['gear'])})",
                       f"Swap gear between {source} and {dest}")
        return fit(f"Move {prep_name(giver['gear'])} from {source} to {dest}")

    def _describe_target(self, state, seat: int, action: dict[str, Any]) -> str:
        if "seat" in action:
            return f"Target {state['names'][action['seat']]} ({len(state['hands'][action['seat']])} cards in hand)"
        if "heist" in action:
            heist = state["heists"][action["heist"]]
            step_index = self._next_step(heist) - 1
            die = heist["dice"][step_index]
            return fit(f"{self._heist_name(heist)}: remove {state['names'][die['seat']]}'s die on step {STEP_LETTERS[step_index]}")
        owner, entry = self._entry(state, action["recruit"])
        return fit(f"{state['names'][owner]}'s {self._talent_name(entry['card'])}: discard {prep_name(entry['gear'])}")

    def _preview(self, state, seat: int, skill: str, tids: list[str], number: int) -> str:
        """What sending ``tids`` at a step of ``number`` gives: the total, and the die it needs."""
        total, _ = self.attempt_total(state, seat, skill, tids)
        clutch = any(TALENTS[tid]["ability"] == "clutch" for tid in tids)
        return chance_line(total, number, clutch)

    def _describe_heist(self, state, seat: int, action: dict[str, Any]) -> str:
        heist = state["heists"][action["heist"]]
        step_index = self._next_step(heist)
        number = self._steps(heist)[step_index]["number"]
        step = f"step {STEP_LETTERS[step_index]} ({action['skill']} {number})"
        if "recruits" not in action:
            return fit(f"{self._heist_name(heist)} {step}: choose the crew…")
        who = " + ".join(self._talent_name(tid) for tid in action["recruits"])
        preview = self._preview(state, seat, action["skill"], action["recruits"], number)
        short = preview.split(" (")[0].replace("total ", "").replace("you need", "need")  # "4 + a die vs 7: need 4+"
        name, letter = self._heist_name(heist), STEP_LETTERS[step_index]
        for line in (f"{name} {step}: send {who}, {preview}", f"{name} {step}: send {who}, {short}",
                     f"{name} {letter} ({action['skill']} {number}): send {who}, {short}",
                     f"{name} {letter}: send {who}, {short}"):
            if len(line) <= 80:
                return line
        return fit(f"{name} {letter}, {short.split(': ')[-1]}: send {who}")  # only the names are cut

    def _describe_crew(self, state, seat: int, action: dict[str, Any]) -> str:
        pending = state["pending"]
        heist = state["heists"][pending["heist"]]
        number = self._steps(heist)[self._next_step(heist)]["number"]
        who = " + ".join(self._talent_name(tid) for tid in action["recruits"])
        preview = self._preview(state, seat, pending["skill"], action["recruits"], number)
        line = f"{who}: {preview}"
        return line if len(line) <= 80 else fit(f"{who}: {preview.split(' (')[0]}")

    def _describe_pass(self, state, seat: int, action: dict[str, Any]) -> str:
        if state["phase"] == "window" and seat == state["turn"]:
            return "Roll without an interrupt"
        return "Pass (play no interrupt)"

    def _describe_interrupt(self, state, seat: int, action: dict[str, Any]) -> str:
        """The card and what it does to this roll, naming whose roll it is (Adrenaline on a rival's roll helps
        the rival)."""
        card = PREP[action["card"]]
        actor = state["turn"]
        mine = seat == actor
        whom = "your" if mine else f"{state['names'][actor]}'s"
        roll = "roll" if (state.get("window") or {}).get("kind") != "test" else "Failure test"
        effect = {"plus2": f"+2 to {whom} {roll}" + ("" if mine else " (it helps them)"),
                  "minus2": f"-2 to {whom} {roll}",
                  "noperfect": f"{state['names'][actor]} can't get PERFECTION: must roll, and a 1 FAILS",
                  }.get(card["effect"], card["text"].rstrip("."))
        return fit(f"Play {card['name']}: {effect}")

    def _describe_suffer(self, state, seat: int, action: dict[str, Any]) -> str:
        return fit(f"{self._talent_name(action['recruit'])} takes the Failure card")

    def _describe_give_gem(self, state, seat: int, action: dict[str, Any]) -> str:
        return fit(f"Return a {action['colour']} gem ({self._gem_worth(state, action['colour'])})")

    def _describe_retire(self, state, seat: int, action: dict[str, Any]) -> str:
        return fit(f"Retire {self._talent_name(action['recruit'])} (they leave your team)")

    def _describe_discard(self, state, seat: int, action: dict[str, Any]) -> str:
        card = PREP[action["card"]]
        return fit(f"Discard {card['name']} ({card['kind']}: {card['text'].rstrip('.')})")

    def action_group(self, state, seat: int, action: dict[str, Any]) -> str:
        """The heading a move is listed under in the move panel."""
        kind = action["type"]
        if kind == "heist":
            return "Heist: pick a step"
        if kind == "crew" or kind == "back" and state["phase"] == "crew":
            return "Heist: pick the crew"
        if kind in ("recruit", "burn", "draw_prep"):
            return "Prep: recruit (choose one)"
        if kind in ("draw", "action", "gear", "trade", "end_plan", "gear_done"):
            return {"draw": "Plan", "end_plan": "Plan", "action": "Plan: action card", "gear": "Plan: gear",
                    "gear_done": "Plan: gear", "trade": "Plan: trade gear"}[kind]
        if kind in ("pass", "interrupt"):
            return "Interrupts"
        return {"hire": "Hire", "to_pool": "Hire", "hire_pool": "Hire", "hire_skip": "Hire", "replace": "Hire",
                "back": "Hire", "pay": "Gems", "hold": "Heist", "suffer": "Failure", "give_gem": "Gems",
                "retire": "Retire", "discard": "Discard", "target": "Target"}.get(kind, "Moves")

    def private_text(self, view: dict[str, Any]) -> str:
        """A seat's hand, committed interrupt, gems (with what they are worth), free dice and Intel as Discord text."""
        private = view.get("private") or {}
        seat = private.get("seat")
        lines = [f"**Your hand ({len(private.get('hand', []))}/{HAND_LIMIT}):**"]
        for card in private.get("hand", []):
            line = f"• **{card['name']}** ({card['kind']}): {card['text']}"
            if card.get("gem_text"):
                line += f" 💎 spend a gem: {card['gem_text']}"
            lines.append(line)
        if not private.get("hand"):
            lines.append("• (empty)")
        if private.get("committed"):
            lines.append(f"You committed **{private['committed']}** in this interrupt window.")
        if seat is not None and view.get("players"):
            player = view["players"][seat]
            gems = ", ".join(f"{count} {colour}" for colour, count in player["gems"].items() if count) or "none"
            sure, rolled, expected = gem_points(player["gems"], CLEAR)
            lines.append(f"**Your colour:** {player['colour']} (your dice on the heists) · gems: {gems} · free dice: "
                         f"{player['dice_free']} · Intel: {player['intel']}")
            lines.append(f"**Your gems are worth** {sure} points now (Clear: 2 each)"
                         + (f" + {rolled} colour gem{'s' if rolled != 1 else ''} whose value (1-6 each) is rolled at the "
                            f"end: about {expected:g} in all." if rolled else "."))
        return "\n".join(lines)

    def illegal_message(self, state, seat: int, action: dict[str, Any]) -> str:
        """Why a move is refused, in a sentence a player can act on."""
        phase = state["phase"]
        kind = action.get("type") if isinstance(action, dict) else None
        if phase == "window":
            return "The interrupt window is open: play one of your interrupts that fits this roll, or pass."
        if kind == "attempt":
            return "A heist attempt is two picks now: the step (heist + skill), then the recruits."
        if kind == "heist":
            if state["dice"][seat] <= 0:
                return "All five of your dice are on heists: you need a free die to attempt a step."
            if not any(not entry["tapped"] for entry in state["teams"][seat]):
                return "You have no untapped recruit to send on a heist step."
            slot = action.get("heist")
            heist = state["heists"][slot] if slot in (0, 1) else None
            if heist and self._next_step(heist) == 3 and not self._inside(state, heist, seat):
                return "Inside job: you may only attempt step D of a heist where one of your dice already sits."
            if phase == "continue":
                return "You may only continue to the next step of the same heist."
            if phase != "turn":
                return "You can't start a heist attempt now."
            return "Attempt the next open step of a heist, with one of its skills."
        if kind == "crew":
            recruits = action.get("recruits") or []
            if len(recruits) > MAX_ACTIVATE:
                return "You may activate at most 3 recruits for one heist step."
            team = {entry["card"]: entry for entry in state["teams"][seat]}
            for tid in recruits:
                if tid not in team:
                    return "You can only activate recruits on your own team."
                if team[tid]["tapped"]:
                    return f"{TALENTS[tid]['name']} is tapped and can't be activated again this turn."
            if phase != "crew":
                return "Pick the heist step first, then the recruits."
            return "Choose 1 to 3 of your untapped recruits."
        if kind == "replace" and phase == "replace" and action.get("recruit") is None:
            return "Choose which of your recruits the new one replaces, or go back."
        if kind == "gear":
            return "Each recruit may carry only one Gear card; equip gear you hold onto a recruit without gear."
        if kind in ("recruit", "burn", "draw_prep") and phase != "turn":
            return "The recruit phase is over for this turn."
        if kind == "action":
            return "You can't play that action card now (check its target and your gems)."
        return {
            "turn": "Choose PREP (recruit, burn the pool or draw a Prep card) or attempt a heist step.",
            "plan": "Pick a plan action: draw, play one action card, play gear, trade gear or end the plan phase.",
            "crew": "Choose 1 to 3 of your untapped recruits for this step, or go back.",
            "replace": "Choose which of your recruits the new one replaces, or go back.",
            "pay": "Choose the colour of the gem you spend.",
            "suffer": "Choose one of the recruits who attempted the step.",
            "continue": "Continue to the next step of this heist with fresh recruits, or hold.",
            "retire": "Choose one of your recruits to retire.",
            "discard": "Discard one of the cards in your hand.",
        }.get(phase, "That move isn't allowed right now.")


# The moves whose description never depends on the state.
FIXED_DESCRIPTIONS = {
    "burn": "Burn (discard) the Talent Pool and draw a new Talent",
    "draw_prep": "Don't recruit: draw a Prep card",
    "draw": "Draw a Prep card",
    "gear_done": "No second gear card",
    "end_plan": "End the plan phase (and your turn)",
    "hire_skip": "Recruit nobody",
    "hold": "Hold: stop here, your dice stay on the heist",
}

# The describer of every other move type.
DESCRIBERS: dict[str, Callable[[Any, dict[str, Any], int, dict[str, Any]], str]] = {
    "recruit": TextsMixin._describe_recruit,
    "hire": TextsMixin._describe_hire,
    "hire_pool": TextsMixin._describe_recruit,
    "to_pool": TextsMixin._describe_to_pool,
    "replace": TextsMixin._describe_replace,
    "back": TextsMixin._describe_back,
    "action": TextsMixin._describe_action_card,
    "pay": TextsMixin._describe_pay,
    "gear": TextsMixin._describe_gear,
    "trade": TextsMixin._describe_trade,
    "target": TextsMixin._describe_target,
    "heist": TextsMixin._describe_heist,
    "crew": TextsMixin._describe_crew,
    "pass": TextsMixin._describe_pass,
    "interrupt": TextsMixin._describe_interrupt,
    "suffer": TextsMixin._describe_suffer,
    "give_gem": TextsMixin._describe_give_gem,
    "retire": TextsMixin._describe_retire,
    "discard": TextsMixin._describe_discard,
}


def fit(text: str, shorter: str = "", limit: int = 80) -> str:
    """``text`` if it fits a button (80 characters), else ``shorter`` if given and it fits, else ``text`` cut at a
    word with "…" (never in the middle of a word)."""
    if len(text) <= limit:
        return text
    if shorter and len(shorter) <= limit:
        return shorter
    return text[:limit - 1].rsplit(" ", 1)[0].rstrip(",:;(") + "…"


# What each ability does, in the few words a button has room for (the "?" and the glossary say it whole).
ABILITY_SHORT = {
    "solo": "+2 alone", "leader": "+1 per other recruit", "clutch": "a PUSH succeeds", "perfectionist": "picks its die face",
    "lucky": "re-rolls a 1", "slippery": "+3 on Failure tests", "fixer": "draws at upkeep",
    "fence": "+1 gem on retiring", "scout": "joins with a card", "gearhead": "gear +1 more",
    "allrounder": "2+ in every skill",
}


def talent_brief(tid: str, gloss: bool = True) -> str:
    """A Talent in a few words for a button: its best skill(s) and its ability, with what it does
    ("Hacking 4, Gearhead (gear +1 more)"; without ``gloss``: "Hacking 4, Gearhead")."""
    stats = effective_stats(tid)
    best = max(stats)
    skills = [f"{skill} {value}" for skill, value in zip(SKILLS, stats) if value == best]
    key = TALENTS[tid]["ability"]
    ability = ABILITIES[key]["name"] + (f" ({ABILITY_SHORT[key]})" if gloss else "")
    if len(skills) == len(SKILLS):
        best_text = f"every skill {best}"
    elif len(skills) >= 3:  # "2 in all but Charm" (the card on the board shows each value)
        best_text = f"{best} in all but " + " and ".join(s for s, v in zip(SKILLS, stats) if v != best)
    else:
        best_text = ", ".join(skills)
    return f"{best_text}, {ability}"
