"""The bot strength and speed report: ``python -m tools.strength [game ...] [--games N] [--jobs J]``.

For each game, seeded games with one bot of the tested level (``hard``, and ``easy``)
among normal bots, its seat rotating over the games:

* **table**: at the game's usual table size, the tested bot's win share against its fair
  share (1/players; a shared win is split between the winners);
* **heads-up**: hard against one normal bot where the game allows two players;
* **one role** (``--role``, games of unequal roles): the hard bot only in that role's seats, its side's win
  rate against a normal bot's in the same seats and seeds;
* **speed**: every hard decision (the search on the seat's view, in this process) timed
  in CPU time of its process -- p50, p95 and the worst, in milliseconds. CPU time, not
  wall clock: on a shared machine the wall clock also counts other programs' turns.

The targets of issue 18 are marked ``<-`` when missed: hard >= 1.5x its fair share,
hard heads-up >= 60%, a hard decision <= 300 ms at p95, easy below its fair share.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from bot.games import get_engine, registry
from bot.search import level_action

TABLE_SIZE = {"tower": 4, "sleeping": 4, "masterminds": 4, "rage": 4, "heist": 4}
# Games of unequal roles: the hard bot's table games are also split by its role, each against
# normal bots in the same seats and seeds, as the win rate of its side.
ROLES: dict[str, dict[str, list[int]]] = {"rage": {"wizard": [0], "a hero": [1, 2, 3]}}
MAX_MOVES = 50_000
TARGET_SHARE, TARGET_HEADS_UP, TARGET_P95_MS = 1.5, 0.60, 300.0


def play(task: tuple[str, int, int, int, str]) -> tuple[float, list[float]]:
    """One game: ``level`` at ``seat``, normal bots elsewhere. Returns (the tested seat's
    share of the win, the tested bot's decision times in ms for decisions with a choice)."""
    key, players, seed, seat, level = task
    engine = get_engine(key)
    state = engine.setup([f"P{i + 1}" for i in range(players)], {}, seed)
    rngs = [random.Random(seed * 31 + s) for s in range(players)]
    times: list[float] = []
    for _ in range(MAX_MOVES):
        if engine.is_terminal(state):
            break
        who = engine.to_act(state)[0]
        if who == seat:
            choice = len(engine.legal_actions(state, who)) > 1
            start = time.process_time()
            action = level_action(engine, state, who, rngs[who], level)
            if choice:
                times.append(1000 * (time.process_time() - start))
        else:
            action = engine.bot_action(state, who, rngs[who])
        engine.apply(state, who, action)
    winners = [r["seat"] for r in engine.scores(state) if r.get("won")]
    return (1 / len(winners) if seat in winners else 0.0), times


def measure(key: str, players: int, games: int, level: str, jobs: int, pool: ProcessPoolExecutor | None,
            per_game: list[tuple[int, float]] | None = None, seats: list[int] | None = None) -> tuple[float, list[float]]:
    """The tested seat's mean win share over seeded games (its seat rotating over ``seats``, default all), and its
    decision times; ``per_game`` collects (seat, share) of every game."""
    seats = seats or list(range(players))
    tasks = [(key, players, 7000 + i, seats[i % len(seats)], level) for i in range(games)]
    results = list(pool.map(play, tasks, chunksize=max(1, games // (jobs * 4)))) if pool else [play(t) for t in tasks]
    if per_game is not None:
        per_game.extend((t[3], r[0]) for t, r in zip(tasks, results))
    return sum(r[0] for r in results) / games, [t for r in results for t in r[1]]


def role_row(key: str, players: int, role: str, seats: list[int], hard: list[tuple[int, float]], jobs: int,
             pool: ProcessPoolExecutor | None, speed: str = "") -> str:
    """Hard in one role of a game of unequal roles, from the table's games where it sat in that role:
    its side's win rate against a normal bot's in the same seats and seeds (a hero's share of a win
    is a third of it: scaled back to the side's)."""
    normal: list[tuple[int, float]] = []
    seated = sorted({seat for seat, _ in hard})
    measure(key, players, len(hard), "normal", jobs, pool, normal, seated)
    side = 1 if seats == [0] else players - 1
    mine = [share for seat, share in hard if seat in seats]
    theirs = [share for seat, share in normal if seat in seats]
    h, n = side * sum(mine) / len(mine), side * sum(theirs) / len(theirs)
    return (f"| {key} | hard as {role} (its side's win rate; normal in that seat: {n:.1%}) | {len(mine)} |"
            f" {h:.1%} | | {h / n if n else 0:.2f}x | {speed} |")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank), 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_size(key: str) -> int:
    """The game's usual table size for the report, within its player counts."""
    meta = get_engine(key).meta
    return min(max(TABLE_SIZE.get(key, 4), meta.min_players), meta.max_players)


def speed_cell(times: list[float]) -> str:
    """Decision CPU p50 / p95 / max in ms, marked where p95 misses its target."""
    p95 = percentile(times, 0.95)
    return (f"{percentile(times, 0.5):.0f} / {p95:.0f} / {max(times, default=0):.0f} ms"
            + (" <-" if p95 > TARGET_P95_MS else ""))


def main(argv: list[str] | None = None) -> int:
    """Print the strength and speed table for the chosen games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_to_test", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, default=400, help="seeded games per measurement")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 1)), help="processes")
    parser.add_argument("--levels", default="hard,easy", help="levels to test against normal bots")
    parser.add_argument("--role", help="games of unequal roles: the hard bot only in this role (e.g. wizard)")
    args = parser.parse_args(argv)
    keys = args.games_to_test or list(registry())
    pool = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else None
    rows: list[str] = ["| Game | Test | Games | Win share | Fair share | Ratio | Hard decision CPU p50 / p95 / max |",
                       "|---|---|---|---|---|---|---|"]
    try:
        for key in keys if args.role else []:
            roles = {name.removeprefix("a "): seats for name, seats in ROLES.get(key, {}).items()}
            if args.role not in roles:
                parser.error(f"{key} has no role {args.role!r} (roles: {', '.join(roles) or 'none'})")
            players = table_size(key)
            hard: list[tuple[int, float]] = []
            _, times = measure(key, players, args.games, "hard", args.jobs, pool, hard, roles[args.role])
            rows.append(role_row(key, players, args.role, roles[args.role], hard, args.jobs, pool, speed_cell(times)))
            print(rows[-1], flush=True)
        for key in [] if args.role else keys:
            engine = get_engine(key)
            table = table_size(key)
            levels = args.levels.split(",")
            if "hard" in levels and importlib.util.find_spec(f"bot.games.{key}.sampler") is None:
                levels.remove("hard")  # no sampler: hard plays exactly like normal
                rows.append(f"| {key} | hard | - | no sampler yet: hard plays as normal | | | |")
                print(rows[-1], flush=True)
            plans = [(level, table) for level in levels]
            if engine.meta.min_players <= 2 and "hard" in levels:
                plans.insert(levels.index("hard") + 1, ("hard", 2))
            for level, players in plans:
                per_game: list[tuple[int, float]] = []
                share, times = measure(key, players, args.games, level, args.jobs, pool, per_game)
                fair = 1 / players
                ratio = share / fair
                if level == "hard" and players == 2:
                    miss = share < TARGET_HEADS_UP
                    test = "hard vs normal, heads-up"
                elif level == "hard":
                    miss = ratio < TARGET_SHARE
                    test = f"hard among {players - 1} normal"
                else:
                    miss = share >= fair
                    test = f"{level} among {players - 1} normal"
                speed = speed_cell(times) if level == "hard" else ""
                rows.append(f"| {key} | {test} | {args.games} | {share:.1%}{' <-' if miss else ''} | {fair:.0%} |"
                            f" {ratio:.2f}x | {speed} |")
                print(rows[-1], flush=True)
                if level == "hard" and players == table:
                    for role, seats in ROLES.get(key, {}).items():
                        rows.append(role_row(key, table, role, seats, per_game, args.jobs, pool))
                        print(rows[-1], flush=True)
    finally:
        if pool:
            pool.shutdown()
    print()
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
