"""``python -m tools.server_ladder [game ...] [--servers N] [--players P] [--jobs J]``: the rating against the
win rate on ladders that look like a server's.

The bots' own evaluation (``tools.predict_winners``) has three identities, the bot levels, each in hundreds of
games against an even mix: there a level's win rate is nearly all there is to know. A server is not like that: many
players, few games each, and unequal opponents (some play mostly against the hard bot, some against beginners).
Here every player is a bot of a level the predictors are not told, and a server is played in game order:

* **Players** (``--players``, 40 a server): each a hidden level (easy, normal or hard, a third each), a number of
  games (1 + a geometric draw, mean 4.5, at most 15) and a habit, whom they mostly play with: the easy, normal or
  hard bot, or other players. On a **mixed** server the habit is drawn apart from the level (easy bot 25%, normal
  bot 15%, hard bot 25%, players 35%); on a **selective** one it follows the level (:data:`HABITS`: the hard
  players mostly take on the hard bot, the easy ones the easy bot), so every win rate drifts towards an even share.
* **Tables**, one at a time: a host drawn among the players with games left (in proportion to their games left)
  sits in seat 0 (as the table service seats its host; Wizard's Rage's wizard), the table size is drawn as the
  seeding games' (the game's smallest, at least 2, up to 3 seats), and each other seat follows the host's habit
  (80%) or is drawn at random (20%): another player with games left, or a bot not yet at the table (a bot level
  once a table). Every seat a player takes uses one of their games.
* **The bots** are on the ladder as on a server: each level starts at its seeded rating (``bot.ratings``'
  seeds, made again from the seeding games for other model parameters), and its win rate starts from those games.
* **Each game is predicted before it is rated**, then rated, by every predictor:

  - **rating**: the side's chance of finishing first on the ladder so far (``Ladder.chances``);
  - **win rate**: each identity's share of its seats that won so far, with a prior of ``k`` seats at the seeding
    games' mean share (a newcomer's rate is that mean; ``k`` chosen on the tuning servers like the model's
    parameters, ``tools.tune_ratings``); the bots' counts start from the seeding games; a side's chance in
    proportion to its seats' mean rate;
  - **uniform**: every side the same chance (knows nothing);
  - **seat**: each seat's share of wins at its table size in the seeding games (Wizard's Rage: the wizard's edge),
    a side in proportion to its seats' mean; knows no one;
  - **levels known** (a reference, not a baseline: it is told the hidden levels): each level's share of its seats
    that won in the seeding games, a side in proportion to its seats' mean.

Scored as ``tools.predict_winners`` scores (the winner's side picked, a tie between k favourites counting 1/k;
log-loss of the winning side's chance): per game and server kind, with the rating's difference from the win rate
and its standard error (games paired). The tables are drawn from the server's number alone, and every game is a
bot-only game played (or read from the cache) by ``tools.bot_games``: servers 1-99 tune the parameters
(``tools.tune_ratings``), servers from 101 are the reported ones, and their games are never the seeding games.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from openskill.models import PlackettLuce

from bot import ratings
from bot.games import get_engine, registry
from bot.ratings import FinishedGame, Ladder, Rating, Standing
from bot.search import LEVELS
from tools import bot_games
from tools.predict_winners import proportional, score, sides, winning_sides
from tools.seed_bot_ratings import ANCHOR, seeds

KINDS = ("mixed", "selective")
PLAYERS = 40
MAX_GAMES = 15
FOLLOW_HABIT = 0.8
PLAYERS_HABIT = "players"
# Whom a player mostly plays with, by server kind and the player's hidden level: {habit: weight}.
HABITS: dict[str, dict[str, dict[str, float]]] = {
    "mixed": {level: {"easy": 0.25, "normal": 0.15, "hard": 0.25, PLAYERS_HABIT: 0.35} for level in LEVELS},
    "selective": {
        "easy": {"easy": 0.6, "normal": 0.1, PLAYERS_HABIT: 0.3},
        "normal": {"easy": 0.15, "normal": 0.4, "hard": 0.15, PLAYERS_HABIT: 0.3},
        "hard": {"hard": 0.6, "normal": 0.1, PLAYERS_HABIT: 0.3},
    },
}
TUNING_SERVERS = range(1, 100)
REPORTED_FROM = 101
PREDICTORS = ("rating", "win rate", "uniform", "seat", "levels known")
BASELINE = "win rate"
PRIOR_SEATS = 4.0  # the win rate's prior, in seats at the mean share (chosen on the tuning servers)


@dataclass
class Player:
    """A server's player: their ladder name, hidden level, games left and habit."""
    identity: str
    level: str
    games: int
    habit: str


