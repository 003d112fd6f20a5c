"""What Sleeping Wizard teaches a newcomer (see bot/teach.py): how to play, the glossary, a line of help per kind of
move with what a hire would do to your team's noise, and the tutorial (``/game learn``)."""
from __future__ import annotations

from bot.engine import Action, State
from bot.teach import HowToPlay, Tutorial, TutorialStep

from . import scoring
from .cards import CARDS, DECK_SIZE, FLOORS, WAKE_AT, short

HOW_TO_PLAY = HowToPlay(
    goal=("You run a guild of thieves. Each round (at most 5) you hire a team of 4 adventurers to sneak into a "
          "sleeping wizard's tower: the **quietest** team takes the treasure. End with the most treasure, and "
          f"**never let your guild reach {WAKE_AT} noise: that wakes the wizard and your guild loses.**"),
    winning=("Each round the quietest team (lowest noise) collects 2 treasures (ties: 2 each); some floors pay more. "
             f"Your team's noise then goes on your guild's noise tracker. At {WAKE_AT} the wizard wakes: the game ends "
             "that round and that guild can't win. After round 5 each guild gets bonus treasure for its tracker space "
             "(0-9: +5, 10-14: +4, 15-19: +3, 20-26: +2, 27-35: +1, 36-47: +0). Most treasure wins; a tie goes to "
             "the quieter guild."),
    turn=("**Your hand faces away from you**: everyone sees your 4 cards but you. At the start of a round you peek "
          "at 2 of them, and your DM shows which, plus every other player's hand (the cards *they* can't see). "
          "On your turn hire one adventurer: a card from your hand (seen or not), the deck's top card, or a face-up "
          "market card; after a deck or market hire you push one hand card face up into the market. "
          "**Noise:** adventurers of the same number cancel: all score 0 (two 5s make 0, not 10). A lone Rogue "
          "(1*) scores 1, two or more score 10 each. Bards (11-14) never cancel. A Shapeshifter (?) copies "
          "another card of your team to cancel with it. Slimes are 10s. Healers, Mages, Warriors and Rangers "
          "(2-9) are plain: their class only matters on a floor that pays for it."),
    board=("Top: whose turn it is, what just happened, and this round's floor with its rule; the tower strip shows "
           "the floors, face-down ones as ?. Then the market (face-up cards anyone may hire) and the deck. Each "
           "guild's row: its treasure, its noise tracker total out of 48, the backs of the cards left in its hand, "
           "and its team this round: each card's noise is in its corner disc (green 0 = it scores nothing, with "
           "why under the cards) and the team's noise on the right. At the bottom, the noise tracker with the "
           "bonus for each band, and the red space 48 where the wizard wakes."),
    example=lambda: (_example(), 0),
)

