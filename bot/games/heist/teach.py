"""HEIST for a newcomer (see :mod:`bot.teach`): how to play, the glossary, a help line per kind of move, the tutorial.

The tutorial is a scripted 3-player game: you are the Grifter (Charm 2) and start. Its first steps play your first
turn (choose an "or" obstacle, watch the help come in, read the tokens, play a trick, resolve) and your first assist
(the card, then what you pay to walk over); later steps jump to a failed test (the upgrade) and to the reading of
the end (the heat, the scores, your secret, solo). Every right move is computed by playing the script through once
(``_script``), so a step never asks for a move the position doesn't offer.
"""
from __future__ import annotations

import copy
import random
from functools import lru_cache
from typing import Any

from bot.engine import Action, State
from bot.rng import Rng
from bot.teach import HowToPlay, Tutorial, TutorialStep

from . import cards, rules
from .board import ROUNDS, skill, total
from .bot_player import p_at_least, token_sum_distribution
from .cards import OBSTACLE, RESOURCE, SKILL_NAME
from .scoring import secret_progress
from .texts import head_start_text, job_length_text, round_order_text, start_ties_text

# --------------------------------------------------------------------------- how to play
HOW_TO_PLAY = HowToPlay(
    goal=("You are a thief in a gang pulling jobs together, but only one of you gets the biggest take. Four jobs "
          "(A-D) are stacks of obstacles; beat an obstacle and its **cheese** goes to your score pile."),
    winning=(f"**The most cheese wins** when the game ends after round {ROUNDS} (or when every job is empty). "
             "Cheese comes from the obstacles you beat, the cards you bank, +1 per obstacle you hold from a "
             "completed job (its last obstacle beaten), and your **secret goal** (shown only to you, with your "
             "progress as a count). "
             "Tie: most obstacles, then shared. Solo: reach "
             f"{cards.SOLO_TARGET} cheese."),
    turn=("On your turn: **choose** the top obstacle of a job (one naming two skills with \"or\": pick which). Everyone "
          "else may secretly **assist** with a card (from another job they also discard a card to walk over). "
          f"{cards.DRAW_TOKENS} **tokens** come out of the bag, then you may play **tricks**, then **resolve**: "
          "your skill + assists + tokens + tricks must reach the obstacle's number. A failed test lets you "
          "**upgrade** a skill with a trick. Press the \"?\" on any panel for what each option does."),
    board=("Top: the **heat track** (the tokens that go into the bag after each round: it gets riskier) and the "
           "**bag** (how many tokens of each colour, and the two faces a token of that colour can land on, e.g. "
           "red -2/-4). Then the test being faced (or the last one): its tokens, assists, tricks and total vs "
           "needed. Then the four jobs: the top obstacle, its skill test and number, its cheese, and what happens "
           "on a success (✓) or failure (✗); **Mandatory** obstacles stay on the job when failed. At the bottom, "
           "each thief's skills (AGI, CHA, DEX), job, cards in hand and cheese."),
    example=lambda: _example(),
)


# The labelled picture's parts (``rendering.heist.render_howto`` numbers them on the board, in this order).
BOARD_PARTS: tuple[tuple[str, str], ...] = (
    ("heat", "Heat track: the tokens that go into the bag after each round (R1-R5); the gold box is this round."),
    ("bag", "Bag: how many tokens of each colour it holds; under each, the two faces a token can land on."),
    ("test", "The test being faced: the tokens drawn (their face), the assists and tricks, and the total against "
             "the number needed (or the last test and how it ended)."),
    ("jobs", "The four jobs: the top obstacle (its skill test and number, its cheese, ✓ on a success, ✗ on a "
             "failure, Mandatory ones stay when failed) and the pawns at the job."),
    ("players", "The thieves: skills (AGI Agility, CHA Charm, DEX Dexterity, green + from upgrades), the job "
                "their pawn is at, cards in hand, cheese and obstacles won. The gold frame is whose turn it is."),
    ("footer", "The deck, the discard pile and the failed obstacles sent back to the box."),
)


