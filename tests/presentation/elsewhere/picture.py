"""The toy game's own picture: one bar a player (the generic panels beside it)."""

from matchledger.projections.presentation import generic_picture
from matchledger.projections.presentation.svg import Canvas


def board(models):
    totals = models["scores"]["totals"]
    canvas = Canvas(200, 20 + 20 * len(totals))
    for index, (name, points) in enumerate(totals.items()):
        canvas.rect(60, 10 + 20 * index, 5 * points, 14, "#3f6fb5", class_="toy-bar", data_player=name)
        canvas.text(10, 22 + 20 * index, name)
    return canvas


def headline(models):
    return f"toy after round {models['status']['round'] - 1}"


panels = generic_picture.panels


def legend(models):
    return [("points", "#3f6fb5")]
