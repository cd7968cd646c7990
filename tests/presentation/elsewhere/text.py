"""The toy game's own terminal text: its scores as a line."""


def text(model, data, view):
    if model == "scores":
        return "toy totals: " + ", ".join(f"{name} has {points}" for name, points in data["totals"].items())
    return None