def _example() -> tuple[State, int | None]:
    """A test in progress in a seeded 3-player game: tokens drawn, an assist revealed (the labelled picture)."""
    from . import ENGINE

    state = ENGINE.setup(["Alice", "Bruno", "Chiara"], ENGINE.meta.resolve_options({}), 5)
    rng = random.Random(5)
    while not (state["phase"] == "tricks" and state["round"] == 2):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, rng))
    return state, None


# --------------------------------------------------------------------------- glossary
GLOSSARY: dict[str, str] = {
    "cheese": "The points of HEIST: the most cheese at the end wins.",
    "job": "One of the four heists (A-D), a stack of obstacles faced from the top down.",
    "obstacle": "A card of a job with a skill test, a number to reach, its cheese, and effects on success or failure.",
    "or obstacle": "An obstacle that can be faced with either of two skills; it is offered once per skill, pick one.",
    "Mandatory": "A Mandatory obstacle stays on top of its job when failed (others go back in the box), so the "
                 "next thief faces it again.",
    "finale": "The last obstacle of a job in play; it is Mandatory, and beating it completes the job.",
    "completed job": "A job whose finale was beaten: each of its obstacles in a score pile is worth 1 more cheese.",
    "job bonus": "The +1 cheese per obstacle you hold from a completed job.",
    "box": "Where failed obstacles go (returned to the box): out of the game.",
    "skill": "Agility, Charm or Dexterity: your identity's icons plus one per upgrade card on it.",
    "AGI, CHA, DEX": "Agility, Charm and Dexterity, the three skills.",
    "identity": "Your thief card (Cat Burglar, Grifter...): your starting skills; upgrades go on it.",
    "upgrade": "A card put on your identity for +1 to one skill for good: an assist with 'success: +1' after a "
               "test it helped succeed, or a trick with 'failure: +1' after your own failed test.",
    "success: +1 Agility": "On an assist: if the test succeeds, the card goes on your identity for +1 Agility.",
    "failure: +1 Agility": "On a trick: after your own failed test you may put it on your identity for +1 Agility.",
    "assist": "A card another player gives your test: its number is added to your total.",
    "commit": "Choose your assist (or nothing) in secret; all are revealed together when everyone has chosen.",
    "reveal": "The moment every secret assist is shown at once.",
    "pay a card to walk": "A helper whose pawn is at another job discards one card of their choice to walk over "
                          "and assist.",
    "trick": "A card only the player facing the test may play on it: flip, ignore or redraw a token, +2...",
    "token": "A two-sided disc drawn from the bag: its face's number is added to the test.",
    "face": "A token's side: each colour has two (blue +4/+2, green +2/+1, yellow +1/-1, orange -1/-2, red -2/-4, "
            "purple +3/-3); a drawn token lands on either.",
    "flip": "Turn a drawn token to its other face.",
    "redraw": "Put a drawn token back in the bag and draw another.",
    "ignore": "A drawn token that no longer counts (it stays on the table, crossed out).",
    "bag": "The bag of tokens tests draw from; obstacles and cards add or remove tokens.",
    "heat track": "Five spaces, one per round: after each round its tokens go into the bag (orange, orange, red, "
                  "purple, blue), so the bag gets riskier.",
    "R1-R5": "Rounds 1 to 5 on the heat track.",
    "heat": "The tokens that go into the bag after each round (the heat track).",
    "resolve": "End your test: total against the number needed, a success or a failure.",
    "total": "Skill + assists + tokens + tricks; a success if it reaches the number needed.",
    "target": "The number an obstacle's test needs (the total must reach it).",
    "success": "The total reached the number: the obstacle and its cheese go to your score pile.",
    "failure": "The total fell short: the ✗ effect happens and the obstacle goes back in the box unless Mandatory.",
    "score pile": "Your beaten obstacles and banked cards: their cheese is your score.",
    "bank": "Put a card in your score pile for its cheese.",
    "secret": "Your secret goal, seen only by you, worth cheese at the end if met; your DM shows its progress "
              "as a count, e.g. 3/5.",
    "pawn": "Your marker, a disc with your initial on the job you last faced or helped (the hideout before).",
    "hideout": "Where every pawn starts: at no job.",
    "discard": "A card put on the discard pile, out of your hand.",
    "deck": "The face-down resource deck of assists and tricks you draw from (back up to 5 at the end of your turn).",
    "start player": "Whoever takes the first turn; " + head_start_text(rules.TUNED) + ", and "
                    + start_ties_text(rules.TUNED) + " (rules: tuned).",
    "head start": "The start player's extra cheese at the end where the player count gives one.",
    "round": f"Everyone's turn once; the game has {ROUNDS}.",
    "rating": "Solo only: how your score reads (Caught red-handed, Small-time crook, Professional, Mastermind).",
    "Double Cross": "An assist that lowers the total; it scores for its owner only if the test fails.",
    "Backup Plan": "An assist that goes back to its owner's hand if the test fails.",
    "heist": "The game's name, and every job of it.",
    "thief": "A player.",
    "rules: tuned / rulebook": "The table option: tuned (default) plays our measured balance changes; rulebook the "
                               "printed rules: " + job_length_text(rules.RULEBOOK) + ", "
                               + round_order_text(rules.RULEBOOK) + ", " + head_start_text(rules.RULEBOOK) + ", "
                               + start_ties_text(rules.RULEBOOK) + ".",
    "shuffled": "When the deck runs out, the discard pile is shuffled into a new deck.",
    "overcomes": "Beats an obstacle (a success).",
    "discards, discarding": "Puts a card on the discard pile.",
    "fails": "Falls short of the number needed.",
    "obstacle's": "Of the obstacle.",
}

