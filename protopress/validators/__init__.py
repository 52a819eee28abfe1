"""Checks a designer runs on a valid catalog: graphs, set balance, colour.

Each check takes a Catalog (and a seed, for the Monte Carlo ones) and yields
Findings; `run_checks` runs every check that applies to the catalog.
"""
