"""Teaching newcomers where they play (issue 30): the game's **How to play** (from the lobby, the first boards and
``/game rules``), its full rules doc as a file, the offer made to a player at their first table of a game, and
``/game learn``: the game's tutorial (``bot.teach.TutorialRun``) played privately, in the learner's DMs or, when
their DMs are closed, in a message only they see in the channel.

A lesson is one message, edited as the learner goes: the step's words, the learner's board and hand pictures,
their move panel (the same builder as a game's, ``cogs.panel.add_moves``), a "?", **Next** on a reading step,
**Start over** and **Quit**. A wrong move is explained and changes nothing. The run is stored after every step
(``tutorial_runs``), so a lesson carries on after a restart: its buttons name the run and the step they were
drawn for, and a click on an older step's button shows where the learner is instead of counting twice.

The words come from the games (``bot/games/<key>/teach.py``); nothing here knows a game's rules.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.engine import Engine
from bot.games import get_engine, registry
from bot.paths import rules_doc
from bot.storage import GameRow, StorageError, TutorialRow
from bot.tables import TableError
from bot.teach import StepResult, Tutorial, TutorialRun
from cogs import customid
from cogs.embeds import ALT_TEXT_LIMIT, EMBED_COLOUR, as_files, howto_button, new_view, plain
from cogs.limits import CONTENT, EMBED_DESCRIPTION, clip, fit, quote
from cogs.panel import CONTROL_ROW, add_moves, help_button, help_embed
from rendering import render_async, renderer

if TYPE_CHECKING:
    from bot.app import HeistBot

log = logging.getLogger("heistcord.learn")

EVENTS_SHOWN = 8  # what the other seats did between two steps, at most this many lines
ALREADY_DONE = "_That step is already done: here is where you are._"
Image = tuple[str, bytes, str]  # (file name, PNG, alt text)


def engine_for(key: str) -> Engine:
    """The engine of the game ``key``, or a sentence saying there is none (a damaged button, a removed game)."""
    if key not in registry():
        raise TableError(f"There is no game called {quote(key)}. Pick one from the list.")
    return get_engine(key)


def carry_on(engine: Engine, row: TutorialRow) -> TutorialRun:
    """A stored run, carried on (a sentence if its game no longer has a tutorial)."""
    try:
        return TutorialRun.from_json(engine, row.run)
    except (ValueError, KeyError, TypeError):
        raise TableError(f"This lesson of {engine.meta.name} can't go on: `/game learn` starts a new one.") from None


def rough_minutes(tutorial: Tutorial) -> str:
    """A tutorial's length as a player reads it: "about 4 minutes"."""
    minutes = max(1, round(tutorial.estimated_minutes()))
    return f"about {minutes} minute{'s' if minutes != 1 else ''}"


# --- how to play ---------------------------------------------------------------------------
_howto_pictures: dict[str, bytes] = {}  # game key -> its labelled how-to-play picture (the same for everyone)


async def howto_picture(engine: Engine) -> Image | None:
    """The game's labelled how-to-play picture: ``render_howto`` of the view of ``HowToPlay.example()``, drawn once
    by the drawing worker and kept. None when the game has no example or its renderer no ``render_howto``."""
    how = engine.how_to_play()
    key = engine.meta.key
    module = renderer(key)
    if how is None or how.example is None or module is None or not hasattr(module, "render_howto"):
        return None
    png = _howto_pictures.get(key)
    if png is None:
        state, viewer = how.example()
        png = await render_async(key, "howto", engine.view(state, viewer), urgent=True)
        if png is None:  # couldn't be drawn now: the text goes alone, and the next asker tries again
            return None
        _howto_pictures[key] = png
    alt = clip(plain(f"How to play {engine.meta.name}: an example board with labels. {how.board}"), ALT_TEXT_LIMIT)
    return ("howto.png", png, alt)


def howto_embed(engine: Engine, picture: Image | None) -> discord.Embed:
    """How to play, as one private card: the game's four parts (goal, winning, a turn, the board) and its picture;
    a game without them yet shows its rules summary and says so."""
    meta = engine.meta
    how = engine.how_to_play()
    if how is not None:
        text = how.text()
    else:
        text = (f"{meta.summary}\n\n_A newcomer's guide isn't written for {meta.name} yet: this is its rules"
                " summary._")
    embed = discord.Embed(title=f"How to play {meta.name} ({meta.min_players}-{meta.max_players} players)",
                          description=clip(text, EMBED_DESCRIPTION), colour=EMBED_COLOUR)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture[0]}")
    embed.set_footer(text=f"Learn by playing: /game learn game:{meta.key} · Every rule: /game rules game:{meta.key}")
    return embed


