"""The fake Discord takes file uploads as Discord does (tests/fakediscord/uploads.py): a
multipart body of ``payload_json`` and ``files[n]``; the message object lists each file as an
attachment object; an edit that sends ``attachments`` keeps only those it lists; a request
over the upload limit is refused with 413, code 40005.

Driven over HTTP with aiohttp, without the bot, as
https://discord.com/developers/docs/reference#uploading-files describes the requests.
"""

from __future__ import annotations

import io
import json

import aiohttp
from PIL import Image

from tests.fakediscord import FakeDiscord
from tests.fakediscord.uploads import UPLOAD_LIMIT
from tests.fakediscord.world import GUILD_TEXT


def png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (230, 159, 0)).save(out, format="PNG")
    return out.getvalue()


def form(payload: dict[str, object], files: list[tuple[str, bytes]]) -> aiohttp.FormData:
    data = aiohttp.FormData()
    data.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index, (name, content) in enumerate(files):
        data.add_field(
            f"files[{index}]", content, filename=name, content_type="application/octet-stream"
        )
    return data


async def test_uploads_become_attachments_and_edits_keep_what_they_list(
    fake: FakeDiscord,
) -> None:
    channel = fake.world.create_channel_raw(name="announcements", type=GUILD_TEXT)
    url = f"{fake.api_base}/channels/{channel['id']}/messages"
    headers = {"Authorization": f"Bot {fake.world.token}"}
    picture = png(40, 30)
    payload = {
        "content": "the map",
        "attachments": [{"id": 0, "filename": "map.png", "description": "The map"}],
    }
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, data=form(payload, [("upload.png", picture)])) as answer:
            assert answer.status == 200
            message = await answer.json()
        (attachment,) = message["attachments"]
        assert attachment["filename"] == "map.png"  # the name the attachments entry gives
        assert attachment["description"] == "The map"
        assert (attachment["width"], attachment["height"]) == (40, 30)
        assert attachment["size"] == len(picture) and attachment["content_type"] == "image/png"
        assert fake.world.files[int(attachment["id"])] == picture
        (request,) = [r for r in fake.requests if r.method == "POST" and r.uploads]
        assert request.body["content"] == "the map" and request.uploads[0].data == picture
        # an edit listing no attachment drops it; one not sending the key keeps them
        edit = f"{url}/{message['id']}"
        async with session.patch(edit, json={"content": "still the map"}) as answer:
            assert len((await answer.json())["attachments"]) == 1
        async with session.patch(edit, json={"attachments": []}) as answer:
            assert (await answer.json())["attachments"] == []
        # over the upload limit: refused, nothing posted
        before = len(fake.world.messages[int(channel["id"])])
        big = form({"content": "too big"}, [("big.bin", b"\0" * (UPLOAD_LIMIT + 1))])
        async with session.post(url, data=big) as answer:
            assert answer.status == 413
            assert (await answer.json())["code"] == 40005
        assert len(fake.world.messages[int(channel["id"])]) == before
