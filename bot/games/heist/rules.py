"""HEIST's two rule sets (the table option ``rules``): ``tuned``, the default, and ``rulebook``, the printed rules.

They differ only where the tuned set changed a printed rule for balance (data: ``rule_sets`` in
``data/heist/cards.json``; the rules doc's table says why, with the balance report's figures):

  job_length        obstacles per job in play, by player count (index 0 unused): the rulebook stacks all 7
  head_start        cheese for the start player at the end, by player count: the rulebook gives none
  start_wins_ties   by player count, whether the start player wins a tie on cheese (before the printed tie-break,
                    most obstacles): the rulebook has no such rule
  start_moves_left  whether the first player of a round moves one seat left each round: the rulebook's start player
                    opens every round
  secret_overrides  a secret's condition as printed (the rulebook's example Master Thief lets ties count)

Everything else (digital adaptations such as the forced prompts, and decisions where the rulebook is silent) is the
same in both. A state stored before the option existed plays ``tuned``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import engine
from bot.engine import State, plays_rulebook

from .cards import RULE_SETS


@dataclass(frozen=True)
class RuleSet:
    """One set's numbers, read from the card data."""

    name: str
    job_length: tuple[int, ...]
    head_start: tuple[int, ...]
    start_wins_ties: tuple[bool, ...]
    start_moves_left: bool
    secret_overrides: dict[str, dict[str, Any]]

    @property
    def printed(self) -> bool:
        """Whether this is the rulebook's set."""
        return self.name == engine.RULEBOOK

    def leader(self, start: int, round_number: int, players: int) -> int:
        """Who opens ``round_number``: the start player, or (tuned) the seat ``round_number - 1`` to its left."""
        return (start + round_number - 1) % players if self.start_moves_left else start


def _load(name: str) -> RuleSet:
    data = RULE_SETS[name]
    return RuleSet(name, tuple(data["job_length"]), tuple(data["head_start"]),
                   tuple(bool(flag) for flag in data["start_wins_ties"]), bool(data["start_moves_left"]),
                   dict(data["secret_overrides"]))


TUNED = _load(engine.TUNED)
RULEBOOK = _load(engine.RULEBOOK)
SETS = (TUNED, RULEBOOK)


def of(state_or_options: State | dict[str, Any] | None) -> RuleSet:
    """The set a game plays: from its state (its ``options``) or from resolved options."""
    options = state_or_options.get("options", state_or_options) if state_or_options else None
    return RULEBOOK if plays_rulebook(options) else TUNED
