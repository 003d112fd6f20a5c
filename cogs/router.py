"""The one component router: every heistcord button and select, on any message and after any restart,
comes to ``ComponentRouter`` (from discord.py's ``interaction`` event), whose custom id (``cogs.customid``)
picks a handler in the ``ROUTES`` table."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import CommitUnknownError, GameRow, StorageError, answering, current_answering
from bot.tables import TableError, seat_of
from cogs import customid
from cogs.deadline import edit_reply, in_time, reply
from cogs.embeds import lobby_embed, lobby_view
from cogs.panel import PanelReplies

if TYPE_CHECKING:
    from bot.app import HeistBot

PREFIX = "hc:"  # every heistcord custom id starts so (cogs.customid); a damaged one is answered, strictly parsed

log = logging.getLogger("heistcord.ui")

# What a player is told when the database fails them: each sentence true of what happened (issue 27, item 2).
UNAVAILABLE = ("I couldn't do that: the database isn't answering right now, so nothing changed."
               " Please try again in a moment.")
SAVED_THEN_UNAVAILABLE = ("That was saved, but then the database stopped answering, so I couldn't finish"
                          " (the board may come late). Please look again in a moment.")
SAVE_UNKNOWN = ("The database stopped answering while saving that, so I can't tell yet whether it counted: if it"
                " did, a new board will show it here. Please look again in a moment.")


# The kinds of custom id whose number is a game's id (cogs.customid), and those a player may use from a DM: their
# own seat's moves and hand.
GAME_KINDS = frozenset({"join", "leave", "bot", "start", "play", "hand", "end", "dm", "act", "sel", "help"})
OWN_SEAT_KINDS = frozenset({"play", "hand", "dm", "act", "sel", "help"})
ANOTHER_SERVER = "That button belongs to a table on another server, so it does nothing here."
FROM_A_DM = "That button works on the table's own server, not in a direct message."


def database_trouble(exc: StorageError) -> str:
    """The sentence for a player whose click or command the database failed (and one log line, no traceback):
    nothing changed, or what was saved before it failed, or that a save's outcome is not known yet."""
    current = current_answering()
    if isinstance(exc, CommitUnknownError):
        text = SAVE_UNKNOWN
    elif current is not None and current.saved:
        text = SAVED_THEN_UNAVAILABLE
    else:
        text = UNAVAILABLE
    log.warning("told a player the database failed them: %s", exc)
    return text


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
        bot: HeistBot = interaction.client  # type: ignore[assignment]
        if not isinstance(custom_id, str) or not custom_id.startswith(PREFIX):
            # Not one of ours (every component the bot sends is: discord.py listens on none), or damaged past its
            # prefix: answered all the same, or Discord says "This interaction failed".
            await bot.ui.error(interaction, customid.DAMAGED)
            return
        await bot.ui.handle_component(interaction, custom_id, [str(v) for v in data.get("values") or []])


class ComponentHandlers:
    """``TableUI``'s part that answers a click: the custom id's kind picks a handler in ``ROUTES``."""

    async def handle_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        """Parse a click's custom id and run its kind's handler; a damaged id or refusal is answered in a sentence,
        and so is a database that fails (in time: its waits end before Discord's deadline, ``answering``)."""
        answering(interaction.response.is_done)
        try:
            parts = customid.parse(custom_id)
            if interaction.guild_id:
                await self.bot.permissions.refresh(interaction.guild_id)
            await self._handle_component(interaction, parts, values)
        except TableError as exc:
            await self.error(interaction, str(exc))
        except StorageError as exc:
            await self.error(interaction, database_trouble(exc))

    async def _handle_component(self, interaction: discord.Interaction, parts: customid.CustomId,
                                values: list[str]) -> None:
        handler = ROUTES.get(parts.kind)
        if handler is None:
            raise customid.BadInputError(customid.DAMAGED)
        if parts.kind in GAME_KINDS:
            await self._check_where(interaction, parts)
        await handler(self, interaction, parts, values)

    async def _check_where(self, interaction: discord.Interaction, parts: customid.CustomId) -> None:
        """Defence in depth: a button naming a game acts on it only from that game's server, or from a DM for a
        player's own seat (the bot never sends another server's buttons; a forged or misrouted id is refused)."""
        game = await self.tables.get(parts.game_id)
        if interaction.guild_id is None:
            if parts.kind not in OWN_SEAT_KINDS or seat_of(game, interaction.user.id) is None:
                raise TableError(FROM_A_DM)
        elif interaction.guild_id != game.guild_id:
            raise TableError(ANOTHER_SERVER)

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
            await self.show_panel(interaction, outcome.game, prefix=done, edit=True, outcome=outcome)
        else:
            await edit_reply(interaction, content=done + "The game is over.", view=None)
        await self.publish(outcome, interaction=interaction)


Handler = Callable[[Any, discord.Interaction, customid.CustomId, list[str]], Awaitable[None]]


def lessons(bot: Any) -> Any:
    """The bot's ``Lessons`` cog (``cogs/learn.py``, loaded as an extension: reached through the bot, never
    imported, so there is one copy of it)."""
    cog = bot.get_cog("Lessons")
    if cog is None:
        raise TableError("Lessons aren't available right now. Please try again in a moment.")
    return cog


async def _teaching(ui: Any, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
    """How to play, Full rules, Learn by playing and a lesson's buttons: the ``Lessons`` cog answers them."""
    await lessons(ui.bot).on_component(interaction, parts, values)


async def _join_then_offer(ui: Any, interaction: discord.Interaction, parts: customid.CustomId,
                           values: list[str]) -> None:
    """The lobby's **Join**, then, at a player's first table of the game, How to play and the lesson offered."""
    await ui._on_join(interaction, parts, values)
    await lessons(ui.bot).offer(interaction, await ui.tables.get(parts.game_id))


# One handler per custom id kind (``cogs.customid`` lists the kinds).
ROUTES: dict[str, Handler] = {
    "join": _join_then_offer,
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
    "help": PanelReplies._on_help,  # a move panel's "?"
    # teaching (the Lessons cog): how to play, the full rules doc, the tutorial and its buttons
    "howto": _teaching,
    "rules": _teaching,
    "learn": _teaching,
    "tact": _teaching,
    "tsel": _teaching,
    "tnext": _teaching,
    "thelp": _teaching,
    "tagain": _teaching,
    "tquit": _teaching,
}
