"""``python -m tools.seed_bot_ratings [game ...] [--games N] [--jobs J]``: the bots' ladder on day one.

Rates the bot-only games 1..N of each game (N: ``tools.bot_games.GAMES``) (``tools.bot_games``: a level drawn at every seat of tables of 2-3
seats, played or read from the cache) with the same code as a server's ladder (``bot.ratings.Ladder``), every level
starting at the library's default, in seed order. The ratings are then shifted together so that the normal bot's
skill (mu) is the default's, 25: a new player starts level with the normal bot's skill, though far less sure of it
(a shift changes no prediction: the model only compares skills). Writes ``data/ratings/bots.json`` and prints each
game's three levels, with whether their order matches the measured strength order (README "Bot levels": easy below
normal below hard at every game).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot import ratings
from bot.games import registry
from bot.ratings import DEFAULT, FinishedGame, Ladder, Rating
from bot.search import LEVELS
from tools import bot_games


def finished(record: dict[str, Any]) -> FinishedGame:
    """A bot-only game of the cache as the ladder reads a finished game."""
    seats = [{"user_id": None, "name": f"Bot ({level})", "bot": True, "level": level} for level in record["levels"]]
    results = [{"seat": r["seat"], "name": seats[r["seat"]]["name"], "rank": r["rank"], "won": r["won"]}
               for r in record["results"]]
    return FinishedGame(record["seed"], record["game"], seats, results)


def train(key: str, records: list[dict[str, Any]]) -> Ladder:
    """A ladder of ``key`` that took ``records`` in order, every level starting at the default."""
    ladder = Ladder(key, start=DEFAULT)
    for record in records:
        ladder.take(finished(record), humans_needed=False)
    return ladder


def seeds(key: str, records: list[dict[str, Any]]) -> dict[str, dict[str, float | int]]:
    """Each level's seeded rating at ``key`` from ``records``, shifted so that the normal bot's mu is 25."""
    ladder = train(key, records)
    shift = DEFAULT.mu - ladder.rating(ratings.bot_player("normal")).mu
    out: dict[str, dict[str, float | int]] = {}
    for level in LEVELS:
        player = ratings.bot_player(level)
        rating, standing = ladder.rating(player), ladder.standings.get(player)
        out[level] = {"mu": round(rating.mu + shift, 4), "sigma": round(rating.sigma, 4),
                      "games": standing.games if standing else 0}
    return out


def main(argv: list[str] | None = None) -> int:
    """Seed the bots' ladder of the chosen games (all by default) and write data/ratings/bots.json."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, help="bot-only games per game (seeds 1..N; default: bot_games.GAMES)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games not cached yet")
    args = parser.parse_args(argv)
    path = ratings.SEEDS_FILE
    data = json.loads(path.read_text()) if path.exists() else {"games": {}}
    rows = ["| game | games | easy | normal | hard | order (easy < normal < hard) |", "|---|---|---|---|---|---|"]
    for key in args.keys or sorted(registry()):
        records = bot_games.games(key, range(1, (args.games or bot_games.GAMES.get(key, 100)) + 1), args.jobs)
        levels = data["games"][key] = seeds(key, records)
        shown = {level: Rating(float(r["mu"]), float(r["sigma"])) for level, r in levels.items()}
        ordered = [shown[level].ordinal for level in LEVELS] == sorted(shown[level].ordinal for level in LEVELS)
        cells = " | ".join(f"{shown[level].ordinal:.1f} ({shown[level].mu:.1f} ± {shown[level].sigma:.1f},"
                           f" {levels[level]['games']} games)" for level in LEVELS)
        rows.append(f"| {key} | {len(records)} | {cells} | {'yes' if ordered else 'NO'} |")
        print(rows[-1], flush=True)
    data["about"] = ("The bots' seeded ratings (openskill Plackett-Luce, the library's defaults), by game and level:"
                     " made by python -m tools.seed_bot_ratings from bot-only games (tools/bot_games.py), shifted so"
                     " that the normal bot's mu is 25. Read by bot/ratings.py.")
    data["games"] = dict(sorted(data["games"].items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")
    print("\n".join(["", f"Wrote {path}.", "", "Rating shown: mu - 3 sigma (mu ± sigma, games rated)", *rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