@dataclass(frozen=True)
class Table:
    """A server's game: its seed, who sat where (ladder names) and each seat's level (hidden from the predictors)."""
    seed: int
    seats: tuple[str, ...]
    levels: tuple[str, ...]


def server_kind(server: int) -> str:
    """Odd servers are mixed, even ones selective."""
    return KINDS[(server + 1) % 2]


def draw_server(key: str, server: int, players: int = PLAYERS) -> list[Table]:
    """The tables of ``server`` at ``key``, in game order (a pure function of its arguments)."""
    kind = server_kind(server)
    meta = get_engine(key).meta
    low, high = max(2, meta.min_players), min(bot_games.MAX_SEATS, meta.max_players)
    rng = random.Random(f"server:{key}:{server}")
    pool: list[Player] = []
    for n in range(1, players + 1):
        level = rng.choice(LEVELS)
        games = 1
        while games < MAX_GAMES and rng.random() > 0.22:
            games += 1
        habits = HABITS[kind][level]
        habit = rng.choices(list(habits), weights=list(habits.values()))[0]
        pool.append(Player(ratings.user_player(n), level, games, habit))
    tables: list[Table] = []
    while any(p.games for p in pool):
        ready = [p for p in pool if p.games]
        host = rng.choices(ready, weights=[p.games for p in ready])[0]
        seated: list[tuple[str, str]] = [(host.identity, host.level)]
        host.games -= 1
        for _ in range(rng.randint(low, high) - 1):
            habit = host.habit if rng.random() < FOLLOW_HABIT else rng.choice([PLAYERS_HABIT, *LEVELS])
            others = [p for p in pool if p.games and p.identity not in {who for who, _ in seated}]
            bots = [level for level in LEVELS if ratings.bot_player(level) not in {who for who, _ in seated}]
            if habit == PLAYERS_HABIT and others:
                joiner = rng.choices(others, weights=[p.games for p in others])[0]
                joiner.games -= 1
                seated.append((joiner.identity, joiner.level))
            else:
                level = habit if habit in bots else rng.choice(bots)
                seated.append((ratings.bot_player(level), level))
        seed = 10_000_000 + server * 10_000 + len(tables)
        tables.append(Table(seed, tuple(who for who, _ in seated), tuple(level for _, level in seated)))
    return tables


def server_games(key: str, servers: Sequence[int], players: int = PLAYERS, jobs: int = 1,
                 progress: bool = True) -> dict[int, list[tuple[Table, dict[str, Any]]]]:
    """Each server's tables with their games' results (played, or read from the cache)."""
    drawn = {server: draw_server(key, server, players) for server in servers}
    records = bot_games.played(key, [(t.seed, t.levels) for tables in drawn.values() for t in tables], jobs, progress)
    found, i = {}, 0
    for server, tables in drawn.items():
        found[server] = list(zip(tables, records[i:i + len(tables)]))
        i += len(tables)
    return found


@dataclass
class Prior:
    """What every predictor may know before a server's first game: the seeding games of its game."""
    bots: dict[str, Rating]  # each level's seeded rating under the model
    level_seats: Counter[str] = field(default_factory=Counter)
    level_wins: Counter[str] = field(default_factory=Counter)
    seat_share: dict[tuple[int, int], float] = field(default_factory=dict)  # (table size, seat) -> share of wins

    @property
    def mean_share(self) -> float:
        """The share of all seats that won."""
        return sum(self.level_wins.values()) / max(1, sum(self.level_seats.values()))

    def level_rate(self, level: str) -> float:
        """The share of ``level``'s seats that won."""
        return self.level_wins[level] / self.level_seats[level] if self.level_seats[level] else self.mean_share


