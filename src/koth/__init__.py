"""koth: rules engines, play, hosting and AI for three games called King of the Hill."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("koth-games")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
