"""The fake Discord itself, driven by a plain discord.py bot with a small test cog.

These tests pin down the fake's behaviour that the bot's end-to-end tests rely on: replies and
their flags, deferrals, follow-ups, components, autocomplete, payloads built from the synced
commands, channel and thread creation with permissions, nonce deduplication and fault injection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.harness import BotRunner, ErrorCatcher, pointed_at
from tests.fakediscord import EPHEMERAL, CommandNotSynced, FakeDiscord
from tests.fakediscord.world import PRIVATE_THREAD

BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_private_threads=True,
    manage_threads=True,
    manage_channels=True,
    manage_roles=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
).value


class Clicker(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Press", custom_id="test:press")
    async def press(
        self, interaction: discord.Interaction, button: discord.ui.Button[Clicker]
    ) -> None:
        await interaction.response.edit_message(content="pressed")

    @discord.ui.select(
        custom_id="test:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("a", "b", "c")],
        max_values=2,
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[Clicker]
    ) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class ProbeCog(commands.Cog):
    group = app_commands.Group(name="probe", description="Test commands")

    @group.command(name="echo", description="Say something back")
    @app_commands.describe(text="What to say", loud="Shout it", count="How often")
    @app_commands.choices(
        mood=[
            app_commands.Choice(name="Calm", value="calm"),
            app_commands.Choice(name="Glad", value="glad"),
        ]
    )
    async def echo(
        self,
        interaction: discord.Interaction,
        text: str,
        mood: str = "calm",
        loud: bool = False,
        count: app_commands.Range[int, 1, 3] = 1,
    ) -> None:
        said = (text.upper() if loud else text) + f" ({mood})"
        await interaction.response.send_message(" ".join([said] * count), ephemeral=not loud)

    @group.command(name="slow", description="Defer, then answer")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("done", ephemeral=True)

    @group.command(name="who", description="Name a member")
    async def who(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(
            f"{member.display_name} admin={member.guild_permissions.manage_guild}", ephemeral=True
        )

    @group.command(name="buttons", description="Show a button")
    async def buttons(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("press it", view=Clicker())

    @group.command(name="fruit", description="Pick a fruit")
    async def fruit(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(name, ephemeral=True)

    @fruit.autocomplete("name")
    async def fruit_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        fruits = ["apple", "apricot", "banana"] + [f"extra{i}" for i in range(40)]
        return [app_commands.Choice(name=f, value=f) for f in fruits if f.startswith(current)][:25]

    @group.command(name="setup", description="Make a category, a channel and a private thread")
    async def setup(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        guild = interaction.guild
        assert guild is not None
        category = await guild.create_category("Campaign")
        channel = await guild.create_text_channel(
            "orders",
            category=category,
            overwrites={
                guild.default_role: discord.PermissionOverwrite(send_messages=False),
                guild.me: discord.PermissionOverwrite(send_messages=True, view_channel=True),
            },
        )
        thread = await channel.create_thread(
            name="orders-daw", type=discord.ChannelType.private_thread
        )
        await thread.add_user(interaction.user)
        await thread.send("welcome", nonce="n-1")
        await interaction.followup.send("made", ephemeral=True)

    @group.command(name="boom", description="Fail")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")


class ProbeBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.01,
        )

    async def setup_hook(self) -> None:
        await self.add_cog(ProbeCog())
        self.add_view(Clicker())
        await self.tree.sync()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(bot_permissions=BOT_PERMISSIONS)
    await fake.start()
    try:
        with pointed_at(fake):
            yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def probe(fake: FakeDiscord) -> AsyncIterator[BotRunner]:
    errors = ErrorCatcher()
    errors.install()
    runner = BotRunner(fake, ProbeBot(), errors)
    try:
        await runner.start()
        yield runner
    finally:
        await runner.stop()
        errors.uninstall()


async def test_bot_connects_and_syncs(fake: FakeDiscord, probe: BotRunner) -> None:
    assert probe.bot.is_ready()
    guild = probe.bot.get_guild(fake.guild_id)
    assert guild is not None and guild.get_channel(int(fake.world.general["id"])) is not None
    names = [c["name"] for c in fake.synced[None]]
    assert names == ["probe"]
    probe.assert_clean()


async def test_reply_ephemeral_and_public(fake: FakeDiscord, probe: BotRunner) -> None:
    quiet = await fake.slash(fake.players[0], "probe echo", text="hi", count=2)
    assert quiet.text == "hi (calm) hi (calm)" and quiet.ephemeral
    loud = await fake.slash(fake.players[0], "probe echo", text="hi", loud=True, mood="glad")
    assert loud.text == "HI (glad)" and not loud.ephemeral
    assert fake.messages_in(fake.world.general)[-1]["content"] == "HI (glad)"
    probe.assert_clean()


async def test_payload_follows_synced_commands(fake: FakeDiscord, probe: BotRunner) -> None:
    with pytest.raises(CommandNotSynced):
        await fake.slash(fake.players[0], "probe echo", txt="renamed option")
    with pytest.raises(CommandNotSynced):
        await fake.slash(fake.players[0], "probe echo")  # required option missing
    with pytest.raises(CommandNotSynced):
        await fake.slash(fake.players[0], "probe echo", text="x", mood="angry")
    with pytest.raises(CommandNotSynced):
        await fake.slash(fake.players[0], "probe echo", text="x", count=4)
    with pytest.raises(CommandNotSynced):
        await fake.slash(fake.players[0], "probe missing")


async def test_defer_then_followup(fake: FakeDiscord, probe: BotRunner) -> None:
    record = await fake.slash(fake.players[1], "probe slow")
    assert record.callback_type == 5
    assert record.text == "done" and record.ephemeral
    probe.assert_clean()


async def test_member_option_and_permissions(fake: FakeDiscord, probe: BotRunner) -> None:
    record = await fake.slash(fake.players[0], "probe who", member=fake.admin)
    assert record.text == "admin admin=True"
    record = await fake.slash(fake.admin, "probe who", member=fake.players[2])
    assert record.text == "player3 admin=False"


async def test_button_and_select(fake: FakeDiscord, probe: BotRunner) -> None:
    shown = await fake.slash(fake.players[0], "probe buttons")
    message = shown.reply
    pressed = await fake.click(fake.players[1], message, "test:press")
    assert pressed.callback_type == 7 and message["content"] == "pressed"
    picked = await fake.select(fake.players[1], message, "test:pick", ["a", "c"])
    assert picked.text == "picked a,c" and picked.ephemeral
    with pytest.raises(AssertionError):
        await fake.click(fake.players[1], message, "test:nothing")
    probe.assert_clean()


async def test_autocomplete_at_most_25(fake: FakeDiscord, probe: BotRunner) -> None:
    choices = await fake.autocomplete(fake.players[0], "probe fruit", "name", "ap")
    assert [c["value"] for c in choices] == ["apple", "apricot"]
    many = await fake.autocomplete(fake.players[0], "probe fruit", "name", "")
    assert len(many) == 25


async def test_channels_threads_and_nonce(fake: FakeDiscord, probe: BotRunner) -> None:
    player = fake.players[0]
    await fake.slash(player, "probe setup")
    category = fake.channel_named("Campaign")
    orders = fake.channel_named("orders", parent=category)
    thread = fake.channel_named("orders-daw")
    world = fake.world
    assert thread["type"] == PRIVATE_THREAD
    assert world.thread_members[int(thread["id"])] == {fake.bot_user.id, player.id}
    assert not world.can_send(fake.players[1].id, int(orders["id"]))
    assert world.can_see(player.id, int(thread["id"]))
    assert not world.can_see(fake.players[1].id, int(thread["id"]))
    # the same nonce again creates nothing
    body = {"content": "again", "nonce": "n-1", "enforce_nonce": True}
    message, created = world.post_message(fake.bot_user.id, int(thread["id"]), body)
    assert not created and message["content"] == "welcome"
    # read back later, a message has no nonce (Discord gives it only with the post's answer)
    channel = probe.bot.get_partial_messageable(int(thread["id"]))
    read = [m async for m in channel.history(limit=5)]
    assert read and all(m.nonce is None for m in read)
    # the bot's cache saw the new channels through the gateway
    await fake.wait_for(lambda: probe.bot.get_channel(int(thread["id"])) is not None)
    probe.assert_clean()


async def test_errors_are_recorded(fake: FakeDiscord, probe: BotRunner) -> None:
    with probe.expect_errors() as records:
        await fake.slash(fake.players[0], "probe boom", wait=False)
        await fake.wait_for(lambda: records, what="an error record")
        assert "boom" in probe.errors.describe()
    with pytest.raises(AssertionError, match="the bot logged an error"):
        await fake.slash(fake.players[0], "probe boom")
    probe.errors.records.clear()


async def test_rate_limit_and_outage_are_retried_by_discord_py(
    fake: FakeDiscord, probe: BotRunner
) -> None:
    channel = probe.bot.get_channel(int(fake.world.general["id"]))
    assert isinstance(channel, discord.TextChannel)
    fake.chaos.fail(429, count=2)
    await channel.send("after two 429s")
    fake.chaos.fail(503, count=1)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("lost to a 503")
    fake.chaos.fail(0, count=1)
    with pytest.raises(Exception):  # noqa: B017 - any network error
        await channel.send("lost to a dropped connection")
    contents = [m["content"] for m in fake.messages_in(fake.world.general)]
    assert contents == ["after two 429s"]
    assert [s for _, _, s in fake.chaos.injected] == [429, 429, 503, 0]
    probe.errors.records.clear()  # discord.py logs the 429s as warnings only


async def test_ephemeral_flag_value() -> None:
    assert discord.MessageFlags(ephemeral=True).value == EPHEMERAL


async def test_a_second_server_has_its_own_channels_roles_and_limits(fake: FakeDiscord) -> None:
    """A bot in two servers (``add_guild`` before it connects): each announced at IDENTIFY
    with its own @everyone role; channels and threads made in one belong to it, and Discord's
    500 channels are counted per server."""
    second = fake.add_guild("Second Guild")
    errors = ErrorCatcher()
    errors.install()
    runner = BotRunner(fake, ProbeBot(), errors)
    try:
        await runner.start()
        guild = runner.bot.get_guild(second)
        assert guild is not None and guild.default_role.id == second
        assert runner.bot.get_guild(fake.guild_id) is not None
        category = await guild.create_category("Campaign")
        text = await guild.create_text_channel("orders", category=category)
        thread = await text.create_thread(name="orders-daw")
        world = fake.world
        assert {world.guild_of(c.id) for c in (category, text, thread)} == {second}
        assert (world.channel_count(second), world.channel_count()) == (2, 1)
        assert [
            c["name"]
            for c in world.guild_payload(members_intent=False, guild_id=second)["channels"]
        ] == ["Campaign", "orders"]
        world.max_guild_channels = 2
        with pytest.raises(discord.HTTPException) as full:
            await guild.create_text_channel("more")
        assert full.value.code == 30013
        first = runner.bot.get_guild(fake.guild_id)
        assert first is not None
        await first.create_text_channel("still-room")  # the first server has its own 500
        runner.assert_clean()
    finally:
        await runner.stop()
        errors.uninstall()
