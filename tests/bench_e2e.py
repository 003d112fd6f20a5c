"""Move latency through the fake Discord server, one move at a time: ``python -m tests.bench_e2e [--moves N]``.

This is the "one move at a time" part of ``tests/bench_load.py``: the bot runs in its own
process (it used to share this process's event loop with the fake server and the players,
which made it look faster and slower than it is), and every figure is printed beside a bare
discord.py bot answering the same clicks on the same fake. For each game, the players press
a move on their panel, one move at a time, and it measures from the click being dispatched:
  * reply: the interaction's reply (the panel updated) arriving at the fake Discord;
  * board: the new board message, with its image, posted.
Run ``python -m tests.bench_load`` for everything (restart, load, human pace, storage).
"""
from __future__ import annotations

import argparse
import asyncio

from tests.bench_load import main

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60, help="moves per game")
    asyncio.run(main(quick=False, keep=False, only={"seq"}, seq_moves=parser.parse_args().moves))
