"""What The Wizard's Tower teaches a newcomer (see bot/teach.py): how to play, the glossary, a line of help per
kind of move with a preview of what it wins, and the tutorial (``/game learn``)."""
from __future__ import annotations

from bot.engine import Action, State
from bot.teach import HowToPlay, Tutorial, TutorialStep

from . import cards
from .board import BALCONY, FLOORS, SLOTS, floor_label, is_hidden, player_name
from .cards import BY_NAME, CARDS
from .scoring import head_start
from .texts import exit_tile

HOW_TO_PLAY = HowToPlay(
    goal=("You are a thief in a wizard's tower of 8 floors of cards. Take cards on your way down, then leave by "
          "the bridge with the most **prestige** (★)."),
    winning=("Prestige comes from the **scoring tiles**: each goes at the end to the one player who leads it (a tie "
             "gives it to nobody): the most value in each suit (Potion +3, Fossil +4, Artifact +4, Jewel +5, Tome "
             "+6), the most cards showing a 3 (+5), a 4 (+4), a 5 (+3), the most curses ☠ (-3) and the fewest (+1). "
             "The first thief out gets +2, the second +1, the last -1, and a few cards carry prestige. Your secret "
             "face-down card counts for you at the end. Most prestige wins."),
    turn=("On your turn **claim** one card on your thief's floor or below: it joins your haul and your thief moves "
          "to its space, **never back up**. A card with a power (✦) does it at once. Or **leave by the bridge**: "
          "you take the next exit tile and play no more. Each button says what the card is worth; the \"?\" says "
          "what each kind of move does."),
    board=("Floors F1 (top) to F8, each card with its value, suit, ☠ curses, ★ prestige and ✦ power. The "
           "numbered discs are the thieves. Under the bridge, the scoring tiles show who would win each if the game "
           "ended now (in their colour) and everyone's prestige so far; your DM counts your face-down card too."),
    example=lambda: (_example(), 0),
)

GLOSSARY = {
    "prestige": "The points of this game (★): the player with the most prestige at the end wins.",
    "scoring tile": "A prize awarded at the end to the one player who leads it (most Tome value, most 3s, fewest "
                    "curses...); a tie gives it to nobody.",
    "haul": "The cards you have taken: face-up for everyone to see, plus your secret face-down card.",
    "thief": "Your pawn, the numbered disc: it stands on the space of the last card you claimed.",
    "floor": "A row of five cards in the tower: F1 at the top, F8 at the bottom. You may claim on your thief's "
             "floor or below, never above.",
    "balcony": "Where every thief starts, above floor 1.",
    "bridge": "The way out of the tower: a thief who leaves by the bridge takes an exit tile and plays no more.",
    "exit tile": "1st to Exit (+2 prestige), 2nd to Exit (+1) and Last to Exit (-1), by the order thieves leave.",
    "claim": "Take a card from the tower into your haul; your thief moves to the space it leaves.",
    "value": "The number on a card: it adds to its suit's total, and counts for the 3s, 4s and 5s tiles.",
    "suit": "A card's kind of treasure: Potion, Fossil, Artifact, Jewel or Tome; the most value in a suit wins its "
            "tile.",
    "any suit": "A card that counts in all five suits (the rulebook calls it Wild).",
    "Wild": "The rulebook's word for a card that counts in all five suits: 'any suit' here.",
    "3s, 4s, 5s": "How many of your cards show a 3, a 4 or a 5 (Most 3s +5, 4s +4, 5s +3).",
    "curse": "The ☠ mark on a card: the most curses at the end costs 3 prestige, the fewest wins 1.",
    "curse-free": "A card without any curse mark.",
    "power": "What a card marked ✦ does the moment you claim it (shown on the card in a few words).",
    "face-down card": "Your secret card, dealt at the start: only you see it, and it counts for you at the end. The "
                      "tower's last card is face-down too, until someone claims it.",
    "secret card": "Your face-down card: only you see it, it counts for you at the end.",
    "Light and Dark cards": "The two decks: Light cards (values 3-5) make floors 1-2 and the secret cards, Dark "
                            "cards (values 3-7, many cursed) floors 3-8.",
    "box": "Out of the game: a card sent to the box can't be claimed any more.",
    "unseen": "Sent to the box without anyone seeing it.",
    "head start": "With the tuned rules at two players, the second player starts with 2 prestige (going second "
                  "is a disadvantage).",
    "tuned and rulebook rules": "The table option 'rules': tuned (the default) adds the two-player head start; "
                                "rulebook plays the printed rules.",
    "Master Thief": "A variant: the secret cards are drafted, one by one, once the tower is built.",
    "draft": "In the Master Thief variant, each player keeps one card of the hand passed to them as their secret "
             "card and passes the rest.",
    "special set": "The 8 special Dark cards with powers in play: set A (the default) or set B.",
    "two-player rule": "At two players, after each claim you must send a card of your floor to the box.",
    "Amulet of Nae": "Value 0, 2 curses: send any tower card to the box, then give the Amulet to another player.",
    "Haunted Nesting Dolls": "A 3, a 4 and a 5 at once for the number tiles; no suit; 1 curse.",
    "Radiant Hamsa": "A 5 without a suit that takes 2 curses off your total (never below 0).",
    "Sand of Illusion": "Goes under one of your face-up 3, 4 or 5 cards, which then counts twice for suits and "
                        "numbers; 1 curse.",
    "Serpent's Hourglass": "Any suit 1, 1 curse: take another turn at once.",
    "Tales of Myth & Magic": "Jewel and Tome 6, 1 curse: to claim it, send a curse-free card of your haul to the box.",
    "Thief's Portal Cloak": "Value 0, 1 curse: also take any one other tower card, above or below, without moving.",
    "Forged Certificate": "Value 0, 1 curse, +2 prestige.",
    "Distillation of Prescience": "Any suit 1, 1 curse: secretly look at another player's face-down card.",
    "Philosopher's Stone": "Any suit 3, 2 curses.",
    "Boots of Stealth, Purloiner's Pouch, Blade of Umbra": "Values 4, 4 and 5 without a suit, 1 curse, +1 prestige "
                                                           "each.",
    "Codex of Truth": "Jewel and Tome 4, 1 curse: your face-down card turns face-up.",
    "Bone Crown": "A 5 without a suit, 1 curse: every other player sends a curse-free card of their haul to the "
                  "box.",
    "Vampire's Blood": "Potion 5, 1 curse: you may swap a curse-free card of your haul for a curse-free card in the "
                       "tower.",
}