GLOSSARY = {
    "noise": "How loud a team is: the sum of its cards' noise this round. Lower is better: the quietest team "
             "collects the treasure.",
    "noise tracker": f"Each guild's total noise over the game, out of {WAKE_AT}; at {WAKE_AT} or more the wizard "
                     "wakes and that guild loses.",
    "wake the wizard": f"Reach {WAKE_AT} on the noise tracker: the game ends that round and your guild can't win.",
    "guild": "A player: your guild hires the teams and keeps the treasure.",
    "noisiest guild": "The guild highest on the noise tracker: from round 2 on it hires first (a tie: the earliest "
                      "seat).",
    "treasure": "The points of the game: the most treasure at the end wins.",
    "team": "The 4 adventurers you hire in a round, face up in front of you until the round ends.",
    "hire": "Take an adventurer into your team: from your hand, the deck's top card or the market.",
    "hand": "Your 4 cards, slots A to D, held facing away from you: the others see them, you see only those you "
            "peeked at.",
    "peek": "Look at some of your own cards at the start of a round (2 normally; some floors change it): the game "
            "picks which at random and tells only you.",
    "unseen": "One of your own cards you haven't peeked at: hiring it is a blind pick.",
    "market": "Face-up adventurers anyone may hire; a hand card you push joins it.",
    "push": "After hiring from the deck or the market, put one of your hand cards face up into the market.",
    "deck": "The face-down pile: its top card may be hired unseen.",
    "cancel": "Two or more adventurers with the same number all score 0 (a Shapeshifter copying one counts).",
    "quietest": "The team with the lowest noise this round: it collects 2 treasures (ties all collect).",
    "floor": "A card of the tower: each round after the first plays on a new floor with its own rule.",
    "tower": "The Ground Floor, 4 hidden floors revealed one per round, and the Attic at the top.",
    "Ground Floor": "Round 1's floor: the normal rules.",
    "Attic": "The top of the tower: the end of the game (tracker bonus; 48 wakes the wizard).",
    "tracker bonus": "Treasure at the end for your tracker space: 0-9 +5, 10-14 +4, 15-19 +3, 20-26 +2, 27-35 +1, "
                     "36-47 +0.",
    "Healer, Mage, Warrior, Ranger": "Plain adventurers numbered 2 to 9 (one of each number per class); the class "
                                     "only matters on a floor that pays treasure for it.",
    "Rogue": "Numbered 1*: one Rogue scores 1, but two or more score 10 each and never cancel.",
    "Rogue pack": "Two or more Rogues in one team: 10 noise each.",
    "Slime": "Numbered 10: loud alone, but two Slimes cancel like any equal numbers.",
    "Bard": "Numbered 11 to 14, each different, so Bards never cancel.",
    "Shapeshifter": "Numbered ?: it copies another card of its team (not a Bard): its number and class, so it "
                    "cancels with it; copying nothing scores 0.",
    "copies": "What a Shapeshifter counts as this round (shown '= the card').",
    "1*": "A Rogue's number.",
    "?": "A Shapeshifter's number (and, on the tower strip, a floor still face down).",
    "blind": "Hiring a card you can't see: your unseen hand card or the deck's top.",
    "in harmony": "On the Choir Loft, two or more Bards in a team all score 0.",
    "muffled": "On the Velvet Carpet Hall a Slime that doesn't cancel scores 5.",
    "loudest: double": "On the Creaky Staircase each team's loudest adventurer scores twice its noise.",
    "silent here": "On the Hushed Library every Rogue scores 0.",
    "tuned and rulebook rules": "The table option 'rules': every Sleeping Wizard rule is the printed one, so "
                                "both play the same game.",
    "Tower floors": "A table option: off, every round plays on the Ground Floor's normal rules.",
}
for _floor in FLOORS.values():  # every floor by its name, with its rule
    GLOSSARY.setdefault(_floor["name"], _floor["text"])

# Every card's name appears with what the card is ("Tansy (2 Healer)") in labels, events and the DM text.
PROPER_NAMES = tuple(card["name"] for card in CARDS)

REFERENCE_SECTIONS = {
    "Floor cards": "The list of the 20 floors and their rules: each is announced with its rule when revealed.",
    "Components": "The card lists.",
    "Rulebook and tuned rules": "Both rule sets play the same game: the doc says why, with the digital adaptations.",
    "Privacy": "What each view shows: for the curious and the tests.",
    "Decisions": "How unclear rulebook lines were decided, with their tests: reference for the curious.",
    "Bot": "How the bot players decide.",
    "Balance report": "Measured win shares and wake-ups.",
}


# ---------------------------------------------------------------------------------------------- help lines

def _unseen(state: State, seat: int) -> list[int]:
    """The adventurers ``seat`` can't see anywhere: its unseen hand cards and the deck are among these."""
    seen = set(state["market"]) | {card for team in state["teams"] for card in team}
    for other, hand in enumerate(state["hands"]):
        seen |= {card for card in hand if card is not None and (other != seat or card in state["known"][seat])}
    return [card for card in range(DECK_SIZE) if card not in seen]


def _team_noise(state: State, team: list[int]) -> int:
    from . import ENGINE
    effect = ENGINE.effect(state)
    return scoring.noise(team, scoring.best_copies(team, effect), effect)