def learn_button(engine: Engine) -> discord.ui.Button:
    """**Learn by playing**: the game's tutorial, privately."""
    return discord.ui.Button(label="Learn by playing", emoji="🎓", style=discord.ButtonStyle.primary,
                             custom_id=customid.encode_key("learn", engine.meta.key))


def rules_button(engine: Engine) -> discord.ui.Button:
    """**Full rules**: the game's rules doc as a file."""
    return discord.ui.Button(label="Full rules", emoji="📜", style=discord.ButtonStyle.secondary,
                             custom_id=customid.encode_key("rules", engine.meta.key))


def teaching_view(engine: Engine, *, howto: bool = False) -> discord.ui.View | None:
    """The buttons that lead on from a game's rules or how-to-play: How to play (``howto``), Learn by playing
    (when the game has a tutorial), Full rules (when it has a rules doc)."""
    view = new_view()
    if howto:
        view.add_item(howto_button(engine.meta.key))
    if engine.tutorial() is not None:
        view.add_item(learn_button(engine))
    if rules_doc(engine.meta.key) is not None:
        view.add_item(rules_button(engine))
    return view if view.children else None


def offer_text(engine: Engine) -> str | None:
    """What a player at their first table of a game is told privately (None: the game has nothing to offer)."""
    how, tutorial = engine.how_to_play(), engine.tutorial()
    if how is None and tutorial is None:
        return None
    name = engine.meta.name
    text = f"👋 First time at **{name}**?"
    if how is not None:
        text += " **How to play** explains the goal, a turn and the board in a minute."
    if tutorial is not None:
        text += f" **Learn by playing** is a private lesson against bots ({rough_minutes(tutorial)}), by DM."
    return text


def offer_view(engine: Engine) -> discord.ui.View:
    """The first-table offer's buttons: How to play and, when the game has a tutorial, Learn by playing."""
    view = new_view()
    if engine.how_to_play() is not None:
        view.add_item(howto_button(engine.meta.key))
    if engine.tutorial() is not None:
        view.add_item(learn_button(engine))
    return view


# --- the lesson message ------------------------------------------------------------------------
def lesson_text(engine: Engine, run: TutorialRun, *, note: str = "", events: list[dict[str, Any]] | None = None) -> str:
    """A lesson's words: where the learner is, what just happened (``note``, then the moves since), the step's
    explanation and what to do; at the end the tutorial's outro ("you're ready: `/game new`")."""
    tutorial = run.tutorial
    step = run.step
    head = f"🎓 **{engine.meta.name}: lesson**"
    if step is not None:
        head += f" · step {run.index + 1} of {len(tutorial.steps)} · _{step.section}_"
    else:
        head += " · done"
    parts = [head]
    if note:
        parts.append(note)
    happened = [str(e["text"]) for e in events or [] if e.get("text")]
    if happened:
        parts.append("\n".join(f"• {line}" for line in happened[-EVENTS_SHOWN:]))
    if step is None:
        parts.append(f"🎉 {tutorial.outro}")
    else:
        parts.append(step.say)
        if step.expect is None:
            parts.append("👉 Press **Next** to go on.")
        elif not run.legal():
            parts.append("⚠️ This step has no move for you (a mistake in the lesson): **Start over** or **Quit**.")
        elif step.hint:
            parts.append(f"👉 {step.hint}")
        else:
            parts.append("👉 Pick a move below.")
    return clip("\n\n".join(parts), CONTENT)


