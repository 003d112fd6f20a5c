"""Wizard's Rage: can a player guess which of a card's face-down tokens is the real one? (issue 29, item 4)

Placements are taken from seeded normal-bot games: at each moment the wizard is to place a monster or trap
card, the wizard bot picks the real token's tile and the engine adds the decoys (tuned), or the bot places the
real token and then each decoy itself (rulebook), as in play; the game then goes on from one of them. Each *simple guess* names one of the tiles the public list shows (the tile nearest
the tower, the keys, the heroes, the camps or the door, the farthest from each, the first or last in the
list, the one the wizard bot itself likes best...); a tie counts as a guess among the tied tiles. *Chance* is
one over the number of tiles listed. ``python -m tests.games.rage.decoys [placements [rules [draws]]]`` prints the table.
"""
from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.games.rage import ENGINE
from bot.games.rage.placement import chances, weights

Tile = int
Score = Callable[[dict, Tile], float]  # (the state before the placement, a listed tile) -> a number


def _manhattan(state: dict, a: int, b: int) -> int:
    (r1, c1), (r2, c2) = divmod(a, state["size"]), divmod(b, state["size"])
    return abs(r1 - r2) + abs(c1 - c2)


def _nearest(state: dict, i: int, targets: list[int]) -> float:
    return min((_manhattan(state, i, t) for t in targets), default=0)


def _heroes(state: dict) -> list[int]:
    return [state["heroes"][s]["pos"] for s in ENGINE.living(state)]


def _keys(state: dict) -> list[int]:
    return [j for j, t in enumerate(state["tiles"]) if t["key_tile"] and not t["removed"]]


def _camps(state: dict) -> list[int]:
    return [j for j, t in enumerate(state["tiles"]) if t["camp"]]


def _door(state: dict) -> list[int]:
    door = ENGINE.entrance_tile(state)
    return [] if door is None else [door]


FEATURES: dict[str, Score] = {
    "the tower": lambda st, i: _manhattan(st, i, st["tower"]),
    "the keys": lambda st, i: _nearest(st, i, _keys(st)),
    "the heroes": lambda st, i: _nearest(st, i, _heroes(st)),
    "the camps": lambda st, i: _nearest(st, i, _camps(st)),
    "the door": lambda st, i: _nearest(st, i, _door(st)),
}


def guesses(state: dict) -> dict[str, Score]:
    """Every simple guess at this moment, as a score whose highest listed tile is the guess."""
    out: dict[str, Score] = {}
    for name, f in FEATURES.items():
        out[f"nearest {name}"] = lambda st, i, f=f: -f(st, i)
        out[f"farthest from {name}"] = f
    out["first in the list"] = lambda st, i: -i
    out["last in the list"] = lambda st, i: i
    out["most tokens already there"] = lambda st, i: len(st["tiles"][i]["tokens"])
    out["fewest tokens already there"] = lambda st, i: -len(st["tiles"][i]["tokens"])
    out["a face-down room"] = lambda st, i: 0 if st["tiles"][i]["up"] else 1
    out["a face-up room"] = lambda st, i: 1 if st["tiles"][i]["up"] else 0
    legal = [a["tile"] for a in ENGINE.legal_actions(state, 0)]
    view = ENGINE.view(state, 0)
    liked = dict(zip(legal, chances(legal, weights(view, legal), state["pending"]["total"])))
    out["the wizard bot's favourite"] = lambda st, i: liked.get(i, 0.0)
    return out


@dataclass
class Tally:
    """Placements seen and each guess's expected hits."""

    placements: int = 0
    chance: float = 0.0
    hits: dict[str, float] = field(default_factory=dict)

    def rates(self) -> dict[str, float]:
        return {name: hit / self.placements for name, hit in self.hits.items()}

    def chance_rate(self) -> float:
        return self.chance / self.placements


def _score_placement(tally: Tally, scores: dict[str, dict[int, float]], real: int, listed: list[int]) -> None:
    tiles = sorted(set(listed))
    tally.placements += 1
    tally.chance += 1 / len(tiles)
    for name, values in scores.items():
        best = max(values[i] for i in tiles)
        top = [i for i in tiles if values[i] == best]
        tally.hits[name] = tally.hits.get(name, 0.0) + (real in top) / len(top)


def _bot_places_every_token(state: dict, rng: random.Random) -> list[int]:
    """The rulebook's placing: the wizard bot's picks for the card, the real token's first. Until the last pick the
    engine only notes each one in ``pending["picks"]`` (``_do_place``), so a copy of that is all that changes."""
    trial = dict(state, pending=dict(state["pending"], picks=[]))
    picks = trial["pending"]["picks"]
    while len(picks) < trial["pending"]["total"]:
        picks.append(ENGINE.bot_action(trial, 0, rng)["tile"])
    return list(picks)


def placements(count: int, draws: int = 1, players: tuple[int, ...] = (3, 4, 5), options: dict | None = None,
               seed: int = 0) -> Tally:
    """``count`` placements scored, from seeded normal-bot games (cycling over ``players``): at each moment the
    wizard bot is to place a card, ``draws`` placements as the engine makes them (the bot's real tile, then the
    engine's decoys for it, the game's dice rolling on), then the game goes on from the last one."""
    tally = Tally()
    game = 0
    while tally.placements < count:
        n = players[game % len(players)]
        state = ENGINE.setup([f"P{i}" for i in range(n)], ENGINE.meta.resolve_options(options or {}), seed + game)
        rng = random.Random(seed + game)
        game += 1
        while not ENGINE.is_terminal(state) and tally.placements < count:
            seat = ENGINE.to_act(state)[0]
            pending = state["pending"]
            if seat == 0 and pending and pending["kind"] == "place" and not pending.get("picks"):
                tiles = [a["tile"] for a in ENGINE.legal_actions(state, 0)]
                scores = {name: {i: score(state, i) for i in tiles} for name, score in guesses(state).items()}
                card = ENGINE.wizard_card(state, state["wizard"]["pending_card"])
                for _ in range(min(draws, count - tally.placements)):
                    if "picks" in pending:  # the rulebook: the bot places the real token, then each decoy
                        tiles = _bot_places_every_token(state, rng)
                        _score_placement(tally, scores, tiles[0], tiles)
                        continue
                    real = ENGINE.bot_action(state, 0, rng)["tile"]
                    decoys = ENGINE.decoy_tiles(state, real, card["decoys"], card["kind"] == "trap")
                    _score_placement(tally, scores, real, [real, *decoys])
            ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return tally


def report(tally: Tally) -> str:
    chance = tally.chance_rate()
    lines = [f"{tally.placements} placements; chance {chance:.1%}"]
    for name, rate in sorted(tally.rates().items(), key=lambda kv: -kv[1]):
        lines.append(f"  {name:32} {rate:6.1%}  ({(rate - chance) * 100:+.1f} points)")
    return "\n".join(lines)


if __name__ == "__main__":
    rules = sys.argv[2] if len(sys.argv) > 2 else "tuned"
    draws = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    print(report(placements(int(sys.argv[1]) if len(sys.argv) > 1 else 3000, draws, options={"rules": rules})))
