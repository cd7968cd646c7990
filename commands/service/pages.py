"""The service's pages: server-rendered HTML, readable on a phone, with no external
asset and no inline script (the Content-Security-Policy allows only our own files).

A page has a live part, redrawn by `assets/live.js` from the server-sent events of its
stream, and for a participant who may submit, a form.  Both are drawn here from the
view's read models only (``reads.PageModels``), so a page shows what `render` and the
read commands show that viewer, and nothing else.  Every stored text is made printable
and escaped; the board is the picture modules' SVG, which escapes its own text.
"""

from __future__ import annotations

from html import escape

from matchledger.projections.presentation.picture import board_legend as legend_of
from matchledger.projections.presentation.picture import board_svg, pictures_of, side_panels
from matchledger.projections.presentation.printable import printable
from matchledger.projections.presentation.wording import game_title
from matchledger.projections.receipts import RECEIPT_KIND

from .reads import PageModels, Receipt, to_json

ASSETS = "../assets"


def text(value) -> str:
    return escape(printable(str(value)))


def headline(page: PageModels) -> str:
    """The match's state in a few words (never the head's seq: it counts events the
    viewer may not know of)."""
    models = page.models
    return pictures_of(models["game"]).headline(models)


def _panel(panel) -> str:
    head = ""
    if panel.header:
        head = "<tr>" + "".join(f"<th>{text(h)}</th>" for h in panel.header) + "</tr>"
    rows = "".join("<tr>" + "".join(f"<td>{text(c)}</td>" for c in row) + "</tr>" for row in panel.rows)
    return f'<section class="panel" data-key="{text(panel.key)}"><h2>{text(panel.title)}</h2><table>{head}{rows}</table></section>'


def _receipt_cell(receipt: Receipt) -> str:
    """The receipt of a submission; none for the host's void or correction of one, which
    `verify --receipt` would refuse (only a submission is a receipt: projections.receipts)."""
    if receipt.kind != RECEIPT_KIND:
        return "<td></td>"
    return f'<td><code class="receipt">{text(receipt.text)}</code></td>'


_KINDS = {
    "SubmissionRecorded": "submitted",
    "SubmissionCorrected": "corrected by the host",
    "SubmissionVoided": "voided by the host",
}


def _status(receipt: Receipt) -> str:
    """What the row is, and for a submission that no longer counts what became of it
    ("submitted, voided by 5"), as the participant's log marks it: its receipt still
    proves it was recorded (projections.receipts), the mark says it does not count."""
    status = _KINDS.get(receipt.kind, receipt.kind)
    if receipt.kind == RECEIPT_KIND and receipt.by_host:
        status = "recorded for you by the host"
    if receipt.target is not None:  # the host's void or correction: of which submission
        status = f"{status}: your submission {receipt.target}"
    if receipt.late:  # after the deadline (only the host can have recorded it)
        status = f"{status}, late"
    return status if receipt.fate is None else f"{status}, {receipt.fate.describe()}"


def _receipts(receipts: list[Receipt]) -> str:
    if not receipts:
        return '<section class="receipts"><h2>Your submissions</h2><p>None yet.</p></section>'
    rows = "".join(
        f'<tr data-seq="{r.seq}"><td>{r.seq}</td><td>{text(r.round if r.round is not None else "")}</td>'
        f"<td>{text(_status(r))}</td><td>{text(' '.join(r.tokens))}</td>"
        f"{_receipt_cell(r)}</tr>"
        for r in receipts
    )
    return (
        '<section class="receipts"><h2>Your submissions</h2><table><tr><th>seq</th><th>round</th><th></th>'
        f"<th>tokens</th><th>receipt</th></tr>{rows}</table></section>"
    )


