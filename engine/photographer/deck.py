"""The deck before the deal (ruling P2): from a recorded seed or an explicit file."""

from __future__ import annotations

from matchledger.ledger.errors import MalformedInput

from .cards import COLOURS, HAND_SIZE, SUNSET, TABLE_COLUMNS, TABLE_ROWS, all_cards, colours_for, parse_card
from .shuffle import SplitMix64, insert_sunset, shuffle


def dealt_count(n_players: int) -> int:
    """Cards the deal (P3) takes from the top: the table, then five per seat."""
    return TABLE_ROWS[n_players] * TABLE_COLUMNS + HAND_SIZE * n_players


def deck_from_seed(seed: int, n_players: int, end_trigger: str) -> list[str]:
    """P2: the whole deck, top card first, from ``seed`` (algorithm in shuffle.py)."""
    rng = SplitMix64(seed)
    deck = shuffle(all_cards(colours_for(n_players)), rng)
    if end_trigger == "sunset":
        deck = insert_sunset(deck, rng, SUNSET)
    return deck


def parse_seed(value) -> int:
    if isinstance(value, bool):
        raise MalformedInput(f"seed {value!r} is not a whole number")
    if isinstance(value, str):
        text = value.strip()
        if not text.isdigit():
            raise MalformedInput(f"seed {value!r} is not a whole number from 0 to 2**64-1")
        value = int(text)
    if not isinstance(value, int) or not 0 <= value < (1 << 64):
        raise MalformedInput(f"seed {value!r} is not a whole number from 0 to 2**64-1")
    return value


def parse_deck_lines(lines: list[str], n_players: int, end_trigger: str, where: str = "deck line") -> list[str]:
    """Check a deck listing (top card first) and return it normalized.

    Blank lines and ``#`` comments are ignored.  It must hold every card in play
    exactly once, and exactly one ``sunset`` line when ``end_trigger=sunset`` (none
    otherwise).  The sunset card may stand anywhere after the dealt cards.
    """
    colours = colours_for(n_players)
    seen: dict[str, int] = {}
    deck: list[str] = []
    sunset_line = None
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip().lower()
        if not text:
            continue
        if text == SUNSET:
            if end_trigger != "sunset":
                raise MalformedInput(
                    f"{where} {number}: 'sunset' belongs only in a deck with end_trigger=sunset "
                    f"(this match has end_trigger={end_trigger})"
                )
            if sunset_line is not None:
                raise MalformedInput(f"{where} {number}: a second 'sunset' (the first is on line {sunset_line})")
            sunset_line = number
            if len(deck) < dealt_count(n_players):
                raise MalformedInput(
                    f"{where} {number}: 'sunset' would be dealt (the deal takes the first "
                    f"{dealt_count(n_players)} cards with {n_players} players); put it later in the deck"
                )
            deck.append(SUNSET)
            continue
        try:
            colour, value = parse_card(text)
        except ValueError:
            raise MalformedInput(
                f"{where} {number}: {raw.strip()!r} is not a card (colour-value, e.g. red-7; "
                f"colours {', '.join(COLOURS)}; values 1-12)"
            ) from None
        if colour not in colours:
            raise MalformedInput(
                f"{where} {number}: {text!r} is not in play with {n_players} players (colours: {', '.join(colours)})"
            )
        card = f"{colour}-{value}"
        if card in seen:
            raise MalformedInput(f"{where} {number}: {card!r} is a duplicate (already on line {seen[card]})")
        seen[card] = number
        deck.append(card)
    missing = [card for card in all_cards(colours) if card not in seen]
    if missing:
        shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
        raise MalformedInput(f"deck is missing {len(missing)} card(s): {shown}")
    if end_trigger == "sunset" and sunset_line is None:
        raise MalformedInput("deck has no 'sunset' line, but end_trigger=sunset needs exactly one")
    return deck


def parse_deck_text(text: str, n_players: int, end_trigger: str) -> list[str]:
    if not isinstance(text, str):
        raise MalformedInput(f"deck must be the text of a deck file, got {type(text).__name__}")
    return parse_deck_lines(text.splitlines(), n_players, end_trigger)
