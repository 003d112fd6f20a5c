"""The one component router: every heistcord button and select, on any message and after any restart,
comes to ``ComponentRouter`` (from discord.py's ``interaction`` event), whose custom id (``cogs.customid``)
picks a handler in the ``ROUTES`` table."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Awaitable, Callable

import discord

from bot.storage import GameRow
from bot.tables import TableError
from cogs import customid
from cogs.deadline import edit_reply, in_time, reply
from cogs.embeds import lobby_embed, lobby_view

if TYPE_CHECKING:
    from bot.app import HeistBot

PREFIX = "hc:"  # every heistcord custom id starts so (cogs.customid); a damaged one is answered, strictly parsed


class ComponentRouter:
    """Every heistcord button and select, whatever message it sits on: discord.py's ``interaction`` event brings
    each click here. (A ``DynamicItem`` did it before; discord.py then rebuilt the clicked message's whole view
    first, every button and select option of a panel, at each click.)"""

    @staticmethod
    async def on_interaction(interaction: discord.Interaction) -> None:
        """Hand a click on a heistcord component, its custom id and selected values to the table UI."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str) or not custom_id.startswith(PREFIX):
            return
        bot: HeistBot = interaction.client  # type: ignore[assignment]
        await bot.ui.handle_component(interaction, custom_id, [str(v) for v in data.get("values") or []])


class ComponentHandlers:
    """``TableUI``'s part that answers a click: the custom id's kind picks a handler in ``ROUTES``."""

    async def handle_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        """Parse a click's custom id and run its kind's handler; a damaged id or refusal is answered in a sentence."""
        try:
            parts = customid.parse(custom_id)
            if interaction.guild_id:
                await self.bot.permissions.refresh(interaction.guild_id)
            await self._handle_component(interaction, parts, values)
        except TableError as exc:
            await self.error(interaction, str(exc))

    async def _handle_component(self, interaction: discord.Interaction, parts: customid.CustomId,
                                values: list[str]) -> None:
        handler = ROUTES.get(parts.kind)
        if handler is None:
            raise customid.BadInputError(customid.DAMAGED)
        await handler(self, interaction, parts, values)

    async def _edit_lobby(self, interaction: discord.Interaction, game: GameRow) -> None:
        await interaction.response.edit_message(embed=lobby_embed(game, self.tables.engine(game)),
                                                view=lobby_view(game))

    async def _on_join(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        user = interaction.user
        await self._edit_lobby(interaction, await self.tables.join(parts.game_id, user.id, user.display_name))

    async def _on_leave(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        game, outcome = await in_time(interaction, self.tables.leave(parts.game_id, interaction.user.id))
        if outcome is not None:
            await reply(interaction, content="You left the game.")
            await self.publish(outcome, interaction=interaction)
        else:
            await self._edit_lobby(interaction, game)

    async def _on_bot(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        await self._edit_lobby(interaction, await self.tables.add_bot(parts.game_id, interaction.user.id))

    async def _on_start(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        outcome = await in_time(interaction, self.tables.start(
            parts.game_id, interaction.user.id, is_manager=self.bot.permissions.is_manager(interaction)))
        await edit_reply(interaction, embed=lobby_embed(outcome.game, self.tables.engine(outcome.game)), view=None)
        await self.open_thread(outcome.game, interaction=interaction)
        await self.publish(outcome, interaction=interaction)

    async def _on_play(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        await self.show_panel(interaction, await self.tables.get(parts.game_id))

    async def _on_hand(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        await self.show_hand(interaction, await self.tables.get(parts.game_id))

    async def _on_end(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        user = interaction.user
        game = await self.tables.get(parts.game_id)
        if not (user.id == game.host_id or self.bot.permissions.is_manager(interaction)):
            raise TableError("Only the host or a game manager can end this game.")
        await self.tables.end(parts.game_id, f"Ended by {user.display_name}.")
        await interaction.response.edit_message(content="The game was ended.", view=None)
        await self.announce_end(game)

    async def _on_dm(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        await self.retry_dms(interaction, await self.tables.get(parts.game_id))

    async def _on_cancel(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        await interaction.response.edit_message(content="The game goes on.", view=None)

    async def _on_move(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        """A move button (``act``: the index is in the id) or a move select (``sel``: the index is the value)."""
        if parts.kind == "sel" and len(values) != 1:
            raise customid.BadInputError(customid.DAMAGED)
        index = customid.parse_index(values[0]) if parts.kind == "sel" else parts.n
        game = await self.tables.get(parts.game_id)
        try:
            outcome = await in_time(interaction, self.tables.act(parts.game_id, interaction.user.id,
                                                                 version=parts.version, index=index))
        except TableError as exc:
            if "out of date" in str(exc):
                return await self.show_panel(interaction, game, prefix=f"{exc}\n", edit=True)
            raise
        # The board's picture is drawn while the reply goes out: started as soon as this task waits for Discord
        # (the reply's request is then written), so the reply's own work is not delayed by it.
        asyncio.get_running_loop().call_soon(self.draw_board_early, outcome.game)
        done = f"✅ {outcome.label}\n" if outcome.label else "✅ Done.\n"
        private = self.move_reply(outcome, interaction.user.id)  # what the move did to them, in their reply
        done += f"{private}\n" if private else ""
        if outcome.game.status == "running":
            await self.show_panel(interaction, outcome.game, prefix=done, edit=True)
        else:
            await edit_reply(interaction, content=done + "The game is over.", view=None)
        await self.publish(outcome, interaction=interaction)


Handler = Callable[[Any, discord.Interaction, customid.CustomId, list[str]], Awaitable[None]]

# One handler per custom id kind (``cogs.customid`` lists the kinds).
ROUTES: dict[str, Handler] = {
    "join": ComponentHandlers._on_join,
    "leave": ComponentHandlers._on_leave,
    "bot": ComponentHandlers._on_bot,
    "start": ComponentHandlers._on_start,
    "play": ComponentHandlers._on_play,
    "hand": ComponentHandlers._on_hand,
    "end": ComponentHandlers._on_end,
    "dm": ComponentHandlers._on_dm,
    "cancel": ComponentHandlers._on_cancel,
    "act": ComponentHandlers._on_move,
    "sel": ComponentHandlers._on_move,
}
