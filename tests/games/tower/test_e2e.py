"""The Wizard's Tower end to end through the fake Discord server."""
from __future__ import annotations

from tests.conftest import ADMIN, OUTSIDER
from tests.e2e_helpers import callback_text, latest_board, open_and_start, play_to_end

BOB, CID = 101, 102


def hidden_names(h, game) -> set[str]:
    """Names of face-down cards nobody has revealed yet (each card name is unique)."""
    engine = h.bot.tables.engine(game)
    public = str(engine.view(game.state, None))
    names = set()
    for seat in range(len(game.seats)):
        secret = engine.view(game.state, seat)["private"].get("secret")
        if secret and secret["name"] not in public:
            names.add(secret["name"])
    return names


async def test_three_player_game(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "tower", [ADMIN, BOB, CID])
    engine = h.bot.tables.engine(game)
    # Each thief got their face-down card by DM, and nobody else's.
    for seat, uid in enumerate([ADMIN, BOB, CID]):
        mine = engine.view(game.state, seat)["private"]["secret"]["name"]
        assert any(mine in m.content for m in fake.dms(uid))
        others = {engine.view(game.state, s)["private"]["secret"]["name"] for s in range(3) if s != seat}
        assert not any(name in m.content for m in fake.dms(uid) for name in others)
    board = latest_board(h)
    assert board.files and board.files[0][0] == "board.png"
    # A player's hand shown privately on request.
    rec = await h.click(CID, board, fake.find_component(board, label="Show my hand")["custom_id"])
    assert "face-down card" in callback_text(rec) and rec.callback["data"]["flags"] & 64

    seen_hidden: set[str] = set()

    async def no_leak(current):
        names = hidden_names(h, await h.bot.tables.get(current.id))
        seen_hidden.update(names)
        text = fake.public_text()
        assert not any(name in text for name in names), "a face-down card was named in public"

    game = await play_to_end(h, after_move=no_leak)
    assert game.status == "finished" and seen_hidden
    final = [m for m in fake.public_messages(game.channel_id) if "Final scores" in m.content]
    assert len(final) == 1 and {name for name, _ in final[0].files} >= {"final.png"}
    results = await h.bot.storage.user_stats(5000, ADMIN, "tower")
    assert results[0]["played"] == 1
    # Anyone can re-draw the finished game at any move, rebuilt from its log.
    rec = await h.slash(OUTSIDER, "game replay", {"id": game.id, "move": 5})
    assert "after move 5 of" in rec.message.content
    assert [name for name, _ in rec.message.files] == [f"replay-{game.id}-5.png"]
    assert fake.unhandled == []


async def test_two_player_master_thief_game(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "tower", [ADMIN, BOB], options="master_thief=yes")
    engine = h.bot.tables.engine(game)
    assert game.options["master_thief"] is True
    # The draft goes first, privately: the drafter (right of the starting player) is offered cards by DM.
    assert game.state["phase"] == "draft"
    drafter = engine.to_act(game.state)[0]
    offered = engine.view(game.state, drafter)["private"]["draft_hand"]
    assert offered
    drafter_user = game.seats[drafter]["user_id"]
    assert any(offered[0]["name"] in m.content for m in fake.dms(drafter_user))
    assert not any(c["name"] in fake.public_text() for c in offered)
    game = await play_to_end(h)
    assert game.status == "finished"
    # Two-player rules: the tiles for 2nd and last to exit and fewest curses are not used.
    labels = [a["label"] for a in engine.view(game.state, None)["final"]["awards"]]
    assert len(labels) == 10 and "1st to Exit" in labels
    assert not any("2nd" in t or "Last" in t or "Fewest" in t for t in labels)
