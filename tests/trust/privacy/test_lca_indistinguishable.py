"""Property tests: privacy of the public and participant views.  (Replay equality and
re-derivation, every game checks in tests/contracts.)

Privacy is tested by *indistinguishability*: two matches that differ only in who owns
what (the same submissions handed to different players, in the same event order) must
look identical to the public at every point before the end; and if the permutation
keeps participant P's own submissions and contract, P's knowledge must be identical at
every point too.  (L2 placement, coverage, merging and filming are symmetric in the
players, so P's private notices really are the same in both matches.)  Any owner, any
other player's submission or any action cell in those views would make them differ.
"""

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matchledger.engine.commands import RecordContract, Submit
from matchledger.engine.lca import GAME
from matchledger.engine.lca.cameras import block
from matchledger.engine.lca.studio import Studio, cell_name
from matchledger.engine.lca.studio import parse_studio_text as rows
from matchledger.engine.state import PUBLIC, as_participant
from matchledger.projections.presentation.text import read_model_text
from tests.lca.util import close_command, new_match, studio_text

pytestmark = pytest.mark.guarantee("privacy.views-per-game")

STUDIO = studio_text(".........", "...#.....", ".........", "......#..", ".........", "..#......", ".........")
S = Studio.from_rows(rows(STUDIO))
FLOOR = [cell_name(c) for c in S.cells() if not S.is_wall(c)]
CENTRES = [(r, c) for r in range(1, S.height - 1) for c in range(1, S.width - 1)]
TRIPLES = [
    [cell_name(x) for x in t]
    for t in combinations(CENTRES, 3)
    if all(not set(block(a)) & set(block(b)) for a, b in combinations(t, 2))
]
PLAYERS = ["ann", "bob", "cat", "dan"]
CONTRACTS = [
    ["lights"],
    ["camera"],
    ["action"],
    ["lights", "supremacy"],
    ["camera", "supremacy"],
    ["action", "supremacy"],
]

player_plan = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(CONTRACTS),
        "lights": st.lists(st.sampled_from(FLOOR), min_size=5, max_size=5, unique=True),
        "cameras": st.sampled_from(TRIPLES),
        "actions": st.permutations(FLOOR),
    }
)
plans = st.lists(player_plan, min_size=4, max_size=4)


def run(plan_by_player: dict, observe, idle=()):
    """Play a match where ``plan_by_player[p]`` is p's plan; the event order is always
    PLAYERS order.  ``observe(m)`` is called after every event."""
    m = new_match(STUDIO, PLAYERS)
    seen = [observe(m)]

    def do(cmd):
        m.do(cmd)
        seen.append(observe(m))

    for p in PLAYERS:
        do(RecordContract(p, plan_by_player[p]["contract"]))
    active = [p for p in PLAYERS if p not in idle]
    for p in active:
        do(Submit(p, plan_by_player[p]["lights"]))
    do(close_command(m.state))
    for p in active:
        do(Submit(p, plan_by_player[p]["cameras"]))
    do(close_command(m.state))
    lights = {cell_name(c) for c in m.state.g.lights.owner}
    for p in active:
        do(Submit(p, [c for c in plan_by_player[p]["actions"] if c not in lights][:3]))
    do(close_command(m.state))  # the last close also announces the (public) outcome
    return m, seen


def public_views(m):
    """The public views, without the final table (public at the end, may differ)."""
    reveals = GAME.reveals(m.state, PUBLIC)
    reveals.pop("outcome", None)
    status = GAME.status(m.state, PUBLIC)
    views = [
        status,
        reveals,
        read_model_text("lca", "status", status, PUBLIC),
        read_model_text("lca", "reveals", reveals, PUBLIC),
    ]
    if not m.state.finished:
        views += [GAME.outcome(m.state, PUBLIC), GAME.scores(m.state, PUBLIC)]
    return views


def knowledge_of(p):
    def observe(m):
        view = as_participant(p)
        status = GAME.status(m.state, view)
        knowledge = GAME.knowledge(m.state, p)
        reveals = GAME.reveals(m.state, view)
        knowledge.pop("outcome", None)
        reveals.pop("outcome", None)
        views = [knowledge, status, reveals, read_model_text("lca", "status", status, view)]
        if not m.state.finished:
            views += [GAME.outcome(m.state, view), GAME.scores(m.state, view)]
        return views

    return observe


FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(plans, st.permutations(range(4)))
def test_public_view_is_blind_to_who_placed_what(plan_list, perm):
    original = dict(zip(PLAYERS, plan_list))
    swapped = {PLAYERS[i]: plan_list[perm[i]] for i in range(4)}
    _, a = run(original, public_views)
    _, b = run(swapped, public_views)
    assert a == b


@FAST
@given(plans, st.permutations(range(1, 4)))
def test_knowledge_is_blind_to_other_players_secrets(plan_list, perm):
    original = dict(zip(PLAYERS, plan_list))
    swapped = {"ann": plan_list[0], **{PLAYERS[i + 1]: plan_list[perm[i]] for i in range(3)}}
    m1, a = run(original, knowledge_of("ann"))
    m2, b = run(swapped, knowledge_of("ann"))
    assert m1.state.announcements[3].private["ann"] == m2.state.announcements[3].private["ann"]
    assert a == b


@FAST
@given(plans, st.permutations(FLOOR))
def test_public_view_never_depends_on_action_cells(plan_list, other_actions):
    original = dict(zip(PLAYERS, plan_list))
    changed = dict(original)
    changed["bob"] = {**original["bob"], "actions": other_actions}
    _, a = run(original, public_views)
    _, b = run(changed, public_views)
    assert a == b
    # ann's knowledge: identical while bob's actions are only submitted; after the close
    # too whenever ann's own notices came out the same
    m1, k1 = run(original, knowledge_of("ann"))
    m2, k2 = run(changed, knowledge_of("ann"))
    assert k1[:-1] == k2[:-1]
    if m1.state.announcements[3].private["ann"] == m2.state.announcements[3].private["ann"]:
        assert k1[-1] == k2[-1]
    # dan places nothing: his notices are all zero whatever the others do, so nothing he
    # is shown may change, even after Round 3 closes
    _, d1 = run(original, knowledge_of("dan"), idle=("dan",))
    _, d2 = run(changed, knowledge_of("dan"), idle=("dan",))
    assert d1 == d2
