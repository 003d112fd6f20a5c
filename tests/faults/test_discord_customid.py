"""Hardening item 9: one strict encoder/parser for custom ids, select values and typed moves."""
import pytest

from cogs import customid


def test_custom_id_round_trip_and_strictness():
    assert customid.parse(customid.encode("act", 12, 3, 4)) == customid.CustomId("act", 12, 3, 4)
    assert customid.parse(customid.encode("play", 12)) == customid.CustomId("play", 12)
    for bad in ["hc:act:1:2", "hc:play:1:2:3", "hc:play:01", "hc:play:²", "hc:play:1 ", "xx:play:1",
                "hc:act:1:2:3:4", "hc:sel:1:2:" + "9" * 30, "hc:play:" + "9" * 25]:
        with pytest.raises(customid.BadInputError):
            customid.parse(bad)
    with pytest.raises(ValueError):
        customid.encode("zap", 1)
    assert customid.parse_move("3:4") == (3, 4) and customid.parse_move("Take 1") is None
    assert customid.parse_move("²:0") is None
