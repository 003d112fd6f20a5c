"""Bot-only games with a level at every seat: the games the bots' ladder is seeded from
(``python -m tools.seed_bot_ratings``), the held-out games its predictions are measured on
(``python -m tools.predict_winners``) and the tables of the simulated servers (``python -m tools.server_ladder``).

A game is fixed by its game key, its seed and its seats' levels: the game from ``engine.setup(..., seed=seed)``,
each seat's bot from its own RNG (``random.Random(seed * 31 + seat)``). The seeding pool's game ``i``
(:func:`games`) draws its table from ``random.Random(f"{key}:{i}")`` (:func:`table`: the game's smallest table, at
least 2, up to 3 seats; a level drawn at each seat, a table of one level only drawn again); the servers give their
own tables (:func:`played`).

Played games are cached, one JSON line each, in ``<cache>/<game>-<code>.jsonl``: ``<cache>`` is
``$HEISTCORD_BOT_GAMES`` or ``.cache/bot-games`` (outside git), ``<code>`` a fingerprint of the code that plays
them (the game's package, the bots' search, the engine contract), so a second run reads them instead of playing
them again (hard seats make a game take seconds of CPU), and a change to a game or its bots plays them anew.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Iterable, Sequence

from bot.games import get_engine
from bot.search import LEVELS, level_action

ROOT = Path(__file__).resolve().parent.parent
MAX_SEATS = 3
MAX_MOVES = 50_000
# Games per game key the ladder is seeded from and its predictions measured on: fewer where hard seats make a
# game take seconds of CPU (a hard seat costs ~7 s of CPU a game in Masterminds, ~4 s in Wizard's Rage and
# HEIST, ~1.5 s in Sleeping Wizard, ~0.5 s in Tower; easy and normal seats next to nothing);
# Wizard's Rage has twice as many: over its first 80 the easy bot came out above the normal one (docs/ratings.md).
GAMES = {"masterminds": 80, "rage": 160, "heist": 80, "sleeping": 120, "tower": 150}
# What decides how a bot-only game plays: a change here plays the cached games anew.
CODE = ("bot/engine.py", "bot/rng.py", "bot/games/__init__.py", "bot/search")

Table = tuple[int, tuple[str, ...]]  # (seed, each seat's level)


def cache_dir() -> Path:
    """Where played games are kept: ``$HEISTCORD_BOT_GAMES``, else ``.cache/bot-games``."""
    return Path(os.environ.get("HEISTCORD_BOT_GAMES") or ROOT / ".cache" / "bot-games")


def code_fingerprint(key: str) -> str:
    """A short hash of the sources that decide how ``key``'s bot-only games play."""
    digest = hashlib.sha256()
    paths = [ROOT / "bot" / "games" / key, *(ROOT / part for part in CODE)]
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(ROOT)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:10]


def cache_file(key: str) -> Path:
    """The cache of ``key``'s games played by the code as it is."""
    return cache_dir() / f"{key}-{code_fingerprint(key)}.jsonl"


def table(key: str, seed: int) -> list[str]:
    """The levels seated at the seeding pool's game ``seed`` of ``key``, seat by seat."""
    meta = get_engine(key).meta
    rng = random.Random(f"{key}:{seed}")
    players = rng.randint(max(2, meta.min_players), min(MAX_SEATS, meta.max_players))
    while True:
        levels = [rng.choice(LEVELS) for _ in range(players)]
        if len(set(levels)) > 1:
            return levels


def play(task: tuple[str, int, Sequence[str]]) -> dict[str, Any]:
    """One bot-only game: ``{"game", "seed", "levels", "results": [{"seat", "rank", "won"}], "moves", "seconds"}``."""
    key, seed, levels = task
    engine = get_engine(key)
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
    return {"game": key, "seed": seed, "levels": list(levels), "results": results, "moves": moves,
            "seconds": round(time.process_time() - started, 2)}


def _name(seed: int, levels: Iterable[str]) -> str:
    return f"{seed}:{','.join(levels)}"


def cached(key: str) -> dict[str, dict[str, Any]]:
    """The games of ``key`` played so far by this code, by seed and levels."""
    path = cache_file(key)
    if not path.exists():
        return {}
    games = {}
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:  # blank, or cut short by a run that was stopped: played again
            continue
        games[_name(record["seed"], record["levels"])] = record
    return games


def played(key: str, tables: Sequence[Table], jobs: int = 1, progress: bool = True) -> list[dict[str, Any]]:
    """The games of ``key`` at ``tables``, in their order: read from the cache, the others played (in ``jobs``
    processes, hard seats first so that the slowest start early) and added to it as they finish."""
    known = cached(key)
    missing = sorted({_name(seed, levels): (key, seed, tuple(levels)) for seed, levels in tables
                      if _name(seed, levels) not in known}.values(), key=lambda task: -task[2].count("hard"))
    if missing:
        cache_dir().mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        with cache_file(key).open("a") as out:
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as pool:
                    for i, record in enumerate(pool.map(play, missing, chunksize=1), 1):
                        _keep(out, known, record, progress, i, len(missing), started)
            else:
                for i, task in enumerate(missing, 1):
                    _keep(out, known, play(task), progress, i, len(missing), started)
    return [known[_name(seed, levels)] for seed, levels in tables]


def games(key: str, seeds: range, jobs: int = 1, progress: bool = True) -> list[dict[str, Any]]:
    """The seeding pool's games of ``key`` for ``seeds``, in seed order (see :func:`played`)."""
    return played(key, [(seed, tuple(table(key, seed))) for seed in seeds], jobs, progress)


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.bot_games [game ...] --games N --jobs J``: play (or find cached) games 1..N."""
    import argparse

    from bot.games import registry

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, help="games per game key (seeds 1..N; default: GAMES)")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    for key in args.keys or [key for key in registry() if key in GAMES]:
        found = games(key, range(1, (args.games or GAMES.get(key, 100)) + 1), args.jobs)
        print(f"{key}: {len(found)} games, {sum(g['seconds'] for g in found):.0f} s of CPU", flush=True)
    return 0


def _keep(out: Any, known: dict[str, dict[str, Any]], record: dict[str, Any], progress: bool, i: int, total: int,
          started: float) -> None:
    out.write(json.dumps(record, separators=(",", ":")) + "\n")
    out.flush()
    known[_name(record["seed"], record["levels"])] = record
    if progress and (i == total or i % 25 == 0):
        print(f"  {record['game']}: {i}/{total} games played ({time.monotonic() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
