"""Legal choices: what a participant may submit now, described as data.

A game answers ``Game.choices(state, participant)`` with a *description* (a JSON-ready
dict, shape below), or ``None`` when it describes nothing (then only the typed notation
is possible, and a form shows the typed field alone).  The service draws its forms from
the description alone and publishes it (``GET /p/{token}/choices``); a bot may submit
what :func:`sample` draws from it; the contract test holds it to the rules.  Everything
here is generic: no game is named, and each constraint kind is implemented once.

The description (keys are a contract: added to, never renamed)::

    {"none": "why, in a sentence"}          # nothing to submit now (not your turn, over)

    {
      "prompt": "Round 2: pick 3 camera centres",
      "parts": [                             # in the order their tokens are written
        {
          "name": "cameras",                 # unique: letters, digits, "_.-"; form fields derive from it
          "label": "camera centres",
          "min": 3, "max": 3,                # how many of its options are chosen
          "ordered": false,                  # whether the order of the chosen ones matters
          "options": [
            {"tokens": ["B2"], "label": "B2",
             "cell": [1, 1],                 # optional: [x, y] from 0 on the part's grid
             "fields": {"type": "gift", "target": "bob"},   # optional: the option's values
             "when": {"take": {"count": [2, 3]}}},          # optional, see below
          ],
          "fields": [{"name": "type", "label": "type"}],   # optional: labels and order of
                                                           # the options' fields
          "grid": {"width": 7, "height": 5,  # optional: the options with a cell drawn on it
                   "marks": [{"name": "wall", "label": "wall", "symbol": "#",
                              "cells": [[0, 0]]}]}         # optional: what stands where
        }
      ],
      "constraints": [
        {"kind": "distinct", "parts": ["a1", "a2"], "field": "target"},
        {"kind": "at_most", "parts": ["a1", "a2"], "field": "type", "counts": {"gift": 1}},
        {"kind": "apart", "parts": ["cameras"], "distance": 3}
      ],
      "typed": "B2 E2 H2"                    # an example of the notation, to type instead
    }

A submission the description *offers*: for each part in order, between ``min`` and
``max`` distinct options of that part, their tokens written one option after another
(in any order: for an ``ordered`` part the order written is the order meant, for
another it means nothing), and every constraint and condition holds:

- ``distinct``: no two chosen options of the named parts share the value of ``field``
  (an option without the field takes no part);
- ``at_most``: among the chosen options of the named parts, those whose ``field`` is V
  number at most ``counts[V]`` (a value not in ``counts`` is unbounded);
- ``apart``: the ``cell``s of any two chosen options of the named parts are at a
  Chebyshev distance (the larger of the two coordinate differences) of ``distance`` or
  more;
- an option's ``when`` (``{PART: {FIELD: [values]}}``): it may be chosen only together
  with a chosen option of PART whose FIELD is one of the values.

A description is exact for what the participant may know: it never reveals a fact
their own view does not hold (another participant's submission), so where the rules
refuse a submission because of such a fact, the description offers it all the same.
A game says which rulings those are (``Game.CHOICES_HIDDEN``), and the contract test
holds that such a refusal goes away once what the participant cannot see is taken away.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any, NoReturn

from matchledger.ledger.errors import MalformedInput

KINDS = ("distinct", "at_most", "apart")
_PART_NAME = re.compile(r"[\w.-]{1,100}\Z")


def nothing(why: str) -> dict:
    """The description of a moment with nothing to submit, and why."""
    return {"none": why}


def closed(game, state) -> dict | None:
    """The description of a match that takes no more submissions (abandoned, or its play
    over), else None: where every game's choices start."""
    if state.abandoned is not None:
        return nothing("The match was abandoned: nothing more can be submitted.")
    if state.finished or game.play_is_over(state):
        return nothing("The match is over: nothing more to submit.")
    return None


def is_nothing(description: dict | None) -> bool:
    return description is not None and "none" in description


