"""What is dumped of a match: its read models in every view at chosen seqs, and what an
auditor runs."""

from __future__ import annotations

import contextlib
import os
import random

from .session import Session

# --------------------------------------------------------------------------- what is dumped


def participants_of(s: Session) -> list[str]:
    """Every participant, in the order the knowledge views are dumped (host status)."""
    status = s.json("status", "m") or {}
    names = list(status.get("players") or [])
    if status.get("game") == "pw":
        names += [pair["guest"] for pair in status.get("pairs", [])]
    if status.get("game") == "photographer":
        names = [p["participant"] for p in status.get("players", [])]
    return names


def dump_reads(s: Session, seqs: list[int], text_seqs: set[int], all_views_at: set[int] | None = None) -> None:
    names = participants_of(s)
    final = s.head_seq()
    for seq in seqs:
        at = [] if seq == final else ["--at", str(seq)]
        views = [[], ["--public"]]
        chosen = names if all_views_at is None or seq in all_views_at else names[:1]
        views += [["--as", n] for n in chosen]
        s.out.write(f"=== reads at seq {seq}\n")
        for model in ("status", "scores", "outcome", "reveals"):
            for view in views:
                s.run(model, "m", *view, *at, "--json")
                if seq in text_seqs:
                    s.run(model, "m", *view, *at)
        for name in chosen:
            s.run("knowledge", "m", "--as", name, *at, "--json")
            if seq in text_seqs:
                s.run("knowledge", "m", "--as", name, *at)
            s.run("explain", "m", name, *at, "--json")
            if seq in text_seqs:
                s.run("explain", "m", name, *at)


def dump_audit(s: Session, rng: random.Random, pictures: bool) -> None:
    names = participants_of(s)
    final = s.head_seq()
    s.out.write("=== audit\n")
    for args in (
        ["log", "m"],
        ["log", "m", "--json"],
        ["log", "m", "--at", "2"],
        ["head", "m"],
        ["head", "m", "--json"],
        ["verify", "m"],
        ["verify", "m", "--json"],
        ["audit", "m"],
        ["audit", "m", "--json"],
        ["export", "m"],
        ["diff", "m", "m"],
        ["diff", "m", "m", "--json"],
        ["checkpoint", "m"],
        ["verify", "m"],
    ):
        s.run(*args)
    head = s.json("head", "m")
    if head:
        s.run("verify", "m", "--head", f"{head['seq']}:{head['hash']}")
        s.run("verify", "m", "--head", f"{max(1, head['seq'] - 1)}:{head['hash']}")
        s.run("verify", "m", "--head", f"{head['seq'] + 1}:{head['hash']}")
    status = s.json("status", "m") or {}
    rescore = {
        "lca": ["--option", "filming_lights_divisor=1", "--option", "diamond_center_must_be_empty=false"],
        "photographer": ["--option", "row_points=1:2,2:4,3:6,4:8,5:10,6:12,7:14"],
    }.get(status.get("game"))
    if rescore:
        s.run("rescore", "m", *rescore)
        s.run("rescore", "m", *rescore, "--json")
    if pictures:
        views = [[], ["--public"]] + ([["--as", names[0]]] if names else [])
        for view in views:
            s.run("render", "m", *view, "-o", "pic.svg")
            s.out.write(
                (s.folder / "pic.svg").read_text(encoding="utf-8") if (s.folder / "pic.svg").exists() else "(no svg)\n"
            )
            with contextlib.suppress(FileNotFoundError):
                os.unlink(s.folder / "pic.svg")
            s.run("report", "m", *view, "-o", "page.html")
            s.out.write(
                (s.folder / "page.html").read_text(encoding="utf-8")
                if (s.folder / "page.html").exists()
                else "(no page)\n"
            )
            with contextlib.suppress(FileNotFoundError):
                os.unlink(s.folder / "page.html")
        if final > 2:
            s.run("render", "m", "--public", "--at", str(final // 2), "-o", "mid.svg")
            s.out.write(
                (s.folder / "mid.svg").read_text(encoding="utf-8") if (s.folder / "mid.svg").exists() else "(no svg)\n"
            )
    # views and seqs no one may ask for
    for args in (
        ["status", "m", "--as", "nobody"],
        ["knowledge", "m", "--as", "Nobody"],
        ["status", "m", "--at", "0"],
        ["status", "m", "--at", str(final + 1)],
        ["outcome", "m", "--public", "--as", names[0] if names else "x"],
        ["explain", "m", "nobody"],
        ["status", "nomatch"],
        ["log", "nomatch"],
        ["verify", "nomatch"],
        ["export", "nomatch"],
        ["head", "nomatch"],
        ["audit", "nomatch"],
        ["reveals", "m", "--as", ""],
        ["verify", "m", "--head", "1:abc"],
        ["void", "m", str(final + 5), "--reason", "x"],
        ["void", "m", "1", "--reason", "x"],
        ["submit", "m", "nobody", "x"],
        ["close", "m"],
        ["note", "m", ""],
        ["amend", "m", "--option", "bogus=1", "--from-round", "1", "--reason", "r"],
    ):
        s.probe(*args)
    if names:
        s.probe("submit", "m", rng.choice(names), "B2")
        s.probe("contract", "m", names[0], "lights")


def chosen_seqs(s: Session, rng: random.Random, boundaries: list[int], extra: int) -> list[int]:
    final = s.head_seq()
    chosen = {seq for seq in boundaries if 1 <= seq <= final} | {1, final}
    population = list(range(1, final + 1))
    chosen |= set(rng.sample(population, min(extra, len(population))))
    return sorted(chosen)


def recorded_seqs(result) -> list[int]:
    """The seqs a write command says it recorded ('recorded seq 7 (...)', 'seq 7–9')."""
    text = result.stdout
    marker = "recorded seq "
    if marker not in text:
        return []
    rest = text.split(marker, 1)[1].split(" ", 1)[0]
    first, _, last = rest.partition("–")
    try:
        return list(range(int(first), int(last or first) + 1))
    except ValueError:
        return []
