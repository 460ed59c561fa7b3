/**
 * The page's only script: filtering the all-rows table, and opening the run a matrix link points
 * at (`#run-N`: the filter is cleared if it hid the row, and the row's transcript opened), also
 * when the link's hash is already the page's (docs/report-format.md, HTML). It
 * reads ids and data- attributes, never user text embedded in the script (so no report value can
 * break out of the <script> element), and does nothing when the table is absent.
 */
export const CLIENT_SCRIPT = `
(function () {
  'use strict';
  var input = document.getElementById('row-filter');
  var failing = document.getElementById('row-failing');
  var table = document.getElementById('rows-table');
  var count = document.getElementById('row-count');
  if (!input || !failing || !table) return;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  function apply() {
    var needle = input.value.trim().toLowerCase();
    var onlyFailing = failing.checked;
    var shown = 0;
    rows.forEach(function (row) {
      var status = row.getAttribute('data-status');
      var hit = (!needle || row.textContent.toLowerCase().indexOf(needle) >= 0) &&
        (!onlyFailing || status === 'fail' || status === 'error');
      row.classList.toggle('hidden', !hit);
      if (hit) shown++;
    });
    if (count) count.textContent = shown + ' of ' + rows.length + ' rows shown';
  }
  function openTarget() {
    var id = window.location.hash.slice(1);
    if (!/^run-[0-9]+$/.test(id)) return;
    var row = document.getElementById(id);
    if (!row) return;
    if (row.classList.contains('hidden')) {
      input.value = '';
      failing.checked = false;
      apply();
    }
    var transcript = row.querySelector('details.transcript');
    if (transcript) transcript.open = true;
    row.scrollIntoView({ block: 'center' });
  }
  // A link to the hash already in the address bar fires no hashchange: its click opens the run
  // the same way (a modified click, such as one opening a new tab, is left to the browser).
  function openSameHash(event) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest('a[href^="#run-"]');
    if (!link || link.getAttribute('href') !== window.location.hash) return;
    event.preventDefault();
    openTarget();
  }
  input.addEventListener('input', apply);
  failing.addEventListener('change', apply);
  window.addEventListener('hashchange', openTarget);
  document.addEventListener('click', openSameHash);
  apply();
  openTarget();
})();
`;
