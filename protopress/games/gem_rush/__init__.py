"""gem rush."""
