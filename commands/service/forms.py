"""The submission form of a participant's page, drawn from the game's legal choices
(:mod:`matchledger.engine.choices`) alone, and the tokens a filled form stands for.

Nothing here knows a game or its notation.  Each part of the description becomes:

- a part whose options have cells on a grid: a table of tappable cells
  (``assets/live.js`` keeps the tap order and stops at ``max``); the taps fill the
  part's text field, which is the typed field itself when the part is the only one;
- a part whose options carry ``fields``: one list per field (``PART_FIELD``), the values
  chosen picking the option;
- any other: a list to choose from (``PART``), checkboxes when more than one may be
  chosen in any order, one list per place (``PART_1``, ``PART_2``...) when in order.

The typed field (``tokens``) always stays: typed, it wins over the lists, and without
script it is how a grid's cells are given.  Every form works without script.  What the
form posts is checked by the game like any other submission; a list's choice that is
no option (the choices moved on since the page was drawn) is refused, naming it.

A form drawn again after a refusal is given what was posted (``entered``) and keeps
every input as sent: each field's text, each list's choice, each box ticked.  A value
that is no option now stays too, marked so, since the refusal names it.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from matchledger.engine.choices import TYPED_FIELD, is_nothing
from matchledger.engine.commands import split_typed
from matchledger.ledger.errors import MalformedInput
from matchledger.projections.presentation.printable import printable

#: Characters of one form field at most (a token is at most 64; a long submission
#: typed in one field stays well under): longer is refused, never cut short.
FIELD_MAX = 2048
TYPED = TYPED_FIELD  # the typed notation's field (engine.choices: no part may post it)
BLANK = "\u2014"


def text(value) -> str:
    return escape(printable(str(value)))


def _words(option: dict) -> str:
    return " ".join(option["tokens"])


def is_over(status: dict) -> bool:
    """Whether a status read model says the match is over (for a game that describes
    no choices)."""
    return bool(status.get("finished") or status.get("phase") == "finished")


#: A form's fields as posted: name -> each value sent under it, in order.
Posted = dict[str, list[str]]


def gathered(fields: Iterable[tuple[str, str]]) -> Posted:
    """``fields`` (name, value pairs, as a form posts them) by name."""
    posted: Posted = {}
    for key, value in fields:
        posted.setdefault(key, []).append(value)
    return posted


def form_html(description: dict | None, entered: Iterable[tuple[str, str]] = (), over: bool = False) -> str:
    """The form for what the participant may submit now, from ``description`` (the
    game's choices); with none, the typed field alone (or, ``over``, why nothing).
    ``entered``: what the participant posted, which the form keeps (after a refusal)."""
    posted = gathered(entered)
    if description is not None and is_nothing(description):
        return f'<p class="closed">{text(description["none"])}</p>'
    if description is None:
        if over:
            return '<p class="closed">The match is over: nothing more to submit.</p>'
        body = _typed(_text_of(posted, TYPED), "Your submission, as the game writes it:", "")
    else:
        body = _described(description, posted)
    return f'<form method="post" class="submit" id="submit-form">{body}<button type="submit">Submit</button></form>'


def _described(description: dict, posted: Posted) -> str:
    parts = description["parts"]
    sole_grid = len(parts) == 1 and _is_grid(parts[0])
    hint = " (tap cells in order, or type them)" if sole_grid else ""
    html = [f'<p class="prompt">{text(description["prompt"])}{hint}.</p>']
    for part in parts:
        html.append(_part(part, TYPED if sole_grid else part["name"], sole_grid, posted))
    label = f"{parts[0]['label'].capitalize()}:" if sole_grid else "Or type it:"
    html.append(_typed(_text_of(posted, TYPED), label, description.get("typed", "")))
    return "".join(html)


def _text_of(posted: Posted, name: str) -> str:
    """A text field's value as it was sent (as typed: never the tokens read from it)."""
    return " ".join(posted.get(name, []))


def _selected(value: str, chosen: str) -> str:
    return " selected" if value == chosen else ""


def _kept(chosen: str, values: list[str]) -> str:
    """A list's option for a choice sent that is none of its values now (the refusal
    names it): kept, chosen, so that nothing the participant sent is lost."""
    if not chosen or chosen in values:
        return ""
    return f'<option value="{text(chosen)}" selected>{text(chosen)} (not a choice now)</option>'


def _is_grid(part: dict) -> bool:
    return "grid" in part and bool(part["options"]) and all("cell" in option for option in part["options"])


def _has_fields(part: dict) -> bool:
    return bool(part["options"]) and all("fields" in option for option in part["options"])


def _typed(typed: str, label: str, example: str) -> str:
    placeholder = f' placeholder="e.g. {text(example)}"' if example else ""
    return (
        f'<label class="typed">{text(label)} <input name="{TYPED}" value="{text(typed)}"{placeholder} '
        f'maxlength="{FIELD_MAX}" autocomplete="off" autocapitalize="characters" spellcheck="false"></label>'
    )


def _part(part: dict, into: str, sole: bool, posted: Posted) -> str:
    if _is_grid(part):
        body = _grid(part, into)
        if not sole:  # a text field of its own, which the taps fill
            body += (
                f'<label>{text(part["label"])}: <input name="{text(part["name"])}" '
                f'value="{text(_text_of(posted, part["name"]))}" maxlength="{FIELD_MAX}" '
                'autocomplete="off" spellcheck="false"></label>'
            )
        return f'<div class="part grid">{body}</div>'
    if _has_fields(part):
        body = "".join(_field_lists(part, slot, posted) for slot in _slots(part))
    elif part["max"] > 1 and not part["ordered"]:
        body = _checks(part, posted.get(part["name"], []))
    else:
        body = "".join(_list(part, slot, posted) for slot in _slots(part))
    return f'<fieldset class="part"><legend>{text(part["label"])}</legend>{body}</fieldset>'


def _checks(part: dict, ticked: list[str]) -> str:
    boxes = [(_words(o), o["label"]) for o in part["options"]]
    values = [value for value, _label in boxes]
    boxes += [
        (value, f"{value} (not a choice now)") for value in dict.fromkeys(ticked) if value and value not in values
    ]
    return "".join(
        f'<label class="check"><input type="checkbox" name="{text(part["name"])}" value="{text(value)}"'
        f"{' checked' if value in ticked else ''}> {text(label)}</label>"
        for value, label in boxes
    )


def _slots(part: dict) -> list[str]:
    """The form name of each place a part's choices take: the part's own, or one per
    place when it takes several."""
    name = part["name"]
    return [name] if part["max"] <= 1 else [f"{name}_{i}" for i in range(1, part["max"] + 1)]


def _blank(part: dict) -> str:
    return "no choice" if part["min"] == 0 else BLANK


def _list(part: dict, slot: str, posted: Posted) -> str:
    chosen = _one(posted, slot)
    values = [_words(o) for o in part["options"]]
    items = [f'<option value="">{text(_blank(part))}</option>']
    items += [
        f'<option value="{text(value)}"{_selected(value, chosen)}>{text(o["label"])}</option>'
        for value, o in zip(values, part["options"])
    ]
    items.append(_kept(chosen, values))
    label = "" if slot == part["name"] else f"{slot.rpartition('_')[2]}. "
    return f'<label>{text(label)}<select name="{text(slot)}">{"".join(items)}</select></label>'


def field_names(part: dict) -> list[tuple[str, str]]:
    """(name, label) of each field of a part's options, in the part's order (then in
    the order the options first carry them)."""
    listed = [(f["name"], f.get("label", f["name"])) for f in part.get("fields", [])]
    known = {name for name, _label in listed}
    for option in part["options"]:
        for name in option["fields"]:
            if name not in known:
                known.add(name)
                listed.append((name, name))
    return listed


def _field_lists(part: dict, slot: str, posted: Posted) -> str:
    lists = []
    for name, label in field_names(part):
        values: list[str] = []
        for option in part["options"]:
            if name in option["fields"] and str(option["fields"][name]) not in values:
                values.append(str(option["fields"][name]))
        chosen = _one(posted, f"{slot}_{name}")
        items = [f'<option value="">{text(_blank(part))}</option>']
        items += [f'<option value="{text(v)}"{_selected(v, chosen)}>{text(v)}</option>' for v in values]
        items.append(_kept(chosen, values))
        lists.append(f'<label>{text(label)} <select name="{text(slot)}_{text(name)}">{"".join(items)}</select></label>')
    return f'<span class="slot">{"".join(lists)}</span>'


def _grid(part: dict, into: str) -> str:
    """A grid part as a table of cells: each option a button, each cell carrying every
    mark that stands on it (a light, its brightness, a camera's view...), so the board
    the choice is about is the one the participant taps; the marks' legend below it."""
    grid = part["grid"]
    at = {tuple(option["cell"]): option for option in part["options"]}
    marks = [mark for mark in grid.get("marks", []) if mark.get("cells")]
    marked: dict[tuple, list[dict]] = {}
    for mark in marks:
        for cell in mark["cells"]:
            marked.setdefault(tuple(cell), []).append(mark)
    rows = []
    for y in range(grid["height"]):
        cells = []
        for x in range(grid["width"]):
            option, on = at.get((x, y)), marked.get((x, y), [])
            names = text(" ".join(m.get("name", "") for m in on))
            labels = text(", ".join(m.get("label", "") for m in on))
            symbols = text("".join(m.get("symbol", "") for m in on))
            if option is not None:
                name = text(option["label"])
                what = f", {labels}" if on else ""
                symbol = f'<span class="sym" aria-hidden="true">{symbols}</span>' if on else ""
                marking = f' data-mark="{names}"' if on else ""
                cells.append(
                    f'<td><button type="button" class="cell"{marking} data-cell="{name}" '
                    f'data-tokens="{text(_words(option))}" aria-label="{name}{what}">{name}{symbol}</button></td>'
                )
            elif on:
                cells.append(f'<td class="mark" data-mark="{names}" title="{labels}">{symbols}</td>')
            else:
                cells.append("<td></td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    legend = "".join(
        f'<li data-mark="{text(m.get("name", ""))}"><span class="sym" aria-hidden="true">{text(m.get("symbol", ""))}'
        f"</span> {text(m.get('label', ''))}</li>"
        for m in marks
    )
    ordered = "true" if part["ordered"] else "false"
    return (
        f'<div class="scroll"><table class="pick" data-count="{part["max"]}" data-min="{part["min"]}" '
        f'data-ordered="{ordered}" data-into="{text(into)}">{"".join(rows)}</table></div>'
        + (f'<ul class="marks" aria-label="what the marks mean">{legend}</ul>' if legend else "")
    )


# --------------------------------------------------------------------------- back to tokens


def tokens_from_form(description: dict | None, fields: Iterable[tuple[str, str]]) -> list[str]:
    """The submission a filled form stands for: the typed notation when given, else the
    tokens its lists and grids make, through ``description``.  MalformedInput when a
    list's choice is none of its part's options."""
    posted = gathered(fields)
    typed = split_typed(posted.get(TYPED, []))  # "A1, B1" as "A1 B1" (engine.commands)
    if typed or description is None or is_nothing(description):
        return typed
    tokens: list[str] = []
    for part in description["parts"]:
        tokens += _part_tokens(part, posted)
    return tokens


def _one(posted: Posted, key: str) -> str:
    values = posted.get(key, [])
    return values[-1].strip() if values else ""


def _part_tokens(part: dict, posted: Posted) -> list[str]:
    if _is_grid(part):
        return split_typed(posted.get(part["name"], []))  # cells as typed or tapped: the game reads them
    by_words = {_words(option): option for option in part["options"]}
    if _has_fields(part):
        tokens = []
        for slot in _slots(part):
            chosen = {name: _one(posted, f"{slot}_{name}") for name, _label in field_names(part)}
            if any(chosen.values()):
                tokens += _matching(part, chosen)["tokens"]
        return tokens
    if part["max"] > 1 and not part["ordered"]:
        picked = [value for value in posted.get(part["name"], []) if value]
    else:
        picked = [value for value in (_one(posted, slot) for slot in _slots(part)) if value]
    tokens = []
    for value in picked:
        option = by_words.get(value)
        if option is None:
            raise MalformedInput(f"{part['label']}: {value!r} is not one of its choices now")
        tokens += option["tokens"]
    return tokens


def _matching(part: dict, chosen: dict[str, str]) -> dict:
    """The option whose every field is as chosen (the one naming the most fields: a
    field chosen that an option does not have, such as a value only another kind of
    option takes, is left aside)."""
    fits = [o for o in part["options"] if all(str(v) == chosen.get(k, "") for k, v in o["fields"].items())]
    if not fits:
        labels = dict(field_names(part))
        shown = ", ".join(f"{labels[k]} {v}" for k, v in chosen.items() if v) or "nothing"
        raise MalformedInput(f"{part['label']}: no choice is {shown}; choose every list it needs")
    return max(fits, key=lambda o: len(o["fields"]))
