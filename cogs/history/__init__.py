"""/history, a server's finished games (cog.py), and /replay, one of them again (replay.py)."""
