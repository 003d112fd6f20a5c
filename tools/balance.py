"""The balance report: ``python -m tools.balance [game ...] [--games N] [--players K] [--jobs J] [--rules SET]``.

Plays N seeded games per player count with every seat taken by the game's normal
bot player, and N more with one bot among random players (the bot's seat rotating),
in parallel processes, and prints per game and player count:

* median length in decisions, and in minutes at 20 s per human decision, where
  the seats answering one simultaneous moment (a window in which several seats
  may act, each dropping out as it answers) count as one decision;
* win share by seat, by role and by turn position (who made the game's first decision, who the second...;
  shown when it isn't seat order), a shared win split between the winners everywhere;
* how games end, and the share of decisions that had a single option;
* per card/secret/mechanic: how often it was used in the games where it was
  available, and how often each secret goal was met where it was dealt;
* the bot's win share among random players.

The game-specific facts come from the engine's ``balance_tally`` hook (see
:mod:`bot.engine`). Lines that miss a target of the balance brief are marked
``<-`` (a seat's, role's or turn position's share more than 5 points from fair,
a secret goal met in under 20% or over 60% of games, a card or mechanic used in
under 3% of the games where it was available).

Every game has two rule sets (the table option ``rules``): ``tuned``, the printed
rules with our measured balance changes, and ``rulebook``, the rules as printed.
``--rules both`` (the default) plays the same seeds under each and prints the two
reports side by side, so the table shows what tuning bought; ``--rules tuned`` or
``--rules rulebook`` prints one.
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

from bot.engine import RULEBOOK, TUNED, Engine
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
    turn_order: list[int] = field(default_factory=list)  # seats by their first decision (first mover first)


def play(key: str, players: int, seed: int, bot_seat: int | None = None, rules: str = TUNED) -> GameRecord:
    """One seeded game under the rule set ``rules``. ``bot_seat`` None: every seat plays the bot; otherwise only
    that seat does and the others pick uniformly among their legal actions."""
    engine: Engine = registry()[key]
    state = engine.setup([f"P{i + 1}" for i in range(players)], engine.meta.resolve_options({"rules": rules}), seed)
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
        turn_order=turn_order(trace, players),
    )


def turn_order(trace: list[dict[str, Any]], players: int) -> list[int]:
    """The seats in the order of their first decision (seats that never decided last, in seat order)."""
    order: list[int] = []
    for entry in trace:
        if entry["seat"] not in order:
            order.append(entry["seat"])
    return order + [seat for seat in range(players) if seat not in order]


def decision_weight(previous: list[int] | None, acting: list[int]) -> int:
    """1 for a decision that takes its own time at the table; 0 for one answered
    inside a simultaneous moment that an earlier decision already counted (several
    seats could act, and the seats still to answer are some of those)."""
    if previous is not None and len(previous) > 1 and set(acting) < set(previous):
        return 0
    return 1


def _play_task(task: tuple[str, int, int, int | None, str]) -> GameRecord:
    return play(*task)


@dataclass
class Cell:
    """Every game of one title at one player count."""

    key: str
    players: int
    bots: list[GameRecord] = field(default_factory=list)
    vs_random: list[GameRecord] = field(default_factory=list)


def run(key: str, games: int, player_counts: list[int], jobs: int, rules: str = TUNED) -> list[Cell]:
    """Play ``games`` seeded games of ``key`` per player count (bots only, and one bot among random players)
    under the rule set ``rules`` (the same seeds for either set)."""
    cells = {players: Cell(key, players) for players in player_counts}
    tasks: list[tuple[str, int, int, int | None, str]] = []
    for players in player_counts:
        for game_index in range(games):
            tasks.append((key, players, 1000 + game_index, None, rules))
            tasks.append((key, players, 500_000 + game_index, game_index % players, rules))
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


def flag(share: float, fair: float) -> str:
    """`` <-`` when a share is more than the tolerance away from its fair value."""
    return " <-" if abs(share - fair) > SEAT_TOLERANCE else ""


def role_shares(records: list[GameRecord]) -> tuple[dict[str, float], dict[str, float], bool]:
    """Each role's share of the wins (a shared win split between its winners, as for seats), each role's fair
    share, and whether the roles are sides (every won game won by exactly the seats of one role, as the heroes
    win together against the wizard: then each side's fair share is an equal part of the games won)."""
    players = records[0].players
    roles = sorted(set(records[0].roles))
    won = [r for r in records if r.winners]
    shared_role = len(roles) < players  # some role is held by several seats (labels per seat are no sides)
    sides = shared_role and bool(won) and all({r.roles[s] for s in r.winners} == {r.roles[r.winners[0]]}
                              and set(r.winners) == {s for s in range(players) if r.roles[s] == r.roles[r.winners[0]]}
                              for r in won)
    share = dict.fromkeys(roles, 0.0)
    for r in won:
        for seat in r.winners:
            share[r.roles[seat]] += 1 / len(r.winners) / len(records)
    decided = len(won) / len(records)
    if sides:
        fair = dict.fromkeys(roles, decided / len(roles))
    else:
        fair = {role: decided * sum(1 for s in range(players) if records[0].roles[s] == role) / players
                for role in roles}
    return share, fair, sides


def report_rows(cell: Cell) -> list[tuple[str, str]]:
    """The report of one cell as (what, figures) rows; a figure that misses its target ends with `` <-``."""
    rs = cell.bots
    players = cell.players
    rows: list[tuple[str, str]] = [("games", f"{len(rs)} bot games, {len(cell.vs_random)} bot-vs-random games")]
    if not rs:
        return rows
    lengths = [r.decisions for r in rs]
    minutes = [r.weighted_decisions * SECONDS_PER_DECISION / 60 for r in rs]
    single = sum(r.single_option for r in rs) / max(1, sum(lengths))
    rows.append(("length", f"median {statistics.median(lengths):.0f} decisions, "
                           f"~{statistics.median(minutes):.0f} min at {SECONDS_PER_DECISION} s a decision "
                           f"(simultaneous decisions counted once); single-option decisions {pct(single)}"))
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
    seat_line = ", ".join(f"{s + 1}: {pct(v)}{flag(v, fair_of[s])}" for s, v in enumerate(shares))
    rows.append((f"win share by seat ({fair_text})", seat_line + (f"; no winner {pct(no_winner)}" if no_winner else "")))
    if len(set(seat_roles)) > 1:
        share, fair, sides = role_shares(rs)
        role_decisions: Counter[str] = Counter()
        for r in rs:
            role_decisions.update(r.decisions_by_role)
        total = sum(role_decisions.values()) or 1
        what = "sides: fair an equal part of the games won" if sides else "fair: the role's seats' part"
        rows.append((f"by role ({what})", ", ".join(
            (f"{role} wins {pct(share[role])} of games{flag(share[role], fair[role])}" if sides else
             f"{role} wins {pct(share[role])} (fair {pct(fair[role])}){flag(share[role], fair[role])}")
            + f", makes {pct(role_decisions[role] / total)} of decisions" for role in sorted(share))))
    symmetric = len(set(seat_roles)) in (1, players)  # with shared roles (one against a team) the role line says it
    if symmetric and any(r.turn_order and r.turn_order != list(range(players)) for r in rs):
        by_position = [0.0] * players
        for r in rs:
            for seat in r.winners:
                by_position[r.turn_order.index(seat)] += 1 / len(r.winners) / len(rs)
        even = (1 - no_winner) / players
        rows.append((f"win share by turn position (1 = the first to decide; fair {pct(even)})", ", ".join(
            f"{k + 1}: {pct(v)}{flag(v, even)}" for k, v in enumerate(by_position))))
    ends = Counter(r.end for r in rs)
    rows.append(("how games end", ", ".join(f"{end} {pct(c / len(rs))}" for end, c in ends.most_common())))
    available: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for r in rs:
        available.update(r.available)
        used.update(u for u in r.used if u in r.available)
    if available:
        keys = sorted(available, key=lambda k: (used[k] / available[k], k))
        rows.append(("used where available (games used / games available)", ", ".join(
            f"{k} {pct(used[k] / available[k])}" + (" <-" if used[k] / available[k] < MIN_USE else "") for k in keys)))
    dealt: Counter[str] = Counter()
    met: Counter[str] = Counter()
    for r in rs:
        for goal, ok in r.goals.items():
            dealt[goal] += 1
            met[goal] += ok
    if dealt:
        rows.append(("secret goals met where dealt", ", ".join(
            f"{game} {pct(met[game] / dealt[game])}"
            + (" <-" if not GOAL_RANGE[0] <= met[game] / dealt[game] <= GOAL_RANGE[1] else "")
            for game in sorted(dealt))))
    if cell.vs_random:
        bot_wins = sum(1 / len(r.winners) for r in cell.vs_random if r.bot_seat in r.winners)
        rows.append(("one bot among random players", f"wins {pct(bot_wins / len(cell.vs_random))} "
                                                      f"(fair share {pct(1 / players)})"))
    return rows


def report(cell: Cell, rules: str = TUNED) -> list[str]:
    """The report's lines for one cell."""
    rows = report_rows(cell)
    head = f"### {cell.key}, {cell.players} players, {rules} rules ({rows[0][1]})"
    return [head] + [f"- {what}: {figures}" for what, figures in rows[1:]]


def side_by_side(tuned: Cell, rulebook: Cell) -> list[str]:
    """The reports of the same seeds under both rule sets, as one Markdown table."""
    rows = {what: figures for what, figures in report_rows(tuned)}
    other = {what: figures for what, figures in report_rows(rulebook)}
    out = [f"### {tuned.key}, {tuned.players} players", "", f"| | {TUNED} | {RULEBOOK} |", "| --- | --- | --- |"]
    for what in list(rows) + [w for w in other if w not in rows]:
        out.append(f"| {what} | {rows.get(what, '-')} | {other.get(what, '-')} |")
    return out


def main(argv: list[str] | None = None) -> int:
    """The ``python -m tools.balance`` command: the balance report of the games asked for."""
    parser = argparse.ArgumentParser(prog="python -m tools.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("games_", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per player count and mode (default 200)")
    parser.add_argument("--players", type=int, action="append", help="player count (repeatable; default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--rules", choices=(TUNED, RULEBOOK, "both"), default="both",
                        help="the rule set to play: tuned, rulebook, or both side by side (default)")
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
        if args.rules == "both":
            pairs = zip(run(key, args.games, counts, args.jobs, TUNED), run(key, args.games, counts, args.jobs, RULEBOOK))
            for tuned, rulebook in pairs:
                print("\n".join(side_by_side(tuned, rulebook)))
                print()
        else:
            for cell in run(key, args.games, counts, args.jobs, args.rules):
                print("\n".join(report(cell, args.rules)))
                print()
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
