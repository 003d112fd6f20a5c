"""``python -m tools.predict_winners [game ...] [--games N] [--folds K]``: does the rating predict who wins?

On the bot-only games 1..N of each game (``tools.bot_games``, the games the bots' ladder is seeded from), in K
folds: each fold's games are held out while a ladder (``bot.ratings.Ladder``, every level starting at the default)
takes the other games in seed order; then each held-out game's winner is predicted, once by the rating and once
by the win-rate baseline, both from those other games only:

* **rating**: each side's chance of finishing first as the model sees it (``bot.ratings.win_chances``: the seats'
  levels' ratings, a side's seats together, unequal sides compared as equals as when rating them);
* **win rate**: each level's share of its seats that won, in the training games; a side's chance in proportion
  to its seats' mean.

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

from bot import ratings
from bot.games import registry
from bot.ratings import win_chances
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


def evaluate(key: str, records: list[dict[str, Any]], folds: int) -> dict[str, Any]:
    """Both predictors over every held-out game of ``key`` (K folds)."""
    totals = {"rating": [0.0, 0.0], "win rate": [0.0, 0.0]}
    judged = skipped = 0
    for fold in range(folds):
        held = [r for i, r in enumerate(records) if i % folds == fold]
        rest = [r for i, r in enumerate(records) if i % folds != fold]
        ladder = train(key, rest)
        seats, wins = Counter(), Counter()
        for record in rest:
            for r in record["results"]:
                seats[record["levels"][r["seat"]]] += 1
                wins[record["levels"][r["seat"]]] += int(r["won"])
        rate = {level: wins[level] / seats[level] if seats[level] else 0.0 for level in seats}
        for record in held:
            winners = winning_sides(record)
            if not winners:
                skipped += 1
                continue
            judged += 1
            table = sides(record)
            by_rating = win_chances([[ladder.rating(ratings.bot_player(record["levels"][s])) for s in side]
                                     for side in table])
            means = [sum(rate.get(record["levels"][s], 0.0) for s in side) / len(side) for side in table]
            by_rate = [m / sum(means) for m in means] if sum(means) > 0 else [1 / len(table)] * len(table)
            for name, chances in (("rating", by_rating), ("win rate", by_rate)):
                hit, loss = score(chances, winners)
                totals[name][0] += hit
                totals[name][1] += loss
    return {"games": judged, "skipped": skipped,
            **{name: (hits / judged, loss / judged) for name, (hits, loss) in totals.items()}}


def main(argv: list[str] | None = None) -> int:
    """Print, per game, how often the rating and the win-rate baseline predicted the winner of held-out games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, help="bot-only games per game (seeds 1..N; default: bot_games.GAMES)")
    parser.add_argument("--folds", type=int, default=5, help="folds: each game is held out once")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games not cached yet")
    args = parser.parse_args(argv)
    rows = ["| game | held-out games | winner predicted: rating | win rate | log-loss: rating | win rate |",
            "|---|---|---|---|---|---|"]
    for key in args.keys or sorted(registry()):
        records = bot_games.games(key, range(1, (args.games or bot_games.GAMES.get(key, 100)) + 1), args.jobs)
        found = evaluate(key, records, args.folds)
        (hit_r, loss_r), (hit_w, loss_w) = found["rating"], found["win rate"]
        skipped = f" ({found['skipped']} without a winner left out)" if found["skipped"] else ""
        rows.append(f"| {key} | {found['games']}{skipped} | {hit_r:.1%} | {hit_w:.1%} | {loss_r:.3f} | {loss_w:.3f} |")
        print(rows[-1], flush=True)
    print("\n".join(["", *rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
