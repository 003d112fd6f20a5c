"""Masterminds: Heist Society, taught (see :mod:`bot.teach`): how to play, the glossary, a line of help for every
kind of move on offer (with the chance where a die decides), and the tutorial, a scripted game against a bot."""
from __future__ import annotations

from functools import cache
from typing import Any

from bot.teach import HowToPlay, Tutorial, TutorialStep

from .calc import GEM_AVERAGE, chance_line, gem_points, need_on_die, recruit_value
from .cards import ABILITIES, CLEAR, PREP, TALENTS
from .constants import HAND_LIMIT, TEAM_LIMIT
from .engine import MastermindsEngine
from .scenario import MastermindsTable, tid

ENGINE = MastermindsEngine()
State = dict[str, Any]
Action = dict[str, Any]


def example() -> tuple[State, int | None]:
    """A table a few turns in, for the labelled how-to-play picture: dice on a heist, teams, gems, a hand."""
    table = (MastermindsTable(3, seed=7).empty_hands()
             .team(0, "Ghost", "Byte", gear={"Ghost": "Shadow Suit"})
             .team(1, "Big Tomas", "Celeste Moreau", "Tess Okafor")
             .team(2, "Rosa Vance")
             .heist(0, "The Crown Jewels", "Casino Vault", dice=[(0, 4), (1, 2)])
             .gems(0, Clear=2, Green=1).gems(1, Red=2, Clear=1).gems(2, Blue=1, Clear=1)
             .hand(0, "Adrenaline", "Casing the Joint"))
    table.state["recent"] = ["P1 holds the run on The Crown Jewels.", "P2's turn."]
    table.state["turn"] = 1
    return table.state, None


HOW_TO_PLAY = HowToPlay(
    goal="You are a mastermind running a heist crew. Hire recruits (Talent cards with five skills), gear them up "
         "and send them through the four steps (A to D) of the two heists on the board. Whoever completes step D "
         "takes that heist's gems.",
    winning="Most points at the end wins. A Clear gem is worth 2 points. Each mastermind colour's gems are worth "
            "one die roll (1-6) made at the end, for whoever holds them (3.5 on average); the board shows your sure "
            "points and about what your gems are worth. The game ends when players + 1 heists are completed, when "
            "the gem bag is empty, or after the round limit.",
    turn="Each turn choose PREP or HEIST. PREP: recruit a Talent (or burn: discard the Talent Pool and draw a new "
         "one; or just draw a Prep card), then two plan actions: draw a Prep card, play an action card, equip gear "
         "(+skill on one recruit) or move gear. HEIST: pick the next open step of a heist and 1-3 of your recruits. "
         "Their total in the step's skill + one die must BEAT the step's number: above it before rolling is "
         "PERFECTION (no roll), equal is a PUSH (the run ends), below is a FAILURE (a Failure card). After a success "
         "hold (stop; your die stays on the step) or continue to the next step with recruits not used this turn. "
         "Before every roll everyone may play one interrupt card, in secret. The \"?\" on each panel says what each "
         "choice does and the die you need.",
    board="Top: the round, heists completed of the target and gems left in the bag. The two heists: each step shows "
          "its skill and the number to beat; a coloured die on a step is that player's. The legend names the skill "
          "letters on the cards (D Driving, S Stealth, H Hacking, M Muscle, C Charm) and what gems are worth. The "
          "Talent Pool: recruits you can hire, with their skill values and ability. Each player's row: gems by colour, "
          "sure points and about what they are worth, heists done, cards in hand, free dice, and the team (dim = "
          "tapped, already used this turn).",
    example=example,
)

ABILITY_TERMS = {ability["name"]: f"A recruit's ability: {ability['text']}" for ability in ABILITIES.values()}