# Names whose every appearance carries what they are or do (a card with its effect, an obstacle with its test).
PROPER_NAMES: tuple[str, ...] = tuple(sorted(
    {card["name"] for card in RESOURCE.values()} | {obstacle["name"] for obstacle in OBSTACLE.values()}
    | {job["name"] for job in cards.JOBS} | {identity["name"] for identity in cards.IDENTITIES}
    | {secret["name"] for secret in cards.SECRETS}))

# Rules doc sections no tutorial step teaches, and why.
REFERENCE_SECTIONS = {
    "What playing in Discord adds": "digital adaptations (simultaneous commits, forced prompts): the platform does "
                                    "them, there is nothing to learn",
    "Tuned and rulebook rules": "the table of the two rule sets, for hosts choosing one",
    "Decisions": "where the rulebook is silent, the choices made and their tests",
    "Card design": "why the cards are as they are",
    "Card lists": "every card, for reference",
    "Bot": "how the bot players decide",
    "Balance report": "measured figures",
}


# --------------------------------------------------------------------------- help lines
def _odds(state: State, seat: int, option: dict[str, Any]) -> int:
    """The chance (%) that ``seat``'s skill and the tokens alone reach ``option``'s number."""
    front = state["options"].get("token_faces") == "front"
    need = option["target"] - sum(skill(state, seat, name) for name in option["skills"])
    return round(100 * p_at_least(token_sum_distribution(state["bag"], cards.DRAW_TOKENS, front), need))


def _help_choose(state: State, seat: int, legal: list[Action]) -> str:
    odds = []
    for action in legal:
        obstacle = OBSTACLE[state["jobs"][action["job"]][0]]
        option = obstacle["test"][action["option"]]
        how = f" by {'+'.join(SKILL_NAME[s] for s in option['skills'])}" if len(obstacle["test"]) > 1 else ""
        odds.append((_odds(state, seat, option), f"{obstacle['id']}{how} {_odds(state, seat, option)}%"))
    best = ", ".join(text for _, text in sorted(odds, key=lambda pair: -pair[0])[:3])
    return ("Face the top obstacle of a job: your skill + assists + 2 tokens + tricks must reach its number to "
            "win its cheese; an obstacle that names two skills (\"or\") is offered once per skill: use either. "
            f"Best odds with your skill and the tokens alone: {best}.")


def _help_assist(state: State, seat: int, legal: list[Action]) -> str:
    numbers = _numbers_before_tokens(state)
    away = state["locations"][seat] != state["test"]["job"]
    return ("Give this card to the test: its number is added to the total, and if the test succeeds a card with "
            "cheese goes to your score pile and one with 'success: +1' onto your identity (a Double Cross pays "
            "only if it fails). "
            + ("Your pawn is at another job: next you discard one card to walk over. " if away else "")
            + f"{state['names'][state['active']]} has skill {numbers} against {total(state)['target']} "
            "before tokens.")


