"""Each player's data in their own hands: /privacy show and /privacy forget (cog.py), leaving their
tables when forgotten (leaving.py), and a server's data deleted after the bot leaves it or at its
admins' request (servers.py)."""
