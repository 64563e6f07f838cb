"""The chaos suite's machinery: random members doing random things to the real bot, and the checks.

A `Chaos` run is one channel of one guild with seated and unseated members (one with closed DMs, an
admin). Each step, drawn from one seeded `random.Random`, is one of:

- a press: a member clicks a random enabled button, or picks random options of a random select, on any
  message the bot has shown them (the channel's boards and replies, their own ephemeral panels, their
  DMs); most presses are made by a member the game waits for, so that games move on;
- a slash command: any leaf of the channel's game group, of the server-wide commands or (rarely) of
  another game's group — sometimes in the member's DM — with random options: odd unicode, strings of
  each option's minimum and maximum length, numbers at their bounds, members seated or not, and
  values the bot's own autocomplete offered;
- an autocomplete: random text typed into an autocompleted option;
- a wait: the virtual clock jumps (turn time-outs, computer players, Kaiten's chopsticks windows).

After every interaction these must hold, else the run fails naming its seed, its step and the steps
before it (a run is replayed exactly from its seed):

1. no ERROR record (nor logged exception) from the bot's loggers, and no error simcord caught;
2. the interaction was acknowledged exactly once, and not left "thinking…": every interaction callback
   the bot POSTs is counted, one Discord refuses with 40060 included (discord.py logs that as a late
   answer, not as an error);
3. no hidden information in the channel, by non-interference. The table's state is copied with every
   secret redrawn (`scramble`: the deck and every hand, piles under their top tile, the face-down
   plates and tiles, the random generator), which must leave `game.view(state, None)` unchanged. Then
   a. the public board drawn from the copy equals the board drawn from the real state, picture bytes
      included: the board shows nothing `view(state, None)` does not; and
   b. a block of a seat's private board (its card's heading, text, each part's name and value, small
      print, as `card_blocks` reads a card) that changes
      with the secrets carries a secret (a hand, a pick): no message the channel received during the
      step — posts, edits, non-ephemeral interaction replies and follow-ups — may hold such a block,
      as it was before the step or after it;
4. no new public message may ping @everyone, @here or a role (a member is called "@everyone 🍣", and
   odd text carries "@here" and role mentions).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from simcord import Env
from simcord.components import walk_components
from simcord.results import ResponseMessage

from cogs.kit.messages import Board
from cogs.kit.words.bidi import plain
from cogs.tables.context import TableContext
from rules.engine import Game
from tests.e2e import transcript
from tests.e2e.helpers import Table
from tests.games import kit

LOGGERS = ("discord", "cogs", "sushibar", "storage", "rules", "bot")
"""Whose ERROR records fail a run: the bot's own packages and discord.py."""

INTEGER_LIMIT = 2**53 - 1  # Discord's bound for an integer option without bounds of its own
WAITS = (1.0, 5.0, 31.0, 61.0, 301.0, 3601.0)  # seconds the clock may jump in one step
WAIT_WEIGHTS = (2.0, 2.0, 2.0, 2.0, 4.0, 0.5)
RARE = {"cancel": 0.1, "leave": 0.2}
"""Weights of the commands and buttons that end a table or a seat (every other weighs 1)."""
SPARED = {("notify", "how"): "off", ("settings pings", "on"): False}
"""Option values never sent: the shared transcript check wants a ping for every move a human came to
owe, so nobody turns pings off."""
FRAGMENTS = (
    "²", "①", "٣", "𝟘", "Ⅷ", "½", "-0", "1e999", "NaN", "inf", "0x1F", "१२", "null", "true", "[1]",
    "\u200b", "\u200d", "\u202e", "\ufeff", "e\u0301", "Z̷͉̈", "ﷺ", "Ω", "ß", "İ", "🍣", "🥢", "👩‍👩‍👧‍👦",
    "🏳️‍🌈", "@everyone", "@here", "<@&1>", "<#1>", "<@1>", "`", "```", "**", "||", "~~", "\\", "'",
    '"', "%s", "%(x)s", "\n", "\t", " ", "  ", "a", "C4", "4c", "z9", "0-1", "1-4+4-7", "sushi", "4d6",
    "d20", "2d", "-", "+", "*", ",", ";", "#", "ＡＢＣ", "ｃ４", "🇨4", "ᅟ", "ً", "\x7f",
)  # fmt: skip
"""What odd text is made of: other scripts' digits, invisible and combining marks, mentions,
markdown, near-misses of valid input."""
_ECHO_UNSAFE = re.compile(r"[{}<>/]")  # what the transcript checks would take for a placeholder or a /command


