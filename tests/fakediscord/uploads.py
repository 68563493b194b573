"""File uploads, as Discord takes them (https://discord.com/developers/docs/reference#uploading-files).

A request that carries files is ``multipart/form-data``: the JSON body goes in the part named
``payload_json`` and each file in a part named ``files[n]`` (``n`` from 0), with its file name in
the part's ``Content-Disposition``. The body's ``attachments`` array names each upload by
``id: n`` (and may give its ``filename`` and ``description``); on an edit, an entry whose id is an
existing attachment's keeps that attachment, and an edit that sends ``attachments`` drops every
attachment it does not list. A message may carry at most 10 attachments, and all the files of
one request together may not pass the upload limit (``attachment_size_limit`` of an
interaction: 10 MiB on a server without boosts); a larger request is refused with 413, code
40005 "Request entity too large" (https://discord.com/developers/docs/topics/opcodes-and-status-codes).

The message object's ``attachments`` then lists each as an attachment object: ``id``,
``filename``, ``size``, ``url``, ``proxy_url``, ``content_type``, and for an image its
``width`` and ``height``.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fakediscord.limits import invalid_form
from tests.fakediscord.world import ApiError

JSON = dict[str, Any]

UPLOAD_LIMIT = 10 * 1024 * 1024  #: bytes per request, as ``attachment_size_limit`` says
ATTACHMENTS_MAX = 10  #: attachments on one message
REQUEST_TOO_LARGE = 40005
_FILE_PART = re.compile(r"^files\[(\d+)\]$")


@dataclass(frozen=True)
class Upload:
    """One ``files[n]`` part of a request."""

    index: int
    filename: str
    content_type: str
    data: bytes


async def read_multipart(
    request: web.Request, *, limit: int = UPLOAD_LIMIT
) -> tuple[JSON, list[Upload]]:
    """The ``payload_json`` body and the uploaded files of a multipart request, refused past
    ``limit`` bytes of files in all (the server's upload limit).

    Raises:
        ApiError: 413 (40005) over the upload limit; 400 (50035) for a part Discord would not
            take (no ``payload_json`` JSON object, a part name other than ``files[n]``).
    """
    reader = await request.multipart()
    body: JSON = {}
    uploads: list[Upload] = []
    total = 0
    while True:
        part = await reader.next()
        if part is None:
            break
        assert isinstance(part, BodyPartReader)
        name = part.name or ""
        if name == "payload_json":
            loaded = json.loads(await part.text())
            if not isinstance(loaded, dict):
                raise invalid_form("payload_json: expected a JSON object")
            body = loaded
            continue
        found = _FILE_PART.match(name)
        if found is None:
            raise invalid_form(f"form part '{name}': expected payload_json or files[n]")
        data = bytes(await part.read())
        total += len(data)
        if total > limit:
            raise ApiError(413, REQUEST_TOO_LARGE, "Request entity too large")
        uploads.append(
            Upload(
                index=int(found.group(1)),
                filename=part.filename or f"file{found.group(1)}",
                content_type=part.headers.get("Content-Type", "application/octet-stream"),
                data=data,
            )
        )
    return body, uploads


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG from its header, or ``None`` for anything else."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def attachment_objects(
    channel_id: int, body: JSON, uploads: list[Upload], new_id: Any
) -> list[JSON]:
    """The attachment objects of a request's uploads, named as ``body["attachments"]`` says.

    ``new_id()`` gives a fresh snowflake. Raises 400 (50035) for more than
    :data:`ATTACHMENTS_MAX` files.
    """
    if len(uploads) > ATTACHMENTS_MAX:
        raise invalid_form(f"files: {len(uploads)} > {ATTACHMENTS_MAX}")
    named = {
        int(a["id"]): a
        for a in body.get("attachments") or []
        if isinstance(a, dict) and str(a.get("id", "")).isdigit() and int(a["id"]) < 100
    }
    out = []
    for upload in uploads:
        aid = new_id()
        entry = named.get(upload.index, {})
        filename = str(entry.get("filename") or upload.filename)
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{aid}/{filename}"
        obj: JSON = {
            "id": str(aid),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": "image/png" if image_size(upload.data) else upload.content_type,
        }
        if entry.get("description"):
            obj["description"] = str(entry["description"])
        size = image_size(upload.data)
        if size is not None:
            obj["width"], obj["height"] = size
        out.append(obj)
    return out
