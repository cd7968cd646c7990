"""On random matches of every game's sampler, at every close (a sample of photographer
turns): `messages --json` is exactly what `reveals --public --json` and each
participant's `knowledge --as P --json` give (as they stood at the seq it names, which
is the close), and every fact in P's message is one of P's knowledge."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from matchledger import engine
from matchledger.ledger.store import Store
from matchledger.projections.fold import play
from matchledger.projections.presentation.messages import compose
from tests.helpers import read_json
from tests.reliability.support import soak

GAMES = [name for name in engine.names() if hasattr(engine.get(name), "sample")]
MATCH = "m1"
CLOSES = {"RoundClosed": "round", "TurnResolved": "turn"}
#: What names a message's round rather than telling a fact.
LABELS = {"round", "turn", "phase"}


def leaves(data) -> set:
    """Every scalar in ``data``, and every key of its objects."""
    if isinstance(data, dict):
        return set(map(str, data)) | set().union(*map(leaves, data.values()))
    if isinstance(data, list):
        return set().union(*map(leaves, data))
    return {data}


def facts(message: dict) -> set:
    return set().union(*(leaves(value) for key, value in message.items() if key not in LABELS))


def record(db, game: str, seed: int) -> tuple[list[str], list[dict]]:
    """A random match of ``game`` in ``db``: the participants in the canonical order
    (players, then guests, each sorted) and the host's log."""
    match = play(engine.get(game).sample(random.Random(seed), MATCH))
    store = Store(db, create=True)
    store.append(MATCH, 1, match.events, actor="host", recorded_at="2025-01-01T00:00:00.000000Z")
    store.close()
    state = match.state
    canonical = sorted(state.players) + sorted(p for p in state.participants if p not in state.players)
    return canonical, read_json(db, "log", MATCH)


def closes(log: list[dict], rng: random.Random) -> list[int]:
    """The rounds closed (photographer: the first, the last and two turns between)."""
    numbers = sorted({e["event"][CLOSES[e["kind"]]] for e in log if e["kind"] in CLOSES})
    if len(numbers) > 4:
        numbers = sorted({numbers[0], numbers[-1], *rng.sample(numbers[1:-1], 2)})
    return numbers


def closing_seq(log: list[dict], round_no: int) -> int:
    """The seq of round ``round_no``'s last close, and of what the same command recorded
    after it (the outcome, a checkpoint)."""
    index = max(i for i, e in enumerate(log) if e["kind"] in CLOSES and e["event"][CLOSES[e["kind"]]] == round_no)
    while index + 1 < len(log) and log[index + 1]["kind"] in ("OutcomeAnnounced", "StateCheckpointed"):
        index += 1
    return log[index]["seq"]


def earlier_seq(log: list[dict], round_no: int) -> int | None:
    """The seq of the close of round ``round_no`` before its last (a round reopened and
    closed again), and of what the same command recorded after it; None: closed once."""
    found = [i for i, e in enumerate(log) if e["kind"] in CLOSES and e["event"][CLOSES[e["kind"]]] == round_no]
    if len(found) < 2:
        return None
    index = found[-2]
    while index + 1 < len(log) and log[index + 1]["kind"] in ("OutcomeAnnounced", "StateCheckpointed"):
        index += 1
    return log[index]["seq"]


def built_from_read_models(db, game: str, canonical: list[str], log: list[dict], round_no: int):
    """The messages of ``round_no``, checked to be what the read models give at the
    close: those messages, the public reveals and everyone's knowledge."""
    data = read_json(db, "messages", MATCH, "--round", round_no)
    seq = data["seq"]
    assert seq == closing_seq(log, round_no), data
    public = read_json(db, "reveals", MATCH, "--public", "--at", seq)
    known = {name: read_json(db, "knowledge", MATCH, "--as", name, "--at", seq) for name in canonical}
    before = earlier_seq(log, round_no)
    earlier = None if before is None else (before, read_json(db, "reveals", MATCH, "--public", "--at", before))
    assert data == compose(MATCH, game, round_no, seq, public, known, earlier)
    return data, public, known


def check_close(db, game: str, canonical: list[str], log: list[dict], round_no: int, rng: random.Random) -> None:
    data, public, known = built_from_read_models(db, game, canonical, log, round_no)
    seq = data["seq"]
    assert list(data["participants"]) == canonical
    for name, message in data["participants"].items():
        assert facts(message) <= leaves(known[name]), (name, facts(message) - leaves(known[name]))
    assert facts(data["public"]) <= leaves(public)
    head = {key: data[key] for key in ("match", "game", "round", "seq")}
    name = rng.choice(canonical)
    assert read_json(db, "messages", MATCH, "--round", round_no, "--as", name) == {
        **head,
        "participants": {name: data["participants"][name]},
    }
    corrects = {"corrects": data["corrects"]} if "corrects" in data else {}
    assert read_json(db, "messages", MATCH, "--round", round_no, "--public") == {
        **head,
        "public": data["public"],
        **corrects,
    }
    assert read_json(db, "messages", MATCH, "--at", seq) == data  # the last close then: the same messages


@pytest.mark.guarantee("messages.from-read-models")
@pytest.mark.parametrize("game", GAMES)
def test_messages_are_what_the_public_reveals_and_each_knowledge_give_at_the_close(game, tmp_path_factory):
    @settings(
        max_examples=10 * soak(),
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(seed=st.integers(0, 2**32 - 1))
    def run(seed):
        db = tmp_path_factory.mktemp(game) / "m.db"
        canonical, log = record(db, game, seed)
        rng = random.Random(seed)
        numbers = closes(log, rng)
        assert numbers, "a sampled match closes rounds"
        for round_no in numbers:
            check_close(db, game, canonical, log, round_no, rng)

    run()


@pytest.mark.guarantee("messages.from-read-models")
@pytest.mark.parametrize("game", GAMES)
def test_the_check_fails_on_messages_built_from_another_participants_knowledge(game, tmp_path, monkeypatch):
    """Each participant's message built from the next one's knowledge (renamed) is
    caught: the check is not vacuous."""
    import msgspec

    from matchledger.projections.application import Application

    original = Application.announced

    def announced(self, *args, **kw):
        shown = original(self, *args, **kw)
        names = list(shown.knowledge)
        shifted = {
            name: {**shown.knowledge[names[(i + 1) % len(names)]], "participant": name} for i, name in enumerate(names)
        }
        return msgspec.structs.replace(shown, knowledge=shifted)

    canonical, log = record(tmp_path / "m.db", game, 3)
    monkeypatch.setattr(Application, "announced", announced)
    with pytest.raises(AssertionError, match="assert {'game'|assert {'match'"):
        built_from_read_models(tmp_path / "m.db", game, canonical, log, closes(log, random.Random(3))[-1])
