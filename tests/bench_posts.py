"""Messages a whole game posts: ``python -m tests.bench_posts``.

One game of each title with four people clicking through the fake Discord (the
same game as ``tests/test_e2e_posts.py``): messages posted in the game's thread,
turn changes (the floor: one board per turn), and messages in the channel the
table was opened in."""
from __future__ import annotations

import asyncio
import logging
import tempfile

from bot.games import register
from tests.conftest import CHANNEL, GUILD, MEMBER_PERMS, USERS, Clock, Harness
from tests.dummy_game import ENGINE as DUMMY
from tests.fakediscord import FakeDiscord
from tests.test_e2e_posts import posts_of_a_game

GAMES = ["tower", "sleeping", "masterminds", "rage", "heist"]


async def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    register(DUMMY)
    print("\n## public messages per game (4 players clicking; the board is one message per turn)")
    print(f"{'game':<13}{'thread posts':>13}{'turn changes':>14}{'posts/turn':>12}{'channel posts':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for key in GAMES:
            fake = FakeDiscord()
            await fake.start()
            fake.install()
            fake.add_guild(GUILD, name="Bench", owner_id=100)
            fake.add_channel(GUILD, CHANNEL, "bench")
            for uid, name in USERS.items():
                fake.add_user(uid, name)
                fake.add_member(GUILD, uid, permissions=MEMBER_PERMS)
            h = Harness(fake=fake, db_path=f"{tmp}/{key}.db", clock=Clock())
            try:
                await h.launch()
                posts, turns, in_channel = await posts_of_a_game(h, key)
            finally:
                for bot in h.bots:
                    await bot.close()
                fake.uninstall()
                await fake.stop()
            print(f"{key:<13}{posts:>13}{turns:>14}{posts / max(1, turns):>12.2f}{in_channel:>15}")


if __name__ == "__main__":
    asyncio.run(main())