def cell_option(token: str, x: int, y: int, label: str | None = None) -> dict:
    """An option naming one cell of a grid."""
    return {"tokens": [token], "label": token if label is None else label, "cell": [x, y]}


def chebyshev(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --------------------------------------------------------------------------- the shape


def _fail(problem: str) -> NoReturn:
    raise MalformedInput(f"a choices description {problem}")


def check(description: Any) -> None:
    """Refuse (MalformedInput, naming the problem) a description not of the shape above."""
    if not isinstance(description, dict):
        _fail(f"is a JSON object, not {type(description).__name__}")
    if "none" in description:
        if set(description) != {"none"} or not isinstance(description["none"], str) or not description["none"]:
            _fail('saying nothing may be submitted is {"none": "why"} alone')
        return
    for key, kind in (("prompt", str), ("parts", list), ("constraints", list), ("typed", str)):
        if not isinstance(description.get(key), kind):
            _fail(f"needs {key!r} as a {kind.__name__}")
    parts = description["parts"]
    if not parts:
        _fail("has at least one part")
    names: dict[str, dict] = {}
    for part in parts:
        _check_part(part, names)
    for part in parts:
        for option in part["options"]:
            for other, condition in option.get("when", {}).items():
                if other not in names or other == part["name"] or not isinstance(condition, dict):
                    _fail(f"part {part['name']!r}: an option's 'when' names part {other!r}, not another part")
                for values in condition.values():
                    if not isinstance(values, list):
                        _fail(f"part {part['name']!r}: a 'when' condition lists its values")
    for constraint in description["constraints"]:
        _check_constraint(constraint, names)
    posted: dict[str, str] = {}
    for part in parts:
        for field in form_names(part):
            if field == TYPED_FIELD or field in posted:
                other = "the typed notation" if field == TYPED_FIELD else f"part {posted[field]!r}"
                _fail(f"part {part['name']!r} would post the form field {field!r}, which {other} posts too")
            posted[field] = part["name"]


#: The form field the typed notation is posted in (the service's forms).
TYPED_FIELD = "tokens"


def form_names(part: dict) -> list[str]:
    """The names of the form fields a page's form posts for ``part`` (docs/service.md):
    ``PART`` for a grid, a list of checkboxes, or a list taking one choice; ``PART_i``
    for the i-th of several places; ``PLACE_FIELD`` for each field of a part whose
    options carry fields.  ``check`` refuses a description two of whose parts would
    post one field: what is posted must stand for one choice."""
    name = part["name"]
    options = part["options"]
    if "grid" in part and options and all("cell" in option for option in options):
        return [name]
    places = [name] if part["max"] <= 1 else [f"{name}_{i}" for i in range(1, part["max"] + 1)]
    fields = [f["name"] for f in part.get("fields", [])]
    for option in options:
        fields += [key for key in option.get("fields", {}) if key not in fields]
    if fields:
        return [f"{place}_{field}" for place in places for field in fields]
    if part["max"] > 1 and not part["ordered"]:
        return [name]
    return places


def _check_part(part: Any, names: dict[str, dict]) -> None:
    if not isinstance(part, dict):
        _fail("has parts that are JSON objects")
    name = part.get("name")
    if not isinstance(name, str) or not _PART_NAME.match(name) or name in names:
        _fail(f"has a part name {name!r} that is not unique letters, digits, '_', '.' and '-'")
    names[name] = part
    if not isinstance(part.get("label"), str):
        _fail(f"part {name!r} needs a label")
    low, high = part.get("min"), part.get("max")
    if not (type(low) is int and type(high) is int and 0 <= low <= high):
        _fail(f"part {name!r}: min and max are whole numbers, 0 <= min <= max")
    if not isinstance(part.get("ordered"), bool):
        _fail(f"part {name!r}: 'ordered' is true or false")
    options = part.get("options")
    if not isinstance(options, list):
        _fail(f"part {name!r} lists its options")
    seen: set[tuple[str, ...]] = set()
    grid = part.get("grid")
    if grid is not None and not (
        isinstance(grid, dict) and all(type(grid.get(k)) is int and grid[k] > 0 for k in ("width", "height"))
    ):
        _fail(f"part {name!r}: a grid has a whole width and height")
    for option in options:
        tokens = option.get("tokens") if isinstance(option, dict) else None
        if not (
            isinstance(tokens, list)
            and tokens
            and all(isinstance(t, str) and t and not t.isspace() and t.split() == [t] for t in tokens)
        ):
            _fail(f"part {name!r}: an option has tokens, each a word")
        if tuple(tokens) in seen:
            _fail(f"part {name!r}: two options are {' '.join(tokens)!r}")
        seen.add(tuple(tokens))
        if not isinstance(option.get("label"), str):
            _fail(f"part {name!r}: option {' '.join(tokens)!r} needs a label")
        cell = option.get("cell")
        if cell is not None:
            if not (isinstance(cell, list) and len(cell) == 2 and all(type(c) is int and c >= 0 for c in cell)):
                _fail(f"part {name!r}: option {' '.join(tokens)!r} has a cell [x, y]")
            if grid is not None and not (cell[0] < grid["width"] and cell[1] < grid["height"]):
                _fail(f"part {name!r}: option {' '.join(tokens)!r} lies outside its grid")
        if "fields" in option and not isinstance(option["fields"], dict):
            _fail(f"part {name!r}: option {' '.join(tokens)!r} has fields as an object")
    if "fields" in part:
        listed = part["fields"]
        if not (
            isinstance(listed, list) and all(isinstance(f, dict) and isinstance(f.get("name"), str) for f in listed)
        ):
            _fail(f"part {name!r}: 'fields' lists objects with a name")


def _check_constraint(constraint: Any, names: dict[str, dict]) -> None:
    if not isinstance(constraint, dict) or constraint.get("kind") not in KINDS:
        _fail(f"has a constraint of an unknown kind (kinds: {', '.join(KINDS)})")
    kind = constraint["kind"]
    parts = constraint.get("parts")
    if not (isinstance(parts, list) and parts and all(p in names for p in parts)):
        _fail(f"has a {kind} constraint naming parts {parts!r} it does not have")
    if kind in ("distinct", "at_most") and not isinstance(constraint.get("field"), str):
        _fail(f"has a {kind} constraint without a field")
    if kind == "at_most":
        counts = constraint.get("counts")
        if not (isinstance(counts, dict) and all(type(n) is int and n >= 0 for n in counts.values())):
            _fail("has an at_most constraint whose counts are not whole numbers")
    if kind == "apart":
        if not (type(constraint.get("distance")) is int and constraint["distance"] >= 0):
            _fail("has an apart constraint without a whole distance")
        for name in parts:
            if any("cell" not in option for option in names[name]["options"]):
                _fail(f"keeps part {name!r} apart, but not every option of it has a cell")


# --------------------------------------------------------------------------- what holds


def _holds(description: dict, chosen: dict[str, list[dict]]) -> bool:
    """Whether every constraint and condition holds for ``chosen`` (part -> options)."""
    for constraint in description["constraints"]:
        picked = [option for name in constraint["parts"] for option in chosen.get(name, [])]
        if not _constraint_holds(constraint, picked):
            return False
    for options in chosen.values():
        for option in options:
            for other, condition in option.get("when", {}).items():
                if not any(
                    all(o.get("fields", {}).get(f) in values for f, values in condition.items())
                    for o in chosen.get(other, [])
                ):
                    return False
    return True


def _constraint_holds(constraint: dict, picked: list[dict]) -> bool:
    kind = constraint["kind"]
    if kind == "apart":
        cells = [option["cell"] for option in picked]
        return all(chebyshev(a, b) >= constraint["distance"] for i, a in enumerate(cells) for b in cells[i + 1 :])
    field = constraint["field"]
    values = [option["fields"][field] for option in picked if field in option.get("fields", {})]
    if kind == "distinct":
        return len(values) == len(set(map(_key, values)))
    counts = constraint["counts"]
    return all(values.count(value) <= limit for value, limit in counts.items())


def _key(value: Any) -> Any:
    return (type(value).__name__, value)


# --------------------------------------------------------------------------- offers


def offers(description: dict | None, tokens: list[str]) -> bool:
    """Whether ``tokens`` is a submission ``description`` offers (None or "none": no)."""
    if description is None or is_nothing(description):
        return False
    parts = description["parts"]
    tokens = list(tokens)
    return any(_holds(description, chosen) for chosen in _readings(parts, 0, tokens, 0, {}))


def _readings(parts: list[dict], index: int, tokens: list[str], at: int, chosen: dict) -> Iterator[dict]:
    """Every way of reading ``tokens[at:]`` as choices of ``parts[index:]``."""
    if index == len(parts):
        if at == len(tokens):
            yield {name: list(options) for name, options in chosen.items()}
        return
    part = parts[index]
    mine = chosen.setdefault(part["name"], [])
    if part["min"] <= len(mine):
        yield from _readings(parts, index + 1, tokens, at, chosen)
    if len(mine) < part["max"]:
        for option in part["options"]:
            words = option["tokens"]
            if tokens[at : at + len(words)] == words and not any(option is other for other in mine):
                mine.append(option)
                yield from _readings(parts, index, tokens, at + len(words), chosen)
                mine.pop()
    if not mine:
        chosen.pop(part["name"], None)


# --------------------------------------------------------------------------- sample

#: Draws :func:`sample` makes before it gives up on a description whose constraints few
#: draws satisfy.
DRAWS = 200


def sample(description: dict | None, rng: random.Random) -> list[str] | None:
    """A random submission ``description`` offers, drawn from ``rng`` (None: it offers
    none, or none was found in :data:`DRAWS` tries)."""
    if description is None or is_nothing(description):
        return None
    for _ in range(DRAWS):
        chosen = _draw(description, rng)
        if chosen is not None and _holds(description, chosen):
            return [
                token for part in description["parts"] for option in chosen[part["name"]] for token in option["tokens"]
            ]
    return None


def _draw(description: dict, rng: random.Random) -> dict[str, list[dict]] | None:
    """One random choice per part, each option picked among those that keep every
    constraint so far (so a tight one, as cameras kept apart, is met at once)."""
    chosen: dict[str, list[dict]] = {}
    for part in description["parts"]:
        options = part["options"]
        high = min(part["max"], len(options))
        if high < part["min"]:
            return None
        want = rng.randint(part["min"], high)
        mine: list[dict] = []
        chosen[part["name"]] = mine
        while len(mine) < want:
            fitting = [
                o
                for o in options
                if not any(o is m for m in mine)
                and _met(o, chosen)
                and _constraints_hold(description, {**chosen, part["name"]: mine + [o]})
            ]
            if not fitting:
                return None
            mine.append(rng.choice(fitting))
    return chosen


def _met(option: dict, chosen: dict[str, list[dict]]) -> bool:
    """Whether ``option``'s conditions on the parts drawn already hold (the others are
    checked once every part is drawn)."""
    return all(
        any(all(o.get("fields", {}).get(f) in values for f, values in condition.items()) for o in chosen[other])
        for other, condition in option.get("when", {}).items()
        if other in chosen
    )


def _constraints_hold(description: dict, chosen: dict[str, list[dict]]) -> bool:
    for constraint in description["constraints"]:
        picked = [option for name in constraint["parts"] for option in chosen.get(name, [])]
        if not _constraint_holds(constraint, picked):
            return False
    return True