GLOSSARY: dict[str, str] = {
    "Masterminds": "This game, Masterminds: Heist Society.",
    "deck": "A face-down pile of cards; when one runs out its discard pile is shuffled into a new deck.",
    "mastermind": "You: a player running a crew; each mastermind has a colour, 5 dice of that colour and gems of it in the bag.",
    "PREP": "A turn spent building your crew: recruit (or burn, or draw a Prep card), then two plan actions.",
    "HEIST": "A turn spent sending recruits at the next step of a heist: their skill total + one die must beat the step's number.",
    "heist": "A job on the board: four steps A-D done in order, each a skill and a number to beat; completing D pays its TAKE in gems.",
    "step": "One of a heist's four parts (A, B, C, D): a skill and the number your total + a die must beat; a die on it shows who did it.",
    "TAKE": "The gems a heist pays (2-4, drawn from the bag) to whoever completes its step D.",
    "Talent": "A recruit card: five skill values and an ability; hired from the Talent Pool onto your team (at most 4).",
    "recruit": "A Talent on a team; also the move that hires one from the Talent Pool.",
    "team": "Your recruits (up to 4); a Talent hired into a full team replaces one, who leaves with their gear.",
    "Talent Pool": "The three face-up Talent cards anyone may recruit; refilled at the end of each turn.",
    "burn": "Discard: burning the Talent Pool discards all three, then you draw a new Talent to hire or put in the pool.",
    "Prep card": "A card in your hand: gear, an action, an interrupt, or an immediate card (played the moment it is drawn).",
    "gear": "A Prep card a player equips a recruit with: +2 to one skill or +1 to all, for that recruit only; one per recruit; discarded when you complete a heist.",
    "action card": "A Prep card played as a plan action; its 💎 text is an extra you get by returning one of your gems to the bag.",
    "💎": "An action card's gem bonus: return one of your gems to the bag to get it ('Instead' bonuses replace the plain effect).",
    "Instead": "On an action card's gem bonus: you get only the bonus, not the plain effect.",
    "interrupt": "A Prep card played in the interrupt window before a roll, to help your roll or spoil a rival's.",
    "interrupt window": "Before every roll everyone may play one interrupt or pass, in secret; the cards are revealed together, then the die is rolled.",
    "pass": "Play no interrupt in this window (the rolling player's pass reads 'Roll without an interrupt').",
    "immediate": "A Prep card played the moment it is drawn (Windfall, Street Tip, Rival Crew, Lockdown).",
    "plan action": "One of the two things you do after recruiting: draw a Prep card, play an action card, equip gear, or move gear.",
    "Intel": "A bonus added to your next heist attempt's total, then used up (from Casing the Joint or Black Market).",
    "crew": "The 1-3 untapped recruits you send at a heist step; their values in its skill are added up.",
    "total": "Your crew's values in the step's skill plus gear, abilities and Intel; with one die it must beat the step's number.",
    "PERFECTION": "Your total already beats the step's number before rolling: no roll needed, your die goes on the step.",
    "SUCCESS": "Total + the die beats the step's number: your die goes on the step; then hold or continue.",
    "PUSH": "Total + the die equals the step's number: no die is placed and your run is over.",
    "FAILURE": "Total + the die is below the step's number (the attempt fails): a recruit of the crew draws a Failure card and your run is over.",
    "Failure card": "Drawn on a FAILURE: if the step's skill is one it bites on, the recruit must beat its test with skill + a die or suffer its consequence.",
    "trigger": "The two skills a Failure card bites on; on any other step it does nothing.",
    "test": "A Failure card's skill test: the recruit's value in that skill + a die must beat the number, or the consequence happens.",
    "arrested": "A Failure consequence: the recruit is discarded with their gear.",
    "injured": "A Failure consequence: the recruit stays tapped through your next upkeep (misses a turn).",
    "bust": "(Tuned rules) a FAILURE also takes back the dice you placed on that heist during this run.",
    "run": "Your heist attempts in one turn: a step, then (after each success) maybe the next step of the same heist.",
    "hold": "Stop after a success: your die stays on the step and the turn ends.",
    "continue": "After a success, go for the next step of the same heist with recruits not yet used this turn.",
    "inside job": "(Tuned rules) only a player with a die on a heist's steps A-C may attempt its step D.",
    "tapped": "Used this turn: a recruit who attempted a step can't go again until your upkeep untaps them.",
    "retire": "After completing a heist you discard one of your recruits (they take their cut and leave).",
    "upkeep": "The end of your turn: abilities, untap your recruits, refill the Talent Pool and heists, discard down to 6 cards.",
    "hand limit": f"At your upkeep you discard down to {HAND_LIMIT} Prep cards.",
    "free dice": "Your dice not sitting on a heist step; each success places one, and with none free you can't attempt a step.",
    "gem": "Points: a Clear gem is worth 2; a colour gem is worth the die rolled for that colour at the end (1-6).",
    "Clear": "A colourless gem, always worth 2 points; everyone starts with one.",
    "colour gem": f"A gem of a mastermind's colour: worth one die roll (1-6, {GEM_AVERAGE} on average) made at the end, for whoever holds it.",
    "≈": "About: your sure points plus each colour gem at its average 3.5; the real values are rolled at the end.",
    "sure": "Points you already have for certain: 2 for each Clear gem.",
    "bag": "The gems not yet won; a heist's TAKE is drawn from it, and the game ends when it is empty.",
    "bonus gem": "Complete a heist with three of your own dice on it showing the same number: one more gem.",
    "round": "Everyone's turn once; the game also ends after the round limit (25 rounds unless the table changed it).",
    "LAST ROUND": "(Tuned rules) the last heist is done: the round is played out so everyone gets the same number of turns.",
    "LAST HEIST DONE": "(Rulebook) the last heist is done: the game ends when its completer's turn ends.",
    "tuned": "The default rule set: the printed rules with a few measured changes (inside job, bust, last round played out).",
    "rulebook": "The rule set that plays the rules as printed (the table option rules: rulebook).",
    "Driving": "A skill (D on the cards).",
    "Stealth": "A skill (S on the cards).",
    "Hacking": "A skill (H on the cards).",
    "Muscle": "A skill (M on the cards).",
    "Charm": "A skill (C on the cards).",
    "D S H M C": "The five skill letters on talent cards: Driving, Stealth, Hacking, Muscle, Charm.",
    "swap": "Move gear between two of your recruits, or exchange their gear.",
    **ABILITY_TERMS,
}

