"""Event-sourced storage: a game is its parameters plus an append-only list of moves."""
