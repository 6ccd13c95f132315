"""Batched engines: many games stepped at once in compiled loops, for learning and
large simulations (docs/vector.md)."""
