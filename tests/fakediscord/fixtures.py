"""pytest fixtures and helpers for the fake Discord.

``tests/conftest.py`` registers this module as a pytest plugin, so every test may ask for
``fake_discord`` and ``discord_errors``; import ``start_client``/``stop_client`` from here.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator, Iterator, Optional

import pytest
import pytest_asyncio

from .server import DiscordErrorCollector, FakeDiscord

__all__ = ["fake_discord", "discord_errors", "start_client", "stop_client", "DiscordErrorCollector"]


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py pointed at it (restored afterwards).

    Populate it (add_guild/add_channel/add_user/add_member/add_role) before starting a client.
    A test fails if the fake refused any request for breaking one of Discord's limits
    (``fake.rejected``; clear it in a test that provokes one on purpose), or answered any 429 (too many
    requests: ``fake.rate_limited``; a test that provokes them sets ``fake.expect_rate_limits``)."""
    fake = FakeDiscord()
    await fake.start()
    fake.install()
    try:
        yield fake
    finally:
        # stop clients a failing test left running (before the server goes away)
        for client in list(getattr(fake, "_started_clients", [])):
            if not client.is_closed():
                with contextlib.suppress(Exception):
                    await stop_client(client)
        fake.uninstall()
        await fake.stop()
    if fake.rate_limited and not fake.expect_rate_limits:
        raise AssertionError("Discord would have answered 429 (too many requests):\n" + "\n".join(
            f"{r['method']} {r['path']}: scope {r['scope']}, retry after {r['retry_after']}" for r in fake.rate_limited))
    if fake.rejected:
        raise AssertionError("the bot sent requests Discord would refuse (400, Invalid Form Body):\n"
                             + "\n".join(f"{r['method']} {r['path']}: {'; '.join(r['errors'])}" for r in fake.rejected))


@pytest.fixture
def discord_errors() -> Iterator[DiscordErrorCollector]:
    """Collects ERROR records of the ``discord`` loggers; the test fails at teardown if any were
    logged (call ``discord_errors.clear()`` for expected ones)."""
    collector = DiscordErrorCollector().install()
    try:
        yield collector
    finally:
        collector.uninstall()
    collector.assert_clean()


async def start_client(
    client: Any,
    fake: FakeDiscord,
    token: str = "fake-token",
    *,
    timeout: float = 10.0,
    guild_ready_timeout: Optional[float] = 0.05,
) -> asyncio.Task:
    """Start a discord.py ``Client``/``Bot`` in a task and wait until it is ready and has all of
    the fake's guilds. ``guild_ready_timeout`` (seconds discord.py waits after the last
    GUILD_CREATE before READY; default 2s) is lowered unless ``None``.

    The task is stored as ``client._fake_discord_task``; stop with :func:`stop_client`."""
    if guild_ready_timeout is not None:
        client._connection.guild_ready_timeout = guild_ready_timeout
    task = asyncio.create_task(client.start(token), name="fakediscord-client")
    client._fake_discord_task = task
    if not hasattr(fake, "_started_clients"):
        fake._started_clients = []  # type: ignore[attr-defined]
    fake._started_clients.append(client)  # type: ignore[attr-defined]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    want = set(fake.guilds)
    while True:
        if task.done():
            exc = task.exception()
            raise RuntimeError(f"client stopped before becoming ready: {exc!r}") from exc
        if client.is_ready() and want <= {g.id for g in client.guilds if not g.unavailable}:
            return task
        if loop.time() > deadline:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            raise asyncio.TimeoutError(f"client not ready within {timeout}s")
        await asyncio.sleep(0.01)


async def stop_client(client: Any, timeout: float = 5.0) -> None:
    """Close a client started with :func:`start_client` and wait for its task to finish."""
    await client.close()
    task: Optional[asyncio.Task] = getattr(client, "_fake_discord_task", None)
    if task is not None:
        try:
            await asyncio.wait_for(task, timeout)
        except asyncio.CancelledError:
            pass
