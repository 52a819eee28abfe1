"""The two ways a solo session says no: the kit's, so every front end catches them."""

from __future__ import annotations

from protopress.companion import Reject, SessionError

__all__ = ["Reject", "SessionError"]
