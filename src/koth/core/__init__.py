"""The contract shared by every game of the platform."""
