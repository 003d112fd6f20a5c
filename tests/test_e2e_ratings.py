"""Ratings through the fake Discord: the final scores show each player's change, /leaderboard ranks the ladder
(the bots on it), /stats shows the rating, its chart and the results against the bots, in every game; managers
take a game off the ladder and start a season."""
from __future__ import annotations

import json
import random
import re

import pytest

from bot import ratings
from bot.games import registry, shipped
from bot.search import level_action
from bot.tables import bot_rng
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import callback_text, open_and_start, play_to_end, press

BOB, CID = 101, 102
RATING_LINE = re.compile(r"^(<@\d+>|🤖 Bot \((easy|normal|hard)\)) (-?\d+\.\d) -> (-?\d+\.\d)( · provisional)?$")


def final_scores(h, game):
    final = [m for m in h.fake.public_messages(game.channel_id) if m.content.startswith("**Final scores**")]
    assert len(final) == 1
    return final[0].content


def rating_block(content: str) -> list[str]:
    lines = content.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("**Ratings**"))
    return lines[start + 1:]


async def test_a_played_game_shows_each_players_change_and_the_ladder_then_managers_unrate_and_start_a_season(
        harness):
    h, fake = harness, harness.fake
    await open_and_start(h, "dummy", [ADMIN, BOB, CID])
    game = await play_to_end(h)
    block = rating_block(final_scores(h, game))
    assert len(block) == 3 and all(RATING_LINE.match(line) for line in block), block
    assert {RATING_LINE.match(line).group(3) for line in block} == {"0.0"}  # everyone started at 0
    winner = next(r["seat"] for r in registry()["dummy"].scores(game.state) if r["won"])
    winner_line = next(line for line in block if line.startswith(f"<@{game.seats[winner]['user_id']}>"))
    assert float(RATING_LINE.match(winner_line).group(4)) > 0 and winner_line.endswith("provisional")

    rec = await h.slash(BOB, "leaderboard", {"game": "dummy"}, channel=CHANNEL)
    assert rec.callback["type"] == 5  # deferred at once: the chart is drawn in the drawing worker
    text = callback_text(rec)
    assert "**Coin Pile ladder** · season 1" in text and f"1. <@{game.seats[winner]['user_id']}>" in text
    assert text.count("🤖 Bot (") == 3 and text.count("provisional") == 3
    assert [n for n, _ in rec.message.files] == ["leaderboard.png"]
    assert "ratings" in rec.message.attachments[0]["description"]

    rec = await h.slash(ADMIN, "stats", channel=CHANNEL)
    assert rec.callback["type"] == 5 and rec.callback["data"]["flags"] & 64  # private, deferred for the chart
    text = callback_text(rec)
    assert "**Coin Pile**: rating" in text and "1 rated" in text and "provisional (1 of 5 games)" in text
    assert [n for n, _ in rec.message.files] == ["rating.png"] and "over 1 rated game:" in \
        rec.message.attachments[0]["description"]

    # A manager takes the game off the ladder: the ladder has nobody but the bots again; undo puts it back.
    rec = await h.slash(ADMIN, "gameadmin unrate", {"game_id": game.id}, channel=CHANNEL)
    assert "off the Coin Pile ladder" in callback_text(rec)
    text = callback_text(await h.slash(BOB, "leaderboard", {"game": "dummy"}, channel=CHANNEL))
    assert "Nobody has a rated game here yet" in text and "<@" not in text
    assert "already off" in callback_text(await h.slash(ADMIN, "gameadmin unrate", {"game_id": game.id},
                                                        channel=CHANNEL))
    rec = await h.slash(ADMIN, "gameadmin unrate", {"game_id": game.id, "undo": True}, channel=CHANNEL)
    assert "back on the Coin Pile ladder" in callback_text(rec)
    assert "no game #999" in callback_text(await h.slash(ADMIN, "gameadmin unrate", {"game_id": 999},
                                                         channel=CHANNEL))

    # Only Manage Server starts a season; the old ladder stays on view.
    assert "Only server managers" in callback_text(await h.slash(BOB, "gameadmin season start", channel=CHANNEL))
    rec = await h.slash(ADMIN, "gameadmin season start", channel=CHANNEL)
    assert "Season 2 has started" in callback_text(rec) and rec.callback["data"]["flags"] & 64
    text = callback_text(await h.slash(BOB, "leaderboard", {"game": "dummy"}, channel=CHANNEL))
    assert "season 2" in text and "Nobody has a rated game here yet" in text
    text = callback_text(await h.slash(BOB, "leaderboard", {"game": "dummy", "season": 1}, channel=CHANNEL))
    assert "season 1 (over)" in text and f"<@{game.seats[winner]['user_id']}>" in text
    assert "no season 3" in callback_text(await h.slash(BOB, "leaderboard", {"game": "dummy", "season": 3},
                                                         channel=CHANNEL))
    assert fake.unhandled == []


