// matchledger serve: the only script of every page (no inline script anywhere).
// Follows the page's stream (server-sent events) and redraws its live part, and its
// form when what may be submitted changes (its key, data-form, moves only then), keeping
// what the participant entered wherever the new form has that field; on a form's grid,
// tapping cells fills the grid's field in order.  Without this script every page and
// form still works.
(function () {
  'use strict';
  var body = document.body;

  // A grid of the form (table.pick, drawn from the game's choices): each cell button
  // carries its option's tokens (data-tokens); a tap adds it to the text field the grid
  // names (data-into), in tap order, up to data-count; a second tap takes it out.
  // Typing in that field marks the cells it names.
  function wireGrid(area, grid) {
    var input = null;
    var fields = area.querySelectorAll('input');
    for (var f = 0; f < fields.length; f++) {
      if (fields[f].name === grid.getAttribute('data-into')) { input = fields[f]; break; }
    }
    if (!input) return;
    var want = parseInt(grid.getAttribute('data-count'), 10) || 0;
    var ordered = grid.getAttribute('data-ordered') === 'true';
    var cells = grid.querySelectorAll('button.cell');
    function words(button) { return button.getAttribute('data-tokens').split(' '); }
    function matches(list, at, tokens, fold) {
      for (var k = 0; k < tokens.length; k++) {
        var typed = list[at + k];
        if (typed === undefined) return false;
        if (fold ? typed.toLowerCase() !== tokens[k].toLowerCase() : typed !== tokens[k]) return false;
      }
      return true;
    }
    function chosen() {  // the cells the field names, in its order (other words left aside)
      var list = input.value.split(/[\s,]+/).filter(function (word) { return word; });  // commas too, as the server reads it
      var found = [];
      var at = 0;
      while (at < list.length) {
        var hit = null;
        for (var pass = 0; pass < 2 && !hit; pass++) {
          for (var i = 0; i < cells.length; i++) {
            if (found.indexOf(cells[i]) < 0 && matches(list, at, words(cells[i]), pass === 1)) { hit = cells[i]; break; }
          }
        }
        if (hit) { found.push(hit); at += words(hit).length; } else { at += 1; }
      }
      return found;
    }
    function mark() {
      var list = chosen();
      for (var i = 0; i < cells.length; i++) {
        var at = list.indexOf(cells[i]);
        if (at >= 0) {
          cells[i].classList.add('chosen');
          cells[i].setAttribute('aria-pressed', 'true');
          if (ordered) cells[i].setAttribute('data-order', String(at + 1));
        } else {
          cells[i].classList.remove('chosen');
          cells[i].setAttribute('aria-pressed', 'false');
          cells[i].removeAttribute('data-order');
        }
      }
    }
    grid.addEventListener('click', function (event) {
      var button = event.target.closest('button.cell');
      if (!button) return;
      var list = chosen();
      var at = list.indexOf(button);
      if (at >= 0) list.splice(at, 1);
      else if (list.length < want) list.push(button);
      input.value = list.map(function (cell) { return cell.getAttribute('data-tokens'); }).join(' ');
      mark();
    });
    input.addEventListener('input', mark);
    mark();
    roving(grid, cells);
  }

  // A grid is one stop of the Tab key (the WAI-ARIA grid pattern): its cells are reached
  // with the arrow keys, Home and End, so that a keyboard user need not cross every cell
  // to reach the typed field and Submit.  Without this script every cell is a stop.
  function roving(grid, cells) {
    if (!cells.length) return;
    var current = grid.querySelector('button.cell.chosen') || cells[0];
    function stop(button) {
      for (var i = 0; i < cells.length; i++) cells[i].setAttribute('tabindex', cells[i] === button ? '0' : '-1');
      current = button;
    }
    function place(button) {
      var cell = button.closest('td');
      return [cell.parentNode.rowIndex, cell.cellIndex];
    }
    function at(row, column) {
      var line = grid.rows[row];
      var cell = line && line.cells[column];
      return cell ? cell.querySelector('button.cell') : null;
    }
    function next(button, dRow, dColumn) {  // the nearest cell with a button that way
      var p = place(button);
      for (var row = p[0] + dRow, column = p[1] + dColumn;
           row >= 0 && row < grid.rows.length && column >= 0 && column < grid.rows[row].cells.length;
           row += dRow, column += dColumn) {
        var found = at(row, column);
        if (found) return found;
      }
      return null;
    }
    var moves = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
    grid.addEventListener('focusin', function (event) {
      var button = event.target.closest('button.cell');
      if (button) stop(button);
    });
    grid.addEventListener('keydown', function (event) {
      var button = event.target.closest('button.cell');
      if (!button) return;
      var target = null;
      if (moves[event.key]) target = next(button, moves[event.key][0], moves[event.key][1]);
      else if (event.key === 'Home') target = cells[0];
      else if (event.key === 'End') target = cells[cells.length - 1];
      else return;
      event.preventDefault();
      if (target) { stop(target); target.focus(); }
    });
    stop(current);
  }

  function wirePicker(area) {
    var grids = area.querySelectorAll('table.pick');
    for (var i = 0; i < grids.length; i++) wireGrid(area, grids[i]);
  }

  // What the participant entered in a form: each field filled, list chosen, box ticked.
  function entries(area) {
    var kept = [];
    var controls = area.querySelectorAll('input[name], select[name]');
    for (var i = 0; i < controls.length; i++) {
      var control = controls[i];
      if (control.type === 'checkbox') {
        if (control.checked) kept.push({name: control.name, value: control.value, box: true});
      } else if (control.value) {
        kept.push({name: control.name, value: control.value, box: false});
      }
    }
    return kept;
  }

  // Put entries back into a form drawn anew, where it has the field (and a list, the
  // option; a box, its value).  Answers how many found no place.
  function restore(area, kept) {
    var lost = 0;
    for (var i = 0; i < kept.length; i++) {
      var entry = kept[i];
      var placed = false;
      var controls = area.querySelectorAll('input[name], select[name]');
      for (var c = 0; c < controls.length && !placed; c++) {
        var control = controls[c];
        if (control.name !== entry.name) continue;
        if (entry.box) {
          if (control.type === 'checkbox' && control.value === entry.value) { control.checked = true; placed = true; }
        } else if (control.tagName === 'SELECT') {
          for (var o = 0; o < control.options.length; o++) {
            if (control.options[o].value === entry.value) { control.value = entry.value; placed = true; break; }
          }
        } else if (control.type !== 'checkbox') {
          control.value = entry.value;
          placed = true;
        }
      }
      if (!placed) lost += 1;
    }
    return lost;
  }

  // Tell the participant the form changed under what they entered (never silently).
  function noteChange(area, lost) {
    var note = document.createElement('p');
    note.className = 'notice';
    note.setAttribute('role', 'status');
    note.textContent = 'What you may submit has changed since you began: check what you entered before submitting.' +
      (lost ? ' ' + lost + ' of your choices ' + (lost === 1 ? 'is' : 'are') + ' not offered any more and ' +
        (lost === 1 ? 'was' : 'were') + ' left out.' : '');
    area.insertBefore(note, area.firstChild);
  }

  function formKey(area) {
    var holder = area && area.querySelector('[data-form]');
    return holder ? holder.getAttribute('data-form') : null;
  }

  var formArea = document.getElementById('form-area');
  if (formArea) wirePicker(formArea);

  // A deadline (time.deadline, its UTC instant in datetime): shown in the viewer's own
  // zone, with the time left, redrawn each half minute (and after each live update,
  // which may bring a new one).  Without the script the page reads the UTC time.
  function countdowns() {
    var times = document.querySelectorAll('time.deadline');
    for (var i = 0; i < times.length; i++) {
      var at = new Date(times[i].getAttribute('datetime'));
      if (isNaN(at.getTime())) continue;
      var left = Math.round((at.getTime() - Date.now()) / 60000);  // minutes
      var span = left <= 0 ? 'passed' : (left >= 1440 ? Math.floor(left / 1440) + ' d ' : '') +
        (left >= 60 ? Math.floor(left % 1440 / 60) + ' h ' : '') + left % 60 + ' min left';
      times[i].textContent = at.toLocaleString([], {dateStyle: 'medium', timeStyle: 'short'}) + ' your time (' + span + ')';
    }
  }
  countdowns();
  setInterval(countdowns, 30000);

  var events = body.getAttribute('data-events');
  if (!events || !window.EventSource) return;
  var updates = 0;
  var lastLive = null;
  var lastNow = null;
  // The stream, opened again should it fail for good: the browser reconnects by itself
  // after a stream that ended, but not after an answer that is no stream (a 503 while
  // the ledger cannot be read), so the script tries again a few seconds later, until
  // the service refuses the link.
  var source = null;
  var refusedNow = false;
  var again = 5000;  // ms before the next try, doubled up to a minute while it fails
  function listen() {
    source = new EventSource(events);
    source.addEventListener('view', function (event) {
      var message = JSON.parse(event.data);
      var live = document.getElementById('live');
      if (live && message.live !== lastLive) { live.innerHTML = message.live; lastLive = message.live; }
      var now = document.getElementById('now');  // a participant's "Now" part, at the page's top
      if (now && typeof message.now === 'string' && message.now !== lastNow) { now.innerHTML = message.now; lastNow = message.now; }
      if (formArea && typeof message.form === 'string') {
        var holder = document.createElement('div');
        holder.innerHTML = message.form;
        if (formKey(holder) !== formKey(formArea)) {
          var kept = entries(formArea);
          formArea.innerHTML = message.form;
          var lost = restore(formArea, kept);
          if (kept.length) noteChange(formArea, lost);
          wirePicker(formArea);  // after restoring: a grid marks the cells its field names
        }
      }
      countdowns();
      updates += 1;
      body.setAttribute('data-updates', String(updates));
    });
    source.addEventListener('refused', function (event) {
      var live = document.getElementById('live');
      var note = document.createElement('p');
      note.className = 'notice error';
      note.textContent = JSON.parse(event.data).error;
      if (live) live.insertBefore(note, live.firstChild);
      refusedNow = true;
      source.close();
    });
    source.addEventListener('open', function () { again = 5000; });
    source.addEventListener('error', function () {
      if (source.readyState !== EventSource.CLOSED || refusedNow) return;
      setTimeout(listen, again);
      again = Math.min(again * 2, 60000);  // a link revoked meanwhile answers 403: asked ever more rarely
    });
  }
  listen();
})();
