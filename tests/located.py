"""Where a marker sits in a text, as a located problem names it (file:line:column)."""


def position_of(text: str, marker: str, occurrence: int = 1, name: str = "my-game.json") -> str:
    """file:line:column of the first character of the n-th occurrence of marker in text."""
    index = -1
    for _ in range(occurrence):
        index = text.index(marker, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"{name}:{line}:{column}"
