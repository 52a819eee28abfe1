"""The rule of each step, from the rulebook, in plain words: what `help` says."""

from __future__ import annotations

HELP = {
    "goal": (
        "Setup, step 4: shuffle the goal cards and place one face up. At the end your "
        "dungeon is compared with the rival's collected chamber cards and market tokens "
        "on that goal: first place scores 15, second 9, and ties go to the rival. I need "
        "to know the goal to count the rival's side. Type its title or id."
    ),
    "chambers": (
        "Construction: place a chamber card from your hand in this year's row and keep "
        "one card in hand for the next turn. Any cards matching the rival's symbol go "
        "into its score pile; the others are discarded. Then draw one card for each "
        "remaining spot in your row. On the fourth turn you place one of your last two "
        "cards and the other is left to the rival. Type the cards you left that show "
        "the rival's symbol, by title or id, separated by commas (2 Long Stair counts "
        "two), or press Enter for none."
    ),
    "gold": (
        "Improvement, step 1: count your gold. Add up the gold on the bottom of the "
        "chamber cards in this year's row, plus 1 gold for each treasure chest anywhere "
        "in your dungeon (this year's row included). In year 1 add your starting bonus "
        "of {bonus}. The track ends at {cap}. Gold is set, not added: gold left from last "
        "year is lost. Then compare it with the rival card: with more gold you visit the "
        "market; otherwise the rival collects."
    ),
    "market": (
        "Improvement, step 2: you have more gold than the rival card, so you may visit "
        "the market (buy) or stop (pass). To buy, choose a row on a market card, pay its "
        "gold cost, take every token in that row and place them in your dungeon at once. "
        "If you still have more gold than the rival card after buying, you may buy "
        "again; if not, the rival collects. Type buy or pass (b or p)."
    ),
    "market_laid": (
        "The market: I keep track of the tokens on it, so that buying is naming a row "
        "and passing is one Enter. Name each of the 3 market cards, then the tokens on "
        "its rows, top row first, rows split by / and cards by ;, e.g. Goblin Fence: "
        "goblin / ogre, spike-pit / 2 goblin, treasure-chest; Beast Pens: ... A treasure "
        "chest or a secret passage may be named by its element; monsters and traps by "
        "their token, since their stars differ."
    ),
    "bought": (
        "Type the cost of the row you bought and its tokens, e.g. 4 ogre spike-pit, or "
        "its elements if no other row of that cost holds them, e.g. 4 monster trap. Placement: a slot must be empty, a card holds "
        "no more than four elements counting the printed ones, and secret passages go "
        "on an edge of a card, even one leading outside your dungeon."
    ),
    "collect": (
        "You do not have more gold than the rival card (ties go to the rival), so the "
        "rival collects the tokens shown on its card into its scoring pile: draw one "
        "token of each of those elements from the face-down supply piles. Their stars "
        "count for the rival, so tell me which tokens they are: {choices}. If a supply "
        "pile has run out, type empty for the missing token."
    ),
    "challenges": (
        "When the rival collects, you discard the lowest-value face-up challenge card; "
        "of equal values, the leftmost. Type the face-up challenge cards from left to "
        "right, by title or id, separated by commas, and I tell you which to discard."
    ),
    "leftovers": (
        "When you pass in years 1-3, set your gold tracker to zero, claim one of the "
        "face-up challenge cards, and the rival takes all the tokens left on the market. "
        "In year 4 you leave your gold tracker where it is and flip it to show you have "
        "passed; the rival again takes the tokens left. Press Enter if they are the ones I "
        "tracked (shown in brackets); if the table differs, type them by name, with "
        "counts, e.g. 2 goblin, ogre, spike-pit, treasure-chest, or none. "
        "Tokens: {choices}."
    ),
    "final_gold": (
        "Final scoring: final gold replaces priority. Compare your final gold with the "
        "number on the rival's face-up card: more scores {first}, otherwise {second} "
        "(ties go to the rival). Your gold stays where it was when you passed in year 4."
    ),
    "goal_count": (
        "Goal card: count the goal's elements in your dungeon, printed on the cards and "
        "placed as tokens (a secret passage counts once per edge). With more than the "
        "rival's piles hold you score {first}, otherwise {second} (ties go to the rival); "
        "with none of them you score no goal points."
    ),
    "rows": (
        "Score the rest of your pad as usual. Challenge cards: the points of each claimed "
        "challenge whose condition holds. Chamber reputation: add and subtract every star "
        "on your chamber cards and the tokens on them. Blueprint: matching positions score "
        "{scale}. Dungeon paths: 1 point per chamber connected to the entrance plus 1 per "
        "chamber connected to the exit. Type the four numbers in that order, e.g. "
        "8 31 7 18, or just their sum."
    ),
}