def _numbers_before_tokens(state: State) -> int:
    active = state["active"]
    option = OBSTACLE[state["test"]["obstacle"]]["test"][state["test"]["option"]]
    return sum(skill(state, active, name) for name in option["skills"])


def _help_pay(state: State, seat: int, legal: list[Action]) -> str:
    picked = cards.card_name(state["test"]["picking"][str(seat)])
    return (f"Your pawn is at another job: discard one card (it is gone) to walk to job {state['test']['job']} so "
            f"your {picked} counts; or no assist after all, and you keep every card.")


def _help_no_assist(state: State, seat: int, legal: list[Action]) -> str:
    if str(seat) in state["test"].get("picking", {}):
        return "Don't assist after all: you keep every card, the one you picked too."
    return "Give nothing to this test and keep your cards; the others only see that you have chosen."


def _help_trick(state: State, seat: int, legal: list[Action]) -> str:
    numbers = total(state)
    gap = numbers["target"] - numbers["total"]
    where = f"you need {gap} more" if gap > 0 else "you already reach it"
    return ("Play a trick from your hand on your own test (flip a token to its other face, ignore or redraw one, "
            f"add to the total...); played tricks are discarded, or banked if they carry cheese and the test "
            f"fails. Total {numbers['total']} vs {numbers['target']} needed: {where}.")


def _help_resolve(state: State, seat: int, legal: list[Action]) -> str:
    numbers = total(state)
    obstacle = OBSTACLE[state["test"]["obstacle"]]
    if numbers["success"]:
        return (f"End the test: {numbers['total']} reaches {numbers['target']}, a success: {obstacle['name']} "
                f"and its {obstacle['cheese']} cheese go to your score pile.")
    fate = "it stays on the job (Mandatory)" if state["finales"] and _mandatory(state, obstacle["id"]) else \
        "it goes back in the box"
    return (f"End the test: {numbers['total']} is short of {numbers['target']}, a failure: its ✗ effect happens "
            f"and {fate}; you may then upgrade a skill with a trick.")


def _mandatory(state: State, obstacle: str) -> bool:
    from .board import mandatory

    return mandatory(state, obstacle)


def _help_upgrade(state: State, seat: int, legal: list[Action]) -> str:
    return ("Put this trick on your identity: +1 to its skill for the rest of the game (a played one would "
            "otherwise be discarded; one from your hand leaves your hand).")


def _help_no_upgrade(state: State, seat: int, legal: list[Action]) -> str:
    return "Keep your tricks for later tests; no skill goes up."


HELP = {"choose": _help_choose, "assist": _help_assist, "pay": _help_pay, "no_assist": _help_no_assist,
        "trick": _help_trick, "resolve": _help_resolve, "upgrade": _help_upgrade, "no_upgrade": _help_no_upgrade}


def action_help(state: State, seat: int, legal: list[Action]) -> dict[str, str]:
    """One plain line per kind of option in ``legal``: what it does, costs and can win, with the numbers now."""
    kinds = []
    for action in legal:
        if action["type"] not in kinds:
            kinds.append(action["type"])
    return {kind: HELP[kind](state, seat, [a for a in legal if a["type"] == kind]) for kind in kinds if kind in HELP}


# --------------------------------------------------------------------------- the tutorial
YOU, BRUNO, CHIARA = 0, 1, 2
NAMES = ["Robin (you)", "Bruno", "Chiara"]
HANDS = {YOU: ["Cold Read", "Tumble", "Sleight of Hand", "Wingman", "Lookout"],
         BRUNO: ["Lookout", "Muscle", "Sweet Talk", "Brute Force", "Old Friend"],
         CHIARA: ["Tool Kit", "Push Your Luck", "Misdirection", "Steady Hands", "Cold Read"]}


def _engine() -> Any:
    from . import ENGINE

    return ENGINE


def _card(state: State, name: str) -> str:
    """A card of that name out of the deck."""
    card = next(card for card in reversed(state["deck"]) if cards.card_name(card) == name)
    state["deck"].remove(card)
    return card


