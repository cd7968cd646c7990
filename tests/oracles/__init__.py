"""Independent oracles for differential testing of the game engines."""
