"""Nobody sees what they may not, through every output the command line gives a viewer.

For pw, two random legal matches that differ only in a secret (hypothesis draws
the match, the viewers and the secret's change), recorded into two databases and read
through the real CLI by the public and by each kind of participant: every read form at
every ``--at SEQ`` (text and ``--json``), pictures at a sample of seqs, the replay page,
and the errors the viewer provokes.  The harness and what it compares, and the one
exception (hashes), are described in :mod:`tests.trust.noninterference`.

- pw: the pairing permuted (guests renamed among the pairs the viewer is not in, by a
  permutation hypothesis draws; the other participants' commands follow their names),
  and two other pairs exchanging guests under the very same commands (the sampler's
  ``pairs``/``forbid``/``twin`` knobs).

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
from matchledger.engine.commands import CreateMatch, Submit
from matchledger.ledger.events import OutcomeAnnounced, RoundClosed, TurnResolved

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
