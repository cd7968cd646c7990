"""A tiny game for testing the ledger core on its own: each round every player names
a whole number 1–9; closing a round adds each player's number to their total.  It
exists only in tests, registered as ``toy``."""

from __future__ import annotations

from matchledger.engine.options import OptionSpec, parse_int
from matchledger.engine.rounds import RoundsGame
from matchledger.engine.state import View
from matchledger.ledger.errors import IllegalMove, MalformedInput


class ToyGame(RoundsGame):
    name = "toy"
    ROUNDS = 3
    OPTIONS = {"multiplier": OptionSpec("multiplier", 1, parse_int, "points per pip")}

    def init_game(self, state):
        return dict.fromkeys(state.players, 0)

    def parse_submission(self, state, participant, round_no, tokens, replacing=None):
        if len(tokens) != 1 or not tokens[0].isdigit() or not 1 <= int(tokens[0]) <= 9:
            raise MalformedInput(f"toy takes one number 1-9, got {' '.join(tokens)!r}")
        return [str(int(tokens[0]))]

    def check_can_close(self, state):
        if not state.round_submissions(state.round):
            raise IllegalMove(f"round {state.round}: nobody has submitted")

    def resolve_round(self, state, round_no):
        factor = state.options_for(round_no)["multiplier"]
        return {p: int(s.tokens[0]) * factor for p, s in state.round_submissions(round_no).items()}

    def store_round(self, state, round_no, result):
        for player, points in result.items():
            state.g[player] += points

    def announce_round(self, state, round_no, result):
        return {"submitted": sorted(result)}, {p: {"points": pts} for p, pts in result.items()}

    def scores(self, state, view: View):
        if view.is_host:
            return {"totals": dict(state.g)}
        if view.participant:
            return {"totals": {view.participant: state.g[view.participant]}}
        return {"totals": {}}

    def outcome(self, state, view):
        ranked = sorted(state.players, key=lambda p: (-state.g[p], state.players.index(p)))
        return {
            "match": state.match_id,
            "game": self.name,
            "finished": state.round > self.ROUNDS,
            "standings": [{"participant": p, "rank": i + 1, "total": state.g[p]} for i, p in enumerate(ranked)],
            "awards": [],
        }

    def reveals(self, state, view):
        rounds = []
        for round_no, event in sorted(state.announcements.items()):
            entry = {"round": round_no, "public": event.public}
            if view.participant:
                entry["private"] = event.private.get(view.participant, {})
            elif view.is_host:
                entry["private"] = event.private
            rounds.append(entry)
        return {"rounds": rounds}

    def status(self, state, view):
        return {"round": state.round, "submitted": sorted(state.round_submissions(state.round))}

    def knowledge(self, state, participant):
        return {"reveals": self.reveals(state, View("participant", participant))}


GAME = ToyGame()
