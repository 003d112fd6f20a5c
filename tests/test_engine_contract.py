"""The shared engine contract: options, the seeded RNG, ranks, and the base apply."""
import pytest

from bot.engine import GameMeta, Option, RuleError, competition_ranks
from bot.games import registry
from bot.rng import Rng
from tests.dummy_game import ENGINE as DUMMY
from tests.playout import assert_rejects


def test_option_parsing_and_messages():
    flag = Option("master_thief", "Master Thief variant", False)
    assert flag.parse("yes") is True and flag.parse("off") is False
    with pytest.raises(RuleError, match="on or off"):
        flag.parse("maybe")
    count = Option("round_limit", "Round limit", 25, minimum=8, maximum=60)
    assert count.parse("30") == 30
    with pytest.raises(RuleError, match="between 8 and 60"):
        count.parse("7")
    with pytest.raises(RuleError, match="whole number"):
        count.parse("lots")
    choice = Option("special_set", "Special cards", "A", choices=("A", "B"))
    assert choice.parse("b") == "B"
    with pytest.raises(RuleError, match="one of: A, B"):
        choice.parse("C")
    meta = GameMeta("x", "X", 1, 2, "", "", options=(flag, count))
    assert meta.resolve_options({"round_limit": "9"}) == {"master_thief": False, "round_limit": 9}
    with pytest.raises(RuleError, match="no option 'colour'"):
        meta.resolve_options({"colour": "red"})


def test_rng_is_deterministic_json_state_and_in_range():
    a, b = {"rng": Rng.seed_state(42)}, {"rng": Rng.seed_state(42)}
    rolls = [Rng(a).die(20) for _ in range(2000)]
    assert rolls == [Rng(b).die(20) for _ in range(2000)]
    assert set(rolls) == set(range(1, 21))
    assert isinstance(a["rng"], int)
    deck = list(range(52))
    Rng(a).shuffle(deck)
    assert sorted(deck) == list(range(52)) and deck != list(range(52))


def test_competition_ranks_share_places_and_skip():
    assert competition_ranks([(-10, 1), (-12, 0), (-10, 1), (-3, 0)]) == [2, 1, 2, 4]
    assert competition_ranks([]) == []


def test_base_apply_rejects_out_of_turn_and_illegal_moves():
    state = DUMMY.setup(["Ann", "Bob"], DUMMY.meta.resolve_options({}), 1)
    assert "not your turn" in assert_rejects(DUMMY, state, 1, {"type": "take", "n": 1})
    assert "isn't allowed" in assert_rejects(DUMMY, state, 0, {"type": "take", "n": 3})


def test_the_registry_finds_the_five_games():
    assert {"tower", "sleeping", "masterminds", "rage", "heist"} <= set(registry())
    for key, engine in registry().items():
        meta = engine.meta
        assert meta.key == key and 1 <= meta.min_players <= meta.max_players and meta.summary
        assert len(meta.summary) < 3500, f"{key}: /game rules shows the summary in one embed"


def test_every_game_refuses_a_seat_count_it_cannot_seat():
    for engine in registry().values():
        meta = engine.meta
        for count in (meta.min_players - 1, meta.max_players + 1):
            with pytest.raises(RuleError, match=f"is for {meta.min_players} to {meta.max_players} players, not {count}"):
                engine.setup([f"P{i}" for i in range(count)], meta.resolve_options({}), 1)