def _start() -> State:
    """Round 2 of a 3-player game, which you open: round 1 went Chiara (beat A1), Bruno (beat C1), you (beat D1)."""
    engine = _engine()
    state = engine.setup(list(NAMES), engine.meta.resolve_options({}), 2024)
    state["identities"] = ["grifter", "cat_burglar", "forger"]
    state["box_identities"] = sorted(set(cards.IDENTITY) - set(state["identities"]))
    state["secrets"] = ["well_trained", "collector", "gambler"]
    state["box_secrets"] = sorted(set(cards.SECRET) - set(state["secrets"]))
    for hand in state["hands"]:
        state["deck"][:0] = hand
    state["hands"] = [[_card(state, name) for name in HANDS[seat]] for seat in range(3)]
    state["held"] = sorted({cards.card_name(card) for hand in state["hands"] for card in hand})
    for seat, obstacle in ((CHIARA, "A1"), (BRUNO, "C1"), (YOU, "D1")):
        state["jobs"][obstacle[0]].remove(obstacle)
        state["piles"][seat].append(obstacle)
    state["locations"] = ["D", "C", "A"]
    state["tests"] = 3
    space = state["heat"][0]
    state["bag"][space["colour"]] += space["count"]
    space["count"], space["done"] = 0, True
    state["start"], state["round"], state["turns"] = CHIARA, 2, 0
    state["leader"] = state["active"] = rules.of(state).leader(CHIARA, 2, 3)
    assert state["active"] == YOU
    return state


def _choose(state: State, letter: str, skill_name: str) -> Action:
    obstacle = OBSTACLE[state["jobs"][letter][0]]
    option = next(i for i, test in enumerate(obstacle["test"]) if test["skills"] == [skill_name])
    return {"type": "choose", "job": letter, "option": option}


def _set_tokens(state: State, *tokens: tuple[str, int]) -> None:
    """The test's drawn tokens are these ``(colour, face)`` instead: the drawn ones go back, these come out of the
    bag (every token stays where the rules can count it)."""
    test = state["test"]
    for token in test["tokens"]:
        state["bag"][token["colour"]] += 1
    test["tokens"] = []
    for colour, face in tokens:
        state["bag"][colour] -= 1
        test["tokens"].append({"colour": colour, "face": face, "ignored": False})


def _named(state: State, seat: int, name: str) -> str:
    return next(card for card in state["hands"][seat] if cards.card_name(card) == name)


def _first_test(start: State) -> tuple[State, Action, Action]:
    """Your first test up to the tokens: C2 by Charm, Bruno's Lookout, Chiara's nothing; the start's random
    generator is the first one (from a fixed list) under which the bag gives a red -4 and a yellow +1."""
    engine = _engine()
    for seed in range(10_000):
        start["rng"] = Rng.seed_state(seed)
        state = copy.deepcopy(start)
        choose = _choose(state, "C", "charm")
        engine.apply(state, YOU, choose)
        assist = {"type": "assist", "card": _named(state, BRUNO, "Lookout")}
        for seat, action in ((BRUNO, assist), (CHIARA, {"type": "no_assist"})):
            engine.apply(state, seat, action)
        if [(t["colour"], t["face"]) for t in state["test"]["tokens"]] == [("red", 1), ("yellow", 0)]:
            return state, choose, assist
    raise AssertionError("no seed draws the tutorial's tokens")  # pragma: no cover


