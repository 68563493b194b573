"""Application commands in the fake: checking what the bot syncs, and building interactions.

A test never writes an interaction payload by hand: :func:`build_command_data` walks the commands
the bot really synced, so a renamed command or option, a missing required option, a value outside
the declared choices or a wrong type fails the test the way Discord would refuse it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tests.fakediscord.world import (
    CHOICE_NAME_MAX,
    CHOICES_MAX,
    JSON,
    FakeUser,
    World,
    invalid_form,
)

# Option types (Discord API).
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

_NAME = re.compile(r"^[-_\w]{1,32}$")


@dataclass(frozen=True)
class FakeFile:
    """A file a member attaches to an attachment option (``file=FakeFile("a.json.gz", data)``).

    As in Discord, the interaction carries an attachment object under ``resolved.attachments``
    (id, filename, size, url, proxy_url, content_type); the bot fetches the bytes from its
    ``url`` (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-resolved-data-structure),
    which the fake serves (``World.cdn_base``).
    """

    filename: str
    data: bytes
    content_type: str = "application/gzip"


class CommandNotSynced(AssertionError):
    """The test named a command or option that the bot did not sync."""


def validate_commands(commands: list[JSON]) -> None:
    """Refuse (400, 50035) a bulk overwrite that Discord would refuse."""
    if len(commands) > 100:
        raise invalid_form("more than 100 commands")
    seen: set[tuple[int, str]] = set()
    for cmd in commands:
        ctype = int(cmd.get("type", 1))
        key = (ctype, cmd["name"])
        if key in seen:
            raise invalid_form(f"duplicate command name {cmd['name']!r}")
        seen.add(key)
        if ctype == 1:
            _validate_named(cmd, "command")
            _validate_options(cmd.get("options") or [], cmd["name"], depth=0)


def _validate_named(item: JSON, what: str) -> None:
    name = item.get("name") or ""
    if not _NAME.match(name) or name != name.lower():
        raise invalid_form(f"{what} name {name!r} must be 1-32 lower-case word characters")
    desc = item.get("description") or ""
    if not 1 <= len(desc) <= 100:
        raise invalid_form(f"{what} {name!r}: description must be 1-100 characters")


def _validate_options(options: list[JSON], where: str, *, depth: int) -> None:
    if len(options) > 25:
        raise invalid_form(f"{where}: more than 25 options")
    required_done = False
    names: set[str] = set()
    for opt in options:
        _validate_named(opt, f"option of {where}")
        if opt["name"] in names:
            raise invalid_form(f"{where}: duplicate option {opt['name']!r}")
        names.add(opt["name"])
        otype = int(opt["type"])
        if otype in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if depth >= (1 if otype == SUB_COMMAND_GROUP else 2):
                raise invalid_form(f"{where}: sub-commands nested too deep")
            _validate_options(opt.get("options") or [], f"{where} {opt['name']}", depth=depth + 1)
            continue
        if opt.get("required"):
            if required_done:
                raise invalid_form(
                    f"{where}: required option {opt['name']!r} after an optional one"
                )
        else:
            required_done = True
        choices = opt.get("choices") or []
        if len(choices) > CHOICES_MAX:
            raise invalid_form(f"{where} {opt['name']}: more than {CHOICES_MAX} choices")
        if choices and opt.get("autocomplete"):
            raise invalid_form(f"{where} {opt['name']}: choices and autocomplete together")
        for c in choices:
            if not 1 <= len(c.get("name") or "") <= CHOICE_NAME_MAX:
                raise invalid_form(f"{where} {opt['name']}: a choice name is not 1-100 characters")


def find_command(commands: list[JSON], path: str) -> tuple[JSON, list[str], list[JSON]]:
    """The top-level command, the sub-command path, and the leaf's option definitions.

    Raises:
        CommandNotSynced: no such command or sub-command was synced.
    """
    parts = path.split()
    top = next((c for c in commands if c["name"] == parts[0] and int(c.get("type", 1)) == 1), None)
    if top is None:
        known = sorted(c["name"] for c in commands)
        raise CommandNotSynced(f"/{parts[0]} was not synced; synced: {known}")
    options: list[JSON] = top.get("options") or []
    for part in parts[1:]:
        sub = next(
            (
                o
                for o in options
                if o["name"] == part and int(o["type"]) in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            known = [
                o["name"] for o in options if int(o["type"]) in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            raise CommandNotSynced(f"/{path}: no sub-command {part!r}; known: {known}")
        options = sub.get("options") or []
    if any(int(o["type"]) in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options):
        raise CommandNotSynced(f"/{path} is a group; name one of its sub-commands")
    return top, parts[1:], options


def build_command_data(
    world: World,
    command: JSON,
    subpath: list[str],
    definitions: list[JSON],
    values: Mapping[str, Any],
    *,
    focused: str | None = None,
) -> JSON:
    """The ``data`` of an APPLICATION_COMMAND (or AUTOCOMPLETE, with ``focused``) interaction.

    ``values`` are Python values: ``str``/``int``/``float``/``bool``, a :class:`FakeUser` for
    user and mentionable options, a channel dict or id for channel options.

    Raises:
        CommandNotSynced: an option the command does not have, a missing required option, or a
            value outside the synced choices.
    """
    by_name = {o["name"]: o for o in definitions}
    unknown_names = sorted(set(values) - set(by_name))
    if unknown_names:
        raise CommandNotSynced(
            f"/{command['name']} {' '.join(subpath)}: no option(s) {unknown_names}; "
            f"synced options: {sorted(by_name)}"
        )
    if focused is not None and focused not in by_name:
        raise CommandNotSynced(f"no option {focused!r} to autocomplete")
    if focused is None:
        missing = [o["name"] for o in definitions if o.get("required") and o["name"] not in values]
        if missing:
            raise CommandNotSynced(f"required option(s) {missing} not given")
    resolved: dict[str, dict[str, JSON]] = {}
    leaf: list[JSON] = []
    for name, value in values.items():
        definition = by_name[name]
        is_focused = name == focused
        leaf.append(_option_value(world, definition, value, resolved, focused=is_focused))
    if focused is not None and focused not in values:
        leaf.append(
            {"name": focused, "type": by_name[focused]["type"], "value": "", "focused": True}
        )
    options: list[JSON] = leaf
    for part, kind in reversed(list(zip(subpath, _sub_kinds(command, subpath), strict=True))):
        options = [{"name": part, "type": kind, "options": options}]
    data: JSON = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _sub_kinds(command: JSON, subpath: list[str]) -> list[int]:
    kinds = []
    options = command.get("options") or []
    for part in subpath:
        sub = next(o for o in options if o["name"] == part)
        kinds.append(int(sub["type"]))
        options = sub.get("options") or []
    return kinds


def _option_value(
    world: World,
    definition: JSON,
    value: Any,
    resolved: dict[str, dict[str, JSON]],
    *,
    focused: bool,
) -> JSON:
    otype = int(definition["type"])
    name = definition["name"]
    out: JSON = {"name": name, "type": otype}
    if focused:
        out["focused"] = True
        out["value"] = str(value)
        return out
    if otype == STRING:
        if not isinstance(value, str):
            raise CommandNotSynced(f"option {name!r} takes a string, got {value!r}")
        lo, hi = definition.get("min_length"), definition.get("max_length")
        if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
            raise CommandNotSynced(f"option {name!r}: length outside {lo}..{hi}")
        out["value"] = value
    elif otype in (INTEGER, NUMBER):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CommandNotSynced(f"option {name!r} takes a number, got {value!r}")
        if otype == INTEGER and not isinstance(value, int):
            raise CommandNotSynced(f"option {name!r} takes an integer, got {value!r}")
        lo, hi = definition.get("min_value"), definition.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise CommandNotSynced(f"option {name!r}: {value} outside {lo}..{hi}")
        out["value"] = value
    elif otype == BOOLEAN:
        if not isinstance(value, bool):
            raise CommandNotSynced(f"option {name!r} takes a boolean, got {value!r}")
        out["value"] = value
    elif otype in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        out["value"] = str(value.id)
        resolved.setdefault("users", {})[str(value.id)] = value.user_payload()
        perms = world.base_permissions(value.id)
        resolved.setdefault("members", {})[str(value.id)] = value.member_payload(
            with_user=False, permissions=perms
        )
    elif otype == CHANNEL:
        cid = int(value["id"]) if isinstance(value, dict) else int(value)
        channel = world.channel(cid)
        allowed = definition.get("channel_types")
        if allowed and channel["type"] not in allowed:
            raise CommandNotSynced(f"option {name!r} does not take channel type {channel['type']}")
        out["value"] = str(cid)
        resolved.setdefault("channels", {})[str(cid)] = {
            "id": str(cid),
            "name": channel["name"],
            "type": channel["type"],
            "permissions": str(world.permissions_for(world.bot.id, cid)),
            "parent_id": channel.get("parent_id"),
            **(
                {"thread_metadata": channel["thread_metadata"]}
                if "thread_metadata" in channel
                else {}
            ),
        }
    elif otype == ATTACHMENT:
        if not isinstance(value, FakeFile):
            raise CommandNotSynced(f"option {name!r} takes a FakeFile, got {value!r}")
        aid = world.ids.next()
        world.files[aid] = value.data
        url = f"{world.cdn_base}/attachments/{aid}/{value.filename}"
        out["value"] = str(aid)
        resolved.setdefault("attachments", {})[str(aid)] = {
            "id": str(aid),
            "filename": value.filename,
            "size": len(value.data),
            "url": url,
            "proxy_url": url,
            "content_type": value.content_type,
        }
    elif otype == ROLE:
        rid = int(value)
        out["value"] = str(rid)
        resolved.setdefault("roles", {})[str(rid)] = world.roles[rid].payload()
    else:
        raise CommandNotSynced(f"option {name!r} of type {otype} is not served by the fake")
    choices = definition.get("choices")
    if choices and out["value"] not in [c["value"] for c in choices]:
        raise CommandNotSynced(
            f"option {name!r}: {out['value']!r} is not one of the synced choices "
            f"{[c['value'] for c in choices]}"
        )
    return out
