"""Noninterference through HTTP: the idea of ``tests/trust/privacy/harness_cli.py`` applied
to the service.  Two matches differ only in a secret the viewer may not know; each is
recorded into its own database, each database is served by its own `serve` process,
and the viewer's link is the same token in both.  Up to the first command that tells
the viewer something different, every answer the viewer can get must be the same bytes
in both: ``/public`` and ``/me`` at every ``?at=SEQ`` and as the match stands, the
public page and the participant's page (at every seq and now), the live stream, and the
errors they provoke, rejected submissions included.  Hashes are the one exception, as
on the command line: a receipt on a participant's page is compared with its hash
replaced by the seq it belongs to, after checking it is that event's stored hash.

A second test follows the live streams while the matches are played command by command
(the host writing from this process, as the command line would): each stream must send
the same messages in both, and a message only when the page's live part changed."""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path

import httpx
import pytest

from matchledger import engine
from matchledger.engine.commands import Submit
from matchledger.ledger.errors import MatchledgerError
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from tests.service.support import Server, bearer, events, grant
from tests.trust.privacy.harness_cli import (
    DB,
    MATCH,
    PUBLIC,
    Played,
    Side,
    first_telling_command,
    host_differences,
    scratch,
)
from tests.trust.privacy.test_cli_noninterference import (
    _pw_exchange_case,
    lca_candidates,
    lca_exchanged,
    play,
    pw_candidates,
)

TOKEN = "viewer-link-token-0123456789abcd"  # the same link in both databases
#: A participant's page: its "Now" part, its form and its live part, each redrawn by the stream.
SHOWN = re.compile(
    r'<section id="now" class="now">(.*)</section><div class="play"><section id="form-area">(.*)</section>'
    r'<section id="live">(.*)</section></div></main>',
    re.S,
)


def masked(text: str, side: Side) -> str:
    """``text`` with each receipt's hash replaced by the seq it belongs to, after checking
    it is that seq's stored hash."""
    for seq, digest in re.findall(r"(\d+):([0-9a-f]{64})", text):
        assert side.rows[int(seq) - 1].hash == digest, (seq, digest)
    for row in side.rows:
        text = text.replace(row.hash, f"<hash of seq {row.seq}>")
    return text


def record(folder: Path, a: Played, b: Played, viewer: str, upto: int | None = None) -> tuple[Side, Side]:
    """Both matches up to (not including) the first command telling ``viewer`` something
    different (or command ``upto``), with the viewer's link in both databases."""
    cut = first_telling_command(a, b, viewer) if upto is None else upto
    sides = Side(folder / f"{viewer}-a"), Side(folder / f"{viewer}-b")
    for side, played in zip(sides, (a, b)):
        side.create(played.create)
        for cmd in played.commands[: cut - 1]:
            side.execute(cmd)
        side.finish()
        if viewer != PUBLIC:
            grant(side.folder / DB, MATCH, viewer, TOKEN, can_submit=True)
    return sides


class Pair:
    """The two servers, and the comparison of what a viewer gets from each."""

    def __init__(self, sides: tuple[Side, Side], viewer: str):
        self.sides, self.viewer = sides, viewer
        self.servers = [Server(side.folder / DB) for side in sides]
        self.compared = 0

    def close(self) -> None:
        for server in self.servers:
            server.stop()

    def same(self, method: str, path: str, *, expect: int = 200, **kwargs) -> str:
        texts = []
        for side, server in zip(self.sides, self.servers):
            answer = server.client.request(method, path, headers=bearer(TOKEN), **kwargs)
            assert answer.status_code == expect, (path, answer.status_code, answer.text[:300])
            texts.append(masked(answer.text, side))
        assert texts[0] == texts[1], f"LEAK: {self.viewer} can tell A from B by {method} {path}"
        self.compared += 1
        return texts[0]

    def first_messages(self, path: str) -> None:
        messages = []
        for side, server in zip(self.sides, self.servers):
            with server.client.stream("GET", path, timeout=httpx.Timeout(10, read=10)) as stream:
                [(kind, data)] = events(stream, 1)
                messages.append((kind, masked(repr(data), side)))
        assert messages[0] == messages[1], f"LEAK: {self.viewer} can tell A from B by the stream {path}"


