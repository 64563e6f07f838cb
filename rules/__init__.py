"""The five games as pure rules engines, and the registry the bot serves them from."""
