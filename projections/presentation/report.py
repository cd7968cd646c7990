"""The replay page: one self-contained HTML file (inline CSS and JS, data as embedded
JSON, no network) with step buttons, a range slider and arrow keys over the match's
events, showing for each step the board or table, the reveals, the scores and the
outcome in the chosen view.  Identical boards and panels are stored once.

The page reads its first step from the URL hash (``#seq=5``); with ``selftest`` in the
hash (``#seq=5&selftest``) it also clicks "next", presses the left arrow, and writes
what it showed into ``<pre id="selftest">`` so a headless browser test can read it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

from .picture import board_svg, side_panels, title
from .wording import game_title


@dataclass(frozen=True)
class Step:
    """One event's frame, drawn at once (read models may share objects with a state
    that the replay goes on mutating)."""

    seq: int
    kind: str  # the event's tag
    detail: str  # what the view may see about the event ('' for none)
    headline: str
    board: str  # the board's SVG
    panels: str  # the panels as canonical JSON

    @classmethod
    def of(cls, seq: int, kind: str, detail: str, models: dict) -> Step:
        side = json.dumps([p.as_dict() for p in side_panels(models)], ensure_ascii=False, sort_keys=True)
        return cls(seq, kind, detail, title(models), board_svg(models), side)


def _intern(table: list[str], index: dict[str, int], value: str) -> int:
    found = index.get(value)
    if found is None:
        found = index[value] = len(table)
        table.append(value)
    return found


def build_data(match: str, game: str, view_label: str, steps: list[Step]) -> dict:
    boards: list[str] = []
    board_index: dict[str, int] = {}
    panel_sets: list[str] = []
    panel_index: dict[str, int] = {}
    frames = []
    for step in steps:
        frames.append(
            {
                "seq": step.seq,
                "kind": step.kind,
                "detail": step.detail,
                "headline": step.headline,
                "board": _intern(boards, board_index, step.board),
                "panels": _intern(panel_sets, panel_index, step.panels),
            }
        )
    return {
        "match": match,
        "game": game,
        "view": view_label,
        "frames": frames,
        "boards": boards,
        "panels": [json.loads(p) for p in panel_sets],
    }


def _script_json(data: dict) -> str:
    """JSON safe inside a <script> element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


CSS = """
body { font-family: 'DejaVu Sans', Verdana, sans-serif; margin: 16px; color: #222; background: #fafafa; }
h1 { font-size: 18px; margin: 0 0 8px 0; }
#controls { display: flex; gap: 6px; align-items: center; margin: 8px 0; }
#controls button { font-size: 14px; padding: 2px 10px; }
#slider { flex: 1; max-width: 640px; }
#current { font-weight: bold; }
#detail { color: #555; min-height: 1.2em; margin-bottom: 8px; }
main { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
#board { background: #fff; border: 1px solid #ddd; min-width: 0; max-width: 100%; }
#board svg { display: block; max-width: 100%; height: auto; }
#panels table { border-collapse: collapse; margin: 2px 0 12px 0; font-size: 13px; }
#panels { min-width: 0; max-width: 100%; }
#panels th, #panels td { text-align: left; padding: 1px 10px 1px 0; vertical-align: top; }
#panels th { color: #666; overflow-wrap: anywhere; }
#panels h2 { font-size: 14px; margin: 6px 0 2px 0; }
"""

