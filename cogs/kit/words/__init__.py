"""Every word a player reads.

    catalogs.py    which words exist in which language (each package's locales/), and fallbacks
    text.py        `t()`: a template filled in the reader's language (digits, plurals, lists)
    mentions.py    the bot's commands and their ids; commands named in texts as mentions
    translator.py  slash command names and descriptions localised (discord.py's Translator)
    bidi.py        right-to-left lines and isolated names that read right in any client
    reader.py      which language a player or a server reads
"""