@lru_cache(maxsize=1)
def _script() -> dict[str, Any]:
    """Play the tutorial through once: the positions its steps jump to and the moves they ask for (kept: every
    position handed out is a copy)."""
    engine = _engine()
    start = _start()
    state, choose, assist = _first_test(start)  # (the start's generator is now the one that draws them)
    trick = {"type": "trick", "card": _named(state, YOU, "Cold Read"), "token": 0}
    engine.apply(state, YOU, trick)
    engine.apply(state, YOU, {"type": "resolve"})
    bruno = _choose(state, "B", "agility")
    engine.apply(state, BRUNO, bruno)
    pick = {"type": "assist", "card": _named(state, YOU, "Wingman")}
    engine.apply(state, YOU, pick)
    engine.apply(state, CHIARA, {"type": "no_assist"})
    pays = tuple(a for a in engine.legal_actions(state, YOU) if a["type"] == "pay")

    failed = copy.deepcopy(start)  # later: you face B4 Leap to the Belfry alone, and fail
    failed["jobs"]["B"] = ["B4", "B5"]
    failed["piles"][BRUNO].append("B1")
    failed["boxed"] += ["B2", "B3"]
    failed["tests"], failed["failed"] = 5, 2
    engine.apply(failed, YOU, _choose(failed, "B", "agility"))
    for seat in (BRUNO, CHIARA):
        engine.apply(failed, seat, {"type": "no_assist"})
    _set_tokens(failed, ("orange", 0), ("yellow", 1))  # -1 and -1
    failed_total = total(failed)
    engine.apply(failed, YOU, {"type": "resolve"})
    upgrade = {"type": "upgrade", "card": _named(failed, YOU, "Tumble")}
    upgraded = copy.deepcopy(failed)
    engine.apply(upgraded, YOU, upgrade)
    return {"start": start, "choose": choose, "assist": assist, "trick": trick, "bruno": bruno,
            "pick": pick, "pays": pays, "failed": failed, "failed_total": failed_total, "upgrade": upgrade,
            "progress": secret_progress(upgraded, YOU)}


