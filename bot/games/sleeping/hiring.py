"""Sleeping Wizard: the hiring turns (hire from your hand, the deck's top or the market; after a deck or
market hire, push one of your hand cards face up to the market)."""
from __future__ import annotations

from bot.engine import Action, Event, State
from bot.games.sleeping.cards import CARDS, TEAM_SIZE, short, slot_name
from bot.games.sleeping.round_end import RoundEndMixin
from bot.games.sleeping.table import seat_names


class HiringMixin(RoundEndMixin):
    """The ``turns`` phase (one hire per turn) and the ``push`` phase that finishes a deck or market hire."""

    # ------------------------------------------------------------ legal actions
    def _hire_options(self, state: State, seat: int) -> list[Action]:
        """The hires the floor allows: each hand card, the deck's top, each market card (identical Slimes,
        Rogues and Shapeshifters once)."""
        effect = self.effect(state)
        actions: list[Action] = []
        if not effect.get("no_hand"):
            actions += [{"type": "hire_hand", "slot": slot} for slot in self.hand_slots(state, seat)]
        if state["deck"] and not effect.get("no_deck"):
            actions.append({"type": "hire_deck"})
        if not effect.get("no_market"):
            seen: set[tuple[str, int | None, str]] = set()
            for card_id in state["market"]:
                card = CARDS[card_id]
                look = (card["kind"], card["value"], card["class"])
                if card["kind"] == "regular" or look not in seen:
                    seen.add(look)
                    actions.append({"type": "hire_market", "card": card_id})
        return actions

    def _push_options(self, state: State, seat: int) -> list[Action]:
        """The hand cards ``seat`` may push to the market: any card still in the hand."""
        return [{"type": "push", "slot": slot} for slot in self.hand_slots(state, seat)]

    # ------------------------------------------------------------ applying a move
    def _apply_hire(self, state: State, seat: int, action: Action) -> list[Event]:
        """Hire one adventurer; a deck or market hire then waits for a push (automatic with one hand card left)."""
        if action["type"] == "hire_hand":
            return self._hire_from_hand(state, seat, action["slot"])
        name = seat_names(state)[seat]
        if action["type"] == "hire_deck":
            card_id = state["deck"].pop()
            text = f"{name} hires {short(card_id)} from the top of the deck"
        else:
            card_id = action["card"]
            state["market"].remove(card_id)
            text = f"{name} hires {short(card_id)} from the market"
        state["teams"][seat].append(card_id)
        events: list[Event] = [{"type": "hire", "text": text + self.hire_result(state, seat, card_id)}]
        self._note(state, f"hire: from {action['type'][5:]}", f"adventurer: {CARDS[card_id]['class']}")
        state["pending"] = {"seat": seat, "card": card_id}
        slots = self.hand_slots(state, seat)
        if len(slots) == 1:  # the last hand card has to go
            return events + self._push(state, seat, slots[0], forced=True)
        state["phase"] = "push"
        return events

    def _hire_from_hand(self, state: State, seat: int, slot: int) -> list[Event]:
        """Hire the card in ``slot`` of ``seat``'s own hand (known to its owner or not)."""
        card_id = state["hands"][seat][slot]
        state["hands"][seat][slot] = None
        self._forget(state, seat, card_id)
        state["teams"][seat].append(card_id)
        self._note(state, "hire: from hand", f"adventurer: {CARDS[card_id]['class']}")
        name = seat_names(state)[seat]
        events: list[Event] = [{"type": "hire",
                                "text": f"{name} hires {short(card_id)} from their hand (card {slot_name(slot)})"
                                        + self.hire_result(state, seat, card_id)}]
        return events + self._next_turn(state)

    def _apply_push(self, state: State, seat: int, action: Action) -> list[Event]:
        """Push the chosen hand card to the market, finishing a deck or market hire."""
        return self._push(state, seat, action["slot"])

    def _push(self, state: State, seat: int, slot: int, forced: bool = False) -> list[Event]:
        """Move ``seat``'s hand card in ``slot`` face up to the market; the next turn follows."""
        card_id = state["hands"][seat][slot]
        state["hands"][seat][slot] = None
        self._forget(state, seat, card_id)
        state["market"].append(card_id)
        state["pending"] = None
        state["phase"] = "turns"
        how = "their last hand card" if forced else f"their card {slot_name(slot)}"
        events: list[Event] = [{"type": "push",
                                "text": f"{seat_names(state)[seat]} pushes {how}, {short(card_id)}, to the market."}]
        return events + self._next_turn(state)

    def _next_turn(self, state: State) -> list[Event]:
        """Pass the turn on; after everyone's fourth hire, the Shapeshifter step and the round's score."""
        state["turn"] += 1
        if state["turn"] < TEAM_SIZE * len(state["names"]):
            return []
        return self._start_copy_step(state)
