"""Every word a player reads: the catalogs, `t()`, command mentions, the slash commands' Translator,
right-to-left lines, and which language a reader reads."""
