"""Self-play training of the learned agent (``koth train``; the ``train`` extra)."""
