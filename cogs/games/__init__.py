"""One package per game (`cogs/games/<id>/`: cog.py, render.py, picture.py, dice.py, locales/), each
registered by its rules package's line in `rules.registry.GAME_PACKAGES`."""
