"""Wizard's Rage: where a card's face-down tokens go -- one weighting of the tiles for the real token and its decoys.

The wizard bot puts a card's real token where ``weights`` says, and under the tuned rules the engine draws the
decoys from the same weights, so the tiles a card's tokens land on say nothing of which one is real:

* ``draw(w, k)`` picks a set of k different tiles with a chance proportional to the product of their weights, in
  a random order;
* the bot's real token goes on the first tile of ``draw(w, 1 + decoys)``; the engine's decoys are
  ``draw(w, decoys)`` among the other tiles, given the real one (``draw(..., taken=[real])``).

Then the chance of a set of tiles with a given one real is ``w(t1) * ... * w(tk) / Z`` whichever one it is: every
tile of the set is the real one with the same chance, whatever a player measures of the tiles (nearest the tower,
the keys, the heroes, first in the list, the bot's favourite...). A wizard who places unlike the bot is only as
hidden as the weights are like their own habits. Under the rulebook the wizard places the decoys too; the bot
then draws each one the same way, given the tiles it already picked (the same chances).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# By steps to the nearest living hero: a token 1-2 steps away is in their way this round or the next.
NEAR_HERO = {1: 4.0, 2: 4.0, 3: 2.0}
KEY = 500.0  # a monster card on a hidden key vault: guards the key
TOWER = 2000.0  # a monster card in the tower (open to tokens once the keys are found): the last fight
DOOR = 50.0  # a monster card on the tile before the tower's door, once the keys are found
GUARDED = 0.3  # a trap on a tile that already holds face-up monsters


def _steps(size: int, a: int, b: int) -> int:
    (r1, c1), (r2, c2) = divmod(a, size), divmod(b, size)
    return abs(r1 - r2) + abs(c1 - c2)


def weights(view: dict[str, Any], tiles: Sequence[int]) -> list[float]:
    """How much the wizard wants the card being played (``view["private"]["playing"]``) on each of ``tiles``,
    from the wizard's view: near the heroes, on a hidden key, in the tower or before its door once the keys
    are found; a trap not where monsters already stand."""
    private = view["private"]
    trap = (private.get("playing") or {}).get("kind") == "trap"
    keys = set(private["keys"])
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
        elif i in keys:
            weight *= KEY
        elif i == door:
            weight *= DOOR
        out.append(weight)
    return out


def draw(tiles: Sequence[int], w: Sequence[float], count: int, uniform: Callable[[], float],
         taken: Sequence[int] = ()) -> list[int]:
    """``count`` different tiles of ``tiles`` (none of ``taken``) in a random order, the set drawn with a chance
    proportional to the product of its tiles' weights ``w`` (as if each tile were drawn by its weight and a
    draw with a repeat thrown away, computed exactly: the sums of the products of the weights, tile by tile).
    With fewer such tiles than ``count``, all of them, then tiles drawn by weight from all of ``tiles``
    (stacking: the card's tokens outnumber the tiles with room)."""
    pool = [(i, weight) for i, weight in zip(tiles, w) if i not in taken and weight > 0]
    size = min(count, len(pool))
    # rest[k][r]: the sum over the r-tile sets of pool[k:] of the product of their weights
    rest = [[0.0] * (size + 1) for _ in range(len(pool) + 1)]
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
    spare = [(i, weight) for i, weight in zip(tiles, w) if weight > 0]
    total = sum(weight for _, weight in spare)
    while len(out) < count and spare:
        x = uniform() * total
        for i, weight in spare:
            x -= weight
            if x < 0:
                break
        out.append(i)
    return out