# The rules doc's sections no tutorial step teaches, and why.
REFERENCE_SECTIONS = {
    "Rule sets: tuned and rulebook": "a table comparing the two rule sets a table can choose, with balance figures",
    "Decisions (where the beta rules are silent, garbled or contradictory)":
        "how each unclear line of the beta rules was decided, with its test: for reference",
    "Balance report": "measured figures from bot games, not a rule",
    "Card design": "the card lists (24 Talents, 46 Prep, 12 Heist, 16 Failure cards): every card carries its own text",
}

# Cards and people: every button or line naming one also says what it does (a Talent's best skill and ability,
# a Prep card's text, a heist's step, a Failure card's triggers, test and consequence).
PROPER_NAMES = tuple(sorted({t["name"] for t in TALENTS.values()} | {p["name"] for p in PREP.values()}
                            | {"The Crown Jewels", "Casino Vault", "Museum After Dark", "Armoured Convoy",
                               "Diamond Exchange", "Gallery Gala", "First Federal Bank", "Yacht Party", "Server Farm",
                               "Midnight Express", "Auction House", "Penthouse Safe", "Pulled Over", "Silent Alarm",
                               "Undercover Cop", "Fender Bender", "Guard Dog", "Fell Through a Skylight", "Bar Fight",
                               "Fried Circuits", "Left It Behind", "Confiscated", "Hush Money", "Crooked Fence",
                               "Blackmailed", "Paper Trail", "Blown Cover", "Wiretapped"}))