def board_legend(models: dict) -> str:
    """The board's legend, as the picture's PNG draws it beside the board (the game's
    ``legend``: what each colour stands for), so the web board is read the same way."""
    items = legend_of(models)
    if not items:
        return ""
    entries = "".join(
        f'<li><svg width="12" height="12" aria-hidden="true" focusable="false"><rect width="12" height="12" '
        f'fill="{text(colour)}" stroke="#888888"/></svg> {text(label)}</li>'
        for label, colour in items
    )
    return f'<ul class="legend" aria-label="what the colours mean">{entries}</ul>'


def counting_now(page: PageModels) -> tuple[str, Receipt | None]:
    """The participant's own submission that counts now, and what it is called: in a
    game of rounds (its status has a ``round``) while the match goes on, the one of the
    open round; otherwise their last one that still counts.  Read from their own
    receipts alone, so it says nothing they did not do."""
    status = page.models["status"]
    counting = [r for r in page.receipts if r.kind == RECEIPT_KIND and r.fate is None]
    if "round" in status and not status.get("finished"):
        mine = [r for r in counting if r.round == status["round"]]
        return "Your move this round", (mine[-1] if mine else None)
    return "Your last move that counts", (counting[-1] if counting else None)


def now_html(page: PageModels) -> str:
    """The top of a participant's page: where the match stands (whose turn it is, where
    the rules make that public: the headline says it), and the participant's move that
    counts now with its receipt.  Drawn from the participant's own view and receipts
    only, so it never moves with a fact they may not know (who else has submitted is
    not announced in a game of rounds, and is not said here)."""
    label, receipt = counting_now(page)
    if receipt is None:
        counts = f'<p class="counts" id="counts">{text(label)}: none yet.</p>'
    else:
        counts = (
            f'<p class="counts" id="counts" data-seq="{receipt.seq}">{text(label)}: '
            f'<span class="tokens">{text(" ".join(receipt.tokens))}</span>, receipt '
            f'<code class="receipt">{text(receipt.text)}</code></p>'
        )
    return (
        f'<h2 class="now-title">Now</h2><p class="headline" id="headline">{text(headline(page))}</p>'
        f"{deadline_html(page)}{counts}"
    )


def deadline_html(page: PageModels) -> str:
    """The open round's deadline, where it has one (deadlines are public): the absolute
    UTC time in a ``<time>`` element, which the page's script redraws in the viewer's own
    zone with the time left; without the script the UTC time reads right."""
    deadline = page.models["status"].get("deadline")
    if not isinstance(deadline, dict) or not deadline.get("at"):
        return ""
    at = str(deadline["at"])
    shown = at.replace("T", " ").removesuffix(":00Z").removesuffix("Z") + " UTC"
    if deadline.get("passed"):  # as the server's clock read it (the script redraws it from the viewer's)
        shown += " (passed)"
    word = str(deadline.get("unit", "round"))
    return (
        f'<p class="deadline" id="deadline">Deadline of {text(word)} {text(str(deadline.get("round", "")))}: '
        f'<time class="deadline" datetime="{text(at)}">{text(shown)}</time></p>'
    )


def live_html(page: PageModels) -> str:
    """The part of a page that follows the match: state, board, panels, and for a
    participant their own submissions with receipts (a participant's headline is in
    their page's "Now" part instead: :func:`now_html`)."""
    models = page.models
    participant = page.view.kind == "participant"
    parts = (
        [] if participant else [f'<p class="headline" id="headline">{text(headline(page))}</p>{deadline_html(page)}']
    )
    parts += [
        f'<div class="board">{board_svg(models)}{board_legend(models)}</div>',
        '<div class="panels">' + "".join(_panel(p) for p in side_panels(models)) + "</div>",
    ]
    if participant:
        parts.append(_receipts(page.receipts))
    return "".join(parts)


def live_message(live: str, form: str | None = None, now: str | None = None) -> bytes:
    """One server-sent event carrying a page's live part (and its form, and for a
    participant the "Now" part at its top)."""
    data = {"live": live}
    if form is not None:
        data["form"] = form
    if now is not None:
        data["now"] = now
    return b"event: view\ndata: " + to_json(data) + b"\n\n"