def prior(key: str, pool: list[dict[str, Any]], model: PlackettLuce, anchor: str = ANCHOR) -> Prior:
    """The seeding games as every predictor may know them, the bots' ratings seeded under ``model`` (and
    ``anchor``: where a new player starts among them, ``tools.seed_bot_ratings.seeds``)."""
    seeded = seeds(key, pool, model, anchor)
    found = Prior({level: Rating(float(r["mu"]), float(r["sigma"])) for level, r in seeded.items()})
    seat_seats: Counter[tuple[int, int]] = Counter()
    seat_wins: Counter[tuple[int, int]] = Counter()
    for record in pool:
        for r in record["results"]:
            level = record["levels"][r["seat"]]
            found.level_seats[level] += 1
            found.level_wins[level] += int(r["won"])
            seat_seats[len(record["levels"]), r["seat"]] += 1
            seat_wins[len(record["levels"]), r["seat"]] += int(r["won"])
    found.seat_share = {at: seat_wins[at] / n for at, n in seat_seats.items()}
    return found


def finished(key: str, table: Table, record: dict[str, Any]) -> FinishedGame:
    """A server's game as the ladder reads it: its players as users, its bots as their levels' bots."""
    seats = [{"user_id": None, "name": who, "bot": True, "level": level} if ratings.bot_level(who) is not None
             else {"user_id": ratings.user_id_of(who), "name": who} for who, level in zip(table.seats, table.levels)]
    results = [{"seat": r["seat"], "name": table.seats[r["seat"]], "rank": r["rank"], "won": r["won"]}
               for r in record["results"]]
    return FinishedGame(record["seed"], key, seats, results)


Outcome = tuple[float, float]  # (hit, log-loss) of one prediction
Prediction = tuple[dict[str, list[float]], list[int]]  # each predictor's chances of each side, the winning sides


def predict_server(key: str, games: list[tuple[Table, dict[str, Any]]], known: Prior, model: PlackettLuce,
                   prior_seats: float = PRIOR_SEATS) -> list[Prediction]:
    """Every predictor's chances for each game of one server with a winner, the ladder run in game order and each
    game predicted before it is rated."""
    ladder = Ladder(key, {ratings.bot_player(level): Standing(f"Bot ({level})", rating)
                          for level, rating in known.bots.items()}, model=model)
    seats_of = Counter({ratings.bot_player(level): n for level, n in known.level_seats.items()})
    wins_of = Counter({ratings.bot_player(level): n for level, n in known.level_wins.items()})
    mean = known.mean_share
    out: list[Prediction] = []

    def rate(who: str) -> float:
        return (wins_of[who] + prior_seats * mean) / (seats_of[who] + prior_seats)

    for table, record in games:
        winners = winning_sides(record)
        table_sides = sides(record)
        if winners:
            size = len(table.seats)

            def by_mean(value: Callable[[int], float]) -> list[float]:
                return proportional([sum(value(s) for s in side) / len(side) for side in table_sides])

            out.append(({
                "rating": ladder.chances([[table.seats[s] for s in side] for side in table_sides]),
                "win rate": by_mean(lambda s: rate(table.seats[s])),
                "uniform": [1 / len(table_sides)] * len(table_sides),
                "seat": by_mean(lambda s: known.seat_share.get((size, s), mean)),
                "levels known": by_mean(lambda s: known.level_rate(table.levels[s])),
            }, winners))
        ladder.take(finished(key, table, record))
        for r in record["results"]:
            seats_of[table.seats[r["seat"]]] += 1
            wins_of[table.seats[r["seat"]]] += int(r["won"])
    return out


def run_server(key: str, games: list[tuple[Table, dict[str, Any]]], known: Prior, model: PlackettLuce,
               prior_seats: float = PRIOR_SEATS) -> dict[str, list[Outcome]]:
    """Every predictor's outcome on each game of one server with a winner (:func:`predict_server`)."""
    out: dict[str, list[Outcome]] = {name: [] for name in PREDICTORS}
    for chances, winners in predict_server(key, games, known, model, prior_seats):
        for name, chance in chances.items():
            out[name].append(score(chance, winners))
    return out


