"""Every page state of every game, built once into one database: what the page audit
(test_page_audit.py) checks in a browser and the screenshots command
(``python -m tests.service.screenshots``) photographs.

Each game gets three matches: ``GAME-start`` (created, nothing submitted), ``GAME-mid``
(a submission superseded, one voided by the host, a round closed or turns played) and
``GAME-end`` (a finished match from fixtures/, the largest the fixtures hold).  A
:class:`State` names a page of one of them as the viewer opens it; the states that need
the running service (a submission through the page's form, refused or recorded) are
made in the browser by :func:`open_state`, the same way whatever the form looks like.

Only the commands a host types and the HTTP a browser sends build them: no page markup
is assumed beyond the typed field every form keeps (``tokens``; commands/service/forms.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import REPO, invoke

from .support import STUDIO, invite

FIXTURES = REPO / "fixtures"


@dataclass(frozen=True)
class State:
    """One page as a viewer sees it.  ``path``: the page's address below the server's
    URL, or a file (the `report` page); ``refuse``: typed into the page's form and sent,
    so that the page shown is the one that refuses it (422); ``submit``: sent the same
    way, so that the page shown is the one after it was recorded (``?recorded=N``)."""

    game: str
    name: str
    path: str
    refuse: str | None = None
    submit: str | None = None
    file: bool = False

    @property
    def id(self) -> str:
        return f"{self.game}: {self.name}"


@dataclass(frozen=True)
class Game:
    """How to bring one game's matches to the states above: the start match's players
    and options, the mid match's commands (``{seq:NAME}`` stands for the seq a command
    labelled NAME was recorded at), who is who there, and a finished fixture."""

    new: tuple[str, ...]
    mid: tuple[tuple[str, ...], ...]
    #: (participant who is refused on the start match, what they send)
    refused: tuple[str, str]
    #: (participant who submits through the mid match's page, what they send)
    submits: tuple[str, str]
    superseded: str | None  # whose mid page shows a submission superseded
    voided: str  # whose mid page shows the host's void
    between: str  # whose mid page shows a closed round (or a played turn) and nothing new
    end_script: Path
    end_match: str
    finished: str  # a participant of the finished match


GAMES: dict[str, Game] = {
    "lca": Game(
        new=("--players", "ann,bob,cat", "--studio", str(STUDIO)),
        mid=(
            ("contract", "ann", "lights"),
            ("contract", "bob", "camera", "supremacy"),
            ("contract", "cat", "action"),
            ("submit", "ann", "C3", "H3", "C8", "A1", "B1"),
            ("submit", "ann", "H3", "C3", "C8", "A1", "B1"),  # supersedes the one before
            ("submit", "bob", "E2", "H7", "C3", "J9", "A2"),
            ("void", "{seq:-1}", "--reason", "recorded for the wrong player"),
            ("submit", "bob", "E2", "H7", "C3", "J9", "A2"),
            ("submit", "cat", "G5", "C3", "B8", "I1", "J2"),
            ("close",),
        ),
        refused=("ann", "A1 A1 Z99"),
        submits=("ann", "B2 E5 H8"),
        superseded="ann",
        voided="bob",
        between="cat",
        end_script=FIXTURES / "lca" / "card-11-players.txt",
        end_match="card11",
        finished="ann",
    ),
    "pw": Game(
        new=("--players", "ann,bob", "--pair", "ann=zed", "--pair", "bob=yan"),
        mid=(
            ("submit", "ann", "gift:bob", "watch:yan"),
            ("submit", "ann", "gift:bob", "learn:yan"),  # supersedes the one before
            ("submit", "zed", "unique:bob", "swap:yan"),
            ("submit", "bob", "gift:ann", "watch:zed"),
            ("submit", "yan", "learn:ann", "unique:zed"),
            ("void", "{seq:-1}", "--reason", "recorded for the wrong player"),
            ("submit", "yan", "learn:ann", "predict:zed=swap"),
            ("close",),
        ),
        refused=("ann", "gift:ann gift:ann"),
        submits=("zed", "watch:bob predict:yan=gift"),
        superseded="ann",
        voided="yan",
        between="bob",
        end_script=FIXTURES / "pw" / "swap_one_member.txt",
        end_match="pw1",
        finished="ann",
    ),
    "photographer": Game(
        new=("--players", "ann,bob,cat", "--seed", "11", "--option", "end_trigger=sunset"),
        mid=(
            ("submit", "ann", "take", "1", "left", "3", "wind", "1:4"),
            ("submit", "bob", "take", "2", "left", "3", "wind", "1:2"),
            ("submit", "cat", "take", "3", "left", "3", "wind", "1:2"),
            ("submit", "ann", "take", "1", "left", "1", "wind", "1:2"),
            ("void", "{seq:-1}", "--reason", "the wrong card was moved"),
        ),
        refused=("ann", "take 9 left 1 wind 1:2"),
        submits=("ann", "take 1 left 1 wind 1:2"),
        superseded=None,  # a turn is resolved as it is submitted: nothing supersedes it
        voided="ann",
        between="bob",
        end_script=FIXTURES / "photographer" / "g3-sunset.txt",
        end_match="g3",
        finished="ann",
    ),
}


def _seq_of(db: Path, match: str, kind: str = "SubmissionRecorded") -> int:
    """The seq of the match's last event of ``kind``."""
    log = json.loads(invoke(db, "log", match, "--json").stdout)
    return max(row["seq"] for row in log if row["kind"] == kind)


