"""Discord's 3-second deadline for an interaction's first answer, met whatever the work behind it.

A move can hand the turn to bots, and a hard bot thinks in a worker process (``bot.search.pool``)
for up to a few hundred milliseconds a move: several in a row, or a busy worker, can outlast the
deadline. :func:`in_time` awaits the work and, if it is not done within ``DEFER_AFTER`` seconds,
acknowledges the interaction first (a deferred update for a click, a deferred private reply for a
command); :func:`edit_reply` and :func:`reply` then answer the right way in either case."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

log = logging.getLogger("heistcord.ui")

DEFER_AFTER = 1.5  # seconds: well inside Discord's 3, leaving room for the network and a busy loop
T = TypeVar("T")


async def in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """The result of ``work``; the interaction is acknowledged meanwhile if it takes long."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        try:
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()  # the panel stays as it is until it is edited
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:  # too late already: the answer below fails the same way
            log.warning("could not acknowledge a slow interaction: %s", exc)
    return await task


async def edit_reply(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a click came from: directly, or after :func:`in_time` deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def reply(interaction: discord.Interaction, **kwargs: Any) -> None:
    """A private answer to a command: directly, or filling in :func:`in_time`'s deferred reply (through Edit
    Original Interaction Response: Discord's docs call the old way, a first follow-up, deprecated)."""
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(**kwargs)
    elif interaction.response.is_done():
        await interaction.followup.send(**kwargs, ephemeral=True)
    else:
        await interaction.response.send_message(**kwargs, ephemeral=True)
