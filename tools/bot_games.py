"""Bot-only games with a level drawn at every seat: the games the bots' ladder is seeded from
(``python -m tools.seed_bot_ratings``) and the held-out games its predictions are measured on
(``python -m tools.predict_winners``).

Game ``i`` of a game key is fixed by its seed alone: the table size (the game's smallest table, at least 2,
up to 3 seats) and each seat's level (easy, normal or hard; a table of one level only is drawn again) come
from ``random.Random(f"{key}:{i}")``, the game from ``engine.setup(..., seed=i)``, each seat's bot from its own RNG.
Played games are cached, one JSON line each, in ``.cache/bot-games/<game>.jsonl`` (outside git), so a
second run reads them instead of playing them again (hard seats make a game take seconds).
"""
from __future__ import annotations

import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bot.games import get_engine
from bot.search import LEVELS, level_action

CACHE = Path(__file__).resolve().parent.parent / ".cache" / "bot-games"
MAX_SEATS = 3
MAX_MOVES = 50_000
# Games per game key the ladder is seeded from and its predictions measured on: fewer where hard seats make a
# game take seconds of CPU (Masterminds ~6 s, Wizard's Rage ~5 s, HEIST ~3 s; Sleeping Wizard ~1 s, Tower ~0.4 s);
# Wizard's Rage has twice as many: over its first 80 the easy bot came out above the normal one (docs/ratings.md).
GAMES = {"masterminds": 80, "rage": 160, "heist": 80, "sleeping": 120, "tower": 150}


def table(key: str, seed: int) -> list[str]:
    """The levels seated at game ``seed`` of ``key``, seat by seat."""
    meta = get_engine(key).meta
    rng = random.Random(f"{key}:{seed}")
    players = rng.randint(max(2, meta.min_players), min(MAX_SEATS, meta.max_players))
    while True:
        levels = [rng.choice(LEVELS) for _ in range(players)]
        if len(set(levels)) > 1:
            return levels


def play(task: tuple[str, int]) -> dict[str, Any]:
    """One bot-only game: ``{"game", "seed", "levels", "results": [{"seat", "rank", "won"}], "moves", "seconds"}``."""
    key, seed = task
    engine = get_engine(key)
    levels = table(key, seed)
    started = time.process_time()
    state = engine.setup([f"Bot {i + 1}" for i in range(len(levels))], {}, seed)
    rngs = [random.Random(seed * 31 + seat) for seat in range(len(levels))]
    moves = 0
    while not engine.is_terminal(state):
        if moves >= MAX_MOVES:
            raise RuntimeError(f"{key} game {seed} did not finish in {MAX_MOVES} moves")
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, level_action(engine, state, seat, rngs[seat], levels[seat]))
        moves += 1
    results = [{"seat": r["seat"], "rank": r["rank"], "won": bool(r["won"])} for r in engine.scores(state)]
    return {"game": key, "seed": seed, "levels": levels, "results": results, "moves": moves,
            "seconds": round(time.process_time() - started, 2)}


def cached(key: str) -> dict[int, dict[str, Any]]:
    """The games of ``key`` played so far, by seed."""
    path = CACHE / f"{key}.jsonl"
    if not path.exists():
        return {}
    games = {}
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:  # blank, or cut short by a run that was stopped: played again
            continue
        games[record["seed"]] = record
    return games


def games(key: str, seeds: range, jobs: int = 1, progress: bool = True) -> list[dict[str, Any]]:
    """The games of ``key`` for ``seeds``, in seed order: read from the cache, the others played (in ``jobs``
    processes) and added to it as they finish."""
    known = cached(key)
    missing = [seed for seed in seeds if seed not in known]
    if missing:
        CACHE.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        with (CACHE / f"{key}.jsonl").open("a") as out:
            tasks = [(key, seed) for seed in missing]
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as pool:
                    done = pool.map(play, tasks, chunksize=1)
                    for i, record in enumerate(done, 1):
                        _keep(out, known, record, progress, i, len(tasks), started)
            else:
                for i, task in enumerate(tasks, 1):
                    _keep(out, known, play(task), progress, i, len(tasks), started)
    return [known[seed] for seed in seeds]


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.bot_games [game ...] --games N --jobs J``: play (or find cached) games 1..N."""
    import argparse

    from bot.games import registry

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, help="games per game key (seeds 1..N; default: GAMES)")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    for key in args.keys or list(registry()):
        played = games(key, range(1, (args.games or GAMES.get(key, 100)) + 1), args.jobs)
        print(f"{key}: {len(played)} games, {sum(g['seconds'] for g in played):.0f} s of CPU", flush=True)
    return 0


def _keep(out: Any, known: dict[int, dict[str, Any]], record: dict[str, Any], progress: bool, i: int, total: int,
          started: float) -> None:
    out.write(json.dumps(record, separators=(",", ":")) + "\n")
    out.flush()
    known[record["seed"]] = record
    if progress and (i == total or i % 25 == 0):
        print(f"  {record['game']}: {i}/{total} games played ({time.monotonic() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
