"""What a host types while running a match: init, new, contract, submit, close, amend,
void, correct, note."""

from __future__ import annotations

import click
from matchledger.engine.commands import AddNote, Amend, CloseRound, Correct, CreateMatch, RecordContract, Submit, Void
from matchledger.ledger.limits import DECK_FILE_MAX_BYTES, STUDIO_FILE_MAX_BYTES
from matchledger.projections.presentation.wording import plural

from .files import read_text
from .options import key_values, load_json_object
from .output import describe_rows, say
from .session import app


@click.command("init")
def init_cmd():
    """Create the database file (any command that writes creates it too).

    \b
    Example:
      matchledger --db tournament.db init
    """
    application = app(create=True)
    say(f"database ready: {application.location} ({plural(len(application.match_ids()), 'match', 'matches')})")


#: Seeds below this can be tried one by one on a laptop in hours.
GUESSABLE_SEEDS = 2**40


@click.command("new")
@click.argument("game")
@click.argument("match_id", metavar="MATCH")
@click.option("--players", required=True, help="Players, comma-separated, in previous-MM order (best first) or seat order.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A ruleset option; repeat for more.")
@click.option("--studio", metavar="FILE", help="lca: the studio map ('.' floor, '#' wall).")
@click.option("--pair", "pairs", multiple=True, metavar="PLAYER=GUEST", help="pw: a secret pair; one per player.")
@click.option(
    "--seed",
    type=int,
    help="photographer: shuffle the deck from this seed (left out: a secret 64-bit seed is drawn and recorded).",
)
@click.option("--deck", metavar="FILE", help="photographer: the whole deck, top card first.")
def new_cmd(game, match_id, players, options, studio, pairs, seed, deck):
    """Create a match of GAME (lca, pw or photographer) named MATCH.

    \b
    Examples:
      matchledger new lca m1 --players ann,bob,cat --studio studio.txt
      matchledger new lca m1 --players ann,bob --studio s.txt --option filming_lights_divisor=1
      matchledger new pw m2 --players ann,bob --pair ann=zed --pair bob=yan
      matchledger new photographer m3 --players ann,bob
      matchledger new photographer m3 --players ann,bob --seed 42   # a known deck, for practice
      matchledger new photographer m4 --players ann,bob --deck deck.txt --option end_trigger=sunset
    """
    setup: dict = {}
    if studio is not None:
        setup["studio"] = read_text(studio, "studio file", STUDIO_FILE_MAX_BYTES)
    if pairs:
        setup["pairs"] = key_values(pairs, "--pair")
    if seed is not None:
        setup["seed"] = seed
    if deck is not None:
        setup["deck"] = read_text(deck, "deck file", DECK_FILE_MAX_BYTES)
    names = [name.strip() for name in players.split(",") if name.strip()]
    cmd = CreateMatch(match_id=match_id, game=game, players=names, options=key_values(options, "--option"), setup=setup)
    rows = app(create=True).create(cmd)
    click.echo(f"created {game} match {match_id!r} with {len(names)} players; {describe_rows(rows)}")
    if seed is not None and 0 <= seed < GUESSABLE_SEEDS:
        click.echo(
            f"warning: seed {seed} can be found by trying every smaller seed, and whoever sees one deal "
            "could then know every card; leave --seed out to have a secret one drawn",
            err=True,
        )


@click.command("contract")
@click.argument("match_id", metavar="MATCH")
@click.argument("player")
@click.argument("names", nargs=-1, required=True)
def contract_cmd(match_id, player, names):
    """Record PLAYER's contracts (a later record replaces the earlier one).

    \b
    Examples:
      matchledger contract m1 alice lights supremacy     # lca
      matchledger contract m2 ann diversity sabotage:bob # pw
    """
    rows = app(write=True).execute(match_id, RecordContract(player, list(names)))
    say(f"{player}: contracts {' '.join(names)}; {describe_rows(rows)}")


@click.command("submit", context_settings={"ignore_unknown_options": True})
@click.argument("match_id", metavar="MATCH")
@click.argument("participant")
@click.argument("tokens", nargs=-1)
def submit_cmd(match_id, participant, tokens):
    """Record PARTICIPANT's submission (or turn) in the game's own notation.

    A later submission by the same participant in the same round supersedes the earlier.

    \b
    Examples:
      matchledger submit m1 alice B2 C3 D4 E5 F6                      # lca round 1
      matchledger submit m2 ann gift:bob predict:cat=swap guess:dan=zed  # pw
      matchledger submit m3 ann take 2 left 2 wind 1:6                # photographer
    """
    rows = app(write=True).execute(match_id, Submit(participant, list(tokens)))
    say(f"{participant}: {' '.join(tokens)}; {describe_rows(rows)}")