JS = r"""
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var frames = data.frames;
  var slider = document.getElementById('slider');
  var index = frames.length - 1;

  function el(tag, text) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; }

  function drawPanels(list) {
    var box = document.getElementById('panels');
    while (box.firstChild) box.removeChild(box.firstChild);
    list.forEach(function (panel) {
      var section = el('section'); section.className = 'panel'; section.setAttribute('data-key', panel.key);
      section.appendChild(el('h2', panel.title));
      var table = el('table');
      if (panel.header) {
        var tr = el('tr'); panel.header.forEach(function (h) { tr.appendChild(el('th', h)); }); table.appendChild(tr);
      }
      panel.rows.forEach(function (row) {
        var tr = el('tr'); row.forEach(function (c) { tr.appendChild(el('td', c)); }); table.appendChild(tr);
      });
      section.appendChild(table);
      box.appendChild(section);
    });
  }

  var params = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (part) {
    if (!part) return;
    var kv = part.split('='); params[kv[0]] = kv.length > 1 ? decodeURIComponent(kv[1]) : '';
  });

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[index];
    slider.value = String(index + 1);
    var current = document.getElementById('current');
    current.textContent = 'seq ' + f.seq + ' / ' + frames[frames.length - 1].seq + ' \u2014 ' + f.kind;
    current.setAttribute('data-seq', String(f.seq));
    current.setAttribute('data-kind', f.kind);
    document.getElementById('detail').textContent = f.detail;
    document.getElementById('headline').textContent = f.headline;
    document.getElementById('board').innerHTML = data.boards[f.board];
    drawPanels(data.panels[f.panels]);
    document.getElementById('prev').disabled = index === 0;
    document.getElementById('first').disabled = index === 0;
    document.getElementById('next').disabled = index === frames.length - 1;
    document.getElementById('last').disabled = index === frames.length - 1;
    // the address follows the step shown, so a link copied now opens at it
    if (history.replaceState) {
      history.replaceState(null, '', '#seq=' + f.seq + ('selftest' in params ? '&selftest' : ''));
    }
  }

  function seqIndex(seq) {
    for (var i = 0; i < frames.length; i++) { if (frames[i].seq >= seq) return i; }
    return frames.length - 1;
  }

  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(index - 1); });
  document.getElementById('next').addEventListener('click', function () { show(index + 1); });
  document.getElementById('last').addEventListener('click', function () { show(frames.length - 1); });
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10) - 1); });
  document.addEventListener('keydown', function (e) {
    if (e.target === slider) return;  // the slider handles its own arrows
    if (e.key === 'ArrowLeft') { show(index - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { show(index + 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(frames.length - 1); e.preventDefault(); }
  });

  show(params.seq ? seqIndex(parseInt(params.seq, 10)) : frames.length - 1);

  if ('selftest' in params) {
    function snap() {
      var c = document.getElementById('current');
      return { seq: parseInt(c.getAttribute('data-seq'), 10), kind: c.getAttribute('data-kind'),
               panels: document.querySelectorAll('#panels section').length,
               board: document.querySelectorAll('#board svg').length, hash: location.hash };
    }
    var result = { start: snap() };
    document.getElementById('next').click();
    result.after_next = snap();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    result.after_left = snap();
    slider.value = '1'; slider.dispatchEvent(new Event('input'));
    result.after_slider = snap();
    var out = document.getElementById('selftest');
    out.textContent = JSON.stringify(result);
    out.hidden = false;
  }
})();
"""


def report_html(match: str, game: str, view_label: str, steps: list[Step]) -> str:
    if not steps:
        raise ValueError("a report needs at least one step")
    data = build_data(match, game, view_label, steps)
    n = len(steps)
    heading = f"{match} ({game_title(game)}) — replay — view: {view_label}"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(heading)}</title>",
            f"<style>{CSS}</style>",
            "</head>",
            "<body>",
            f"<h1>{escape(heading)}</h1>",
            '<div id="headline"></div>',
            '<div id="controls">',
            '<button id="first" title="first event (Home)">&#xAB; first</button>',
            '<button id="prev" title="previous event (left arrow)">&#x25C0;</button>',
            f'<input type="range" id="slider" min="1" max="{n}" value="{n}" step="1" aria-label="event">',
            '<button id="next" title="next event (right arrow)">&#x25B6;</button>',
            '<button id="last" title="last event (End)">last &#xBB;</button>',
            "</div>",
            '<div id="current" data-seq="" data-kind=""></div>',
            '<div id="detail"></div>',
            "<main>",
            '<div id="board"></div>',
            '<div id="panels"></div>',
            "</main>",
            '<pre id="selftest" hidden></pre>',
            f'<script type="application/json" id="data">{_script_json(data)}</script>',
            f"<script>{JS}</script>",
            "</body>",
            "</html>",
            "",
        ]
    )
