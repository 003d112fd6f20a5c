"""Private delivery: each player's hand kept up to date in one DM per game, notes about what happened
to them, the **Show my hand** answer, and what happens when Discord refuses a DM (``cogs.refusals``)."""
from __future__ import annotations

from typing import Any, Hashable

import discord

from bot.coalesce import Coalescer
from bot.engine import Engine
from bot.storage import GameRow
from bot.tables import Outcome, TableError, seat_of
from cogs.embeds import alt_text, dm_retry_view, render_file
from cogs.limits import clip, fit

DM_CHANNELS_KEPT = 100_000  # users whose DM channel id is remembered (a few MB)


class DirectMessages:
    """``TableUI``'s part that talks to one player privately."""

    # set by TableUI:
    dm_channel_ids: dict[int, int]  # user id -> the id of their DM channel with the bot
    hands: Coalescer  # one DM at a time per (game, seat), running _send_latest_hand
    _dms_refused: dict[int, set[int]]  # game id -> seats whose DM Discord refused, not yet told

    async def deliver_private(self, game: GameRow, engine: Engine, outcome: Outcome) -> None:
        """DM each human whose private view changed (plus their private events). A player's DMs of a game go one
        at a time (``hands``): what later moves change meanwhile is sent after, once, with the hand as it is then
        and every note since. (Sent side by side, an older hand whose picture was slow to draw could land last.)"""
        notes: dict[int, list[str]] = {}
        for event in outcome.events:
            if "to" in event and event.get("text"):
                notes.setdefault(int(event["to"]), []).append(event["text"])
        for seat in sorted(outcome.changed_private | set(notes)):
            info = game.seats[seat]
            if not info.get("bot") and info.get("user_id"):
                await self.hands.submit((game.id, seat), notes.get(seat, []))
        closed = self._dms_refused.pop(game.id, set())
        newly_closed = [s for s in sorted(closed) if not game.seats[s].get("dm_closed")]
        if newly_closed:
            await self.tables.set_seat_info(game, {s: {"dm_closed": True} for s in newly_closed})
            channel = await self.channel(game.channel_id)
            if channel is not None:
                who = ", ".join(f"<@{game.seats[s]['user_id']}>" for s in newly_closed)
                await self.post(channel, f"{who}: I couldn't DM you your private information (your DMs are closed),"
                                " so I won't try again. Use `/game hand` or the **Show my hand** button to see it"
                                " privately. To get DMs back: allow direct messages from this server's members"
                                " (server name → Privacy Settings), then press **Try DMs again**.",
                                view=dm_retry_view(game), allowed_mentions=discord.AllowedMentions(users=True))

    async def _send_latest_hand(self, key: Hashable, batches: list[str]) -> None:
        """One DM of a seat's latest hand with the notes queued for it (``hands``' work); a refusal is remembered
        for the ``deliver_private`` that waits on it to tell the table."""
        game_id, seat = key  # type: ignore[misc]
        try:
            game = await self.tables.get(game_id)
        except TableError:  # the table is gone
            return
        info = game.seats[seat] if game.state is not None and seat < len(game.seats) else {}
        if info.get("bot") or not info.get("user_id"):
            return
        if not await self.send_private(game, self.tables.engine(game), seat, batches):
            self._dms_refused.setdefault(game_id, set()).add(seat)

    async def send_private(self, game: GameRow, engine: Engine, seat: int, notes: list[str]) -> bool:
        """Keep one DM per player per game up to date (edited in place, so a hand
        that changes every turn doesn't flood their DMs); anything that happened
        to them personally (``notes``) arrives as a new message, which notifies."""
        info = game.seats[seat]
        user_id = info["user_id"]
        if not self.bot.refusals.dm_allowed(user_id):  # Discord refused them before: don't knock again
            return False
        view = self.tables.view(game, seat)
        text = engine.private_text(view)
        if notes:
            text = "\n".join(f"• {n}" for n in notes) + "\n\n" + text
        content = clip(f"**{engine.meta.name}** · table #{game.id} in <#{game.channel_id}>\n{text}", 1990)
        file = await render_file(game, "private", view, filename="hand.png", background=True,
                                 description=alt_text(game, engine, "private", view))
        try:
            channel = await self.dm_channel(user_id)
            if info.get("dm") and not notes:
                try:
                    await channel.get_partial_message(info["dm"]).edit(
                        content=content, attachments=[file] if file is not None else [])
                    return True
                except discord.NotFound:  # they deleted it: send a new one
                    pass
            message = await (channel.send(content, file=file) if file is not None else channel.send(content))
        except discord.HTTPException as exc:
            await self.bot.refusals.dm_failed(user_id, exc)
            return False
        await self.tables.set_seat_info(game, {seat: {"dm": message.id, "dm_closed": False}})
        return True

    async def dm_channel(self, user_id: int) -> discord.DMChannel | discord.PartialMessageable:
        """The DM channel with a user, opened once (``POST users/@me/channels``) and then known by its id: a DM
        channel never changes, and discord.py keeps only the last 128 it opened, so with more players than that
        every DM cost one more request (fetching the user first cost one too, as the bot has no member cache)."""
        channel_id = self.dm_channel_ids.get(user_id)
        if channel_id is not None:
            return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        if len(self.dm_channel_ids) >= DM_CHANNELS_KEPT:
            self.dm_channel_ids.clear()
        self.dm_channel_ids[user_id] = channel.id
        return channel

    async def show_hand(self, interaction: discord.Interaction, game: GameRow) -> None:
        """Show a player their private view, privately (the **Show my hand** button)."""
        seat = seat_of(game, interaction.user.id)
        if seat is None:
            return await self.error(interaction, "You're not playing in this game, so you have no hand here.")
        if game.status != "running":
            return await self.error(interaction, "The game hasn't started yet." if game.status == "lobby"
                                    else "This game is over.")
        engine = self.tables.engine(game)
        view = self.tables.view(game, seat)
        # Answer Discord first (3-second deadline), then draw: the picture may wait for the worker.
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await render_file(game, "private", view, filename="hand.png",
                                 description=alt_text(game, engine, "private", view), urgent=True)
        kwargs: dict[str, Any] = {"ephemeral": True}
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**fit(engine.private_text(view), **kwargs))

    async def tell(self, user_id: int, text: str) -> bool:
        """A DM in words to one person (a host, about their table), unless their DMs are closed."""
        if not self.bot.refusals.dm_allowed(user_id):
            return False
        try:
            await (await self.dm_channel(user_id)).send(**fit(text))
        except discord.HTTPException as exc:
            await self.bot.refusals.dm_failed(user_id, exc)
            return False
        return True

    async def retry_dms(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The **Try DMs again** button: DMs back on for this player, and their hand sent now."""
        user_id = interaction.user.id
        await self.bot.refusals.dm_retry(user_id)
        seat = seat_of(game, user_id)
        if seat is None or game.status != "running":
            return await self.error(interaction, "DMs are back on: I'll send your private information by DM"
                                    " in your next game.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        if await self.send_private(game, self.tables.engine(game), seat, []):
            text = "✅ Sent: check your DMs. I'll keep your hand there up to date."
        else:
            text = ("Your DMs are still closed, so I'll stop trying again. Allow direct messages from this"
                    " server's members (server name → Privacy Settings), then press **Try DMs again**.")
        await interaction.followup.send(**fit(text, ephemeral=True))
