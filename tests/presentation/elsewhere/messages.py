"""The toy game's own messages: one line each."""


def _entry(rounds, round_no):
    return next(entry for entry in rounds if entry["round"] == round_no)


def public_message(reveals, round_no):
    return {"round": round_no, "submitted": _entry(reveals["rounds"], round_no)["public"]["submitted"]}


def participant_message(knowledge, round_no):
    return {"round": round_no, "points": _entry(knowledge["reveals"]["rounds"], round_no)["private"]["points"]}


def public_lines(match, message):
    return [f"{match} round {message['round']}: {len(message['submitted'])} players submitted."]


def participant_lines(match, name, message):
    return [f"{name}, you scored {message['points']} in {match} round {message['round']}."]
