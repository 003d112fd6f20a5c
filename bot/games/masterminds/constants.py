"""Masterminds: the numbers of the rules and what a view never shows."""
from __future__ import annotations

HAND_LIMIT = 6
TEAM_LIMIT = 4
DICE_PER_PLAYER = 5
MAX_ACTIVATE = 3
STEP_LETTERS = "ABCD"
PERFECT_FACE = 6  # the face shown when the choice can't matter
RECENT = 6  # public event lines kept for the board's "what just happened"

# Never in a view: the decks' orders, the hands, hidden interrupt choices, the RNG, and the balance
# tallies (they name the cards dealt to hands).
SECRET_KEYS = frozenset({"rng", "talent_deck", "prep_deck", "heist_deck", "failure_deck", "hands", "window", "stats"})
