"""Privacy by noninterference, one harness (tests/trust/privacy/harness_read_models.py) for the three
games: random legal matches, a secret perturbed, every view of one viewer compared
byte for byte after every event.  Plus, for Parallel Worlds: no public output at any
`--at` names a guest (so none can name a pair)."""

from __future__ import annotations

import json
import random
import re

import pytest

from matchledger.engine.commands import CloseRound, CreateMatch, RecordContract, Submit
from matchledger.engine.state import PUBLIC
from matchledger.projections.fold import Replayer
from matchledger.projections.presentation.text import read_model_text
from matchledger.projections.views import all_read_models
from tests.helpers import REPO, invoke, run_script
from tests.trust.privacy.harness_read_models import assert_noninterference, play

# Long, like the suites under tests/reliability/ (which get the marker from their folder):
# `-m "not reliability"` leaves it out.
pytestmark = pytest.mark.reliability

SEEDS = range(12)


def total(stats_list):
    """(seqs compared, seqs compared after the logs parted, seqs where the host's views differed)."""
    return (
        sum(s.compared for s in stats_list),
        sum(s.after_divergence for s in stats_list),
        sum(s.host_differs for s in stats_list),
    )


# --------------------------------------------------------------------------- lca


def lca_match(rng):
    """A random legal lca match (the plans of tests/trust/privacy/test_lca_indistinguishable), as commands."""
    from matchledger.engine.lca.studio import cell_name
    from tests.trust.privacy.test_lca_indistinguishable import CONTRACTS, FLOOR, PLAYERS, STUDIO, TRIPLES

    def actions(p, perm):
        def choose(state):
            lit = {cell_name(c) for c in state.g.lights.owner}
            return Submit(p, [c for c in perm if c not in lit][:3])

        return choose

    cmds = [RecordContract(p, rng.choice(CONTRACTS)) for p in PLAYERS]
    cmds += [Submit(p, rng.sample(FLOOR, 5)) for p in PLAYERS] + [CloseRound()]
    cmds += [Submit(p, rng.choice(TRIPLES)) for p in PLAYERS] + [CloseRound()]
    cmds += [actions(p, rng.sample(FLOOR, len(FLOOR))) for p in PLAYERS] + [CloseRound()]
    create = CreateMatch(match_id="m1", game="lca", players=list(PLAYERS), setup={"studio": STUDIO})
    return create, cmds


def lca_alternative(rng, p, index, cmds):
    """Another legal command of the same kind as ``cmds[index]`` by player ``p``, drawn
    from ``rng`` (a callable choosing at play time for Round-3 actions)."""
    from matchledger.engine.lca.studio import cell_name
    from tests.trust.privacy.test_lca_indistinguishable import CONTRACTS, FLOOR, TRIPLES

    if isinstance(cmds[index], RecordContract):
        return RecordContract(p, rng.choice(CONTRACTS))
    round_no = sum(isinstance(c, CloseRound) for c in cmds[:index]) + 1
    if round_no == 1:
        return Submit(p, rng.sample(FLOOR, 5))
    if round_no == 2:
        return Submit(p, rng.choice(TRIPLES))
    perm = rng.sample(FLOOR, len(FLOOR))
    return lambda state: Submit(p, [c for c in perm if c not in {cell_name(x) for x in state.g.lights.owner}][:3])


