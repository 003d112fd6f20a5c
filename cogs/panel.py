"""The move panel: the ephemeral message of buttons (a few moves) or grouped select menus
(many moves) built from ``legal_actions``, with a "?" that explains the moves on offer, and how
``TableUI`` shows it. The tutorial's panel (``cogs.learn``) is built by the same ``add_moves``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.engine import Engine
from bot.storage import GameRow
from bot.tables import Outcome, TableError, seat_of
from cogs import customid
from cogs.deadline import edit_reply
from cogs.embeds import EMBED_COLOUR, new_view
from cogs.limits import (
    ACTION_ROWS,
    BUTTON_LABEL,
    EMBED_DESCRIPTION,
    OPTION_TEXT,
    PLACEHOLDER,
    SELECT_OPTIONS,
    clip,
    fit,
)

MAX_BUTTONS = 20
SELECT_LIMIT = SELECT_OPTIONS
MOVE_ROWS = ACTION_ROWS - 1  # the last row is the panel's own: "?" (and the tutorial's Next, Start over, Quit)
CONTROL_ROW = ACTION_ROWS - 1


def pack_menus(groups: list[tuple[str, list[int]]], total: int, rows: int = MOVE_ROWS) -> list[tuple[str, list[int]]]:
    """Fit grouped action indexes into at most ``rows`` select menus of at most 25
    options (Discord's limits): split big groups, merge the smallest pairs that
    fit; if the groups still need more menus, page all moves in order."""
    menus: list[tuple[str, list[int]]] = []
    for name, idxs in groups:
        chunks = [idxs[k:k + SELECT_LIMIT] for k in range(0, len(idxs), SELECT_LIMIT)]
        for n, chunk in enumerate(chunks):
            menus.append((name if len(chunks) == 1 else f"{name} ({n + 1}/{len(chunks)})", chunk))
    while len(menus) > rows:
        pairs = [(len(menus[i][1]) + len(menus[j][1]), i, j)
                 for i in range(len(menus)) for j in range(i + 1, len(menus))]
        fitting = [p for p in pairs if p[0] <= SELECT_LIMIT]
        if not fitting:
            break
        _, i, j = min(fitting)
        merged = (f"{menus[i][0]} / {menus[j][0]}", sorted(menus[i][1] + menus[j][1]))
        menus[i] = merged
        del menus[j]
    if len(menus) > rows:
        order = sorted(i for _, idxs in menus for i in idxs)
        menus = [(f"Moves {k + 1}-{min(k + SELECT_LIMIT, total)}", order[k:k + SELECT_LIMIT])
                 for k in range(0, len(order), SELECT_LIMIT)]
    return menus[:rows]


def add_moves(view: discord.ui.View, engine: Engine, state: dict[str, Any], seat: int, legal: list[dict[str, Any]],
              button_id: Callable[[int], str], select_id: Callable[[int], str]) -> int:
    """The moves ``legal`` on ``view`` within its first four rows: a button each for a few, grouped select menus
    for many (``button_id(move index)``, ``select_id(menu number)`` give their custom ids; a select's values
    are move indexes). Returns how many moves are offered (the rest can be typed with ``/game move``)."""
    labels = [engine.describe_action(state, seat, a) for a in legal]
    if len(legal) <= MAX_BUTTONS:
        for i, label in enumerate(labels):
            view.add_item(discord.ui.Button(label=clip(label, BUTTON_LABEL), style=discord.ButtonStyle.primary,
                                            custom_id=button_id(i)))
        return len(legal)
    groups: dict[str, list[int]] = {}
    for i, action in enumerate(legal):
        groups.setdefault(clip(engine.action_group(state, seat, action), 60), []).append(i)
    menus = pack_menus(list(groups.items()), len(legal))
    for n, (name, idxs) in enumerate(menus):
        view.add_item(discord.ui.Select(placeholder=clip(name, PLACEHOLDER), custom_id=select_id(n),
                                        options=[discord.SelectOption(label=clip(labels[i], OPTION_TEXT),
                                                                      value=customid.encode_index(i)) for i in idxs]))
    return sum(len(idxs) for _, idxs in menus)


def help_button(custom_id: str) -> discord.ui.Button:
    """The panel's "?": what each kind of move on offer does, privately."""
    return discord.ui.Button(label="What do these do?", emoji="❔", style=discord.ButtonStyle.secondary,
                             custom_id=custom_id, row=CONTROL_ROW)


def help_embed(engine: Engine, state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> discord.Embed:
    """The "?" answer: for each kind of move offered now, the moves of that kind as the panel names them and the
    game's one line of help (``Engine.action_help``)."""
    lines = engine.action_help(state, seat, legal) if legal else {}
    kinds: dict[str, list[str]] = {}
    for action in legal:
        kinds.setdefault(str(action.get("type")), []).append(engine.describe_action(state, seat, action))
    parts = []
    for kind, labels in kinds.items():
        shown = " · ".join(f"**{clip(label, 60)}**" for label in labels[:3])
        if len(labels) > 3:
            shown += f" and {len(labels) - 3} more like them"
        parts.append(f"{shown}\n{lines.get(kind) or 'No help is written for this kind of move yet.'}")
    if not parts:
        parts.append("You have no move to make right now.")
    elif not lines:
        parts.append(f"_{engine.meta.name} has no help for its moves yet: `/game rules game:{engine.meta.key}`"
                     " sums up the rules._")
    return discord.Embed(title="What your options do", description=clip("\n\n".join(parts), EMBED_DESCRIPTION),
                         colour=EMBED_COLOUR)


def names(game: GameRow, seats: list[int]) -> str:
    """Seats by name, without pinging anyone ("Ann", "Ann and Bob", "Ann, Bob and Cid")."""
    shown = [str(game.seats[s].get("name") or f"Seat {s + 1}") for s in seats]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def after_move(game: GameRow, engine: Engine, seat: int, outcome: Outcome) -> str:
    """What a player's move panel says once their move is made and they have none left: a choice made together
    with others is locked in while they decide ("Locked in; waiting for Dave."), else the game's status."""
    waiting = [s for s in engine.to_act(game.state) if s != seat] if game.state else []
    if waiting and not outcome.turn_passed:
        return f"🔒 Locked in; waiting for {names(game, waiting)}."
    return engine.status_line(game.state) if game.state else ""


def build_panel(game: GameRow, engine: Engine, seat: int,
                outcome: Outcome | None = None) -> tuple[str, discord.ui.View | None]:
    """The ephemeral panel: buttons for a few moves, select menus (grouped) for many, and "?". ``outcome``: the
    move the player just made (their panel then says what happens next rather than "not your turn")."""
    state = game.state
    status = engine.status_line(state)
    if seat not in engine.to_act(state):
        if outcome is not None:
            return after_move(game, engine, seat, outcome), None
        return f"It's not your turn. {status}", None
    legal = engine.legal_actions(state, seat)
    if not legal:
        return f"You have no move right now. {status}", None
    view = new_view()
    shown = add_moves(view, engine, state, seat, legal,
                      lambda i: customid.encode("act", game.id, game.version, i),
                      lambda n: customid.encode("sel", game.id, game.version, n))
    view.add_item(help_button(customid.encode("help", game.id)))
    if shown < len(legal):
        status += f"\n({len(legal) - shown} more moves: type `/game move` to search them all.)"
    return f"**Your move.** {status}", view


class PanelReplies:
    """``TableUI``'s part that answers **Play** with the panel (or refreshes it after a move), and its "?"."""

    async def show_panel(self, interaction: discord.Interaction, game: GameRow, prefix: str = "",
                         edit: bool = False, outcome: Outcome | None = None) -> None:
        """Answer with the player's move panel (or edit it after a move); a refusal if they can't act."""
        seat = seat_of(game, interaction.user.id)
        if seat is None:
            return await self.error(interaction, "You're not playing in this game: you can watch, but only seated"
                                    " players act.")
        if game.status != "running":
            return await self.error(interaction, "The game hasn't started yet." if game.status == "lobby"
                                    else "This game is over.")
        text, view = build_panel(game, self.tables.engine(game), seat, outcome)
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

    async def _on_help(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        """A move panel's "?": what the moves on offer now do, in a private message beside the panel."""
        game = await self.tables.get(parts.game_id)
        seat = seat_of(game, interaction.user.id)
        if seat is None:
            raise TableError("You're not playing in this game, so you have no moves to explain.")
        if game.status != "running" or game.state is None:
            raise TableError("This game is over." if game.status != "lobby" else "The game hasn't started yet.")
        engine = self.tables.engine(game)
        legal = engine.legal_actions(game.state, seat) if seat in engine.to_act(game.state) else []
        await interaction.response.send_message(**fit(embed=help_embed(engine, game.state, seat, legal),
                                                      ephemeral=True))
