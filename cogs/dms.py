"""Private delivery: each player's hand kept up to date in one DM per game, notes about what happened to them,
the **Show my hand** answer, and what happens when Discord refuses a DM (``cogs.refusals``).

DMs have no interaction to ride, so each counts against Discord's global rate limit (``bot.sender``). So that a
busy bot spends its requests on what people wait for:

- **One hand message per player per game**, edited in place (an edit doesn't notify). A change made by the
  player's own click is already in that click's private reply (:meth:`DirectMessages.move_reply`), so the DM
  catches up at leisure (``OWN_MOVE_SPACING`` after the change, and after the last edit); a change made by
  someone else's move goes sooner (``HAND_SPACING`` after the change and the last edit: a burst of changes is
  one edit), and at once when it brings a note (something happened to that player). In games whose private
  views change on every move (Tower's standing, Sleeping Wizard) the spacings are what bound a hand's edits:
  at most one a minute per player.
- **A new, notifying DM** only when something happens to a player through someone else's move (a card passed
  to them, a card they were shown) and the game isn't waiting for them anyway (then the board pings them, and
  the note is on top of their hand): at most ``NOTIFYING_DMS`` per player per game, the first hand included.
- **Only a real refusal closes DMs**: 50007 ("Cannot send messages to this user"). A 429 waits and goes again
  (the sender), anything else is logged and tried again with the next change.
"""
from __future__ import annotations

from collections import deque
from typing import Any

import discord

from bot.engine import Engine
from bot.sender import DM, TIDY
from bot.storage import GameRow
from bot.tables import Outcome, TableError, seat_of
from cogs.embeds import alt_text, dm_retry_view, render_file
from cogs.limits import CONTENT, clip, fit
from cogs.refusals import CANNOT_DM

DM_CHANNELS_KEPT = 100_000  # users whose DM channel id is remembered (a few MB)
NOTIFYING_DMS = 5  # new (notifying) DMs per player per game at most, the first hand included
HAND_SPACING = 60.0  # seconds between two edits of a hand changed by other players' moves with no note to it
OWN_MOVE_SPACING = 120.0  # ... changed by the player's own click (its reply showed it at once)
RECENT_NOTES = 5  # notes kept on top of a hand message (each edit replaces the message's text)
RECENT_NOTES_KEPT = 50_000  # seats whose recent notes are remembered