@dataclasses.dataclass(frozen=True)
class Command:
    """One slash command leaf as Discord knows it: "sushigo pick" and its options."""

    name: str
    options: tuple[dict[str, Any], ...]

    @property
    def group(self) -> str:
        return self.name.split()[0]


def catalog(bot: Any) -> list[Command]:
    """Every chat-input leaf of the bot's command tree, with its options as synced to Discord."""
    found: list[Command] = []

    def walk(data: dict[str, Any], name: str) -> None:
        options = data.get("options") or []
        nested = [option for option in options if option["type"] in (1, 2)]
        for sub in nested:
            walk(sub, f"{name} {sub['name']}")
        if not nested:
            found.append(Command(name, tuple(options)))

    for command in bot.tree.get_commands():
        data = command.to_dict(bot.tree)
        if data.get("type", 1) == 1:
            walk(data, data["name"])
    return found


class ErrorRecords(logging.Handler):
    """Collects the ERROR records of the bot's loggers."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in LOGGERS:
            self.records.append(record)


@contextmanager
def error_records() -> Iterator[ErrorRecords]:
    """ERROR records of the bot's loggers, collected on the root logger while the block runs."""
    handler = ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


class ChaosFailure(AssertionError):
    pass


# ---------------------------------------------------------------- hidden information