def compare_viewer(folder: Path, a: Played, b: Played, viewer: str, candidates) -> dict:
    sides = record(folder, a, b, viewer)
    head = len(sides[0].rows)
    assert head == len(sides[1].rows)
    pair = Pair(sides, viewer)
    try:
        api = "/api/v1/matches/m1/public" if viewer == PUBLIC else "/api/v1/matches/m1/me"
        page = "/m/m1" if viewer == PUBLIC else f"/p/{TOKEN}"
        known = view_seqs(sides[0], viewer)
        assert known == view_seqs(sides[1], viewer)
        for seq in range(1, head + 1):  # ?at takes the seqs of the viewer's own view, no other
            pair.same("GET", api, params={"at": seq}, expect=200 if seq in known else 400)
            pair.same("GET", page, params={"at": seq}, expect=200 if seq in known else 400)
        pair.same("GET", api)
        shown = pair.same("GET", page)
        pair.first_messages(f"{page}/events" if viewer != PUBLIC else "/m/m1/events")
        for bad in ("0", str(head + 1)):
            pair.same("GET", api, params={"at": bad}, expect=400)
        if viewer != PUBLIC:
            assert 'method="post"' in shown or "over" in shown or "Waiting" in shown
            # the page compared whole holds its "Now" part: where the match stands, and the
            # viewer's move that counts, which must not move with the secret either
            assert SHOWN.search(shown) and 'id="headline"' in SHOWN.search(shown).group(1)
            rejected(pair, candidates)
    finally:
        pair.close()
    host = host_differences(sides[0].rows, sides[1].rows)
    return {"compared": pair.compared, "head": head, "host_differs": sum(host)}


def view_seqs(side: Side, viewer: str) -> set[int]:
    """The seqs of the events ``viewer``'s log lists (the command line's)."""
    out = side.run(["log", MATCH, *(["--public"] if viewer == PUBLIC else ["--as", viewer]), "--json"])
    assert out.exit_code == 0, out.stderr
    return {entry["seq"] for entry in json.loads(out.stdout)}


def rejected(pair: Pair, candidates, states: list | None = None) -> None:
    """The viewer's submissions the game rejects in both matches: the same 422 answer,
    through the API and the form; one accepted in either is not sent (it would be written).
    ``states``: both matches as they stand (by default read from each side's file)."""
    if states is None:
        states = [Application(Store(side.folder / DB, read_only=True)).state(MATCH) for side in pair.sides]
    game = engine.get(states[0].game)
    sent = 0
    for tokens in candidates(random.Random(3), states[0], pair.viewer):
        verdicts = []
        for state in states:
            try:
                game.decision(state, Submit(pair.viewer, list(tokens)))
                verdicts.append(True)
            except MatchledgerError:
                verdicts.append(False)
        assert verdicts[0] == verdicts[1], f"LEAK: {pair.viewer}'s {tokens} accepted in one match only"
        if verdicts[0]:
            continue
        pair.same("POST", "/api/v1/matches/m1/submissions", json={"tokens": tokens}, expect=422)
        pair.same("POST", f"/p/{TOKEN}", data={"tokens": " ".join(tokens)}, expect=422)
        sent += 1
    assert sent >= 3


@pytest.mark.guarantee("service.noninterference")
def test_pw_two_other_pairs_exchanging_guests_is_invisible_through_http():
    a, b = _pw_exchange_case()
    with scratch() as tmp:
        found = {viewer: compare_viewer(Path(tmp), a, b, viewer, pw_candidates) for viewer in (PUBLIC, "zed", "wim")}
    # every seq compared while the host's views differed (the pairing differs from the creation on)
    assert all(f["head"] >= 25 and f["host_differs"] == f["head"] for f in found.values()), found


