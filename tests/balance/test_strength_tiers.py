"""A search tier's measured strength is that of the playouts it names."""

from protopress.balance.strength import NOT_MEASURED, measured
from protopress.rules.bot_names import SEARCH_TIERS, playouts_name


def test_a_tier_is_named_as_its_playouts():
    assert playouts_name("mcts:fast") == f"mcts:{SEARCH_TIERS['fast']}"
    assert playouts_name("mcts:strong") == f"mcts:{SEARCH_TIERS['strong']}"
    assert playouts_name("mcts:300") == "mcts:300"
    assert playouts_name("greedy") == "greedy"
    assert playouts_name("fast") == "fast"  # no bot: left for make_bot to refuse


def test_a_tier_is_said_as_strong_as_its_playouts_were_measured():
    level_2 = {"level": "2"}
    strong = measured("dragonstone-mine", 2, level_2, "mcts:strong")
    assert strong == measured("dragonstone-mine", 2, level_2, f"mcts:{SEARCH_TIERS['strong']}")
    assert strong != NOT_MEASURED
    assert measured("dragonstone-mine", 2, {}, "mcts:strong") == NOT_MEASURED  # level smiley
