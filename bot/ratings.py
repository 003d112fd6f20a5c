"""Skill ratings: a ladder per server, game and season, on openskill's Plackett-Luce model.

Pure: no discord, no database. :mod:`bot.rating_store` feeds the ladders from the stored results, inside the
transaction that records a game's results; ``docs/ratings.md`` tells the rules to players and admins.

* **Who is rated** (:func:`judge`). Every seat of a finished game, ranked by its final standing (ties stay
  ties); the seats of one side rank together (Wizard's Rage: the wizard against the heroes, see
  ``Engine.rating_sides``). A seat added as a bot is that level's bot of the game (``bot:easy``, ``bot:normal``,
  ``bot:hard``: one identity per game and level). A seat whose player left (a bot finished it) or that a bot
  played for more than half of its moves (turns timed out, the player benched as away) is left out: its
  player's rating doesn't move, and the others are rated on their standing among themselves. A game is rated
  only while a human is still in it and two sides are left. A game that ended before its finish has no result,
  so it is never rated.
* **The model** (:func:`rate`): openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300). openskill adds
  up the skills of a side's members, so a lone wizard would always be expected to lose to three heroes: unequal
  sides are compared as equals instead, the smaller side made up to the larger one's size with stand-ins rated
  as the other side's average (their own update is dropped). A level seated more than once at one table (three
  normal bots) moves by the mean of its seats' updates: one game counts once.
* **What players see** is the library's ordinal, mu - 3 sigma (:attr:`Rating.ordinal`): a new player shows 0 and
  climbs as the ladder grows sure of them; under :data:`PROVISIONAL_GAMES` rated games a rating is provisional.
* **The bots' ladder** exists on day one: each level's rating at every game is seeded (``data/ratings/bots.json``,
  made by ``python -m tools.seed_bot_ratings`` from bot-only games, shifted so that a new player's mu, 25, is the
  three levels' mean) and moves with the games it plays with people.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.paths import DATA_DIR
from bot.search import DEFAULT_LEVEL

MODEL = PlackettLuce()  # the library's defaults: where a new player starts, and the model of a game not listed below
# The model's parameters per game, chosen by log-loss on the tuning servers (``python -m tools.tune_ratings``,
# docs/ratings.md "Does the rating predict the winner?"): beta, how much a game's result varies between equal
# players; tau, how far a rating may drift between two games. Every game not listed keeps the library's defaults
# (beta 25/6, tau 25/300): on Tower's tuning servers no other pair gained more than 0.003 of log-loss.
PARAMETERS: dict[str, dict[str, float]] = {}
PROVISIONAL_GAMES = 5  # rated games before a rating stops being provisional
BOT_PREFIX = "bot:"
USER_PREFIX = "user:"
SEEDS_FILE = DATA_DIR / "ratings" / "bots.json"

# A game's place on its ladder (``rated_games.status``): rated, waiting to be rated, taken off by a manager,
# or why it was not rated.
RATED, PENDING, UNRATED = "rated", "pending", "unrated"
NO_HUMANS, ONE_SIDE = "no humans", "one side"
NOT_RATED_WHY = {
    NO_HUMANS: "no player was left in it, only bots",
    ONE_SIDE: "fewer than two sides were left to compare",
    UNRATED: "a server manager took it off the ladder",
}


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` the skill, ``sigma`` how unsure of it the ladder is."""
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating players see and ladders rank by: the library's ordinal (mu - 3 sigma)."""
        return PlackettLuceRating(self.mu, self.sigma).ordinal()


DEFAULT = Rating(MODEL.mu, MODEL.sigma)  # where a new player starts


def model_for(game_key: str, beta: float | None = None, tau: float | None = None) -> PlackettLuce:
    """The model of ``game_key``'s ladders (:data:`PARAMETERS`), or one with another ``beta`` or ``tau`` (the
    tuning and measuring tools)."""
    chosen = PARAMETERS.get(game_key, {})
    return PlackettLuce(beta=chosen.get("beta", MODEL.beta) if beta is None else beta,
                        tau=chosen.get("tau", MODEL.tau) if tau is None else tau)


def user_player(user_id: int) -> str:
    """The ladder's name for a Discord user."""
    return f"{USER_PREFIX}{user_id}"


def bot_player(level: str) -> str:
    """The ladder's name for the bot of ``level`` (one per game and level, on every ladder)."""
    return f"{BOT_PREFIX}{level}"


def bot_level(player: str) -> str | None:
    """The level of a bot's ladder name, or None for a user."""
    return player[len(BOT_PREFIX):] if player.startswith(BOT_PREFIX) else None


