"""A whole lca match through links (issue 16, "Done when"): the host sets the match up
and closes its rounds from the command line; each of the eleven participants reads and
submits through their own link (half through the JSON API, half through their page's
form); the public follows the live page; at the end an auditor takes the log through
their link into a database of their own and verifies every participant's receipts.

The match is the card of `fixtures/lca/card-11-players.txt`: played through links, it
must end exactly as the card played on the command line ends."""

from __future__ import annotations

import re
import shlex

import httpx
import pytest

from tests.helpers import REPO, invoke

from .support import Server, bearer, cli_json, events, invite

CARD = REPO / "fixtures" / "lca" / "card-11-players.txt"
MATCH = "card11"
HEADLINE = re.compile(r'id="headline">([^<]*)<')
RECEIPT = re.compile(r'Your receipt: <code class="receipt">(\d+:[0-9a-f]{64})</code>')


def card_lines() -> list[list[str]]:
    lines = CARD.read_text().splitlines()
    return [shlex.split(line) for line in lines if line.strip() and not line.startswith("#")]


def headline(message: tuple[str, dict]) -> str:
    kind, data = message
    assert kind == "view", message
    return HEADLINE.search(data["live"]).group(1)


def submit_through_link(client: httpx.Client, link: dict, tokens: list[str], through_form: bool) -> str:
    """The participant submits as they would: their receipt, as SEQ:HASH."""
    if not through_form:
        answer = client.post(
            f"/api/v1/matches/{MATCH}/submissions", json={"tokens": tokens}, headers=bearer(link["token"])
        )
        assert answer.status_code == 201, answer.text
        return f"{answer.json()['seq']}:{answer.json()['hash']}"
    page = f"/p/{link['token']}"
    answer = client.post(page, data={"tokens": " ".join(tokens)})
    assert answer.status_code == 303, answer.text
    shown = client.get(f"{page}?{answer.headers['location'].partition('?')[2]}")
    return RECEIPT.search(shown.text).group(1)


@pytest.mark.guarantee("service.whole-match")
def test_a_whole_lca_match_through_links_ends_as_on_the_command_line_and_an_auditor_verifies_every_receipt(tmp_path):
    db = tmp_path / "host.db"
    lines = card_lines()
    players = lines[0][lines[0].index("--players") + 1].split(",")
    for args in lines:
        if args[0] in ("new", "contract"):  # the host sets the match up
            invoke(db, *args)
    links = {name: invite(db, MATCH, "--as", name, "--submit") for name in players}
    receipts: dict[str, list[str]] = {name: [] for name in players}

    with Server(db) as server, server.client.stream("GET", f"/m/{MATCH}/events") as public:
        assert headline(events(public, 1)[0]) == "round 1 (lights)"
        closes = 0
        for number, args in enumerate(lines):
            if args[0] == "submit":
                who, tokens = args[2], args[3:]
                me = server.client.get(f"/api/v1/matches/{MATCH}/me", headers=bearer(links[who]["token"]))
                assert me.status_code == 200 and me.json()["participant"] == who
                receipts[who].append(
                    submit_through_link(server.client, links[who], tokens, through_form=number % 2 == 1)
                )
            elif args[0] == "close":
                invoke(db, *args)  # the host, from the command line
                closes += 1
                # the next message is the new round: the submissions before it sent the public nothing
                assert (
                    headline(events(public, 1)[0]) == ("round 2 (cameras)", "round 3 (actions)", "finished")[closes - 1]
                )
        assert closes == 3

        public_now = server.client.get(f"/api/v1/matches/{MATCH}/public").json()
        for who, mine in receipts.items():  # each page lists its participant's receipts, and no one else's
            page = server.client.get(f"/p/{links[who]['token']}").text
            assert all(receipt in page for receipt in mine)
            assert not any(receipt in page for other, theirs in receipts.items() if other != who for receipt in theirs)

        auditor = invite(db, MATCH, "--auditor")
        export = server.client.get(f"/api/v1/matches/{MATCH}/export", headers=bearer(auditor["token"]))
        assert export.status_code == 200

    # the same card on the command line ends the same way (hal first with 375, as the card says)
    reference = tmp_path / "reference.db"
    invoke(reference, "script", CARD)
    assert public_now["outcome"] == cli_json(reference, "outcome", MATCH, "--public")
    assert public_now["outcome"]["standings"][0] | {"scores": None} == {
        "participant": "hal",
        "rank": 1,
        "total": 375,
        "scores": None,
    }
    assert sum(map(len, receipts.values())) == sum(args[0] == "submit" for args in lines) == 32

    # the auditor: the log through their link, into a database of their own, every receipt verified
    mine = tmp_path / "auditor.db"
    (tmp_path / "card11.jsonl").write_bytes(export.content)
    invoke(mine, "import", tmp_path / "card11.jsonl")
    every = [receipt for theirs in receipts.values() for receipt in theirs]
    proven = invoke(mine, "verify", MATCH, *(arg for receipt in every for arg in ("--receipt", receipt)))
    assert f"{MATCH}: 32 receipts in the verified chain" in proven.output
    by_seq = {row["seq"]: row for row in cli_json(mine, "log", MATCH)}
    for who, theirs in receipts.items():
        for receipt in theirs:
            row = by_seq[int(receipt.partition(":")[0])]
            assert (row["kind"], row["actor"], row["hash"]) == ("SubmissionRecorded", who, receipt.partition(":")[2])
    forged = every[0][:-1] + ("0" if every[0][-1] != "0" else "1")
    assert invoke(mine, "verify", MATCH, "--receipt", forged, expect=3).exit_code == 3
