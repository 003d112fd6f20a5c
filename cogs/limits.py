"""Discord's documented limits on what a bot sends, in one place.

Every reply, message, embed, component and autocomplete list the bot builds goes
through :func:`fit` (or :func:`fit_choices`), which shortens what is too long
instead of letting Discord refuse the whole request (it answers 400 "Invalid Form
Body", and the user sees nothing). Text a user typed is echoed in an error only
through :func:`quote`, shortened.

Limits (Discord developer docs: Message resource, Embed limits, Component
reference, Interaction responses): content 2000 characters; 10 embeds of at most
6000 characters together, title 256, description 4096, 25 fields of name 256 and
value 1024, footer 2048, author 256; 5 action rows of 5 buttons (a select fills its
row), button label 80, custom_id 100, 25 select options of label/value/description
100, placeholder 150; 10 files, attachment description 1024; 25 autocomplete
choices, name and value 100.
"""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
ACTION_ROWS = 5
ROW_BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
FILES = 10
CHOICES = 25
CHOICE_TEXT = 100
QUOTE = 40


def clip(text: str, limit: int) -> str:
    """``text`` shortened to at most ``limit`` characters, with an ellipsis when cut."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(text: Any, limit: int = QUOTE) -> str:
    """User input echoed in a message: quoted, on one line, and short."""
    return "'" + clip(" ".join(str(text).split()), limit) + "'"


def _embed_parts(embed: discord.Embed) -> int:
    n = len(embed.title or "") + len(embed.description or "")
    n += sum(len(field.name or "") + len(field.value or "") for field in embed.fields)
    n += len(embed.footer.text or "") + len(embed.author.name or "")
    return n


def fit_embed(embed: discord.Embed, budget: int = EMBED_TOTAL) -> discord.Embed:
    """Shorten every part of ``embed`` to its limit and the whole to ``budget`` characters."""
    if embed.title:
        embed.title = clip(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
    fields = [(clip(f.name or "\u200b", FIELD_NAME), clip(f.value or "\u200b", FIELD_VALUE), f.inline)
              for f in embed.fields][:EMBED_FIELDS]
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER_TEXT), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=clip(embed.author.name, AUTHOR_NAME), url=embed.author.url,
                         icon_url=embed.author.icon_url)
    # Over the whole-embed budget: the description gives way first, then field values
    # (last first), field names, the footer, the author and the title.
    excess = _embed_parts(embed) - budget
    if excess > 0 and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description) - excess))
        excess = _embed_parts(embed) - budget
    for part in ("value", "name"):
        for i in reversed(range(len(embed.fields))):
            if excess <= 0:
                break
            field = embed.fields[i]
            text = getattr(field, part)
            short = clip(text, max(1, len(text) - excess))
            embed.set_field_at(i, name=short if part == "name" else field.name,
                               value=short if part == "value" else field.value, inline=field.inline)
            excess = _embed_parts(embed) - budget
    if excess > 0 and embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, max(1, len(embed.footer.text) - excess)),
                         icon_url=embed.footer.icon_url)
        excess = _embed_parts(embed) - budget
    if excess > 0 and embed.author.name:
        embed.set_author(name=clip(embed.author.name, max(1, len(embed.author.name) - excess)),
                         url=embed.author.url, icon_url=embed.author.icon_url)
        excess = _embed_parts(embed) - budget
    if excess > 0 and embed.title:
        embed.title = clip(embed.title, max(1, len(embed.title) - excess))
    return embed


def fit_view(view: discord.ui.View) -> discord.ui.View:
    """Labels, placeholders and options shortened to Discord's limits. (Custom ids are
    built by ``cogs.customid``, which refuses to make one that is too long.)"""
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = clip(item.label, BUTTON_LABEL)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = clip(item.placeholder, PLACEHOLDER)
            options = item.options[:SELECT_OPTIONS]
            for option in options:
                option.label = clip(option.label, OPTION_TEXT)
                if option.description:
                    option.description = clip(option.description, OPTION_TEXT)
            item.options = options
    return view


def fit(content: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """Keyword arguments for ``send``/``send_message``/``edit`` that fit Discord's limits."""
    if content is not None:
        kwargs["content"] = clip(content, CONTENT)
    if kwargs.get("embed") is not None:
        fit_embed(kwargs["embed"])
    if kwargs.get("embeds"):
        embeds = kwargs["embeds"][:EMBEDS]
        budget = EMBED_TOTAL
        for embed in embeds:
            fit_embed(embed, max(1, budget))
            budget -= _embed_parts(embed)
        kwargs["embeds"] = embeds
    if kwargs.get("view") is not None:
        fit_view(kwargs["view"])
    if kwargs.get("files"):
        kwargs["files"] = kwargs["files"][:FILES]
    return kwargs


def fit_choices(choices: list[app_commands.Choice[Any]]) -> list[app_commands.Choice[Any]]:
    """At most 25 autocomplete choices, names shortened; a choice whose string value
    is too long can't be shortened (it would mean something else), so it is left out."""
    out = []
    for choice in choices:
        if isinstance(choice.value, str) and not 0 < len(choice.value) <= CHOICE_TEXT:
            continue
        out.append(app_commands.Choice(name=clip(choice.name, CHOICE_TEXT) or "…", value=choice.value))
        if len(out) == CHOICES:
            break
    return out
