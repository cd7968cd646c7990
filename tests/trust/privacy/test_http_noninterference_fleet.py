"""Noninterference through HTTP against a fleet (issue 29): the comparison of
``test_http_noninterference.py`` with each side's database on PostgreSQL (a schema of
the throwaway server) and each side served by TWO `serve` processes that learn of the
host's commands by pushed changes (LISTEN/NOTIFY; their poll is as slow as it may be).

The viewer's requests alternate between a side's two processes, crossed: the k-th
request goes to process k % 2 of world A and to the other process of world B, so the
bytes either process gives must be the same in both worlds, and the same as the other
process would give.  Each viewer's live stream is held open on one process (A's first,
B's second) while the host records the match command by command from this process (as
its command line would); after each command, once both processes of a side know of it
(an auditor's link reads their heads), the viewer's page is read from the other process
and the stream must bring exactly that change, in both worlds alike.  Then every ``?at``,
the pages, a new stream's first message on the other process, and the submissions the
game rejects are compared, alternating.

One pw case (two other pairs exchange guests) and one lca case (two other players'
cells exchanged), each with the public and one participant as viewers."""

from __future__ import annotations

import json
import random
import re
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from matchledger import engine
from matchledger.commands.cli import cli
from matchledger.ledger.capabilities import Capability, token_hash
from matchledger.ledger.stores import open_store
from matchledger.projections.application import Application
from tests.postgres.support import listeners, until
from tests.service.support import Server, bearer, events
from tests.trust.privacy.harness_cli import ACTOR, CLOCK, MATCH, PUBLIC, Output, Played, Side, first_telling_command
from tests.trust.privacy.test_cli_noninterference import (
    _pw_exchange_case,
    lca_candidates,
    lca_exchanged,
    play,
    pw_candidates,
)
from tests.trust.privacy.test_http_noninterference import SHOWN, TOKEN, masked, rejected

#: An auditor's link in both databases: the test's own look at how far each process has read.
AUDITOR = "auditor-link-token-0123456789abc"
#: The slowest poll `serve` takes: a page that changes sooner was pushed the change.
SLOW_POLL = 10.0
#: Processes serving each side.
PROCESSES = 2


class FleetSide(Side):
    """One world: its database on PostgreSQL, recorded through the application and read
    through the command line, as :class:`Side` does with a file."""

    def __init__(self, folder: Path, url: str):
        self.folder, self.database = folder, url
        folder.mkdir(parents=True, exist_ok=True)
        self.store = open_store(url, create=True)
        self.app = Application(self.store, actor=ACTOR, clock=lambda: CLOCK)
        self.rows = []

    def run(self, args: list[str], output: str | None = None) -> Output:
        result = CliRunner().invoke(cli, ["--db", self.database, *args], catch_exceptions=False)
        return Output(result.exit_code, result.stdout, result.stderr, None)

    def view_log(self, viewer: str) -> list[dict]:
        """The viewer's log through the command line (its seqs are what ``?at`` takes)."""
        out = self.run(["log", MATCH, *(["--public"] if viewer == PUBLIC else ["--as", viewer]), "--json"])
        assert out.exit_code == 0, out.stderr
        return json.loads(out.stdout)

    def grant(self, participant: str | None, token: str) -> None:
        self.store.save_capability(
            Capability(
                token_hash=token_hash(token),
                match_id=MATCH,
                role="participant" if participant else "auditor",
                participant=participant,
                can_submit=participant is not None,
                created_at="2026-01-01T00:00:00.000000Z",
            )
        )


class Fleet:
    """Both worlds' processes, and the comparison of what a viewer gets from them."""

    def __init__(self, stack: ExitStack, sides: list[FleetSide], folder: Path):
        self.sides = sides
        self.servers = [
            [stack.enter_context(Server(side.database, folder=folder, poll=SLOW_POLL)) for _ in range(PROCESSES)]
            for side in sides
        ]
        self.asked = 0
        self.viewer = ""

    def crossed(self, k: int) -> list[Server]:
        """World A's process k % 2 and world B's other one."""
        return [self.servers[0][k % PROCESSES], self.servers[1][(k + 1) % PROCESSES]]

    def same(self, method: str, path: str, *, expect: int = 200, **kwargs) -> str:
        texts = []
        for side, server in zip(self.sides, self.crossed(self.asked)):
            answer = server.client.request(method, path, headers=bearer(TOKEN), **kwargs)
            assert answer.status_code == expect, (path, answer.status_code, answer.text[:300])
            texts.append(masked(answer.text, side))
        self.asked += 1
        assert texts[0] == texts[1], f"LEAK: {self.viewer} can tell A from B by {method} {path} (fleet)"
        return texts[0]

    def caught_up(self, head: int) -> None:
        """Wait (bounded) until every process knows of the log's ``head``."""
        for processes in self.servers:
            for server in processes:
                assert until(lambda s=server: self._head(s) == head), (server.url, head, self._head(server))

    @staticmethod
    def _head(server: Server) -> int | None:
        answer = server.client.get(f"/api/v1/matches/{MATCH}/head", headers=bearer(AUDITOR))
        return answer.json()["seq"] if answer.status_code == 200 else None


def page_of(viewer: str) -> str:
    return "/m/m1" if viewer == PUBLIC else f"/p/{TOKEN}"


