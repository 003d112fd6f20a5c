"""Sleeping Wizard: the end of a round and of the game (the Shapeshifter step, noise and treasure,
the tracker, the final score and the balance report)."""
from __future__ import annotations

from typing import Any

from bot.engine import Action, Event, State, competition_ranks
from bot.games.sleeping import scoring
from bot.games.sleeping.cards import CARDS, FLOORS, ROUNDS, WAKE_AT, label, tracker_bonus
from bot.games.sleeping.dealing import DealingMixin
from bot.games.sleeping.table import seat_names
from bot.games.sleeping.viewtypes import LastRoundView, SummaryCardView, SummaryTeamView

LOUDER_COPY = "Shapeshifter: a louder copy for floor treasure"
NEAR = 12  # the tracker line warns a guild this close to the wizard's waking


def final_order_key(row: dict[str, Any]) -> tuple[bool, int, int]:
    """How final rows sort, best first: a guild that woke the wizard last, then most treasure, then least noise."""
    return (not row["eligible"], -row["total"], row["noise"])


class RoundEndMixin(DealingMixin):
    """The Shapeshifter step, scoring a round, and ending the game."""

    # ------------------------------------------------------------ the Shapeshifter step
    def _copy_options(self, state: State, seat: int) -> list[Action]:
        """The legal ``copy`` actions: one per sensible way to set the seat's Shapeshifters, quietest first."""
        team = state["teams"][seat]
        shifters = scoring.shapeshifters(team)
        return [{"type": "copy", "targets": [option["copies"].get(shifter) for shifter in shifters]}
                for option in scoring.copy_options(team, self.effect(state))]

    def _apply_copy(self, state: State, seat: int, action: Action) -> list[Event]:
        """``seat`` sets its Shapeshifters (hidden until the round is scored, when everyone has chosen)."""
        team = state["teams"][seat]
        if action != self._copy_options(state, seat)[0]:
            self._note(state, LOUDER_COPY)
        state["copy_choice"][seat] = {str(shifter): target
                                      for shifter, target in zip(scoring.shapeshifters(team), action["targets"])
                                      if target is not None}
        events: list[Event] = [{"type": "copy", "text": f"{seat_names(state)[seat]} has set their Shapeshifters."}]
        if all(state["copy_choice"][waiting] is not None for waiting in state["copy_wait"]):
            events += self._end_round(state)
        return events

    def _start_copy_step(self, state: State) -> list[Event]:
        """Every team is complete: seats with a real Shapeshifter choice make it, then the round is scored."""
        effect = self.effect(state)
        players = len(state["names"])
        wait = [seat for seat in range(players) if len(scoring.copy_options(state["teams"][seat], effect)) > 1]
        if not wait:
            return self._end_round(state)
        state.setdefault("stats", {"used": []})["copy_offered"] = True
        state["phase"] = "copy"
        state["copy_wait"] = wait
        who = ", ".join(seat_names(state)[seat] for seat in wait)
        return [{"type": "copy_phase", "text": f"All teams are hired. {who} must choose what their Shapeshifters copy."}]

    # ------------------------------------------------------------ scoring a round
    def _floor_mattered(self, state: State, teams: list[dict[str, Any]], effect: dict[str, Any]) -> bool:
        """Did this round's floor rule change anything? Peek, hiring and market floors always do; a noise or
        treasure floor only when some team scores or collects differently than under the Ground Floor's rules."""
        if self.floor(state)["category"] not in ("noise", "treasure"):
            return True
        if int(effect.get("lowest_reward", 2)) != 2:
            return True
        return any((team["noise"], team["bonus"]) != (scoring.copy_options(team["team"], {})[0]["noise"], 0)
                   for team in teams)

    def _scored_teams(self, state: State) -> list[dict[str, Any]]:
        """Each seat's team with its copies, each card's noise, the team's noise and the floor's bonus."""
        effect = self.effect(state)
        teams = []
        for seat in range(len(state["names"])):
            team = state["teams"][seat]
            copies = self.team_copies(state, seat)
            scores = scoring.card_scores(team, copies, effect)
            teams.append({"team": team, "copies": copies, "scores": scores, "noise": sum(scores.values()),
                          "bonus": scoring.floor_bonus(team, copies, effect),
                          "reasons": scoring.card_reasons(team, copies, effect)})
        return teams

    @staticmethod
    def _summary_cards(team: dict[str, Any]) -> list[SummaryCardView]:
        """A scored team's cards for the round summary.

        Anonymous on purpose: these cards go back into the deck and may sit, unpeeked, in a hand
        next round, so the summary names no card (value, class and score only)."""
        cards: list[SummaryCardView] = []
        for card_id in team["team"]:
            card = CARDS[card_id]
            entry: SummaryCardView = {"label": label(card), "class": card["class"], "kind": card["kind"],
                     "value": card["value"], "score": team["scores"][card_id]}
            if card_id in team["copies"]:
                target = CARDS[team["copies"][card_id]]
                entry["copies"] = f"{label(target)} {target['class']}"
            if card_id in team["reasons"]:
                entry["why"] = team["reasons"][card_id]
            cards.append(entry)
        return cards

    def _end_round(self, state: State) -> list[Event]:
        """Score the round: treasure to the quietest and from the floor, noise onto the tracker; then the
        next round, or the end of the game after round 5 or when a guild reaches 48 noise."""
        floor = self.floor(state)
        teams = self._scored_teams(state)
        low = min(team["noise"] for team in teams)
        reward = int(self.effect(state).get("lowest_reward", 2))
        if self._floor_mattered(state, teams, self.effect(state)):
            self._note(state, f"floor: {floor['name']}")
        summary_teams: list[SummaryTeamView] = []
        for seat, team in enumerate(teams):
            base = reward if team["noise"] == low else 0
            state["treasure"][seat] += base + team["bonus"]
            state["noise"][seat] += team["noise"]
            summary_teams.append({"seat": seat, "cards": self._summary_cards(team), "noise": team["noise"],
                                  "base": base, "bonus": team["bonus"], "treasure": state["treasure"][seat],
                                  "total_noise": state["noise"][seat]})
        state["history"].append({"round": state["round"], "floor": floor["key"],
                                 "noise": [team["noise"] for team in teams],
                                 "gained": [row["base"] + row["bonus"] for row in summary_teams]})
        last_round: LastRoundView = {"round": state["round"], "floor": floor["key"], "floor_name": floor["name"],
                                     "low": low, "reward": reward, "teams": summary_teams}
        state["last_round"] = last_round
        events = self._round_score_events(state, teams, low, reward)
        players = len(state["names"])
        woke = [seat for seat in range(players) if state["noise"][seat] >= WAKE_AT]
        if woke or state["round"] >= ROUNDS:
            return events + self._end_game(state, woke)
        return events + self._start_round(state, state["round"] + 1)

    def _round_score_events(self, state: State, teams: list[dict[str, Any]], low: int, reward: int) -> list[Event]:
        """The public sentences of a scored round: each team's noise, the floor's pay and the tracker."""
        names = seat_names(state)
        seats = range(len(names))
        quiet = [names[seat] for seat in seats if teams[seat]["noise"] == low]
        whys = [scoring.team_why(teams[seat]["reasons"]) for seat in seats]
        parts = ", ".join(f"{names[seat]} {teams[seat]['noise']}" + (f" ({whys[seat]})" if whys[seat] else "")
                          for seat in seats)
        events: list[Event] = [{"type": "score", "image": "round",
                                "text": f"Round {state['round']} noise: {parts}. "
                                        f"Quietest: {', '.join(quiet)} (+{reward} treasure{' each' if len(quiet) > 1 else ''})."}]
        bonus = [f"{names[seat]} +{teams[seat]['bonus']}" for seat in seats if teams[seat]["bonus"]]
        if bonus:
            events.append({"type": "bonus", "text": f"{self.floor(state)['name']} pays: {', '.join(bonus)}."})
        tracker = ", ".join(f"{names[seat]} {state['noise'][seat]}" + (
            f" ({WAKE_AT - state['noise'][seat]} from waking the wizard)" if 0 < WAKE_AT - state["noise"][seat] <= NEAR
            else "") for seat in seats)
        events.append({"type": "tracker",
                       "text": f"Noise tracker (at {WAKE_AT} a guild wakes the wizard and loses): {tracker}."})
        return events

    # ------------------------------------------------------------ the end of the game
    def _end_game(self, state: State, woke: list[int]) -> list[Event]:
        """The tracker bonus, the final ranking (a guild at 48+ cannot win) and the closing sentences."""
        names = seat_names(state)
        state["phase"] = "over"
        state["pending"] = None
        events: list[Event] = []
        if woke:
            who = " and ".join(f"{names[seat]} ({state['noise'][seat]} noise)" for seat in woke)
            events.append({"type": "wake", "text": f"{who} woke the wizard ({WAKE_AT} or more)! The game ends now, "
                                                   f"and a guild that woke him can't win."})
        final = []
        for seat in range(len(names)):
            bonus = tracker_bonus(state["noise"][seat])
            final.append({"seat": seat, "treasure": state["treasure"][seat], "bonus": bonus,
                          "total": state["treasure"][seat] + bonus, "noise": state["noise"][seat],
                          "eligible": state["noise"][seat] < WAKE_AT})
        ordered = sorted(final, key=final_order_key)
        for row, rank in zip(final, competition_ranks([final_order_key(row) for row in final])):
            row["rank"] = rank
            row["won"] = row["eligible"] and rank == 1
        state["final"] = final
        winners = [names[row["seat"]] for row in ordered if row["won"]]
        bonus_text = ", ".join(f"{names[row['seat']]} +{row['bonus']}" for row in final)
        events.append({"type": "bonus", "text": f"Tracker bonus: {bonus_text}."})
        if winners:
            verb = "wins" if len(winners) == 1 else "win"
            events.append({"type": "end", "text": f"Game over! {' and '.join(winners)} {verb} "
                                                  f"with {ordered[0]['total']} treasure."})
        else:
            events.append({"type": "end", "text": "Game over! Everyone woke the wizard: nobody wins."})
        return events

    def scores(self, state: State) -> list[dict[str, Any]]:
        """Each seat's total treasure, rank and whether it won (before the end: a provisional standing)."""
        final = state.get("final")
        players = len(state["names"])
        if not final:  # not over yet: provisional standing by treasure
            final = [{"seat": seat, "treasure": state["treasure"][seat], "bonus": 0, "total": state["treasure"][seat],
                      "noise": state["noise"][seat], "eligible": True, "rank": 0, "won": False}
                     for seat in range(players)]
            for row, rank in zip(final, competition_ranks([(-row["total"], row["noise"]) for row in final])):
                row["rank"] = rank
        out = []
        for row in final:
            detail = f"{row['treasure']} treasure + {row['bonus']} tracker bonus, noise {row['noise']}"
            if not row["eligible"]:
                detail += " (woke the wizard: cannot win)"
            out.append({"seat": row["seat"], "score": row["total"], "rank": row["rank"], "won": row["won"],
                        "detail": detail})
        return out

    def balance_tally(self, state: State, trace: list[dict[str, Any]]) -> dict[str, Any]:
        """How the game ended, and which classes, hires, floors and choices were available / used."""
        classes = ("Healer", "Mage", "Warrior", "Ranger", "Rogue", "Slime", "Bard", "Shapeshifter")
        available = [f"adventurer: {name}" for name in classes]
        available += ["hire: from hand", "hire: from deck", "hire: from market"]
        if len(state["tower"]) > 2:
            available += [f"floor: {FLOORS[key]['name']}" for key in state["tower"][1:state["round"]]]
        used = list(state.get("stats", {}).get("used", []))
        if state.get("stats", {}).get("copy_offered"):
            available.append(LOUDER_COPY)
        return {"end": "woke the wizard" if max(state["noise"]) >= WAKE_AT else "after round 5",
                "available": available, "used": [name for name in used if name in available]}
