"""One layout for every game's ``outcome`` and ``reveals`` text, so a host reading any
game finds the same sections in the same places:

    Final standings                        (or: Standings so far (not finished))
      rank  participant  total  lights  camera  …
         1  ann            309     140      77  …
    Awards
      participant  award    reason
      ann          ToL 3/4  rank 1
    Contracts
      participant  contract  result
      ann          lights    succeeded

    Round 1                                (Turn 1 for a game of turns)
      public:  lights C1 E1 K1 …
      private:
        ann  lights E3 K6 J12; lights score 140

A game's ``text`` module supplies only what is its own (how a round's public
announcement or a private notice reads); the sections, tables, wrapping and empty
cases are here, the tables' words those of every output form (:mod:`.results`).  Lines stay within ``WIDTH``
columns where the names allow it."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable

from matchledger.engine.state import View

from . import results
from .panels import fmt, pairs_text
from .text import table

WIDTH = 80
INDENT = "  "


def words(key: str) -> str:
    """A JSON key as words: ``lights_score`` -> ``lights score``."""
    return key.replace("_", " ")


def notice_words(notice: dict, skip: Iterable[str] = ()) -> str:
    """A flat notice as one sentence: ``lights E3 K6; lights score 140``."""
    return pairs_text({key: value for key, value in notice.items() if key not in skip})


def wrapped(first: str, text: str, rest: str | None = None) -> list[str]:
    """``text`` after the prefix ``first``, wrapped at WIDTH, later lines indented like
    the text (or by ``rest``)."""
    hang = rest if rest is not None else " " * len(first)
    return textwrap.wrap(
        text, WIDTH, initial_indent=first, subsequent_indent=hang, break_on_hyphens=False, break_long_words=False
    ) or [first.rstrip()]


# --------------------------------------------------------------------------- outcome


def _participant(standing: dict) -> str:
    return standing["participant"]


def standings_lines(
    outcome: dict, who: Callable[[dict], str] = _participant, who_label: str = "participant"
) -> list[str]:
    """The standings table: rank, participant (``who``), total, then each score under
    the heading the game declares for it (:mod:`.results`)."""
    return [INDENT + line for line in table(results.standings(outcome, who, who_label))]


def awards_lines(outcome: dict) -> list[str]:
    """The awards table: participant, award in the game's words, reason (:mod:`.results`)."""
    return [INDENT + line for line in table(results.awards(outcome))]


def contracts_lines(outcome: dict) -> list[str]:
    """The contracts table: participant, contract, result (succeeded or failed)."""
    return [INDENT + line for line in table(results.contracts(outcome))]


def outcome_lines(
    outcome: dict, who: Callable[[dict], str] = _participant, who_label: str = "participant"
) -> list[str]:
    """The outcome section: a heading saying whether the match is finished, the
    standings table, the awards table (where there are awards), the contracts table
    (where contracts were held), then any fields a view adds (as ``key: value``)."""
    finished = outcome.get("finished")
    standings = outcome.get("standings")
    awards = outcome.get("awards")
    held = outcome.get("contracts")
    if standings is None:  # a view the standings are not announced to
        lines = ["Final outcome (standings not announced)" if finished else "Not finished (standings not announced)"]
    else:
        lines = ["Final standings" if finished else "Standings so far (not finished)"]
        lines += standings_lines(outcome, who, who_label) if standings else [INDENT + "(none yet)"]
    if awards:
        lines += ["Awards", *awards_lines(outcome)]
    if held:
        lines += ["Contracts", *contracts_lines(outcome)]
    shown = ("match", "game", "finished", "standings", "awards", "contracts")
    extra = {k: v for k, v in outcome.items() if k not in shown}
    lines += [f"{words(key)}: {fmt(value)}" for key, value in extra.items()]
    return lines


# --------------------------------------------------------------------------- reveals


def private_notices(private: dict | None, view: View, keyed: bool) -> list[tuple[str, dict]]:
    """A round's private notices as (participant, notice) pairs.  The host's are keyed
    by participant; a participant's are keyed too where ``keyed`` (else the notice
    itself is given, and it is theirs)."""
    if not private:
        return []
    if view.is_host or keyed:
        return list(private.items())
    # not the host's, and the public is told nothing in private: a participant's view
    assert view.participant is not None
    return [(view.participant, private)]


def reveal_lines(heading: str, public: str, notices: list[tuple[str, str]], shows_private: bool) -> list[str]:
    """One round (or turn): its heading, the public announcement, then a line per
    private notice (where the view sees any)."""
    lines = [heading, *wrapped(f"{INDENT}public:  ", public or "nothing announced")]
    if shows_private:
        lines.append(f"{INDENT}private:")
        width = max((len(who) for who, _ in notices), default=0)
        for who, text in notices:
            lines += wrapped(f"{INDENT * 2}{who.ljust(width)}  ", text or "nothing")
        if not notices:
            lines.append(INDENT * 2 + "(none)")
    return lines


def reveals_text(rounds: list[list[str]], outcome: list[str] | None, empty: str = "nothing announced yet") -> str:
    """The reveals: each round's lines, a blank line between rounds, then the outcome."""
    blocks = rounds or [[empty]]
    if outcome:
        blocks = [*blocks, outcome]
    return "\n\n".join("\n".join(block) for block in blocks)