# ---------------------------------------------------------------------------------------------------- "?" lines
def _best_try(state: State, seat: int, legal: list[Action]) -> str:
    """The one-click step with the best chance, as a preview ("Best now: ... you need 4+ (50%)")."""
    best: tuple[float, str] | None = None
    for action in legal:
        if action["type"] != "heist" or "recruits" not in action:
            continue
        heist = state["heists"][action["heist"]]
        step = ENGINE._steps(heist)[ENGINE._next_step(heist)]
        total, _ = ENGINE.attempt_total(state, seat, action["skill"], action["recruits"])
        clutch = any(TALENTS[t]["ability"] == "clutch" for t in action["recruits"])
        need = need_on_die(total, step["number"], clutch)
        chance = 1.0 if total > step["number"] else max(0, min(6, 7 - need)) / 6
        who = " + ".join(TALENTS[t]["name"] for t in action["recruits"])
        line = (f"{ENGINE._heist_name(heist)} step {'ABCD'[ENGINE._next_step(heist)]} ({action['skill']} "
                f"{step['number']}) with {who}: {chance_line(total, step['number'], clutch)}")
        if best is None or chance > best[0]:
            best = (chance, line)
    return f" Best now: {best[1]}." if best else ""


def _window_line(state: State, seat: int, kind: str) -> str:
    """What the roll about to be made looks like, before any interrupt is revealed."""
    if state["window"]["kind"] == "test":
        test = state["test"]
        _, entry = ENGINE._entry(state, test["recruit"])
        value = recruit_value(entry["card"], entry["gear"], test["skill"]) if entry else 0
        value += 3 if TALENTS[test["recruit"]]["ability"] == "slippery" else 0
        return (f"the Failure test: {TALENTS[test['recruit']]['name']}'s {test['skill']} {value} + a die must beat "
                f"{test['number']}")
    attempt = state["attempt"]
    clutch = any(TALENTS[t]["ability"] == "clutch" for t in attempt["recruits"])
    line = chance_line(attempt["base"], attempt["number"], clutch, not attempt["no_perfect"])
    if seat == attempt["seat"]:
        return f"your roll: {line}"
    return f"{state['names'][attempt['seat']]}'s roll: {line.replace('you need', 'they need')}"


def _gems_line(state: State, seat: int) -> str:
    sure, rolled, expected = gem_points(state["gems"][seat], CLEAR)
    return f" Your gems: {sure} sure points + {rolled} colour gem(s) at 1-6 each (≈ {expected:g} in all)."


# The "?" line of each kind of move whose text doesn't depend on the position.
FIXED_HELP: dict[str, str] = {
    "burn": ("PREP: burn (discard) the whole Talent Pool and draw the top Talent: hire it or put it in the new pool; "
             "then two plan actions."),
    "draw_prep": "PREP without recruiting: draw a Prep card (gear, action or interrupt); then two plan actions.",
    "crew": ("The recruits who attempt the step you picked: each option shows their total and the die they need; "
             "they are tapped (used) for the rest of this turn."),
    "back": "Go back one choice: nothing has happened yet.",
    "hire": ("Hire this Talent onto your team ('in place of' one of yours: pick who leaves next); a full team always "
             "picks who leaves."),
    "to_pool": "Don't hire the drawn Talent: it goes into the Talent Pool for anyone to recruit.",
    "hire_skip": "Recruit nobody from the fresh pool.",
    "replace": "The recruit who leaves your team for the new one (their gear is discarded too).",
    "draw": "Plan action: draw a Prep card (an immediate card is played at once).",
    "pay": ("The gem that goes back to the bag: a Clear gem is 2 sure points; a colour gem is worth a die roll at the "
            "end (1-6, 3.5 on average)."),
    "gear": ("Plan action: put a Gear card on a recruit without gear; its bonus counts for that recruit only (a second "
             "Gear card may follow in the same action). Gear is discarded when you complete a heist."),
    "gear_done": "Finish this plan action with one Gear card.",
    "trade": "Plan action: move a gear card to another of your recruits (or swap their gear).",
    "end_plan": "Skip your remaining plan actions: upkeep, and the next player's turn.",
    "target": "Who or what your action card hits.",
    "suffer": ("The recruit who draws the Failure card: if it bites on this step's skill they must beat its test with "
               "skill + a die, or suffer its consequence."),
    "give_gem": ("The gem the Failure card takes back to the bag: a Clear gem is 2 sure points, a colour gem a die "
                 "roll at the end (1-6)."),
    "retire": "You completed a heist: one of your recruits retires (leaves your team); a Fence pays a gem.",
    "discard": f"Over the hand limit at your upkeep: discard down to {HAND_LIMIT} cards.",
}
FIXED_HELP["hire_pool"] = FIXED_HELP["hire"]


