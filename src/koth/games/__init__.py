"""The games of the platform, one package each."""
