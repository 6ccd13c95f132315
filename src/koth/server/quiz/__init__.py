"""Live hosting of the quiz game in the web app: a judge console, team phones, a
projector and results.

Every change of a hosted quiz event is one row of an append-only log (``quiz_log``);
the in-memory :class:`~koth.server.quiz.model.EventModel` is a fold of that log, and the
quiz engine's own state is a fold of the engine events the model derives from it.
``routes`` and ``pages`` call ``service``; ``commands`` turns the judge console's
requests into log entries (``ops``); ``live`` holds an event in memory (group commit,
listeners); ``views`` builds every message a client receives.
"""