def action_help(state: State, seat: int, legal: list[Action]) -> dict[str, str]:
    """One plain line per kind of move in ``legal``: what it does, costs and can win, with the chance of a roll."""
    kinds = {str(action["type"]) for action in legal}
    tuned = not ENGINE._rulebook(state)
    team = len(state["teams"][seat])
    lines: dict[str, str] = {kind: FIXED_HELP[kind] for kind in kinds if kind in FIXED_HELP}
    if "recruit" in kinds:
        lines["recruit"] = (f"PREP: hire a Talent from the pool (each shows its best skill and ability); a team holds "
                            f"{TEAM_LIMIT}, and one hired into a full team (or 'in place of' someone) replaces a "
                            f"recruit who leaves with their gear. Then two plan actions. Your team: {team}/{TEAM_LIMIT}.")
    if "heist" in kinds:
        inside = " Step D: only on a heist where you already have a die (inside job)." if tuned else ""
        fail = (" FAILURE draws a Failure card and takes back the dice you placed this run (bust)." if tuned
                else " FAILURE draws a Failure card and ends the run.")
        lines["heist"] = ("HEIST: the next open step of a heist; your crew's total in its skill + one die must beat "
                          "its number (equal = PUSH, run over)." + fail + inside + _best_try(state, seat, legal))
    if "action" in kinds:
        lines["action"] = ("Plan action: play an action card; '+ spend a gem' returns one of your gems to the bag for "
                           "its 💎 bonus ('Instead': the bonus replaces the plain effect)." + _gems_line(state, seat))
    if "pass" in kinds:
        lines["pass"] = ("Play no interrupt; the roll is made once everyone has answered (no answer in time = pass). "
                         "Now: " + _window_line(state, seat, "pass") + ".")
    if "interrupt" in kinds:
        lines["interrupt"] = ("Play this interrupt on the roll: it stays secret until everyone has answered, then all "
                              "played cards are revealed and applied. Now: " + _window_line(state, seat, "interrupt")
                              + ".")
    if "hold" in kinds:
        lines["hold"] = ("End your run: the dice you placed stay on the heist (anyone may build on them"
                         + ("; only players with a die there may try step D)." if tuned else ")."))
    return lines


# ---------------------------------------------------------------------------------------------------- tutorial
LEARNER = 0
NAMES = ["Red (you)", "Blue (bot)"]


def _start() -> State:
    """Your first turn: Byte on your team, Silas Crane and Lena Fox in the pool, a heist with Stealth 6 at step A."""
    table = (MastermindsTable(2, seed=11).empty_hands()
             .team(0, "Byte").team(1, "Big Tomas", "Rosa Vance")
             .in_pool("Silas Crane").in_pool("Lena Fox")
             .heist(0, "The Crown Jewels", "Casino Vault")
             .hand(0, "Laptop Rig", "Adrenaline", "Casing the Joint", "Hydraulic Jack")
             .hand(1, "Getaway Car", "Blueprints")
             .next_prep("Forged Credentials", "Earpiece Comms", "Call in Favours", "Shadow Suit")
             .dice(4))
    table.state["names"] = list(NAMES)
    return table.state


def _finish_position() -> State:
    """A later turn: your dice on steps A and B of a heist, the bot's on C, a fresh crew for step D (Muscle 9),
    and this is the game's last heist (the bot has completed two): the die will show a 3, like your others."""
    table = (MastermindsTable(2, seed=12).empty_hands()
             .team(0, "Big Tomas", "Nadia Volk", "Byte").team(1, "Rosa Vance", "Ghost")
             .heist(0, "Armoured Convoy", "Casino Vault", dice=[(0, 3), (0, 3), (1, 5)])
             .heists_done(1, 2).gems(0, Clear=2, Red=2).gems(1, Blue=3, Clear=1)
             .hand(0, "Adrenaline").hand(1, "Getaway Car")
             .next_prep("Blueprints", "Laptop Rig").dice(3))
    table.state["names"] = list(NAMES)
    return table.state


