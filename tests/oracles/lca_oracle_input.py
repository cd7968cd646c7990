"""Input for the independent lca oracle (see lca_oracle.py): options, cell names, and
host scripts read into an :class:`LcaMatch`.  Written from the rules alone."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# --------------------------------------------------------------------------- options

DEFAULT_OPTIONS: dict[str, Any] = {
    "lights_light_lights": True,
    "diamond_center_must_be_empty": True,
    "filming_lights_divisor": 2,
}


def parse_option_value(key: str, text: str) -> Any:
    default = DEFAULT_OPTIONS[key]
    if isinstance(default, bool):
        low = text.strip().lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise ValueError(text)
    if isinstance(default, int):
        return int(text)
    return text


# --------------------------------------------------------------------------- cell names


def column_letters(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA ..."""
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def cell_name(cell: tuple[int, int]) -> str:
    row, col = cell
    return f"{column_letters(col)}{row + 1}"


def parse_cell(name: str) -> tuple[int, int]:
    """'B3' -> (row 2, col 1), zero-based."""
    m = re.fullmatch(r"([A-Za-z]+)([0-9]+)", name.strip())
    if not m:
        raise ValueError(f"bad cell name {name!r}")
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + (ord(ch) - ord("A") + 1)
    return int(m.group(2)) - 1, col - 1


# --------------------------------------------------------------------------- input


@dataclass
class LcaMatch:
    players: list[str]
    studio: list[str]  # rows of '.'/'#'
    options: dict[str, Any] = field(default_factory=dict)  # creation options (raw values parsed)
    amendments: list[tuple[str, Any, int]] = field(default_factory=list)  # (option, value, from_round)
    contracts: dict[str, list[str]] = field(default_factory=dict)  # counted at Round 1's close
    # round -> player -> tokens (the counting submission only)
    submissions: dict[int, dict[str, list[str]]] = field(default_factory=dict)

    def options_for(self, round_no: int) -> dict[str, Any]:
        result = dict(DEFAULT_OPTIONS)
        result.update(self.options)
        for option, value, from_round in self.amendments:
            if from_round <= round_no:
                result[option] = value
        return result


def parse_script(path: str | Path, base_dir: str | Path | None = None) -> tuple[str, LcaMatch]:
    """Parse an lca host script file into (match id, LcaMatch); relative studio paths
    are looked up from ``base_dir`` (default: the current directory), then beside the
    script."""
    path = Path(path)
    base_dir = Path(base_dir) if base_dir is not None else Path.cwd()

    def read_studio(name: str) -> str:
        studio_path = Path(name)
        if not studio_path.is_absolute():
            candidate = base_dir / studio_path
            studio_path = candidate if candidate.exists() else path.parent / studio_path
        return studio_path.read_text()

    return parse_lines(path.read_text().splitlines(), read_studio)


def parse_lines(lines, read_studio) -> tuple[str, LcaMatch]:
    """Parse the lines of an lca host script into (match id, LcaMatch).

    Tracks event sequence numbers the way the ledger assigns them (one event per
    command; Round 3's close also appends the outcome; a ``--reopen`` void/correct of
    a closed round first appends a RoundReopened) so that ``void``/``correct`` can
    point at submissions."""
    match_id = None
    match: LcaMatch | None = None
    seq = 0
    round_no = 1
    # seq -> [round, player, tokens, alive]
    subs: dict[int, list[Any]] = {}
    contracts: dict[str, list[str]] = {}

    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line)
        verb, rest = words[0], words[1:]
        if verb == "new":
            assert rest[0] == "lca", "not an lca script"
            match_id = rest[1]
            players: list[str] = []
            studio_text = None
            options: dict[str, Any] = {}
            i = 2
            while i < len(rest):
                flag = rest[i]
                if flag == "--players":
                    players = [p for p in rest[i + 1].split(",") if p]
                elif flag == "--studio":
                    studio_text = read_studio(rest[i + 1])
                elif flag == "--option":
                    key, value = rest[i + 1].split("=", 1)
                    options[key] = parse_option_value(key, value)
                else:
                    raise ValueError(f"unexpected flag {flag}")
                i += 2
            studio = [row for row in studio_text.splitlines() if row.strip()]
            match = LcaMatch(players=players, studio=studio, options=options)
            seq += 1
        elif verb == "contract":
            assert rest[0] == match_id
            if round_no == 1:
                contracts[rest[1]] = [n.lower() for n in rest[2:]]
            seq += 1
        elif verb == "submit":
            assert rest[0] == match_id
            seq += 1
            subs[seq] = [round_no, rest[1], [t.upper() for t in rest[2:]], True]
        elif verb == "close":
            seq += 1
            if round_no == 3 and "--announced" not in rest:
                seq += 1  # the computed OutcomeAnnounced (a hand-scored close writes none)
            round_no += 1
        elif verb == "amend":
            opt = None
            from_round = None
            i = 1
            while i < len(rest):
                if rest[i] == "--option":
                    opt = rest[i + 1]
                elif rest[i] == "--from-round":
                    from_round = int(rest[i + 1])
                i += 2
            key, value = opt.split("=", 1)
            match.amendments.append((key, parse_option_value(key, value), from_round))
            seq += 1
        elif verb in ("void", "correct"):
            target = int(rest[1])
            tokens = []
            i = 2
            reopen = False
            while i < len(rest):
                if rest[i] == "--reason":
                    i += 2
                    continue
                if rest[i] == "--reopen":
                    reopen = True
                    i += 1
                    continue
                tokens.append(rest[i].upper())
                i += 1
            target_round = subs[target][0]
            if reopen and target_round < round_no:
                seq += 1  # RoundReopened
                round_no = target_round
            seq += 1
            subs[target][3] = False
            if verb == "correct":
                subs[seq] = [target_round, subs[target][1], tokens, True]
        elif verb == "note" or (verb == "outcome" and "--announced" in rest):
            seq += 1
        elif verb in ("status", "log", "scores", "outcome", "reveals", "knowledge", "verify", "export"):
            pass  # read commands write nothing
        else:
            raise ValueError(f"oracle does not understand {verb!r}")

    assert match is not None
    match.contracts = contracts
    # Counting submission: the latest live one per (round, player).
    for s in sorted(subs):
        r, player, tokens, alive = subs[s]
        if alive:
            match.submissions.setdefault(r, {})[player] = tokens
    return match_id, match
