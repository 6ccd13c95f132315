"""Fixed-size numeric encodings of a player's view, for OpenSpiel tensors and RL: the
contract's encoders (``koth.core.encoding``), which the learned agent reads too."""

from __future__ import annotations

from koth.core.encoding import FloatArray, HashedViewEncoder, ViewEncoder, encode_view

__all__ = ["FloatArray", "HashedViewEncoder", "ViewEncoder", "encode_view"]
