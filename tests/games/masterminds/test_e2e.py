"""Masterminds end to end: a 3-player game through the fake Discord server in
which a player who is not taking the turn plays an interrupt in a real-time
window; a window survives a restart, and one closes by its deadline. Every
window asks every player, and what the channel shows when a window opens is
the same whether or not anyone holds an interrupt."""
from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace

from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import open_and_start, play_to_end

USERS = [ADMIN, 101, 102]


async def test_three_player_game_with_an_interrupt_from_another_player(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "masterminds", USERS, options="interrupt_seconds=20")
    interrupts: list[tuple[int, int]] = []  # (who played, whose turn it was)
    windows = {"seen": 0, "restarted": False, "timed_out": False}
    seen: dict[int, str] = {}  # message id -> its content when last looked at
    openings: dict[bool, set[str]] = {True: set(), False: set()}  # anyone holds an interrupt? -> window texts

    def window_text(messages, names) -> str:
        """The window's lines in what the channel got, with names, mentions and numbers abstracted
        (they depend on whose turn it is and on the clock, never on the hands)."""
        lines = [line for m in messages for line in (m.content or "").splitlines()
                 if line.startswith("• Interrupt window")]
        lines += [line[line.index("Interrupt window: waiting"):] if "Interrupt window: waiting" in line else line
                  for m in [m for m in messages if "Interrupt window: waiting" in (m.content or "")][-1:]
                  for line in (m.content or "").splitlines()
                  if "Interrupt window: waiting" in line or "Waiting for" in line]  # not the round/heist counters
        text = "\n".join(lines)
        for name in names:
            text = text.replace(name, "<name>")
        return re.sub(r"\d+", "#", text)

    def fresh() -> list[SimpleNamespace]:
        """What the channel got since the last look: new messages, and the lines an edit added
        to a message already seen (the living board gathers its turn's events)."""
        out = []
        for m in fake.public_messages(CHANNEL):
            before = seen.get(m.id)
            if before != m.content:
                old = set((before or "").splitlines())
                out.append(SimpleNamespace(content="\n".join(line for line in (m.content or "").splitlines()
                                                             if line not in old)))
                seen[m.id] = m.content
        return out

    def choose(engine, state, seat, rng):
        if state["phase"] == "window" and seat != state["turn"]:
            for action in engine.legal_actions(state, seat):
                if action["type"] == "interrupt":
                    interrupts.append((seat, state["turn"]))
                    return action
        return engine.bot_action(state, seat, rng)

    async def after(current):
        g = await h.bot.tables.get(current.id)
        if g.status != "running" or g.state["phase"] != "window":
            fresh()
            return
        engine = h.bot.tables.engine(g)
        waiting = engine.to_act(g.state)
        # The board of this very state (a deadline's note may be posted around it; wait, don't race it).
        status = f"**{engine.status_line(g.state)}**"
        board = await fake.wait_for(lambda: next((m for m in reversed(fake.public_messages(CHANNEL))
                                                  if status in (m.content or "")), None), timeout=10)
        assert "Waiting for" in board.content and all(f"<@{USERS[s]}>" in board.content for s in waiting)
        new = fresh()
        if not g.state["window"]["done"]:  # this move opened the window
            assert sorted(waiting) == [0, 1, 2]  # everyone is asked, whatever they hold
            holds = any(a["type"] == "interrupt" for seat in range(3) for a in engine.legal_actions(g.state, seat))
            text = window_text(new, g.state["names"])
            if g.state["window"]["kind"] == "step" and "• Interrupt window" in text:
                openings[holds].add(text)
        windows["seen"] += 1
        assert g.deadline_at == h.clock.now + 20 and g.reminder_at is None
        if not windows["restarted"]:
            windows["restarted"] = True
            await h.restart()  # the open window survives a restart
            again = await h.bot.tables.get(g.id)
            assert again.state["phase"] == "window" and again.deadline_at == g.deadline_at
        elif not windows["timed_out"] and interrupts:
            windows["timed_out"] = True
            before = g.version
            h.clock.now += 21
            h.bot.wake_timers()
            for _ in range(200):  # the window closes by its deadline: everyone still asked passes
                if (await h.bot.tables.get(g.id)).version > before:
                    break
                await asyncio.sleep(0.05)
            await h.settle()
            after_timeout = await h.bot.tables.get(g.id)
            assert after_timeout.version > before
            # A window closing is not a missed turn: nobody is told their time ran out.
            assert not any("Time ran out" in m.content for m in fake.public_messages(CHANNEL))
            log = await h.bot.storage.actions(g.id)
            assert [e["action"] for e in log[before:before + len(waiting)]] == [{"type": "pass"}] * len(waiting)
            fresh()  # the timeout's messages belong to no move

    game = await play_to_end(h, choose=choose, after_move=after)
    assert game.status == "finished"
    assert any(who != turn for who, turn in interrupts), "no interrupt was played by a non-active player"
    assert windows["restarted"] and windows["timed_out"]
    # The public output of an opening window never depends on the hands.
    assert openings[True] and openings[False], openings
    assert openings[True] == openings[False] and len(openings[True]) == 1, openings
    played = [m.content for m in fake.public_messages(CHANNEL) if " plays " in m.content]
    assert played, "the interrupt must be revealed in the channel"
    assert fake.unhandled == []
