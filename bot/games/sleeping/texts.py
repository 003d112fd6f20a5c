"""Sleeping Wizard: the words of the game (rules summary, status line, move labels, refusals and the
private hand text)."""
from __future__ import annotations

from typing import Any

from bot.engine import Action, State
from bot.games.sleeping import scoring
from bot.games.sleeping.cards import CARDS, ROUNDS, TEAM_SIZE, label, short, slot_name
from bot.games.sleeping.hiring import HiringMixin
from bot.games.sleeping.table import seat_names

SUMMARY = """\
**Goal:** hire quiet teams of adventurers to sneak into the sleeping wizard's tower, and end with the most treasure. **Reaching 48 noise wakes the wizard: that guild loses.**
**Your hand faces away from you:** everyone sees your 4 cards but you. At the start of each round you *peek* at 2 of them, picked at random (the floor may change how many); your DM shows which, and every other player's hand.
**Each round** (at most 5): a market of 3 face-up cards, 4 cards to each hand, then 4 turns each. On your turn hire ONE adventurer:
• **A)** a card from your hand (seen or not), or
• **B)** the top card of the deck, then push one hand card face up to the market, or
• **C)** a market card, then push one hand card to the market.
**Noise** (lower is better): adventurers of the same number cancel: all score 0. A Rogue (1*) scores 1 alone; two or more score 10 each and never cancel. Bards (11-14) never cancel. A Shapeshifter (?) copies another card of your team but a Bard (its number and class), to cancel with it; copying nothing scores 0. Slimes are 10s. Healers, Mages, Warriors and Rangers (2-9) are plain: their class only counts on floors that pay for it.
**Treasure:** the quietest team(s) collect 2 treasures; the floor may pay more (e.g. 1 per Mage, to every team). Your team's noise goes on your guild's noise tracker.
**Tower:** Ground Floor in round 1, then one hidden floor revealed per round (peeking, hiring, market, noise or treasure rules).
**End:** after round 5, or at the end of a round in which a guild reaches 48 noise: that guild woke the wizard and cannot win. Bonus treasure by tracker space (0-9: 5, 10-14: 4, 15-19: 3, 20-26: 2, 27-35: 1, 36-47: 0). Most treasure wins, ties to less noise.
**Turn order:** round 1 from the first seat; later rounds the noisiest guild starts (ties: earliest seat), then seat order.
"""

ACTION_GROUPS = {"hire_hand": "Hire from your hand", "hire_deck": "Hire from the deck or market, then push a hand card",
                 "hire_market": "Hire from the deck or market, then push a hand card",
                 "push": "Push a hand card to the market", "copy": "What your Shapeshifters copy"}


def fit_label(*labels: str, limit: int = 80) -> str:
    """The first of ``labels`` that fits a button (``limit`` characters); else the last, cut after a whole word."""
    for text in labels:
        if len(text) <= limit:
            return text
    return labels[-1][:limit - 1].rsplit(" ", 1)[0].rstrip(",:") + "…"