@pytest.mark.parametrize("viewer", ["ann", "dan", "public"])
@pytest.mark.guarantee("privacy.lca-superseded")
def test_lca_superseded_submissions_and_contracts_of_others_are_invisible(viewer):
    """Another player's superseded submission (any round) or superseded contract: the
    real command follows it, so it never counts, and nobody but the host may see it."""
    results = []
    for seed in SEEDS:
        rng = random.Random(seed)
        create, cmds = lca_match(rng)
        owners = {i: getattr(c, "participant", None) for i, c in enumerate(cmds)}
        owners.update({i: c.__closure__ and _owner(c) for i, c in enumerate(cmds) if callable(c)})
        i = rng.choice([i for i, p in owners.items() if p and p != viewer])
        p = owners[i]
        alt_a = lca_alternative(random.Random(f"{seed}a"), p, i, cmds)
        alt_b = lca_alternative(random.Random(f"{seed}b"), p, i, cmds)
        results.append(
            assert_noninterference(
                lambda: (create, cmds[:i] + [alt_a] + cmds[i:]),
                lambda: (create, cmds[:i] + [alt_b] + cmds[i:]),
                viewer,
            )
        )
    compared, parted, host_differs = total(results)
    assert compared >= 12 * 15 and parted > 0 and host_differs > 0, (compared, parted, host_differs)


def _owner(chooser):
    return next(c.cell_contents for c in chooser.__closure__ if isinstance(c.cell_contents, str))


# --------------------------------------------------------------------------- pw


def swapped_targets(tokens):
    """The same two actions aimed at each other's target (legal for the same submitter)."""

    def split(tok):
        kind, _, rest = tok.partition(":")
        target, eq, extra = rest.partition("=")
        return kind, target, eq + extra

    (k1, t1, x1), (k2, t2, x2) = split(tokens[0]), split(tokens[1])
    return [f"{k1}:{t2}{x1}", f"{k2}:{t1}{x2}"]


@pytest.mark.parametrize("viewer", ["ann", "zed-partner", "public"])
@pytest.mark.guarantee("privacy.pw-superseded")
def test_pw_superseded_submissions_of_others_are_invisible(viewer):
    from matchledger.engine.pw.sample import plan

    results = []
    for seed in SEEDS:
        rng = random.Random(seed)
        create, cmds = plan(rng, n=4)
        who = viewer
        if viewer == "zed-partner":  # a guest viewer
            who = create.setup["pairs"]["ann"]
        subs = [i for i, c in enumerate(cmds) if isinstance(c, Submit) and c.participant != who]
        i = rng.choice(subs)
        real = cmds[i]
        decoy = Submit(real.participant, swapped_targets(real.tokens))  # guesses dropped too
        results.append(
            assert_noninterference(
                lambda: (create, cmds[:i] + [real] + cmds[i:]),
                lambda: (create, cmds[:i] + [decoy] + cmds[i:]),
                who,
            )
        )
    compared, parted, _ = total(results)
    assert compared >= 12 * 20 and parted >= 12, (compared, parted)


@pytest.mark.guarantee("privacy.pw-exchanged-guests")
def test_pw_other_pairs_exchanging_guests_is_invisible_until_told():
    from matchledger.engine.pw.sample import GUESTS, PLAYERS
    from tests.trust.privacy.test_pw_indistinguishable import N, exchanged_pair

    results = []
    for seed in SEEDS:
        rng = random.Random(seed)
        create1, create2, cmds, involved = exchanged_pair(rng, plain=seed % 2 == 0)
        for viewer in [x for x in PLAYERS[:N] + GUESTS[:N] if x not in involved] + ["public"]:
            results.append(
                assert_noninterference(lambda: (create1, cmds), lambda: (create2, cmds), viewer, until_told=True)
            )
    compared, parted, host_differs = total(results)
    assert compared >= 12 * 20 and parted > 0 and host_differs > 0, (compared, parted, host_differs)


def names_a_guest(text: str, guests) -> list[str]:
    return [g for g in guests if re.search(rf"(?<![a-z]){re.escape(g)}(?![a-z])", text)]


@pytest.mark.guarantee("privacy.pw-public-names-no-guest")
def test_pw_public_read_models_never_name_a_guest_at_any_seq():
    from matchledger.engine.pw.sample import plan

    checked = 0
    for seed in SEEDS:
        create, cmds = plan(random.Random(seed), n=5)
        m = play(create, cmds)
        guests = sorted(create.setup["pairs"].values())
        replayer = Replayer(create.match_id)
        for seq, event in m.pairs():
            state = replayer.feed(seq, event)
            for key, data in all_read_models(state).items():
                if key.endswith(":public"):
                    name = key.split(":")[0]
                    text = json.dumps(data) + read_model_text("pw", name, data, PUBLIC)
                    assert names_a_guest(text, guests) == [], f"seed {seed} seq {seq} {key}: {text}"
                    checked += 1
    assert checked >= 12 * 30 * 4


