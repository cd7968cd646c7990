"""Nobody sees what they may not, through every output the command line gives a viewer.

For each game, two random legal matches that differ only in a secret (hypothesis draws
the match, the viewers and the secret's change), recorded into two databases and read
through the real CLI by the public and by each kind of participant: every read form at
every ``--at SEQ`` (text and ``--json``), pictures at a sample of seqs, the replay page,
and the errors the viewer provokes.  The harness and what it compares, and the one
exception (hashes), are described in :mod:`tests.trust.noninterference`.

- pw: the pairing permuted (guests renamed among the pairs the viewer is not in, by a
  permutation hypothesis draws; the other participants' commands follow their names),
  and two other pairs exchanging guests under the very same commands (the sampler's
  ``pairs``/``forbid``/``twin`` knobs);
- photographer: two cards the viewer has not seen, with the same back, swapped (deck,
  other hands, face-down table cards);
- lca: which of two other players placed each light, pointed each camera and named each
  action (their submissions, and contracts, exchanged).

Each test runs its hypothesis examples inside (derandomized under CI; MATCHLEDGER_SOAK=N
runs N times as many; no shrinking: an example costs about a second, and a failure
already names the viewer, the command and the first differing line), then asserts over
all of them that the comparison was not vacuous: many seqs compared after the two logs
had parted and while the host's views differed.

Cost (2 cores): the text and JSON forms at every seq; an
SVG at the first seq, the head and one seq in every eight; the HTML report, every error
and ``head`` at the head; the viewer's rejected submissions after every command.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from matchledger.engine.commands import CreateMatch, RecordContract, Submit
from matchledger.ledger.events import OutcomeAnnounced, RoundClosed, TurnResolved

from matchledger import engine

from tests.reliability.support import soak

from .noninterference import (
    PUBLIC,
    Plan,
    Played,
    Probe,
    Stats,
    compare_all,
    compare_pair,
    play,
    scratch,
)



def examples(n: int):
    """``n`` examples (times MATCHLEDGER_SOAK for a longer run), no shrinking."""
    return settings(
        max_examples=n * soak(),
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def announces(played: Played, index: int) -> bool:
    """Whether command ``index`` (in ``batches``) writes an announcement."""
    return any(isinstance(e, (RoundClosed, TurnResolved, OutcomeAnnounced)) for e in played.batches[index])


def last_close(played: Played) -> int:
    return max(i for i in range(len(played.batches)) if any(isinstance(e, OutcomeAnnounced) for e in played.batches[i]))


# --------------------------------------------------------------------------- rejected submissions, per game


def pw_candidates(rng: random.Random, state, viewer: str) -> list[list[str]]:
    from matchledger.engine.pw.notation import TYPES

    names = list(state.participants) + ["nobody", viewer, state.g.partner[viewer]]
    types = list(TYPES) + ["bogus"]

    def action():
        kind, target = rng.choice(types), rng.choice(names)
        return f"predict:{target}={rng.choice(types)}" if kind == "predict" else f"{kind}:{target}"

    out = []
    for _ in range(8):
        tokens = [action() for _ in range(rng.choice([1, 2, 2, 2, 3]))]
        if rng.random() < 0.4:
            tokens.append(f"guess:{rng.choice(names)}={rng.choice(names)}")
        out.append(tokens)
    return out


def lca_candidates(rng: random.Random, state, viewer: str) -> list[list[str]]:
    rows = state.g.studio.rows
    letters = [chr(ord("A") + i) for i in range(len(rows[0]) + 1)]

    def cell():
        return f"{rng.choice(letters)}{rng.randint(0, len(rows) + 1)}"

    size = {1: 5, 2: 3}.get(state.round, 3)
    out = []
    for _ in range(6):
        tokens = [cell() for _ in range(size + rng.choice([-1, 0, 0, 0, 1]))]
        if rng.random() < 0.3 and tokens:
            tokens[-1] = tokens[0]
        out.append(tokens)
    return out


def photographer_candidates(rng: random.Random, state, viewer: str) -> list[list[str]]:
    out = []
    for _ in range(6):
        wind = ["wind", f"{rng.randint(0, 7)}:{rng.randint(0, 8)}"]
        take = ["take", str(rng.randint(0, 5)), rng.choice(["left", "right", "up"]), str(rng.randint(0, 4))]
        out.append(rng.choice([take + wind, take, wind, take[:2] + wind]))
    return out


# --------------------------------------------------------------------------- pw


def pw_rename(cmds, tau: dict[str, str], keep: str | None):
    """``cmds`` with every guest name ``g`` written ``tau[g]`` (submitters, targets,
    guesses), except the commands of ``keep`` (the viewer's own stay as they are)."""

    def name(x):
        return tau.get(x, x)

    def token(tok):
        kind, _, rest = tok.partition(":")
        target, eq, extra = rest.partition("=")
        if kind == "guess":
            return f"guess:{name(target)}={name(extra)}"
        return f"{kind}:{name(target)}{eq}{extra}"

    out = []
    for cmd in cmds:
        if isinstance(cmd, Submit) and cmd.participant != keep:
            cmd = Submit(name(cmd.participant), [token(t) for t in cmd.tokens])
        out.append(cmd)
    return out


def pw_create(create: CreateMatch, pairs: dict[str, str]) -> CreateMatch:
    return CreateMatch(match_id=create.match_id, game="pw", players=list(create.players), options=dict(create.options),
                       setup={"pairs": dict(pairs)})


def test_pw_pairing_permuted_among_other_pairs_is_invisible_in_every_output():
    """The guests of the pairs a viewer is not in are permuted (a permutation hypothesis
    draws, not only an exchange of two): B is A with every guest renamed, the other
    participants' commands following their names, the viewer's own commands as they
    are.  For the public, B is A renamed, so the public is told exactly the same
    through the whole match and every public output must be equal to the end."""
    from matchledger.engine.pw.sample import plan

    results: list[Stats] = []

    @examples(3)
    @given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([4, 5]), data=st.data())
    def run(seed, n, data):
        create, cmds = plan(random.Random(seed), n=n)
        pairs = create.setup["pairs"]
        player = data.draw(st.sampled_from(create.players), label="player viewer")
        guest = data.draw(st.sampled_from(sorted(pairs[p] for p in create.players if p != player)), label="guest viewer")
        movable = sorted(g for g in pairs.values() if g not in (pairs[player], guest))
        image = data.draw(st.permutations(movable).filter(lambda p: list(p) != movable), label="permutation")
        tau = dict(zip(movable, image))
        a = play(create, cmds)
        b_create = pw_create(create, {p: tau.get(g, g) for p, g in pairs.items()})
        with scratch() as tmp:
            for viewer in (PUBLIC, player, guest):
                b = play(b_create, pw_rename(cmds, tau, keep=None if viewer == PUBLIC else viewer))
                stats = compare_pair(Path(tmp), a, b, viewer, Plan(probe=Probe(pw_candidates), seed=seed))
                if viewer == PUBLIC:
                    assert stats.cut is None, "the public was told something different: the renaming is not one"
                elif stats.cut is not None:
                    assert announces(a, stats.cut), stats
                results.append(stats)

    run()
    public = [s for s in results if s.viewer == PUBLIC]
    participants = [s for s in results if s.viewer != PUBLIC]
    # The public compared every seq of every match, the final outcome included.
    assert all(s.compared == s.head and s.host_differs == s.head for s in public), public
    assert sum(s.parted for s in participants) >= 60, participants
    assert sum(s.probes for s in participants) >= 50, participants


