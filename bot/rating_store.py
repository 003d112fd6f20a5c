"""The ladders in the database (the tables of the ratings migration in ``bot/storage_schema.py``): SQL written once
for SQLite and PostgreSQL, the arithmetic left to :mod:`bot.ratings`.

* ``rating_seasons``: the seasons a server started (none stored: season 1).
* ``rated_games``: every finished game's place on its ladder (server, game, season), in the order the ladder
  took it (``seq``), and its status: ``rated``, ``pending`` (not rated yet: stored before this code, or its
  rating failed and is tried again at the next start), ``unrated`` (taken off by a manager), or why it was
  not rated.
* ``ratings``: each player's standing on a ladder (mu, sigma, rated games, wins, the name last played under).
* ``rating_changes``: each rated seat's rating before and after its game: the history, and the final scores'
  "Alice 0.0 -> 3.1".

A game is entered on its ladder in the same transaction that records its results (``record_game``), and rated
there from its players' standings. Rebuilding a ladder (``recompute``: an unrated game, ``heistcord ratings
rebuild``) takes the same games in the same order through the same code from the first standing, so it ends
exactly where the incremental updates did.

Each procedure is a generator: it yields steps and is sent their answers, so that one text of SQL serves both
databases, run by a driver on one connection, inside one transaction:

* ``("rows", sql, args)``: the rows (indexable by column), ``sql`` with ``?`` placeholders;
* ``("run", sql, args)`` and ``("many", sql, [args, ...])``: statements;
* ``("lock", guild_id)``: on PostgreSQL, one process at a time changes a server's ladders (an advisory lock held
  until the transaction ends); SQLite has a single writer already;
* ``("compute", fn, many)``: ``fn()``, the ratings' arithmetic, which an asynchronous driver runs on a thread when
  it rates ``many`` games.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Generator, Iterable
from typing import Any, TypeVar

from bot.ratings import PENDING, RATED, UNRATED, Change, FinishedGame, Ladder, Rating, Standing

T = TypeVar("T")
log = logging.getLogger("heistcord.ratings")
Procedure = Generator[tuple[Any, ...], Any, T]
LADDER = "guild_id = ? AND game_key = ? AND season = ?"
CHUNK = 500  # ids per IN (...) list
RATING_LOCK = 7_121_331  # the advisory lock's first key (the second is the server's id)
IN_A_MOVE = 20  # games a finishing move's write rates at most (its own and any left waiting before it)

# --- the drivers -------------------------------------------------------------------------------------
# A step that fails is thrown into its procedure, which may handle it (record_game rolls back to a savepoint).
def _advance(procedure: Procedure[T], answer: Any, error: Exception | None) -> tuple[bool, Any]:
    """The procedure's next step, ``(False, step)``, or ``(True, its result)`` once it returned."""
    try:
        return False, procedure.throw(error) if error is not None else procedure.send(answer)
    except StopIteration as stop:
        return True, stop.value


def run_sync(execute: Callable[..., Any], procedure: Procedure[T]) -> T:
    """Run ``procedure`` with ``execute(sql, args, many) -> cursor`` (sqlite3, e.g. on the writer thread)."""
    answer: Any = None
    error: Exception | None = None
    while True:
        done, step = _advance(procedure, answer, error)
        if done:
            return step
        answer = error = None
        try:
            if step[0] == "rows":
                answer = execute(step[1], step[2], False).fetchall()
            elif step[0] in ("run", "many"):
                execute(step[1], step[2], step[0] == "many")
            elif step[0] == "compute":
                answer = step[1]()
        except Exception as exc:
            error = exc


async def _run_async(do: Callable[[tuple[Any, ...]], Awaitable[Any]], procedure: Procedure[T]) -> T:
    answer: Any = None
    error: Exception | None = None
    while True:
        done, step = _advance(procedure, answer, error)
        if done:
            return step
        answer = error = None
        try:
            if step[0] == "compute":  # a ladder's games on a thread; one game's (a tenth of a ms) right here
                answer = await asyncio.to_thread(step[1]) if step[2] else step[1]()
            else:
                answer = await do(step)
        except Exception as exc:
            error = exc


