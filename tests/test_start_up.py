"""Starting the bot as a new user would (issue 27, items 5 and 12): every way start-up can fail ends with one line
saying what to do, within about 10 seconds, never printing a secret; and nothing misleading is printed on the way."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def clean_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "HEISTCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    env.update(values)
    return env


def test_no_voice_warnings_at_start(tmp_path):
    """The bot uses no voice: discord.py's "PyNaCl is not installed" and "davey" warnings are not printed."""
    code = ("from bot.app import HeistBot, configure_logging; from bot.config import Config;"
            f" configure_logging('INFO'); HeistBot(Config(token='x', db_path={str(tmp_path / 'v.db')!r}))")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=clean_env(), capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert "voice" not in run.stderr, run.stderr
