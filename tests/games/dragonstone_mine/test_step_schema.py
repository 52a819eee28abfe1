"""The step schema's words for `return` agree with the capped-spire ruling
(docs/rules/dragonstone-mine.md): another player's card only, and only when forced."""

from protopress.components.schemas import schema_documents


def _return_description() -> str:
    text = schema_documents()["dragonstone-step.schema.json"]["description"]
    return text[text.index("return:") : text.index("draw:")]


def test_the_return_step_reaches_capped_spires_only_from_another_players_card_when_forced():
    words = _return_description()
    assert "uncapped spires" in words
    assert "action card aimed at other players" in words
    assert "no uncapped gem" in words  # forced
    assert "never in a colour rule" in words and "never for self" in words
    assert "when forced)" not in words  # the old wording, without the card-only rule
