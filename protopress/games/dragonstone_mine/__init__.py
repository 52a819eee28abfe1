"""dragonstone mine."""
