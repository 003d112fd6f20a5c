"""The move panel: the ephemeral message of buttons (a few moves) or grouped select menus
(many moves) built from ``legal_actions``, and how ``TableUI`` shows it."""
from __future__ import annotations

from typing import Any

import discord

from bot.engine import Engine
from bot.storage import GameRow
from bot.tables import seat_of
from cogs import customid
from cogs.deadline import edit_reply
from cogs.embeds import new_view
from cogs.limits import BUTTON_LABEL, OPTION_TEXT, PLACEHOLDER, SELECT_OPTIONS, clip, fit

MAX_BUTTONS = 20
SELECT_LIMIT = SELECT_OPTIONS


def pack_menus(groups: list[tuple[str, list[int]]], total: int) -> list[tuple[str, list[int]]]:
    """Fit grouped action indexes into at most five select menus of at most 25
    options (Discord's limits): split big groups, merge the smallest pairs that
    fit; if the groups still need more than five menus, page all moves in order."""
    menus: list[tuple[str, list[int]]] = []
    for name, idxs in groups:
        chunks = [idxs[k:k + SELECT_LIMIT] for k in range(0, len(idxs), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks):
            menus.append((name if len(chunks) == 1 else f"{name} ({n + 1}/{len(chunks)})", chunk))
    while len(menus) > 5:
        pairs = [(len(menus[i][1]) + len(menus[j][1]), i, j)
                 for i in range(len(menus)) for j in range(i + 1, len(menus))]
        fitting = [p for p in pairs if p[0] <= SELECT_LIMIT]
        if not fitting:
            break
        _, i, j = min(fitting)
        merged = (f"{menus[i][0]} / {menus[j][0]}", sorted(menus[i][1] + menus[j][1]))
        menus[i] = merged
        del menus[j]
    if len(menus) > 5:
        order = sorted(i for _, idxs in menus for i in idxs)
        menus = [(f"Moves {k + 1}-{min(k + SELECT_LIMIT, total)}", order[k:k + SELECT_LIMIT])
                 for k in range(0, len(order), SELECT_LIMIT)]
    return menus[:5]


def build_panel(game: GameRow, engine: Engine, seat: int) -> tuple[str, discord.ui.View | None]:
    """The ephemeral panel: buttons for a few moves, select menus (grouped) for many."""
    state = game.state
    status = engine.status_line(state)
    if seat not in engine.to_act(state):
        return f"It's not your turn. {status}", None
    legal = engine.legal_actions(state, seat)
    if not legal:
        return f"You have no move right now. {status}", None
    labels = [engine.describe_action(state, seat, a) for a in legal]
    view = new_view()
    if len(legal) <= MAX_BUTTONS:
        for i, label in enumerate(labels):
            view.add_item(discord.ui.Button(label=clip(label, BUTTON_LABEL), style=discord.ButtonStyle.primary,
                                            custom_id=customid.encode("act", game.id, game.version, i)))
        return f"**Your move.** {status}", view
    groups: dict[str, list[int]] = {}
    for i, action in enumerate(legal):
        groups.setdefault(clip(engine.action_group(state, seat, action), 60), []).append(i)
    menus = pack_menus(list(groups.items()), len(legal))
    for n, (name, idxs) in enumerate(menus):
        select = discord.ui.Select(placeholder=clip(name, PLACEHOLDER),
                                   custom_id=customid.encode("sel", game.id, game.version, n),
                                   options=[discord.SelectOption(label=clip(labels[i], OPTION_TEXT),
                                                                 value=customid.encode_index(i)) for i in idxs])
        view.add_item(select)
    shown = sum(len(idxs) for _, idxs in menus)
    if shown < len(legal):
        status += f"\n({len(legal) - shown} more moves: type `/game move` to search them all.)"
    return f"**Your move.** {status}", view


class PanelReplies:
    """``TableUI``'s part that answers **Play** with the panel (or refreshes it after a move)."""

    async def show_panel(self, interaction: discord.Interaction, game: GameRow, prefix: str = "",
                         edit: bool = False) -> None:
        """Answer with the player's move panel (or edit it after a move); a refusal if they can't act."""
        seat = seat_of(game, interaction.user.id)
        if seat is None:
            return await self.error(interaction, "You're not playing in this game: you can watch, but only seated"
                                    " players act.")
        if game.status != "running":
            return await self.error(interaction, "The game hasn't started yet." if game.status == "lobby"
                                    else "This game is over.")
        text, view = build_panel(game, self.tables.engine(game), seat)
        if game.channel_id in self.bot.refusals.muted_channels:
            text += ("\n⚠️ Discord won't let me post in this channel (missing permissions): boards still come with"
                     " each move, but reminders and timed moves aren't posted, so please ask a server admin.")
        kwargs: dict[str, Any] = fit(prefix + text)
        if view is not None:
            kwargs["view"] = view
        if edit:
            if view is None:
                kwargs["view"] = None
            await edit_reply(interaction, **kwargs)
        else:
            await interaction.response.send_message(**kwargs, ephemeral=True)