def _blind_odds(state: State, seat: int) -> str:
    """What a blind hire would do to the team: its noise now, on average after, and the chance it adds nothing."""
    team = state["teams"][seat]
    now = _team_noise(state, team)
    pool = _unseen(state, seat)
    after = [_team_noise(state, team + [card]) for card in pool]
    mean = sum(after) / len(after)
    safe = sum(1 for noise in after if noise <= now) / len(after)
    wakes = sum(1 for noise in after if state["noise"][seat] + noise >= WAKE_AT) / len(after)
    risk = f"; {wakes:.0%} chance that card alone wakes the wizard" if wakes else ""
    return (f"an unseen card is any of the {len(pool)} adventurers you can't see: your team's noise {now} would "
            f"become {mean:.0f} on average ({safe:.0%} chance it adds nothing{risk})")


def _tracker_warning(state: State, seat: int) -> str:
    team = _team_noise(state, state["teams"][seat])
    room = WAKE_AT - state["noise"][seat] - team
    if room > 12:
        return ""
    return (f" Careful: your guild is at {state['noise'][seat]} on the tracker and your team makes {team}: "
            f"{max(0, room)} more noise this round wakes the wizard and loses you the game.")


def _best_known(state: State, seat: int, cards: list[int], where: str) -> str:
    if not cards:
        return ""
    team = state["teams"][seat]
    now = _team_noise(state, team)
    best = min(cards, key=lambda card: (_team_noise(state, team + [card]), card))
    return f" Quietest {where}: {short(best)}, team noise {now} → {_team_noise(state, team + [best])}."


def _hire_hand_help(state: State, seat: int, legal: list[Action]) -> str:
    known = [state["hands"][seat][a["slot"]] for a in legal if a["type"] == "hire_hand"
             and state["hands"][seat][a["slot"]] in state["known"][seat]]
    blind = any(a["type"] == "hire_hand" and state["hands"][seat][a["slot"]] not in state["known"][seat]
                for a in legal)
    text = "Hire one of your own hand cards (no push needed)."
    if blind:
        text += f" A card you haven't peeked at is a blind pick: {_blind_odds(state, seat)}."
    return text + _best_known(state, seat, known, "of your peeked cards") + _tracker_warning(state, seat)


def _hire_deck_help(state: State, seat: int, legal: list[Action]) -> str:
    return (f"Hire the deck's top card unseen, then push one of your hand cards face up into the market: "
            f"{_blind_odds(state, seat)}." + _tracker_warning(state, seat))


def _hire_market_help(state: State, seat: int, legal: list[Action]) -> str:
    cards = [a["card"] for a in legal if a["type"] == "hire_market"]
    return ("Hire a face-up market card: you know exactly what you get; then push one of your hand cards face up "
            "into the market." + _best_known(state, seat, cards, "in the market") + _tracker_warning(state, seat))


def _push_help(state: State, seat: int, legal: list[Action]) -> str:
    return ("Push one of your hand cards face up into the market to finish your hire: it leaves your hand (an unseen "
            "one is shown to you as it goes) and anyone may hire it later. Push what you'd least like to hire, "
            "and mind what it gives the next players.")


def _copy_help(state: State, seat: int, legal: list[Action]) -> str:
    return ("Choose what your Shapeshifters copy: a copy takes that card's number and class, so it cancels with it "
            "and counts for a floor's class treasure; copying nothing scores 0. Each option shows your team's "
            "noise and floor treasure: quieter wins the round, treasure is treasure. Nobody sees your choice until "
            "everyone has chosen.")


HELP = {"hire_hand": _hire_hand_help, "hire_deck": _hire_deck_help, "hire_market": _hire_market_help,
        "push": _push_help, "copy": _copy_help}


def action_help(state: State, seat: int, legal: list[Action]) -> dict[str, str]:
    """One line per kind of move offered: what it does and costs, with what a hire would make of your team's noise."""
    return {kind: HELP[kind](state, seat, legal) for kind in dict.fromkeys(str(a["type"]) for a in legal)}


# ---------------------------------------------------------------------------------------------- the tutorial

YOU, ROOK, WREN = 0, 1, 2
NAMES = ["Ada", "Rook", "Wren"]  # the learner plays Ada, the first seat
ID = {card["name"]: card["id"] for card in CARDS}