@pytest.mark.guarantee("privacy.pw-public-names-no-guest")
def test_pw_public_cli_output_never_names_a_guest_at_any_at(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    db = tmp_path / "pw.db"
    script = REPO / "fixtures" / "pw" / "swap_one_member.txt"
    run_script(db, script)
    match = next(line.split()[2] for line in script.read_text().splitlines() if line.startswith("new "))
    pairs = dict(w.split("=") for w in script.read_text().split() if "=" in w and not w.startswith("--"))
    guests = sorted(v for k, v in pairs.items() if k.isalpha() and v.isalpha())
    assert len(guests) == 7
    head = int(invoke(db, "head", match).stdout.split(":")[0])
    for at in range(1, head + 1):
        for command in ("status", "scores", "outcome", "reveals"):
            out = invoke(db, command, match, "--public", "--json", "--at", at).stdout
            assert names_a_guest(out, guests) == [], f"{command} --public --at {at}: {out}"
        text = invoke(db, "reveals", match, "--public", "--at", at).stdout
        assert names_a_guest(text, guests) == [], text
    # ... while the host's view does name them (the check can fail).
    assert names_a_guest(invoke(db, "outcome", match, "--json").stdout, guests)


# --------------------------------------------------------------------------- photographer


def photographer_pair(rng, n_players, viewer, moves_seed):
    """Two samples whose decks differ by swapping two cards ``viewer`` has not seen at the
    deal, their moves drawn from the same seed."""
    from matchledger.engine.photographer import GAME
    from matchledger.engine.photographer.cards import (
        HAND_SIZE,
        TABLE_COLUMNS,
        TABLE_ROWS,
        all_cards,
        colours_for,
        shown,
    )
    from matchledger.engine.photographer.sample import PLAYERS

    players = PLAYERS[:n_players]
    deck = all_cards(colours_for(n_players))
    rng.shuffle(deck)
    table = TABLE_ROWS[n_players] * TABLE_COLUMNS
    face_down = [i for i in range(table) if i % TABLE_COLUMNS in (1, 2)]
    hands = {p: range(table + HAND_SIZE * s, table + HAND_SIZE * (s + 1)) for s, p in enumerate(players)}
    hidden = (
        face_down
        + [i for p, r in hands.items() if p != viewer for i in r]
        + list(range(table + HAND_SIZE * n_players, len(deck)))
    )
    while True:
        i, j = rng.sample(hidden, 2)
        if (i not in face_down and j not in face_down) or shown(deck[i], False, False) == shown(deck[j], False, False):
            break
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    return [
        GAME.sample(random.Random(moves_seed), n_players=n_players, deck="\n".join(d) + "\n", options={})
        for d in (deck, other)
    ]


@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.guarantee("privacy.photographer-unseen-cards")
def test_photographer_unseen_cards_are_invisible_until_told(n_players):
    from matchledger.engine.photographer.sample import PLAYERS

    results = []
    for seed in SEEDS:
        rng = random.Random(seed)
        viewer = rng.choice(PLAYERS[:n_players] + ["public"])
        # The moves are drawn from public facts and a seeded rng only, so both matches
        # receive the same moves for as long as the public facts agree.
        sample_a, sample_b = photographer_pair(rng, n_players, viewer, moves_seed=seed)
        results.append(
            assert_noninterference(
                lambda: (sample_a.create, sample_a), lambda: (sample_b.create, sample_b), viewer, until_told=True
            )
        )
    compared, parted, host_differs = total(results)
    assert compared >= 12 * 5 and parted > 0 and host_differs > 0, (compared, parted, host_differs)
