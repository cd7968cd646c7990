"""Reading a server-sent event feed in the background, for the feed's tests: every
message with its id, its event name and its data, in the order they came, so that a test
can wait for the next ones or check that nothing came."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass

import httpx


@dataclass(frozen=True)
class Message:
    id: str | None
    event: str
    data: dict


class Follower:
    """The messages of one open feed, read by a thread of their own; ``comments`` counts
    the keep-alive lines; ``ended`` is set when the server ends the stream."""

    def __init__(self, client: httpx.Client, path: str, headers: dict[str, str] | None = None):
        self._context = client.stream("GET", path, headers=headers or {}, timeout=httpx.Timeout(10, read=None))
        self.response = self._context.__enter__()
        self.messages: list[Message] = []
        self.comments = 0
        self.ended = threading.Event()
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        kind, ident, data = "message", None, []
        try:
            for line in self.response.iter_lines():
                if line.startswith(":"):
                    self.comments += 1
                elif line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("id:"):
                    ident = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "" and data:
                    with self._changed:
                        self.messages.append(Message(ident, kind, json.loads("\n".join(data))))
                        self._changed.notify_all()
                    kind, ident, data = "message", None, []
        except Exception:  # closed by the test, under the reading thread
            pass
        finally:
            self.ended.set()
            with self._changed:
                self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Message]:
        """The first ``count`` messages, once they came (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0 or self.ended.is_set():
                    raise AssertionError(f"{len(self.messages)} messages came, not {count}: {self.messages}")
                self._changed.wait(left)
            return list(self.messages[:count])

    def close(self) -> None:
        self._context.__exit__(None, None, None)
        # The reading thread may sit in a read until the server's next keep-alive (or its
        # stop) wakes it; it is a daemon that keeps nothing, so it is not waited for.
        self._thread.join(0.2)

    def __enter__(self) -> Follower:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
