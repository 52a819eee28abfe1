"""The two ways a solo session says no."""

from __future__ import annotations


class SessionError(Exception):
    """A save file that cannot be resumed, or a file that must not be overwritten."""


class Reject(ValueError):
    """An impossible answer: the message says why, and the question is asked again."""