# Every card's name appears with its brief ("Ruby Slippers (Jewel 4)") in labels, events and the DM text.
PROPER_NAMES = tuple(c["name"] for c in CARDS)

REFERENCE_SECTIONS = {
    "Master Thief variant": "A table option: its draft panel explains itself ('Keep ... face-down').",
    "Rulebook and tuned rules": "The table of rule sets and why: a table option, not a rule to learn.",
    "Decisions": "How unclear rulebook lines were decided, with their tests: reference for the curious.",
    "Worked examples from the rulebook": "The rulebook's examples and the tests that check them.",
    "Components": "The card and tile lists.",
    "Bot": "How the bot players decide.",
    "Balance report": "Measured win shares.",
}


# ---------------------------------------------------------------------------------------------- help lines

def _known_hauls(state: State, seat: int) -> list[list[int]]:
    """Every haul as ``seat`` knows it: face-up cards, its own face-down card and the ones it peeked at."""
    hauls = [list(h) for h in state["hauls"]]
    if state["secret"][seat] is not None:
        hauls[seat].append(state["secret"][seat])
    for other, cid in state["seen"][seat]:
        if state["secret"][other] == cid:
            hauls[other].append(cid)
    return hauls


def _prestige(state: State, hauls: list[list[int]], seat: int) -> int:
    return int(cards.final_scores(hauls, state["sand_target"], state["exits"], head_start(state))["totals"][seat])


def _claim_preview(state: State, seat: int, legal: list[Action]) -> str:
    """The claims that would raise ``seat``'s prestige most if the game ended right after (what it knows)."""
    hauls = _known_hauls(state, seat)
    now = _prestige(state, hauls, seat)
    gains = []
    for action in legal:
        if action["type"] != "claim" or is_hidden(action["floor"], action["slot"]):
            continue
        cid = state["tower"][action["floor"]][action["slot"]]
        trial = [list(h) for h in hauls]
        trial[seat].append(cid)
        gains.append((_prestige(state, trial, seat) - now, -action["floor"], cards.name(cid), action["floor"]))
    best = sorted(gains, reverse=True)[:3]
    if not best or best[0][0] <= 0:
        return f" Your prestige now: {now}; no single card raises it at once (cards still build toward tiles)."
    shown = ", ".join(f"{name} ({floor_label(floor)}) {gain:+d}" for gain, _, name, floor in best if gain > 0)
    return f" Your prestige now: {now}. Biggest gains if the game ended after the claim: {shown}."


