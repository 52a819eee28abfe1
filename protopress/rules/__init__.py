"""The embedded rules engine: a small core (seeded state, legal actions, bots,
simulate, replay) and one module per game."""
