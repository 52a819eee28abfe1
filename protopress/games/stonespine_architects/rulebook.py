"""The rulebook's fixed numbers for Stonespine Architects, in one place.

The engine, the rival and the solo session all read them from here; what a
designer may change (cards, scoring tables, the rival's deck) lives in the
catalog instead.
"""

from __future__ import annotations

YEARS = 4
HAND = 5  # chamber cards dealt per player at the start of each year
CHALLENGE_YEARS = 3  # challenge cards are face up, and passing claims one, in years 1-3
SOLO_PLAYERS = 2  # solo lays out the market and challenges of a two-player game
MIN_MARKET = 3  # market cards laid out in a one- or two-player game

# the phases of a year, and the state after the last year
CONSTRUCT, IMPROVE, OVER = "construction", "improvement", "over"
