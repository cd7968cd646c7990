"""Input for the independent pw oracle (see pw_oracle.py): host scripts read into a
:class:`PwMatch`, applying supersession, voids and corrections.  Written from the rules
alone."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

TYPES = ("gift", "learn", "predict", "swap", "unique", "watch")
ROUNDS = 3
MAIN_CONTRACTS = ("diversity", "generosity", "espionage")


# --------------------------------------------------------------------------- input


@dataclass(frozen=True)
class Action:
    type: str
    target: str  # the submitted target
    predicted: str | None = None  # Predict only


@dataclass(frozen=True)
class Entry:
    """One counting submission: two actions, plus Round-3 guesses (guessed, named partner)."""

    actions: tuple[Action, ...]
    guesses: tuple[tuple[str, str], ...] = ()


@dataclass
class PwMatch:
    match_id: str
    players: list[str]  # listed order = previous-MM ranking, best first
    pairs: dict[str, str]  # player -> guest
    options: dict[str, str] = field(default_factory=dict)
    amendments: list[tuple[str, str, int]] = field(default_factory=list)  # (option, value, from_round)
    contracts: dict[str, list[str]] = field(default_factory=dict)  # player -> names (latest record)
    rounds: dict[int, dict[str, Entry]] = field(default_factory=dict)  # round -> participant -> entry
    host_announced_rounds: list[int] = field(default_factory=list)  # closed with `close --announced`

    @property
    def guests(self) -> list[str]:
        return [self.pairs[p] for p in self.players]

    @property
    def participants(self) -> list[str]:
        return self.players + self.guests

    def partner(self, who: str) -> str:
        if who in self.pairs:
            return self.pairs[who]
        for player, guest in self.pairs.items():
            if guest == who:
                return player
        raise KeyError(who)

    def player_of(self, who: str) -> str:
        """The player of ``who``'s pair (a guest names their partner)."""
        return who if who in self.pairs else self.partner(who)


def parse_tokens(tokens: list[str]) -> Entry:
    """``TYPE:TARGET`` twice (``predict:TARGET=TYPE``) plus ``guess:WHO=PARTNER`` tokens."""
    actions: list[Action] = []
    guesses: list[tuple[str, str]] = []
    for token in tokens:
        kind, _, rest = token.strip().lower().partition(":")
        if kind == "guess":
            who, _, named = rest.partition("=")
            guesses.append((who, named))
        elif kind == "predict":
            target, _, predicted = rest.partition("=")
            actions.append(Action("predict", target, predicted))
        else:
            actions.append(Action(kind, rest))
    return Entry(tuple(actions), tuple(guesses))


def parse_script(path: str | Path) -> PwMatch:
    """Read a pw host script.  Tracks event sequence numbers the way the ledger assigns
    them (one per command; ``close`` of the last round adds the outcome event; a
    ``--reopen`` void/correct adds a RoundReopened first) so that ``void``/``correct``
    SEQ can be followed."""
    match: PwMatch | None = None
    seq = 0
    current_round = 1
    # every submission ever recorded: seq -> [round, participant, tokens, voided]
    history: dict[int, list] = {}
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line)
        verb = words[0]
        if verb == "new":
            assert words[1] == "pw", f"not a pw script: {line}"
            match_id = words[2]
            players: list[str] = []
            pairs: dict[str, str] = {}
            options: dict[str, str] = {}
            rest = words[3:]
            i = 0
            while i < len(rest):
                flag = rest[i]
                value = rest[i + 1]
                if flag == "--players":
                    players = value.split(",")
                elif flag == "--pair":
                    player, _, guest = value.partition("=")
                    pairs[player] = guest
                elif flag == "--option":
                    key, _, val = value.partition("=")
                    options[key] = val
                else:
                    raise ValueError(f"unknown flag {flag!r} in {line!r}")
                i += 2
            match = PwMatch(match_id, players, pairs, options)
            seq = 1
            continue
        assert match is not None, "script does not start with `new`"
        if verb == "contract":
            seq += 1
            match.contracts[words[2]] = [w.lower() for w in words[3:]]
        elif verb == "submit":
            seq += 1
            history[seq] = [current_round, words[2], words[3:], False]
        elif verb == "close":
            seq += 1
            if "--announced" in words:  # a hand-scored close: the host's announcement
                match.host_announced_rounds.append(current_round)
            elif current_round == ROUNDS:
                seq += 1  # the computed outcome is appended with the last computed close
            current_round += 1
        elif verb == "outcome" and "--announced" in words:
            seq += 1  # the host's final results (a hand-scored match)
        elif verb in ("void", "correct"):
            target = int(words[2])
            reopen = "--reopen" in words
            tokens = []
            j = 3
            while j < len(words):
                if words[j] == "--reason":
                    j += 2
                    continue
                if words[j] == "--reopen":
                    j += 1
                    continue
                tokens.append(words[j])
                j += 1
            if reopen:
                seq += 1
                current_round = history[target][0]
            seq += 1
            history[target][3] = True
            if verb == "correct":
                rnd, who = history[target][0], history[target][1]
                history[seq] = [rnd, who, tokens, False]
        elif verb == "amend":
            seq += 1
            opt = words[words.index("--option") + 1]
            key, _, val = opt.partition("=")
            match.amendments.append((key, val, int(words[words.index("--from-round") + 1])))
        elif verb == "note":
            seq += 1
        else:
            raise ValueError(f"unsupported script line: {line!r}")
    assert match is not None
    for s in sorted(history):  # later counting submissions supersede earlier ones
        rnd, who, tokens, voided = history[s]
        if not voided:
            match.rounds.setdefault(rnd, {})[who] = parse_tokens(tokens)
    return match


def first_command(path: str | Path) -> str:
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            return line
    return ""
