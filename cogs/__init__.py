"""Discord presentation: the table machinery (tables/), one package per game (<game>/: its cog, its
boards, its words), and the bot's other features (/roll, history, leaderboard, settings, help,
notify, language) with the words every player reads (i18n.py, locales/)."""
