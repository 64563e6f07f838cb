"""Sushi Dice at a human's pace (issue 45 item 4): a scripted fast human against one computer of each
level, whole games through the real bot on simcord.

    .venv/bin/python bench/sushidice_pace.py [--games N] [--click-every 0.4] [--levels easy,normal,hard]
        [--processes P] [--pace hard=0.4/0.5]   (--pace: try another pace for a level, this run only)

The human (seat 0, the host) opens `/sushidice new computers:1 level:<level>`, starts, opens their
panel with the board's "Open my dice" and then clicks once every `--click-every` seconds (±`--jitter`,
drawn per click, so that its clicks do not lock step with the computer's or the board's clock). It
reads only what a player sees — the components of its panel and of the public board: which buttons
are shown and enabled, each die's face (its emoji) and 📌 (set aside), the plates line of the panel —
never the engine's state. Each click is, in this order:
1. a bell ("Ring n") when one is enabled;
2. "Yuck!" when its panel enables it (the board showed a yuck on the opponent), "Chop!" when the
   board enables it for a player outside the duel (never at two players);
3. "Roll" while a die is unthrown;
4. else the next click toward the dice a sensible player keeps: the filling of the face-up plate its
   dice fill most (`rules.sushidice.plates.keep_toward`, the engine's own choice), a die set aside or
   brought back, then "Roll".
A click the table refuses (a panel out of date after a new duel, a call on a replaced board) is a
click spent, as at a real table.

The bot is `bot.create_bot` with every cog and a SQLite file in a temporary folder, driven by
simcord's public actors (bench/ imports nothing from tests/). simcord fires a bot timer when its
virtual time comes OR that much real time has passed, so, as in the end-to-end tests, the Sushi Dice
cog's clocks (board interval, computer pace and reaction, hence the crossing second) run `--scale`
times slower and the human clicks on the same slowed clock: no real second of the machine's own work
reaches a timer, and every figure below is in the table's seconds (virtual seconds ÷ scale).

Printed per level: games, the human's wins / the computer's wins / draws, the computer's share of
games with its 95% Wilson interval, the mean game length (the Start click to the winning bell), and
per game the mean Yuck! calls that stood each way and the human's refused clicks.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord
from simcord.components import walk_components

from bench import simcord_private
from bot import Settings, create_bot
from cogs.games.sushidice.cog import COMPUTER_DELAY, PUBLIC_BOARD_INTERVAL
from cogs.games.sushidice.render import COMBO_EMOJI, FACE_EMOJI
from cogs.kit.words.bidi import plain
from cogs.tables import tables_of
from rules.computer.brain import LEVELS, PACE, Pace, level_named
from rules.sushidice.plates import keep_toward

FACES = {emoji: face for face, emoji in FACE_EMOJI.items()}
BUTTON, TEXT = 2, 10  # component types on the wire
KEPT = "📌"
SCALE = 1500.0
"""How much slower the table's clocks run than the machine's (see the module's docstring). Bounded by
Discord's 15-minute interaction tokens: a panel is kept up to date through the latest click's token
(cogs/tables/private.py lets one older than 14 minutes go), so click_every × scale stays under 840."""
SETTLE = 4.0
"""Real seconds simcord waits for the bot to finish a click's work. A bot timer due sooner than that
(in virtual seconds) is waited for in real time, so only one due within SETTLE ÷ SCALE table seconds
(0.003 s) is: the rare real waits that make most of the bench's time."""
TOKEN_SAFE = 700.0  # virtual seconds between two of the human's clicks, at most (see SCALE)
TURN_TIMEOUT = 24 * 3600.0  # the human never times out; the computer's pace sets the deadlines
RETRIES = 5  # per worker process
MOST_CLICKS = 3_000  # a game longer than this many human clicks is a stall: reported, not hidden


# ---------------------------------------------------------------- reading a message as a player


@dataclass(frozen=True)
class Button:
    label: str
    emoji: str
    custom_id: str
    enabled: bool


def parts(components: list[dict[str, Any]], embeds: list[Any]) -> tuple[list[Button], list[str]]:
    """A message's buttons and its lines of text (a card's text displays, an embed's description)."""
    buttons: list[Button] = []
    lines: list[str] = []
    for item in walk_components(components):
        if item.get("type") == BUTTON and item.get("custom_id"):
            emoji = (item.get("emoji") or {}).get("name") or ""
            buttons.append(
                Button(plain(item.get("label") or ""), emoji, item["custom_id"], not item.get("disabled"))
            )
        elif item.get("type") == TEXT:
            lines += plain(item.get("content") or "").splitlines()
    for embed in embeds:
        lines += plain(getattr(embed, "description", None) or "").splitlines()
    return buttons, lines


def plates_of(lines: list[str]) -> list[str]:
    """The plates a panel's plates line shows ("🍽️ `1` `3` 🍤 ×6 · `2` 🍱 🐟🍣🍤🥚🥒⭐"), by kind."""
    line = next((line for line in lines if line.startswith("🍽️")), "")
    found: list[str] = []
    for item in line.removeprefix("🍽️").split(" · "):
        numbers = re.findall(r"`(\d+)`", item)
        picture = re.sub(r"`\d+`", "", item).strip()
        if not numbers or not picture:
            continue
        kind = "combo" if picture.startswith(COMBO_EMOJI) else FACES.get(picture.split()[0])
        if kind is not None:
            found += [kind] * len(numbers)
    return found


@dataclass
class Panel:
    """What a duelist's panel shows: its six dice (face or None, set aside), and its buttons."""

    dice: list[tuple[str | None, bool, Button]]
    roll: Button | None
    yuck: Button | None
    bells: list[Button]
    plates: list[str]

    @classmethod
    def read(cls, components: list[dict[str, Any]], embeds: list[Any]) -> Panel:
        buttons, lines = parts(components, embeds)
        dice = []
        for button in buttons:
            number = button.label.removeprefix(KEPT).strip()
            if number.isdigit():
                dice.append((FACES.get(button.emoji), button.label.startswith(KEPT), button))
        return cls(
            dice=dice,
            roll=next((b for b in buttons if b.label == "Roll"), None),
            yuck=next((b for b in buttons if b.label == "Yuck!"), None),
            bells=[b for b in buttons if re.fullmatch(r"Ring \d+", b.label) and b.enabled],
            plates=plates_of(lines),
        )

    def choice(self, called: str | None = None) -> Button | None:
        """The click a fast, sensible duelist makes now (see the module's docstring); `called`: the
        Yuck! last pressed, not pressed again while the board it named is still the one shown."""
        if self.bells:
            return self.bells[0]
        if self.yuck is not None and self.yuck.enabled and self.yuck.custom_id != called:
            return self.yuck
        if len(self.dice) != 6:
            return None
        faces = [face for face, _, _ in self.dice]
        aside = [kept for _, kept, _ in self.dice]
        if None in faces or not self.plates:
            return self.roll if self.roll is not None and self.roll.enabled else None
        keep = max((keep_toward(plate, faces, aside) for plate in self.plates), key=len)
        for die in keep:
            if not aside[die]:
                return self.dice[die][2]
        for die in range(6):
            if aside[die] and die not in keep:
                return self.dice[die][2]
        return self.roll if self.roll is not None and self.roll.enabled else None


# ---------------------------------------------------------------- one game


@dataclass
class Outcome:
    human: int  # plates
    computer: int
    seconds: float  # table seconds, Start to the last move
    clicks: int
    refused: int
    yucks_by_human: int
    yucks_by_computer: int
    stalled: bool = False


@dataclass
class Bench:
    env: Any
    scale: float
    click_every: float
    jitter: float
    rng: random.Random
    count: int = 0
    guild: Any = field(default=None)

    def moment(self) -> float:
        return float(self.env.now().timestamp())

    def board(self, where: Any, viewer: Any) -> Any | None:
        """The newest bot message with components in the table's channel: its live board."""
        for message in reversed(list(where.history(viewer=viewer))):
            if message.author.bot and message.components:
                return message
        return None

    async def table_button(self, member: Any, where: Any, viewer: Any, word: str) -> Any:
        """Click the table's own button `word` (join, start, hand) on the board, whatever its label."""
        board = self.board(where, viewer)
        assert board is not None, "no board"
        found = next(
            c["custom_id"]
            for c in simcord_private.message_components(self.env, member, board)
            if str(c.get("custom_id", "")).endswith(f":t:{word}")
        )
        return await member.click(board, custom_id=found)

    async def play(self, level: str) -> Outcome:
        self.count += 1
        env = self.env
        if self.guild is None:
            self.guild = env.create_guild("Sushi Dice pace")
        channel = self.guild.create_text_channel(f"duel-{self.count}")
        human = self.guild.add_member(env.create_user(f"quick{self.count}"))
        viewer = self.guild.add_member(env.create_user(f"watcher{self.count}"))
        before = {thread.id for thread in channel.threads}
        await human.slash(channel, "sushidice new", computers=1, level=level)
        threads = [thread for thread in channel.threads if thread.id not in before]
        where = threads[-1] if threads else channel
        await self.table_button(human, where, viewer, "start")
        started = self.moment()
        tables = tables_of(env.bot)
        record = await tables.store.last_table(where.id)
        assert record is not None and record.id is not None
        table_id = record.id
        opened: Any = None
        called: str | None = None
        clicks = refused = 0
        due = started
        stalled = False
        while await tables.context(where.id) is not None:
            if clicks >= MOST_CLICKS:
                stalled = True
                break
            due += self.scale * self.click_every * self.rng.uniform(1 - self.jitter, 1 + self.jitter)
            await env.advance_time(max(due - self.moment(), 0.0))
            if await tables.context(where.id) is None:
                break
            panel = None if opened is None else opened.response
            if panel is None or not any(True for _ in walk_components(panel.components)):
                opened = await self.table_button(human, where, viewer, "hand")  # "Open my dice"
                clicks += 1
                continue
            shown = Panel.read(panel.components, panel.embeds)
            button = shown.choice(called)
            if button is not None and button is shown.yuck:
                called = button.custom_id  # it names the board's stamp: the same board is not called twice
            if button is None:
                button = self.chop(human, where, viewer)
            if button is None:
                continue  # nothing to click: a human would wait
            result = await human.click(panel.message, custom_id=button.custom_id)
            clicks += 1
            answer = result.response
            if answer is not None and answer.id != panel.id and not answer.components:
                refused += 1  # a refusal: a private line of text, the panel unchanged
        await env.settle()
        final = await tables.store.last_table(where.id)
        assert final is not None and final.state is not None
        plates = [len(mine) for mine in final.state["plates"]]
        timed = await tables.store.timed_actions(table_id)
        ended = timed[-1][3] if timed else self.moment()
        yucks = [seat for _, seat, action, _ in timed if action.get("type") == "yuck"]
        return Outcome(
            human=plates[0],
            computer=plates[1],
            seconds=(ended - started) / self.scale,
            clicks=clicks,
            refused=refused,
            yucks_by_human=yucks.count(0),
            yucks_by_computer=yucks.count(1),
            stalled=stalled,
        )

    def chop(self, human: Any, where: Any, viewer: Any) -> Button | None:
        """Chop! on the public board, when it is enabled there (a spectator's call: never at two)."""
        board = self.board(where, viewer)
        if board is None:
            return None
        buttons, _ = parts(simcord_private.message_components(self.env, human, board), [])
        return next((b for b in buttons if b.label == "Chop!" and b.enabled), None)


# ---------------------------------------------------------------- figures


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of `wins` in `games`."""
    if games == 0:
        return 0.0, 1.0
    share = wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def verdict(level: str, low: float, high: float) -> str:
    """The issue's target: easy and normal lose to the fast human, hard wins at least half; judged on
    the interval (unsure: the games so far cannot tell)."""
    if level == "hard":
        return "(wins ≥ half) " + ("met" if low >= 0.5 else "missed" if high < 0.5 else "unsure")
    return "(loses) " + ("met" if high < 0.5 else "missed" if low >= 0.5 else "unsure")


def report(level: str, outcomes: list[Outcome], args_pace: list[str]) -> str:
    """Two lines for a level: the score and the target, then what a game was made of."""
    games = max(len(outcomes), 1)
    human = sum(o.human > o.computer for o in outcomes)
    computer = sum(o.computer > o.human for o in outcomes)
    draws = len(outcomes) - human - computer
    low, high = wilson(computer, len(outcomes))
    pace = {**PACE, **trial_paces(args_pace)}[level_named(level)]

    def mean(of: Callable[[Outcome], float]) -> float:
        return sum(of(o) for o in outcomes) / games

    stalls = sum(o.stalled for o in outcomes)
    return (
        f"{level:<7} (click {pace.click:.2f} s, reaction {pace.reaction:.2f} s): {len(outcomes)} games,"
        f" human {human} / computer {computer} / draws {draws}; computer's share {computer / games:.0%}"
        f" [95% {low:.0%}, {high:.0%}]; mean game {mean(lambda o: o.seconds):.1f} s;"
        f" target {verdict(level, low, high)}\n"
        f"{'':<8}per game: human clicks {mean(lambda o: o.clicks):.0f}"
        f" (refused {mean(lambda o: o.refused):.1f}),"
        f" Yuck! that stood: by the human {mean(lambda o: o.yucks_by_human):.1f},"
        f" by the computer {mean(lambda o: o.yucks_by_computer):.1f}"
        + (f"; {stalls} stalled (over {MOST_CLICKS} clicks)" if stalls else "")
    )


Job = tuple[int, str]
"""A game to play: its number (which deals it: every level gets the same deals) and the level."""


async def play_jobs(jobs: list[Job], args: argparse.Namespace, played: list[tuple[Job, Outcome]]) -> None:
    """Play `jobs` one after the other on one bot and one simcord Env, each outcome into `played`."""
    dealt = [0]
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(
            Settings(token="bench", database_path=str(Path(folder) / "pace.db"), turn_timeout=TURN_TIMEOUT),
            sync=True,
            seeds=lambda: dealt[0],
        )
        try:
            async with simcord.run(bot, settle_timeout=SETTLE) as env:
                # The cog as loaded (an extension is a module of its own: no isinstance here).
                cog: Any = bot.get_cog("SushiDiceCog")
                cog.board_refresh_interval = PUBLIC_BOARD_INTERVAL * args.scale
                cog.computer_delay = COMPUTER_DELAY * args.scale
                # --pace: a level's pace tried out, through the cog module's table of paces.
                paces = sys.modules[type(cog).__module__]._PACES
                paces.update(trial_paces(args.pace))
                bench = Bench(env, args.scale, args.click_every, args.jitter, random.Random())
                started = time.perf_counter()
                for number, level in jobs:
                    deal = random.Random(f"{args.seed}:{number}")
                    dealt[0] = deal.randrange(2**31)
                    bench.rng = deal  # the human's clicks jitter alike at every level
                    outcome = await bench.play(level)
                    played.append(((number, level), outcome))
                    print(
                        f"  game {number + 1}/{args.games} {level:<6}: human {outcome.human} –"
                        f" computer {outcome.computer} in {outcome.seconds:5.1f} s"
                        f" ({time.perf_counter() - started:4.0f} s in this process)",
                        file=sys.stderr,
                        flush=True,
                    )
        finally:
            if hasattr(bot, "database"):  # simcord detaches the bot without closing it
                await bot.database.close()


def worker(jobs: list[Job], args: argparse.Namespace) -> tuple[list[tuple[Job, Outcome]], int]:
    """One process's share of the games (the bench mostly waits on simcord's settling, not the CPU),
    and how many were played again. On a busy machine simcord may give up waiting for the bot
    (TimeoutError: a click's work outlasted SETTLE real seconds): the game is dealt again, the same
    deal, on a fresh bot and Env; the outcome of a game never decides whether it is replayed."""
    played: list[tuple[Job, Outcome]] = []
    again = 0
    while len(played) < len(jobs):
        try:
            asyncio.run(play_jobs(jobs[len(played) :], args, played))
        except TimeoutError:
            again += 1
            if again > RETRIES:
                raise
            print("  simcord did not settle (a busy machine): that game is played again", file=sys.stderr)
    return played, again


def run(args: argparse.Namespace) -> None:
    levels = [level for level in args.levels.split(",") if level]
    assert levels and all(level in LEVELS for level in levels), levels
    jobs = [(number, level) for number in range(args.games) for level in levels]
    shares = [jobs[index :: args.processes] for index in range(args.processes)]
    started = time.perf_counter()
    if args.processes == 1:
        results = [worker(jobs, args)]
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=args.processes, mp_context=context) as pool:
            results = list(pool.map(worker, shares, [args] * len(shares)))
    played = [item for share, _ in results for item in share]
    again = sum(count for _, count in results)
    print(
        f"Sushi Dice: a fast human (a click every {args.click_every} s ±{args.jitter:.0%}) against one"
        f" computer, 2 players, {args.games} games per level (seed {args.seed};"
        f" {time.perf_counter() - started:.0f} s on {args.processes} processes"
        + (f"; {again} played again after simcord timed out" if again else "")
        + ")"
    )
    for level in levels:
        print(report(level, [outcome for (_, of), outcome in sorted(played) if of == level], args.pace))


def trial_paces(given: list[str]) -> dict[str, Pace]:
    """`--pace hard=0.4/0.6`: the level's seconds per click / seconds to react to a board."""
    paces: dict[str, Pace] = {}
    for item in given:
        level, _, pace = item.partition("=")
        click, _, reaction = pace.partition("/")
        paces[level_named(level)] = Pace(click=float(click), reaction=float(reaction))
    return paces


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=6, help="games per level (default 6)")
    parser.add_argument("--click-every", type=float, default=0.4, help="the human's seconds per click")
    parser.add_argument("--jitter", type=float, default=0.1, help="± share drawn on each click's interval")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated (default: all three)")
    parser.add_argument("--seed", type=int, default=45, help="deals the games and the human's jitter")
    parser.add_argument("--scale", type=float, default=SCALE, help="how much slower the table's clocks run")
    parser.add_argument("--processes", type=int, default=3, help="worker processes (default 3)")
    parser.add_argument(
        "--pace",
        action="append",
        default=[],
        metavar="LEVEL=CLICK/REACTION",
        help="try another pace for a level (rules.computer.PACE's seconds), e.g. hard=0.4/0.6",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    # The human's panel must outlive the gap between two clicks (see SCALE).
    args.scale = min(args.scale, TOKEN_SAFE / (args.click_every * (1 + args.jitter)))
    run(args)


if __name__ == "__main__":
    main()