def _table(round_number: int, floor: str, hands: list[list[str]], known: list[str], market: list[str],
           teams: list[list[str]], noise: list[int], treasure: list[int], first: int,
           history: list[list[int]] = ()) -> State:  # type: ignore[assignment]
    """A scripted position of the three-player tutorial game: the named cards where given (hands from slot A;
    ``known`` the learner's peeked cards), every other adventurer in the deck, ``first`` the seat that began the
    round and as many hires made as the teams hold."""
    from . import ENGINE
    state: State = ENGINE.setup(list(NAMES), ENGINE.meta.resolve_options({}), 1)
    middle = [key for key in ("candle", "bazaar", "choir", "greenhouse", "observatory") if key != floor][:4]
    if round_number > 1:
        middle[round_number - 2] = floor
    state["tower"] = ["ground", *middle, "attic"]
    state["round"] = round_number
    state["hands"] = [[ID[name] for name in hand] + [None] * (4 - len(hand)) for hand in hands]
    state["known"] = [[ID[name] for name in known], [], []]
    for seat in (ROOK, WREN):  # the bots peek as the rules say: 2 cards, the first two
        state["known"][seat] = [card for card in state["hands"][seat] if card is not None][:2]
    state["market"] = [ID[name] for name in market]
    state["teams"] = [[ID[name] for name in team] for team in teams]
    placed = set(state["market"]) | {c for hand in state["hands"] for c in hand if c is not None}
    placed |= {c for team in state["teams"] for c in team}
    state["deck"] = [card for card in range(DECK_SIZE) if card not in placed]
    state["noise"], state["treasure"] = list(noise), list(treasure)
    state["order"] = [(first + offset) % 3 for offset in range(3)]
    state["turn"] = sum(len(team) for team in state["teams"])
    state["history"] = [{"round": number + 1, "floor": state["tower"][number], "noise": list(row),
                         "gained": [0, 0, 0]} for number, row in enumerate(history)]
    state["phase"], state["pending"], state["recent"] = "turns", None, []
    return state


def start() -> State:
    """Round 1 on the Ground Floor: Ada has peeked at her cards A and D."""
    return _table(1, "ground",
                  hands=[["Thistledown", "Goop", "Fernwhistle", "Bellowmere"],
                         ["Stompwell", "Rockjaw", "Briarpatch", "Marigold"],
                         ["Zapwick", "Clover", "Poppy", "Anvilla"]],
                  known=["Thistledown", "Bellowmere"], market=["Gravelgut", "Mimsy", "Lutebert"],
                  teams=[[], [], []], noise=[0, 0, 0], treasure=[0, 0, 0], first=YOU)


def _example() -> State:
    """The how-to-play picture's position: the tutorial's first round, a few hires in, Ada's turn."""
    from . import ENGINE
    state = start()
    for seat, action in OPENING:
        ENGINE.apply(state, seat, action)
    return state


def hire(slot: int) -> Action:
    """The tutorial's move: hire your hand card in ``slot`` (0 = A)."""
    return {"type": "hire_hand", "slot": slot}


def market(name: str) -> Action:
    """The tutorial's move: hire the market card named ``name``."""
    return {"type": "hire_market", "card": ID[name]}


def push(slot: int) -> Action:
    """The tutorial's move: push your hand card in ``slot`` to the market."""
    return {"type": "push", "slot": slot}


# Round 1's first moves, in order: Ada hires Gravelgut from the market and pushes Bellowmere, Rook and Wren hire
# from their hands, Ada hires Thistledown (two 5s cancel).
OPENING = ((YOU, market("Gravelgut")), (YOU, push(3)), (ROOK, hire(0)), (WREN, hire(3)), (YOU, hire(0)),
           (ROOK, hire(3)), (WREN, hire(1)))


def library() -> State:
    """Round 2 on the Hushed Library: Rook and Wren have hired, Ada's turn; a Rogue waits in the market."""
    return _table(2, "library",
                  hands=[["Salvia", "Kaboomer", "Pebble", "Hawkeye"], ["Ironhide", "Sludgina", "Trillsworth"],
                         ["Cinderpuff", "Tansy", "Fanfara"]],
                  known=["Salvia", "Hawkeye"], market=["Shade", "Lavender", "Drippy"],
                  teams=[[], ["Bellamy"], ["Sparkle"]], noise=[0, 13, 7], treasure=[2, 0, 0], first=ROOK,
                  history=[[0, 13, 7]])


