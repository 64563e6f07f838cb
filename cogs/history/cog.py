"""/history: a server's finished games, newest first, paged, by game and by member.

The pages carry their filter and page in their custom_id (`sbh:`), so they keep working after a
restart; "Watch a replay…" opens the chosen game's replay (cogs/history/replay.py) for the chooser alone.
Closed tables older than a server's retention are pruned daily (see /settings retention).
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.history.replay import ReplayCog, chosen, duration, guild_of, when
from cogs.kit.errors import Refusal, answer_failure
from cogs.kit.limits import echo
from cogs.kit.messages import card_message
from cogs.kit.services import UsesServices
from cogs.kit.words.reader import public_locale
from cogs.kit.words.text import game_title, join_list, plural, t
from cogs.tables.boards import medal
from cogs.tables.context import now, shown_name
from cogs.tables.gamecog import ShortText
from cogs.tables.tables import UsesTables
from storage.history import DAY, Filter, FinishedGame

log = logging.getLogger(__name__)

PER_PAGE = 5
PRUNE_EVERY = DAY
ALL = "*"  # no game filter, in a custom_id


def _history(interaction: discord.Interaction) -> HistoryCog:
    cog = interaction.client.get_cog("History")  # type: ignore[attr-defined]
    assert isinstance(cog, HistoryCog), "the History cog is loaded"
    return cog


class HistoryPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sbh:p:(?P<game>[a-z0-9_]+|\*):(?P<user>\d+):(?P<page>\d+):(?P<word>prev|next)",
):
    """Newer / Older on a /history list: the filter and the page to show are in the custom_id."""

    def __init__(self, game_id: str | None, user_id: int | None, page: int, word: str, **button: Any) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=f"sbh:p:{game_id or ALL}:{user_id or 0}:{page}:{word}", row=0, **button
            )
        )
        self.game_id, self.user_id, self.page = game_id, user_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> HistoryPage:
        game = None if match["game"] == ALL else match["game"]
        return cls(game, int(match["user"]) or None, int(match["page"]), match["word"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _history(interaction).show_page(
                interaction, self.game_id, self.user_id, self.page, edit=True
            )
        except Exception as error:
            await answer_failure(interaction, error)


class WatchSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"sbh:watch"):
    """The /history list's "Watch a replay…": opens the chosen game's replay for the chooser alone."""

    def __init__(
        self, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="sbh:watch",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> WatchSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            # Cast, not isinstance: a bot rebuilt in the same process loads the extension's module anew.
            replays = cast(ReplayCog, interaction.client.get_cog("Replay"))  # type: ignore[attr-defined]
            await replays.show_replay(interaction, int(chosen(interaction)), 0, edit=False)
        except Exception as error:
            await answer_failure(interaction, error)


DYNAMIC_ITEMS = (HistoryPage, WatchSelect)


class HistoryCog(UsesServices, UsesTables, commands.Cog, name="History"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)  # the buttons of lists and replays posted before a restart
        self._prune_daily.start()  # at once, then every PRUNE_EVERY

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self._prune_daily.cancel()

    @tasks.loop(seconds=PRUNE_EVERY)
    async def _prune_daily(self) -> None:
        try:
            pruned = await self.services.history.prune(now())
            if pruned:
                log.info("pruned %s closed tables past their server's retention", pruned)
        except Exception:  # the database is away for a moment: prune next time
            log.exception("pruning the game history failed")

    # ================================================================ /history

    @app_commands.command(name="history", description="This server's finished games, newest first")
    @app_commands.describe(game="Only this game", member="Only games this member played")
    @app_commands.guild_only()
    async def history_command(
        self,
        interaction: discord.Interaction,
        game: ShortText | None = None,
        member: discord.Member | None = None,
    ) -> None:
        if game is not None and game not in self.tables.games:
            raise Refusal("settings.unknown_game", game=echo(game))  # any length may arrive
        await self.show_page(
            interaction,
            game,
            member.id if member else None,
            0,
            edit=False,
            member_name=member.display_name if member else None,
        )

    @history_command.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return self.game_choices(current, interaction.locale)

    async def show_page(
        self,
        interaction: discord.Interaction,
        game_id: str | None,
        user_id: int | None,
        page: int,
        *,
        edit: bool,
        member_name: str | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        locale = await public_locale(interaction)  # the list is posted in the channel
        where = Filter(guild_id, game_id, user_id)
        count = await self.services.history.count(where)
        pages = max(1, -(-count // PER_PAGE))
        page = max(0, min(page, pages - 1))  # the list may have grown or shrunk since the click's page
        games = await self.services.history.page(where, page=page, per_page=PER_PAGE)
        title_games = self._title(game_id, locale) if game_id else t("history.all_games", locale)
        embed = discord.Embed(colour=discord.Colour.dark_teal())
        if user_id is not None:
            # The name the tables knew them by (a button click after a restart carries only the id).
            seated = [player.name for game in games for player in game.players if player.user_id == user_id]
            name = seated[0] if seated else member_name or str(user_id)
            embed.title = t("history.title_member", locale, member=name, games=title_games)
        else:
            embed.title = t("history.title", locale, games=title_games)
        view: discord.ui.View | None = None
        if not games:
            embed.description = t("history.empty", locale)
        else:
            embed.description = "\n\n".join(self._line(game, locale) for game in games)
            embed.set_footer(
                text=t(
                    "history.footer",
                    locale,
                    page=page + 1,
                    pages=pages,
                    games=plural("history.count", count, locale),
                )
            )
            view = discord.ui.View(timeout=None)
            view.add_item(
                HistoryPage(
                    game_id,
                    user_id,
                    max(0, page - 1),
                    "prev",
                    label=t("history.previous", locale),
                    emoji="◀️",
                    disabled=page == 0,
                )
            )
            view.add_item(
                HistoryPage(
                    game_id,
                    user_id,
                    min(page + 1, pages - 1),
                    "next",
                    label=t("history.next", locale),
                    emoji="▶️",
                    disabled=page >= pages - 1,
                )
            )
            view.add_item(
                WatchSelect([self._watch_option(game, locale) for game in games], t("history.watch", locale))
            )
        card = card_message(None, embed, list(view.children) if view else None)
        if edit:
            await interaction.response.edit_message(content=None, embed=None, view=card)
        else:
            await interaction.response.send_message(view=card)

    def _title(self, game_id: str, locale: Any) -> str:
        cog = self.tables.games.get(game_id)
        return game_title(cog.game if cog else game_id, locale)

    def _line(self, game: FinishedGame, locale: Any) -> str:
        return t(
            "history.line",
            locale,
            id=game.table_id,
            game=self._title(game.game_id, locale)
            + (t("seasons.mark", locale, number=game.season) if game.season else ""),
            date=when(game.finished_at),
            duration=duration(game.seconds, locale),
            players=" · ".join(
                t(
                    "history.player",
                    locale,
                    medal=medal(player.rank),
                    name=shown_name(player.name),
                    score=player.score,  # an int: written in the language's digits
                )
                for player in game.by_rank()
            ),
        )

    def _watch_option(self, game: FinishedGame, locale: Any) -> discord.SelectOption:
        names = join_list((player.name for player in game.by_rank()), locale, style="comma")
        return discord.SelectOption(
            label=t("history.watch_option", locale, id=game.table_id, game=self._title(game.game_id, locale))[
                :100
            ],
            value=str(game.table_id),
            description=t("history.watch_description", locale, players=names)[:100],
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(bot))
