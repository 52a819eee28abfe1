"""Reliability tests: real processes, kills, hash seeds, limits (a package, so its
conftest does not shadow tests/conftest.py)."""
