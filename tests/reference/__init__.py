"""A reference reader for the built-in syntaxes (see reader.py)."""