class DirectMessages:
    """``TableUI``'s part that talks to one player privately."""

    # set by TableUI:
    dm_channel_ids: dict[int, int]  # user id -> the id of their DM channel with the bot
    _dms_refused: dict[int, set[int]]  # game id -> seats whose DM Discord refused (50007), not yet told
    _pending_notes: dict[tuple[int, int], list[str]]  # (game, seat) -> notes for the hand DM not sent yet
    _recent_notes: dict[tuple[int, int], deque[str]]  # (game, seat) -> the notes its hand message shows
    _notified: dict[tuple[int, int], int]  # (game, seat) -> notifying DMs sent or queued (the first hand included)
    _tasks_spawn: Any  # TableUI's: run a coroutine in the background (awaited by ``idle``)
    hand_spacing: float  # HAND_SPACING and OWN_MOVE_SPACING of this bot (tests that read DMs at once set 0)
    own_move_spacing: float

    def notified(self, game: GameRow, seat: int) -> int:
        """Notifying DMs this seat got in this game (stored, or counted since this process started)."""
        return max(self._notified.get((game.id, seat), 0), int(game.seats[seat].get("dm_notified", 0)))

    def move_reply(self, outcome: Outcome, user_id: int) -> str:
        """What a move did to its player, for the private reply to their click: the notes addressed to them
        and, when their private view changed, how it is now."""
        game = outcome.game
        seat = seat_of(game, user_id)
        if seat is None:
            return ""
        notes = [e["text"] for e in outcome.events if e.get("text") and "to" in e and int(e["to"]) == seat]
        parts = [f"• {note}" for note in notes]
        if seat in outcome.changed_private and game.state is not None and game.status == "running":
            parts.append(self.tables.engine(game).private_text(self.tables.view(game, seat)))
        return clip("\n".join(parts), CONTENT // 2)

    async def deliver_private(self, game: GameRow, engine: Engine, outcome: Outcome, *,
                              mover: int | None = None) -> None:
        """Keep the hand DMs of the humans whose private view changed up to date, and tell those whom someone
        else's move concerned (see the module docstring). ``mover``: the user whose click this answers (their
        reply showed them what changed)."""
        notes: dict[int, list[str]] = {}
        for event in outcome.events:
            if "to" in event and event.get("text"):
                notes.setdefault(int(event["to"]), []).append(event["text"])
        waiting = set(engine.to_act(game.state)) if game.status == "running" and game.state is not None else set()
        for seat in sorted(outcome.changed_private | set(notes)):
            info = game.seats[seat]
            if info.get("bot") or not info.get("user_id"):
                continue
            own = mover is not None and info["user_id"] == mover
            seat_notes = [] if own else notes.get(seat, [])
            if seat_notes and seat not in waiting and self.notified(game, seat) < NOTIFYING_DMS:
                self._send_note(game, engine, seat, seat_notes)
            self._queue_hand(game, seat, seat_notes, prompt=bool(seat_notes), own=own)

    async def _tell_closed(self, game_id: int) -> None:
        """Tell a table, once, whose DMs Discord refused (50007), without their secret."""
        try:
            game = await self.tables.get(game_id)
        except TableError:
            return
        closed = self._dms_refused.pop(game.id, set())
        newly_closed = [s for s in sorted(closed) if not game.seats[s].get("dm_closed")]
        if not newly_closed:
            return
        await self.tables.set_seat_info(game, {s: {"dm_closed": True} for s in newly_closed})
        channel = await self.channel(game.channel_id)
        if channel is not None:
            who = ", ".join(f"<@{game.seats[s]['user_id']}>" for s in newly_closed)
            await self.post(channel, f"{who}: I couldn't DM you your private information (your DMs are closed),"
                            " so I won't try again. Use `/game hand` or the **Show my hand** button to see it"
                            " privately. To get DMs back: allow direct messages from this server's members"
                            " (server name → Privacy Settings), then press **Try DMs again**.",
                            view=dm_retry_view(game), allowed_mentions=discord.AllowedMentions(users=True))

    def _queue_hand(self, game: GameRow, seat: int, notes: list[str], *, prompt: bool, own: bool) -> None:
        """Bring a seat's hand DM up to date through the sender: one edit for a burst of changes, its notes kept
        until it goes."""
        key = (game.id, seat)
        self._pending_notes.setdefault(key, []).extend(notes)
        first = not game.seats[seat].get("dm")
        spacing = 0.0 if first or prompt else self.own_move_spacing if own else self.hand_spacing
        priority = TIDY if own and not first else DM
        # Counted from the change too, not only from the last edit: after a quiet spell the first change doesn't
        # go at once, so the changes that follow it (the next moves, the player's next click) are the same edit.
        self.bot.sender.submit(priority, lambda: self._send_latest_hand(game.id, seat), key=("hand", game.id, seat),
                               spacing=spacing, delay=spacing, lazy=True)

    def _send_note(self, game: GameRow, engine: Engine, seat: int, notes: list[str]) -> None:
        """A new DM (it notifies) about what someone else's move did to this seat."""
        user_id = game.seats[seat]["user_id"]
        text = "\n".join(f"• {note}" for note in notes)
        content = clip(f"**{engine.meta.name}** · table #{game.id} in <#{game.channel_id}>\n{text}", CONTENT)

        async def send() -> None:
            if not self.bot.refusals.dm_allowed(user_id):
                return
            channel = await self.dm_channel(user_id)
            try:
                await channel.send(content)
            except discord.HTTPException as exc:
                if exc.status == 429:
                    raise
                await self._dm_failed(game.id, seat, user_id, exc)
                return
            current = await self.tables.get(game.id)
            await self.tables.set_seat_info(current, {seat: {"dm_notified": self.notified(current, seat)}})

        self._notified[(game.id, seat)] = self.notified(game, seat) + 1  # counted as it is queued
        self.bot.sender.submit(DM, send)

    async def _send_latest_hand(self, game_id: int, seat: int) -> None:
        """One DM of a seat's latest hand with the notes queued for it (the sender's job)."""
        notes = self._pending_notes.pop((game_id, seat), [])
        try:
            game = await self.tables.get(game_id)
        except TableError:  # the table is gone
            return
        info = game.seats[seat] if game.state is not None and seat < len(game.seats) else {}
        if info.get("bot") or not info.get("user_id"):
            return
        try:
            await self.send_private(game, self.tables.engine(game), seat, notes)
        except discord.HTTPException as exc:
            if exc.status == 429:  # the sender waits and runs it again: keep the notes for then
                self._pending_notes.setdefault((game_id, seat), [])[:0] = notes
            raise

    async def send_private(self, game: GameRow, engine: Engine, seat: int, notes: list[str]) -> bool:
        """Keep one DM per player per game up to date, edited in place (``notes`` on top). False if it could
        not be sent (a refusal is remembered: 50007 closes the player's DMs). A 429 is raised, for the sender
        to wait and send it again."""
        info = game.seats[seat]
        user_id = info["user_id"]
        if not self.bot.refusals.dm_allowed(user_id):  # Discord refused them before: don't knock again
            self._closed_at_table(game.id, seat)
            return False
        view = self.tables.view(game, seat)
        text = engine.private_text(view)
        recent = self._recent_notes.setdefault((game.id, seat), deque(maxlen=RECENT_NOTES))
        recent.extend(notes)
        if len(self._recent_notes) > RECENT_NOTES_KEPT:
            self._recent_notes.clear()
        if recent:
            text = "**Lately:**\n" + "\n".join(f"• {n}" for n in recent) + "\n\n" + text
        content = clip(f"**{engine.meta.name}** · table #{game.id} in <#{game.channel_id}>\n{text}", 1990)
        file = await render_file(game, "private", view, filename="hand.png", background=True,
                                 description=alt_text(game, engine, "private", view))
        try:
            channel = await self.dm_channel(user_id)
            if info.get("dm"):
                try:
                    await channel.get_partial_message(info["dm"]).edit(
                        content=content, attachments=[file] if file is not None else [])
                    return True
                except discord.NotFound:  # they deleted it: send a new one
                    if file is not None:
                        file.reset()
            message = await (channel.send(content, file=file) if file is not None else channel.send(content))
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise
            await self._dm_failed(game.id, seat, user_id, exc)
            return False
        changes: dict[str, Any] = {"dm": message.id, "dm_closed": False}
        if not info.get("dm"):  # a new hand message notifies
            self._notified[(game.id, seat)] = self.notified(game, seat) + 1
            changes["dm_notified"] = self._notified[(game.id, seat)]
        await self.tables.set_seat_info(game, {seat: changes})
        return True

    async def _dm_failed(self, game_id: int, seat: int, user_id: int, exc: discord.HTTPException) -> None:
        """A DM was refused: only 50007 means the player's DMs are closed (the table is told once)."""
        await self.bot.refusals.dm_failed(user_id, exc)
        if exc.code == CANNOT_DM:
            self._closed_at_table(game_id, seat)

    def _closed_at_table(self, game_id: int, seat: int) -> None:
        """This seat's DMs are closed: its table is told (once; nothing if it knows already)."""
        first = game_id not in self._dms_refused
        self._dms_refused.setdefault(game_id, set()).add(seat)
        if first:
            self._tasks_spawn(self._tell_closed(game_id))

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

        async def send() -> None:
            await (await self.dm_channel(user_id)).send(**fit(text))

        try:
            await self.bot.sender.send(DM, send)
        except discord.HTTPException as exc:
            await self.bot.refusals.dm_failed(user_id, exc)
            return False
        return True

    async def retry_dms(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The **Try DMs again** button: DMs back on for this player, and their hand sent now (once a minute at
        most: each try is a DM, and a refused one counts against the bot)."""
        user_id = interaction.user.id
        wait = self.bot.sender.users.check(user_id, "dm-retry")
        if wait is not None:
            return await self.error(interaction, f"I just tried: please wait {int(wait) + 1} seconds before trying"
                                    " again (each try is a DM, and Discord counts refused ones against me).")
        await self.bot.refusals.dm_retry(user_id)
        seat = seat_of(game, user_id)
        if seat is None or game.status != "running":
            return await self.error(interaction, "DMs are back on: I'll send your private information by DM"
                                    " in your next game.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        self._pending_notes.pop((game.id, seat), None)
        try:
            sent = await self.bot.sender.send(DM, lambda: self.send_private(game, self.tables.engine(game), seat, []),
                                              key=("hand", game.id, seat))
        except discord.HTTPException:
            sent = False
        if sent:
            text = "✅ Sent: check your DMs. I'll keep your hand there up to date."
        else:
            text = ("Your DMs are still closed, so I'll stop trying again. Allow direct messages from this"
                    " server's members (server name → Privacy Settings), then press **Try DMs again**.")
        await interaction.followup.send(**fit(text, ephemeral=True))