def user_id_of(player: str) -> int | None:
    """The Discord user id of a user's ladder name, or None for a bot."""
    return int(player[len(USER_PREFIX):]) if player.startswith(USER_PREFIX) else None


def player_name(player: str, name: str) -> str:
    """How a ladder entry is named: a bot by its level, a player by the name they last played under."""
    level = bot_level(player)
    return f"Bot ({level})" if level is not None else name


@dataclass(frozen=True)
class Seat:
    """A rated seat of a finished game: who, on which side, how it finished."""
    seat: int
    player: str
    name: str
    side: int
    rank: int
    won: bool


@dataclass
class FinishedGame:
    """What the ladder reads of a finished game, all of it stored for good: its seats (who sat, the bots'
    levels, who left), its results, and per seat how many moves its player made and how many a bot made for it."""
    game_id: int
    game_key: str
    seats: list[dict[str, Any]]
    results: list[dict[str, Any]]  # {"seat", "name", "rank", "won"}
    moves: dict[int, tuple[int, int]] = field(default_factory=dict)


def sides_of(game_key: str, players: int) -> list[list[int]]:
    """The seats that win or lose together at a table of ``players`` (every seat alone unless the game says)."""
    from bot.games import registry

    engine = registry().get(game_key)
    sides = engine.rating_sides(players) if engine is not None else None
    return sides or [[seat] for seat in range(players)]


def seat_player(info: dict[str, Any], moves: tuple[int, int]) -> str | None:
    """Who a seat is rated as (``info`` is the game row's seat, ``moves`` its player's and a bot's moves for it),
    or None when the seat is left out: its player left, or a bot made more than half of its moves."""
    if info.get("bot"):
        if info.get("left_user_id") is not None:
            return None  # a bot finished the game of a player who left
        return bot_player(info.get("level") or DEFAULT_LEVEL)
    if info.get("user_id") is None:
        return None
    own, by_bot = moves
    return None if by_bot > own else user_player(info["user_id"])


def judge(game: FinishedGame, *, humans_needed: bool = True) -> tuple[list[Seat], str]:
    """The rated seats of a finished game and its status: :data:`RATED`, or why it is not rated (no human left
    in it, fewer than two sides left). ``humans_needed=False`` rates bot-only games (the bots' seeding)."""
    side_of = {seat: i for i, side in enumerate(sides_of(game.game_key, len(game.seats))) for seat in side}
    seats = []
    for row in sorted(game.results, key=lambda row: row["seat"]):
        seat = row["seat"]
        player = seat_player(game.seats[seat], game.moves.get(seat, (0, 0)))
        if player is not None:
            seats.append(Seat(seat, player, row["name"], side_of[seat], int(row["rank"]), bool(row["won"])))
    if humans_needed and all(bot_level(s.player) is not None for s in seats):
        return [], NO_HUMANS
    if len({s.side for s in seats}) < 2:
        return [], ONE_SIDE
    return seats, RATED


def _teams(sides: list[list[Rating]]) -> list[list[PlackettLuceRating]]:
    """openskill's teams for ``sides``, each made up to the largest side's size with stand-ins rated as the
    other sides' average (sigma 0: the update adds its tau), so that unequal sides are compared as equals."""
    size = max(len(side) for side in sides)
    teams = []
    for i, side in enumerate(sides):
        team = [PlackettLuceRating(r.mu, r.sigma) for r in side]
        if len(side) < size:
            others = [r.mu for j, other in enumerate(sides) if j != i for r in other]
            team += [PlackettLuceRating(sum(others) / len(others), 0.0) for _ in range(size - len(side))]
        teams.append(team)
    return teams


def _by_side(seats: list[Seat]) -> list[list[Seat]]:
    sides: dict[int, list[Seat]] = {}
    for seat in seats:
        sides.setdefault(seat.side, []).append(seat)
    return [sides[side] for side in sorted(sides)]


def rate(seats: list[Seat], ratings: Mapping[str, Rating], model: PlackettLuce = MODEL) -> dict[str, Rating]:
    """Every player's rating after the game ``seats`` (from :func:`judge`) finished, from ``ratings`` before it.
    A player at several seats (a level's bot seated twice) takes the mean of its seats' new ratings."""
    sides = _by_side(seats)
    updated = model.rate(_teams([[ratings[s.player] for s in side] for side in sides]),
                         ranks=[float(min(s.rank for s in side)) for side in sides])
    found: dict[str, list[PlackettLuceRating]] = {}
    for side, team in zip(sides, updated, strict=True):
        for seat, new in zip(side, team, strict=False):  # (the stand-ins, last in a team, are dropped)
            found.setdefault(seat.player, []).append(new)
    return {player: Rating(sum(r.mu for r in new) / len(new), sum(r.sigma for r in new) / len(new))
            for player, new in found.items()}


