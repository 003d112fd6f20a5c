"""The face of the cogs' shared presentation; each job has its own module:

  cogs.embeds    what messages say and show (lobby, board text and buttons, alt text, final scores)
  cogs.panel     the move panel built from ``legal_actions``
  cogs.dms       private delivery by DM
  cogs.router    the one component router (``ComponentRouter`` and its ``ROUTES`` table)
  cogs.boards    ``TableUI``: boards, lobbies, threads and notes in a game's channel
  cogs.customid  the one encoder/parser of custom ids
  bot.permissions  who manages games (imported by the bot and the cogs alike)

The names below are re-exported so that ``from cogs.ui import X`` keeps working.
"""
from __future__ import annotations

from cogs.boards import ARCHIVED_THREAD, THREAD_ARCHIVE_MINUTES, TableUI
from cogs.embeds import (
                         ALT_TEXT_LIMIT,
                         EMBED_COLOUR,
                         alt_text,
                         as_files,
                         board_content,
                         board_view,
                         dm_retry_view,
                         lobby_embed,
                         lobby_view,
                         plain,
                         render_file,
                         results_text,
                         seat_label,
)
from cogs.panel import MAX_BUTTONS, SELECT_LIMIT, build_panel, pack_menus
from cogs.router import ROUTES, ComponentRouter

__all__ = ["ALT_TEXT_LIMIT", "ARCHIVED_THREAD", "EMBED_COLOUR", "MAX_BUTTONS", "ROUTES", "SELECT_LIMIT",
           "THREAD_ARCHIVE_MINUTES", "ComponentRouter", "TableUI", "alt_text", "as_files", "board_content",
           "board_view", "build_panel", "dm_retry_view", "lobby_embed", "lobby_view", "pack_menus", "plain",
           "render_file", "results_text", "seat_label"]
