"""How the modules below the Tables cog reach it at run time without importing it (that would be an
import circle): by its cog name. Everything above it uses the typed `tables_of` (`tables.py`)."""

from __future__ import annotations

from discord.ext import commands

TABLES_COG = "Tables"


class TablesNotLoaded(RuntimeError):
    """The `cogs.tables` extension is not loaded: no table can be reached."""


def find_tables(client: object) -> commands.Cog | None:
    """The client's Tables cog, None when it has none (or is no bot)."""
    get_cog = getattr(client, "get_cog", None)
    return get_cog(TABLES_COG) if get_cog is not None else None


def tables_cog(client: object) -> commands.Cog:
    """The client's Tables cog; TablesNotLoaded when it is not loaded."""
    tables = find_tables(client)
    if tables is None:
        raise TablesNotLoaded(f"the {TABLES_COG} cog is not loaded: load the cogs.tables extension first")
    return tables