def paired(a: list[Outcome], b: list[Outcome], which: int) -> tuple[float, float]:
    """The mean difference a - b of one measure (0: hits, 1: log-loss) over paired games, and its standard error."""
    diffs = [x[which] - y[which] for x, y in zip(a, b)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def summary(outcomes: dict[str, list[Outcome]]) -> dict[str, Any]:
    """Per predictor: (hit share, mean log-loss); and the rating minus the win rate with standard errors."""
    n = len(outcomes["rating"])
    found: dict[str, Any] = {"games": n}
    for name, got in outcomes.items():
        found[name] = (sum(h for h, _ in got) / n, sum(loss for _, loss in got) / n)
    found["hits diff"] = paired(outcomes["rating"], outcomes[BASELINE], 0)
    found["loss diff"] = paired(outcomes["rating"], outcomes[BASELINE], 1)
    return found


def evaluate(key: str, served: dict[int, list[tuple[Table, dict[str, Any]]]], pool: list[dict[str, Any]],
             model: PlackettLuce, prior_seats: float = PRIOR_SEATS,
             anchor: str = ANCHOR) -> dict[str, dict[str, list[Outcome]]]:
    """Every predictor's outcomes over ``served``, by server kind (and "all")."""
    known = prior(key, pool, model, anchor)
    by_kind: dict[str, dict[str, list[Outcome]]] = {kind: {name: [] for name in PREDICTORS} for kind in (*KINDS, "all")}
    for server, games in served.items():
        for name, got in run_server(key, games, known, model, prior_seats).items():
            by_kind[server_kind(server)][name] += got
            by_kind["all"][name] += got
    return {kind: found for kind, found in by_kind.items() if found["rating"]}


def row(key: str, kind: str, found: dict[str, Any], players: int) -> str:
    """One line of the printed table (:data:`HEADER`)."""
    (hd, hse), (ld, lse) = found["hits diff"], found["loss diff"]
    picks = " | ".join(f"{found[name][0]:.1%}" for name in PREDICTORS)
    losses = " | ".join(f"{found[name][1]:.3f}" for name in PREDICTORS)
    return (f"| {key} | {kind} | {found['games']} | {players} | {picks} | {hd:+.1%} ± {hse:.1%} | {losses} |"
            f" {ld:+.3f} ± {lse:.3f} |")


HEADER = ["| game | servers | games | players | picked: " + " | ".join(PREDICTORS) + " | rating - win rate"
          " | log-loss: " + " | ".join(PREDICTORS) + " | rating - win rate |",
          "|---|---|---|---|" + "---|" * (2 * len(PREDICTORS) + 2)]


def main(argv: list[str] | None = None) -> int:
    """Print, per game and server kind, how each predictor did on the reported servers."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("keys", nargs="*", metavar="game", help="game keys (default: all)")
    parser.add_argument("--servers", type=int, default=2, help="reported servers a game (half mixed, half selective)")
    parser.add_argument("--players", type=int, default=PLAYERS, help="players a server")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games not cached yet")
    parser.add_argument("--play-only", action="store_true", help="play the games (fill the cache) and stop")
    args = parser.parse_args(argv)
    rows = list(HEADER)
    servers = range(REPORTED_FROM, REPORTED_FROM + args.servers)
    for key in args.keys or sorted(registry()):
        served = server_games(key, servers, args.players, args.jobs)
        if args.play_only:
            print(f"{key}: {sum(len(g) for g in served.values())} server games", flush=True)
            continue
        pool = bot_games.games(key, range(1, bot_games.GAMES[key] + 1), args.jobs)
        for kind, outcomes in evaluate(key, served, pool, ratings.model_for(key)).items():
            players = args.players * sum(1 for s in servers if kind in ("all", server_kind(s)))
            rows.append(row(key, kind, summary(outcomes), players))
            print(rows[-1], flush=True)
    print("\n".join(["", *rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