def _claim_help(state: State, seat: int, legal: list[Action]) -> str:
    floor = state["pawns"][seat][0]
    where = "the balcony" if floor == BALCONY else floor_label(floor)
    specials = sorted({cards.name(state["tower"][a["floor"]][a["slot"]]) for a in legal if a["type"] == "claim"
                       and not is_hidden(a["floor"], a["slot"])
                       and CARDS[state["tower"][a["floor"]][a["slot"]]]["power"]})
    powers = "".join(f" {name}: {CARDS[BY_NAME[name]]['text']}" for name in specials)
    hidden = (" The face-down card is unknown until claimed." if any(
        a["type"] == "claim" and is_hidden(a["floor"], a["slot"]) for a in legal) else "")
    return ("Claim: the card joins your haul and your thief moves to its space; you are on " + where + ", and any "
            "card above the floor you move to is gone for you for good." + hidden + powers
            + _claim_preview(state, seat, legal))


def _exit_help(state: State, seat: int, legal: list[Action]) -> str:
    tile = exit_tile(state)
    took = f"take {tile[0]} ({tile[1]:+d} prestige) and " if tile else ""
    left = sum(1 for f in range(FLOORS) for s in range(SLOTS) if state["tower"][f][s] is not None
               and f >= max(0, state["pawns"][seat][0]))
    now = _prestige(state, _known_hauls(state, seat), seat) + (tile[1] if tile else 0)
    return (f"Leave by the bridge: you {took}play no more turns; {left} card{'s' if left != 1 else ''} within your "
            f"reach stay behind. Your prestige if the game ended then, counting your face-down card: {now}.")


def _discard_tower_help(state: State, seat: int, legal: list[Action]) -> str:
    if state["queue"] and state["queue"][0]["k"] == "row_discard":
        return ("Two-player rule: send one card of your thief's floor to the box, so nobody can claim it: best the "
                "card your rival wants most. The face-down card goes unseen.")
    return ("Amulet of Nae, first half: send any tower card, on any floor, to the box, so nobody can claim it (the "
            "face-down card goes unseen); then you give the Amulet away.")


def _discard_haul_help(state: State, seat: int, legal: list[Action]) -> str:
    if state["queue"] and state["queue"][0]["k"] == "tales":
        return ("Tales of Myth & Magic's price: one curse-free card of your haul goes to the box; Tales adds 6 to "
                "both Jewel and Tome. Give up the card that wins you least.")
    return "Bone Crown: you must send one curse-free card of your haul to the box. Give up the one that wins you least."


def _give_help(state: State, seat: int, legal: list[Action]) -> str:
    hauls = _known_hauls(state, seat)
    curses = [cards.haul_stats(h)["curses"] for h in hauls]
    shown = ", ".join(f"{player_name(state, a['to'])} has {cards.curse_words(curses[a['to']])}" for a in legal)
    return ("Amulet of Nae: give it (2 curses, value 0) to another player: their curse total rises by 2, which can "
            f"hand them Most Curses (-3). Now (face-up cards): {shown}.")


HELP = {
    "claim": _claim_help,
    "exit": _exit_help,
    "discard_tower": _discard_tower_help,
    "discard_haul": _discard_haul_help,
    "give": _give_help,
    "draft": lambda state, seat, legal: ("Master Thief draft: keep one of these cards face-down as your secret card "
                                         "(it counts for you at the end); the rest pass to the next player."),
    "sand": lambda state, seat, legal: ("Sand of Illusion: tuck it under one of your face-up 3, 4 or 5 cards: that "
                                        "card then counts twice for its suits and its number."),
    "take": lambda state, seat, legal: ("Thief's Portal Cloak: also take any one card of the tower, above or below, "
                                        "without moving your thief; its own power happens too."),
    "peek": lambda state, seat, legal: ("Distillation of Prescience: secretly look at another player's face-down "
                                        "card; only you learn it."),
    "skip": lambda state, seat, legal: "Vampire's Blood: keep your haul as it is.",
    "swap": lambda state, seat, legal: ("Vampire's Blood: give one curse-free card of your haul back to the tower, "
                                        "then pick the curse-free tower card you take for it."),
    "swap_take": lambda state, seat, legal: ("Vampire's Blood: the curse-free tower card you take in exchange; your "
                                             "card goes to its space. Your thief doesn't move."),
}