async def run_aiosqlite(db: Any, procedure: Procedure[T]) -> T:
    """Run ``procedure`` on an aiosqlite connection (the arithmetic on a thread)."""
    async def do(step: tuple[Any, ...]) -> Any:
        if step[0] == "rows":
            async with db.execute(step[1], step[2]) as cursor:
                return list(await cursor.fetchall())
        if step[0] in ("run", "many"):
            await (db.executemany if step[0] == "many" else db.execute)(step[1], step[2])
        return None

    return await _run_async(do, procedure)


_PLACEHOLDER = re.compile(r"\?")


def pg_sql(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    numbers = iter(range(1, 10**6))
    return _PLACEHOLDER.sub(lambda _: f"${next(numbers)}", sql)


async def run_pg(conn: Any, procedure: Procedure[T]) -> T:
    """Run ``procedure`` on an asyncpg connection inside a transaction (the arithmetic on a thread)."""
    locked: set[int] = set()  # (a lock is held until the transaction ends: taken once)

    async def do(step: tuple[Any, ...]) -> Any:
        if step[0] == "rows":
            return await conn.fetch(pg_sql(step[1]), *step[2])
        if step[0] == "run":
            await conn.execute(pg_sql(step[1]), *step[2])
        elif step[0] == "many":
            await conn.executemany(pg_sql(step[1]), list(step[2]))
        elif step[0] == "lock" and step[1] not in locked:
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", RATING_LOCK, step[1] % 2_147_483_647)
            locked.add(step[1])
        return None

    return await _run_async(do, procedure)


# --- entering and rating games ------------------------------------------------------------------------
def current_season(guild_id: int) -> Procedure[int]:
    """The server's season now (1 until a manager starts another)."""
    rows = yield ("rows", "SELECT MAX(season) FROM rating_seasons WHERE guild_id = ?", (guild_id,))
    return int(rows[0][0] or 1)


def enter_game(game_id: int, guild_id: int, game_key: str) -> Procedure[tuple[int, str, int]]:
    """Put a game whose results were just recorded on its server's ladder of the season, waiting to be rated.
    Returns the ladder (server, game, season) for :func:`catch_up`."""
    yield ("lock", guild_id)
    season = yield from current_season(guild_id)
    yield ("run", "INSERT INTO rated_games (game_id, guild_id, game_key, season, status) VALUES (?, ?, ?, ?, ?)",
           (game_id, guild_id, game_key, season, PENDING))
    return guild_id, game_key, season


def record_game(game_id: int, guild_id: int, game_key: str) -> Procedure[None]:
    """In the write that records a game's results: enter it on its ladder and rate it. A failure to rate it
    never refuses the results: it is rolled back to a savepoint and logged, and the game waits on its ladder,
    to be rated when the storage next opens (or by ``heistcord ratings rebuild``)."""
    ladder = yield from enter_game(game_id, guild_id, game_key)
    yield ("run", "SAVEPOINT rating", ())
    try:
        yield from catch_up(*ladder, most=IN_A_MOVE)
    except Exception:
        log.exception("game %s: rating it failed; it waits on its ladder, to be rated at the next start", game_id)
        yield ("run", "ROLLBACK TO SAVEPOINT rating", ())
    yield ("run", "RELEASE SAVEPOINT rating", ())


def catch_up(guild_id: int, game_key: str, season: int, most: int | None = None) -> Procedure[None]:
    """Rate the ladder's games that wait (in their order), from the standings of their players now; when one
    waits behind games already decided, rebuild the whole ladder instead. With ``most`` (inside a move's write),
    more waiting games than that, or a rebuild, are left for the next start (``catch_up_ratings``): a move's write
    stays short."""
    yield ("lock", guild_id)
    ladder = (guild_id, game_key, season)
    pending = yield ("rows", f"SELECT seq, game_id, (SELECT MAX(seq) FROM rated_games WHERE {LADDER} AND status <> ?)"
                     f" FROM rated_games WHERE {LADDER} AND status = ? ORDER BY seq",
                     (*ladder, PENDING, *ladder, PENDING))
    if not pending:
        return
    decided = pending[0][2]  # the last game decided before: a waiting game behind it means a rebuild
    rebuild = decided is not None and decided > pending[0][0]
    if most is not None and (rebuild or len(pending) > most):
        log.warning("ladder %s: %d games wait to be rated; they are rated at the next start", ladder, len(pending))
        return
    if rebuild:
        yield from recompute(guild_id, game_key, season)
        return
    order = [(int(seq), int(game_id)) for seq, game_id, _ in pending]
    games = yield from load_games([game_id for _, game_id in order])
    players = sorted({_player for game in games.values() for _player in _seat_players(game)})
    standings = yield from load_standings(ladder, players)
    yield from _rate_and_store(ladder, Ladder(game_key, standings), order, games)


def _seat_players(game: FinishedGame) -> Iterable[str]:
    from bot.ratings import seat_player

    for seat, info in enumerate(game.seats):
        player = seat_player(info, game.moves.get(seat, (0, 0)))
        if player is not None:
            yield player


def recompute(guild_id: int, game_key: str, season: int) -> Procedure[int]:
    """Rebuild one ladder from its first game: every game not taken off by a manager, in the ladder's order.
    Returns how many games it rated."""
    yield ("lock", guild_id)
    ladder = (guild_id, game_key, season)
    yield ("run", f"DELETE FROM rating_changes WHERE {LADDER}", ladder)
    yield ("run", f"DELETE FROM ratings WHERE {LADDER}", ladder)
    rows = yield ("rows", f"SELECT seq, game_id FROM rated_games WHERE {LADDER} AND status <> ? ORDER BY seq",
                  (*ladder, UNRATED))
    order = [(int(seq), int(game_id)) for seq, game_id in rows]
    games = yield from load_games(ladder=ladder)
    return (yield from _rate_and_store(ladder, Ladder(game_key), order, games))


def _rate_and_store(ladder: tuple[int, str, int], board: Ladder, order: list[tuple[int, int]],
                    games: dict[int, FinishedGame]) -> Procedure[int]:
    def rate_all() -> list[tuple[int, int, str, list[Change], list[int]]]:
        out = []
        for seq, game_id in order:
            status, changes = board.take(games[game_id])
            out.append((seq, game_id, status, changes, [board.standings[c.player].games for c in changes]))
        return out

    outcomes = yield ("compute", rate_all, len(order) > 1)
    yield ("many", "UPDATE rated_games SET status = ? WHERE seq = ?",
           [(status, seq) for seq, _, status, _, _ in outcomes])
    yield ("many", "INSERT INTO rating_changes (game_id, seat, guild_id, game_key, season, seq, player, side, rank,"
           " won, mu_before, sigma_before, mu_after, sigma_after, games)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
           [(game_id, c.seat, *ladder, seq, c.player, c.side, c.rank, int(c.won), float(c.before.mu),
             float(c.before.sigma), float(c.after.mu), float(c.after.sigma), games)
            for seq, game_id, _, changes, counts in outcomes for c, games in zip(changes, counts, strict=True)])
    yield ("many", "INSERT INTO ratings (guild_id, game_key, season, player, name, mu, sigma, games, wins)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game_key, season, player) DO UPDATE SET"
           " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
           " wins = excluded.wins",
           [(*ladder, player, s.name, float(s.rating.mu), float(s.rating.sigma), s.games, s.wins)
            for player, s in sorted(board.standings.items()) if player in board.touched])
    return sum(1 for _, _, status, _, _ in outcomes if status == RATED)


def load_games(game_ids: list[int] | None = None, *,
               ladder: tuple[int, str, int] | None = None) -> Procedure[dict[int, FinishedGame]]:
    """The finished games ``game_ids`` (or all of a ladder's) as the ratings read them: seats, results, and
    per seat the moves its player made and those a bot made for it (the action log's moves without a user)."""
    chunks: list[tuple[str, tuple[Any, ...]]]
    if ladder is not None:
        chunks = [(f"IN (SELECT game_id FROM rated_games WHERE {LADDER})", ladder)]
    else:
        ids = list(game_ids or [])
        chunks = [(f"IN ({', '.join('?' * len(part))})", tuple(part))
                  for part in (ids[i:i + CHUNK] for i in range(0, len(ids), CHUNK))]
    games: dict[int, FinishedGame] = {}
    for where, args in chunks:
        found = yield ("rows", f"SELECT id, game_key, seats FROM games WHERE id {where}", args)
        for game_id, game_key, seats in found:
            games[int(game_id)] = FinishedGame(int(game_id), game_key, json.loads(seats), [])
        for game_id, seat, name, rank, won in (yield ("rows", "SELECT game_id, seat, name, rank, won FROM results"
                                                      f" WHERE game_id {where} ORDER BY game_id, seat", args)):
            games[int(game_id)].results.append({"seat": int(seat), "name": name, "rank": int(rank), "won": bool(won)})
        for game_id, seat, own, total in (yield ("rows", "SELECT game_id, seat, COUNT(user_id), COUNT(*) FROM actions"
                                                 f" WHERE game_id {where} GROUP BY game_id, seat", args)):
            games[int(game_id)].moves[int(seat)] = (int(own), int(total) - int(own))
    return games


def load_standings(ladder: tuple[int, str, int], players: list[str]) -> Procedure[dict[str, Standing]]:
    """The ladder's standings of ``players`` (those who have one)."""
    standings: dict[str, Standing] = {}
    for i in range(0, len(players), CHUNK):
        part = players[i:i + CHUNK]
        rows = yield ("rows", f"SELECT player, name, mu, sigma, games, wins FROM ratings WHERE {LADDER}"
                      f" AND player IN ({', '.join('?' * len(part))})", (*ladder, *part))
        for player, name, mu, sigma, games, wins in rows:
            standings[player] = Standing(name, Rating(float(mu), float(sigma)), int(games), int(wins))
    return standings


# --- managers' changes ---------------------------------------------------------------------------------
def pending_ladders() -> Procedure[list[tuple[int, str, int]]]:
    """The ladders with games waiting to be rated (stored before the ratings existed, or whose rating failed)."""
    rows = yield ("rows", "SELECT DISTINCT guild_id, game_key, season FROM rated_games WHERE status = ?", (PENDING,))
    return sorted((int(g), k, int(s)) for g, k, s in rows)


def unrate(game_id: int, undo: bool = False) -> Procedure[tuple[int, str, int] | None]:
    """Take a game off its ladder (``undo``: put it back) and rebuild the ladder. Returns the ladder, or None if
    the game has no place on one (not finished)."""
    rows = yield ("rows", "SELECT guild_id, game_key, season FROM rated_games WHERE game_id = ?", (game_id,))
    if not rows:
        return None
    ladder = (int(rows[0][0]), rows[0][1], int(rows[0][2]))
    yield ("lock", ladder[0])
    yield ("run", "UPDATE rated_games SET status = ? WHERE game_id = ?", (PENDING if undo else UNRATED, game_id))
    yield from recompute(*ladder)
    return ladder


def start_season(guild_id: int, now: float) -> Procedure[int]:
    """Close the server's season: the games finished from now on go on new ladders. Returns the new season."""
    yield ("lock", guild_id)
    season = yield from current_season(guild_id)
    yield ("run", "INSERT INTO rating_seasons (guild_id, season, started_at) VALUES (?, ?, ?)",
           (guild_id, season + 1, float(now)))
    return season + 1


def rebuild_all() -> Procedure[tuple[int, int]]:
    """Every ladder rebuilt from the results (a finished game missing from the ladders is entered first, in the
    season of its finish, after the others). Returns (ladders, games rated)."""
    orphans = yield ("rows", "SELECT r.game_id, r.guild_id, r.game_key, MIN(r.finished_at) FROM results r"
                     " WHERE NOT EXISTS (SELECT 1 FROM rated_games g WHERE g.game_id = r.game_id)"
                     " GROUP BY r.game_id, r.guild_id, r.game_key ORDER BY MIN(r.finished_at), r.game_id", ())
    for game_id, guild_id, game_key, finished_at in orphans:
        seasons = yield ("rows", "SELECT MAX(season) FROM rating_seasons WHERE guild_id = ? AND started_at <= ?",
                         (int(guild_id), float(finished_at)))
        yield ("run", "INSERT INTO rated_games (game_id, guild_id, game_key, season, status) VALUES (?, ?, ?, ?, ?)",
               (int(game_id), int(guild_id), game_key, int(seasons[0][0] or 1), PENDING))
    ladders = yield ("rows", "SELECT DISTINCT guild_id, game_key, season FROM rated_games", ())
    rated = 0
    for guild_id, game_key, season in sorted((int(g), k, int(s)) for g, k, s in ladders):
        rated += yield from recompute(guild_id, game_key, season)
    return len(ladders), rated


# --- what players see -------------------------------------------------------------------------------------
def game_rating(game_id: int) -> Procedure[tuple[str | None, int, list[tuple[Any, ...]]]]:
    """A finished game's status on its ladder (None: it has no place on one), its season, and per rated seat
    ``(seat, player, mu_before, sigma_before, mu_after, sigma_after, games)``."""
    rows = yield ("rows", "SELECT status, season FROM rated_games WHERE game_id = ?", (game_id,))
    if not rows:
        return None, 0, []
    changes = yield ("rows", "SELECT seat, player, mu_before, sigma_before, mu_after, sigma_after, games"
                     " FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,))
    return rows[0][0], int(rows[0][1]), [tuple(row) for row in changes]


def standings(guild_id: int, game_key: str, season: int) -> Procedure[list[tuple[str, Standing]]]:
    """Every standing of a ladder, best conservative rating (mu - 3 sigma) first."""
    rows = yield ("rows", f"SELECT player, name, mu, sigma, games, wins FROM ratings WHERE {LADDER}"
                  " ORDER BY mu - 3 * sigma DESC, player", (guild_id, game_key, season))
    return [(player, Standing(name, Rating(float(mu), float(sigma)), int(games), int(wins)))
            for player, name, mu, sigma, games, wins in rows]


def history(guild_id: int, game_key: str, season: int, player: str) -> Procedure[list[tuple[int, Rating, Rating]]]:
    """A player's rated games on a ladder, oldest first: ``(game_id, before, after)``."""
    rows = yield ("rows", "SELECT game_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes"
                  f" WHERE {LADDER} AND player = ? ORDER BY seq, seat", (guild_id, game_key, season, player))
    seen: dict[int, tuple[int, Rating, Rating]] = {}
    for game_id, mu0, sigma0, mu1, sigma1 in rows:  # a bot seated twice: one game
        before, after = Rating(float(mu0), float(sigma0)), Rating(float(mu1), float(sigma1))
        seen.setdefault(int(game_id), (int(game_id), before, after))
    return list(seen.values())


def versus_bots(guild_id: int, game_key: str, season: int, player: str) -> Procedure[list[tuple[str, int, int, int]]]:
    """A player's results against each level's bot on a ladder: ``(bot, ahead, tied, behind)`` counted over the
    bot seats they met on another side."""
    rows = yield ("rows", "SELECT b.player, SUM(CASE WHEN me.rank < b.rank THEN 1 ELSE 0 END),"
                  " SUM(CASE WHEN me.rank = b.rank THEN 1 ELSE 0 END),"
                  " SUM(CASE WHEN me.rank > b.rank THEN 1 ELSE 0 END)"
                  " FROM rating_changes me JOIN rating_changes b ON b.game_id = me.game_id AND b.side <> me.side"
                  " AND b.player LIKE 'bot:%' WHERE me.guild_id = ? AND me.game_key = ? AND me.season = ?"
                  " AND me.player = ? GROUP BY b.player ORDER BY b.player", (guild_id, game_key, season, player))
    return [(bot, int(ahead), int(tied), int(behind)) for bot, ahead, tied, behind in rows]


def seasons(guild_id: int) -> Procedure[list[tuple[int, float | None]]]:
    """The server's seasons, ``(season, started_at)`` (season 1 has no start stored), oldest first."""
    rows = yield ("rows", "SELECT season, started_at FROM rating_seasons WHERE guild_id = ? ORDER BY season",
                  (guild_id,))
    found: list[tuple[int, float | None]] = [(int(season), float(started)) for season, started in rows]
    return ([(1, None)] if not found or found[0][0] != 1 else []) + found


def all_ratings() -> Procedure[list[tuple[Any, ...]]]:
    """Every standing and change of every ladder, in a fixed order (for comparing a rebuild with before)."""
    standings_rows = yield ("rows", "SELECT guild_id, game_key, season, player, name, mu, sigma, games, wins"
                            " FROM ratings ORDER BY guild_id, game_key, season, player", ())
    changes = yield ("rows", "SELECT game_id, seat, guild_id, game_key, season, seq, player, side, rank, won,"
                     " mu_before, sigma_before, mu_after, sigma_after, games FROM rating_changes"
                     " ORDER BY game_id, seat", ())
    statuses = yield ("rows", "SELECT seq, game_id, guild_id, game_key, season, status FROM rated_games"
                      " ORDER BY seq", ())
    return [("rating", *row) for row in standings_rows] + [("change", *row) for row in changes] + \
        [("game", *row) for row in statuses]
