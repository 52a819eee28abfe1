"""Component catalogs: JSON Schemas per kind, the loader, built-in games."""

from protopress.components.builtin import BUILTIN_GAMES, builtin_catalog_path
from protopress.components.catalog import Catalog, Component
from protopress.components.loader import load_catalog
from protopress.components.problems import InvalidInput, Problem

__all__ = [
    "BUILTIN_GAMES",
    "Catalog",
    "Component",
    "InvalidInput",
    "Problem",
    "builtin_catalog_path",
    "load_catalog",
]