@pytest.mark.guarantee("service.noninterference")
def test_lca_ownership_exchanged_between_two_other_players_is_invisible_through_http():
    sample = engine.get("lca").sample(random.Random(16), n_players=4)
    a = play(sample.create, sample)
    u, v, viewer = sample.create.players[:3]
    b = play(sample.create, lca_exchanged(a.commands, u, v, True))
    with scratch() as tmp:
        found = {w: compare_viewer(Path(tmp), a, b, w, lca_candidates) for w in (PUBLIC, viewer)}
    assert all(f["head"] >= 25 and f["host_differs"] >= 20 for f in found.values()), found


@pytest.mark.guarantee("service.noninterference")
def test_the_http_comparison_fails_for_a_viewer_who_is_told_the_secret():
    """The harness can fail: bob, whose guest is the one exchanged, reaches a page that
    differs (compared past the command that tells him, which the harness would stop at)."""
    a, b = _pw_exchange_case()
    with scratch() as tmp:
        sides = record(Path(tmp), a, b, "bob", upto=len(a.batches))
        pair = Pair(sides, "bob")
        try:
            with pytest.raises(AssertionError, match="LEAK: bob can tell A from B by GET /api/v1/matches/m1/me"):
                pair.same("GET", "/api/v1/matches/m1/me")
        finally:
            pair.close()


@pytest.mark.guarantee("service.noninterference", "service.live")
def test_the_live_streams_send_the_same_messages_only_when_the_viewers_page_changes():
    """Played command by command while the streams are open: after each command both
    pages' live parts are read, and each stream must have sent exactly the changes."""
    a, b = _pw_exchange_case()
    viewers = {PUBLIC: "/m/m1", "zed": f"/p/{TOKEN}"}
    cut = min(first_telling_command(a, b, viewer) for viewer in viewers)
    with scratch() as tmp:
        sides = [Side(Path(tmp) / name) for name in ("a", "b")]
        for side, played in zip(sides, (a, b)):
            side.create(played.create)
            grant(side.folder / DB, MATCH, "zed", TOKEN, can_submit=True)
        servers = [Server(side.folder / DB, poll=0.03) for side in sides]
        try:
            with contextlib.ExitStack() as stack:
                clients = [
                    stack.enter_context(httpx.Client(base_url=s.url, timeout=httpx.Timeout(10, read=10)))
                    for s in servers
                ]
                streams = {
                    (i, viewer): stack.enter_context(clients[i].stream("GET", f"{path}/events"))
                    for i in (0, 1)
                    for viewer, path in viewers.items()
                }
                received, changes = follow(a, b, sides, servers, streams, viewers, cut)
        finally:
            for side in sides:
                side.finish()
            for server in servers:
                server.stop()
        for viewer in viewers:
            mine = [[masked(repr(m), side) for m in received[(i, viewer)]] for i, side in enumerate(sides)]
            assert mine[0] == mine[1], f"LEAK: {viewer}'s stream differs"
            # one message per change of the page, none for anything else
            assert len(mine[0]) == changes[viewer], (viewer, len(mine[0]), changes[viewer])
            assert all(x != y for x, y in zip(mine[0], mine[0][1:]))
        assert changes[PUBLIC] >= 3 and changes["zed"] >= 6 and cut >= 25, (changes, cut)


def follow(a, b, sides, servers, streams, viewers, cut):
    """Play both matches command by command; after each, read every page's live part
    (and form) and the stream messages that brought it."""
    received = {key: [] for key in streams}
    changes = dict.fromkeys(viewers, 0)
    shown = dict.fromkeys(streams)
    for index in range(cut):
        if index:
            for side, played in zip(sides, (a, b)):
                side.execute(played.commands[index - 1])
        for (i, viewer), stream in streams.items():
            page = servers[i].client.get(viewers[viewer]).text
            found = SHOWN.search(page)
            now = (
                {"live": found.group(3), "form": found.group(2), "now": found.group(1)}
                if found
                else {"live": re.search(r'<section id="live">(.*)</section></main>', page, re.S).group(1)}
            )
            if now != shown[(i, viewer)]:
                shown[(i, viewer)] = now
                changes[viewer] += i == 0
                while not received[(i, viewer)] or received[(i, viewer)][-1] != now:
                    [(kind, data)] = events(stream, 1)
                    assert kind == "view"
                    received[(i, viewer)].append(data)
    return received, changes


