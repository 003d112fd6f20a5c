"""The balance report: ``python -m bot.balance [game ...] [--games N] [--players K] [--jobs J]``.

Plays N seeded games per player count with every seat taken by the game's normal
bot player, and N more with one bot among random players (the bot's seat rotating),
in parallel processes, and prints per game and player count:

* median length in decisions, and in minutes at 20 s per human decision, where
  the seats answering one simultaneous moment (a window in which several seats
  may act, each dropping out as it answers) count as one decision;
* win share by seat (a shared win is split between the winners) and by role;
* how games end, and the share of decisions that had a single option;
* per card/secret/mechanic: how often it was used in the games where it was
  available, and how often each secret goal was met where it was dealt;
* the bot's win share among random players.

The game-specific facts come from the engine's ``balance_tally`` hook (see
:mod:`bot.engine`). Lines that miss a target of the balance brief are marked
``<-`` (seat share more than 5 points from fair, a secret goal met in under 20%
or over 60% of games, a card or mechanic used in under 3% of the games where it
was available).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Engine
from bot.games import registry

SECONDS_PER_DECISION = 20
MAX_DECISIONS = 50_000
SEAT_TOLERANCE = 0.05
GOAL_RANGE = (0.20, 0.60)
MIN_USE = 0.03


@dataclass
class GameRecord:
    """What one finished game tells the report."""

    players: int
    mode: str  # "bots" (every seat the bot) or "vs_random" (one bot seat)
    bot_seat: int | None
    decisions: int
    weighted_decisions: float
    single_option: int
    winners: list[int]
    roles: list[str]
    decisions_by_role: dict[str, int]
    end: str
    available: list[str]
    used: list[str]
    goals: dict[str, bool]


def play(key: str, players: int, seed: int, bot_seat: int | None = None) -> GameRecord:
    """One seeded game. ``bot_seat`` None: every seat plays the bot; otherwise only
    that seat does and the others pick uniformly among their legal actions."""
    engine: Engine = registry()[key]
    state = engine.setup([f"P{i + 1}" for i in range(players)], engine.meta.resolve_options({}), seed)
    chooser = random.Random(seed * 7919 + players)
    bot_rng = random.Random(seed * 104729 + players)
    trace: list[dict[str, Any]] = []
    weighted = 0.0
    previous: list[int] | None = None
    single = 0
    by_seat: Counter[int] = Counter()
    end = ""
    for _ in range(MAX_DECISIONS):
        if engine.is_terminal(state):
            break
        acting = engine.to_act(state)
        seat = chooser.choice(acting)
        legal = engine.legal_actions(state, seat)
        if bot_seat is None or seat == bot_seat:
            action = engine.bot_action(state, seat, bot_rng)
        else:
            action = chooser.choice(legal)
        trace.append({"seat": seat, "action": action, "options": len(legal), "acting": len(acting)})
        weighted += decision_weight(previous, acting)
        previous = acting
        single += len(legal) == 1
        by_seat[seat] += 1
        engine.apply(state, seat, action)
    else:
        end = "did not finish"
    tally = engine.balance_tally(state, trace) if not end else {}
    results = engine.scores(state) if not end else []
    roles = list(tally.get("roles") or ["player"] * players)
    by_role: Counter[str] = Counter()
    for seat, count in by_seat.items():
        by_role[roles[seat]] += count
    return GameRecord(
        players=players,
        mode="bots" if bot_seat is None else "vs_random",
        bot_seat=bot_seat,
        decisions=len(trace),
        weighted_decisions=weighted,
        single_option=single,
        winners=[r["seat"] for r in results if r.get("won")],
        roles=roles,
        decisions_by_role=dict(by_role),
        end=end or str(tally.get("end") or "finished"),
        available=sorted(set(tally.get("available", ()))),
        used=sorted(set(tally.get("used", ()))),
        goals={str(k): bool(v) for k, v in (tally.get("goals") or {}).items()},
    )


def decision_weight(previous: list[int] | None, acting: list[int]) -> int:
    """1 for a decision that takes its own time at the table; 0 for one answered
    inside a simultaneous moment that an earlier decision already counted (several
    seats could act, and the seats still to answer are some of those)."""
    if previous is not None and len(previous) > 1 and set(acting) < set(previous):
        return 0
    return 1


def _play_task(task: tuple[str, int, int, int | None]) -> GameRecord:
    return play(*task)


@dataclass
class Cell:
    """Every game of one title at one player count."""

    key: str
    players: int
    bots: list[GameRecord] = field(default_factory=list)
    vs_random: list[GameRecord] = field(default_factory=list)


def run(key: str, games: int, player_counts: list[int], jobs: int) -> list[Cell]:
    """Play ``games`` seeded games of ``key`` per player count (bots only, and one bot among random players)."""
    cells = {players: Cell(key, players) for players in player_counts}
    tasks: list[tuple[str, int, int, int | None]] = []
    for players in player_counts:
        for game_index in range(games):
            tasks.append((key, players, 1000 + game_index, None))
            tasks.append((key, players, 500_000 + game_index, game_index % players))
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(_play_task, tasks, chunksize=max(1, len(tasks) // (jobs * 8))))
    else:
        records = [_play_task(t) for t in tasks]
    for record in records:
        cell = cells[record.players]
        (cell.bots if record.mode == "bots" else cell.vs_random).append(record)
    return [cells[players] for players in player_counts]


def pct(x: float) -> str:
    """A share as a whole percentage ("42%")."""
    return f"{100 * x:.0f}%"


def win_shares(records: list[GameRecord], players: int) -> list[float]:
    """Each seat's share of the wins (a shared win split between its winners)."""
    shares = [0.0] * players
    for record in records:
        for seat in record.winners:
            shares[seat] += 1 / len(record.winners)
    return [s / len(records) for s in shares] if records else shares


