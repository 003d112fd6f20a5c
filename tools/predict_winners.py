"""``python -m tools.predict_winners [game ...] [--games N] [--folds K]``: does the rating predict who wins?

On the bot-only games 1..N of each game (``tools.bot_games``, the games the bots' ladder is seeded from), in K
folds: each fold's games are held out while a ladder (``bot.ratings.Ladder``, every level starting at the default)
takes the other games in seed order; then each held-out game's winner is predicted from those other games only:

* **rating**: each side's chance of finishing first on the ladder (``Ladder.chances``: the seats' levels'
  ratings, a side's seats together, unequal sides compared as equals as when rating them), with the game's model
  (``bot.ratings.PARAMETERS``);
* **rating, before**: the same with what the ladders had before the parameters were chosen: the library's
  defaults (beta 25/6, tau 25/300) and its own chances (openskill's ``predict_win``);
* **win rate**: each level's share of its seats that won, in the training games; a side's chance in proportion
  to its seats' mean;
* **seat**: each seat's share of wins at its table size in the training games (who sits where, not who plays).

Only three identities, the levels, each in many games against an even mix: a level's win rate is then most of
what there is to know. ``tools.server_ladder`` measures the same on ladders that look like a server's.

Printed per game: the share of held-out games whose winning side each predicted (a prediction tied between k sides
counts 1/k if the winner is among them) and the mean log-loss of the winning side's chance (lower is better; a
coin toss between two sides scores 0.69). Games without a winner are left out (and counted).
"""
from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from typing import Any

from openskill.models import PlackettLuce

from bot import ratings
from bot.games import registry
from tools import bot_games
from tools.seed_bot_ratings import train


def sides(record: dict[str, Any]) -> list[list[int]]:
    """The record's table as sides of seats."""
    return ratings.sides_of(record["game"], len(record["levels"]))


def winning_sides(record: dict[str, Any]) -> list[int]:
    """The sides with a winning seat."""
    won = {r["seat"] for r in record["results"] if r["won"]}
    return [i for i, side in enumerate(sides(record)) if won & set(side)]


def score(chances: list[float], winners: list[int]) -> tuple[float, float]:
    """(hit, log-loss) of one prediction: the hit split between tied favourites."""
    best = max(chances)
    favourites = [i for i, c in enumerate(chances) if math.isclose(c, best, rel_tol=1e-12)]
    hit = sum(1 for i in favourites if i in winners) / len(favourites)
    return hit, -math.log(max(1e-9, sum(chances[i] for i in winners)))


PREDICTORS = ("rating", "rating, before", "win rate", "seat")
BEFORE = PlackettLuce()  # the library's defaults: the ladders' model before the parameters were chosen


def evaluate(key: str, records: list[dict[str, Any]], folds: int) -> dict[str, Any]:
    """Every predictor over every held-out game of ``key`` (K folds)."""
    totals = {name: [0.0, 0.0] for name in PREDICTORS}
    judged = skipped = 0
    for fold in range(folds):
        held = [r for i, r in enumerate(records) if i % folds == fold]
        rest = [r for i, r in enumerate(records) if i % folds != fold]
        ladder, before = train(key, rest), train(key, rest, BEFORE)
        seats: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        seat_seats: Counter[tuple[int, int]] = Counter()
        seat_wins: Counter[tuple[int, int]] = Counter()
        for record in rest:
            for r in record["results"]:
                seats[record["levels"][r["seat"]]] += 1
                wins[record["levels"][r["seat"]]] += int(r["won"])
                seat_seats[len(record["levels"]), r["seat"]] += 1
                seat_wins[len(record["levels"]), r["seat"]] += int(r["won"])
        rate = {level: wins[level] / seats[level] if seats[level] else 0.0 for level in seats}
        by_seat = {at: seat_wins[at] / n for at, n in seat_seats.items()}
        for record in held:
            winners = winning_sides(record)
            if not winners:
                skipped += 1
                continue
            judged += 1
            table = sides(record)
            players = [[ratings.bot_player(record["levels"][s]) for s in side] for side in table]
            size = len(record["levels"])
            chances = {
                "rating": ladder.chances(players),
                "rating, before": BEFORE.predict_win(ratings._teams([[before.rating(p) for p in side]
                                                                     for side in players])),
                "win rate": proportional([sum(rate.get(record["levels"][s], 0.0) for s in side) / len(side)
                                          for side in table]),
                "seat": proportional([sum(by_seat.get((size, s), 0.0) for s in side) / len(side) for side in table]),
            }
            for name, got in chances.items():
                hit, loss = score(got, winners)
                totals[name][0] += hit
                totals[name][1] += loss
    return {"games": judged, "skipped": skipped,
            **{name: (hits / judged, loss / judged) for name, (hits, loss) in totals.items()}}


def proportional(values: list[float]) -> list[float]:
    """Chances in proportion to ``values`` (even chances if they are all 0)."""
    total = sum(values)
    return [v / total for v in values] if total > 0 else [1 / len(values)] * len(values)


def main(argv: list[str] | None = None) -> int:
    """Print, per game, how often the rating and the win-rate baseline predicted the winner of held-out games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, help="bot-only games per game (seeds 1..N; default: bot_games.GAMES)")
    parser.add_argument("--folds", type=int, default=5, help="folds: each game is held out once")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games not cached yet")
    args = parser.parse_args(argv)
    rows = ["| game | held-out games | picked: " + " | ".join(PREDICTORS) + " | log-loss: " + " | ".join(PREDICTORS)
            + " |", "|---|---|" + "---|" * 2 * len(PREDICTORS)]
    for key in args.keys or sorted(registry()):
        records = bot_games.games(key, range(1, (args.games or bot_games.GAMES.get(key, 100)) + 1), args.jobs)
        found = evaluate(key, records, args.folds)
        skipped = f" ({found['skipped']} without a winner left out)" if found["skipped"] else ""
        rows.append(f"| {key} | {found['games']}{skipped} | "
                    + " | ".join(f"{found[name][0]:.1%}" for name in PREDICTORS) + " | "
                    + " | ".join(f"{found[name][1]:.3f}" for name in PREDICTORS) + " |")
        print(rows[-1], flush=True)
    print("\n".join(["", *rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