# --------------------------------------------------------------------------- one hidden submission more

#: An auditor's link, the same in both databases.
AUDITOR = "auditor-link-token-0123456789abc"


def answer_of(server: Server, path: str, token: str | None) -> tuple[int, list[tuple[str, str]], bytes]:
    """Status, headers (but the date) and bytes of one answer."""
    answer = server.client.get(path, headers=bearer(token) if token else {})
    return answer.status_code, [(k, v) for k, v in answer.headers.items() if k != "date"], answer.content


@pytest.mark.guarantee("service.public-head", "service.at-own-view")
def test_one_hidden_submission_more_moves_nothing_a_non_host_viewer_gets_through_http():
    """Two databases alike but for one more round-1 submission (recorded with the same
    clock and salts, so every other byte is the same): the public and a third player,
    who may not know of it, get the same status, headers and bytes from both: the head,
    ``/public``, ``/me``, the pages, every ``?at`` from 0 to past the head (errors
    included), and the first message of each live stream.  An auditor's head tells the
    two apart, which proves they differ."""
    sample = engine.get("lca").sample(random.Random(5), n_players=3)
    played = play(sample.create, sample)
    round_1 = played.commands[: next(i for i, cmd in enumerate(played.commands) if type(cmd).__name__ == "CloseRound")]
    before = [cmd for cmd in round_1 if not isinstance(cmd, Submit)]  # the contracts
    first = next(cmd for cmd in round_1 if isinstance(cmd, Submit))
    second = next(cmd for cmd in round_1 if isinstance(cmd, Submit) and cmd.participant != first.participant)
    viewer = next(name for name in sample.create.players if name not in (first.participant, second.participant))
    with scratch() as tmp:
        sides = [Side(Path(tmp) / name) for name in ("a", "b")]
        for index, side in enumerate(sides):
            side.app.salts = lambda: ""  # the same bytes where the logs are the same
            side.create(sample.create)
            for cmd in [*before, first]:
                side.execute(cmd)
            if index:
                side.execute(second)  # hidden from the public and from the viewer
            side.finish()
            grant(side.folder / DB, MATCH, viewer, TOKEN)
            grant(side.folder / DB, MATCH, None, AUDITOR)
        servers = [Server(side.folder / DB) for side in sides]
        try:
            paths = [
                ("/api/v1/matches/m1/head", None),
                ("/api/v1/matches/m1/public", None),
                ("/m/m1", None),
                ("/api/v1/matches/m1/me", TOKEN),
                (f"/p/{TOKEN}", TOKEN),
            ]
            for path, token in list(paths):
                if "head" not in path:
                    paths += [(f"{path}?at={at}", token) for at in range(len(before) + 5)]
            for path, token in paths:
                got = [answer_of(server, path, token) for server in servers]
                assert got[0] == got[1], f"LEAK: a hidden submission changes GET {path}: {got[0][:2]} / {got[1][:2]}"
            for path in ("/m/m1/events", f"/p/{TOKEN}/events"):
                first_messages = []
                for server in servers:
                    with server.client.stream("GET", path, timeout=httpx.Timeout(10, read=10)) as stream:
                        first_messages.append(
                            (
                                stream.status_code,
                                [(k, v) for k, v in stream.headers.items() if k != "date"],
                                events(stream, 1),
                            )
                        )
                assert first_messages[0] == first_messages[1], f"LEAK: a hidden submission changes the stream {path}"
            heads = [server.client.get("/api/v1/matches/m1/head", headers=bearer(AUDITOR)).json() for server in servers]
        finally:
            for server in servers:
                server.stop()
    assert [head["seq"] for head in heads] == [len(before) + 2, len(before) + 3]  # the full head tells them apart
