"""Per-route rate limits in the fake Discord, as Discord's documentation describes them.

Discord limits requests per route and per top-level resource in the path (a channel, a guild,
a webhook): a bucket allows ``limit`` requests per window, tells the client with the
``X-RateLimit-*`` headers of every answer how many remain and when the window resets, and
answers a request past the limit with a 429 carrying ``retry_after`` (seconds). discord.py
reads these headers and waits before a request its bucket has no room for; a client that
ignores them gets the 429s.

Off by default: a test turns a bucket on with :meth:`RateLimits.limit` (say five edits of
messages per channel per five seconds, the limit Discord is known to apply to message
writes) and reads :attr:`RateLimits.limited` afterwards.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field


@dataclass
class Bucket:
    """One per-route limit: ``limit`` requests per ``per`` seconds for each top-level
    resource (the path pattern's first group)."""

    name: str
    method: str
    pattern: re.Pattern[str]
    limit: int
    per: float
    #: resource -> (start of its window in loop time, requests in it)
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a bucket says of one request: the headers to send, and ``retry_after`` seconds
    when it is over the limit (``None`` when it may go)."""

    headers: dict[str, str]
    retry_after: float | None = None


class RateLimits:
    """The fake's buckets (none until :meth:`limit`)."""

    def __init__(self) -> None:
        self.buckets: list[Bucket] = []
        #: (method, path, retry_after) of every request answered 429
        self.limited: list[tuple[str, str, float]] = []

    def limit(self, method: str, path: str, *, limit: int, per: float, name: str = "") -> Bucket:
        """Allow ``limit`` ``method`` requests per ``per`` seconds for each top-level resource
        of the paths matching ``path`` (a regular expression over the path after
        ``/api/v10``; its first group is the resource, as a channel id)."""
        bucket = Bucket(name or f"fake-{len(self.buckets)}", method, re.compile(path), limit, per)
        self.buckets.append(bucket)
        return bucket

    def check(self, method: str, path: str, now: float) -> Verdict | None:
        """Count the request in its bucket (``now`` is the loop time): ``None`` if no bucket
        covers it."""
        for bucket in self.buckets:
            found = bucket.pattern.search(path) if method == bucket.method else None
            if found is None:
                continue
            resource = found.group(1) if found.groups else ""
            start, used = bucket.windows.get(resource, (now, 0))
            if now - start >= bucket.per:
                start, used = now, 0
            reset_after = max(0.0, bucket.per - (now - start))
            headers = {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Bucket": bucket.name,
            }
            if used >= bucket.limit:
                self.limited.append((method, path, reset_after))
                headers |= {"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user"}
                return Verdict(headers, retry_after=reset_after)
            bucket.windows[resource] = (start, used + 1)
            headers["X-RateLimit-Remaining"] = str(bucket.limit - used - 1)
            return Verdict(headers)
        return None