@lru_cache(maxsize=1)
def tutorial() -> Tutorial:
    """Your first turn, your first assist, a failed test, and how the game ends (about 7 minutes)."""
    script = _script()

    def at(key: str) -> Any:
        return lambda: copy.deepcopy(script[key])

    tuned = rules.TUNED
    steps = (
        TutorialStep(
            "Goal and the end of the game",
            f"You are a thief; Bruno and Chiara are bots. **The most cheese wins** when the game ends after round "
            f"{ROUNDS}. Each turn a thief faces one obstacle of a job; beating it puts its cheese in their score "
            "pile. The others can help with cards, and earn from helping. Round 1 is over (Chiara, Bruno and you "
            "each beat one obstacle); round 2 starts with you.",
            expect=None),
        TutorialStep(
            "Setup and the board",
            "You are the **Grifter**: Agility 1, Charm 2, Dexterity 0 (your skills; AGI, CHA, DEX on the board). "
            "The four jobs show only their **top obstacle**: its test (a skill and the number to reach), its cheese "
            "and what a success (✓) or a failure (✗) does. The **bag** shows how many tokens of each colour it "
            "holds and the two faces a token of that colour can land on (red -2/-4: risky; blue +4/+2: good). The "
            "**heat track** adds tokens to the bag after each round. Your DM shows your hand and your secret goal.",
            expect=None),
        TutorialStep(
            "Choosing an obstacle",
            "Choose an obstacle: the top one of a job. **C2 Count Cards** says \"Dexterity 3 or Charm 4\": you may "
            "face it with either skill, so it is offered twice, once per skill. With Charm you have 2 and need 4; "
            "with Dexterity you have 0 and need 3.",
            expect=(script["choose"],),
            hint="Choose C2 Count Cards by Charm.",
            wrong="Choose C2 Count Cards by Charm for this lesson: 2 Charm of 4 needed is the better of its two "
                  "skills (0 Dexterity of 3).",
            after="Your pawn walks to job C. Bruno and Chiara now chose in secret whether to help: Bruno (at job C "
                  "already) gave a Lookout (+2), Chiara gave nothing. Then two tokens came out of the bag.",
            then=((BRUNO, script["assist"]), (CHIARA, {"type": "no_assist"}))),
        TutorialStep(
            "Drawing tokens",
            "You drew a **red -4** and a **yellow +1**: a token lands on either of its two faces, and red's are -2 "
            "and -4. Your total is Charm 2 + Lookout 2 - 4 + 1 = **1, and you need 4**. The drawn tokens stay out "
            "of the bag until the round ends.",
            expect=None),
        TutorialStep(
            "Tricks",
            "Only you may now play **tricks** on your test. Cold Read ignores a drawn token: ignore the red -4 and "
            "your total becomes 5. (Flipping it with Sleight of Hand would make it -2: a total of 3, still short.)",
            expect=(script["trick"],),
            hint="Play Cold Read on token 1, the red -4.",
            wrong="Play Cold Read on the red -4 (token 1): ignoring it lifts your total to 5.",
            wrong_by_type=(("resolve", "Resolving now would be a failure (1 of 4): play Cold Read on the red -4 "
                                       "first."),),
            after="The red token no longer counts: total 5 against 4."),
        TutorialStep(
            "Resolving: success or failure",
            "Now **resolve**: a total that reaches the number is a success. C2 and its 2 cheese go to your score "
            "pile and Bruno banks his Lookout's 1 cheese: helping pays. A failure would apply the ✗ effect and put "
            "the obstacle back in the box, unless it is **Mandatory**: then it stays for the next thief.",
            expect=({"type": "resolve"},),
            hint="Resolve.",
            wrong="Resolve now: 5 reaches 4.",
            after="Success! You drew back up to 5 cards. Bruno's turn: he faces B1 Climb the Tower (Agility 2), "
                  "and you may help him.",
            then=((BRUNO, script["bruno"]),)),
        TutorialStep(
            "Getting help",
            "When another thief faces a test, you may secretly commit one **assist** card, or nothing; everyone's "
            "choice is revealed at once. An assist adds its number to their total; if the test succeeds, a card "
            "with cheese goes to your score pile and one with \"+1 Charm to you\" onto your identity (+1 Charm "
            "for good). Wingman does that.",
            expect=(script["pick"],),
            hint="Assist with Wingman.",
            wrong="Pick Wingman for this lesson: +2 for Bruno, and +1 Charm for you if he succeeds.",
            after="Your pawn is at job C and Bruno is at job B: to help you must walk over.",
            then=((CHIARA, {"type": "no_assist"}),)),
        TutorialStep(
            "Getting help",
            "Walking to another job costs **one card of your choice**, discarded when the assists are revealed. "
            "Pick the card you need least, or \"No assist after all\" to keep everything.",
            expect=script["pays"],
            hint="Discard a card to walk to job B.",
            wrong="Pay with one of your cards this time (any one).",
            after="Committed. Chiara gave nothing; the assists are revealed and Bruno draws his tokens."),
        TutorialStep(
            "Failure upgrades",
            f"Later: you faced **B4 Leap to the Belfry** (Agility 6) alone, drew -1 and -1, and failed "
            f"{script['failed_total']['total']} against {script['failed_total']['target']}. "
            "Its ✗ effect put a red token in the bag, and it is **Mandatory**, so it stays on job B. After your "
            "own failure you may put one trick with \"failure: +1\" (played, or from your hand) on your "
            "identity: +1 to that skill for good. Tumble gives the Agility this test needed.",
            expect=(script["upgrade"],),
            hint="Upgrade with Tumble.",
            wrong="Take Tumble: +1 Agility, the skill B4 tests.",
            wrong_by_type=(("no_upgrade", "An upgrade is free here: take Tumble for +1 Agility."),),
            after="Your Agility is 2 now. Each upgrade also counts for your secret goal, Well Trained.",
            position=at("failed")),
        TutorialStep(
            "The end of a round",
            "When everyone has had a turn, the round ends: the heat track's tokens for that round go into the bag "
            "(orange, orange, red, purple, then blue: mostly riskier) and every token drawn that round goes "
            f"back in. Then the next round: {round_order_text(tuned)}. After round {ROUNDS} the game ends.",
            expect=None),
        TutorialStep(
            "Scoring and secrets",
            "At the end each thief scores the cheese in their score pile, +1 per obstacle they hold from a "
            "**completed job** (its finale, the last obstacle, beaten), and their **secret goal**'s cheese if it "
            f"is met. Your DM shows your secret with your progress as a count (Well Trained: {script['progress']} "
            f"now). The most cheese wins; a tie goes to the most obstacles, then is shared "
            f"({start_ties_text(tuned)}); {head_start_text(tuned)}.",
            expect=None),
        TutorialStep(
            "Solo",
            f"Alone, nobody assists: after you choose, the tokens come at once. Reach {cards.SOLO_TARGET} cheese to "
            "pull off the heist (your rating: Caught red-handed, Small-time crook, Professional or Mastermind).",
            expect=None),
    )
    return Tutorial(seat=YOU, start=at("start"), steps=steps,
                    intro="A short game against two bots: your first turn, your first assist, a failed test, and "
                          "how the game ends. About 7 minutes.")
