"""/games and /rules (cog.py); /help and /about (about.py): what the bot plays, how, and what it is."""
