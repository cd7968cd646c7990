"""Privacy, the heart of Parallel Worlds.

For every participant X: changing facts X cannot know (the pairing of other pairs, other
participants' actions, guesses and contracts) while X's own notices, the public counts
and the public awards stay the same leaves every view of X byte-identical.  The public
view names no guest and does not change when two pairs exchange guests (awards equal).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from matchledger.engine.commands import RecordContract, Submit
from matchledger.engine.pw import GAME
from matchledger.engine.pw.sample import GUESTS, PLAYERS, plan
from matchledger.engine.state import HOST, PUBLIC, as_participant
from tests.pw.util import dumps, play

pytestmark = pytest.mark.guarantee("privacy.views-per-game")

N = 5
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def exchanged_pair(rng: random.Random, plain: bool = False):
    """A legal match for pairing P1 and the same commands for P2, where pairs p and q
    exchange guests (same type schedules and targets legal under both pairings)."""
    players = PLAYERS[:N]
    guests = GUESTS[:N]
    rng.shuffle(guests)
    pairs1 = dict(zip(players, guests))
    p, q = rng.sample(players, 2)
    pairs2 = {**pairs1, p: pairs1[q], q: pairs1[p]}
    gp, gq = pairs1[p], pairs1[q]
    forbid = {p: {gq}, q: {gp}, gp: {q}, gq: {p}}
    create1, cmds = plan(rng, n=N, pairs=pairs1, forbid=forbid, twin=(p, q), contracts=not plain, guesses=not plain)
    create2 = type(create1)(match_id=create1.match_id, game="pw", players=create1.players, setup={"pairs": pairs2})
    return create1, create2, cmds, {p, q, gp, gq}


def perturbed_actions(rng: random.Random, create, cmds):
    """The same match with one other participant's action retargeted (still legal)."""
    pairs = create.setup["pairs"]
    partner = {**pairs, **{g: p for p, g in pairs.items()}}
    everyone = list(partner)
    subs = [i for i, c in enumerate(cmds) if isinstance(c, Submit)]
    i = rng.choice(subs)
    cmd = cmds[i]
    tokens = list(cmd.tokens)
    k = rng.randrange(2)
    kind, _, rest = tokens[k].partition(":")
    other_target = tokens[1 - k].partition(":")[2].partition("=")[0]
    choices = [x for x in everyone if x not in (cmd.participant, partner[cmd.participant], other_target)]
    new_target = rng.choice(choices)
    suffix = "=" + rest.partition("=")[2] if kind == "predict" else ""
    tokens[k] = f"{kind}:{new_target}{suffix}"
    out = list(cmds)
    out[i] = Submit(cmd.participant, tokens)
    changed = {cmd.participant}
    # Also change somebody's contract (hidden until the awards).
    for j, c in enumerate(out):
        if isinstance(c, RecordContract) and rng.random() < 0.5:
            out[j] = RecordContract(c.participant, [rng.choice(["diversity", "generosity", "espionage"])])
            changed.add(c.participant)
            break
    return out, changed


def notices(m, x):
    return [dumps(m.state.announcements[r].private[x]) for r in sorted(m.state.announcements)]


def public_facts(m):
    return dumps([m.state.announcements[r].public for r in sorted(m.state.announcements)]) + dumps(
        GAME.outcome(m.state, PUBLIC)
    )


def participant_views(m, x):
    view = as_participant(x)
    return dumps(
        {
            "knowledge": GAME.knowledge(m.state, x),
            "status": GAME.status(m.state, view),
            "scores": GAME.scores(m.state, view),
            "outcome": GAME.outcome(m.state, view),
            "reveals": GAME.reveals(m.state, view),
        }
    )


def public_views(m):
    return dumps({model: getattr(GAME, model)(m.state, PUBLIC) for model in ("status", "scores", "outcome", "reveals")})


