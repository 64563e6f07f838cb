"""/settings: server admins choose the turn time-out, default table options per game, how long
finished games are kept in /history, turn pings and their grace delay, whether games with
computer players count, seasons, and text or pictures.

Every answer here is private: it speaks the admin's own language (`player_locale`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit.errors import Refusal
from cogs.kit.limits import echo
from cogs.kit.messages import card_message, reply_ephemeral
from cogs.kit.services import UsesServices
from cogs.kit.words.bidi import plain
from cogs.kit.words.catalogs import Localish, has
from cogs.kit.words.reader import LANGUAGES, language_choices, player_locale
from cogs.kit.words.text import game_title, join_list, option_line, plural, t
from cogs.privacy.servers import ask_to_forget_server
from cogs.stats.seasons import SeasonsCog, begin_season, post_podium, schedule_line, season_name
from cogs.tables import threads
from cogs.tables.context import now
from cogs.tables.gamecog import ShortText
from cogs.tables.pings import DEFAULT_PING_DELAY, MAX_PING_DELAY, MIN_PING_DELAY
from cogs.tables.tables import UsesTables
from storage.seasons import SCHEDULES
from storage.settings import (
    ARCHIVE_KEY,
    CHANNEL_KEY,
    COMPUTERS_COUNTED_KEY,
    LANGUAGE_KEY,
    PICTURES_KEY,
    PING_DELAY_KEY,
    PINGS_KEY,
    RETENTION_KEY,
    SCHEDULE_KEY,
    TURN_TIMEOUT_KEY,
    WHERE_KEY,
    GuildSettings,
)

WHERE_TEXT = "Threads (the default): several tables at once, one thread each; channel: one table per channel"
ARCHIVE_CHOICES = [
    app_commands.Choice(name=name, value=minutes)
    for name, minutes in zip(("1 hour", "1 day", "3 days", "1 week"), threads.ARCHIVE_MINUTES, strict=True)
]
MIN_TIMEOUT = 10
MAX_TIMEOUT = 24 * 60 * 60
MAX_RETENTION_DAYS = 3650


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    UsesServices,
    UsesTables,
    commands.GroupCog,
    name="Settings",
    group_name="settings",
    group_description="Server settings",
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # default_permissions only hides the command; the check is what enforces it.
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await reply_ephemeral(interaction, t("settings.admins_only", await player_locale(interaction)))
            return False
        return True

    @app_commands.command(name="show", description="Show this server's Sushi Bar settings")
    async def show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        locale = await player_locale(interaction)
        stored = await self.services.guild_settings.all(interaction.guild_id)
        timeout = stored.get(TURN_TIMEOUT_KEY)
        lines = [
            t(
                "settings.timeout",
                locale,
                seconds=float(timeout or self.tables.default_timeout),
                source=t("settings.source.server" if timeout else "settings.source.default", locale),
            )
        ]
        options = [
            t(
                "settings.option_line",
                locale,
                game=game_title(self.tables.games[key[8:]].game, locale),
                option=option_line(key[8:], name, value, locale),
            )
            for key, chosen in stored.items()
            if key.startswith("options.") and key[8:] in self.tables.games
            for name, value in chosen.items()
        ]
        lines.extend(options or [t("settings.no_options", locale)])
        days = stored.get(RETENTION_KEY)
        forever = t("settings.retention_forever", locale)
        kept = t("settings.retention_days", locale, days=days) if days else forever
        lines.append(t("settings.retention", locale, kept=kept))
        pings = "settings.pings.on" if stored.get(PINGS_KEY, True) else "settings.pings.off"
        lines.append(t(pings, locale, seconds=stored.get(PING_DELAY_KEY, DEFAULT_PING_DELAY)))
        lines.append(
            await _tables_line("settings.tables", self.services.guild_settings, interaction.guild_id, locale)
        )
        counted = stored.get(COMPUTERS_COUNTED_KEY, True)
        lines.append(t("computers.settings.on" if counted else "computers.settings.off", locale))
        lines.append(
            t("settings.pictures.on" if stored.get(PICTURES_KEY) else "settings.pictures.off", locale)
        )
        lines.append(await schedule_line(self.tables, interaction.guild_id, locale))
        embed = discord.Embed(title=t("settings.title", locale), description="\n".join(lines))
        await interaction.response.send_message(view=card_message(None, embed), ephemeral=True)

    @app_commands.command(
        name="timeout", description="Seconds a player has for a move (0 = back to the default)"
    )
    @app_commands.describe(seconds="Between 10 and 86400; 0 restores the default")
    async def timeout(self, interaction: discord.Interaction, seconds: int) -> None:
        assert interaction.guild_id is not None
        locale = await player_locale(interaction)
        if seconds == 0:
            await self.services.guild_settings.clear(interaction.guild_id, TURN_TIMEOUT_KEY)
            self.tables.timers.forget_timeout(interaction.guild_id)
            await reply_ephemeral(interaction, t("settings.timeout_reset", locale))
            return
        if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:
            raise Refusal("settings.timeout_range", min=MIN_TIMEOUT, max=MAX_TIMEOUT)
        await self.services.guild_settings.set(interaction.guild_id, TURN_TIMEOUT_KEY, seconds)
        self.tables.timers.forget_timeout(interaction.guild_id)
        await reply_ephemeral(interaction, t("settings.timeout_set", locale, seconds=seconds))

    @app_commands.command(
        name="retention", description="Days to keep finished games in /history (0 = keep forever)"
    )
    @app_commands.describe(days="Between 1 and 3650; 0 keeps every game (the default)")
    async def retention(self, interaction: discord.Interaction, days: int) -> None:
        assert interaction.guild_id is not None
        locale = await player_locale(interaction)
        if days == 0:
            await self.services.guild_settings.clear(interaction.guild_id, RETENTION_KEY)
            await reply_ephemeral(interaction, t("settings.retention_reset", locale))
            return
        if not 1 <= days <= MAX_RETENTION_DAYS:
            raise Refusal("settings.retention_range", min=1, max=MAX_RETENTION_DAYS)
        await self.services.guild_settings.set(interaction.guild_id, RETENTION_KEY, days)
        # Pruned at once for this server, then daily by the History cog.
        pruned = await self.services.history.prune(now(), interaction.guild_id)
        pruned_text = plural("settings.retention_pruned", pruned, locale)
        await reply_ephemeral(interaction, t("settings.retention_set", locale, days=days, pruned=pruned_text))

    @app_commands.command(
        name="pings", description="Turn pings: on or off, and how long a player may take first"
    )
    @app_commands.describe(
        on="On (the default): whoever has not moved within the delay is pinged; off: no pings",
        delay=f"Seconds a player may take before being pinged ({MIN_PING_DELAY}–{MAX_PING_DELAY}; "
        f"default {DEFAULT_PING_DELAY})",
    )
    async def pings(
        self, interaction: discord.Interaction, on: bool | None = None, delay: int | None = None
    ) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        if delay is not None and not MIN_PING_DELAY <= delay <= MAX_PING_DELAY:
            raise Refusal("settings.pings_delay_range", min=MIN_PING_DELAY, max=MAX_PING_DELAY)
        locale = await player_locale(interaction)
        if delay is not None:
            await self.services.guild_settings.set(guild_id, PING_DELAY_KEY, delay)
            self.tables.pinger.forget_delay(guild_id)
        if on is not None:
            await self.services.guild_settings.set(guild_id, PINGS_KEY, on)
        pinging = await self.services.guild_settings.get(guild_id, PINGS_KEY, True)
        seconds = await self.services.guild_settings.get(guild_id, PING_DELAY_KEY, DEFAULT_PING_DELAY)
        key = "settings.pings_set.on" if pinging else "settings.pings_set.off"
        await reply_ephemeral(interaction, t(key, locale, seconds=seconds))

    @app_commands.command(
        name="tables", description="Where new tables are played: a thread of their own, or the channel"
    )
    @app_commands.describe(
        where=WHERE_TEXT,
        archive="How long a thread stays open without messages before Discord archives it",
    )
    @app_commands.choices(where=[app_commands.Choice(name=name, value=name) for name in threads.WHERE])
    @app_commands.choices(archive=ARCHIVE_CHOICES)  # pyright: ignore[reportArgumentType]  # int choices
    async def tables_setting(
        self,
        interaction: discord.Interaction,
        where: app_commands.Choice[str] | None = None,
        archive: app_commands.Choice[int] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        settings = self.services.guild_settings
        if where is not None:
            await settings.set(interaction.guild_id, WHERE_KEY, where.value)
        if archive is not None:
            await settings.set(interaction.guild_id, ARCHIVE_KEY, archive.value)
        locale = await player_locale(interaction)
        await reply_ephemeral(
            interaction, await _tables_line("settings.tables_set", settings, interaction.guild_id, locale)
        )

    @app_commands.command(name="computers", description="Whether games with computer players count for stats")
    @app_commands.describe(
        counted="True (the default): they count for the humans' stats, marked 🤖; false: they do not"
    )
    async def computers(self, interaction: discord.Interaction, counted: bool) -> None:
        assert interaction.guild_id is not None
        await self.services.guild_settings.set(interaction.guild_id, COMPUTERS_COUNTED_KEY, counted)
        key = "computers.settings_set.on" if counted else "computers.settings_set.off"
        await reply_ephemeral(interaction, t(key, await player_locale(interaction)))

    @app_commands.command(
        name="season", description="Seasons: start a new one now or on a schedule, and where podiums go"
    )
    @app_commands.describe(
        new="True: end the open season now (its podium is posted) and start the next",
        schedule="When seasons end by themselves: monthly, quarterly or never (the default)",
        podium="The channel a season's podium is posted in (default: where seasons are set)",
    )
    @app_commands.choices(schedule=[app_commands.Choice(name=name, value=name) for name in SCHEDULES])
    async def season(
        self,
        interaction: discord.Interaction,
        new: bool = False,
        schedule: app_commands.Choice[str] | None = None,
        podium: discord.TextChannel | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        guild_id, settings = interaction.guild_id, self.services.guild_settings
        locale = await player_locale(interaction)
        if podium is not None:
            await settings.set(guild_id, CHANNEL_KEY, podium.id)
        elif schedule is not None and not await settings.get(guild_id, CHANNEL_KEY):
            # A scheduled season ends with nobody there: its podium goes where the schedule was set.
            await settings.set(guild_id, CHANNEL_KEY, interaction.channel_id)
        if schedule is not None and schedule.value == "never":
            await settings.clear(guild_id, SCHEDULE_KEY)
        elif schedule is not None:  # counted from now: the open season ends at the next boundary
            await settings.set(guild_id, SCHEDULE_KEY, {"every": schedule.value, "since": now()})
        if schedule is not None:
            watcher = self.bot.get_cog("Seasons")
            if isinstance(watcher, SeasonsCog):
                watcher.schedule_changed()
        moved = await begin_season(self.tables, guild_id) if new else None
        lines = []
        if moved is not None:
            ended, started = moved
            lines.append(
                t(
                    "seasons.started",
                    locale,
                    season=season_name(started.number, locale),
                    ended=season_name(ended.number, locale),
                )
            )
        lines.append(await schedule_line(self.tables, guild_id, locale))
        await reply_ephemeral(interaction, "\n".join(lines))  # answered first: then the podium
        if moved is not None:
            await post_podium(self.bot, self.tables, *moved, channel_id=interaction.channel_id)

    @app_commands.command(name="pictures", description="Boards and results as pictures, or as text")
    @app_commands.describe(on="True: pictures where a game offers them; false: text (the default)")
    async def pictures(self, interaction: discord.Interaction, on: bool) -> None:
        assert interaction.guild_id is not None
        # Tables fix it when they open, like their language: an open table keeps what it shows.
        await self.services.guild_settings.set(interaction.guild_id, PICTURES_KEY, on)
        key = "settings.pictures_set.on" if on else "settings.pictures_set.off"
        await reply_ephemeral(interaction, t(key, await player_locale(interaction)))

    @app_commands.command(name="language", description="The language of this server's tables and boards")
    @app_commands.describe(choose="A language, or the server's own Discord language (the default)")
    @app_commands.choices(choose=language_choices("Discord's server language"))
    async def language(self, interaction: discord.Interaction, choose: app_commands.Choice[str]) -> None:
        assert interaction.guild_id is not None
        # Tables fix their language when they open, so an open table keeps speaking its own.
        if choose.value in LANGUAGES:
            await self.services.guild_settings.set(interaction.guild_id, LANGUAGE_KEY, choose.value)
        else:
            await self.services.guild_settings.clear(interaction.guild_id, LANGUAGE_KEY)
        locale = await player_locale(interaction)
        if choose.value in LANGUAGES:
            chosen = t(f"language.name.{choose.value}", locale)
            text = t("settings.language_set", locale, language=chosen)
        else:
            text = t("settings.language_reset", locale)
        await reply_ephemeral(interaction, text)

    @app_commands.command(
        name="forget-server", description="Delete everything Sushi Bar stores about this server (asks first)"
    )
    async def forget_server(self, interaction: discord.Interaction) -> None:
        await ask_to_forget_server(interaction)  # a confirm button does it (cogs/privacy/servers.py)

    @app_commands.command(name="option", description="Default table option for new tables of one game")
    @app_commands.describe(game="Which game", option="Which option", value="Its new default")
    async def option(
        self, interaction: discord.Interaction, game: ShortText, option: ShortText, value: ShortText
    ) -> None:
        assert interaction.guild_id is not None
        locale = await player_locale(interaction)
        cog = self.tables.games.get(game)
        if cog is None:
            raise Refusal("settings.unknown_game", game=echo(game))  # quoted short: any length arrives
        known = cog.game.options
        # Typed or picked: the engine's name, or the word the admin reads (autocomplete shows those).
        name = _resolve(option, known, lambda name: option_label(name, locale))
        if name is None:
            labels = [option_label(name, locale) for name in known]
            raise Refusal(
                "settings.unknown_option" if labels else "settings.no_game_options",
                game=game_title(cog.game, locale),
                option=echo(option),
                known=join_list(labels, locale, style="comma"),
            )
        chosen_value = _resolve(value, known[name], lambda value: value_label(game, name, value, locale))
        if chosen_value is None:
            values = [value_label(game, name, known_value, locale) for known_value in known[name]]
            raise Refusal(
                "settings.unknown_value",
                option=option_label(name, locale),
                known=join_list(values, locale, style="or"),
            )
        key = f"options.{game}"
        chosen = await self.services.guild_settings.get(interaction.guild_id, key, {}) or {}
        chosen[name] = chosen_value
        await self.services.guild_settings.set(interaction.guild_id, key, chosen)
        shown = option_line(game, name, chosen_value, locale)
        await reply_ephemeral(
            interaction, t("settings.option_set", locale, game=game_title(cog.game, locale), option=shown)
        )

    @option.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.game_choices(current, interaction.locale, with_options=True)

    @option.autocomplete("option")
    async def _options(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        cog = self.tables.games.get(getattr(interaction.namespace, "game", "") or "")
        names = cog.game.options if cog else {}
        labelled = [(option_label(name, interaction.locale), name) for name in names]
        return _choices(labelled, current)

    @option.autocomplete("value")
    async def _values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", "") or ""
        cog = self.tables.games.get(game)
        option = getattr(interaction.namespace, "option", "") or ""
        values = cog.game.options.get(option, ()) if cog else ()
        labelled = [(value_label(game, option, value, interaction.locale), value) for value in values]
        return _choices(labelled, current)


def option_label(name: str, locale: Localish) -> str:
    """A table option's name as a player reads it (`option.<name>`, else the slash command's word)."""
    for key in (f"option.{name}", f"command.text.{name}"):
        if has(key, locale):
            return t(key, locale)
    return name


def value_label(game_id: str, option: str, value: str, locale: Localish) -> str:
    """A table option's value as a player reads it (`<game>.<option>.<value>`)."""
    key = f"{game_id}.{option}.{value}"
    return t(key, locale) if has(key, locale) else value


def _resolve(typed: str, known: Iterable[str], label: Callable[[str], str]) -> str | None:
    """The engine's word for what an admin typed: the word itself or its label, in any case."""
    wanted = plain(typed).strip().casefold()
    return next((word for word in known if wanted in (word.casefold(), plain(label(word)).casefold())), None)


def _choices(labelled: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices named in words, valued by the engine's word, matching what was typed."""
    typed = current.casefold()
    return [
        app_commands.Choice(name=label[:100], value=value)
        for label, value in labelled
        if typed in label.casefold() or typed in value.casefold()
    ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))


async def _tables_line(key: str, settings: GuildSettings, guild_id: int, locale: Localish) -> str:
    """Where the server's tables are played, and when their threads are archived."""
    where = await settings.get(guild_id, WHERE_KEY, "threads")
    archive = await settings.get(guild_id, ARCHIVE_KEY, threads.DEFAULT_ARCHIVE)
    return t(
        key,
        locale,
        where=t(f"settings.tables.where.{where}", locale),
        archive=t(f"settings.tables.archive.{archive}", locale),
    )
