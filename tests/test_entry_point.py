"""``python -m bot`` without a token says how to set one up, in one line."""
import os
import subprocess
import sys
from pathlib import Path

from bot.config import Config

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_explains_and_exits(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "HEISTCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert result.stdout == ""


def test_config_reads_env_file_and_environment(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nDISCORD_TOKEN='abc'\nHEISTCORD_DB=games.db\nHEISTCORD_DEV_GUILD_ID=42\n")
    config = Config.from_env({"HEISTCORD_LOG_LEVEL": "debug", "HEISTCORD_MEMBERS_INTENT": "1"}, env_file)
    assert (config.token, config.db_path, config.dev_guild_id, config.log_level, config.members_intent) == (
        "abc", "games.db", 42, "DEBUG", True)
    default = Config.from_env({}, tmp_path / "missing.env")
    assert default.token is None and default.db_path == "heistcord.sqlite3" and default.dev_guild_id is None


def test_drawing_settings_in_dotenv_reach_the_drawing_worker_without_touching_the_environment(tmp_path, monkeypatch):
    import os

    import rendering
    from bot.app import create_bot
    from bot.search import pool as search_pool

    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=x\nHEISTCORD_RENDER_WORKERS=0\nHEISTCORD_RENDER_TIMEOUT=3\n"
                        "HEISTCORD_SEARCH_WORKERS=0\nHEISTCORD_DB=" + str(tmp_path / "w.db") + "\n")
    monkeypatch.setattr(os, "environ", {k: v for k, v in os.environ.items() if not k.startswith("HEISTCORD_")})
    monkeypatch.setattr(rendering, "RENDER_TIMEOUT", rendering.RENDER_TIMEOUT)
    monkeypatch.setattr(rendering, "RENDER_WORKERS", rendering.RENDER_WORKERS)
    monkeypatch.setattr(search_pool, "SEARCH_WORKERS", search_pool.SEARCH_WORKERS)
    before = dict(os.environ)
    config = Config.from_env(env_file=env_file)
    assert dict(os.environ) == before  # nothing written to the environment
    bot = create_bot(config)
    try:
        assert rendering._workers() == 0 and rendering.render_timeout() == 3.0 and search_pool._workers() == 0
    finally:
        bot.storage.release()
    # The environment wins over the file.
    os.environ["HEISTCORD_RENDER_TIMEOUT"] = "20"
    assert Config.from_env(env_file=env_file).render_timeout == 20.0


def test_a_dotenv_file_may_export_quote_and_comment(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text('export DISCORD_TOKEN=abc.def.ghi\nHEISTCORD_DB="my games.db"  # where games live\n'
                        "HEISTCORD_TURN_MINUTES=5 # a comment after a value\n")
    config = Config.from_env({}, env_file)
    assert (config.token, config.db_path, config.default_turn_minutes) == ("abc.def.ghi", "my games.db", 5)


def test_a_worker_setting_that_is_not_a_number_is_named(tmp_path):
    import pytest

    from bot.config import ConfigError

    for name, value in (("HEISTCORD_RENDER_WORKERS", "two"), ("HEISTCORD_RENDER_TIMEOUT", "-1"),
                        ("HEISTCORD_SEARCH_WORKERS", "1.5")):
        with pytest.raises(ConfigError, match=name):
            Config.from_env({name: value}, None)
