"""End-to-end self-test of tests/fakediscord with a tiny real discord.py bot."""

from __future__ import annotations

import io
import re
from typing import List

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import start_client, stop_client

GUILD = 111111111111111111
CHANNEL = 222222222222222222
OTHER_CHANNEL = 222222222222222223
ROLE = 333333333333333333
ALICE = 444444444444444441
BOB = 444444444444444442  # DMs closed
OWNER = 444444444444444440

GAMES = ["tower", "vault", "train", "tomb"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"join:(?P<game>[a-z]+)"):
    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"join:{game}", style=discord.ButtonStyle.primary))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        gen = interaction.client.generation  # type: ignore[attr-defined]
        await interaction.response.edit_message(content=f"{interaction.user.name} joined {self.game} (bot #{gen})")


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="pick", options=[discord.SelectOption(label=g, value=g) for g in GAMES])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class AskModal(discord.ui.Modal, title="Plan"):
    plan = discord.ui.TextInput(label="Your plan", custom_id="plan")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"plan received: {self.plan.value}")


def make_bot(generation: int, removed: List[int]) -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = True
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=intents)
    bot.generation = generation  # type: ignore[attr-defined]

    game = app_commands.Group(name="game", description="Games")

    @game.command(name="new", description="Start a game")
    @app_commands.describe(game="which game", players="how many")
    async def game_new(interaction: discord.Interaction, game: str, players: app_commands.Range[int, 2, 6] = 2):
        view = PickView()
        view.add_item(JoinButton(game))
        await interaction.response.send_message(f"New {game} for {players}", view=view)

    @game_new.autocomplete("game")
    async def game_ac(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=g, value=g) for g in GAMES if g.startswith(current)]

    @game.command(name="report", description="Slow report with a file")
    async def game_report(interaction: discord.Interaction):
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("report", file=discord.File(io.BytesIO(b"\x89PNGboard"), "board.png"))

    bot.tree.add_command(game)

    @bot.tree.command(name="secret", description="ephemeral", guild=discord.Object(GUILD))
    async def secret(interaction: discord.Interaction):
        await interaction.response.send_message("the code is XYZZY", ephemeral=True)

    @bot.tree.command(name="poke", description="DM someone")
    async def poke(interaction: discord.Interaction, target: discord.User, note: str, loud: bool = False):
        try:
            await target.send(f"psst: {note}")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"closed ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent" + ("!" if loud else ""), ephemeral=True)

    @bot.tree.command(name="ask", description="modal")
    async def ask(interaction: discord.Interaction):
        await interaction.response.send_modal(AskModal())

    @bot.event
    async def on_member_remove(member: discord.Member):
        removed.append(member.id)
        await member.guild.get_channel(CHANNEL).send(f"bye {member.name}")

    async def setup_hook():
        bot.add_dynamic_items(JoinButton)
        bot.add_view(PickView())
        await bot.tree.sync()
        await bot.tree.sync(guild=discord.Object(GUILD))

    bot.setup_hook = setup_hook
    return bot


def populate(fake: FakeDiscord) -> None:
    fake.add_user(OWNER, "owner")
    fake.add_user(ALICE, "alice")
    fake.add_user(BOB, "bob", dms_closed=True)
    fake.add_guild(guild_id=GUILD, name="Heist HQ", owner_id=OWNER)
    fake.add_role(GUILD, ROLE, "Heister", permissions=0)
    fake.add_channel(GUILD, CHANNEL, "general")
    fake.add_channel(GUILD, OTHER_CHANNEL, "other")
    fake.add_member(GUILD, ALICE, roles=[ROLE])
    fake.add_member(GUILD, BOB, permissions=0)


