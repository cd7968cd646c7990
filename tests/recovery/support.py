"""Matches recorded as a host types them, and what every view of a match shows, to
compare a recovered match with one in which the mistake never happened."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.helpers import invoke, read_json

STUDIO = "\n".join(["........"] * 8) + "\n"
LCA_PLAYERS = ["ann", "bob", "cat"]
LCA_ROUNDS = [
    {"ann": "B2 C3 D4 E5 F6", "bob": "B3 C4 D5 E6 F7", "cat": "G2 G3 G4 G5 G6"},
    {"ann": "B2 E5 B5", "bob": "C3 F6 C6", "cat": "G2 G5 B5"},
    {"ann": "A1 A8 H8", "bob": "A2 A7 H7", "cat": "H1 D1 D8"},
]
PW_PAIRS = {"ann": "zed", "bob": "yan"}
PW_ROUNDS = [
    {
        "ann": "gift:bob predict:yan=learn",
        "zed": "learn:bob swap:yan",
        "bob": "gift:ann watch:zed",
        "yan": "predict:zed=gift unique:ann",
    },
    {
        "ann": "watch:bob unique:yan",
        "zed": "gift:yan predict:bob=swap",
        "bob": "learn:zed swap:ann",
        "yan": "unique:zed watch:ann",
    },
    {
        "ann": "swap:yan learn:bob",
        "zed": "unique:bob watch:yan",
        "bob": "gift:zed learn:ann",
        "yan": "predict:zed=gift swap:ann",
    },
]
#: The first turns of fixtures/photographer/g2-seed7.txt (seed 7).
PHOTOGRAPHER_SEED = 7
PHOTOGRAPHER_TURNS = [
    "ann take 1 left 3 wind 1:2",
    "bob take 2 left 3 wind 1:2",
    "ann take 3 left 2 wind 1:2",
    "bob take 3 left 2 wind 1:2",
    "ann take 1 left 3 wind 1:4",
    "bob take 1 left 1 wind 1:2",
]


def new_lca(db: Path, folder: Path, match: str = "m1") -> None:
    studio = folder / "studio.txt"
    studio.write_text(STUDIO, encoding="utf-8")
    invoke(db, "new", "lca", match, "--players", ",".join(LCA_PLAYERS), "--studio", studio)


def submit_round(db: Path, match: str, submissions: dict[str, str], only=None) -> None:
    for who, tokens in submissions.items():
        if only is None or who in only:
            invoke(db, "submit", match, who, *tokens.split())


def play_rounds(db: Path, match: str, rounds: list[dict[str, str]]) -> None:
    """Every participant submits in each round, and each round closes."""
    for submissions in rounds:
        submit_round(db, match, submissions)
        invoke(db, "close", match)


def new_pw(db: Path, match: str = "p1") -> None:
    pairs = [arg for player, guest in PW_PAIRS.items() for arg in ("--pair", f"{player}={guest}")]
    invoke(db, "new", "pw", match, "--players", ",".join(PW_PAIRS), *pairs)


def new_photographer(db: Path, match: str = "g1") -> None:
    invoke(db, "new", "photographer", match, "--players", "ann,bob", "--seed", PHOTOGRAPHER_SEED)


def play_turns(db: Path, match: str, turns: list[str]) -> None:
    for turn in turns:
        invoke(db, "submit", match, *turn.split())


def every_view(db: Path, match: str, participants: list[str]) -> dict[str, object]:
    """Every read model in every view, as the command line prints it in JSON."""
    shown: dict[str, object] = {}
    for model in ("status", "scores", "outcome", "reveals"):
        shown[f"{model}:host"] = read_json(db, model, match)
        shown[f"{model}:public"] = read_json(db, model, match, "--public")
        for who in participants:
            shown[f"{model}:{who}"] = read_json(db, model, match, "--as", who)
    for who in participants:
        shown[f"knowledge:{who}"] = read_json(db, "knowledge", match, "--as", who)
    return shown


def verified(db: Path, match: str) -> bool:
    return json.loads(invoke(db, "verify", match, "--json").stdout)["ok"]


def stored_rows(db: Path) -> list[tuple]:
    """Every stored event row: what a refused command must leave unchanged."""
    if not Path(db).exists():
        return []
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT match_id, seq, kind, body, hash FROM events ORDER BY match_id, seq"
        ).fetchall()
