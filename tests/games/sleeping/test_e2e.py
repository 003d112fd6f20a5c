"""Sleeping Wizard end to end: a 4-player game through the fake Discord server,
proving no player is ever shown their own unpeeked cards (by DM or ephemerally)
and that the public channel never shows a hand card."""
from __future__ import annotations

from bot.games.sleeping.cards import CARDS
from cogs.dms import NOTIFYING_DMS
from tests.conftest import ADMIN, CHANNEL
from tests.e2e_helpers import callback_text, latest_board, open_and_start, play_to_end

USERS = [ADMIN, 101, 102, 103]


def unpeeked_names(state, seat) -> set[str]:
    return {CARDS[c]["name"] for c in state["hands"][seat] if c is not None and c not in state["known"][seat]}


def hand_names(state) -> set[str]:
    return {CARDS[c]["name"] for hand in state["hands"] for c in hand if c is not None}


async def test_four_player_game_keeps_each_hand_from_its_owner(harness):
    h, fake = harness, harness.fake
    game = await open_and_start(h, "sleeping", USERS)
    dm_bodies_seen: dict[int, int] = {}  # DM message id -> how many of its bodies (send + edits) were checked
    checks = {"dms": 0, "hand": 0}

    async def check(current):
        game = await h.bot.tables.get(current.id)
        if game.status != "running":
            return
        state = game.state
        for seat, uid in enumerate(USERS):
            secret = unpeeked_names(state, seat)
            for message in fake.dms(uid):
                bodies = message.history[dm_bodies_seen.get(message.id, 0):]
                dm_bodies_seen[message.id] = len(message.history)
                for body in bodies:
                    checks["dms"] += 1
                    text = str(body.get("content") or "")
                    assert not any(name in text for name in secret), "a DM showed a player their own card"
        # Someone asks for their hand: they see the others' cards, never their own unpeeked ones.
        seat = game.version % len(USERS)
        board = latest_board(h)
        if game.version % 3:
            return
        rec = await h.click(USERS[seat], board, fake.find_component(board, label="Show my hand")["custom_id"])
        text = callback_text(rec)
        checks["hand"] += 1
        assert rec.callback["data"]["flags"] & 64
        assert not any(name in text for name in unpeeked_names(state, seat))
        others = {CARDS[c]["name"] for s, hand in enumerate(state["hands"]) if s != seat for c in hand if c is not None}
        assert all(name in text for name in others), "a player must see every other hand"
        # New channel messages never name a card that sits in a hand now, except in the sentences that
        # report a hire or a push to the market: that card left the hand face up, and after the
        # end-of-round reshuffle it may be dealt again.
        messages = fake.public_messages(CHANNEL)
        lines = [line for m in messages[public_seen[0]:] for line in (m.content + m.embed_texts).splitlines()
                 if " hires " not in line and " to the market" not in line]
        public_seen[0] = len(messages)
        leaked = [name for name in hand_names(state) if any(name in line for line in lines)]
        assert not leaked, (leaked, [l for l in lines if leaked[0] in l])

    public_seen = [0]

    game = await play_to_end(h, after_move=check)
    assert game.status == "finished"
    # (a hand's DM is edited at most every 20 s, or 2 minutes for the player's own moves: a few dozen versions
    # of the four hands in a game played this fast, each checked; "Show my hand" checks the rest)
    assert checks["dms"] > 20 and checks["hand"] > 10
    # Each scored round is shown as its own summary picture under the board.
    round_posts = [m for m in fake.public_messages(CHANNEL) if any(n == "round.png" for n, _ in m.files)]
    assert len(round_posts) >= 4 and all(m.files[0][0] == "board.png" for m in round_posts)
    # The hand DM is one message edited in place as it changes, not sent again every turn; a few short notes
    # (what someone else's move showed a player) notify.
    for uid in USERS:
        assert sum(1 for m in fake.dms(uid) if any(n == "hand.png" for n, _ in m.files)) == 1
        assert len(fake.dms(uid)) <= NOTIFYING_DMS
    assert fake.unhandled == []
