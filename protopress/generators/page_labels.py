"""The page labels the renderer writes and preflight reads back, to know the
pages that carry no crop marks (duplex backs) or marks of their own (tiled
boards, tuck boxes). Their own module, so that rendering does not load
preflight's PDF reader."""

from __future__ import annotations

BACK_LABEL = "back "  # page labels of duplex back pages start with this ("back 3")
TILE_LABEL = "tile "  # the pages of a board tiled across the paper ("tile B2")
MAP_LABEL = "map"  # a tiled board's page map
BOX_LABEL = "tuck box"  # a tuck box's die-line
