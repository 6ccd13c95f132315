"""``TransitionNote``: something a transition did that its result alone does not show.

A rules state tells where a game stands, not what was lost on the way there: dice given
up at the end of a turn, a turn passed over. A game names such events as notes (a code,
the rule that caused it, and plain parameters) and every adapter words them in its own
way and language: the terminal in English, the web pages from their catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TransitionNote:
    """One public event of a transition.

    ``code`` names the kind of event (``dice_forfeited``), stable across versions since
    clients word it; ``rule`` is the number of the rule that caused it; ``params`` holds
    its plain values (seats as ids, counts), never anything secret.
    """

    code: str
    rule: str | None = None
    # a mapping is not hashable: the note compares by it but hashes without it
    params: Mapping[str, int | str] = field(default_factory=dict, hash=False)