def action_help(state: State, seat: int, legal: list[Action]) -> dict[str, str]:
    """One line per kind of move offered: what it does, costs and can win, with a preview of the prestige."""
    return {kind: HELP[kind](state, seat, legal) for kind in dict.fromkeys(str(a["type"]) for a in legal)}


# ---------------------------------------------------------------------------------------------- the tutorial

YOU, ROOK, WREN = 0, 1, 2
NAMES = ["Ada", "Rook", "Wren"]  # the learner plays Ada, thief 1
TOWER = (
    ("Orion's Bestiary", "Eye of Vala", "Gibbon's Paw", "Love Potion #8", "Angelic Compass"),
    ("Book of Spells", "Heart of Eternity", "Dragon Skull", "Celestial Tarot", "Potion of Strength"),
    ("Grimoire of Ancients", "Ruby Slippers", "Serpent's Hourglass", "Wings of Fae", "Canopic Jar of Nur"),
    ("Tales of Myth & Magic", "Mechanical Owl", "Sleeping Tincture", "Unicorn Horn", "Araby, the Golden Age"),
    ("Necronomicon", "Prismatic Pyramid", "Radiant Hamsa", "Scrying Bowl", "Paracelsus Spagyric"),
    ("Sand of Illusion", "The Five Rings", "Achilles' Calcaneus", "Aladdin's Lamp", "Quietus Concoction"),
    ("Millennium Rose Diamond", "Tiktaalik Fin", "Thief's Portal Cloak", "Stars of the Night Sky", "Forged Certificate"),
    ("Basilisk Fang", "Mirror of Sorrows", "Seven Aspects of Unity", "Dr. Jekyll's Draught", "Haunted Nesting Dolls"),
)
SECRETS = ("Flamel's Formulas", "Silver Idol of Hun-Batz", "Greater Potion of Healing")


def _table(names: list[str], tower: dict[tuple[int, int], str], hauls: dict[int, list[str]],
           secrets: dict[int, str | None], pawns: dict[int, tuple[int, int]], turn: int = YOU) -> State:
    """A scripted position: the tower, hauls, secrets and thieves as given; every other card of the set in play
    in the box, unseen (so every card is somewhere, as in a dealt game)."""
    from .engine import ENGINE
    state = ENGINE.setup(list(names), ENGINE.meta.resolve_options({}), 1)
    state["tower"] = [[None] * SLOTS for _ in range(FLOORS)]
    placed: set[int] = set()
    for (floor, slot), card in tower.items():
        state["tower"][floor][slot] = BY_NAME[card]
        placed.add(BY_NAME[card])
    for seat in range(len(names)):
        state["hauls"][seat] = [BY_NAME[c] for c in hauls.get(seat, [])]
        secret = secrets.get(seat)
        state["secret"][seat] = BY_NAME[secret] if secret else None
        placed.update(state["hauls"][seat])
        if secret:
            placed.add(BY_NAME[secret])
        state["pawns"][seat] = list(pawns.get(seat, (BALCONY, -1)))
    state["box"] = []
    state["box_unseen"] = [c for c in cards.LIGHT + cards.DARK_PLAIN + cards.SET_A if c not in placed]
    state["turn"] = turn
    return state


def start() -> State:
    """The tutorial's opening: three thieves on the balcony, a full tower laid out to teach."""
    layout = {(f, s): card for f, row in enumerate(TOWER) for s, card in enumerate(row)}
    return _table(NAMES, layout, {}, dict(enumerate(SECRETS)), {})


def claim(floor: int, slot: int) -> Action:
    """A claim of the card on this space (floors and slots counted from 0, the top floor first)."""
    return {"type": "claim", "floor": floor, "slot": slot}