def win_chances(sides: list[list[Rating]], model: PlackettLuce = MODEL) -> list[float]:
    """Each side's chance of finishing first, as the model that rates them sees it (unequal sides compared as in
    :func:`rate`): Plackett-Luce's chance of a side coming first, its weight exp(mu / c) over all the sides', with
    c the spread :func:`rate` uses (every side's sigma squared plus beta squared, summed). Not openskill's
    ``predict_win``: that compares each pair of sides through a normal curve with the same spread, which is far
    steeper than the logistic curve Plackett-Luce rates with (two sides 15.6 apart, sigma 4: 97% where the model
    that rated them says 87%), so its chances were too sure (docs/ratings.md)."""
    teams = _teams(sides)
    mus = [sum(r.mu for r in team) for team in teams]
    c = math.sqrt(sum(sum(r.sigma ** 2 for r in team) + model.beta ** 2 for team in teams))
    weights = [math.exp((mu - max(mus)) / c) for mu in mus]
    return [weight / sum(weights) for weight in weights]


@lru_cache(maxsize=1)
def bot_seeds() -> dict[str, dict[str, Rating]]:
    """The bots' seeded ratings, by game and level (``data/ratings/bots.json``)."""
    if not SEEDS_FILE.is_file():
        return {}
    data = json.loads(SEEDS_FILE.read_text())
    return {key: {level: Rating(float(r["mu"]), float(r["sigma"])) for level, r in levels.items()}
            for key, levels in data["games"].items()}


def initial_rating(game_key: str, player: str) -> Rating:
    """Where ``player`` starts on a ladder of ``game_key``: a bot at its level's seeded rating, a player at the
    library's default (a level the seeds lack starts at the default too)."""
    level = bot_level(player)
    if level is None:
        return DEFAULT
    return bot_seeds().get(game_key, {}).get(level, DEFAULT)


@dataclass
class Standing:
    """A player's place on one ladder."""
    name: str
    rating: Rating
    games: int = 0
    wins: int = 0

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` rated games."""
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Change:
    """What one game did to one rated seat's player."""
    seat: int
    player: str
    side: int
    rank: int
    won: bool
    before: Rating
    after: Rating


class Ladder:
    """One ladder (a server, game and season) taking finished games in order. It holds the standings of the
    players it was given or has rated since (:attr:`touched`): enough to rate a game given its players' rows,
    or to rebuild a whole ladder from its first game."""

    def __init__(self, game_key: str, standings: Mapping[str, Standing] | None = None, *,
                 start: Rating | None = None, model: PlackettLuce | None = None) -> None:
        self.game_key = game_key
        self.model = model or model_for(game_key)
        self.standings: dict[str, Standing] = dict(standings or {})
        self.touched: set[str] = set()
        self.start = start  # where every newcomer starts, bots too (the bots' seeding); None: initial_rating

    def rating(self, player: str) -> Rating:
        """``player``'s rating now (where they start if they have none yet)."""
        standing = self.standings.get(player)
        if standing is not None:
            return standing.rating
        return self.start if self.start is not None else initial_rating(self.game_key, player)

    def chances(self, sides: list[list[str]]) -> list[float]:
        """Each side of players' chance of finishing first on this ladder now (:func:`win_chances`)."""
        return win_chances([[self.rating(player) for player in side] for side in sides], self.model)

    def take(self, game: FinishedGame, *, humans_needed: bool = True) -> tuple[str, list[Change]]:
        """Rate a finished game: its status (:func:`judge`) and a change per rated seat."""
        seats, status = judge(game, humans_needed=humans_needed)
        if status != RATED:
            return status, []
        before = {s.player: self.rating(s.player) for s in seats}
        after = rate(seats, before, self.model)
        for player, rating in after.items():
            mine = [s for s in seats if s.player == player]
            standing = self.standings.setdefault(player, Standing(mine[-1].name, rating))
            standing.name, standing.rating = player_name(player, mine[-1].name), rating
            standing.games += 1
            standing.wins += int(any(s.won for s in mine))
            self.touched.add(player)
        return RATED, [Change(s.seat, s.player, s.side, s.rank, s.won, before[s.player], after[s.player])
                       for s in seats]
