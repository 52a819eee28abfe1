"""stonespine architects."""