async def test_fake_discord_end_to_end(fake_discord: FakeDiscord, discord_errors):
    fake = fake_discord
    populate(fake)
    removed: List[int] = []
    bot = make_bot(1, removed)
    await start_client(bot, fake)
    try:
        # login, sync, ready
        assert bot.user.id == fake.application_id
        assert {c["name"] for c in fake.global_commands} == {"game", "poke", "ask"}
        assert [c["name"] for c in fake.guild_commands[GUILD]] == ["secret"]
        guild = bot.get_guild(GUILD)
        assert guild is not None and guild.get_channel(CHANNEL).name == "general"
        assert guild.get_member(ALICE) is not None  # chunked via REQUEST_GUILD_MEMBERS
        assert guild.get_role(ROLE).name == "Heister"

        # autocomplete
        choices = await fake.autocomplete(ALICE, CHANNEL, "game new", {"game": "to"}, focused="game")
        assert [c["value"] for c in choices] == ["tower", "tomb"]

        # slash command with a group/subcommand, string + integer options, view with button + select
        rec = await fake.slash(ALICE, CHANNEL, "game new", {"game": "tower", "players": 3})
        resp = await rec.response()
        assert resp["type"] == 4
        msg = rec.message
        assert msg.content == "New tower for 3" and not msg.ephemeral
        assert fake.channel_messages(CHANNEL) == [msg]
        button = fake.find_component(msg, label="Join")
        assert button["custom_id"] == "join:tower"
        assert fake.find_component(msg, custom_id_prefix="pick")["type"] == 3

        # button -> edit_message (type 7) updates the recorded message in place
        click = await fake.click(ALICE, msg, "join:tower")
        assert (await click.response())["type"] == 7
        assert msg.content == "alice joined tower (bot #1)" and msg.edited

        # string select -> ephemeral reply
        sel = await fake.select(ALICE, msg, "pick", ["vault"])
        await sel.response()
        assert sel.message.content == "picked vault" and sel.message.ephemeral and sel.message.id

        # defer + follow-up with a file: the follow-up fills the "thinking" message
        rep = await fake.slash(ALICE, CHANNEL, "game report")
        assert (await rep.response())["type"] == 5
        await rep.wait_done()
        assert rep.message.content == "report"
        assert rep.message.files == [("board.png", b"\x89PNGboard")]
        assert rep.followups == [rep.message]

        # guild-only ephemeral command; its secret never reaches public payloads
        sec = await fake.slash(ALICE, CHANNEL, "secret")
        await sec.response()
        assert sec.message.ephemeral and "XYZZY" in sec.message.content
        assert "XYZZY" not in fake.public_text()
        assert "tower" in fake.public_text()
        assert b"\x89PNGboard" in fake.all_public_payloads()

        # DMs: open and closed (user option with resolved data, bool option)
        ok = await fake.slash(ALICE, CHANNEL, "poke", {"target": ALICE, "note": "hi", "loud": True})
        await ok.response()
        assert ok.message.content == "sent!"
        assert [m.content for m in fake.dms(ALICE)] == ["psst: hi"]
        closed = await fake.slash(ALICE, CHANNEL, "poke", {"target": BOB, "note": "hey"})
        await closed.response()
        assert closed.message.content == "closed (50007)"
        assert fake.dms(BOB) == [] and fake.blocked_dms[0][0] == BOB

        # modal
        ask = await fake.slash(ALICE, CHANNEL, "ask")
        assert (await ask.response())["type"] == 9
        sub = await fake.submit_modal(ALICE, ask, {"plan": "dig a tunnel"})
        await sub.response()
        assert sub.message.content == "plan received: dig a tunnel"

        # slash command in a DM channel
        dm_rec = await fake.slash(ALICE, "dm", "game new", {"game": "vault"})
        await dm_rec.response()
        assert dm_rec.message.channel_id == fake.dm_channel_id(ALICE)

        # member removal event
        await fake.remove_member(GUILD, BOB)
        bye = await fake.wait_for(lambda: [m for m in fake.channel_messages(CHANNEL) if m.content == "bye bob"])
        assert removed == [BOB] and len(bye) == 1
    finally:
        await stop_client(bot)

    # restart with a fresh Bot on the same fake: the old button still works
    bot2 = make_bot(2, removed)
    await start_client(bot2, fake)
    try:
        again = await fake.click(ALICE, msg, "join:tower")
        await again.response()
        assert msg.content == "alice joined tower (bot #2)"
        sel2 = await fake.select(ALICE, msg, "pick", ["train"])
        await sel2.response()
        assert sel2.message.content == "picked train"
    finally:
        await stop_client(bot2)

    assert fake.unhandled == []


async def test_fake_discord_rejects_bad_invocations(fake_discord: FakeDiscord, discord_errors):
    fake = fake_discord
    populate(fake)
    bot = make_bot(1, [])
    await start_client(bot, fake)
    try:
        with pytest.raises(LookupError):
            await fake.slash(ALICE, CHANNEL, "nope")
        with pytest.raises(ValueError):
            await fake.slash(ALICE, CHANNEL, "game new", {"players": 3})  # required 'game' missing
        with pytest.raises(ValueError):
            await fake.slash(ALICE, CHANNEL, "game new", {"game": "x", "players": 9})  # Range max 6
        with pytest.raises(LookupError):
            await fake.slash(ALICE, "dm", "secret")  # guild-only command
        rec = await fake.slash(ALICE, CHANNEL, "game new", {"game": "tomb"})
        await rec.response()
        with pytest.raises(LookupError):
            await fake.click(ALICE, rec.message, "join:nothing")
        with pytest.raises(ValueError):
            await fake.select(ALICE, rec.message, "pick", ["not-a-game"])
    finally:
        await stop_client(bot)
    assert fake.unhandled == []


