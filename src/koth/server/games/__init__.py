"""Hosting the turn-based games (cards, board, any registered game) in the web app:
the lobby, live play with computer seats, replays and records.

``routes`` and ``pages`` call ``service``, which alone touches the rules and ``store``;
``messages`` builds every message a client receives through the game's ``view``.
"""
