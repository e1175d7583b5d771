"""A slow phone link outside the browser: a TCP proxy on this machine between the browser and
the server, each direction held back by half the round trip and paced at the link's rate.

Chromium's own emulation (``Network.emulateNetworkConditions``) is no network: it holds each
answer until its latency has passed since the request went out, so up to that latency of the
server's time is hidden in it (a probe with 60 ms of extra server time showed +0 ms). Through
this proxy the server's time adds to the link's, as on a real one: a request reaches the server
half a round trip after it was sent, and its answer comes back half a round trip after the
server sent it, later again by its size over the link's rate.

A connection opened through it waits one round trip before its first byte goes (TCP's
handshake); the bytes of each direction go through the link in order, one piece after the
other at ``rate`` bytes per second, each then ``round_trip / 2`` on its way.

    with SlowLink(("127.0.0.1", 5000)) as link:  # ROUND_TRIP and RATE unless given
        ...  # the browser talks to http://127.0.0.1:{link.port}
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

#: The slow phone link the benches use: a round trip of 150 ms (seconds), 1.6 Mbps each way
#: (bytes per second).
ROUND_TRIP = 0.150
RATE = 200_000


class SlowLink:
    """The proxy, served by an event loop in a thread of its own while in its ``with``."""

    def __init__(
        self, upstream: tuple[str, int], round_trip: float = ROUND_TRIP, rate: float = RATE
    ) -> None:
        self.upstream = upstream
        self.one_way = round_trip / 2
        self.rate = rate  # bytes per second, each direction
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task] = set()

    def __enter__(self) -> SlowLink:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._start(), self._loop)
        self.port = future.result(timeout=10)
        return self

    def __exit__(self, *_exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    async def _start(self) -> int:
        self._server = await asyncio.start_server(self._connected, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        upstream_writer = None
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.upstream)
            await asyncio.sleep(2 * self.one_way)  # the handshake's round trip
            carriers = [
                asyncio.ensure_future(self._carry(reader, upstream_writer)),
                asyncio.ensure_future(self._carry(upstream_reader, writer)),
            ]
            try:
                await asyncio.gather(*carriers)
            finally:
                for carrier in carriers:
                    carrier.cancel()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self._tasks.discard(task)
            for end in (writer, upstream_writer):
                if end is not None:
                    end.close()

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One direction: each piece read goes through the link after the pieces before it
        (``free``: when the link is free again), then takes ``one_way`` to arrive."""
        loop = asyncio.get_running_loop()
        arriving: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        delivery = asyncio.ensure_future(self._deliver(arriving, writer))
        free = 0.0
        try:
            while True:
                piece = await reader.read(1 << 16)
                now = loop.time()
                free = max(now, free) + len(piece) / self.rate
                arriving.put_nowait((free + self.one_way, piece))
                if not piece:
                    break
            await delivery
        finally:
            delivery.cancel()

    @staticmethod
    async def _deliver(arriving: asyncio.Queue, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due, piece = await arriving.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not piece:  # the sender is done: so is this direction
                with contextlib.suppress(OSError):
                    if writer.can_write_eof():
                        writer.write_eof()
                return
            writer.write(piece)
            await writer.drain()
