"""A public hash is no test for a guess.

Every event's hash is public by design (``log --public`` lists each shown event's
``hash`` and ``prev_hash``; ``head`` and the service's ``/head`` need no token), and the
hash function is published (docs/design.md, "Events").  A hash hides a body only when the body
cannot be guessed.  The hashed envelope holds no secret salt, so where the secret part
of a body has few possible values, anyone can hash each guess and compare:

- pw: the creation event's body is public but for the pairing (``n!`` possibilities:
  5040 for the card's 7 pairs), and its own hash is shown;
- photographer: a player's winds are private (rules, "What each player may know"), but
  the submission event of a turn lies between two shown events (the previous turn and
  this turn's ``TurnResolved``), so its hash and ``prev_hash`` are both shown, and all
  of its body but the wind is public (a few dozen possibilities).

Each body is therefore recorded with a salt of its own (``Event.salt``: 128 random bits
that only the host sees), and these tests try the guesses the public could: each uses
only what a member of the public gets from the CLI, and runs under the real clock.
Recorded without salts (``salts=lambda: ""``, as before salts existed) both tests fail:
``test_without_salts_the_guesses_succeed`` keeps that proof.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from matchledger import engine
from matchledger.commands.cli import cli
from matchledger.engine.pw.sample import plan
from matchledger.ledger.codec import encode, envelope_hash
from matchledger.ledger.events import MatchCreated, SubmissionRecorded, new_salt
from matchledger.ledger.store import Store
from matchledger.projections.application import Application
from matchledger.projections.fold import InMemoryMatch

MATCH = "m1"


def public(db, *args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def confirms(entry: dict, event, seq: int, prev_hash: str, expected: str) -> bool:
    """Whether ``event``, recorded like ``entry`` (actor, time) at ``seq`` after
    ``prev_hash``, has the hash ``expected``."""
    return (
        envelope_hash(
            encode(entry["actor"]),
            encode(event),
            type(event).__name__,
            encode(MATCH),
            prev_hash,
            encode(entry["recorded_at"]),
            seq,
        )
        == expected
    )


@pytest.mark.guarantee("privacy.salted-hashes")
def test_the_public_cannot_confirm_a_pw_pairing_from_the_hash_of_the_creation_event(tmp_path):
    confirmed, truth = pairings_confirmed_by_the_public(tmp_path, new_salt)
    assert confirmed == [], f"the public confirmed the pairing {confirmed} (the truth: {truth})"


@pytest.mark.guarantee("privacy.salted-hashes")
def test_the_public_cannot_confirm_a_photographers_winds_from_the_public_log(tmp_path):
    confirmed = winds_confirmed_by_the_public(tmp_path, new_salt)
    assert confirmed == {}, f"the public confirmed these winds by turn: {confirmed}"


def test_without_salts_the_guesses_succeed(tmp_path):
    """The two tests above can fail: recorded without salts, the same guesses confirm
    the whole pairing and winds of several turns."""
    (tmp_path / "pw").mkdir()
    (tmp_path / "photographer").mkdir()
    confirmed, truth = pairings_confirmed_by_the_public(tmp_path / "pw", lambda: "")
    assert confirmed == [truth]
    assert len(winds_confirmed_by_the_public(tmp_path / "photographer", lambda: "")) >= 3


def pairings_confirmed_by_the_public(tmp_path, salts) -> tuple[list[dict], dict]:
    db = tmp_path / "m.db"
    create, cmds = plan(random.Random(11), n=6)
    application = Application(Store(db, create=True), actor="host", salts=salts)
    application.create(create)
    for cmd in cmds[:4]:
        application.execute(MATCH, cmd)
    # What the public gets: the public log, and the participants' names from an error.
    _code, out, _err = public(db, "log", MATCH, "--public", "--json")
    created = json.loads(out)[0]
    shown = created["event"]
    _code, _out, err = public(db, "status", MATCH, "--as", "?")
    names = err.rsplit("participants: ", 1)[1].rstrip(")\n").split(", ")
    guests = [name for name in names if name not in shown["players"]]
    confirmed = [
        pairs
        for guess in itertools.permutations(guests)
        if confirms(
            created,
            MatchCreated(
                game=shown["game"],
                players=shown["players"],
                options=shown["options"],
                setup={"pairs": (pairs := dict(zip(shown["players"], guess)))},
            ),
            1,
            created["prev_hash"],
            created["hash"],
        )
    ]
    return confirmed, create.setup["pairs"]


def winds_confirmed_by_the_public(tmp_path, salts) -> dict[int, str]:
    db = tmp_path / "m.db"
    sample = engine.get("photographer").sample(random.Random(3), n_players=2, seed=5, options={})
    application = Application(Store(db, create=True), actor="host", salts=salts)
    application.create(sample.create)
    match = InMemoryMatch(sample.create)
    for _ in range(12):
        cmd = sample.next_command(match.state)
        match.do(cmd)
        application.execute(MATCH, cmd)
    _code, out, _err = public(db, "log", MATCH, "--public", "--json")
    log = {entry["seq"]: entry for entry in json.loads(out)}
    _code, out, _err = public(db, "reveals", MATCH, "--public", "--json")
    turns = {turn["turn"]: turn for turn in json.loads(out)["turns"]}
    confirmed = {}
    for seq, entry in log.items():
        before = log.get(seq - 2)
        if entry["kind"] != "TurnResolved" or seq - 1 in log or before is None:
            continue
        turn = entry["event"]["turn"]
        take = turns[turn]["public"].get("take")
        took = ["take", str(take["row"]), take["end"], str(take["count"])] if take else []
        for a, b in itertools.combinations(range(1, 10), 2):
            guess = SubmissionRecorded(
                participant=entry["event"]["participant"], round=turn, tokens=took + ["wind", f"{a}:{b}"]
            )
            if confirms(entry, guess, seq - 1, before["hash"], entry["prev_hash"]):
                confirmed[turn] = f"{a}:{b}"
    return confirmed
