"""Adapters for other programs: OpenSpiel (`koth.interop.openspiel`) and PettingZoo
(`koth.interop.pettingzoo`). Import the submodule you need; each pulls in its own
third-party package (the ``interop`` extra)."""
