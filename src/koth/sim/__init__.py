"""Tournaments between agents (``koth simulate``): scheduling, parallel play, reports."""
