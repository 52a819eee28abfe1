"""Counts in words, for the lines the kit prints: "1 file", "2 files"."""


def noun(count: int, singular: str, plural_form: str | None = None) -> str:
    """The noun for count things: plural_form (else singular + "s") unless the count is 1."""
    return singular if count == 1 else plural_form or singular + "s"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """The count and its noun: "1 file", "2 files", "3 copies"."""
    return f"{count} {noun(count, singular, plural_form)}"
