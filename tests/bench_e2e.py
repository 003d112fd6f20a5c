"""Move latency through the fake Discord server: ``python -m tests.bench_e2e``.

For each game, a table of humans plays bot-chosen moves by clicking the panel
buttons, as players do. For every move it measures, from the click being
dispatched to the bot:
  * ack: the interaction's reply (the panel updated) arriving at Discord;
  * board: the new board message (with its rendered image) arriving.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time

from bot.games import registry
from tests.conftest import CHANNEL, GUILD, MEMBER_PERMS, USERS, Clock, Harness
from tests.e2e_helpers import latest_board, open_and_start
from tests.fakediscord import FakeDiscord


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def bench_game(fake: FakeDiscord, key: str, moves: int, tmp: str) -> tuple[list[float], list[float]]:
    h = Harness(fake=fake, db_path=f"{tmp}/{key}.db", clock=Clock())
    await h.launch()
    engine = registry()[key]
    players = min(max(engine.meta.min_players, 3), engine.meta.max_players)
    users = list(USERS)[:players]
    acks, boards = [], []
    rng = random.Random(1)
    try:
        game = await open_and_start(h, key, users)
        while game.status == "running" and len(acks) < moves:
            seat = engine.to_act(game.state)[0]
            user = game.seats[seat]["user_id"]
            legal = engine.legal_actions(game.state, seat)
            index = legal.index(engine.bot_action(game.state, seat, rng))
            board = latest_board(h)
            panel = await h.click(user, board, fake.find_component(board, label="Play")["custom_id"])
            wanted = f"hc:act:{game.id}:{game.version}:{index}"
            before = len(fake.public_messages(CHANNEL))
            start = time.perf_counter()
            if any(c.get("custom_id") == wanted for c in fake.find_components(panel.message, type=2)):
                rec = await fake.click(user, panel.message, wanted)
            else:
                select = next(s for s in fake.find_components(panel.message, type=3)
                              if any(o["value"] == str(index) for o in s["options"]))
                rec = await fake.select(user, panel.message, select["custom_id"], [str(index)])
            await rec.response(timeout=10)
            acks.append((time.perf_counter() - start) * 1000)
            await fake.wait_for(lambda: len(fake.public_messages(CHANNEL)) > before, timeout=10)
            boards.append((time.perf_counter() - start) * 1000)
            await fake.settle(quiet=0.02)
            game = await h.bot.tables.get(game.id)
        if game.status == "running":
            await h.bot.tables.end(game.id, "benchmark over")
    finally:
        for bot in h.bots:
            await bot.close()
    return acks, boards


async def main(moves: int) -> None:
    logging.basicConfig(level=logging.WARNING)
    print(f"\n## move latency through the fake Discord server ({moves} moves per game)")
    print(f"{'game':<13}{'moves':>6}{'ack p50':>9}{'ack p99':>9}{'board p50':>11}{'board p99':>11}  (ms)")
    with tempfile.TemporaryDirectory() as tmp:
        for key in sorted(registry()):
            fake = FakeDiscord()
            await fake.start()
            fake.install()
            fake.add_guild(GUILD, name="Bench", owner_id=100)
            fake.add_channel(GUILD, CHANNEL, "bench")
            for uid, name in USERS.items():
                fake.add_user(uid, name)
                fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)
            try:
                acks, boards = await bench_game(fake, key, moves, tmp)
            finally:
                fake.uninstall()
                await fake.stop()
            print(f"{key:<13}{len(acks):>6}{statistics.median(acks):>9.1f}{pct(acks, 99):>9.1f}"
                  f"{statistics.median(boards):>11.1f}{pct(boards, 99):>11.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=60)
    asyncio.run(main(parser.parse_args().moves))
