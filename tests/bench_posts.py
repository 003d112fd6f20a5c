"""Messages a whole game posts: ``python -m tests.bench_posts``.

One game of each title with four people clicking through the fake Discord (the
same game as ``tests/test_e2e_posts.py``): messages posted in the game's thread,
turn changes (the floor: one board per turn), how many times a board picture was
uploaded (a board posted with its ``board.png``, or the living board edited with a
new one: a board counts when the fake Discord received it with its image, not when
it was queued), and messages in the channel the table was opened in. It counts,
it does not time: how long a board takes to be posted is ``python -m tests.bench_load``
("click -> board posted", against a bare bot uploading a same-size PNG)."""
from __future__ import annotations

import asyncio
import logging
import tempfile

from bot.games import register, shipped
from tests.conftest import CHANNEL, GUILD, MEMBER_PERMS, USERS, Clock, Harness
from tests.dummy_game import ENGINE as DUMMY
from tests.fakediscord import FakeDiscord
from tests.test_e2e_posts import posts_of_a_game

GAMES = sorted(shipped())


async def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    register(DUMMY)
    print("\n## public messages per game (4 players clicking; the board is one message per turn)")
    print(f"{'game':<13}{'thread posts':>13}{'turn changes':>14}{'posts/turn':>12}{'board pictures':>16}"
          f"{'channel posts':>15}")
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
                pictures = board_pictures(fake)
            finally:
                for bot in h.bots:
                    await bot.close()
                fake.uninstall()
                await fake.stop()
            print(f"{key:<13}{posts:>13}{turns:>14}{posts / max(1, turns):>12.2f}{pictures:>16}{in_channel:>15}")


def board_pictures(fake: FakeDiscord) -> int:
    """Board pictures the fake received: each post or edit of a message in the table's
    channel or its threads that uploaded a ``board.png``."""
    return sum(1 for message in fake.public_messages(CHANNEL) for record in message.history
               if any(name == "board.png" for name, _ in record.get("_files") or []))


if __name__ == "__main__":
    asyncio.run(main())