def document(title: str, body: str, *, events: str | None = None) -> str:
    stream = f' data-events="{text(events)}"' if events else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer"><title>{text(title)}</title>'
        f'<link rel="icon" href="{ASSETS}/icon.svg" type="image/svg+xml">'
        f'<link rel="stylesheet" href="{ASSETS}/service.css"></head>'
        f"<body{stream}>{body}"
        f'<script src="{ASSETS}/live.js"></script></body></html>\n'
    )


def _as_of(at: int | None, now: str) -> str:
    if at is None:
        return now
    return f"As the match stood after event {at} (this page does not follow the match)."


def public_page(match_id: str, page: PageModels, at: int | None = None) -> str:
    game = game_title(page.models["game"])
    body = (
        f"<header><h1>{text(match_id)} <small>({text(game)})</small></h1>"
        f'<p class="view">Public page: what has been announced. {_as_of(at, "It updates by itself.")}</p></header>'
        f'<main><section id="live">{live_html(page)}</section></main>'
    )
    return document(f"{match_id}: {game}", body, events=f"{match_id}/events" if at is None else None)


def participant_page(
    token: str, match_id: str, page: PageModels, form: str, notice: str = "", at: int | None = None
) -> str:
    game, me = game_title(page.models["game"]), page.view.participant
    body = (
        f"<header><h1>{text(match_id)} <small>({text(game)})</small></h1>"
        f'<p class="view">{text(me)}\'s own page: only what you may know. Keep this link private. '
        f"{_as_of(at, 'It updates by itself.')}</p></header>"
        f"<main>{notice}"
        f'<section id="now" class="now">{now_html(page)}</section>'
        # the form and the board it is about side by side (one under the other on a phone)
        f'<div class="play"><section id="form-area">{form}</section>'
        f'<section id="live">{live_html(page)}</section></div></main>'
    )
    return document(f"{match_id}: {me} ({game})", body, events=f"{token}/events" if at is None else None)


def receipt_notice(match_id: str, receipt: str, replaced: int | None = None) -> str:
    """The notice after a submission: its receipt, how anyone checks it, and (as the
    command line says) the earlier submission of the round it replaced, if any."""
    replaces = (
        f" It replaces your submission {replaced}, which no longer counts: this one does."
        if replaced is not None
        else ""
    )
    return (
        f'<p class="notice ok" id="recorded">Recorded.{replaces} Your receipt: <code class="receipt">'
        f"{text(receipt)}</code> (anyone can check it: <code>matchledger verify {text(match_id)} "
        f"--receipt {text(receipt)}</code>)</p>"
    )


def replaced_by(receipts: list[Receipt], seq: int) -> int | None:
    """The seq of the viewer's own submission that the one at ``seq`` superseded."""
    return next(
        (r.seq for r in receipts if r.fate is not None and r.fate.how == "superseded" and r.fate.by == seq), None
    )


def error_notice(message: str) -> str:
    return f'<p class="notice error" id="refused" role="alert">Not recorded: {text(message)}</p>'


def auditor_page(token: str, match_id: str, head: tuple[int, str]) -> str:
    seq, digest = head
    body = (
        f"<header><h1>{text(match_id)}: auditor's link</h1></header><main>"
        f'<p>Head: <code class="receipt">{seq}:{text(digest)}</code></p>'
        f'<p><a href="{text(token)}/export" download="{text(match_id)}.jsonl">Download the whole log</a> '
        "(JSON Lines, every event with its hash), then check it on your own machine:</p>"
        f"<pre>matchledger --db audit.db import {text(match_id)}.jsonl\n"
        f"matchledger --db audit.db verify {text(match_id)} --head {seq}:{text(digest)}</pre></main>"
    )
    return document(f"{match_id}: auditor", body)


def message_page(title: str, message: str) -> str:
    return document(title, f"<header><h1>{text(title)}</h1></header><main><p>{text(message)}</p></main>")


def index_page() -> str:
    return message_page(
        "matchledger", "A match ledger. Open the link your host gave you, or a match's public page at m/MATCH."
    )