def test_pw_two_other_pairs_exchanging_guests_is_invisible_in_every_output():
    """Pairs p and q exchange guests under the very same commands (legal under both
    pairings: the sampler gives p and q one type schedule and keeps every target legal
    under both), p, q and their guests other than the viewers."""
    from matchledger.engine.pw.sample import GUESTS, PLAYERS, plan

    results: list[Stats] = []

    @examples(2)
    @given(seed=st.integers(0, 2**32 - 1), data=st.data())
    def run(seed, data):
        n = 5
        players = PLAYERS[:n]
        guests = data.draw(st.permutations(GUESTS[:n]), label="guests")
        pairs1 = dict(zip(players, guests))
        player = data.draw(st.sampled_from(players), label="player viewer")
        guest = data.draw(st.sampled_from([pairs1[x] for x in players if x != player]), label="guest viewer")
        others = [x for x in players if x != player and pairs1[x] != guest]
        p, q = data.draw(st.permutations(others), label="exchanging pairs")[:2]
        gp, gq = pairs1[p], pairs1[q]
        pairs2 = {**pairs1, p: gq, q: gp}
        forbid = {p: {gq}, q: {gp}, gp: {q}, gq: {p}}
        create, cmds = plan(random.Random(seed), n=n, pairs=pairs1, forbid=forbid, twin=(p, q))
        a, b = play(create, cmds), play(pw_create(create, pairs2), cmds)
        with scratch() as tmp:
            stats = compare_all(Path(tmp), a, b, [PUBLIC, player, guest],
                                Plan(probe=Probe(pw_candidates), seed=seed))
        # Type counts do not depend on the pairing: the public can only be told at the end.
        assert stats[PUBLIC].cut in (None, last_close(a)), stats[PUBLIC]
        for s in stats.values():
            assert s.cut is None or announces(a, s.cut), s
        results.extend(stats.values())

    run()
    assert sum(s.host_differs for s in results) >= 150, results
    assert sum(s.compared for s in results if s.viewer == PUBLIC) >= 2 * 30, results


# --------------------------------------------------------------------------- lca


