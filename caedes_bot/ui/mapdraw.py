"""Drawing map pictures off the event loop, once per scene (issue 17).

:class:`MapDrawer` runs :func:`~caedes_bot.ui.mapimage.render_map` in a worker thread of its
own (drawings take turns anyway, so many ``/map`` calls at once queue there instead of filling
the event loop's default executor, which discord.py's DNS look-ups need), so the event loop
keeps serving Discord while a map is drawn, and
keeps the last pictures by :meth:`~caedes_bot.ui.mapscene.MapScene.digest`. A scene is a pure
function of the game state (and the view asked for), so the same state is never drawn twice:
a second ``/map`` on the same state, or the outbox retrying the map post of a turn, gets the
cached bytes; two requests for the same scene at once share one drawing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.ui.mapimage import render_map
from caedes_bot.ui.mapscene import MapScene

__all__ = ["DRAWING_THREAD", "PICTURE_TOO_LARGE", "MapDrawer", "map_filename"]

#: The line a map post carries instead of its picture when Discord refuses the upload as
#: larger than the server's limit (the post itself is never dropped)
PICTURE_TOO_LARGE = (
    "*The map picture was larger than this server's upload limit, so it is left out.*"
)

DRAWING_THREAD = "caedes-map"  #: the name (prefix) of the thread that draws maps


def map_filename(scene: MapScene) -> str:
    """``"caedes-round-3-DAW.png"``: the upload's file name (the round and whose turn)."""
    who = scene.active or "start"
    extra = ""
    if scene.focus:
        extra += f"-{scene.focus}"
    if scene.highlight:
        extra += f"-{scene.highlight}"
    return f"caedes-round-{scene.round}-{who}{extra}.png"


class MapDrawer:
    """PNG bytes of map scenes, drawn in a thread and cached by scene.

    Args:
        ruleset: the game data with the map's shapes.
        cache_size: how many pictures are kept (a picture is about 100 KB).
        render: the drawing function (tests may count calls through it).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        cache_size: int = 16,
        render: Callable[[MapScene, Ruleset], bytes] = render_map,
    ) -> None:
        self.ruleset = ruleset
        self.cache_size = cache_size
        self._render = render
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self.drawn = 0  #: how many pictures were actually drawn
        #: The one thread that draws (threads are made on the first drawing).
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=DRAWING_THREAD)

    @property
    def available(self) -> bool:
        """Whether the game data has shapes to draw (``map_shapes.toml``)."""
        return self.ruleset.map.geometry is not None

    async def png(self, scene: MapScene) -> bytes:
        """The PNG of ``scene``: from the cache, or drawn in a worker thread.

        Raises:
            caedes_bot.ui.mapimage.NoMapShapes: the game data has no shapes.
        """
        key = scene.digest()
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        running = self._drawing.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            loop = asyncio.get_running_loop()
            data = await loop.run_in_executor(self._pool, self._render, scene, self.ruleset)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as err:
            future.set_exception(err)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._drawing.pop(key, None)
        self.drawn += 1
        future.set_result(data)
        self._cache[key] = data
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return data
