"""Helpers for the lca tests: build studios and drive matches in memory."""

from __future__ import annotations

from matchledger import engine
from matchledger.engine.commands import CloseRound, CreateMatch, RecordContract, Submit
from matchledger.projections.fold import InMemoryMatch, replay


def studio_text(*rows: str) -> str:
    return "\n".join(rows) + "\n"


def open_floor(width: int, height: int) -> str:
    return studio_text(*["." * width] * height)


def new_match(studio: str, players, options=None, match_id="m1") -> InMemoryMatch:
    return InMemoryMatch(
        CreateMatch(
            match_id=match_id, game="lca", players=list(players), options=dict(options or {}), setup={"studio": studio}
        )
    )


def play(m: InMemoryMatch, rounds: list[dict], contracts: dict | None = None) -> InMemoryMatch:
    """Record contracts, then for each round submit every listed player's tokens and close."""
    for player, names in (contracts or {}).items():
        m.do(RecordContract(player, names))
    for submissions in rounds:
        for player, tokens in submissions.items():
            m.do(Submit(player, tokens.split() if isinstance(tokens, str) else tokens))
        close(m)
    return m


def close(m: InMemoryMatch) -> InMemoryMatch:
    m.do(close_command(m.state))
    return m


def close_command(state) -> CloseRound:
    """Closing the open round as a host must: forced, with a reason, when players have
    not submitted (they place nothing)."""
    waiting = engine.get("lca").waiting_for(state)
    return CloseRound(force=True, reason="they sat the round out") if waiting else CloseRound()


def replayed(m: InMemoryMatch):
    return replay(m.state.match_id, m.pairs())