def last_round() -> State:
    """Round 5 on the Alchemy Lab, Ada's last hire: she is at 40 on the tracker (the noisiest guild, so she began
    the round), her team makes 6."""
    return _table(5, "alchemy",
                  hands=[["Hawkeye"], ["Brickle"], ["Mossbeard"]], known=[],
                  market=["Bastion", "Kaboomer", "Lavender"],
                  teams=[["Clover", "Emberly", "Zapwick"], ["Ironhide", "Stompwell", "Salvia"],
                         ["Tansy", "Flicker", "Balmora"]],
                  noise=[40, 30, 33], treasure=[9, 8, 7], first=YOU,
                  history=[[0, 13, 7], [4, 6, 9], [20, 3, 8], [16, 8, 9]])


def tutorial() -> Tutorial:
    """The steps, one per section a player must know (the same object every time: a run compares its steps)."""
    return TUTORIAL


TUTORIAL = Tutorial(
    seat=YOU,
    start=start,
    intro=("A short game against two bots, Rook and Wren: each step shows one rule and asks for one move. You play "
           "Ada, guild 1."),
    steps=(
        TutorialStep(
            "Your hand faces away from you",
            ("Your 4 cards face away from you: Rook and Wren see them, you don't. At the start of the round you "
             "peeked at two: A is Thistledown (5 Ranger) and D is Bellowmere (14 Bard); B and C are unseen. Your DM "
             "shows your hand and, the other way round, the hands of Rook and Wren, which they can't see: Rook "
             "holds two 7s that will cancel; Wren two 6s."),
            expect=None),
        TutorialStep(
            "Your turn: hire one adventurer",
            ("Lower noise wins the round. On your turn you hire one adventurer: from your hand, the deck's top card "
             "or the market. Gravelgut (5 Warrior) is in the market and you know your card A is a 5 too: hire "
             "Gravelgut from the market."),
            expect=(market("Gravelgut"),),
            hint="Hire Gravelgut (5 Warrior) from the market",
            wrong="This step asks for Gravelgut (5 Warrior) from the market: it will pair with your 5.",
            wrong_by_type=(("hire_deck", "The deck's top card is unseen: this step asks for Gravelgut (5 Warrior) "
                                         "from the market, which you can see."),),
            after="Gravelgut joins your team: noise 5 for now. A deck or market hire costs you a hand card next."),
        TutorialStep(
            "Your turn: hire one adventurer",
            ("After a deck or market hire you push one of your hand cards face up into the market, where anyone may "
             "hire it. Push what you'd least like to hire: your card D is Bellowmere, a 14 Bard that never "
             "cancels."),
            expect=(push(3),),
            hint="Push your card D, Bellowmere (14 Bard)",
            wrong="Your card D, Bellowmere (14 Bard), is the loudest card you know of: push it.",
            after="Bellowmere is in the market now. Rook hires Stompwell (9), Wren Anvilla (4).",
            then=OPENING[2:4]),
        TutorialStep(
            "Noise: equal numbers cancel",
            ("Adventurers of the same number cancel: they all score 0. Your card A is Thistledown, a 5 like "
             "Gravelgut: hire it from your hand and your team's noise drops from 5 to 0."),
            expect=(hire(0),),
            hint="Hire your card A, Thistledown (5 Ranger)",
            wrong="This step asks for your card A, Thistledown (5 Ranger): two 5s cancel.",
            after="Two 5s: both score 0, shown with a green 0 and 'two 5s cancel'. Rook and Wren hire again.",
            then=OPENING[5:7]),
        TutorialStep(
            "Rogues, Slimes, Bards and Shapeshifters",
            ("Four classes have rules of their own. A Rogue (1*) scores 1 alone, but two or more score 10 each. "
             "Slimes are 10s (two cancel). Bards (11-14) never cancel. A Shapeshifter (?) copies another card of "
             "your team but a Bard, and cancels with it. Hire Mimsy, the Shapeshifter in the market."),
            expect=(market("Mimsy"),),
            hint="Hire Mimsy (? Shapeshifter) from the market",
            wrong="This step asks for Mimsy (? Shapeshifter) from the market: she copies one of your 5s.",
            after=("Mimsy is yours. Your two 5s already cancel, so for now she copies nothing and scores 0; when the "
                   "round is scored she copies whichever card helps most.")),
        TutorialStep(
            "Your turn: hire one adventurer",
            ("Push again. Your cards B and C are unseen: either is a guess. Push B: it is shown to everyone, you "
             "included, as it goes."),
            expect=(push(1),),
            hint="Push your card B (unseen)",
            wrong="This step asks you to push your card B.",
            after="It was Goop, a 10 Slime: good riddance. Rook and Wren hire their third cards.",
            then=((ROOK, hire(1)), (WREN, hire(0)))),
        TutorialStep(
            "A round",
            ("Everyone hires 4 adventurers, one a turn, so your 4th hire ends your round. Your last card, C, is "
             "unseen: hiring it is a blind pick, but your Shapeshifter can copy whatever it is. Hire it."),
            expect=(hire(2),),
            hint="Hire your card C (unseen)",
            wrong=("This step asks for your card C: the market's Bards never cancel, and your Shapeshifter will copy "
                   "whatever C turns out to be."),
            after=("It is Fernwhistle (3 Ranger): Mimsy copies it, two 3s cancel and your team makes 0. Rook and Wren "
                   "hire their last cards and the round is scored."),
            then=((ROOK, hire(2)), (WREN, hire(2)))),
        TutorialStep(
            "Treasure: the quietest team",
            ("The quietest team collects 2 treasures (ties: 2 each): that was you, with 0 noise, against Rook's 13 "
             "and Wren's 7. Every team's noise then goes on its guild's noise tracker: you stay at 0."),
            expect=None),
        TutorialStep(
            "The tower's floors",
            ("Let's skip ahead to round 2. From round 2 on, a new floor of the tower is revealed each round, with a "
             "rule for that round. This is the Hushed Library: Rogues make no noise here. Hire Shade (1* Rogue) from "
             "the market: 0 noise for sure."),
            expect=(market("Shade"),),
            hint="Hire Shade (1* Rogue) from the market",
            wrong="On the Hushed Library a Rogue scores 0: this step asks for Shade (1* Rogue) from the market.",
            after="Shade scores 0 here, 'silent here' under your team.",
            position=library),
        TutorialStep(
            "The noise tracker: 48 wakes the wizard",
            (f"Now round 5, your last hire. Your guild is at 40 on the noise tracker and your team makes 6: {WAKE_AT} "
             "wakes the wizard, and a guild that wakes him loses, whatever its treasure. The Alchemy Lab pays 1 "
             "treasure per Mage, and Kaboomer (9 Mage) would pay it but take you to 55. Your last hand card is "
             "unseen. Hire Bastion (6 Warrior): it cancels your 6."),
            expect=(market("Bastion"),),
            hint="Hire Bastion (6 Warrior) from the market",
            wrong=("That risks waking the wizard: Bastion (6 Warrior) cancels your Zapwick (6 Mage) and keeps you at "
                   "40."),
            wrong_by_type=(("hire_hand", "Your last card is unseen: anything but a 3, a 6 or a Shapeshifter could "
                                         "take you past 48. Bastion (6 Warrior) is sure."),
                           ("hire_deck", "The deck's top card is unseen: anything but a 3, a 6 or a Shapeshifter "
                                         "could take you past 48. Bastion (6 Warrior) is sure.")),
            after=("Bastion cancels Zapwick: your team makes 0 and you end the game at 40, still asleep, with 2 "
                   "treasures for your two Mages. Rook and Wren hire their last cards and the game ends."),
            position=last_round),
        TutorialStep(
            "The end of the game",
            ("The game ends after round 5, or at the end of any round in which a guild reaches 48. Each guild then "
             "collects bonus treasure for its tracker space (0-9: +5 down to 36-47: +0). Most treasure wins; a tie "
             "goes to the quieter guild; a guild that woke the wizard can't win."),
            expect=None),
    ),
    outro="You're ready: open a real table with `/game new`, or read the whole rules with `/game rules`.",
)

