"""Nobody sees what they may not, through every output the command line gives a viewer.

For each game, two random legal matches that differ only in a secret (hypothesis draws
the match, the viewers and the secret's change), recorded into two databases and read
through the real CLI by the public and by each kind of participant: every read form at
every ``--at SEQ`` (text and ``--json``), pictures at a sample of seqs, the replay page,
and the errors the viewer provokes.  The harness and what it compares, and the one
exception (hashes), are described in :mod:`tests.trust.privacy.harness_cli`.

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

Cost (about 40 s on 2 cores for tests/trust): the text and JSON forms at every seq; an
SVG at the first seq, the head and one seq in every eight; the HTML report, every error
and ``head`` at the head; the viewer's rejected submissions after every command.  PNG,
which is the SVG through cairosvg and costs ~0.1 s a picture, at three seqs of a fixed
case per game and viewer (skipped, saying why, where cairo cannot be loaded).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from matchledger import engine
from matchledger.engine.commands import CreateMatch, RecordContract, Submit
from matchledger.ledger.events import OutcomeAnnounced, RoundClosed, TurnResolved
from matchledger.projections.presentation.png import png_unavailable
from tests.reliability.support import soak
from tests.trust.privacy.harness_cli import (
    PUBLIC,
    Plan,
    Played,
    Probe,
    Stats,
    compare_all,
    compare_pair,
    play,
    record,
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
    return CreateMatch(
        match_id=create.match_id,
        game="pw",
        players=list(create.players),
        options=dict(create.options),
        setup={"pairs": dict(pairs)},
    )


@pytest.mark.guarantee("privacy.cli-pw-permuted")
@pytest.mark.guarantee("privacy.cli-own-rejections")
@pytest.mark.guarantee("privacy.cli-messages")
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
        guest = data.draw(
            st.sampled_from(sorted(pairs[p] for p in create.players if p != player)), label="guest viewer"
        )
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
    assert sum(s.messages for s in participants) >= 20 and sum(s.messages for s in public) >= 20, results


@pytest.mark.guarantee("privacy.cli-pw-exchanged")
@pytest.mark.guarantee("privacy.cli-own-rejections")
@pytest.mark.guarantee("privacy.cli-messages")
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
            stats = compare_all(Path(tmp), a, b, [PUBLIC, player, guest], Plan(probe=Probe(pw_candidates), seed=seed))
        # Type counts do not depend on the pairing: the public can only be told at the end.
        assert stats[PUBLIC].cut in (None, last_close(a)), stats[PUBLIC]
        for s in stats.values():
            assert s.cut is None or announces(a, s.cut), s
        results.extend(stats.values())

    run()
    assert sum(s.host_differs for s in results) >= 150, results
    assert sum(s.compared for s in results if s.viewer == PUBLIC) >= 2 * 30, results
    assert sum(s.messages for s in results) >= 20, results


def _pw_exchange_case():
    """pw, 4 pairs: bob and cat exchange guests under the same commands."""
    from matchledger.engine.pw.sample import plan

    pairs1 = {"ann": "zed", "bob": "yul", "cat": "xio", "dan": "wim"}
    pairs2 = {**pairs1, "bob": "xio", "cat": "yul"}
    forbid = {"bob": {"xio"}, "cat": {"yul"}, "yul": {"cat"}, "xio": {"bob"}}
    create, cmds = plan(random.Random(7), n=4, pairs=pairs1, forbid=forbid, twin=("bob", "cat"))
    return play(create, cmds), play(pw_create(create, pairs2), cmds)


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


@pytest.mark.guarantee("privacy.cli-lca-ownership")
@pytest.mark.guarantee("privacy.cli-own-rejections")
@pytest.mark.guarantee("privacy.cli-messages")
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
    assert sum(s.messages for s in results) >= 20, results


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
    pairs = [
        (i, j) for i in hidden for j in hidden if i < j and shown(deck[i], False, False) == shown(deck[j], False, False)
    ]
    i, j = choose(pairs)
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    return deck, other


@pytest.mark.guarantee("privacy.cli-photographer-cards")
@pytest.mark.guarantee("privacy.cli-own-rejections")
@pytest.mark.guarantee("privacy.cli-messages")
def test_photographer_unseen_cards_of_one_back_exchanged_are_invisible_in_every_output():
    """Two cards the viewer has not seen, with the same back, exchanged; both matches'
    moves drawn from one seed (the sampler chooses from public facts only).  Compared
    until a card the viewer is told about differs."""
    from matchledger.engine.photographer import GAME
    from matchledger.engine.photographer.sample import PLAYERS

    results: list[Stats] = []

    @examples(6)
    @given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), wind=st.booleans(), data=st.data())
    def run(seed, n, wind, data):
        viewer = data.draw(st.sampled_from(PLAYERS[:n]), label="viewer")
        deck_a, deck_b = photographer_decks(
            random.Random(seed), n, viewer, lambda pairs: data.draw(st.sampled_from(pairs), label="swapped positions")
        )
        options = {} if wind else {"wind_required": "false"}
        samples = [
            GAME.sample(random.Random(seed), n_players=n, deck="\n".join(d) + "\n", options=options)
            for d in (deck_a, deck_b)
        ]
        a, b = (play(s.create, s) for s in samples)
        with scratch() as tmp:
            stats = compare_all(
                Path(tmp), a, b, [PUBLIC, viewer], Plan(probe=Probe(photographer_candidates), seed=seed)
            )
        for s in stats.values():
            assert s.cut is None or announces(a, s.cut), s
        results.extend(stats.values())

    run()
    # How far a match runs before a card the viewer is told about differs varies a lot
    # from draw to draw (four draws compared 94 to 290 steps): six draws against these
    # floors show the comparison had power without failing on an unlucky draw.
    assert sum(s.compared for s in results) >= 60, results
    assert sum(s.host_differs for s in results) >= 60, results
    assert sum(s.probes for s in results) >= 15, results
    assert sum(s.messages for s in results) >= 30, results


# --------------------------------------------------------------------------- PNG pictures


def _lca_case():
    sample = engine.get("lca").sample(random.Random(5), n_players=4)
    a = play(sample.create, sample)
    ann, bob, cat, _dan = sample.create.players
    return a, play(sample.create, lca_exchanged(a.commands, bob, cat, contracts=True)), [PUBLIC, ann]


def _photographer_case():
    from matchledger.engine.photographer import GAME

    deck_a, deck_b = photographer_decks(random.Random(5), 3, "bob", random.Random(5).choice)
    samples = [
        GAME.sample(random.Random(5), n_players=3, deck="\n".join(d) + "\n", options={}) for d in (deck_a, deck_b)
    ]
    a, b = (play(s.create, s) for s in samples)
    return a, b, [PUBLIC, "bob"]


def _pw_case():
    return (*_pw_exchange_case(), [PUBLIC, "ann", "zed"])


@pytest.mark.guarantee("privacy.cli-png")
@pytest.mark.parametrize("case", [_lca_case, _pw_case, _photographer_case], ids=["lca", "pw", "photographer"])
def test_png_pictures_of_every_viewer_are_unchanged_by_the_secret(case):
    """PNG (cairosvg) at a sample of seqs (the head, and one seq in each half of the
    compared prefix) of a fixed case per game, for every kind of viewer; the SVG they
    are drawn from is compared in every test above."""
    reason = png_unavailable()
    if reason is not None:
        pytest.skip(f"no PNG here: {reason}")
    a, b, viewers = case()
    with scratch() as tmp:
        for viewer in viewers:
            cmp = record(Path(tmp), a, b, viewer, Plan())
            head = cmp.stats.head
            assert cmp.stats.first_parted is not None and cmp.stats.first_parted < head, cmp.stats
            seqs = sorted({cmp.rng.randint(1, head // 2), cmp.rng.randint(head // 2, head), head})
            for seq in seqs:
                cmp.picture(seq, "png")
            assert cmp.stats.pictures == len(seqs) >= 2


# --------------------------------------------------------------------------- the harness can fail


def _wrap(monkeypatch, owner, name, wrapper):
    original = getattr(owner, name)
    monkeypatch.setattr(owner, name, lambda *args, **kw: wrapper(original, *args, **kw))


def _public_status_lists_guests_by_partner(monkeypatch):
    from matchledger.engine.pw import views

    def status(original, state, view):
        data = original(state, view)
        if view.is_public:
            data["guests"] = [state.g.guest_of[p] for p in state.g.players]
        return data

    _wrap(monkeypatch, views, "status", status)


def _knowledge_counts_points_of_every_player(monkeypatch):
    from matchledger.engine.pw import views

    def knowledge(original, state, me):
        data = original(state, me)
        totals = state.g.totals()
        data["players_and_points"] = {p: totals[p] + totals[state.g.guest_of[p]] for p in state.g.players}
        return data

    _wrap(monkeypatch, views, "knowledge", knowledge)


def _log_shows_the_creations_setup(monkeypatch):
    import msgspec

    from matchledger.ledger.events import MatchCreated
    from matchledger.projections.application import queries

    def event_view(original, view, event, before):
        shown = original(view, event, before)
        if isinstance(event, MatchCreated) and shown is not None and not view.is_host:
            shown = {**shown, "setup": msgspec.to_builtins(event.setup)}
        return shown

    _wrap(monkeypatch, queries, "event_view", event_view)


def _pictures_drawn_from_another_participants_knowledge(monkeypatch):
    import msgspec

    import matchledger.commands.pictures as pictures
    from matchledger.projections.read_models import ReadModel

    def read_view(original, state, view, *args, **kw):
        readings = original(state, view, *args, **kw)
        if ReadModel.KNOWLEDGE in readings.data:
            bob = engine.get(state.game).knowledge(state, "bob")  # bob's partner differs between A and B
            return msgspec.structs.replace(readings, data={**readings.data, ReadModel.KNOWLEDGE: bob})
        return readings

    _wrap(monkeypatch, pictures, "read_view", read_view)


def _unknown_names_answered_with_the_pairs(monkeypatch):
    from matchledger.engine.state import MatchState
    from matchledger.ledger.errors import MalformedInput

    def require(original, self, name, flag=None):
        if name not in self.participants and "pairs" in self.setup:
            raise MalformedInput(f"{name!r} is not one of {sorted(self.setup['pairs'].items())}")
        return original(self, name, flag)

    _wrap(monkeypatch, MatchState, "require_participant", require)


def _messages_built_from_another_participants_knowledge(monkeypatch):
    import msgspec

    from matchledger.projections import application

    def announced(original, self, *args, **kw):
        shown = original(self, *args, **kw)
        if list(shown.knowledge) != ["zed"]:
            return shown
        state = self.state(shown.match, shown.seq)
        bob = engine.get(state.game).knowledge(state, "bob")  # bob's partner differs between A and B
        return msgspec.structs.replace(shown, knowledge={"zed": {**bob, "participant": "zed"}})

    _wrap(monkeypatch, application.Application, "announced", announced)


def _rejections_name_every_pair(monkeypatch):
    from matchledger.engine.pw import game
    from matchledger.ledger.errors import IllegalMove, MatchledgerError

    def check(original, state, participant, *args, **kw):
        try:
            return original(state, participant, *args, **kw)
        except MatchledgerError as exc:
            raise IllegalMove(f"{exc} (pairs: {state.setup['pairs']})") from None

    _wrap(monkeypatch, game, "check_submission", check)


PLANTED = {
    "a public read model lists the guests in partner order": (
        _public_status_lists_guests_by_partner,
        PUBLIC,
        r"status",
    ),
    "a participant's knowledge holds every pair's points": (
        _knowledge_counts_points_of_every_player,
        "zed",
        r"knowledge",
    ),
    "the public log shows the creation's setup": (_log_shows_the_creations_setup, PUBLIC, r"`log m1 --public"),
    "a participant's pictures drawn from another's knowledge": (
        _pictures_drawn_from_another_participants_knowledge,
        "zed",
        r"`(report|render) ",
    ),
    "an unknown name answered with the pairs": (_unknown_names_answered_with_the_pairs, PUBLIC, r"stranger|--as"),
    "a rejected submission's message names the pairs": (_rejections_name_every_pair, "zed", r"a rejected submission"),
    "a participant's messages built from another's knowledge": (
        _messages_built_from_another_participants_knowledge,
        "zed",
        r"`messages m1 --as zed",
    ),
}


@pytest.mark.guarantee("privacy.cli-harness-fails")
@pytest.mark.guarantee("privacy.cli-messages")
@pytest.mark.parametrize("leak", sorted(PLANTED))
def test_the_harness_fails_on_a_planted_leak(leak, monkeypatch):
    """Each kind of output the harness compares, with a leak planted in the product
    (in process: the CLI runs in this process), makes the comparison fail, naming the
    viewer and the output."""
    a, b = _pw_exchange_case()
    plant, viewer, form = PLANTED[leak]
    plant(monkeypatch)
    with (
        scratch() as tmp,
        pytest.raises(AssertionError, match=rf"LEAK: {viewer} can tell A from B by .*{form}") as caught,
    ):
        compare_pair(Path(tmp), a, b, viewer, Plan(probe=Probe(pw_candidates)))
    assert "differs" in str(caught.value)


@pytest.mark.guarantee("privacy.cli-harness-fails")
def test_the_harness_passes_on_the_same_case_without_a_leak():
    a, b = _pw_exchange_case()
    with scratch() as tmp:
        stats = compare_all(Path(tmp), a, b, [PUBLIC, "zed"], Plan(probe=Probe(pw_candidates)))
    # Both compare every seq but the final close's (the awards differ), the pairing differing at each.
    assert all(s.compared == s.head == 31 and s.host_differs == 31 for s in stats.values()), stats
