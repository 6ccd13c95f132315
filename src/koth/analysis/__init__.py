"""Post-game analysis: a search agent's view of every decision of a finished game."""