class TextsMixin(HiringMixin):
    """What the game says: to the channel (status), on buttons (move labels), on a refusal, in a DM."""

    def status_line(self, state: State) -> str:
        """One line for the board: whose move it is and what they must do, or who won."""
        names = seat_names(state)
        phase = state["phase"]
        if phase == "over":
            final = state.get("final") or []
            winners = [names[row["seat"]] for row in final if row["won"]]
            if winners:
                best = max(row["total"] for row in final if row["won"])
                verb = "wins" if len(winners) == 1 else "win"
                return f"Game over: {' and '.join(winners)} {verb} with {best} treasure."
            return "Game over: the wizard woke up and nobody wins."
        head = f"Round {state['round']}/{ROUNDS} ({self.floor(state)['name']})"
        if phase == "push":
            return f"{head}: {names[state['pending']['seat']]} must push a hand card to the market"
        if phase == "copy":
            return f"{head}: waiting for {', '.join(names[seat] for seat in self.to_act(state))} to set Shapeshifters"
        seat = self.current_seat(state)
        assert seat is not None
        return f"{head}: {names[seat]} to hire (hire {self.turns_taken(state, seat) + 1} of {TEAM_SIZE})"

    def illegal_message(self, state: State, seat: int, action: Action) -> str:
        """Why a move is refused, in a sentence the player can act on."""
        kind = action.get("type") if isinstance(action, dict) else None
        phase = state["phase"]
        if kind == "peek":
            return "Peeking is automatic: at the start of each round you see as many of your cards as the floor allows."
        if phase == "push":
            if kind != "push":
                return "You must first push one of your hand cards to the market to finish your hire."
            return "Push a card that is still in your hand."
        if phase == "copy":
            return "Pick one of the listed ways for your Shapeshifters to copy your team."
        return self._illegal_hire_message(state, kind, action)

    def _illegal_hire_message(self, state: State, kind: Any, action: Action) -> str:
        """Why a hire is refused: the floor forbids that source, or the card isn't there."""
        floor = self.floor(state)
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

    def describe_action(self, state: State, seat: int, action: Action) -> str:
        """A move's button label (at most 80 characters): what it does and, for a card you can see, what it makes
        of your team's noise; it never names a card its owner hasn't peeked at."""
        kind = action.get("type")
        if kind == "hire_hand":
            card_id = state["hands"][seat][action["slot"]]
            if card_id not in state["known"][seat]:
                return f"Hire your card {slot_name(action['slot'])} unseen (you haven't peeked at it)"
            preview = self._preview(state, seat, card_id)
            return fit_label(f"Hire your card {slot_name(action['slot'])}, {short(card_id)}{preview}",
                             f"Hire your {short(card_id)}{preview.replace('team noise', 'noise')}")
        if kind == "hire_deck":
            return "Hire the deck's top card unseen, then push a hand card"
        if kind == "hire_market":
            preview = self._preview(state, seat, action["card"])
            return fit_label(f"Hire {short(action['card'])} from the market{preview}",
                             f"Hire {short(action['card'])} from market{preview.replace('team noise', 'noise')}")
        if kind == "push":
            return fit_label(f"Push {self._own_card(state, seat, action['slot'])} face up to the market")
        if kind == "copy":
            return self._describe_copy(state, seat, action)
        return str(kind)

    def _preview(self, state: State, seat: int, card_id: int) -> str:
        """': team noise 5 → 3' (and the floor treasure it would change): what hiring a seen card does."""
        before, bonus_before, _ = self.team_now(state, seat)
        after, bonus_after, _ = self.team_now(state, seat, card_id)
        pays = f", treasure +{bonus_after}" if bonus_after > bonus_before else ""
        return f": team noise {before} → {after}{pays}"

    @staticmethod
    def _own_card(state: State, seat: int, slot: int) -> str:
        """'your card B, Tansy (2 Healer)', or 'your card B (unseen)' if its owner hasn't peeked at it."""
        card_id = state["hands"][seat][slot]
        return f"your card {slot_name(slot)}" + (f", {short(card_id)}," if card_id in state["known"][seat]
                                                  else " (unseen)")

    def _describe_copy(self, state: State, seat: int, action: Action) -> str:
        """'Mimsy as 3 Mage: team noise 6, +2 treasure': what each Shapeshifter copies and what the team then scores."""
        team = state["teams"][seat]
        shifters = scoring.shapeshifters(team)
        copies = {shifter: target for shifter, target in zip(shifters, action["targets"]) if target is not None}
        effect = self.effect(state)
        what = [f"{label(CARDS[copies[shifter]])} {CARDS[copies[shifter]]['class']}" if shifter in copies
                else "nothing (0)" for shifter in shifters]
        outcome = (f"team noise {scoring.noise(team, copies, effect)}, "
                   f"+{scoring.floor_bonus(team, copies, effect)} treasure")
        named = ", ".join(f"{CARDS[shifter]['name']} as {copy}" for shifter, copy in zip(shifters, what))
        return fit_label(f"{named}: {outcome}", f"Copy {', '.join(what)}: {outcome}",
                         f"{outcome.capitalize()}: copy {', '.join(what)}")

    def action_group(self, state: State, seat: int, action: Action) -> str:
        """The heading a move is listed under when the moves don't fit on buttons."""
        return ACTION_GROUPS.get(action.get("type", ""), "Moves")

    def private_text(self, view: dict[str, Any]) -> str:
        """The seat's hand (peeked cards named, the rest face away), the others' hands and any
        Shapeshifter choices, as a DM."""
        private = view["private"]
        lines = [f"**Your hand** (round {view['round']}, {view['floor']['name']}) faces away from you: the others "
                 "see these cards, you only see the ones you peeked at."]
        for held in private["hand"]:
            if held["known"]:
                card = held["card"]
                lines.append(f"• {held['letter']}: **{card['name']}** ({card['label']} {card['class']}) — you peeked")
            else:
                lines.append(f"• {held['letter']}: unseen (it faces away from you)")
        if not private["hand"]:
            lines.append("• (empty: your team is hired)")
        lines.append("**The others' hands**, which they can't see themselves: what each may hire blind from their "
                     "hand, and may push to the market.")
        for other in private["others"]:
            cards = ", ".join(f"{seen['letter']}: {seen['card']['name']} ({seen['card']['label']} "
                              f"{seen['card']['class']})" for seen in other["cards"])
            lines.append(f"• {other['name']}: {cards or '(empty)'}")
        if private.get("copy_options"):
            lines.append("**Shapeshifter choices:**")
            for option in private["copy_options"]:
                copies = ", ".join(f"{shifter} copies {target or 'nothing'}" for shifter, target in option["copies"].items())
                lines.append(f"• {copies}: noise {option['noise']}, +{option['bonus']} treasure")
        return "\n".join(lines)