def lesson_view(row_id: int, engine: Engine, run: TutorialRun) -> discord.ui.View:
    """The lesson's buttons: the learner's moves and "?" (a step that asks for a move), **Next** (a reading
    step), **Start over** and **Quit**; once finished, Full rules and Start over."""
    view = new_view()
    step = run.step
    legal = run.legal()
    if legal:
        add_moves(view, engine, run.state, run.tutorial.seat, legal,
                  lambda i: customid.encode("tact", row_id, run.index, i),
                  lambda n: customid.encode("tsel", row_id, run.index, n))
        view.add_item(help_button(customid.encode("thelp", row_id)))
    if step is not None and step.expect is None:
        view.add_item(discord.ui.Button(label="Next", emoji="▶️", style=discord.ButtonStyle.success,
                                        custom_id=customid.encode("tnext", row_id, run.index, 0), row=CONTROL_ROW))
    if step is None and rules_doc(engine.meta.key) is not None:
        button = rules_button(engine)
        button.row = CONTROL_ROW
        view.add_item(button)
    view.add_item(discord.ui.Button(label="Start over", emoji="🔁", style=discord.ButtonStyle.secondary,
                                    custom_id=customid.encode("tagain", row_id), row=CONTROL_ROW))
    if step is not None:
        view.add_item(discord.ui.Button(label="Quit", style=discord.ButtonStyle.secondary,
                                        custom_id=customid.encode("tquit", row_id), row=CONTROL_ROW))
    return view


async def lesson_pictures(engine: Engine, run: TutorialRun) -> list[Image]:
    """The learner's pictures, as a real game shows them: the board (the public view) and their own hand or
    secrets (their view), drawn by the drawing worker; none for a game that draws none."""
    key = engine.meta.key
    module = renderer(key)
    if module is None:
        return []
    public, mine = engine.view(run.state, None), run.view()
    kinds = [("board", public), *([("private", mine)] if hasattr(module, "render_private") else [])]
    drawn = await asyncio.gather(*(render_async(key, kind, view, urgent=True) for kind, view in kinds))
    describe = getattr(module, "describe", None)
    images: list[Image] = []
    for (kind, view), png in zip(kinds, drawn, strict=True):
        if png is None:
            continue
        if kind == "board":
            words = describe(view) if describe else engine.status_line(run.state)
            alt = f"{engine.meta.name} lesson: the board. {words}"
        else:
            alt = f"{engine.meta.name} lesson: your own view. {engine.private_text(view)}"
        images.append((f"{kind}.png", png, clip(plain(alt), ALT_TEXT_LIMIT)))
    return images


