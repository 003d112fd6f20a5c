"""The cogs' shared layer: one router table for every custom id kind, one parser of custom ids,
permission checks importable by the bot and the cogs without an import loop."""
from __future__ import annotations

import asyncio
import subprocess
import sys
from types import SimpleNamespace

import pytest

from bot.app import HELPER_MODULES, HeistBot, discover_cogs
from bot.permissions import ManagerRoles, manages_server
from cogs import customid, ui
from cogs.router import ROUTES


def test_every_kind_of_custom_id_has_exactly_one_route():
    assert set(ROUTES) == set(customid.SIMPLE | customid.WITH_MOVE | customid.KEYED)


def test_kind_of_reads_only_our_custom_ids():
    assert customid.kind_of(customid.encode("play", 12)) == "play"
    assert customid.kind_of(customid.encode("act", 12, 3, 4)) == "act"
    for other in ["", "hc:play", "hc:act:1:2", "other:play:1", "hc:zap:1"]:
        assert customid.kind_of(other) is None


def test_a_button_about_a_game_names_its_key_and_nothing_else():
    assert customid.parse(customid.encode_key("howto", "tower")) == customid.CustomId("howto", 0, key="tower")
    assert customid.kind_of("hc:learn:masterminds") == "learn"
    for other in ["hc:play:tower", "hc:howto:Tower", "hc:howto:1tower", "hc:howto:tower:1:2", "hc:howto:" + "a" * 40]:
        assert customid.kind_of(other) is None
    with pytest.raises(ValueError):
        customid.encode_key("play", "tower")  # a table's button needs its number
    with pytest.raises(ValueError):
        customid.encode_key("howto", "no such game!")


def test_the_ui_face_still_offers_the_names_the_cogs_import():
    for name in ui.__all__:
        assert getattr(ui, name) is not None
    assert ui.TableUI.handle_component and ui.TableUI.show_panel and ui.TableUI.send_private


def test_the_split_helper_modules_are_not_loaded_as_cogs():
    import pkgutil

    import cogs

    modules = {m.name for m in pkgutil.iter_modules(cogs.__path__)}
    assert {"ui", "embeds", "panel", "dms", "router", "boards"} <= modules <= set(HELPER_MODULES) | {
        name.removeprefix("cogs.") for name in discover_cogs()}
    assert {"cogs.game", "cogs.admin", "cogs.stats"} <= set(discover_cogs())
    assert not any(f"cogs.{m}" in discover_cogs() for m in HELPER_MODULES)


@pytest.mark.parametrize("module", ["bot.permissions", "cogs.ui", "cogs.router", "cogs.boards"])
def test_no_import_loop(module):
    """Each side imports on its own, in a fresh interpreter, without pulling in the bot class."""
    code = f"import sys, {module}; assert 'bot.app' not in sys.modules, 'imports bot.app'"
    subprocess.run([sys.executable, "-c", code], check=True)


class _Perms(SimpleNamespace):
    manage_guild = False
    administrator = False


def _interaction(guild_id=1, roles=(), **perms):
    return SimpleNamespace(guild_id=guild_id, permissions=_Perms(**perms),
                           user=SimpleNamespace(roles=[SimpleNamespace(id=r) for r in roles]))


def test_manager_is_manage_server_or_the_configured_role():
    settings = {1: SimpleNamespace(manager_role_id=55), 2: SimpleNamespace(manager_role_id=None)}

    class Storage:
        async def settings(self, guild_id):
            return settings[guild_id]

    roles = ManagerRoles(Storage())
    assert manages_server(_interaction(manage_guild=True)) and manages_server(_interaction(administrator=True))
    assert not manages_server(_interaction())
    assert not roles.is_manager(_interaction(roles=[55]))  # the role isn't known before the server's settings are read
    asyncio.run(roles.refresh(1))
    asyncio.run(roles.refresh(2))
    assert roles.is_manager(_interaction(roles=[55])) and not roles.is_manager(_interaction(roles=[56]))
    assert not roles.is_manager(_interaction(guild_id=2, roles=[55]))
    assert roles.is_manager(_interaction(guild_id=2, manage_guild=True))
    assert HeistBot.manages_server(_interaction(administrator=True))  # the name the cogs call on the bot
