"""The fake Discord is as strict as Discord about the 3-second initial response."""
from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from tests.fakediscord.fixtures import start_client, stop_client

GUILD, CHANNEL, USER = 7001, 7002, 7003


async def test_an_answer_after_the_deadline_is_refused(fake_discord):
    fake = fake_discord
    fake.add_guild(GUILD, name="G", owner_id=USER)
    fake.add_channel(GUILD, CHANNEL, "general")
    fake.add_user(USER, "u")
    fake.add_member(GUILD, USER)
    assert fake.initial_response_deadline == 3.0  # Discord's
    failures: list[Exception] = []
    late_now = asyncio.Event()
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="slow", description="answers late", guild=discord.Object(GUILD))
    async def slow(interaction: discord.Interaction) -> None:
        await late_now.wait()  # (the test moves the interaction's clock past the deadline: no waiting, no race)
        try:
            await interaction.response.send_message("late")
        except discord.NotFound as exc:
            failures.append(exc)

    @tree.command(name="quick", description="defers in time", guild=discord.Object(GUILD))
    async def quick(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.1)
        await interaction.followup.send("done")

    client.setup_hook = lambda: tree.sync(guild=discord.Object(GUILD))
    await start_client(client, fake)
    try:
        late = await fake.slash(USER, CHANNEL, "slow")
        late.created_at -= fake.initial_response_deadline + 0.1  # sent 3.1 s ago, as far as the deadline goes
        late_now.set()
        await fake.wait_for(lambda: failures, timeout=10)
        assert late.callback is None and late in fake.expired and failures[0].code == 10062
        ok = await fake.slash(USER, CHANNEL, "quick")
        await ok.wait_done(timeout=10)
        assert ok.message.content == "done" and ok not in fake.expired
    finally:
        await stop_client(client)