def make_strict_bot() -> commands.Bot:
    """Commands that break Discord's rules on purpose, to check the fake refuses them as Discord does."""
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True))
    bot.outcomes = []  # type: ignore[attr-defined]

    @bot.tree.command(name="echo", description="reply with the text as given")
    async def echo(interaction: discord.Interaction, text: str, where: str = "reply"):
        try:
            if where == "reply":
                await interaction.response.send_message(text)
            elif where == "channel":
                await interaction.channel.send(text)
                await interaction.response.send_message("sent", ephemeral=True)
            elif where == "embed":
                await interaction.response.send_message(embed=discord.Embed(title=text))
            elif where == "button":
                view = discord.ui.View()
                view.add_item(discord.ui.Button(label=text, custom_id="b"))
                await interaction.response.send_message("x", view=view)
        except discord.HTTPException as exc:
            bot.outcomes.append((exc.status, exc.code, exc.text))  # type: ignore[attr-defined]
            if not interaction.response.is_done():
                await interaction.response.send_message("refused", ephemeral=True)

    @echo.autocomplete("text")
    async def echo_ac(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=f"c{i}", value=str(i)) for i in range(int(current or 26))]

    @bot.tree.command(name="oops", description="defers publicly, then answers 'privately'")
    async def oops(interaction: discord.Interaction):
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("a private error?", ephemeral=True)

    async def setup_hook():
        await bot.tree.sync()

    bot.setup_hook = setup_hook
    return bot


async def test_fake_discord_refuses_what_discord_refuses(fake_discord: FakeDiscord, discord_errors):
    fake = fake_discord
    populate(fake)
    bot = make_strict_bot()
    await start_client(bot, fake)
    try:
        for text, where, path in [("x" * 2001, "reply", "data.content"), ("x" * 2001, "channel", "content"),
                                  ("t" * 257, "embed", "data.embeds.0.title"),
                                  ("l" * 81, "button", "data.components.0.components.0.label")]:
            rec = await fake.slash(ALICE, CHANNEL, "echo", {"text": text, "where": where})
            await rec.response()
            status, code, message = bot.outcomes.pop()
            assert (status, code) == (400, 50035) and path in message, message
            assert fake.rejected[-1]["errors"][0].startswith(path)
        assert fake.unhandled == [] and len(fake.rejected) == 4
        fake.rejected.clear()
        choices = await fake.autocomplete(ALICE, CHANNEL, "echo", {"text": "25"}, focused="text")
        assert len(choices) == 25 and not fake.rejected
        # Discord: the first follow-up after a public "thinking" defer becomes that (public)
        # message, whatever its ephemeral flag says.
        rec = await fake.slash(ALICE, CHANNEL, "oops")
        await rec.wait_done()
        assert rec.message.content == "a private error?" and not rec.message.ephemeral
        assert "a private error?" in fake.public_text()
    finally:
        await stop_client(bot)


async def test_fake_discord_deleted_channels_and_missing_permissions(fake_discord: FakeDiscord, discord_errors):
    fake = fake_discord
    populate(fake)
    bot = make_strict_bot()
    deleted: List[int] = []

    async def on_guild_channel_delete(channel):
        deleted.append(channel.id)

    bot.add_listener(on_guild_channel_delete)
    await start_client(bot, fake)
    try:
        fake.deny_bot(CHANNEL)
        rec = await fake.slash(ALICE, CHANNEL, "echo", {"text": "hi", "where": "channel"})
        await rec.response()
        assert bot.outcomes.pop()[:2] == (403, 50013)
        assert rec.message.content == "refused"  # interaction replies need no channel permission
        await fake.allow_bot(CHANNEL)
        await fake.delete_channel(OTHER_CHANNEL)
        await fake.wait_for(lambda: deleted == [OTHER_CHANNEL])
        with pytest.raises(discord.NotFound) as info:
            await bot.http.send_message(OTHER_CHANNEL, params=discord.http.handle_message_parameters(content="hi"))
        assert info.value.code == 10003
        assert len(fake.requests_to_channel(OTHER_CHANNEL)) == 1
    finally:
        await stop_client(bot)
