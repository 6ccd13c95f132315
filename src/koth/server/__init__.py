"""The web app: lobby, online play and replays of koth's games (``koth serve``).

Layers: ``routes`` (HTTP/WebSocket adapters) -> ``services`` (game logic around the
rules, live updates, computer seats) -> ``store`` (SQLAlchemy models and repository).
Every message a client receives is built through the game's ``view(state, seat)``.
"""
