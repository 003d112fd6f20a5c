"""Hardening item 7: ``cogs.limits.fit`` brings anything within Discord's limits
(checked with the fake Discord's own checker)."""
import discord
from discord import app_commands

from cogs import limits
from tests.fakediscord import limits as fake_limits


def test_fit_shortens_every_part_to_discord_limits():
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name="n" * 300, value="v" * 2000)
    embed.set_footer(text="f" * 3000)
    embed.set_author(name="a" * 300)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="b" * 120, custom_id="hc:play:1"))
    view.add_item(discord.ui.Select(custom_id="hc:sel:1:1:0", placeholder="p" * 200,
                                    options=[discord.SelectOption(label="l" * 150, value=str(i),
                                                                  description="d" * 150) for i in range(30)]))
    kwargs = limits.fit(content="c" * 5000, embed=embed, view=view)
    payload = {"content": kwargs["content"], "embeds": [kwargs["embed"].to_dict()],
               "components": kwargs["view"].to_components()}
    errors = fake_limits.check_message(payload)
    assert not errors, errors.flat
    assert len(kwargs["content"]) == 2000


def test_fit_choices():
    choices = [app_commands.Choice(name="n" * 150, value=str(i)) for i in range(30)]
    choices.append(app_commands.Choice(name="too long a value", value="v" * 101))
    fitted = limits.fit_choices(choices)
    assert not fake_limits.check_choices([c.to_dict() for c in fitted])
    assert len(fitted) == 25 and all(len(c.value) <= 100 for c in fitted)
