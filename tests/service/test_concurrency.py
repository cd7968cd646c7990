"""Many participants at once: three lca matches (the eleven-player card, under three ids)
in one database, played in parallel.  In each round the ten participants with links
submit at the same instant (a barrier) and read `/me`, their page and the public
answer around it, while the host, from command-line processes, submits for the one
without a link (kim) and closes the rounds of the other matches.  Readers poll the
whole time.  Afterwards `verify` passes, every submission answered 201 is in the log
exactly once as its participant's own event with its receipt, nothing else is, and
each match ends as the card played on the command line ends.

Every core of the machine is kept busy meanwhile (issue 29): on a quiet machine the
servers and the host's processes rarely overlap enough to race, and with both cores busy
the host's `submit` on PostgreSQL lost to the participants' before it was decided again
on a conflict.  CI runs it so, on every run.

The same on PostgreSQL with two `serve` processes on one database (issue 17: several
hosts and a fleet of servers, one ledger): each participant is answered by one of the
two, the host's commands race both, and the same checks hold."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import httpx
import pytest

from tests.helpers import invoke

from .support import Server, bearer, cli_json, invite
from .test_whole_match import CARD, card_lines

MATCHES = ("c1", "c2", "c3")
HOST_ONLY = "kim"  # no link: the host types kim's moves, racing the participants


def host(db, *args: str) -> None:
    """The host's command, run as the host runs it: another process."""
    done = subprocess.run(
        [sys.executable, "-m", "matchledger", "--db", str(db), *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)


#: A process that does nothing but compute, at the priority the servers run at.
BURNER = "while True: pass"


@pytest.fixture
def every_core_busy() -> Iterator[list[subprocess.Popen]]:
    """One CPU-bound process per core, at normal priority, for the test's duration, and
    always stopped after it (by their own ids), whatever happened."""
    burners: list[subprocess.Popen] = []
    try:
        for _ in range(os.cpu_count() or 2):
            burners.append(subprocess.Popen([sys.executable, "-c", BURNER]))
        yield burners
    finally:
        for burner in burners:
            burner.kill()
        for burner in burners:
            burner.wait()


def rounds(lines: list[list[str]]) -> list[tuple[dict[str, list[str]], list[str]]]:
    """Each round of the card: its submissions by participant, and the close that ends it
    (its options: the card's first close is forced, kim having forgotten Round 1)."""
    found: list[tuple[dict[str, list[str]], list[str]]] = []
    submissions: dict[str, list[str]] = {}
    for args in lines:
        if args[0] == "submit":
            submissions[args[2]] = args[3:]
        elif args[0] == "close":
            found.append((submissions, args[2:]))
            submissions = {}
    return found


@pytest.fixture(params=["sqlite-one-server", "postgresql-two-servers"])
def backend_and_servers(request, tmp_path) -> tuple[object, int]:
    """The database, and how many `serve` processes answer from it."""
    if request.param == "sqlite-one-server":
        return tmp_path / "busy.db", 1
    return request.getfixturevalue("postgres_url"), 2


@pytest.mark.guarantee("service.concurrent")
def test_many_participants_submitting_and_reading_while_the_host_closes_rounds_lose_and_duplicate_nothing(
    backend_and_servers, tmp_path, every_core_busy
):
    db, server_count = backend_and_servers
    lines = card_lines()
    card_rounds = rounds(lines)
    for match in MATCHES:
        for args in lines:
            if args[0] in ("new", "contract"):
                invoke(db, *[match if word == "card11" else word for word in args])
    players = [name for name in card_rounds[1][0] if name != HOST_ONLY]
    links = {
        (match, name): invite(db, match, "--as", name, "--submit")["token"] for match in MATCHES for name in players
    }

    answered: list[tuple[str, str, int, str, list[str]]] = []  # (match, who, seq, hash, tokens)
    answered_by: set[str] = set()  # which servers recorded a submission
    problems: list[str] = []
    stop_reading = threading.Event()

    with ExitStack() as servers:
        running = [servers.enter_context(Server(db, poll=0.05, folder=tmp_path)) for _ in range(server_count)]
        urls = [server.url for server in running]

        def url_of(who: str) -> str:  # each participant's link is answered by one server
            return urls[players.index(who) % len(urls)]

        def participant(
            clients: dict[str, httpx.Client], match: str, who: str, tokens: list[str], start: threading.Barrier
        ) -> None:
            client = clients[url_of(who)]
            token = links[(match, who)]
            before = client.get(f"/api/v1/matches/{match}/me", headers=bearer(token))
            start.wait(timeout=30)
            answer = client.post(f"/api/v1/matches/{match}/submissions", json={"tokens": tokens}, headers=bearer(token))
            if answer.status_code != 201:
                problems.append(f"{match} {who}: {answer.status_code} {answer.text}")
                return
            receipt = answer.json()
            answered.append((match, who, receipt["seq"], receipt["hash"], tokens))
            answered_by.add(url_of(who))
            page = client.get(f"/p/{token}")  # read your own write: the receipt is on the page at once
            if (
                before.status_code != 200
                or page.status_code != 200
                or f"{receipt['seq']}:{receipt['hash']}" not in page.text
            ):
                problems.append(f"{match} {who}: /me {before.status_code}, page {page.status_code} without its receipt")

        def play(match: str) -> None:
            with ExitStack() as opened, ThreadPoolExecutor(len(players) + 1) as pool:
                clients = {
                    url: opened.enter_context(
                        httpx.Client(base_url=url, timeout=30, limits=httpx.Limits(max_connections=16))
                    )
                    for url in urls
                }
                for submissions, closing in card_rounds:
                    start = threading.Barrier(len(players))
                    waiting = [
                        pool.submit(participant, clients, match, who, submissions[who], start) for who in players
                    ]
                    if HOST_ONLY in submissions:
                        waiting.append(pool.submit(host, db, "submit", match, HOST_ONLY, *submissions[HOST_ONLY]))
                    for future in waiting:
                        future.result()
                    host(db, "close", match, *closing)  # races the other matches' participants

        def reader(match: str, who: str) -> None:
            with httpx.Client(base_url=url_of(who), timeout=30) as client:
                while not stop_reading.is_set():
                    for path, headers in (
                        (f"/api/v1/matches/{match}/me", bearer(links[(match, who)])),
                        (f"/api/v1/matches/{match}/public", {}),
                        (f"/m/{match}", {}),
                    ):
                        answer = client.get(path, headers=headers)
                        if answer.status_code != 200:
                            problems.append(f"reading {path}: {answer.status_code} {answer.text[:200]}")

        readers = [
            threading.Thread(target=reader, args=(match, who)) for match in MATCHES for who in players[:server_count]
        ]
        for thread in readers:
            thread.start()
        try:
            with ThreadPoolExecutor(len(MATCHES)) as matches:
                for played in [matches.submit(play, match) for match in MATCHES]:
                    played.result()
        finally:
            stop_reading.set()
            for thread in readers:
                thread.join()
        assert [server.stop() for server in running] == [0] * server_count
    assert [burner.poll() for burner in every_core_busy] == [None] * len(every_core_busy)  # busy to the end

    assert problems == []
    assert answered_by == set(urls)
    invoke(db, "verify", "--all")
    reference = tmp_path / "reference.db"
    invoke(reference, "script", CARD)
    expected_outcome = cli_json(reference, "outcome", "card11", "--public")
    for match in MATCHES:
        recorded = [
            (
                row["event"]["participant"],
                row["actor"],
                row["event"]["round"],
                row["seq"],
                row["hash"],
                row["event"]["tokens"],
            )
            for row in cli_json(db, "log", match)
            if row["kind"] == "SubmissionRecorded"
        ]
        # each round's submissions, once each: the card's, whoever typed them
        assert sorted((who, number, tokens) for who, _actor, number, _seq, _hash, tokens in recorded) == sorted(
            (who, number, tokens)
            for number, (submissions, _close) in enumerate(card_rounds, start=1)
            for who, tokens in submissions.items()
        )
        # every 201 is there once, as its participant's own event with its receipt, and no other event is theirs
        theirs = sorted(
            (who, seq, digest, tokens) for who, actor, _number, seq, digest, tokens in recorded if actor == who
        )
        mine = sorted((who, seq, digest, tokens) for (m, who, seq, digest, tokens) in answered if m == match)
        assert theirs == mine and len(mine) == len(players) * len(card_rounds)
        assert all(actor != HOST_ONLY for _who, actor, *_rest in recorded)
        assert cli_json(db, "outcome", match, "--public") | {"match": "card11"} == expected_outcome
