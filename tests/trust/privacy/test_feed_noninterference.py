"""Noninterference of the feed for bots (``GET /api/v1/matches/{match}/events``): two lca
matches differ only in who of two other players submitted what (their submissions and
contracts exchanged), each served by its own `serve` process.  Played command by command
while the public's feed and a third player's are open on both, each feed must send the
same messages with the same ids, each after the same command (so nothing a feed sends,
nor when, moves with the secret), up to the first command that tells the viewer
something different; a feed opened afterwards, and every resume position from 0 to past
the head, get the same answers too.  Hashes are the one exception, as on the command
line: each is checked to be its event's stored hash and compared as the seq it belongs
to.  One of the two players, whose own submissions differ, gets another feed: the
comparison can fail."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path

import pytest

from matchledger import engine
from tests.service.feed_support import Follower, Message
from tests.service.support import Server, bearer, grant
from tests.trust.privacy.harness_cli import DB, MATCH, PUBLIC, Side, first_telling_command, host_differences, scratch
from tests.trust.privacy.test_cli_noninterference import lca_exchanged, play

TOKENS = {"viewer": "viewer-feed-token-0123456789abcd", "told": "told-feed-token-0123456789abcdef"}
FEED = "/api/v1/matches/m1/events"
#: How long each feed is watched, after each command, for a message that must not come.
QUIET_SECONDS = 0.25


def shown(messages: list[Message], side: Side) -> list[tuple]:
    """The messages as compared: each hash checked to be its event's, and replaced by its seq."""
    out = []
    for message in messages:
        data = dict(message.data)
        row = side.rows[data["seq"] - 1]
        assert (data.pop("hash"), data.pop("prev_hash")) == (row.hash, row.prev_hash), data
        assert message.id == str(data["seq"])
        out.append((message.id, message.event, repr(data)))
    return out


def expected(side: Side, viewer: str) -> int:
    """How many events the viewer's log lists now."""
    if viewer == PUBLIC:
        return len(side.app.log(MATCH, public=True).entries)
    return len(side.app.log(MATCH, participant=viewer).entries)


@pytest.mark.guarantee("service.noninterference", "service.feed")
def test_other_players_submissions_exchanged_move_nothing_the_public_or_a_third_player_gets_from_the_feed():
    sample = engine.get("lca").sample(random.Random(16), n_players=4)
    a = play(sample.create, sample)
    u, v, third = sample.create.players[:3]
    b = play(sample.create, lca_exchanged(a.commands, u, v, True))
    viewers = {PUBLIC: {}, third: bearer(TOKENS["viewer"])}
    cut = min(first_telling_command(a, b, viewer) for viewer in viewers)
    with scratch() as tmp:
        sides = [Side(Path(tmp) / name) for name in ("a", "b")]
        for side, played in zip(sides, (a, b)):
            side.create(played.create)
            grant(side.folder / DB, MATCH, third, TOKENS["viewer"])
            grant(side.folder / DB, MATCH, u, TOKENS["told"])
        servers = [Server(side.folder / DB, poll=0.03) for side in sides]
        try:
            with contextlib.ExitStack() as stack:
                feeds = {
                    (i, viewer): stack.enter_context(Follower(server.client, FEED, headers))
                    for i, server in enumerate(servers)
                    for viewer, headers in viewers.items()
                }
                # after which command each message came: the structure a watcher can time
                came = {key: [] for key in feeds}
                for index in range(cut):
                    if index:
                        for side, played in zip(sides, (a, b)):
                            side.execute(played.commands[index - 1])
                    for (_i, viewer), feed in feeds.items():
                        feed.wait_for(expected(sides[0], viewer))
                    time.sleep(QUIET_SECONDS)
                    for key, feed in feeds.items():
                        came[key].append(len(feed.messages))
                at_the_end = {key: list(feed.messages) for key, feed in feeds.items()}
                late, resumed = {}, {}
                for i, server in enumerate(servers):
                    for viewer, headers in {**viewers, u: bearer(TOKENS["told"])}.items():
                        with Follower(server.client, FEED, headers) as feed:
                            late[(i, viewer)] = feed.wait_for(expected(sides[i], viewer))
                    for viewer, headers in viewers.items():
                        resumed[(i, viewer)] = [
                            (answer.status_code, answer.text)
                            for after in range(len(sides[i].app.log(MATCH).entries) + 2)
                            if (answer := _refused_or_none(server, {**headers, "Last-Event-ID": str(after)}))
                            is not None
                        ]
        finally:
            for side in sides:
                side.finish()
            for server in servers:
                server.stop()
    for viewer in viewers:
        assert came[(0, viewer)] == came[(1, viewer)], f"LEAK: {viewer}'s feed sends at other times"
        assert shown(at_the_end[(0, viewer)], sides[0]) == shown(at_the_end[(1, viewer)], sides[1]), (
            f"LEAK: {viewer}'s feed differs"
        )
        assert shown(late[(0, viewer)], sides[0]) == shown(late[(1, viewer)], sides[1]), (
            f"LEAK: {viewer}'s feed opened late differs"
        )
        assert resumed[(0, viewer)] == resumed[(1, viewer)], f"LEAK: {viewer}'s resume positions are told apart"
    # the secret was in what was compared, and the comparison can fail: u is told it
    assert shown(late[(0, u)], sides[0]) != shown(late[(1, u)], sides[1])
    assert cut >= 25 and sum(host_differences(sides[0].rows, sides[1].rows)) >= 20, cut
    assert came[(0, PUBLIC)][-1] >= 3 and came[(0, third)][-1] > came[(0, PUBLIC)][-1], came
    assert len(resumed[(0, PUBLIC)]) > len(resumed[(0, third)]) > 0  # hidden seqs and past the head refused


def _refused_or_none(server: Server, headers: dict[str, str]):
    """The answer to a resume position that is refused; None for one that opens a feed
    (closed at once: what it sends is compared above)."""
    with server.client.stream("GET", FEED, headers=headers) as answer:
        if answer.status_code == 200:
            return None
        answer.read()
        return answer
