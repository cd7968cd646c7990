// matchledger serve: the only script of every page (no inline script anywhere).
// Follows the page's stream (server-sent events) and redraws its live part, and its
// form when what may be submitted changes; on an lca form, tapping cells fills the
// tokens field in order.  Without this script every page and form still works.
(function () {
  'use strict';
  var body = document.body;

  function wirePicker(area) {
    var grid = area.querySelector('table.pick');
    var input = area.querySelector('input[name=tokens]');
    if (!grid || !input) return;
    var want = parseInt(grid.getAttribute('data-count'), 10) || 0;
    function chosen() {
      var value = input.value.trim().toUpperCase();
      return value ? value.split(/\s+/) : [];
    }
    function mark() {
      var list = chosen();
      var cells = grid.querySelectorAll('button.cell');
      for (var i = 0; i < cells.length; i++) {
        var at = list.indexOf(cells[i].getAttribute('data-cell'));
        if (at >= 0) { cells[i].classList.add('chosen'); cells[i].setAttribute('data-order', String(at + 1)); }
        else { cells[i].classList.remove('chosen'); cells[i].removeAttribute('data-order'); }
      }
    }
    grid.addEventListener('click', function (event) {
      var button = event.target.closest('button.cell');
      if (!button) return;
      var list = chosen();
      var cell = button.getAttribute('data-cell');
      var at = list.indexOf(cell);
      if (at >= 0) list.splice(at, 1);
      else if (list.length < want) list.push(cell);
      input.value = list.join(' ');
      mark();
    });
    input.addEventListener('input', mark);
    mark();
  }

  function formKey(area) {
    var holder = area && area.querySelector('[data-form]');
    return holder ? holder.getAttribute('data-form') : null;
  }

  var formArea = document.getElementById('form-area');
  if (formArea) wirePicker(formArea);

  var events = body.getAttribute('data-events');
  if (!events || !window.EventSource) return;
  var updates = 0;
  var lastLive = null;
  var source = new EventSource(events);
  source.addEventListener('view', function (event) {
    var message = JSON.parse(event.data);
    var live = document.getElementById('live');
    if (live && message.live !== lastLive) { live.innerHTML = message.live; lastLive = message.live; }
    if (formArea && typeof message.form === 'string') {
      var holder = document.createElement('div');
      holder.innerHTML = message.form;
      if (formKey(holder) !== formKey(formArea)) {
        formArea.innerHTML = message.form;
        wirePicker(formArea);
      }
    }
    updates += 1;
    body.setAttribute('data-updates', String(updates));
  });
  source.addEventListener('refused', function (event) {
    var live = document.getElementById('live');
    var note = document.createElement('p');
    note.className = 'notice error';
    note.textContent = JSON.parse(event.data).error;
    if (live) live.insertBefore(note, live.firstChild);
    source.close();
  });
})();