def compare_unknowing(m1, m2, skip=()) -> int:
    """Assert identical views for every X whose own notices and public facts agree."""
    if public_facts(m1) != public_facts(m2):
        return 0
    compared = 0
    for x in m1.state.participants:
        if x in skip or notices(m1, x) != notices(m2, x):
            continue
        assert participant_views(m1, x) == participant_views(m2, x), x
        compared += 1
    return compared


def strings_in(data):
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from strings_in(v)
    elif isinstance(data, list):
        for v in data:
            yield from strings_in(v)
    elif isinstance(data, str):
        yield data


@SETTINGS
@given(st.integers(0, 10**9), st.booleans())
@pytest.mark.guarantee("privacy.pw-exchanged-guests")
def test_knowledge_unchanged_when_other_pairs_exchange_guests(seed, plain):
    rng = random.Random(seed)
    # plain: no contracts and no guesses, so that the awards stay equal more often.
    create1, create2, cmds, involved = exchanged_pair(rng, plain)
    m1, m2 = play(create1, cmds), play(create2, cmds)
    # The type counts never depend on the pairing.
    assert [m1.state.announcements[r].public for r in (1, 2, 3)] == [
        m2.state.announcements[r].public for r in (1, 2, 3)
    ]
    event(f"compared {min(compare_unknowing(m1, m2, skip=involved), 3)}+ participants")
    # Public view: names no guest, and is identical whenever the awards are.
    for m in (m1, m2):
        for text in strings_in(json.loads(public_views(m))):
            assert not any(guest in text for guest in GUESTS[:N]), text
    if GAME.outcome(m1.state, PUBLIC) == GAME.outcome(m2.state, PUBLIC):
        assert public_views(m1) == public_views(m2)


@SETTINGS
@given(st.integers(0, 10**9))
def test_knowledge_unchanged_by_others_hidden_actions(seed):
    rng = random.Random(seed)
    create, cmds = plan(rng, n=N)
    changed, who = perturbed_actions(rng, create, cmds)
    m1, m2 = play(create, cmds), play(create, changed)
    event(f"compared {min(compare_unknowing(m1, m2, skip=who), 3)}+ participants")


def test_privacy_checks_are_not_vacuous():
    # Over fixed seeds, the comparisons above really happen for many participants.
    compared = 0
    exchanged_with_equal_awards = 0
    for seed in range(30):
        rng = random.Random(seed)
        create1, create2, cmds, involved = exchanged_pair(rng, plain=seed % 2 == 0)
        m1, m2 = play(create1, cmds), play(create2, cmds)
        compared += compare_unknowing(m1, m2, skip=involved)
        exchanged_with_equal_awards += GAME.outcome(m1.state, PUBLIC) == GAME.outcome(m2.state, PUBLIC)
        create, cmds = plan(rng, n=N)
        changed, who = perturbed_actions(rng, create, cmds)
        compared += compare_unknowing(play(create, cmds), play(create, changed), skip=who)
    assert compared >= 40
    assert exchanged_with_equal_awards >= 1


def test_participant_sees_own_partner_but_no_other_pairing():
    create, cmds = plan(random.Random(3), n=N)
    m = play(create, cmds)
    pairs = create.setup["pairs"]
    for player, guest in pairs.items():
        for x, partner in ((player, guest), (guest, player)):
            k = GAME.knowledge(m.state, x)
            assert k["partner"] == partner
            # The guests list is sorted by name, never in the host-only partner order.
            assert k["guests"] == sorted(pairs.values())
            assert set(k) == {
                "match",
                "game",
                "participant",
                "role",
                "partner",
                "players",
                "guests",
                "round",
                "finished",
                "contract",
                "submissions",
                "guesses",
                "rounds",
                "points",
                "awards",
                "contracts",
            }
            # contract results name players and the players their pacts name, never a guest
            for result in k["contracts"]:
                assert set(result) <= {"participant", "contract", "target", "succeeded"}
                assert {result["participant"], result.get("target", result["participant"])} <= set(pairs)
    host_scores = GAME.scores(m.state, HOST)["participants"]
    assert [e["participant"] for e in host_scores] == m.state.participants
    assert GAME.scores(m.state, PUBLIC)["participants"] == []
