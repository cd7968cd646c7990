"""Playing random pw and photographer matches through the command line."""

from __future__ import annotations

import json
import random

from .dumped import chosen_seqs, dump_audit, dump_reads, recorded_seqs
from .lca_and_fixtures import hand_scored_close
from .session import GUESTS, NAMES, PW_TYPES, Session

# --------------------------------------------------------------------------- random pw


def play_pw(seed: int, s: Session) -> None:
    rng = random.Random(f"pw-{seed}")
    n = rng.randint(2, 7)
    players = NAMES[:n]
    guests = GUESTS[:n]
    rng.shuffle(guests)
    pairs = dict(zip(players, guests))
    partner = {**pairs, **{g: p for p, g in pairs.items()}}
    everyone = players + guests
    s.run(
        "new", "pw", "m", "--players", ",".join(players), *[a for p in players for a in ("--pair", f"{p}={pairs[p]}")]
    )
    for p in players:
        names = [rng.choice(["diversity", "generosity", "espionage"])]
        if rng.random() < 0.5:
            names.append("sabotage:" + rng.choice([q for q in players if q != p]))
        s.run("contract", "m", p, *names)
    schedules = {p: _type_schedule(rng) for p in players}
    closes = []
    for r in range(3):
        subs = []
        for p in players:
            for member, types in ((p, schedules[p][r][0]), (pairs[p], schedules[p][r][1])):
                banned = {member, partner[member]}
                targets = rng.sample([x for x in everyone if x not in banned], 2)
                tokens = [
                    f"predict:{t}={rng.choice(PW_TYPES)}" if k == "predict" else f"{k}:{t}"
                    for k, t in zip(types, targets)
                ]
                if r == 2:
                    same = players if member in players else guests
                    other = guests if member in players else players
                    for guessed in same:
                        if guessed != member and rng.random() < 0.5:
                            tokens.append(f"guess:{guessed}={rng.choice(other)}")
                subs.append((member, tokens))
        rng.shuffle(subs)
        seqs = []
        for index, (member, tokens) in enumerate(subs):
            if rng.random() < 0.05:
                s.probe("submit", "m", member, f"gift:{member}", tokens[1])
            if rng.random() < 0.05:
                s.probe("submit", "m", member, tokens[0], tokens[0])
            if index == len(subs) - 1:
                s.probe("close", "m")  # W5: someone is missing
            result = s.run("submit", "m", member, *tokens)
            seqs += [(seq, member, tokens) for seq in recorded_seqs(result)]
        if seqs and rng.random() < 0.25:
            seq, member, tokens = rng.choice(seqs)
            s.run("correct", "m", str(seq), *tokens, "--reason", "same again")
        if rng.random() < 0.1:
            hand_scored_close(s, rng)
        else:
            s.run("close", "m")
        closes.append(s.head_seq())
        if r < 2 and seqs and rng.random() < 0.1:
            seq, member, tokens = rng.choice(seqs)
            s.run("correct", "m", str(seq), *tokens, "--reopen", "--reason", "reopened")
            s.run("close", "m")
            closes.append(s.head_seq())
    dump_reads(s, chosen_seqs(s, rng, closes, 2), {closes[0], s.head_seq()})
    dump_audit(s, rng, pictures=seed % 10 == 0)


def _type_schedule(rng: random.Random) -> list[tuple[list[str], list[str]]]:
    import itertools

    pool = [t for t in PW_TYPES for _ in range(2)]
    rng.shuffle(pool)
    rounds = []
    for r in range(3):
        chunk = pool[4 * r : 4 * r + 4]
        splits = []
        for pick in itertools.combinations(range(4), 2):
            a = [chunk[i] for i in pick]
            b = [chunk[i] for i in range(4) if i not in pick]
            if not set(a) & set(b):
                splits.append((a, b))
        rounds.append(rng.choice(splits))
    return rounds


# --------------------------------------------------------------------------- random photographer


def play_photographer(seed: int, s: Session) -> None:
    rng = random.Random(f"photographer-{seed}")
    players = NAMES[: rng.randint(2, 4)]
    options = []
    wind_required = rng.random() < 0.7
    if not wind_required:
        options += ["--option", "wind_required=false"]
    if rng.random() < 0.3:
        options += ["--option", "end_trigger=sunset"]
    if rng.random() < 0.15:
        options += ["--option", "row_points=1:1,2:2,3:4,4:7,5:11,6:16,7:22"]
    hand_scored = rng.random() < 0.1
    if hand_scored:
        options += ["--option", "hand_scored=true"]
    s.run("new", "photographer", "m", "--players", ",".join(players), "--seed", str(rng.randint(0, 2**32)), *options)
    turns = []
    for _ in range(400):
        status = s.json("status", "m")
        if status is None or status["phase"] == "finished":
            break
        who = status["to_play"]
        hand = len(status["hands"][who])
        if status["phase"] == "main":
            rows = [r for r, row in enumerate(status["table"], start=1) if any(place for place in row)]
            row = rng.choice(rows)
            in_row = sum(1 for place in status["table"][row - 1] if place)
            count = rng.randint(1, min(3, in_row))
            size = hand + count
            tokens = ["take", str(row), rng.choice(["left", "right"]), str(count)]
        else:
            size, tokens = hand, []
        if (wind_required or rng.random() < 0.7) and size >= 2:
            frm = rng.randint(1, size - 1)
            tokens += ["wind", f"{frm}:{rng.randint(frm + 1, size)}"]
        if rng.random() < 0.05:
            other = [p for p in players if p != who]
            s.probe("submit", "m", rng.choice(other), *tokens)
        if rng.random() < 0.03 and status["phase"] == "main":
            s.probe("submit", "m", who, "take", "9", "left", "1", "wind", "1:2")
        if rng.random() < 0.03:
            s.probe("submit", "m", who, *tokens[:-2], "wind", f"{size}:{size + 1}")
        result = s.run("submit", "m", who, *tokens)
        if result.exit_code != 0:
            break
        turns.append(s.head_seq())
    if hand_scored:
        outcome = s.json("outcome", "m") or {}
        if outcome.get("standings") and rng.random() < 0.5:
            outcome["standings"][0]["total"] += 1
        (s.folder / "final.json").write_text(json.dumps(outcome), encoding="utf-8")
        s.run("outcome", "m", "--announced", "final.json")
    s.probe("void", "m", str(turns[0] if turns else 1), "--reason", "typo")
    s.probe("close", "m")
    picks = turns[:: max(1, len(turns) // 4)]
    dump_reads(s, chosen_seqs(s, rng, picks, 2), {picks[len(picks) // 2] if picks else 1, s.head_seq()})
    dump_audit(s, rng, pictures=seed % 10 == 0)
