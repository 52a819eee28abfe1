"""gemstone caverns."""
