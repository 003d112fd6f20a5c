"""Wizard's Rage: the numbers of the rules (grid sizes, hit points, limits) and the empty tile."""
from __future__ import annotations

DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
DIR_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
GRID = {3: 5, 4: 6, 5: 7}
AUTO_ROUNDS = {3: 16, 4: 16, 5: 15}
# By the rulebook (1 tile a turn, no scouting) the bots' heroes win in round 15-26 (quartiles over 300 games without
# a limit): the limit, an anti-stall rule of the digital game, only stops a stalled table.
AUTO_ROUNDS_RULEBOOK = 30
HERO_HP = 10
TRAP_SAVE = 10
TRAP_DAMAGE = 2
FREE_LIMIT = 8  # free actions (potions, gifts, equipping) per hero per hero phase
AMBUSH_LEVEL = 3
SCOUT_RANGE = {3: 2, 4: 2, 5: 2}  # scouting: a revealed room senses how many key vaults lie this many steps away
START_MANA_BONUS = {3: 2, 4: 4, 5: 5}  # the Mana Wheel starts at 5 / 7 / 8 for 3 / 4 / 5 players (balance report)
SPRINT_STEPS = 3  # a Sprint card runs up to this many tiles


def new_tile(key: str | None) -> dict:
    """A face-down, empty grid square holding the room ``key`` (None for the tower's square)."""
    return {"id": key, "up": False, "removed": False, "tokens": [], "searched": False,
            "conquered": False, "key": False, "key_tile": False, "camp": False,
            "drop": {"cards": [], "keys": 0}}