def lca_exchanged(cmds, u: str, v: str, contracts: bool):
    """``cmds`` with players u and v exchanging every submission (and, with
    ``contracts``, their contracts): who placed each light, pointed each camera and
    named each action is exchanged, every cell stays the same."""
    swap = {u: v, v: u}
    out = []
    for cmd in cmds:
        if isinstance(cmd, Submit) and cmd.participant in swap:
            cmd = Submit(swap[cmd.participant], list(cmd.tokens))
        elif contracts and isinstance(cmd, RecordContract) and cmd.participant in swap:
            cmd = RecordContract(swap[cmd.participant], list(cmd.names))
        out.append(cmd)
    return out


def test_lca_ownership_exchanged_between_two_other_players_is_invisible_in_every_output():
    """Two other players exchange their submissions (and sometimes their contracts) in
    every round of a random match from the sampler (notes, amendments, resubmissions,
    voids, corrections, reopenings, early closes included).  Every light, camera and
    action stays where it is; only who owns it changes.  The rules tell it (the final
    table) only at the last close, so everything before it must be equal."""
    results: list[Stats] = []

    @examples(3)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5), contracts=st.booleans(), data=st.data())
    def run(seed, n, contracts, data):
        sample = engine.get("lca").sample(random.Random(seed), n_players=n)
        a = play(sample.create, sample)
        u, v, w = data.draw(st.permutations(sample.create.players), label="u, v, viewer")[:3]
        b = play(sample.create, lca_exchanged(a.commands, u, v, contracts))
        with scratch() as tmp:
            stats = compare_all(Path(tmp), a, b, [PUBLIC, w], Plan(probe=Probe(lca_candidates), seed=seed))
        for s in stats.values():
            assert s.cut in (None, last_close(a)), s
        results.extend(stats.values())

    run()
    assert sum(s.parted for s in results) >= 60, results
    assert sum(s.host_differs for s in results) >= 60, results
    assert sum(s.probes for s in results) >= 30, results


# --------------------------------------------------------------------------- photographer


def photographer_decks(rng: random.Random, n: int, viewer: str, choose):
    """A shuffled deck, and the same with two cards ``viewer`` has not seen at the deal
    (the deck, other hands, face-down table cards) and that show the same back
    (colour and range) exchanged: ``choose`` picks the two positions."""
    from matchledger.engine.photographer.cards import (
        FACE_UP_COLUMNS,
        HAND_SIZE,
        TABLE_COLUMNS,
        TABLE_ROWS,
        all_cards,
        colours_for,
        shown,
    )
    from matchledger.engine.photographer.sample import PLAYERS

    deck = all_cards(colours_for(n))
    rng.shuffle(deck)
    table = TABLE_ROWS[n] * TABLE_COLUMNS
    face_down = [i for i in range(table) if i % TABLE_COLUMNS + 1 not in FACE_UP_COLUMNS]
    seat = PLAYERS.index(viewer) if viewer in PLAYERS else None
    own = range(table + HAND_SIZE * seat, table + HAND_SIZE * (seat + 1)) if seat is not None else range(0)
    hidden = face_down + [i for i in range(table, len(deck)) if i not in own]
    pairs = [(i, j) for i in hidden for j in hidden if i < j and shown(deck[i], False, False) == shown(deck[j], False, False)]
    i, j = choose(pairs)
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    return deck, other


def test_photographer_unseen_cards_of_one_back_exchanged_are_invisible_in_every_output():
    """Two cards the viewer has not seen, with the same back, exchanged; both matches'
    moves drawn from one seed (the sampler chooses from public facts only).  Compared
    until a card the viewer is told about differs."""
    from matchledger.engine.photographer import GAME
    from matchledger.engine.photographer.sample import PLAYERS

    results: list[Stats] = []

    @examples(4)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), wind=st.booleans(), data=st.data())
    def run(seed, n, wind, data):
        viewer = data.draw(st.sampled_from(PLAYERS[:n]), label="viewer")
        deck_a, deck_b = photographer_decks(
            random.Random(seed), n, viewer, lambda pairs: data.draw(st.sampled_from(pairs), label="swapped positions")
        )
        options = {} if wind else {"wind_required": "false"}
        samples = [GAME.sample(random.Random(seed), n_players=n, deck="\n".join(d) + "\n", options=options)
                   for d in (deck_a, deck_b)]
        a, b = (play(s.create, s) for s in samples)
        with scratch() as tmp:
            stats = compare_all(Path(tmp), a, b, [PUBLIC, viewer],
                                Plan(probe=Probe(photographer_candidates), seed=seed))
        for s in stats.values():
            assert s.cut is None or announces(a, s.cut), s
        results.extend(stats.values())

    run()
    assert sum(s.compared for s in results) >= 80, results
    assert sum(s.host_differs for s in results) >= 80, results
    assert sum(s.probes for s in results) >= 20, results
