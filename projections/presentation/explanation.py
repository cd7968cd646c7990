"""The terminal text of ``explain``: each category with its score (and its exact value
where the game rounds it), a line for each scoring step with the rule behind it, and
the total."""

from __future__ import annotations

from .printable import printable_data


def explanation_text(data: dict) -> str:
    """The text of an explanation (the dict a game's ``explain`` returns), its strings
    made printable."""
    data = printable_data(data)
    out = []
    for category in data["categories"]:
        rounded = category.get("exact") not in (None, str(category["score"]))
        out.append(
            f"{category['category']}: {category['score']}" + (f"  (exact {category['exact']})" if rounded else "")
        )
        for line in category["lines"]:
            out.append(f"  {str(line['points']):>8}  {line['detail']}  [{line['rule']}]")
    out.append(f"total: {data['total']}")
    return "\n".join(out)
