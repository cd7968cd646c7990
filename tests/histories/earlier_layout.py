"""The snapshot text as matchledger 0.1 wrote it, to test that an upgrade reads it: a
section a view, every ``(removed)`` line after the lines that changed, a record holding
maps of lists on one line, no line for a step that shows nothing new, and no log."""

from __future__ import annotations

import pytest

from matchledger.testing import paths


def earlier_text(history) -> str:
    lines = [f"match {history.match}, game {history.game}", f"verify: {paths.value_text(history.findings)}"]
    shown: dict[str, dict[str, str]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            paths,
            "is_leaf",
            lambda v: paths.is_flat(v) or (isinstance(v, dict) and all(map(paths.is_flat, v.values()))),
        )
        for step in history.steps:
            for view, models in step.views.items():
                now = paths.flatten(models)
                before = shown.get(view, {})
                changed = [(path, text) for path, text in now.items() if before.get(path) != text]
                changed += [(path, paths.REMOVED) for path in before if path not in now]
                if changed:
                    lines.append(f"{step.label} (seq {step.seq}), view {view}")
                    lines += [f"  {path}: {text}" for path, text in changed]
                shown[view] = now
    return "\n".join(lines)
