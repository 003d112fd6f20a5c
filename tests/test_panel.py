"""The move panel offers every legal move within Discord's limits: four rows of moves, the fifth for its "?"."""
from cogs.ui import SELECT_LIMIT, pack_menus


def offered(menus):
    return sorted(i for _, idxs in menus for i in idxs)


def test_small_groups_are_merged_into_four_menus():
    groups = [(f"Floor {f}", list(range(f * 5, f * 5 + 5))) for f in range(8)]  # the Tower: 8 floors of 5
    menus = pack_menus(groups, 40)
    assert len(menus) <= 4 and offered(menus) == list(range(40))
    assert all(len(idxs) <= SELECT_LIMIT for _, idxs in menus)


def test_big_groups_are_split_and_nothing_is_dropped():
    groups = [("Place a token", list(range(0, 60))), ("Play a card", list(range(60, 80))),
              ("Spell", list(range(80, 84))), ("End turn", [84]), ("Discard", list(range(85, 88)))]
    menus = pack_menus(groups, 88)
    assert len(menus) <= 4 and offered(menus) == list(range(88))
    assert all(len(idxs) <= SELECT_LIMIT for _, idxs in menus)


def test_too_many_groups_fall_back_to_pages_in_order():
    groups = [(f"G{g}", list(range(g * 20, g * 20 + 20))) for g in range(5)]  # 100 moves, no pair fits
    menus = pack_menus(groups, 100)
    assert [name for name, _ in menus][0] == "Moves 1-25" and offered(menus) == list(range(100))


def test_more_than_100_moves_shows_the_first_100():
    menus = pack_menus([("All", list(range(200)))], 200)
    assert len(menus) == 4 and offered(menus) == list(range(100))