def _link(db: Path, match: str, *args: str) -> str:
    """A link's path below the server's URL (``invite`` prints it for port 8000)."""
    url = invite(db, match, *args)["url"]
    return "/" + url.split("/", 3)[3]


def build(folder: Path) -> tuple[Path, list[State]]:
    """The database (``folder/pages.db``) and every state of every game in it."""
    db = folder / "pages.db"
    states: list[State] = []
    for name, game in GAMES.items():
        start, mid = f"{name}-start", f"{name}-mid"
        invoke(db, "new", name, start, *game.new)
        invoke(db, "new", name, mid, *game.new)
        for command, *args in game.mid:
            if args and args[0] == "{seq:-1}":
                args[0] = str(_seq_of(db, mid))
            invoke(db, command, mid, *args)
        _run_script(db, game.end_script)
        end = game.end_match

        who, tokens = game.refused
        revoked = _link(db, start, "--as", who)
        invoke(db, "revoke", revoked.rsplit("/", 1)[1])
        states += [
            State(name, "public, before any move", f"/m/{start}"),
            State(name, "public, mid-match", f"/m/{mid}"),
            State(name, "public, finished", f"/m/{end}"),
            State(name, "participant, before submitting", _link(db, start, "--as", who, "--submit")),
            State(name, "participant, refused", _link(db, start, "--as", who, "--submit"), refuse=tokens),
            State(name, "participant, read only", _link(db, start, "--as", who)),
        ]
        if game.superseded:
            states.append(State(name, "participant, superseded", _link(db, mid, "--as", game.superseded, "--submit")))
        states += [
            State(name, "participant, voided by the host", _link(db, mid, "--as", game.voided, "--submit")),
            State(name, "participant, between rounds", _link(db, mid, "--as", game.between, "--submit")),
            # after the mid match's other pages: the submission moves the match on
            State(
                name,
                "participant, submitted",
                _link(db, mid, "--as", game.submits[0], "--submit"),
                submit=game.submits[1],
            ),
            State(name, "participant, finished", _link(db, end, "--as", game.finished, "--submit")),
            State(name, "participant, revoked link", revoked),
            State(name, "auditor", _link(db, end, "--auditor")),
        ]
        # the host's view of `report` is the host's own: the public's and a participant's are shared
        for view, args in (("public", ("--public",)), ("participant", ("--as", game.finished))):
            report = folder / f"{name}-report-{view}.html"
            invoke(db, "report", end, *args, "-o", report)
            states.append(State(name, f"report, {view}", str(report), file=True))
    return db, states


def _run_script(db: Path, script: Path) -> None:
    """A fixture's host script, run from the repository (its paths are relative to it)."""
    done = subprocess.run(
        [sys.executable, "-m", "matchledger", "--db", str(db), "--actor", "host", "script", str(script)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


#: Sends what is typed through the page's own form, whatever else the form holds:
#: the typed field wins over lists and grids (commands/service/forms.py).
_SEND = """typed => {
  const field = document.querySelector('form input[name="tokens"]');
  if (!field) throw new Error('no typed field on this page');
  field.value = typed;
  field.form.submit();
}"""


#: The address each submission made through a page landed on, by server and state: a
#: submission is recorded once, and opening its state again opens that address.
_LANDED: dict[tuple[str, State], str] = {}


def open_state(page, base_url: str, state: State) -> None:
    """Bring ``page`` to ``state``: open its address, and send what it sends."""
    if state.file:
        page.goto(Path(state.path).as_uri())
        return
    landed = _LANDED.get((base_url, state))
    page.goto(landed or base_url + state.path)
    typed = state.refuse if state.refuse is not None else state.submit
    if typed is not None and landed is None:
        with page.expect_navigation():
            page.evaluate(_SEND, typed)
        if state.submit is not None:
            _LANDED[base_url, state] = page.url
    if typed is not None:
        page.wait_for_selector("#refused" if state.refuse is not None else "#recorded")
