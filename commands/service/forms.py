"""The submission form of a participant's page, per game, and the tokens a filled form
stands for.  Each form works without script (lists to choose from, or the notation
typed); `assets/live.js` only adds picking lca cells on a grid.

A form is drawn from the participant's own status read model (what they may know), and
the tokens it posts are checked by the game like any other submission.
"""

from __future__ import annotations

from html import escape

from matchledger.engine.lca.studio import column_name
from matchledger.projections.presentation.printable import printable

#: lca: how many cells each round takes, and what they are.
LCA_ROUNDS = {1: (5, "light priorities, highest first"), 2: (3, "camera centres"), 3: (3, "action cells")}
PW_TYPES = ("gift", "learn", "predict", "swap", "unique", "watch")
#: Characters of one form field at most (a token is at most 64; a long pw submission
#: typed in one field stays well under): longer is refused, never cut short.
FIELD_MAX = 2048


def text(value) -> str:
    return escape(printable(str(value)))


def _options(values, selected: str = "", blank: str | None = None) -> str:
    items = [] if blank is None else [f'<option value="">{text(blank)}</option>']
    for value in values:
        chosen = " selected" if str(value) == selected else ""
        items.append(f'<option value="{text(value)}"{chosen}>{text(value)}</option>')
    return "".join(items)


def _select(name: str, values, label: str, selected: str = "", blank: str | None = None) -> str:
    return f'<label>{text(label)} <select name="{name}">{_options(values, selected, blank)}</select></label>'


def _typed(typed: str, hint: str) -> str:
    return (
        f'<label class="typed">{text(hint)} <input name="tokens" value="{text(typed)}" '
        f'maxlength="{FIELD_MAX}" autocomplete="off" autocapitalize="characters" spellcheck="false"></label>'
    )


def form_html(status: dict, participant: str, typed: str = "") -> str:
    """The form for what ``participant`` may submit now ('' when nothing)."""
    if status.get("finished") or status.get("phase") == "finished":
        return '<p class="closed">The match is over: nothing more to submit.</p>'
    body = {"lca": _lca, "pw": _pw, "photographer": _photographer}.get(status.get("game"), _generic)(status, participant, typed)
    if isinstance(body, _Nothing):
        return f'<p class="closed">{text(body.why)}</p>'
    return f'<form method="post" class="submit" id="submit-form">{body}<button type="submit">Submit</button></form>'


class _Nothing:
    """Nothing to submit now, and why."""

    def __init__(self, why: str):
        self.why = why


def _generic(status: dict, participant: str, typed: str) -> str:
    return _typed(typed, "Your submission, as the game writes it:")


def _lca(status: dict, participant: str, typed: str) -> str:
    count, what = LCA_ROUNDS.get(status.get("round"), (0, ""))
    if not count:
        return _Nothing("Nothing to submit now.")
    rows = []
    for y, line in enumerate(status.get("studio") or []):
        cells = []
        for x, mark in enumerate(line):
            name = f"{column_name(x)}{y + 1}"
            if mark == "#":
                cells.append('<td class="wall"></td>')
            else:
                cells.append(f'<td><button type="button" class="cell" data-cell="{name}" aria-label="{name}">{name}</button></td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f'<p>Round {status.get("round")}: pick {count} {text(what)} (tap cells in order, or type them).</p>'
        f'<table class="pick" data-count="{count}">{"".join(rows)}</table>'
        + _typed(typed, "Cells:")
    )


def _pw(status: dict, participant: str, typed: str) -> str:
    others = [p for p in [*status.get("players", []), *status.get("guests", [])] if p != participant]
    parts = [f'<p>Round {status.get("round")}: two actions.</p>']
    for i in (1, 2):
        parts.append(
            f'<fieldset><legend>Action {i}</legend>'
            + _select(f"a{i}_type", PW_TYPES, "type", blank="—")
            + _select(f"a{i}_target", others, "on", blank="—")
            + _select(f"a{i}_predict", [t for t in PW_TYPES if t != "predict"], "predicted type (predict only)", blank="—")
            + "</fieldset>"
        )
    if status.get("round") == status.get("rounds"):
        mine_players = status.get("role") == "player"
        same, other = ("players", "guests") if mine_players else ("guests", "players")
        guessed = [p for p in status.get(same, []) if p != participant]
        rows = "".join(_select(f"guess_{p}", status.get(other, []), f"{p}'s partner", blank="no guess") for p in guessed)
        parts.append(f"<fieldset><legend>Guesses</legend>{rows}</fieldset>")
    parts.append(_typed(typed, "Or type the tokens:"))
    return "".join(parts)


def _photographer(status: dict, participant: str, typed: str) -> str:
    if status.get("to_play") != participant:
        return _Nothing(f"Waiting for {status.get('to_play') or '—'} to play.")
    hand = len(status.get("hand") or [])
    positions = list(range(1, hand + 4))
    wind = (
        _select("wind_from", positions, "wind from", blank="—") + _select("wind_to", positions, "to", blank="—")
    )
    if status.get("phase") == "end":
        return f"<p>End phase: wind one card (positions from 1 at the bottom).</p><fieldset>{wind}</fieldset>" + _typed(typed, "Or type:")
    rows = list(range(1, len(status.get("table") or []) + 1))
    take = (
        _select("row", rows, "take from row") + _select("end", ("left", "right"), "end") + _select("count", (1, 2, 3), "cards")
    )
    return (
        "<p>Your turn: take cards from a row, then wind one card up your hand (positions from 1 at the bottom).</p>"
        f"<fieldset>{take}</fieldset><fieldset>{wind}</fieldset>" + _typed(typed, "Or type:")
    )


def tokens_from_form(game: str, fields: dict[str, str]) -> list[str]:
    """The submission a filled form stands for: the typed notation when given, else the
    tokens its lists make."""
    typed = fields.get("tokens", "").split()
    if typed:
        return typed
    if game == "pw":
        tokens = []
        for i in (1, 2):
            kind, target, predicted = (fields.get(f"a{i}_{part}", "") for part in ("type", "target", "predict"))
            if kind and target:
                tokens.append(f"predict:{target}={predicted}" if kind == "predict" else f"{kind}:{target}")
        for key, partner in sorted(fields.items()):
            if key.startswith("guess_") and partner:
                tokens.append(f"guess:{key[len('guess_'):]}={partner}")
        return tokens
    if game == "photographer":
        tokens = []
        if fields.get("row"):
            tokens += ["take", fields["row"], fields.get("end", ""), fields.get("count", "")]
        if fields.get("wind_from") and fields.get("wind_to"):
            tokens += ["wind", f"{fields['wind_from']}:{fields['wind_to']}"]
        return tokens
    return []