@cache  # one Tutorial object: a run and its checks compare steps by identity
def tutorial() -> Tutorial:
    """A private game against one bot: recruit, gear, a heist step with an interrupt, hold, then the last heist."""
    silas, byte = tid("Silas Crane"), tid("Byte")
    start, finish = _start(), _finish_position()
    held = {PREP[card]["name"]: card for card in start["hands"][LEARNER]}
    rig = held["Laptop Rig"]
    crew = ENGINE.suggested_crew(finish, 0, 0, "Muscle")
    adrenaline = {"type": "interrupt", "card": held["Adrenaline"]}
    bot_prep = ((1, {"type": "draw_prep"}), (1, {"type": "end_plan"}))
    steps = (
        TutorialStep(
            "Components", expect=None,
            say="You and a bot each run a crew. You are Red: 5 red dice, and red gems in the bag. Everyone starts "
                "with 1 Clear gem (2 points) and 4 Prep cards. The board has two heists of four steps (A-D) and the "
                "Talent Pool: three recruits anyone may hire."),
        TutorialStep(
            "Setup", expect=None,
            say="A heist is two cards: step A from one, steps B-D and the TAKE (the gems it pays) from another. Your "
                "team already has Byte (Hacking 4). The highest starting roll goes first: that's you."),
        TutorialStep(
            "A turn: PREP or HEIST", expect=({"type": "recruit", "card": silas},),
            say="Each turn is PREP (build your crew) or HEIST (send it on a job). Start with PREP: recruit Silas Crane "
                "from the pool (Stealth 3, Slippery: +3 on Failure tests).",
            hint="Recruit Silas Crane",
            wrong="Recruit Silas Crane (the first option naming him): your team needs Stealth for the first heist step.",
            wrong_by_type=(("heist", "Byte alone has Stealth 1: recruit Silas Crane first."),
                           ("burn", "Burning would discard Silas Crane with the rest of the pool.")),
            after="Silas joined your team. Now two plan actions."),
        TutorialStep(
            "PREP: recruit, then plan", expect=({"type": "gear", "card": rig, "recruit": byte},),
            say="Plan actions: draw a Prep card, play an action card, equip gear, or move gear. Gear adds to one "
                "recruit only. Equip the Laptop Rig (+2 Hacking) on Byte.",
            hint="Equip Laptop Rig on Byte",
            wrong="Equip the Laptop Rig on Byte: Hacking is his best skill.",
            after="Byte now has Hacking 6."),
        TutorialStep(
            "PREP: recruit, then plan", expect=({"type": "gear_done"},),
            say="One plan action may equip two Gear cards. Keep the Hydraulic Jack for later: no second gear card.",
            hint="No second gear card", wrong="Keep the Hydraulic Jack for now: no second gear card.",
            after="That was your first plan action."),
        TutorialStep(
            "Upkeep", expect=({"type": "draw"},), then=bot_prep,
            say="Your second plan action: draw a Prep card. Then upkeep ends your turn: your recruits untap, the pool "
                "and heists refill, and you discard down to 6 cards. Then the bot takes its turn.",
            hint="Draw a Prep card", wrong="Draw a Prep card.",
            after="The bot drew a card and ended its turn. Your turn again."),
        TutorialStep(
            "HEIST: a step, a crew and a die", expect=({"type": "heist", "heist": 0, "skill": "Stealth"},),
            say="HEIST now. The Crown Jewels step A is Stealth 6: your crew's Stealth total plus one die must BEAT "
                "6. Pick that step; the crew comes next.",
            hint="The Crown Jewels step A (Stealth 6): choose the crew",
            wrong="Pick \"The Crown Jewels step A (Stealth 6): choose the crew\"; you choose the crew next.",
            wrong_by_type=(("recruit", "This turn is a HEIST: pick The Crown Jewels step A."),
                           ("draw_prep", "This turn is a HEIST: pick The Crown Jewels step A."))),
        TutorialStep(
            "HEIST: a step, a crew and a die", expect=({"type": "crew", "recruits": [silas]},),
            say="Each crew option shows its total and the die it needs. Silas alone: Stealth 3 + a die vs 6, so you "
                "need 4+ (50%). Equal to 6 would be a PUSH (nothing placed), below a FAILURE. Send Silas.",
            hint="Silas Crane: total 3 + a die vs 6",
            wrong="Send Silas Crane alone: keep Byte fresh."),
        TutorialStep(
            "The interrupt window", expect=(adrenaline,),
            say="Before the roll everyone may play one interrupt, in secret. Play Adrenaline: +2 makes your total 5, "
                "so any roll of 2+ wins (83%).",
            hint="Play Adrenaline", wrong="Play Adrenaline (+2): it turns a 50% roll into 83%.",
            wrong_by_type=(("pass", "You could pass, but Adrenaline (+2) turns a 50% roll into 83%."),),
            after="Adrenaline made it 5, and you rolled a 4: 9 beats 6, SUCCESS. Your die is on step A."),
        TutorialStep(
            "Hold or continue", expect=({"type": "hold"},), then=bot_prep,
            say="After a success: continue to step B with a recruit not used this turn, or hold. Step B is Stealth 7 "
                "and Byte has Stealth 1: he can't beat it. Hold: your die stays, to finish the heist later.",
            hint="Hold: stop here", wrong="Byte can't beat Stealth 7 (1 + a die): hold.",
            after="You held; the bot took its turn."),
        TutorialStep(
            "Failure cards", expect=None,
            say="Had you rolled below 6, that was a FAILURE: a recruit draws a Failure card. It only bites on its two "
                "skills; then the recruit must beat its test (skill + a die) or be arrested, injured, or lose gear, a "
                "gem or cards. With the tuned rules a failure also takes back the dice you placed that turn."),
        TutorialStep(
            "Completing a heist", position=_finish_position,
            expect=({"type": "heist", "heist": 0, "skill": "Muscle", "recruits": crew},),
            say="Later in the game: your dice (3 and 3) sit on steps A and B of the Armoured Convoy, the bot's on C. "
                "Whoever completes step D (Muscle 9) takes the TAKE of 4 gems. Send the suggested crew in one click.",
            hint="Armoured Convoy step D (Muscle 9): send Big Tomas + Nadia Volk",
            wrong="Pick the step D option that sends Big Tomas + Nadia Volk in one click."),
        TutorialStep(
            "The interrupt window", expect=({"type": "pass"},),
            say="Muscle 4 + 4 = 8, + a die vs 9: you need 2+ (83%). Good odds: roll without an interrupt, and keep "
                "Adrenaline.",
            hint="Roll without an interrupt", wrong="Roll without an interrupt this time.",
            after="You rolled a 3: 11 beats 9, and the heist is yours: 4 gems, plus a bonus gem for three of your "
                  "dice showing 3."),
        TutorialStep(
            "Completing a heist", expect=({"type": "retire", "recruit": byte},), then=bot_prep,
            say="Completing a heist: take the TAKE, draw a Prep card if your team has fewer than 4, the dice go home, "
                "your gear is discarded, and one recruit retires. Retire Byte.",
            hint="Retire Byte", wrong="Retire Byte: Big Tomas and Nadia are your heist crew.",
            after="That was heist 3 of 3 (players + 1): the last. The bot played out the round, and the game ended."),
        TutorialStep(
            "End of the game and scoring", expect=None,
            say="At the end a die is rolled for each colour: every Red gem is worth Red's roll, whoever holds it; Clear "
                "gems are worth 2. During play the board shows sure points and about what gems are worth (colours at "
                "3.5). Most points wins; ties go to more Clear gems, then more heists."),
        TutorialStep(
            "Reading the board", expect=None,
            say="The board: the round and heists done at the top, then the two heists (a coloured die on a step is "
                "whose it is), the Talent Pool (D S H M C: Driving, Stealth, Hacking, Muscle, Charm), and a row per "
                "player: gems and their worth, hand, free dice, team. The \"?\" on each panel explains every choice."),
    )
    return Tutorial(seat=LEARNER, start=_start, steps=steps,
                    intro="A short game against one bot: recruit, gear up, go for a heist step, then finish a heist.")
