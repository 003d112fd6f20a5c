"""Starting the bot as a new user would (issue 27, items 5 and 12): every way start-up can fail ends with one line
saying what to do, within about 10 seconds, never printing a secret; and nothing misleading is printed on the way."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

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


# --- item 5: each start-up failure, one line ------------------------------------------------------------------
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"  # shaped like a bot token
SECRET = "s3cretPassw0rd"


def start(tmp_path, *, discord_url: str | None = None, timeout: float = 60, **env: str):
    """``heistcord`` started as a user would, from a fresh folder (``discord_url``: where discord.py finds
    Discord); returns (the run, the lines it printed, seconds)."""
    import time

    point = ""
    if discord_url:
        point = (f"from tests.bench_botproc import point_discord_at; point_discord_at({discord_url!r}); ")
    code = f"import sys; {point}from bot.__main__ import main; sys.exit(main())"
    env.setdefault("HEISTCORD_DB", str(tmp_path / "heistcord.sqlite3"))
    env.setdefault("HEISTCORD_RENDER_WORKERS", "0")
    began = time.monotonic()
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=clean_env(**env), capture_output=True,
                         text=True, timeout=timeout)
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    return run, lines, time.monotonic() - began


class Ended:
    """What ``main()`` returned, as a finished process's return code."""

    def __init__(self, returncode: int) -> None:
        self.returncode = returncode


def start_here(tmp_path, monkeypatch, capsys, **env: str):
    """``start``, in this process: for the failures found before the bot logs in (no process to spawn)."""
    import time

    from bot.__main__ import main

    for key in list(os.environ):
        if key.startswith(("DISCORD_", "HEISTCORD_")):
            monkeypatch.delenv(key)
    env.setdefault("HEISTCORD_DB", str(tmp_path / "heistcord.sqlite3"))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    began = time.monotonic()
    status = main([])
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if line.strip()]
    return Ended(status), lines, time.monotonic() - began


def one_clear_line(run, lines, *, says: str) -> str:
    """The run ended (not 0) with one line of its own saying ``says``, after at most the usual log lines."""
    assert run.returncode != 0, lines
    ours = [line for line in lines if line.startswith("heistcord:")]
    assert len(ours) == 1 and lines[-1] == ours[0], lines
    assert not any("Traceback" in line or " ERROR " in line for line in lines), lines
    assert says in ours[0], ours[0]
    assert SECRET not in "\n".join(lines)
    return ours[0]


def test_a_client_secret_pasted_for_the_token(tmp_path, monkeypatch, capsys):
    run, lines, _ = start_here(tmp_path, monkeypatch, capsys,
                               DISCORD_TOKEN="kY8u2VxQm3ZpLw9rT5nB1cD7fG4hJ6aS")  # 32 characters, no dots
    line = one_clear_line(run, lines, says="not a bot token")
    assert "Bot tab" in line and "kY8u2V" not in line


def test_no_route_to_discord(tmp_path):
    run, lines, took = start(tmp_path, discord_url="http://heistcord-no-such-host.invalid", DISCORD_TOKEN=TOKEN)
    one_clear_line(run, lines, says="can't reach Discord")
    assert took < 15


@pytest.fixture
def fake_world(fake_discord):
    fake = fake_discord
    fake.add_guild(9001, name="Club", owner_id=9002)
    fake.add_channel(9001, 9003, "heists")
    fake.add_user(9002, "Ann")
    fake.add_member(9001, 9002)
    return fake


async def start_async(tmp_path, fake, **env: str):
    """``start`` while the fake Discord (on this test's event loop) answers."""
    return await asyncio.to_thread(start, tmp_path, discord_url=fake.base_url, **env)


async def test_a_token_discord_refuses(tmp_path, fake_world):
    fake_world.valid_token = "the-real-one"
    run, lines, took = await start_async(tmp_path, fake_world, DISCORD_TOKEN=TOKEN)
    line = one_clear_line(run, lines, says="Discord refused the token")
    assert "Bot tab" in line and TOKEN not in line and took < 15


async def test_the_members_intent_not_switched_on_in_the_portal(tmp_path, fake_world):
    fake_world.portal_intents = 0
    run, lines, took = await start_async(tmp_path, fake_world, DISCORD_TOKEN=TOKEN, HEISTCORD_MEMBERS_INTENT="1")
    line = one_clear_line(run, lines, says="Server Members Intent")
    assert "unset HEISTCORD_MEMBERS_INTENT" in line and took < 20


def test_a_database_server_that_never_answers(tmp_path, monkeypatch, capsys):
    """A server that accepts connections and says nothing (frozen, or not PostgreSQL): one line within ~10 s, with
    neither the password of the URL nor the one in its query string (it exited after 60.7 s, 'reason': '')."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections are accepted by the kernel and never answered
        port = silent.getsockname()[1]
        url = f"postgresql://heistcord:{SECRET}@127.0.0.1:{port}/heistcord?sslmode=disable&password={SECRET}"
        run, lines, took = start_here(tmp_path, monkeypatch, capsys, DISCORD_TOKEN=TOKEN, HEISTCORD_DATABASE_URL=url)
    line = one_clear_line(run, lines, says="did not answer within 10 s")
    assert f"127.0.0.1:{port}" in line and took < 15


def test_a_port_that_is_not_a_number(tmp_path, monkeypatch, capsys):
    run, lines, _ = start_here(tmp_path, monkeypatch, capsys, DISCORD_TOKEN=TOKEN,
                               HEISTCORD_DATABASE_URL=f"postgresql://heistcord:{SECRET}@dbhost:five/heistcord")
    one_clear_line(run, lines, says="port after the host must be a number")


def test_a_sqlite_file_where_nothing_may_be_written(tmp_path, monkeypatch, capsys):
    for where in ("/proc/heistcord.sqlite3", str(tmp_path / "no-such-folder" / "heistcord.sqlite3")):
        run, lines, _ = start_here(tmp_path, monkeypatch, capsys, DISCORD_TOKEN=TOKEN, HEISTCORD_DB=where)
        one_clear_line(run, lines, says=f"can't open the SQLite database {where}")


async def test_a_database_user_who_may_not_create_tables(tmp_path, pg_server, monkeypatch, capsys):
    import asyncpg

    admin = await asyncpg.connect(pg_server.url())
    try:
        await admin.execute("CREATE ROLE reader LOGIN")
        await admin.execute("CREATE DATABASE readers_only")  # PostgreSQL 15+: public's CREATE is the owner's only
        await admin.execute("REVOKE CREATE ON DATABASE readers_only FROM PUBLIC")
    finally:
        await admin.close()
    owner = await asyncpg.connect(pg_server.url("readers_only"))
    try:
        await owner.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    finally:
        await owner.close()
    url = f"postgresql://reader:{SECRET}@127.0.0.1:{pg_server.port}/readers_only"
    run, lines, _ = await asyncio.to_thread(start_here, tmp_path, monkeypatch, capsys, DISCORD_TOKEN=TOKEN,
                                            HEISTCORD_DATABASE_URL=url)
    one_clear_line(run, lines, says="may not create heistcord's tables")
