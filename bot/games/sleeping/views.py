"""Sleeping Wizard: what each seat may see (the public board, and a seat's own hand as far as it
peeked, the other hands, and its Shapeshifter choices)."""
from __future__ import annotations

from bot.engine import State
from bot.games.sleeping import scoring
from bot.games.sleeping.cards import BANDS, CARDS, FLOORS, ROUNDS, WAKE_AT, card_view, slot_name
from bot.games.sleeping.texts import TextsMixin
from bot.games.sleeping.viewtypes import (
    CopyOptionView,
    HandCardView,
    OtherHandView,
    SleepingPrivate,
    SleepingView,
    TeamCardView,
    TeamView,
    TowerLevelView,
)


class ViewsMixin(TextsMixin):
    """``view(state, viewer)``: the board everyone sees, plus the viewer's own secrets."""

    def view(self, state: State, viewer: int | None) -> SleepingView:  # type: ignore[override]
        # (the contract says dict[str, Any]; a TypedDict is a dict whose keys are known)
        """The public board (``viewer`` None), plus ``private`` for a seat."""
        public = self._public_view(state)
        if viewer is None:
            return public
        public["private"] = self._private_view(state, viewer)
        return public

    def _public_view(self, state: State) -> SleepingView:
        """Everything on the table: no hand card, no face-down floor, no Shapeshifter choice made."""
        players = len(state["names"])
        floor_key = self.floor_key(state)
        floor = FLOORS[floor_key]
        pending = state.get("pending")
        copying = state["phase"] == "copy"
        return {
            "game": "sleeping",
            "names": list(state["names"]),
            "round": state["round"],
            "rounds": ROUNDS,
            "phase": state["phase"],
            "tower": self._tower_view(state),
            "floor": {"key": floor_key, "name": floor["name"], "text": floor["text"], "category": floor["category"]},
            "peek_count": self.peek_count(state),
            "market": [card_view(card) for card in state["market"]],
            "deck_count": len(state["deck"]),
            "hand_counts": [len(self.hand_slots(state, seat)) for seat in range(players)],
            "teams": [self._team_view(state, seat) for seat in range(players)],
            "noise": list(state["noise"]),
            "treasure": list(state["treasure"]),
            "order": list(state["order"]),
            "current": self.current_seat(state),
            "turn": state["turn"],
            "copy_wait": [seat for seat in state["copy_wait"] if state["copy_choice"][seat] is None] if copying else [],
            "pending": {"seat": pending["seat"], "card": card_view(pending["card"])} if pending else None,
            "last_round": state["last_round"],
            "history": list(state["history"]),
            "wake_at": WAKE_AT,
            "bands": BANDS,
            "final": state["final"],
            "recent": list(state.get("recent", [])),
            "status": self.status_line(state),
        }

    def _tower_view(self, state: State) -> list[TowerLevelView]:
        """The tower's levels, Ground Floor first: revealed ones named, the current one marked."""
        round_number = state["round"]
        tower: list[TowerLevelView] = []
        for level, key in enumerate(state["tower"]):
            revealed = key in ("ground", "attic") or level < round_number
            entry: TowerLevelView = {"level": level, "revealed": revealed, "current": False}
            if revealed:
                entry["key"], entry["name"] = key, FLOORS[key]["name"]
                entry["text"], entry["category"] = FLOORS[key]["text"], FLOORS[key]["category"]
            tower.append(entry)
        current_key = self.floor_key(state)
        current_level = round_number - 1 if len(state["tower"]) > 2 else 0
        for entry in tower:
            if entry.get("key") == current_key and entry["level"] == current_level:
                entry["current"] = True
        return tower

    def _team_view(self, state: State, seat: int) -> TeamView:
        """A seat's hired team this round, each card with its noise (and what a Shapeshifter copies).

        During the Shapeshifter step everyone sees the quietest copies, not a choice already made."""
        team = state["teams"][seat]
        effect = self.effect(state)
        copies = self.team_copies(state, seat) if state["phase"] != "copy" else scoring.best_copies(team, effect)
        scores = scoring.card_scores(team, copies, effect)
        reasons = scoring.card_reasons(team, copies, effect)
        cards: list[TeamCardView] = []
        for card_id in team:
            entry: TeamCardView = {**card_view(card_id), "score": scores[card_id]}
            if card_id in copies:
                entry["copies"] = CARDS[copies[card_id]]["name"]
            if card_id in reasons:
                entry["why"] = reasons[card_id]
            cards.append(entry)
        return {"seat": seat, "cards": cards, "noise": sum(scores.values()),
                "bonus": scoring.floor_bonus(team, copies, effect)}

    def _private_view(self, state: State, viewer: int) -> SleepingPrivate:
        """What only ``viewer`` sees: its hand (a card it hasn't peeked at shows only its slot), the
        other hands in full, and in the Shapeshifter step its choices."""
        players = len(state["names"])
        known = state["known"][viewer]
        hand: list[HandCardView] = []
        for slot, card_id in enumerate(state["hands"][viewer]):
            if card_id is None:
                continue
            if card_id in known:
                hand.append({"slot": slot, "letter": slot_name(slot), "known": True, "card": card_view(card_id)})
            else:
                hand.append({"slot": slot, "letter": slot_name(slot), "known": False})
        others: list[OtherHandView] = [
            {"seat": seat, "name": state["names"][seat],
             "cards": [{"slot": slot, "letter": slot_name(slot), "card": card_view(card_id)}
                       for slot, card_id in enumerate(state["hands"][seat]) if card_id is not None]}
            for seat in range(players) if seat != viewer
        ]
        private: SleepingPrivate = {"seat": viewer, "name": state["names"][viewer], "hand": hand, "others": others}
        if state["phase"] == "copy" and viewer in state["copy_wait"]:
            private["copy_options"] = self._copy_choices(state, viewer)
            choice = state["copy_choice"][viewer]
            private["copy_choice"] = ({CARDS[int(shifter)]["name"]: CARDS[target]["name"]
                                       for shifter, target in choice.items()} if choice is not None else None)
        return private

    def _copy_choices(self, state: State, seat: int) -> list[CopyOptionView]:
        """The seat's Shapeshifter choices by name, in the order of its ``copy`` actions, with their outcome."""
        team = state["teams"][seat]
        return [{"noise": option["noise"], "bonus": option["bonus"],
                 "copies": {CARDS[shifter]["name"]: CARDS[option["copies"][shifter]]["name"]
                            if shifter in option["copies"] else None
                            for shifter in scoring.shapeshifters(team)}}
                for option in scoring.copy_options(team, self.effect(state))]