class Lessons(commands.Cog):
    """How to play, the full rules, the first-table offer and the tutorial runs of ``/game learn``."""

    def __init__(self, bot: HeistBot) -> None:
        self.bot = bot
        # per tutorial run: its clicks one at a time in this process (the lock, and how many clicks use it)
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}

    async def on_component(self, interaction: discord.Interaction, parts: customid.CustomId,
                           values: list[str]) -> None:
        """A teaching button (the router sends them here): How to play, Full rules, Learn by playing, or one of a
        lesson's buttons."""
        if parts.kind == "howto":
            await self.show_howto(interaction, parts.key)
        elif parts.kind == "rules":
            await self.send_rules_doc(interaction, parts.key)
        elif parts.kind == "learn":
            await self.learn(interaction, parts.key)
        else:
            await self.click(interaction, parts, values)

    @staticmethod
    def leads_on(engine: Engine, *, howto: bool = False) -> discord.ui.View | None:
        """The buttons that lead on from a game's rules (``teaching_view``)."""
        return teaching_view(engine, howto=howto)

    # --- how to play and the rules doc ----------------------------------------------------------
    async def show_howto(self, interaction: discord.Interaction, key: str) -> None:
        """**How to play**: the game's few lines and labelled picture, privately, with Learn by playing and
        Full rules below."""
        engine = engine_for(key)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the picture may wait for the worker
        picture = await howto_picture(engine)
        kwargs: dict[str, Any] = {"embed": howto_embed(engine, picture), "ephemeral": True}
        if picture is not None:
            kwargs["files"] = as_files([picture])
        view = teaching_view(engine)
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(**fit(**kwargs))

    async def send_rules_doc(self, interaction: discord.Interaction, key: str) -> None:
        """**Full rules**: the game's rules doc (``docs/rules/<key>.md``, shipped in the wheel) as a file, privately."""
        engine = engine_for(key)
        path = rules_doc(key)
        if path is None:
            raise TableError(f"{engine.meta.name} has no rules document: `/game rules game:{key}` sums it up.")
        file = discord.File(path, filename=f"{key}-rules.md",
                            description=f"The full rules of {engine.meta.name} as this bot plays them")
        await interaction.response.send_message(**fit(
            f"📜 **{engine.meta.name}: the full rules** as this bot plays them, with every decision taken where the"
            " rulebook is unclear and the card lists. Open the file to read it all.", file=file, ephemeral=True))

    async def first_table_offer(self, user_id: int, engine: Engine) -> tuple[str, discord.ui.View] | None:
        """What to tell a player who just took a seat at a table of ``engine``'s game, if it is their first of it
        (no finished game of it, no lesson started): How to play and the lesson. None otherwise."""
        text = offer_text(engine)
        if text is None or not await self.first_time(user_id, engine.meta.key):
            return None
        return text, offer_view(engine)

    async def offer(self, interaction: discord.Interaction, game: GameRow) -> None:
        """The first-table offer as a private follow-up (the join itself was answered already)."""
        offer = await self.first_table_offer(interaction.user.id, engine_for(game.game_key))
        if offer is not None:
            try:
                await interaction.followup.send(**fit(offer[0], view=offer[1], ephemeral=True))
            except discord.HTTPException as exc:  # the join stands: only the offer is lost
                log.info("could not offer the lesson of %s to %s: %s", game.game_key, interaction.user.id, exc)

    async def first_time(self, user_id: int, key: str) -> bool:
        """Whether ``user_id`` is new to the game ``key`` (a database that can't answer now: not worth asking)."""
        try:
            return not await self.bot.storage.knows_game(user_id, key)
        except StorageError as exc:
            log.info("could not tell whether %s knows %s: %s", user_id, key, exc)
            return False

    # --- /game learn ------------------------------------------------------------------------------
    async def learn(self, interaction: discord.Interaction, key: str) -> None:
        """Start (or carry on) the learner's lesson of a game: by DM, else here, privately."""
        engine = engine_for(key)
        user_id = interaction.user.id
        await interaction.response.defer(ephemeral=True, thinking=True)  # storage, pictures and a DM take a moment
        if engine.tutorial() is None:
            picture = await howto_picture(engine)
            kwargs: dict[str, Any] = {"embed": howto_embed(engine, picture), "ephemeral": True}
            if picture is not None:
                kwargs["files"] = as_files([picture])
            await interaction.followup.send(**fit(f"{engine.meta.name} has no lesson yet. Here is how to play it.",
                                                  **kwargs))
            return
        row = await self.bot.storage.open_tutorial(user_id, key)
        try:
            run = carry_on(engine, row) if row is not None else None
        except TableError:  # a run the game's tutorial no longer fits: a new one
            run = None
        if row is not None and run is not None:
            note = f"_Carrying on where you left off (step {run.index + 1}). **Start over** begins again._"
        else:
            run = TutorialRun.begin(engine)
            row = await self.bot.storage.start_tutorial(user_id, key, run.to_json())
            tutorial = run.tutorial
            takes = f"_This lesson takes {rough_minutes(tutorial)}._"
            note = " ".join(part for part in (tutorial.intro, takes) if part)
        await self.bot.refusals.dm_retry(user_id)  # asking for a lesson: worth one more try at their DMs
        images = await lesson_pictures(engine, run)
        message = {"content": lesson_text(engine, run, note=note), "view": lesson_view(row.id, engine, run),
                   "allowed_mentions": discord.AllowedMentions.none()}
        sent = await self.send_dm(user_id, files=as_files(images), **message)
        if sent is not None:
            await interaction.followup.send(**fit(f"📬 Your lesson of **{engine.meta.name}** is in your DMs:"
                                                  f" {sent.jump_url}", ephemeral=True))
            return
        message["content"] = clip("_Your DMs are closed, so the lesson runs here: only you can see it._\n"
                                  + str(message["content"]), CONTENT)
        await interaction.followup.send(**fit(files=as_files(images), ephemeral=True, **message))

    async def send_dm(self, user_id: int, **kwargs: Any) -> discord.Message | None:
        """The one place a lesson is sent by DM (the DM channel and refusals of ``cogs.dms``); None when the
        player's DMs are closed (Discord's 50007, remembered) or the DM failed."""
        refusals = self.bot.refusals
        if not refusals.dm_allowed(user_id):
            return None
        try:
            channel = await self.bot.ui.dm_channel(user_id)
            return await channel.send(**fit(**kwargs))
        except discord.HTTPException as exc:
            await refusals.dm_failed(user_id, exc)
            return None

    # --- a click on a lesson ----------------------------------------------------------------------
    async def click(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        """A lesson's button or select: one at a time per run in this process (the stored revision guards the
        rest)."""
        entry = self._locks.setdefault(parts.game_id, (asyncio.Lock(), [0]))
        entry[1][0] += 1  # clicks holding or waiting for this run's lock: it is forgotten when none is left
        try:
            async with entry[0]:
                await self._click(interaction, parts, values)
        finally:
            entry[1][0] -= 1
            if not entry[1][0]:
                del self._locks[parts.game_id]

    async def _click(self, interaction: discord.Interaction, parts: customid.CustomId, values: list[str]) -> None:
        storage = self.bot.storage
        row = await storage.tutorial_run(parts.game_id)
        if row is not None and row.user_id != interaction.user.id:
            raise TableError("This lesson is someone else's: `/game learn` starts your own.")
        if row is not None and parts.kind == "tagain":
            return await self._start_over(interaction, row)
        if row is None or (row.finished and parts.kind != "thelp"):
            return await interaction.response.edit_message(
                content="This lesson is over (finished, started again or closed): `/game learn` starts one.",
                view=None)
        engine = engine_for(row.game_key)
        run = carry_on(engine, row)
        if parts.kind == "thelp":
            return await interaction.response.send_message(**fit(
                embed=help_embed(engine, run.state, run.tutorial.seat, run.legal()), ephemeral=True))
        if parts.kind == "tquit":
            await interaction.response.defer()  # (a write may wait for the database: answer Discord first)
            await storage.delete_tutorial(row.id)
            return await interaction.edit_original_response(
                content=f"Lesson closed. `/game learn game:{row.game_key}` starts it again whenever you like.",
                view=None, attachments=[])
        result = self._answer(run, parts, values)
        if result is None:  # a button of a step already done (a double click, an older message)
            return await self._show(interaction, row, engine, run, note=ALREADY_DONE)
        if not result.right:  # nothing changed: the same pictures and panel, the step saying why
            return await interaction.response.edit_message(
                content=lesson_text(engine, run, note=f"❌ {result.text}"), view=lesson_view(row.id, engine, run),
                allowed_mentions=discord.AllowedMentions.none())
        await interaction.response.defer()  # the step is stored and its pictures drawn before the message changes
        if not await storage.save_tutorial(row.id, row.rev, run.to_json(), run.finished):
            fresh = await storage.tutorial_run(row.id)  # another click got there first: show where it left them
            if fresh is None:
                return await interaction.edit_original_response(content="This lesson was closed.", view=None)
            return await self._show(interaction, fresh, engine, carry_on(engine, fresh),
                                    note=ALREADY_DONE)
        note = f"✅ {result.text}" if result.text else ""  # (what happened is listed below it)
        await self._show(interaction, row, engine, run, note=note, events=result.events)

    @staticmethod
    def _answer(run: TutorialRun, parts: customid.CustomId, values: list[str]) -> StepResult | None:
        """The click's answer to the step it was drawn for, or None when that step is not the current one."""
        step = run.step
        if step is None or parts.version != run.index:
            return None
        if parts.kind == "tnext":
            return run.next() if step.expect is None else None
        if parts.kind == "tsel" and len(values) != 1:
            raise customid.BadInputError(customid.DAMAGED)
        index = customid.parse_index(values[0]) if parts.kind == "tsel" else parts.n
        legal = run.legal()
        if index is None or not 0 <= index < len(legal):
            return None
        return run.answer(legal[index])

    async def _start_over(self, interaction: discord.Interaction, row: TutorialRow) -> None:
        engine = engine_for(row.game_key)
        await interaction.response.defer()
        run = TutorialRun.begin(engine)
        fresh = await self.bot.storage.start_tutorial(row.user_id, row.game_key, run.to_json())
        await self._show(interaction, fresh, engine, run, note="🔁 _From the start._")

    async def _show(self, interaction: discord.Interaction, row: TutorialRow, engine: Engine, run: TutorialRun,
                    *, note: str = "", events: list[dict[str, Any]] | None = None) -> None:
        """Edit the lesson message to the run's step, with its pictures (drawn after acknowledging the click)."""
        if not interaction.response.is_done():
            await interaction.response.defer()  # an update of this message: the pictures may wait for the worker
        images = await lesson_pictures(engine, run)
        await interaction.edit_original_response(**fit(
            lesson_text(engine, run, note=note, events=events), attachments=as_files(images),
            view=lesson_view(row.id, engine, run), allowed_mentions=discord.AllowedMentions.none()))


async def setup(bot: HeistBot) -> None:
    """Load the lessons cog (discord.py's extension entry point)."""
    await bot.add_cog(Lessons(bot))
