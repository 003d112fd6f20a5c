"""``rules: rulebook`` plays the printed rules (issue 29): each test quotes the rulebook line it checks
(/work/shared/rules/002_8ec18ca973555fb0.txt, the designer's beta rules review sheet). The tuned set's own
tests are in test_rules.py and test_fair.py; these check where the two sets part, and that the digital
adaptations (interrupt windows, the automatic die face, the round limit) stay in both."""
from __future__ import annotations

import pytest

from bot.engine import RuleError
from bot.games.masterminds.scenario import MastermindsTable
from tests.games.masterminds.test_util import ENGINE, check, go, heist_state, play, texts, tid

BOOK = {"rules": "rulebook"}


def test_the_rules_option_defaults_to_tuned_and_offers_the_rulebook():
    assert ENGINE.meta.resolve_options({})["rules"] == "tuned"
    assert ENGINE.meta.resolve_options(BOOK)["rules"] == "rulebook"


# ----------------------------------------------------------------- who may attempt step D
def test_rulebook_any_team_may_attempt_step_d():
    """ "Look at the HEISTS that are on the board and choose a Heist Step that you want your TEAM to attempt." """
    # Steps A-C hold P2's dice only; P1 (none there) may still go for step D (Muscle 9) and complete it.
    s = MastermindsTable.at_a_heist(team=("Big Tomas",), dice=[(1, 2), (1, 3), (1, 6)], **BOOK).intel(0, 20).state
    assert {"type": "heist", "heist": 0, "skill": "Muscle"} in ENGINE.legal_actions(s, 0)
    ev = go(s, 0, 0, "Muscle", [tid("Big Tomas")], resolve=True)
    assert "P1 completes The Crown Jewels" in texts(ev) and s["dice"] == [5, 5]
    check(s)


def test_tuned_keeps_the_inside_job():
    s = heist_state(team=("Big Tomas",), dice=[(1, 2), (1, 3), (1, 6)])
    assert {"type": "heist", "heist": 0, "skill": "Muscle"} not in ENGINE.legal_actions(s, 0)
    with pytest.raises(RuleError, match="Inside job"):
        ENGINE.apply(s, 0, {"type": "heist", "heist": 0, "skill": "Muscle"})


# ----------------------------------------------------------------- a failure
def failed_second_step(**options):
    """Ghost takes step A by PERFECTION, then Byte fails step B (Stealth 7) with a 1; no trigger."""
    s = MastermindsTable.at_a_heist(team=("Ghost", "Byte"), gear={"Ghost": "Shadow Suit"}, **options).state
    go(s, 0, 0, "Stealth", [tid("Ghost")], resolve=True)
    assert s["phase"] == "continue" and s["heists"][0]["dice"][0] == {"seat": 0, "value": 6}
    MastermindsTable.of(s).dice(1).next_failure("Pulled Over")
    return s, texts(go(s, 0, 0, "Stealth", [tid("Byte")], resolve=True))


def test_rulebook_a_failure_draws_a_failure_card_and_ends_the_run_keeping_the_dice():
    """ "Fail = Draw Failure card and End of Heist run" (and Tally Up: "After the Failure card is resolved your
    Heist run is over."): nothing takes back the dice already placed."""
    s, said = failed_second_step(**BOOK)
    assert "FAILURE" in said and "Pulled Over" in said and "goes back" not in said
    assert s["heists"][0]["dice"][0] == {"seat": 0, "value": 6} and s["dice"][0] == 4
    assert s["turn"] == 1  # the run, and the turn, are over
    check(s)


def test_tuned_a_failure_busts_the_dice_placed_this_run():
    s, said = failed_second_step()
    assert "P1's die on The Crown Jewels step A goes back" in said and s["heists"][0]["dice"] == [None] * 4


# ----------------------------------------------------------------- the end of the game
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rulebook_the_players_plus_one_th_heist_ends_the_game_at_once(players):
    """ "Players must complete a total number of HEISTS equal to the number of players plus one. (ex. 3 Players =
    4th completed Heist ends the game)": 2 players the 3rd, 4 players the 5th, 5 players the 6th. The completer
    finishes that heist's checklist (the take, the matching-dice bonus, retiring a recruit); nobody else plays."""
    s = (MastermindsTable.at_a_heist(players, team=("Big Tomas", "Celeste Moreau"), dice=[(0, 1), (0, 2), (0, 3)],
                                     **BOOK).heists_done(1, players).intel(0, 20).state)
    assert s["target"] == players + 1 and s["turn"] == 0 == s["first"]  # the round's first player
    ev = go(s, 0, 0, "Muscle", [tid("Big Tomas")], resolve=True)
    assert f"heist {players + 1} of {players + 1}" in texts(ev) and "LAST HEIST" in ENGINE.status_line(s)
    gems = sum(s["gems"][0].values())
    ev = play(s, 0, {"type": "retire", "recruit": tid("Celeste Moreau")})  # a Fence: her retirement pays a gem
    assert ENGINE.is_terminal(s) and s["final"]["reason"] == "heists" and ENGINE.to_act(s) == []
    assert sum(s["gems"][0].values()) == gems + 1 and "Gem values" in texts(ev)
    check(s)


def test_tuned_plays_the_round_out_after_the_last_heist():
    s = (MastermindsTable.at_a_heist(3, team=("Big Tomas",), dice=[(0, 1), (0, 2), (0, 3)])
         .heists_done(1, 3).intel(0, 20).state)
    go(s, 0, 0, "Muscle", [tid("Big Tomas")], resolve=True)
    assert not ENGINE.is_terminal(s) and s["turn"] == 1 and "LAST ROUND" in ENGINE.status_line(s)


# ----------------------------------------------------------------- stored games; digital adaptations
def test_a_state_stored_before_the_option_plays_tuned():
    """A game stored before the rules option existed has no ``rules`` in its options: it plays the tuned set."""
    s = MastermindsTable.at_a_heist(team=("Ghost", "Byte"), gear={"Ghost": "Shadow Suit"}).state
    del s["options"]["rules"]
    go(s, 0, 0, "Stealth", [tid("Ghost")], resolve=True)
    MastermindsTable.of(s).dice(1).next_failure("Pulled Over")
    assert "goes back" in texts(go(s, 0, 0, "Stealth", [tid("Byte")], resolve=True))


def test_rulebook_keeps_the_digital_adaptations():
    """ "For all interrupts, the acting player must allow a few seconds for other players to react and play
    interrupts": an interrupt window before every roll, asking everyone. "PERFECTION. Take a die, choose the number":
    the face is set for you (the one that matches your dice). And a round limit ends a stalled game."""
    s = MastermindsTable.at_a_heist(3, team=("Ghost",), gear={"Ghost": "Shadow Suit"}, dice=[(0, 3)], **BOOK).state
    go(s, 0, 0, "Stealth", [tid("Ghost")])
    assert s["phase"] == "window" and ENGINE.to_act(s) == [0, 1, 2]
    assert ENGINE.window_seconds(s, s["options"]) == 20
    ev = []
    while s["phase"] == "window":
        ev += play(s, ENGINE.to_act(s)[0], {"type": "pass"})
    assert "PERFECTION" in texts(ev) and s["heists"][0]["dice"][1] == {"seat": 0, "value": 3}
    assert ENGINE.meta.resolve_options(BOOK)["round_limit"] == 25