# The scripted moves of the opening, in order: (seat, action).
OPENING = ((YOU, claim(1, 0)), (ROOK, claim(1, 2)), (WREN, claim(1, 4)),
           (YOU, claim(1, 1)), (ROOK, claim(1, 3)), (WREN, claim(2, 3)))


def _example() -> State:
    """The how-to-play picture's position: the tutorial's table a few moves in, your turn on floor 2."""
    from .engine import ENGINE
    state = start()
    for seat, action in OPENING:
        ENGINE.apply(state, seat, action)
    return state


def late() -> State:
    """Late in the game: you on floor 7 with a strong haul, the other thieves still inside, no one out yet."""
    tower = {(6, 3): "Stars of the Night Sky", (6, 4): "Forged Certificate", (7, 0): "Basilisk Fang",
             (7, 1): "Mirror of Sorrows", (7, 3): "Dr. Jekyll's Draught", (7, 4): "Haunted Nesting Dolls"}
    hauls = {YOU: ["Book of Spells", "Heart of Eternity", "Serpent's Hourglass", "Ruby Slippers", "The Five Rings",
                   "Araby, the Golden Age", "Tiktaalik Fin"],
             ROOK: ["Dragon Skull", "Celestial Tarot", "Canopic Jar of Nur", "Unicorn Horn", "Scrying Bowl",
                    "Millennium Rose Diamond"],
             WREN: ["Potion of Strength", "Wings of Fae", "Grimoire of Ancients", "Quietus Concoction",
                    "Paracelsus Spagyric", "Achilles' Calcaneus"]}
    return _table(NAMES, tower, hauls, dict(enumerate(SECRETS)), {YOU: (6, 1), ROOK: (6, 0), WREN: (5, 2)})


def two_players() -> State:
    """Two players: you have just claimed Basilisk Fang on floor 6 and must send a card of that floor to the box."""
    tower = {(5, 1): "Unicorn Horn", (5, 2): "Sleeping Tincture", (5, 3): "Aladdin's Lamp",
             (6, 0): "Millennium Rose Diamond", (6, 3): "Stars of the Night Sky", (7, 1): "Mirror of Sorrows",
             (7, 4): "Haunted Nesting Dolls"}
    hauls = {YOU: ["Book of Spells", "Heart of Eternity", "Basilisk Fang"],
             ROOK: ["Dragon Skull", "Wings of Fae", "Tiktaalik Fin"]}
    state = _table(NAMES[:2], tower, hauls, {YOU: SECRETS[0], ROOK: SECRETS[1]}, {YOU: (5, 0), ROOK: (4, 1)})
    state["queue"] = [{"k": "row_discard", "seat": YOU, "floor": 5}]
    return state


def tutorial() -> Tutorial:
    """Nine steps, one per section a player must know: the tower, winning, claiming, moving down, powers, curses,
    leaving, final scoring, two players (the same object every time: a run compares its steps)."""
    return TUTORIAL


