"""Masterminds: the numbers of the rules and what a view never shows."""
from __future__ import annotations

HAND_LIMIT = 6
TEAM_LIMIT = 4
DICE_PER_PLAYER = 5
MAX_ACTIVATE = 3
STEP_LETTERS = "ABCD"
PERFECT_FACE = 6  # the face shown when the choice can't matter
RECENT = 6  # public event lines kept for the board's "what just happened"

# The public table (``view["table"]``, what the search's sampler rebuilds a state from) is an ALLOWLIST: only
# these state keys are copied into a view, so a key added to the state later stays private until it is listed
# here. Every key of a state is in exactly one of the two sets (a test plays games to check it).
PUBLIC_KEYS = frozenset({
    "names", "options", "colours", "turn", "first", "first_rolls", "round", "phase", "plan_left",
    "talent_discard", "prep_discard", "failure_discard", "pool", "heists", "teams", "mementos",
    "bag", "gems", "gem_total", "dice", "intel", "completed", "target", "final_round", "completing",
    "pending", "attempt", "test", "run", "end_reason", "final", "last_roll", "recent",
})
# Never in a view: the decks' orders, the hands, the window's hidden choices (its public part, who is asked,
# is rebuilt), the RNG, and the balance tallies (they name the cards dealt to hands). The sampler deals these.
SECRET_KEYS = frozenset({"rng", "talent_deck", "prep_deck", "heist_deck", "failure_deck", "hands", "window", "stats"})