@click.command("close")
@click.argument("match_id", metavar="MATCH")
@click.option("--announced", metavar="FILE", help="JSON of the announcement the host actually made (hand-scored).")
def close_cmd(match_id, announced):
    """Close the current round: resolve it and record its public and private reveals.

    For a hand-scored match, --announced FILE records the announcement the host actually
    made instead of the computed one: a JSON object {"public": {...}, "private":
    {"PARTICIPANT": {...}}} in the shape of the round's entry in `reveals --json`.
    Closing the last round this way records no computed outcome: enter the announced
    results with `outcome MATCH --announced FILE`.

    \b
    Examples:
      matchledger close m1
      matchledger close m1 --announced round1.json
    """
    payload = load_json_object(announced, "announcement file") if announced is not None else None
    rows = app(write=True).execute(match_id, CloseRound(announced=payload))
    click.echo(f"closed: {describe_rows(rows)}")
    click.echo(
        f"to post: matchledger reveals {match_id} --public; "
        f"to each participant: matchledger knowledge {match_id} --as NAME"
    )


@click.command("amend")
@click.argument("match_id", metavar="MATCH")
@click.option("--option", "option", required=True, metavar="KEY=VALUE", help="The ruleset option and its new value.")
@click.option("--from-round", type=int, required=True, help="First round the new value applies to.")
@click.option("--reason", required=True, help="Why (kept in the log).")
def amend_cmd(match_id, option, from_round, reason):
    """Amend a ruleset option from a given round on (recorded, never rewritten).

    \b
    Example (the lca card's own Amendment):
      matchledger amend m1 --option filming_lights_divisor=2 --from-round 3 --reason "card Amendment"
    """
    [(key, value)] = key_values((option,), "--option").items()
    rows = app(write=True).execute(match_id, Amend(key, value, from_round, reason))
    click.echo(f"amended {key}={value} from round {from_round}; {describe_rows(rows)}")


@click.command("void")
@click.argument("match_id", metavar="MATCH")
@click.argument("seq", type=int)
@click.option("--reason", required=True, help="Why the submission no longer counts.")
@click.option("--reopen", is_flag=True, help="The submission's round is closed: reopen it (it must be closed again).")
def void_cmd(match_id, seq, reason, reopen):
    """Void the submission recorded at event SEQ (it stays in the log, superseded).

    Only a submission of the open round, or with --reopen of the last closed round, can
    be voided; reopening supersedes that round's announcements.

    \b
    Examples:
      matchledger void m1 7 --reason "submitted for the wrong player"
      matchledger void m1 7 --reopen --reason "DM was for round 3, not 2"
    """
    rows = app(write=True).execute(match_id, Void(seq, reason, reopen))
    click.echo(f"voided seq {seq}; {describe_rows(rows)}")


@click.command("correct", context_settings={"ignore_unknown_options": True})
@click.argument("match_id", metavar="MATCH")
@click.argument("seq", type=int)
@click.argument("tokens", nargs=-1, required=True)
@click.option("--reason", required=True, help="Why the submission is corrected.")
@click.option("--reopen", is_flag=True, help="The submission's round is closed: reopen it (it must be closed again).")
def correct_cmd(match_id, seq, tokens, reason, reopen):
    """Supersede the submission at event SEQ with TOKENS (the original stays in the log).

    Only a submission of the open round, or with --reopen of the last closed round, can
    be corrected; reopening supersedes that round's announcements.

    \b
    Examples:
      matchledger correct m1 7 B2 C3 D4 E5 F7 --reason "typo: F6 was F7 in the DM"
      matchledger correct m1 7 B2 C3 D4 E5 F7 --reopen --reason "found after the close"
    """
    rows = app(write=True).execute(match_id, Correct(seq, list(tokens), reason, reopen))
    click.echo(f"corrected seq {seq}; {describe_rows(rows)}")


@click.command("note")
@click.argument("match_id", metavar="MATCH")
@click.argument("text")
def note_cmd(match_id, text):
    """Add a free-text host note to the log.

    \b
    Example:
      matchledger note m1 "bob's round 2 DM arrived 3 minutes late; accepted"
    """
    rows = app(write=True).execute(match_id, AddNote(text))
    click.echo(describe_rows(rows))
