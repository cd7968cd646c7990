"""The ruleset of Lights, Camera, Action!: its rounds and the options a match may set or
amend (rulings L3, L5 and the card's Amendment)."""

from __future__ import annotations

from matchledger.engine.options import OptionSpec, parse_bool, parse_int

ROUNDS = 3


def _divisor(text: str) -> int:
    value = parse_int(text)
    if value < 1:
        raise ValueError(f"must be at least 1, got {value}")
    return value


OPTIONS = {
    "lights_light_lights": OptionSpec(
        "lights_light_lights",
        True,
        parse_bool,
        "L3: a light's cell can be brightened by other lights",
        last_round_used=1,  # brightness is fixed, and announced, when Round 1 closes
    ),
    "diamond_center_must_be_empty": OptionSpec(
        "diamond_center_must_be_empty",
        True,
        parse_bool,
        "L5: a diamond's centre cell must hold no action",
        last_round_used=3,
    ),
    "filming_lights_divisor": OptionSpec(
        "filming_lights_divisor",
        2,
        _divisor,
        "filming lights part A(X) / (divisor x |C|); 2 since the Amendment",
        last_round_used=3,
    ),
}
