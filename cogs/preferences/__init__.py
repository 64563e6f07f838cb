"""What a server and a player choose: /settings (settings.py), /notify (notify.py), /language
(language.py)."""
