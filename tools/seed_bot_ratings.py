"""``python -m tools.seed_bot_ratings [game ...] [--games N] [--jobs J]``: the bots' ladder on day one.

Rates the bot-only games 1..N of each game (N: ``tools.bot_games.GAMES``; ``tools.bot_games``: a level drawn at
every seat of tables of 2-3 seats, played or read from the cache) with the same code as a server's ladder
(``bot.ratings.Ladder``), every level starting at the library's default, in seed order. The ratings are then
shifted together so that the three levels' mean skill (mu) is the default's, 25: a new player starts at the bots'
average skill, though far less sure of it (``ANCHOR``; a shift changes no prediction between bots, only where
newcomers stand among them: on the tuning servers that predicted better than starting level with the normal bot,
``tools.tune_ratings``). Writes ``data/ratings/bots.json`` and prints each game's three levels, with whether their
order matches the measured strength order (docs/bots.md "Bot levels": easy below normal below hard at every game).
``--reanchor`` shifts the file's seeds of the games given to ``ANCHOR`` without rating their games again.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from openskill.models import PlackettLuce

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


def train(key: str, records: list[dict[str, Any]], model: PlackettLuce | None = None) -> Ladder:
    """A ladder of ``key`` (its model, or ``model``) that took ``records`` in order, every level starting at the
    default."""
    ladder = Ladder(key, start=DEFAULT, model=model)
    for record in records:
        ladder.take(finished(record), humans_needed=False)
    return ladder


ANCHORS = ("normal", "levels")
ANCHOR = "levels"  # a new player starts at the three levels' mean skill (chosen on tools.tune_ratings' servers)


def seeds(key: str, records: list[dict[str, Any]], model: PlackettLuce | None = None,
          anchor: str = ANCHOR) -> dict[str, dict[str, float | int]]:
    """Each level's seeded rating at ``key`` from ``records``, shifted so that a new player's mu (25) is the normal
    bot's (``anchor`` "normal") or the three levels' mean (``anchor`` "levels")."""
    ladder = train(key, records, model)
    shift = anchor_shift({level: ladder.rating(ratings.bot_player(level)).mu for level in LEVELS}, anchor)
    out: dict[str, dict[str, float | int]] = {}
    for level in LEVELS:
        player = ratings.bot_player(level)
        rating, standing = ladder.rating(player), ladder.standings.get(player)
        out[level] = {"mu": round(rating.mu + shift, 4), "sigma": round(rating.sigma, 4),
                      "games": standing.games if standing else 0}
    return out


def anchor_shift(mus: dict[str, float], anchor: str = ANCHOR) -> float:
    """What to add to every level's mu so that a new player's (25) is the normal bot's or the levels' mean."""
    return DEFAULT.mu - (mus["normal"] if anchor == "normal" else sum(mus[level] for level in LEVELS) / len(LEVELS))


def reanchored(levels: dict[str, dict[str, float | int]], anchor: str = ANCHOR) -> dict[str, dict[str, float | int]]:
    """Seeds already made, shifted to ``anchor`` without rating their games again (a shift changes no prediction:
    the model only compares skills; equal to :func:`seeds` under ``anchor`` but for rounding)."""
    shift = anchor_shift({level: float(levels[level]["mu"]) for level in LEVELS}, anchor)
    return {level: {**levels[level], "mu": round(float(levels[level]["mu"]) + shift, 4)} for level in LEVELS}


def main(argv: list[str] | None = None) -> int:
    """Seed the bots' ladder of the chosen games (all by default) and write data/ratings/bots.json."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, help="bot-only games per game (seeds 1..N; default: bot_games.GAMES)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games not cached yet")
    parser.add_argument("--reanchor", action="store_true",
                        help="shift the file's seeds of these games to ANCHOR without rating their games again")
    args = parser.parse_args(argv)
    path = ratings.SEEDS_FILE
    data = json.loads(path.read_text()) if path.exists() else {"games": {}}
    rows = ["| game | games | easy | normal | hard | order (easy < normal < hard) |", "|---|---|---|---|---|---|"]
    for key in args.keys or sorted(registry()):
        if args.reanchor:
            records = []
            levels = data["games"][key] = reanchored(data["games"][key])
        else:
            records = bot_games.games(key, range(1, (args.games or bot_games.GAMES.get(key, 100)) + 1), args.jobs)
            levels = data["games"][key] = seeds(key, records)
        shown = {level: Rating(float(r["mu"]), float(r["sigma"])) for level, r in levels.items()}
        ordered = [shown[level].ordinal for level in LEVELS] == sorted(shown[level].ordinal for level in LEVELS)
        cells = " | ".join(f"{shown[level].ordinal:.1f} ({shown[level].mu:.1f} ± {shown[level].sigma:.1f},"
                           f" {levels[level]['games']} games)" for level in LEVELS)
        rows.append(f"| {key} | {len(records) or 'as before'} | {cells} | {'yes' if ordered else 'NO'} |")
        print(rows[-1], flush=True)
    data["about"] = ("The bots' seeded ratings (openskill Plackett-Luce, the library's defaults), by game and level:"
                     " made by python -m tools.seed_bot_ratings from bot-only games (tools/bot_games.py), shifted so"
                     " that the three levels' mean mu is 25 (a new player's). Read by bot/ratings.py.")
    data["games"] = dict(sorted(data["games"].items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n")
    print("\n".join(["", f"Wrote {path}.", "", "Rating shown: mu - 3 sigma (mu ± sigma, games rated)", *rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