def finishes(engine, game, seat, action, levels) -> bool:
    """Whether ``action`` ends the game, the bots answering as the table service will (same levels and RNGs)."""
    state = json.loads(json.dumps(game.state))
    engine.apply(state, seat, action)
    version = game.version + 1
    while not engine.is_terminal(state):
        bots = [s for s in engine.to_act(state) if game.seats[s].get("bot")]
        if not bots:
            return False
        engine.apply(state, bots[0], level_action(engine, state, bots[0], bot_rng(game, version), levels[bots[0]]))
        version += 1
    return True


@pytest.mark.parametrize("key", sorted(shipped()))
async def test_every_game_rates_a_player_against_the_bots(harness, key):
    """One player against an easy and a normal bot: the player's moves go straight to the table service, but the
    last one, which is clicked, so the final scores come the way players see them."""
    h = harness
    await h.slash(ADMIN, "game new", {"game": key})
    for level in ("easy", "normal"):
        await h.slash(ADMIN, "game addbot", {"level": level})
    rec = await h.slash(ADMIN, "game start")
    assert "begins" in callback_text(rec) or rec.callback["type"] in (4, 5), callback_text(rec)
    await h.settle()
    game = await h.table()
    engine = h.bot.tables.engine(game)
    levels = [seat.get("level", "normal") for seat in game.seats]
    rng = random.Random(7)
    for _ in range(5000):
        seat = engine.to_act(game.state)[0]
        action = engine.bot_action(game.state, seat, rng)
        if finishes(engine, game, seat, action, levels):
            await press(h, ADMIN, engine.legal_actions(game.state, seat).index(action), game)
            await h.settle()
            break
        await h.bot.tables.act(game.id, ADMIN, action)
        game = await h.bot.tables.get(game.id)
    game = await h.bot.tables.get(game.id)
    assert game.status == "finished"
    block = rating_block(final_scores(h, game))
    assert len(block) == 3 and all(RATING_LINE.match(line) for line in block), block
    assert sum("provisional" in line for line in block) == 1  # the player's; a bot's rating is never provisional
    seeded = {level: ratings.initial_rating(key, ratings.bot_player(level)).ordinal for level in ("easy", "normal")}
    for level, before in seeded.items():
        line = next(line for line in block if f"Bot ({level})" in line)
        assert RATING_LINE.match(line).group(3) == f"{before:.1f}"  # the bots start at their seeded ratings

    text = callback_text(await h.slash(BOB, "leaderboard", {"game": key}, channel=CHANNEL))
    assert f"<@{ADMIN}>" in text and "🤖 Bot (hard)" in text and "🤖 Bot (normal)" in text
    rec = await h.slash(ADMIN, "stats", {"game": key}, channel=CHANNEL)
    text = callback_text(rec)
    assert "rating" in text and "1 rated" in text and "vs bots (ahead-tied-behind): easy" in text
    assert ("above" in text or "below" in text) and [n for n, _ in rec.message.files] == ["rating.png"]
    assert h.fake.unhandled == []


def test_long_final_scores_keep_every_rating_line_and_fit_one_message():
    from bot.storage import GameRow
    from cogs.embeds import results_text

    seats = [{"user_id": 1000 + s, "name": "N" * 32} for s in range(7)] + [{"user_id": None, "name": "Bot 1", "bot": True,
                                                                          "level": "hard"}]
    game = GameRow(1, 5000, 5001, "sleeping", "finished", 1000, {}, 1, seats, None, 10)
    results = [{"seat": s, "score": 10 - s, "rank": s + 1, "won": s == 0, "detail": "x" * 400} for s in range(8)]
    changes = [(s, ratings.user_player(1000 + s) if s < 7 else "bot:hard", 25.0, 8.3, 26.0, 8.0, 1) for s in range(8)]
    text = results_text(game, results, ("rated", 3, changes))
    assert len(text) <= 1900 and "…" in text  # the scores' details were cut, not the ratings
    block = rating_block(text)
    assert len(block) == 8 and all(RATING_LINE.match(line) for line in block), block
    assert "**Ratings** · season 3" in text
    assert results_text(game, results, ("no humans", 1, [])).endswith("**Not rated**: no player was left in it, only"
                                                                      " bots.")
