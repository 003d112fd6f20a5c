"""Wizard's Rage: where a card's face-down tokens go -- one chance for each set of tiles, whichever one is real.

The wizard bot puts a card's real token where ``draw`` says, and under the tuned rules the engine draws the
decoys with ``draw`` too, given the real one, so the tiles a card's tokens land on say nothing of which one is
real. A card's ``k`` tokens (its real token and its decoys) land on a set of ``k`` different tiles with a chance
proportional to the product of the tiles' weights (``weights``), the real token on any tile of the set alike:

* ``draw(.., total=k)`` with nothing placed yet: the bot's real token is the first tile of the set;
* ``draw(.., total=k, taken=[real])``: the engine's decoys (tuned), the set given its real tile;
* ``draw(.., total=k, taken=picks)``: under the rulebook the bot places each decoy in turn, the first of the rest
  of the set given the tiles it picked.

Every tile of a placed set is then the real one with the same chance, whatever a player measures of the tiles
(nearest the tower, the keys, the heroes, first in the list, the bot's favourite...).

The weights: near the heroes, the tower and the tile before its door once the keys are found (public), and a
hidden key vault, by the wizard's own habit. A wizard guards its keys by putting real tokens on the vaults; then
the decoys must go to vaults as often, or the tile nearest a key would give the real token away. So a vault's
weight follows how often this wizard has put a monster card's real token on a vault when it could
(``key_weight``, from ``KEY`` for a wizard who always does to 1 for one who never does): the bot, which guards its
keys, gets decoys on the other vaults; a wizard who keeps real tokens off the vaults soon gets decoys that
don't point at them. (On average a set holds ``k`` times as many vaults as the real token does: every tile is
as likely to be the real one.)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# By steps to the nearest living hero: a token 1-2 steps away is in their way this round or the next.
NEAR_HERO = {1: 4.0, 2: 4.0, 3: 2.0}
KEY = 5000.0  # a hidden key vault, for a wizard who always puts a monster card's real token on one it can
HABIT_PRIOR = 2.0  # a wizard's first cards: as if it had guarded its vaults on 2 cards already
TOWER = 20000.0  # a monster card in the tower (open to tokens once the keys are found): the last fight
DOOR = 100.0  # a monster card on the tile before the tower's door, once the keys are found
GUARDED = 0.3  # a trap on a tile that already holds face-up monsters


def key_weight(habit: Sequence[float]) -> float:
    """A key vault's weight for a wizard who put ``habit[0]`` monster cards' real tokens on a vault where it could
    have on ``habit[1]`` (``_note_habit``): ``KEY`` to the power of that share squared (``HABIT_PRIOR`` cards of it
    guarded, so a new wizard starts as the bot plays, and one who keeps off the vaults loses it card by card: 12
    cards off them leave a weight of 1.2)."""
    guarded, could = habit
    return KEY ** min(1.0, (guarded + HABIT_PRIOR) / (could + HABIT_PRIOR)) ** 2


def _steps(size: int, a: int, b: int) -> int:
    (r1, c1), (r2, c2) = divmod(a, size), divmod(b, size)
    return abs(r1 - r2) + abs(c1 - c2)


def weights(view: dict[str, Any], tiles: Sequence[int]) -> list[float]:
    """How much the wizard wants the card being played (``view["private"]["playing"]``) on each of ``tiles``, from
    the wizard's view: near the heroes, in the tower or before its door once the keys are found, on a hidden key
    vault by the wizard's habit (``key_weight``); a trap not where monsters already stand."""
    private = view["private"]
    trap = (private.get("playing") or {}).get("kind") == "trap"
    hidden = vaults(view)
    key = key_weight(private.get("habit") or (0, 0))
    size = view["size"]
    heroes = [h["pos"] for h in view["heroes"] if h["alive"]]
    door = view["entrance_tile"] if view["keys_found"] else None
    out = []
    for i in tiles:
        near = min((_steps(size, i, p) for p in heroes), default=9)
        weight = NEAR_HERO.get(near, 1.0)
        if trap:
            weight *= GUARDED if view["tiles"][i]["monsters"] else 1.0
        elif i == view["tower"]:
            weight *= TOWER
        elif i in hidden:
            weight *= key
        elif i == door:
            weight *= DOOR
        out.append(weight)
    return out


def vaults(view: dict[str, Any]) -> set[int]:
    """The hidden key vaults (from the wizard's view: only the wizard knows them)."""
    return set(view["private"]["keys"])


def _sets(ws: Sequence[float], r: int) -> float:
    """The sum over the r-element sets of ``ws`` of the product of their weights."""
    e = [1.0] + [0.0] * r
    for weight in ws:
        for j in range(r, 0, -1):
            e[j] += weight * e[j - 1]
    return e[r]


def _sample(pool: list[tuple[int, float]], count: int, uniform: Callable[[], float]) -> list[int]:
    """``count`` different tiles of ``pool`` ((tile, weight) pairs), the set drawn with a chance proportional to the
    product of its weights (exactly: the sums of the products tile by tile), in a random order."""
    size = min(count, len(pool))
    rest = [[0.0] * (size + 1) for _ in range(len(pool) + 1)]  # rest[k][r]: r-sets of pool[k:]
    rest[len(pool)][0] = 1.0
    for k in range(len(pool) - 1, -1, -1):
        weight = pool[k][1]
        rest[k][0] = 1.0
        for r in range(1, size + 1):
            rest[k][r] = rest[k + 1][r] + weight * rest[k + 1][r - 1]
    out: list[int] = []
    for k, (i, weight) in enumerate(pool):
        left = size - len(out)
        if not left:
            break
        if uniform() * rest[k][left] < weight * rest[k + 1][left - 1]:
            out.append(i)
    for k in range(len(out) - 1, 0, -1):  # a random order: the first is any of them alike
        j = min(k, int(uniform() * (k + 1)))
        out[k], out[j] = out[j], out[k]
    return out


def chances(tiles: Sequence[int], w: Sequence[float], total: int) -> list[float]:
    """The chance of each of ``tiles`` to get the real token from the bot (``draw`` with nothing placed): its
    favourite tiles, best first by this number."""
    raw = [weight * _sets([x for j, x in zip(tiles, w) if j != i], total - 1) for i, weight in zip(tiles, w)]
    whole = sum(raw) or 1.0
    return [x / whole for x in raw]


def draw(tiles: Sequence[int], w: Sequence[float], total: int, uniform: Callable[[], float],
         taken: Sequence[int] = ()) -> list[int]:
    """The rest of a card's set of ``total`` tiles (see the module's docstring) given the tiles ``taken`` already
    (the real one first), in a random order: different tiles of ``tiles`` with weights ``w``. With fewer such
    tiles than needed, all of them, then tiles drawn by weight from all of ``tiles`` (stacking: the card's tokens
    outnumber the tiles with room)."""
    count = total - len(taken)
    pool = [(i, weight) for i, weight in zip(tiles, w) if i not in taken and weight > 0]
    if count <= 0 or not pool:
        return []
    out = _sample(pool, min(count, len(pool)), uniform)
    spare = [(i, weight) for i, weight in zip(tiles, w) if weight > 0]
    total_weight = sum(weight for _, weight in spare)
    while len(out) < count and spare:
        x = uniform() * total_weight
        for i, weight in spare:
            x -= weight
            if x < 0:
                break
        out.append(i)
    return out