TUTORIAL = Tutorial(
    seat=YOU,
    start=start,
    intro=("A short game against two bots, Rook and Wren: each step shows one rule and asks for one move. You "
           "play Ada, thief 1."),
    steps=(
        TutorialStep(
            "The tower",
            ("The tower has 8 floors of 5 cards: F1 at the top, F8 at the bottom (its last card is face-down: "
             "nobody knows it). Your thief (disc 1) waits on the balcony above floor 1 with the others. You also "
             "hold a secret face-down card: Flamel's Formulas (Tome 4). Only you see it; it counts for you at "
             "the end."),
            expect=None),
        TutorialStep(
            "Winning: prestige and the scoring tiles",
            ("You win with the most prestige (★). It comes from the scoring tiles under the bridge: each goes to "
             "the one player who leads it at the end, a tie to nobody. Most Tome is worth +6: the sum of the "
             "values of your Tome cards. Your secret Flamel's Formulas already gives you Tome 4."),
            expect=None),
        TutorialStep(
            "Your turn: claim a card",
            ("On your turn you claim one card: it joins your haul and your thief moves to its space. Claim Book "
             "of Spells (Tome 5) on floor 2."),
            expect=(claim(1, 0),),
            hint="Claim Book of Spells (Tome 5), floor 2",
            wrong="This step asks for Book of Spells (Tome 5) on floor 2: with your secret card it makes Tome 9.",
            wrong_by_type=(("exit", "Leaving now would end your game with almost nothing: claim Book of Spells "
                                    "first."),),
            after=("Book of Spells is yours and your thief stands on floor 2. With your secret card you have Tome "
                   "9: Most Tome (+6) would be yours if the game ended now. Rook takes Dragon Skull, Wren takes "
                   "Potion of Strength."),
            then=OPENING[1:3]),
        TutorialStep(
            "Down, never up",
            ("Thieves never climb: floor 1 is gone for you for good. Moving down skips floors for good too, so "
             "take what you want on your way. You may move sideways: claim Heart of Eternity (Jewel 4) on your own "
             "floor 2."),
            expect=(claim(1, 1),),
            hint="Claim Heart of Eternity (Jewel 4), floor 2",
            wrong=("That is allowed, but it skips cards you could still take. This step: Heart of Eternity (Jewel "
                   "4), on your own floor 2."),
            after="Heart of Eternity is yours and floor 3 is still open to you. Rook takes Celestial Tarot, Wren "
                  "moves down to Wings of Fae on floor 3.",
            then=OPENING[4:6]),
        TutorialStep(
            "Card powers",
            ("A card marked ✦ has a power that happens as soon as you claim it. Serpent's Hourglass (any suit 1: "
             "it counts in all five suits) gives you another turn at once. Claim it on floor 3."),
            expect=(claim(2, 2),),
            hint="Claim Serpent's Hourglass, floor 3",
            wrong="This step asks for Serpent's Hourglass on floor 3, to see a power at work.",
            after="Its power: you play again right away."),
        TutorialStep(
            "Curses",
            ("☠ is a curse: at the end the most curses costs 3 prestige, the fewest gains 1. The Hourglass gave "
             "you 1. Grimoire of Ancients (Tome 6) carries one too; Ruby Slippers (Jewel 4) is curse-free and "
             "makes your Jewel 9 (the Hourglass counts in every suit). Claim Ruby Slippers on floor 3."),
            expect=(claim(2, 1),),
            hint="Claim Ruby Slippers (Jewel 4), floor 3",
            wrong=("This step asks for Ruby Slippers (Jewel 4) on floor 3: no curse, and it puts you ahead on "
                   "Most Jewel."),
            after="Ruby Slippers is yours. Rook takes Canopic Jar of Nur; Wren takes Grimoire of Ancients and its "
                  "curse.",
            then=((ROOK, claim(2, 4)), (WREN, claim(2, 0)))),
        TutorialStep(
            "Leaving by the bridge",
            ("Let's skip ahead: the tower is nearly empty and you lead Tome and Jewel. Instead of claiming you "
             "may leave by the bridge at any time: the first thief out takes 1st to Exit (+2), the second +1, the "
             "last -1, and you play no more. Leave now."),
            expect=({"type": "exit"},),
            hint="Leave by the bridge: take 1st to Exit (+2 prestige)",
            wrong=("Claiming is allowed, but this step is about leaving: only one thief gets 1st to Exit (+2). "
                   "Leave by the bridge."),
            after="You are out with 1st to Exit. Rook and Wren play on until they leave too.",
            position=late),
        TutorialStep(
            "Final scoring and ties",
            ("When every thief is out, the face-down cards are revealed and the tiles are awarded one by one: the "
             "final picture shows each tile, everyone's figure and its winner. A tie for a tile gives it to "
             "nobody; a tie for the win goes to the fewest curses, then the most tiles."),
            expect=None),
        TutorialStep(
            "Two players",
            ("At two players, after each claim you must send a card of your thief's floor to the box. You just "
             "claimed Basilisk Fang on floor 6; Rook leads Most Fossil and Unicorn Horn (Fossil 6) would keep him "
             "ahead. Discard Unicorn Horn. (With the tuned rules the second player also starts with 2 "
             "prestige.)"),
            expect=({"type": "discard_tower", "floor": 5, "slot": 1},),
            hint="Discard Unicorn Horn (Fossil 6) from floor 6",
            wrong="This step asks you to send Unicorn Horn (Fossil 6) to the box, so Rook can't take it.",
            after="Unicorn Horn is out of the game: Rook can't take it.",
            position=two_players),
    ),
    outro="You're ready: open a real table with `/game new`, or read the whole rules with `/game rules`.",
)