def scramble(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """A copy of `state` whose secrets are redrawn: what only one seat, or nobody, may know."""
    copy = game.load(game.dump(state))
    copy.rng.state ^= rng.getrandbits(64) | 1  # the dice and shuffles to come
    kit(game.id).scramble(copy, rng)  # the game's own secrets: hands, piles, face-down tiles
    return copy


def board_payload(board: Board | None) -> Any:
    """Everything a rendered board would send: its card (words, controls, colour, picture address), the
    parts it was built from, and picture bytes."""
    if board is None:
        return None
    card = board.card()
    return (
        card.to_components(),
        board.content,
        board.embed.to_dict() if board.embed else None,
        [bytes(file.fp.read()) for file in board.files],
    )


def embed_blocks(embed: Any) -> list[str]:
    """An embed's blocks of text (a payload dict): title, description, each field's name and value, footer."""
    if not embed:
        return []
    blocks = [embed.get("title") or "", embed.get("description") or ""]
    for item in embed.get("fields") or []:
        blocks += [item.get("name") or "", item.get("value") or ""]
    blocks.append((embed.get("footer") or {}).get("text") or "")
    return [block.strip() for block in blocks if block.strip()]


def card_blocks(components: Any) -> list[str]:
    """A card's blocks of text (a payload's components), as an embed's were: its heading, what its
    first text says, each part's name and value, its small print, each section's line."""
    blocks: list[str] = []
    for item in walk_components(components or []):
        if item.get("type") == 10:
            blocks += text_blocks(str(item.get("content") or ""))
    return blocks


def text_blocks(text: str) -> list[str]:
    """The blocks of one text of a card: a `### ` heading, a `**name**` line alone (a part's name) and
    the lines under it (its value), a run of `-# ` lines (small print), the other lines between them;
    a blank line parts blocks too (the card's first text runs a message's line into what its embed
    said: a hand stays a block of its own)."""
    blocks: list[str] = []
    lines: list[str] = []
    small = False

    def close() -> None:
        block = "\n".join(lines).strip()
        if block:
            blocks.append(block)
        lines.clear()

    for line in text.split("\n"):
        stripped = line.strip()
        bare = plain(stripped)  # its markdown read without the right-to-left marks
        name = bare[2:-2] if len(bare) > 4 and bare.startswith("**") and bare.endswith("**") else None
        if not bare:
            close()
        elif bare.startswith("### ") or (name is not None and "**" not in name):
            close()
            blocks.append(stripped)
            small = False
        elif bare.startswith("-# ") != small:
            close()
            lines.append(line)
            small = not small
        else:
            lines.append(line)
    close()
    return blocks


def board_blocks(board: Board | None) -> list[str]:
    """The blocks of text of a rendered board's card, as the card reaches Discord."""
    return card_blocks(board.card().to_components()) if board is not None else []


def payload_blocks(data: dict[str, Any]) -> list[str]:
    """The blocks of a message payload as sent to Discord: content, embeds, a card's texts, component
    labels."""
    blocks = [str(data.get("content") or "").strip()]
    for embed in data.get("embeds") or []:
        blocks += embed_blocks(embed)
    blocks += card_blocks(data.get("components"))
    for item in walk_components(data.get("components") or []):
        blocks.append(str(item.get("label") or "").strip())
        blocks += [str(option.get("label") or "").strip() for option in item.get("options") or []]
    return [block for block in blocks if block]


# ---------------------------------------------------------------- the run


class Chaos:
    """One table's channel, its members, a seeded generator, and the checks after every interaction."""

    def __init__(self, env: Env, table: Table, game_id: str, seed: int, errors: ErrorRecords) -> None:
        self.env = env
        self.table = table
        self.game_id = game_id
        self.seed = seed
        self.rng = random.Random(seed)
        self.errors = errors
        self.step_number = 0
        self.history: list[str] = []
        self.commands = catalog(env.bot)
        self.groups = {cog.group for cog in table.tables.games.values()}
        self.members = dict(table.players)  # name -> MemberActor (the spectator only reads)
        self.by_id = {member.id: name for name, member in self.members.items()}
        self.cursor = len(env.http_requests)
        self.error_cursor = env.error_cursor
        self.callbacks: Counter[int] = Counter()  # interaction id -> callbacks the bot POSTed
        self.secrets: set[str] = set()
        self.checked_version = -1
        self.stats: Counter[str] = Counter()
        self.seconds: dict[str, float] = defaultdict(float)  # CPU seconds per kind of step

    def fail(self, what: str) -> NoReturn:
        recent = "\n  ".join(self.history[-12:])
        raise ChaosFailure(
            f"chaos {self.game_id} seed={self.seed} step={self.step_number}: {what}\n"
            f"the last steps (newest last):\n  {recent}"
        )

    def note(self, what: str) -> None:
        """Remember a step for a failure's report, and show it in the transcript."""
        self.history.append(f"#{self.step_number} {what}")
        transcript.player_did(self.env, what)

    def summary(self) -> str:
        seconds = ", ".join(f"{kind} {value:.1f} s" for kind, value in sorted(self.seconds.items()))
        return f"{dict(sorted(self.stats.items()))}; CPU: {seconds}"

    # ------------------------------------------------------------ steps

    async def run(self, steps: int) -> None:
        for _ in range(steps):
            self.step_number += 1
            kind = self.rng.choices(("press", "slash", "complete", "wait"), weights=(46, 36, 6, 12))[0]
            started = time.process_time()
            try:
                if not (kind == "press" and await self.press()):
                    await {"press": self.slash, "slash": self.slash, "complete": self.complete}.get(
                        kind, self.wait
                    )()
            except ChaosFailure:
                raise
            except Exception as error:  # simcord refused the step, or the bot never settled
                self.fail(f"{type(error).__name__}: {error}")
            self.seconds[kind] += time.process_time() - started

    async def wait(self) -> None:
        seconds = self.rng.choices(WAITS, weights=WAIT_WEIGHTS)[0]
        self.note(f"the clock moves {seconds:g} s")
        self.stats["waits"] += 1
        # The whole jump must settle within simcord's settle time-out of real time, and computer
        # players may play a game to its end meanwhile.
        settle, self.env.settle_timeout = self.env.settle_timeout, max(self.env.settle_timeout, 60.0)
        try:
            await self.env.advance_time(seconds)
        finally:
            self.env.settle_timeout = settle
        await self.check(None)

    # ------------------------------------------------------------ presses

    async def waiting_for(self) -> list[str]:
        """The members the channel's running game waits for (to steer most presses)."""
        ctx = await self.table.live()
        if ctx is None or ctx.state is None or ctx.record.status != "playing":
            return []
        users = [ctx.record.seats[seat].user_id for seat in ctx.game.to_move(ctx.state)]
        return [self.by_id[user] for user in users if user in self.by_id]

    def clickables(self, name: str) -> list[tuple[Any, dict[str, Any], bool]]:
        """(message, component, in a DM) for every enabled component this member can see."""
        return clickables(self.env, self.members[name], [self.table.channel.id])

    async def press(self) -> bool:
        waiting = await self.waiting_for()
        everyone = sorted(self.members)
        name = self.rng.choice(waiting if waiting and self.rng.random() < 0.7 else everyone)
        targets = self.clickables(name)
        if not targets:
            return False
        # game moves and the newest messages (the live board, the latest panel) are likelier
        weights = [
            _press_weight(item) * (3.0 if index >= len(targets) - 12 else 1.0)
            for index, (_, item, _) in enumerate(targets)
        ]
        message, item, in_dm = self.rng.choices(targets, weights=weights)[0]
        member = self.members[name]
        actor = member.user if in_dm else member
        where = "in a DM" if in_dm else "on a panel" if message.is_ephemeral else "in the channel"
        handle = ResponseMessage(self.env, message)
        if item["type"] == 2:
            label = item.get("label") or (item.get("emoji") or {}).get("name") or "?"
            self.note(f"{name} clicks “{label}” {where}")
            result = await actor.click(handle, custom_id=item["custom_id"])
        else:
            options = item["options"]
            low = max(1, item.get("min_values", 1))
            high = max(low, min(len(options), item.get("max_values", 1)))
            chosen = self.rng.sample(options, self.rng.randint(low, high))
            labels = ", ".join(f"“{option['label']}”" for option in chosen)
            self.note(f"{name} chooses {labels} {where}")
            values = [option["value"] for option in chosen]
            result = await actor.select(handle, values, custom_id=item["custom_id"])
        self.stats["presses"] += 1
        await self.check(result._interaction)
        return True

    # ------------------------------------------------------------ slash commands and autocomplete

    def pick_command(self, visible: set[str]) -> Command | None:
        """A command the member can run here: Discord hides /settings from non-admins."""
        commands = [c for c in self.commands if c.name in visible]
        own = [c for c in commands if c.group == self.table.group]
        server = [c for c in commands if c.group not in self.groups]
        others = [c for c in commands if c.group in self.groups - {self.table.group}]
        pool = self.rng.choices((own, server, others), weights=(66, 28, 6))[0] or commands
        if not pool:
            return None
        return self.rng.choices(pool, weights=[RARE.get(c.name.split()[-1], 1.0) for c in pool])[0]

    async def slash(self) -> None:
        name = self.rng.choice(sorted(self.members))
        member = self.members[name]
        in_dm = self.rng.random() < 0.05
        visible = set(
            member.user.available_commands() if in_dm else member.available_commands(self.table.channel)
        )
        command = self.pick_command(visible)
        if command is None:
            return
        options: dict[str, Any] = {}
        for option in command.options:
            if option.get("required") or self.rng.random() < 0.5:
                options[option["name"]] = await self.value(member, command, option, options, in_dm=in_dm)
        shown = " ".join(f"{key}:{_shown(value)}" for key, value in options.items())
        self.note(f"{name} runs /{command.name} {shown}".rstrip() + (" in a DM" if in_dm else ""))
        if in_dm:
            result = await member.user.slash(command.name, **options)
        else:
            result = await member.slash(self.table.channel, command.name, **options)
        self.stats["slash commands"] += 1
        await self.check(result._interaction)

    async def value(
        self, member: Any, command: Command, option: dict[str, Any], filled: dict[str, Any], *, in_dm: bool
    ) -> Any:
        """A random value for one option, within what Discord itself lets through."""
        kind = option["type"]
        spared = SPARED.get((command.name, option["name"]), ...)
        if option.get("choices"):
            return self.rng.choice([c for c in option["choices"] if c["value"] != spared])["value"]
        if kind == 5:  # boolean
            return (not spared) if spared is not ... else self.rng.random() < 0.5
        if kind == 7:  # a channel of the server (a season's podium)
            return self.table.parent
        if kind == 6:  # a member, seated or not
            chosen = self.members[self.rng.choice(sorted(self.members))]
            return chosen.user if in_dm else chosen
        if option.get("autocomplete") and not in_dm and self.rng.random() < 0.6:
            typed = self.text(self.rng.randint(0, 3))
            self.note(f"{self.by_id[member.id]} types {typed!r} into /{command.name} {option['name']}")
            channel = self.table.channel
            choices = await member.autocomplete(channel, command.name, option["name"], typed, **filled)
            await self.check(self.latest_interaction())
            if choices:
                return self.rng.choice(choices)["value"]
        if kind == 3:  # string: empty is impossible, the bounds are likely
            low, high = max(1, option.get("min_length", 1)), option.get("max_length", 6000)
            return self.text(self.rng.choice((low, high, high, self.rng.randint(low, min(high, 60)))))
        if kind == 4:  # integer
            low = option.get("min_value", -INTEGER_LIMIT)
            high = option.get("max_value", INTEGER_LIMIT)
            near = (
                low,
                high,
                low + 1,
                high - 1,
                0,
                1,
                -1,
                2,
                3,
                5,
                12,
                300,
                86400,
                self.rng.randint(low, high),
            )
            return self.rng.choice([value for value in near if low <= value <= high])
        if kind == 10:  # number
            low = option.get("min_value", -(2.0**53))
            high = option.get("max_value", 2.0**53)
            near = (low, high, 0.0, -0.0, 0.5, 1e-9, self.rng.uniform(low, high))
            return self.rng.choice([value for value in near if low <= value <= high])
        raise AssertionError(f"/{command.name} has an option of type {kind} that the chaos cannot fill")

    def text(self, length: int) -> str:
        """Odd text of `length` characters that the transcript's word checks accept when the bot
        quotes it (no `{…}`, `<…>`, `/word`, Python repr or "1 points" made by chance)."""
        for _ in range(20):
            text = ""
            while len(text) < length:
                text += self.rng.choice(FRAGMENTS)
            text = text[:length]
            mentions = re.sub(r"<(@&|#|@)1>", "", text)
            if not _ECHO_UNSAFE.search(mentions) and not transcript.problems(
                [transcript.Line("", "", text, text)], {}
            ):
                return text
        return "x" * length

    async def complete(self) -> None:
        name = self.rng.choice(sorted(self.members))
        visible = set(self.members[name].available_commands(self.table.channel))
        command = self.rng.choice(
            [c for c in self.commands if c.name in visible and any(o.get("autocomplete") for o in c.options)]
        )
        option = self.rng.choice([o for o in command.options if o.get("autocomplete")])
        typed = self.text(self.rng.randint(0, min(option.get("max_length", 12), 12)))
        self.note(f"{name} types {typed!r} into /{command.name} {option['name']}")
        await self.members[name].autocomplete(self.table.channel, command.name, option["name"], typed)
        self.stats["autocompletes"] += 1
        await self.check(self.latest_interaction())

    def latest_interaction(self) -> Any:
        interactions = self.env.backend.interactions
        return interactions[max(interactions)]

    # ------------------------------------------------------------ checks

    async def check(self, interaction: Any | None) -> None:
        """Every check after one interaction (a backend interaction record) or a jump of the clock."""
        if self.errors.records:
            record = self.errors.records[0]
            self.errors.records.clear()
            self.fail(f"the bot logged an error ({record.name}):\n{logging.Formatter().format(record)}")
        caught = self.env.errors_since(self.error_cursor)
        self.error_cursor = self.env.error_cursor
        if caught:
            self.fail(f"simcord caught {caught!r}")
        public = self.new_requests()
        if interaction is not None:
            if not interaction.responded:
                self.fail("the interaction was never answered")
            if interaction.loading:
                self.fail("the interaction was deferred and never completed (“thinking…” for ever)")
        doubles = {key: count for key, count in self.callbacks.items() if count > 1}
        if doubles:
            self.fail(f"interactions answered more than once (id: callbacks): {doubles}")
        await self.check_hidden(public)

    def new_requests(self) -> list[tuple[str, list[str]]]:
        """Count the interaction callbacks since the last check; (what, blocks) of every payload the
        channel received meanwhile for everyone to read."""
        requests = self.env.http_requests[self.cursor :]
        self.cursor += len(requests)
        backend = self.env.backend
        channel = self.table.channel.id
        public: list[tuple[str, list[str]]] = []
        tokens: dict[str, Any] | None = None
        for request in requests:
            data = request.json if isinstance(request.json, dict) else {}
            path, method = request.path, request.method
            if match := re.fullmatch(r"/interactions/(\d+)/[^/]+/callback", path):
                self.callbacks[int(match[1])] += 1
                record = backend.interactions.get(int(match[1]))
                if record is None or record.channel_id != channel:
                    continue
                body = data.get("data") or {}
                if data.get("type") == 4 and not int(body.get("flags") or 0) & 64:
                    public.append((f"the reply to interaction {match[1]}", payload_blocks(body)))
                    self.check_mentions(f"the reply to interaction {match[1]}", body)
                elif data.get("type") == 7 and not _ephemeral(backend, channel, record.source_message_id):
                    public.append((f"the update of message {record.source_message_id}", payload_blocks(body)))
            elif (match := re.fullmatch(r"/channels/(\d+)/messages(?:/\d+)?", path)) and int(
                match[1]
            ) == channel:
                if method in ("POST", "PATCH"):
                    public.append((f"{method} {path}", payload_blocks(data)))
                if method == "POST":
                    self.check_mentions(f"{method} {path}", data)
            elif (match := re.fullmatch(r"/webhooks/\d+/([^/]+)(?:/messages/([^/]+))?", path)) and method in (
                "POST",
                "PATCH",
            ):
                if tokens is None:
                    tokens = {record.token: record for record in backend.interactions.values()}
                record = tokens.get(match[1])
                if record is None or record.channel_id != channel:
                    continue
                if method == "POST":
                    private = bool(int(data.get("flags") or 0) & 64)
                else:
                    target = record.message_id if match[2] == "@original" else int(match[2])
                    private = _ephemeral(backend, channel, target)
                if not private:
                    public.append((f"{method} {path}", payload_blocks(data)))
                if not private and method == "POST":
                    self.check_mentions(f"{method} {path}", data)
        return public

    def check_mentions(self, what: str, data: dict[str, Any]) -> None:
        """A new public message may ping the users it names, never @everyone, @here or a role
        (a member may be called "@everyone", and players type anything)."""
        texts = [item.get("content") for item in walk_components(data.get("components") or [])]
        content = "\n".join(str(text or "") for text in [data.get("content"), *texts] if text)  # a card's too
        allowed = data.get("allowed_mentions")
        parse = ["everyone", "roles"] if allowed is None else allowed.get("parse") or []  # Discord's default
        everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
        roles = ("roles" in parse or bool((allowed or {}).get("roles"))) and "<@&" in content
        if everyone or roles:
            self.fail(f"a message pings {'everyone' if everyone else 'a role'} ({what}): {content[:200]!r}")

    async def check_hidden(self, public: list[tuple[str, list[str]]]) -> None:
        before = self.secrets
        ctx = await self.table.live()
        if ctx is None or ctx.state is None or ctx.record.status != "playing":
            self.secrets = set()
        elif ctx.version != self.checked_version:
            self.checked_version = ctx.version
            started = time.process_time()
            self.secrets = self.non_interference(ctx)
            self.seconds["hidden-information checks"] += time.process_time() - started
        for secrets in (before, self.secrets):
            for what, blocks in public:
                for block in blocks:
                    if block in secrets:
                        self.fail(f"hidden information in the channel ({what}):\n{block}")

    def non_interference(self, ctx: TableContext) -> set[str]:
        """Check the public board against a scrambled state; return the private blocks that carry secrets."""
        game = ctx.game  # the channel's table may be of another game: anyone may open one
        cog = self.table.tables.games[game.id]
        redraw = random.Random(f"{self.seed}:{ctx.version}")  # its own: the steps never depend on a check
        twin = TableContext(ctx.record, game, scramble(game, ctx.state, redraw))
        if twin.public() != ctx.public():
            self.fail(f"scramble() changed {game.id}'s public view (or view() shows a secret)")
        self.stats["hidden-information checks"] += 1
        if board_payload(cog.render_board(ctx)) != board_payload(cog.render_board(twin)):
            self.fail(f"the public {game.id} board changes when only hidden information changes")
        secrets: set[str] = set()
        for seat in range(ctx.players):
            scrambled = set(board_blocks(cog.render_private(twin, seat)))
            secrets |= {
                block for block in board_blocks(cog.render_private(ctx, seat)) if block not in scrambled
            }
        return secrets


def _press_weight(item: dict[str, Any]) -> float:
    """Game moves are pressed most, leaving and cancelling seldom (so that games get played out)."""
    payload = str(item.get("custom_id", "")).split(":", 4)[-1]
    if payload in ("t:cancel", "t:leave"):
        return RARE[payload[2:]]
    return 3.0 if payload[:2] in ("a:", "u:") else 1.0


def _ephemeral(backend: Any, channel_id: int, message_id: int | None) -> bool:
    """Whether a message of the channel is ephemeral (a message that is gone counts as unseen)."""
    message = backend.messages.get(channel_id, {}).get(message_id) if message_id is not None else None
    return message is None or message.is_ephemeral


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "…")
    return str(getattr(value, "name", value))


def clickables(env: Any, member: Any, channels: list[int]) -> list[tuple[Any, dict[str, Any], bool]]:
    """(stored message, component, in a DM) of every enabled button or menu `member` can see in these
    channels and in their DM."""
    backend = env.backend
    places = [(channel, False) for channel in channels]
    if member.id in backend.dm_channels:
        places.append((backend.dm_channels[member.id], True))
    found: list[tuple[Any, dict[str, Any], bool]] = []
    for channel_id, in_dm in places:
        for message in backend.messages.get(channel_id, {}).values():
            if not message.components or not message.visible_to(member.id):
                continue
            for item in walk_components(message.components):
                if item.get("disabled") or not item.get("custom_id"):
                    continue
                button = item.get("type") == 2 and item.get("style") not in (5, 6)
                if button or (item.get("type") == 3 and item.get("options")):
                    found.append((message, item, in_dm))
    return found