def report(cell: Cell) -> list[str]:
    """The report's lines for one cell."""
    rs = cell.bots
    players = cell.players
    out = [f"### {cell.key}, {players} players ({len(rs)} bot games, {len(cell.vs_random)} bot-vs-random games)"]
    if not rs:
        return out
    lengths = [r.decisions for r in rs]
    minutes = [r.weighted_decisions * SECONDS_PER_DECISION / 60 for r in rs]
    single = sum(r.single_option for r in rs) / max(1, sum(lengths))
    out.append(f"- length: median {statistics.median(lengths):.0f} decisions, "
               f"~{statistics.median(minutes):.0f} min at {SECONDS_PER_DECISION} s a decision "
               f"(simultaneous decisions counted once); single-option decisions {pct(single)}")
    shares = win_shares(rs, players)
    no_winner = sum(1 for r in rs if not r.winners) / len(rs)
    seat_roles = rs[0].roles
    if 1 < len(set(seat_roles)) < players:  # some role is shared (not just a label per seat, like turn order)
        # Asymmetric roles (one wizard against the heroes): a seat is fair if it wins as often as
        # the other seats of its role; how the roles fare against each other is the role line below.
        fair_of = [statistics.mean(shares[t] for t in range(players) if seat_roles[t] == seat_roles[s]) for s in range(players)]
        fair_text = "fair: the mean of the seats of the same role"
    else:
        fair_of = [(1 - no_winner) / players] * players
        fair_text = f"fair {pct(fair_of[0])}"
    seat_line = ", ".join(f"{s + 1}: {pct(v)}" + (" <-" if abs(v - fair_of[s]) > SEAT_TOLERANCE else "")
                          for s, v in enumerate(shares))
    out.append(f"- win share by seat ({fair_text}): {seat_line}" + (f"; no winner {pct(no_winner)}" if no_winner else ""))
    role_games: Counter[str] = Counter()
    role_wins: Counter[str] = Counter()
    role_decisions: Counter[str] = Counter()
    for r in rs:
        for role in set(r.roles):
            role_games[role] += 1
            if any(r.roles[s] == role for s in r.winners):
                role_wins[role] += 1
        role_decisions.update(r.decisions_by_role)
    if len(role_games) > 1:
        total = sum(role_decisions.values()) or 1
        out.append("- by role: " + ", ".join(
            f"{role} wins {pct(role_wins[role] / role_games[role])} of games, makes {pct(role_decisions[role] / total)} of decisions"
            for role in sorted(role_games)))
    ends = Counter(r.end for r in rs)
    out.append("- how games end: " + ", ".join(f"{end} {pct(c / len(rs))}" for end, c in ends.most_common()))
    available: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for r in rs:
        available.update(r.available)
        used.update(u for u in r.used if u in r.available)
    if available:
        rows = sorted(available, key=lambda k: (used[k] / available[k], k))
        out.append("- used where available (games used / games available): " + ", ".join(
            f"{k} {pct(used[k] / available[k])}" + (" <-" if used[k] / available[k] < MIN_USE else "") for k in rows))
    dealt: Counter[str] = Counter()
    met: Counter[str] = Counter()
    for r in rs:
        for goal, ok in r.goals.items():
            dealt[goal] += 1
            met[goal] += ok
    if dealt:
        out.append("- secret goals met where dealt: " + ", ".join(
            f"{game} {pct(met[game] / dealt[game])}" + (" <-" if not GOAL_RANGE[0] <= met[game] / dealt[game] <= GOAL_RANGE[1] else "")
            for game in sorted(dealt)))
    if cell.vs_random:
        bot_wins = sum(1 / len(r.winners) for r in cell.vs_random if r.bot_seat in r.winners)
        out.append(f"- one bot among random players wins {pct(bot_wins / len(cell.vs_random))} (fair share {pct(1 / players)})")
    return out


def main(argv: list[str] | None = None) -> int:
    """The ``python -m bot.balance`` command: the balance report of the games asked for."""
    parser = argparse.ArgumentParser(prog="python -m bot.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("games_", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per player count and mode (default 200)")
    parser.add_argument("--players", type=int, action="append", help="player count (repeatable; default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args(argv)
    engines = registry()
    keys = args.games_ or sorted(engines)
    unknown = [k for k in keys if k not in engines]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}; choose from {', '.join(sorted(engines))}")
    for key in keys:
        meta = engines[key].meta
        counts = args.players or list(range(meta.min_players, meta.max_players + 1))
        bad = [c for c in counts if not meta.min_players <= c <= meta.max_players]
        if bad:
            parser.error(f"{meta.name} is for {meta.min_players}-{meta.max_players} players")
        print(f"## {meta.name} (`{key}`)")
        for cell in run(key, args.games, counts, args.jobs):
            print("\n".join(report(cell)))
            print()
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