def live_parts(page: str) -> dict[str, str]:
    """What a page's stream redraws: a participant's "Now", form and live part; the
    public page's live part."""
    found = SHOWN.search(page)
    if found:
        return {"live": found.group(3), "form": found.group(2), "now": found.group(1)}
    return {"live": re.search(r'<section id="live">(.*)</section></main>', page, re.S).group(1)}


def compare_fleet(postgres_databases, folder: Path, a: Played, b: Played, viewers: list[str], candidates) -> dict:
    cut = min(first_telling_command(a, b, viewer) for viewer in viewers)
    participant = next(viewer for viewer in viewers if viewer != PUBLIC)
    sides = [FleetSide(folder / name, postgres_databases.url(name)) for name in ("a", "b")]
    received: dict[tuple[int, str], list[dict]] = {(i, v): [] for i in (0, 1) for v in viewers}
    changes = dict.fromkeys(viewers, 0)
    try:
        for side, played in zip(sides, (a, b)):
            side.create(played.create)
            side.grant(participant, TOKEN)
            side.grant(None, AUDITOR)
        with ExitStack() as stack:
            fleet = Fleet(stack, sides, folder)
            database = postgres_databases.server.tests_database
            assert until(lambda: len(listeners(postgres_databases.server, database)) >= 2 * PROCESSES)
            # each stream on one process (A's first, B's second), its page read from the other
            streaming, reading = fleet.crossed(0), fleet.crossed(1)
            clients = [
                stack.enter_context(httpx.Client(base_url=server.url, timeout=httpx.Timeout(10, read=10)))
                for server in streaming
            ]
            streams = {
                (i, viewer): stack.enter_context(clients[i].stream("GET", f"{page_of(viewer)}/events"))
                for i in (0, 1)
                for viewer in viewers
            }
            shown: dict[tuple[int, str], dict | None] = dict.fromkeys(streams)
            for index in range(cut):
                if index:
                    for side, played in zip(sides, (a, b)):
                        side.execute(played.commands[index - 1])
                    fleet.caught_up(len(sides[0].store.rows(MATCH)))
                for (i, viewer), stream in streams.items():
                    now = live_parts(reading[i].client.get(page_of(viewer), headers=bearer(TOKEN)).text)
                    if now != shown[(i, viewer)]:
                        shown[(i, viewer)] = now
                        changes[viewer] += i == 0
                        while not received[(i, viewer)] or received[(i, viewer)][-1] != now:
                            [(kind, data)] = events(stream, 1)
                            assert kind == "view"
                            received[(i, viewer)].append(data)
            for side in sides:
                side.rows = side.store.rows(MATCH)
            head = len(sides[0].rows)
            assert head == len(sides[1].rows)
            for viewer in viewers:
                fleet.viewer = viewer
                api = "/api/v1/matches/m1/public" if viewer == PUBLIC else "/api/v1/matches/m1/me"
                known = {e["seq"] for e in sides[0].view_log(viewer)}
                assert known == {e["seq"] for e in sides[1].view_log(viewer)}
                for seq in range(head + 2):  # ?at: the viewer's own view's seqs, and the refusals
                    for path in (api, page_of(viewer)):
                        fleet.same("GET", path, params={"at": seq}, expect=200 if seq in known else 400)
                fleet.same("GET", api)
                fleet.same("GET", page_of(viewer))
                first = []
                for side, server in zip(sides, reading):  # a new stream, on the other process
                    with server.client.stream("GET", f"{page_of(viewer)}/events") as stream:
                        first.append(masked(repr(events(stream, 1)), side))
                assert first[0] == first[1], f"LEAK: {viewer} can tell A from B by a new stream (fleet)"
            fleet.viewer = participant
            rejected(fleet, candidates, [side.state() for side in sides])
    finally:
        for side in sides:
            side.store.close()
    for viewer in viewers:
        mine = [[masked(repr(m), side) for m in received[(i, viewer)]] for i, side in enumerate(sides)]
        assert mine[0] == mine[1], f"LEAK: {viewer}'s stream differs (fleet)"
        assert len(mine[0]) == changes[viewer], (viewer, len(mine[0]), changes[viewer])  # one message a change
    return {"cut": cut, "head": head, "changes": changes, "asked": fleet.asked}


@pytest.mark.guarantee("service.noninterference")
def test_pw_guests_exchanged_between_two_other_pairs_is_invisible_through_two_processes_a_side(
    postgres_databases, tmp_path
):
    a, b = _pw_exchange_case()
    found = compare_fleet(postgres_databases, tmp_path, a, b, [PUBLIC, "zed"], pw_candidates)
    assert found["cut"] >= 25 and found["changes"][PUBLIC] >= 3 and found["changes"]["zed"] >= 6, found


@pytest.mark.guarantee("service.noninterference")
def test_lca_cells_exchanged_between_two_other_players_is_invisible_through_two_processes_a_side(
    postgres_databases, tmp_path
):
    sample = engine.get("lca").sample(random.Random(16), n_players=4)
    a = play(sample.create, sample)
    u, v, viewer = sample.create.players[:3]
    b = play(sample.create, lca_exchanged(a.commands, u, v, True))
    found = compare_fleet(postgres_databases, tmp_path, a, b, [PUBLIC, viewer], lca_candidates)
    assert found["cut"] >= 20 and found["changes"][PUBLIC] >= 2 and found["changes"][viewer] >= 3, found
