"""Wizard's Rage for a newcomer (see bot/teach.py): how to play, the glossary, a line of help per kind of move,
and a tutorial as a hero against the bots, one rule of docs/rules/rage.md per step."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.teach import HowToPlay, Tutorial, TutorialStep

from . import board, cards, loot
from .bot_player import win_prob
from .constants import FREE_LIMIT, HERO_HP

State = dict[str, Any]


def _example() -> tuple[State, int | None]:
    """A 4-player game a few rounds in, seen by hero 1 (the labelled picture)."""
    import random

    from . import ENGINE

    state = ENGINE.setup(["Morgana", "You", "Bea", "Cal"], ENGINE.meta.resolve_options({}), 5)
    rng = random.Random(5)
    for _ in range(40):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return state, 1


HOW_TO_PLAY = HowToPlay(
    goal="One player is the **wizard**; everyone else is a **hero**, and the heroes play as one team. Three "
         "**keys** are hidden under the face-down rooms of the grid. The heroes explore, find the keys and storm "
         "the wizard's tower in the middle; the wizard fills the rooms with monsters, traps and decoys to stop them.",
    winning="The heroes win together when they enter the tower with all 3 keys and beat whatever guards it. The "
            "wizard wins if every hero falls (10 hit points each) or when the last round ends (the board says "
            "\"Round 3 of 16\"). There are no points: one side wins.",
    turn="A round is the wizard's turn, then the heroes' turn. The wizard draws a card and plays cards with the "
         "mana of the **Mana Wheel**: monsters and traps go face down, each with a blank decoy, spells hit heroes at "
         "once. Then every hero picks a move in secret (a step, a quick march of 2-3 tiles, a Sprint card or "
         "stay) after any free item actions (drink a potion, equip, give); the moves are shown together. "
         "Entering a room turns it over, springs its face-down tokens and, if no monster is there, gives you a "
         "loot card. Monsters fight: a d20 plus their levels against your best d20 plus all the heroes' gear "
         "there; lose and you step back hurt. Once all 3 keys are taken, tiles crumble every wizard turn.",
    board="Squares are named by column and row (B3). Green corners are the heroes' **camps**; a \"?\" marks an "
          "unexplored room; the purple square is the **tower**, its gold bar the **door** (enter it from the tile "
          "it faces). A \"?\" card on a room is a face-down token (\"x2\": two): a monster, a trap or a decoy, "
          "nobody but the wizard knows which. Red badges are monsters showing their total level; a gold ring's "
          "number counts the key vaults within 2 steps; a crossed-out square has crumbled away. Under the grid, "
          "a legend, the wizard's Mana Wheel and each hero's hit points, keys, combat and trap-save bonuses.",
    example=_example,
)

GLOSSARY: dict[str, str] = {
    "wizard": "The table's first seat: hides the keys and plays monsters, traps and spells against the heroes; "
              "wins if every hero falls or the last round ends.",
    "hero": "Every other player: the heroes play as one team and win together by storming the tower.",
    "key": "Three are hidden under key vaults; a hero takes one by entering its vault with no monster in it.",
    "key vault": "The face-down room a key is hidden under (the wizard picks them at the start).",
    "tower": "The wizard's square in the middle; heroes on the tile before its door who hold all 3 keys between "
             "them may enter it, and win by beating what guards it.",
    "door": "The side of the tower the heroes enter from (a gold bar); the Shifting Stones spell turns it.",
    "camp": "A hero's start, in a corner of the grid.",
    "room": "A square of the grid; face down (\"?\") until a hero enters it.",
    "unexplored": "A face-down room nobody has entered yet.",
    "revealed": "A room a hero entered: turned face up; what it does to the wizard's cards and Mana Wheel applies "
                "once.",
    "Mana Wheel": "The wizard's mana each turn (up to 8); rooms turn it up or down when revealed; at 8 the wizard "
                  "draws an extra card each turn.",
    "mana": "What the wizard pays to play a card, from the Mana Wheel's value each turn.",
    "token": "A monster, a trap or a blank decoy put face down on a room; it turns over when a hero enters.",
    "face-down": "Not shown yet: a room or a token only the wizard knows.",
    "decoy": "A blank face-down token that vanishes when a hero enters: it hides where the real monster or trap "
             "is (each monster or trap card comes with one).",
    "blank": "A decoy token: it does nothing.",
    "trap": "A face-down token: every hero on the room rolls a d20 plus their trap save; below 10 they take 2 "
            "damage.",
    "trap save": "What a hero adds to a d20 against a trap or a Fireball (boots and shields give it).",
    "save": "A trap save: a d20 plus the hero's boots and shields, 10 or more to take no damage.",
    "monster": "A token that fights the heroes who enter its room: a d20 plus its level.",
    "gang": "Several monsters of one card (Giant Rats, Goblin Gang, Orc Warband) on one token: they fight "
            "together and each one hits.",
    "level": "A monster's strength, added to the wizard's d20 in a fight.",
    "combat": "A fight: the wizard rolls a d20 plus every monster's level; the heroes in the room each roll a "
              "d20, keep the best and add all their gear; ties go to the heroes.",
    "combat bonus": "What a hero adds in a fight: their swords, boots and shields' combat values and a Strength "
                    "Draught.",
    "damage": "Hit points lost: a monster's when the heroes lose a fight, 2 from a trap or a Fireball.",
    "hit points": f"A hero's life, {HERO_HP} at the start; at 0 the hero falls.",
    "HP": "Hit points.",
    "falls": "A hero at 0 hit points is out; their cards and keys stay on the tile for another hero to pick up.",
    "dropped items": "Cards and keys of a fallen hero, left on the tile (a gold square) for the next hero there.",
    "loot": "A card from the loot deck: a room's first visit with no monster gives 1, a won fight 1 (2 on the "
            "room's first victory).",
    "equip": "Wear a sword, boots or a shield (2 swords, 1 boots, 1 shield at most); worn gear adds to every "
             "roll.",
    "equips": "Puts on a sword, boots or a shield.",
    "loots": "Takes a loot card from the room.",
    "free action": f"Drinking a potion, equipping, giving a card or a key: before you commit your move, up to "
                   f"{FREE_LIMIT} a turn.",
    "commit": "Pick your move for the round in secret; when every hero has, all moves are shown and happen "
              "together.",
    "step": "A move of one tile north, east, south or west.",
    "quick march": "A free move of 2 tiles when the first holds no tokens, or 3 over two revealed rooms with no "
                   "tokens (tuned rules only).",
    "march": "A quick march.",
    "Sprint": "A loot card: run 2 or 3 tiles through anything, even when frozen (a room with known monsters ends "
              "the run).",
    "scouting": "A revealed room shows how many key vaults lie within 2 steps of it, in a gold ring (tuned rules "
                "only).",
    "frozen": "Hit by a Frost Bolt: the hero skips their next move (items still work, a Sprint breaks free).",
    "Frost Bolt": "A wizard spell: the heroes on one tile skip their next move.",
    "Ambush": "A wizard spell: a level 3 monster (the Ambusher) appears on a hero's tile and they must fight it "
              "there.",
    "Ambusher": "The level 3 monster an Ambush spell puts on a hero's tile.",
    "Fireball": "A wizard spell: every hero on one tile rolls a trap save or takes 2 damage.",
    "rage": "Once all 3 keys are taken, every wizard turn begins with tiles crumbling away, as many as players.",
    "crumbles": "Falls into the void: the tile is gone for good, with its tokens.",
    "crumbled": "Gone for good (a crossed-out square).",
    "round limit": "The last round: when it ends the wizard wins (16 rounds at 3-4 players, 15 at 5 under the "
                   "tuned rules; a table option).",
    "round": "The wizard's turn, then every hero's move.",
    "hand limit": "The wizard keeps at most 6 cards at the end of their turn, discarding the rest.",
    "discards": "Puts a card on the discard pile (the wizard, over the hand limit or from a room's value).",
    "shuffles": "Mixes cards back into the deck.",
    "instant": "Ley Tap, Dark Surge and Scrying Pool act as soon as the wizard draws them.",
    "dodges": "Rolls high enough on a trap save to take no damage.",
    "rulebook": "The table option rules: rulebook plays the printed rules (1 damage per monster, the wizard "
                "places every decoy and picks every crumbling tile, no quick march, no scouting).",
    "tuned": "The table option rules: tuned (the default) plays the printed rules with the measured changes listed "
             "in the rules doc.",
    "card's": "Belonging to the card being played.",
    "tower's": "Belonging to the tower.",
    "wizard's": "Belonging to the wizard.",
}

# Card and room names: each appears with what it does (the loot text in the hero's hand, the wizard's card
# text in its hand and when cast, a room's values when it is revealed).
PROPER_NAMES = tuple(sorted({d["name"] for d in cards.WIZARD_DEFS.values()} | {d["name"] for d in cards.LOOT_DEFS.values()}
                            | {d["name"] for d in cards.TILE_DEFS.values()}))

REFERENCE_SECTIONS: dict[str, str] = {
    "Options": "the table options a host sets in the lobby, not a rule a player uses in a turn",
    "Tuned and rulebook rules": "the comparison of the two rule sets, with the balance report's figures",
    "Decisions": "where the rulebook is silent: each decision is covered by a test, and the steps teach the "
                 "rules that follow from them",
    "Designed data": "the card and room lists with their numbers (each card's text is shown where it is played)",
    "Balance report": "measurements of bot games",
    "Bot": "how the bots decide",
    "What each player sees": "how the hidden information is split between the views (the steps show it)",
}


# --- "?" on the move panel: one line per kind of move on offer --------------------------------------------------
def _fight_preview(engine: Any, state: State, seat: int, tile: int) -> str:
    """Your chance against the face-up monsters on ``tile`` with the heroes already there."""
    mons = board.face_up_monsters(state, tile)
    if not mons:
        return ""
    level, hits = board.monster_power(state, mons)
    fighters = set(board.heroes_on(state, tile)) | {seat}
    bonus = sum(board.attack(state, s) for s in fighters)
    lone = bool(state["options"].get("lone_hero")) and len(board.living(state)) == 1
    chance = win_prob(len(fighters), bonus, level, lone)
    return (f" On {board.label(state, tile)}: your side's +{bonus} and the best of {len(fighters)} d20 against "
            f"level {level} and a d20: you win {chance:.0%} of the time; lose and you step back and take {hits} "
            f"damage.")


def action_help(state: State, seat: int, legal: list[dict]) -> dict[str, str]:
    """What each kind of move offered does, costs and can win (a fight's odds where one is in reach)."""
    from . import ENGINE

    engine: Any = ENGINE
    kinds = {str(a.get("type")) for a in legal}
    out: dict[str, str] = {}
    fights = [a for a in legal if a.get("type") == "move" and board.face_up_monsters(state, a["to"])]
    preview = _fight_preview(engine, state, seat, fights[0]["to"]) if fights and seat else ""
    here = board.face_up_monsters(state, state["heroes"][seat]["pos"]) if seat else []
    lines = {
        "tower": "Raise your tower on one of the four middle squares (the grid has no single centre).",
        "entrance": "Pick the side the tower's door faces: heroes enter only from the tile in front of it.",
        "hide_key": "Hide a key under a face-down room; the heroes must find all three (far from their camps is "
                    "hard to reach).",
        "keep": "Keep 3 of your 5 opening cards; the other 2 go back into the deck.",
        "remove": "The rage: crumble a tile for good (never the tower's ring, a hero's tile or a tile that would "
                  "cut a hero off from the door)" + ("" if board.rulebook(state) else
                                                       "; the safe tiles nearest it crumble with it") + ".",
        "discard": f"You hold more than {cards.HAND_LIMIT} cards: discard one.",
        "end_turn": "End your turn: the heroes then pick their moves.",
        "play": f"Play a card for its mana cost ({board.mana_left(state)} mana left this turn): a monster or trap "
                "goes face down with its decoy, a spell acts at once.",
        "place": ("Pick the tile for the decoy, a blank token that hides which tile holds the real one; nobody "
                  "sees a tile before the last is placed." if (state["pending"] or {}).get("picks") else
                  "Pick the tile for the card's real token (never a hero's tile)" + (
                      ", then one for its decoy; nobody sees a tile before the last" if board.rulebook(state) else
                      "; its decoy is drawn the way the bot places real tokens, so nothing tells them apart") + "."),
        "target": "Pick the tile your spell hits (only tiles with heroes are offered).",
        "move": "Step one tile; entering a face-down room turns it over, springs its tokens and loots it if no "
                "monster is there." + preview,
        "go": "Pick where to go this round; there is more than one way there, so you choose the way next.",
        "back": "Go back and pick another tile to go to.",
        "march": "March (a quick march): 2 tiles for free when the first has no tokens, 3 over two revealed rooms "
                 "with no tokens; monsters revealed on the way stop you.",
        "sprint": "Play your Sprint card: run 2 or 3 tiles through anything, even when frozen; a room with "
                  "monsters ends the run.",
        "stay": ("Stay and fight the monsters on your tile." + _fight_preview(engine, state, seat,
                                                                           state["heroes"][seat]["pos"])
                 if here else "Stay where you are this round (a frozen hero, or one on tokens, can only stay)."),
        "use": "Use an item from your hand now, a free action: heal, drink strength (+5 in this turn's fight) or "
               "raise a ward against traps.",
        "banish": "Read your Banish Scroll: every token on your tile or a neighbour vanishes, monsters included.",
        "equip": "Wear an item from your hand, a free action (2 swords, 1 boots, 1 shield); a swapped item goes to "
                 "your hand.",
        "give": "Give a card to a hero on your tile, a free action.",
        "give_key": "Give a key to a hero on your tile: the heroes at the door need all 3 keys between them.",
    }
    if seat and state["phase"] == "heroes":
        hero = state["heroes"][seat]
        lines["use"] += f" ({FREE_LIMIT - hero['free']} free actions left this turn.)"
        if hero["frozen"]:
            lines["stay"] = "You are frozen: you skip this move (your items still work, and a Sprint breaks free)."
    for kind in kinds:
        out[kind] = lines.get(kind, "A move of the game.")
    return out


# --- the tutorial: a 3-player game, you are hero 1 (top left) ------------------------------------------------------
def _base(seed: int = 3) -> State:
    """A 3-player table past the set-up: the wizard (a bot) has hidden the keys on C1, E3 and A5, and you, hero 1,
    stand on your camp A1; it is the heroes' first turn."""
    from . import ENGINE

    state = ENGINE.setup(["Morgana", "Ash", "Robin"], ENGINE.meta.resolve_options({}), seed)
    ENGINE.apply(state, 0, {"type": "entrance", "dir": "W"})
    for tile in (2, 14, 20):  # C1, E3, A5
        ENGINE.apply(state, 0, {"type": "hide_key", "tile": tile})
    ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    state["wizard"]["discard"].extend(state["wizard"]["hand"])
    state["wizard"]["hand"] = []
    state["phase"] = "heroes"
    state["commits"] = {}
    return state


def _token(state: State, tile: int, token: dict) -> None:
    tid = state["next_token"]
    state["next_token"] += 1
    state["tokens"][str(tid)] = token
    state["tiles"][tile]["tokens"].append(tid)


def _give(state: State, seat: int, key: str) -> int:
    for pile in (state["loot"]["deck"], state["loot"]["discard"]):
        for cid in pile:
            if state["lcards"][cid] == key:
                pile.remove(cid)
                loot._gain_card(state, seat, cid)
                return cid
    raise ValueError(key)


def _start() -> State:
    return _base()


def _items() -> State:
    """You stand hurt on A2 with a Healing Potion and a Broadsword in hand."""
    state = _base()
    hero = state["heroes"][1]
    hero.update(pos=5, hp=4)
    state["tiles"][5].update(up=True, searched=True)
    _give(state, 1, "short_sword")
    _give(state, 1, "short_sword")
    _give(state, 1, "broadsword")
    _give(state, 1, "potion")
    return state


def _tokens() -> State:
    """A face-down token lies on B2, next to you on A2 (it is a decoy); Robin stands on D1."""
    state = _base()
    state["heroes"][1]["pos"] = 5
    state["tiles"][5].update(up=True, searched=True)
    state["heroes"][2]["pos"] = 3
    _token(state, 6, {"kind": "blank", "up": False, "card": "blank", "level": 0})
    return state


def _fight() -> State:
    """Giant Rats (two level-1 rats) show on B2, next to you on A2; you wear two Short Swords."""
    state = _base()
    state["heroes"][1]["pos"] = 5
    state["tiles"][5].update(up=True, searched=True)
    state["tiles"][6]["up"] = True
    _give(state, 1, "short_sword")
    _give(state, 1, "short_sword")
    _token(state, 6, {"kind": "monster", "up": True, "card": "rats", "level": 1, "count": 2, "damage": 1})
    state["rng"] = 1  # the game's dice from here let the learner win this fight
    return state


def _march() -> State:
    """You hold a Sprint card on A1: A3 is reachable by a quick march and by the Sprint."""
    state = _base()
    _give(state, 1, "sprint")
    return state


def _door() -> State:
    """The keys are found: you hold 2 on B3, in front of the door, and Robin 1 beside you; the tower is empty."""
    state = _base()
    for i in (2, 14, 20):
        state["tiles"][i].update(key=False, up=True, searched=True)
    state["keys_taken"] = 3
    state["keys_found"] = True
    state["heroes"][1].update(pos=11, keys=2)
    state["heroes"][2].update(pos=11, keys=1)
    for i in (6, 10, 11, 16):
        state["tiles"][i].update(up=True, searched=True)
    return state


@lru_cache(maxsize=1)
def tutorial() -> Tutorial:
    """As hero 1 against a bot wizard with Robin, a bot hero: a step, a fight, items, a march, the tower."""
    lab = {name: (int(name[1:]) - 1) * 5 + ord(name[0]) - 65 for name in
           ("A1", "A2", "A3", "B1", "B2", "B3", "C3")}
    return Tutorial(
        seat=1,
        start=_start,
        intro="You are Ash, hero 1 (the blue disc \"1\"), in a 3-player game: Morgana the wizard is a bot, and so is "
              "Robin, the other hero. Each step teaches one rule and asks for one move.",
        steps=(
            TutorialStep(
                section="The goal",
                say="The heroes win together: find the 3 keys hidden under the face-down rooms, bring them to the "
                    "tile in front of the tower's door and storm the tower. The wizard wins if every hero falls or "
                    "if the last round (here 16) ends first.",
                expect=None),
            TutorialStep(
                section="The board",
                say="The grid's squares are named by column and row: you stand on A1, your camp (green). A \"?\" "
                    "marks an unexplored room. The purple square in the middle is the tower; the gold bar on its "
                    "side is the door (here west: enter from B3). The legend under the grid names every symbol.",
                expect=None),
            TutorialStep(
                section="A round",
                say="A round is the wizard's turn, then the heroes'. On the heroes' turn everyone picks a move in "
                    "secret; when all have, the moves are shown and happen together. Step east onto B1.",
                expect=({"type": "move", "to": lab["B1"]},), hint="Move east to B1",
                wrong="Step east onto B1 for now: one tile, the simplest move.",
                after="B1 turned over: its values hit the wizard's cards and Mana Wheel, and as nobody had "
                      "searched it, you looted a card (look at your hand)."),
            TutorialStep(
                section="Exploring rooms",
                position=_start,
                say="Entering a face-down room turns it over. Its card and mana values act on the wizard at once "
                    "(\"the wizard draws 1 card\"), and a room shows in a gold ring how many key vaults lie within "
                    "2 steps (scouting). A room with no monster gives its first visitor a loot card. Step south "
                    "onto A2.",
                expect=({"type": "move", "to": lab["A2"]},), hint="Move south to A2",
                wrong="Step south onto A2 to turn it over.",
                after="A2 is revealed and searched. A ring's number narrows where the keys lie."),
            TutorialStep(
                section="Moving",
                position=_march,
                say="You may move farther than one tile: a quick march goes 2 tiles when the first has no tokens "
                    "(3 over two revealed, empty rooms), and a Sprint card runs 2-3 tiles through anything. Where "
                    "there are several ways to a tile you pick the tile first, then the way. Pick A3.",
                expect=({"type": "go", "to": lab["A3"]},), hint="Go to A3",
                wrong="Pick \"Go to A3\": the march and the Sprint both reach it.",
                wrong_by_type=(("stay", "Staying wastes the round: pick \"Go to A3\"."),),
                after="Now the way."),
            TutorialStep(
                section="Moving",
                say="Both ways reach A3 through A2. The quick march is free; the Sprint spends your card. Keep the "
                    "card: march.",
                expect=({"type": "march", "path": [lab["A2"], lab["A3"]]},), hint="March 2 tiles to A3 via A2",
                wrong="March: the Sprint card is better kept for a longer run or to break a Frost Bolt.",
                after="You marched two rooms in one round and searched both."),
            TutorialStep(
                section="Face-down tokens",
                position=_tokens,
                say="The wizard plays monsters and traps face down, each with a blank decoy on another tile, so "
                    "nobody can tell which token is real. Entering a room turns its tokens over: a decoy vanishes, "
                    "a trap asks a trap save (a d20 plus your boots and shields, 10 or more or take 2 damage), a "
                    "monster fights you. Step onto B2 and see.",
                expect=({"type": "move", "to": lab["B2"]},), hint="Move east to B2",
                wrong="Step onto B2, the room with the face-down token.",
                after="Only a decoy: it vanished, and B2 was searched as usual."),
            TutorialStep(
                section="Combat",
                position=_fight,
                say="Giant Rats (a gang: two level-1 monsters) show on B2. In a fight the wizard rolls a d20 plus "
                    "every monster's level; each hero there rolls a d20, keeps the best and adds all their gear "
                    "(your two Short Swords: +4). Ties go to the heroes. Win: the monsters go and you loot 2 cards; "
                    "lose: you step back and each monster hits for 1. The \"?\" on the panel shows your odds. "
                    "Attack.",
                expect=({"type": "move", "to": lab["B2"]},), hint="Move east to B2 and fight",
                wrong="Step onto B2 to fight the rats: your +4 against their level 2.",
                after="You won (the log shows both rolls and totals): the rats are gone and, as the room's first "
                      "victory, you looted 2 cards."),
            TutorialStep(
                section="Items and giving",
                position=_items,
                say="Before you commit a move you may take free actions: drink a potion, equip an item, give a card "
                    "or a key to a hero on your tile. You are down to 4 hit points: drink the Healing Potion.",
                expect=({"type": "use", "card": _potion_id()},), hint="Use Healing Potion",
                wrong="Drink the Healing Potion first: 4 hit points is one fight from falling.",
                after="4 -> 8 hit points, and your move is still to pick. A hero wears 2 swords, 1 boots and 1 "
                      "shield; the Broadsword in your hand could replace a Short Sword."),
            TutorialStep(
                section="The wizard's turn",
                say="The wizard's turn: draw a card (two when the Mana Wheel is full at 8), then play cards with "
                    "the wheel's mana, which comes back each turn. Monsters and traps go face down with their "
                    "decoy; spells act at once: Frost Bolt freezes a tile's heroes for a move, Fireball asks a "
                    "trap save, Ambush drops a level-3 monster on a hero.",
                expect=None),
            TutorialStep(
                section="The rage",
                say="Once the heroes have taken all 3 keys the wizard rages: every wizard turn starts with tiles "
                    "crumbling away, as many as there are players, never the tiles around the tower and never so "
                    "that a hero is cut off from the door: once the keys are found, hurry to the tower.",
                expect=None),
            TutorialStep(
                section="Falling and the end",
                say="At 0 hit points a hero falls; their cards and keys stay on the tile for another hero. The game "
                    "ends when the heroes storm the tower, when every hero has fallen, or when the last round ends "
                    "(the wizard wins).",
                expect=None),
            TutorialStep(
                section="Keys and the tower",
                position=_door,
                say="All 3 keys are found and you stand on B3, before the door, holding 2; Robin beside you holds "
                    "the third. Heroes on that tile holding all 3 keys between them may enter; inside, they fight "
                    "whatever guards the tower, and an empty tower falls at once. Enter the tower.",
                expect=({"type": "move", "to": lab["C3"]},), hint="Enter the tower!",
                wrong="Enter the tower: you and Robin hold the 3 keys on the door's tile.",
                after="The heroes win!"),
        ),
        outro="You're ready: open a real table with `/game new` (the rules option picks the tuned set or the printed "
              "rulebook).",
    )


def _potion_id() -> int:
    state = _items()
    return next(c for c in state["heroes"][1]["hand"] if state["lcards"][c] == "potion")
