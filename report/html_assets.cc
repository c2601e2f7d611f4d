// The page's own style and script, inline so the file needs nothing else. The script recolours
// the map when the selector changes (the arithmetic of report/colour_scale.cc), keeps each
// cell's data-value the figure it is coloured by, and reads out a cell on hover or focus;
// "#metric=<id>" in the address opens it on that metric, and <html data-map-ready="<id>">
// says the script ran to its end. It
// only ever sets textContent and attributes: names from bundles never become markup.
#include "report/html_report.h"

namespace netdoctor::report {

std::string_view page_style() {
  return R"css(
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
header,main,footer{padding:0 24px}header{border-bottom:1px solid #ccc;padding-bottom:8px}
h1{font-size:20px;margin:16px 0 4px}h2{font-size:17px;margin:22px 0 8px}h3{font-size:15px}
.meta{color:#555}small{color:#555;font-weight:normal}
.verdict{font-size:16px;font-weight:600;padding:8px 12px;border-left:6px solid #888;background:#f3f3f3}
.verdict.root-cause-found{border-color:#b40059}.verdict.healthy{border-color:#1a7f37}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f3f3}tr.skipped td{color:#666}code{font:12px ui-monospace,monospace;word-break:break-all}
.controls{display:flex;flex-wrap:wrap;gap:16px;align-items:center;margin:8px 0}
#legend{display:inline-grid;grid-template-columns:80px 80px 80px;gap:2px 0;align-items:center}
#legend .bar{height:12px;background:linear-gradient(to right,#440154,#472d7b,#3b528b,#2c728e,#21918c,#28ae80,#5ec962,#addc30,#fde725)}
#legend-label,#legend .bar{grid-column:1 / span 3}#legend-normal{text-align:center}#legend-max{text-align:right}#legend-min,#legend-normal,#legend-max{font-size:12px;color:#333}
.key svg{vertical-align:middle}
#cell-info{min-height:2.9em;font:12px ui-monospace,monospace;background:#f7f7f7;padding:4px 8px;white-space:pre-wrap}
.map-scroll{overflow:auto;max-height:80vh;border:1px solid #ddd}
#fabric-map text{font:11px sans-serif;fill:#222}#fabric-map .frame{fill:#fafafa;stroke:#bbb}
.cell{width:10px;height:10px;stroke:#fff;stroke-width:.5;cursor:pointer}.cell:focus{outline:none;stroke:#000;stroke-width:2.5}
.culprit{stroke:#ff1f8e;stroke-width:3}.victim{stroke:#ff1f8e;stroke-width:1.5;stroke-dasharray:2 1.5}
ol.timeline{list-style:none;padding-left:0;border-left:3px solid #bbb;margin-left:8px}
ol.timeline>li{margin:0 0 14px 0;padding-left:14px;position:relative}
ol.timeline>li::before{content:"";position:absolute;left:-9px;top:5px;width:12px;height:12px;border-radius:6px;background:#888}
ol.timeline>li.improved::before{background:#1a7f37}ol.timeline>li.regressed::before{background:#b40059}
footer{color:#666;font-size:12px;margin:24px 0}
)css";
}

std::string_view page_script() {
  return R"js(
(function () {
  'use strict';
  var data = document.getElementById('map-metrics');
  if (!data) { return; }
  var scale = JSON.parse(data.textContent);
  var select = document.getElementById('metric');
  var info = document.getElementById('cell-info');
  var cells = document.querySelectorAll('#fabric-map .cell');
  function position(v, m) {
    var top = Math.abs(m.max || 0);
    v = Math.abs(v);
    if (!(top > 0)) { return 0; }
    var t = m.log_scale ? Math.log10(1 + v) / Math.log10(1 + top) : v / top;
    return Math.min(1, Math.max(0, t));
  }
  function channel(c, i) { return parseInt(c.substr(1 + 2 * i, 2), 16); }
  function colour(v, m) {
    if (v === null) { return scale.no_data; }
    var p = scale.palette, s = position(v, m) * (p.length - 1);
    var lo = Math.floor(s), hi = Math.min(lo + 1, p.length - 1), f = s - lo, out = '#';
    for (var i = 0; i < 3; i++) {
      var x = Math.round(channel(p[lo], i) * (1 - f) + channel(p[hi], i) * f);
      out += (x < 16 ? '0' : '') + x.toString(16);
    }
    return out;
  }
  function figure(v) {
    var a = Math.abs(v);
    if (a >= 1e12) { return +(v / 1e12).toPrecision(3) + 'T'; }
    if (a >= 1e9) { return +(v / 1e9).toPrecision(3) + 'G'; }
    if (a >= 1e6) { return +(v / 1e6).toPrecision(3) + 'M'; }
    if (a >= 1e4) { return +(v / 1e3).toPrecision(3) + 'k'; }
    if (a >= 100) { return v.toFixed(0); }
    return String(+v.toPrecision(3));
  }
  function valueAt(cell, k) {
    var raw = (cell.getAttribute('data-values') || '').split(',')[k];
    if (raw === '=') { return scale.metrics[k].fleet_normal; }
    return raw === undefined || raw === '' ? null : Number(raw);
  }
  function legend(m) {
    document.getElementById('legend-label').textContent =
        m.label + ' (' + m.unit + (m.log_scale ? ', log scale' : '') + ')';
    document.getElementById('legend-max').textContent = 'max ' + (m.max === null ? '-' : figure(m.max));
    document.getElementById('legend-normal').textContent =
        m.fleet_normal === null ? '' : 'fleet normal ' + figure(m.fleet_normal);
  }
  function apply(k) {
    var m = scale.metrics[k];
    if (!m) { return; }
    for (var i = 0; i < cells.length; i++) {
      var c = cells[i], v = valueAt(c, k);
      c.setAttribute('data-value', v === null ? '' : String(v));
      c.setAttribute('fill', colour(v, m));
      var t = c.querySelector('title');
      if (t) {
        t.textContent = c.getAttribute('data-entity') + ': ' + (v === null ? 'no data' : figure(v) + ' ' + m.unit);
      }
    }
    legend(m);
  }
  function readOut(cell) {
    var lines = [cell.getAttribute('data-entity') + ' - ' + (cell.getAttribute('data-detail') || '')];
    var roles = [];
    if (cell.classList.contains('culprit')) { roles.push('CULPRIT'); }
    if (cell.classList.contains('victim')) { roles.push('victim'); }
    if (roles.length) { lines[0] += ' [' + roles.join(', ') + ']'; }
    var parts = [];
    for (var k = 0; k < scale.metrics.length; k++) {
      var v = valueAt(cell, k);
      if (v !== null) { parts.push(scale.metrics[k].label + ' ' + figure(v) + ' ' + scale.metrics[k].unit); }
    }
    lines.push(parts.length ? parts.join('; ') : 'no figures');
    info.textContent = lines.join('\n');
  }
  var map = document.getElementById('fabric-map');
  function onCell(e) {
    var c = e.target;
    if (c && c.classList && c.classList.contains('cell')) { readOut(c); }
  }
  // Arrow keys move between cells: left/right through the panel, up/down a row; Tab goes
  // from panel to panel (each panel's first cell and every culprit are the tab stops).
  function step(cell, key) {
    var list = Array.prototype.slice.call(cell.parentNode.querySelectorAll('.cell'));
    var at = list.indexOf(cell), x = cell.getAttribute('x'), y = Number(cell.getAttribute('y'));
    if (key === 'ArrowRight') { return list[at + 1]; }
    if (key === 'ArrowLeft') { return list[at - 1]; }
    var down = key === 'ArrowDown', best = null;
    for (var i = 0; i < list.length; i++) {
      var c = list[i], cy = Number(c.getAttribute('y'));
      if (c.getAttribute('x') === x && (down ? cy > y : cy < y) &&
          (best === null || Math.abs(cy - y) < Math.abs(Number(best.getAttribute('y')) - y))) {
        best = c;
      }
    }
    return best;
  }
  map.addEventListener('keydown', function (e) {
    if (!/^Arrow/.test(e.key) || !e.target.classList.contains('cell')) { return; }
    var next = step(e.target, e.key);
    if (next) {
      if (!next.hasAttribute('tabindex')) { next.setAttribute('tabindex', '-1'); }
      next.focus();
      e.preventDefault();
    }
  });
  map.addEventListener('mouseover', onCell);
  map.addEventListener('focusin', onCell);
  // "#metric=<id>" opens the page on that metric: a link into the report can say what to look at.
  var wanted = /(?:^#|&)metric=([a-z-]+)/.exec(location.hash);
  for (var k = 0; wanted && k < scale.metrics.length; k++) {
    if (scale.metrics[k].id === wanted[1]) { select.value = String(k); }
  }
  select.addEventListener('change', function () { apply(Number(select.value)); });
  apply(Number(select.value));
  var root = document.documentElement;
  root.setAttribute('data-map-ready', scale.metrics.length ? scale.metrics[Number(select.value)].id : '');
  // When the page had been parsed and coloured, and when the first frame after it was drawn
  // (milliseconds since navigation began): what bench/report_bench.sh reads.
  root.setAttribute('data-ready-ms', String(Math.round(performance.now())));
  requestAnimationFrame(function () {
    setTimeout(function () { root.setAttribute('data-painted-ms', String(Math.round(performance.now()))); }, 0);
  });
})();
)js";
}

}  // namespace netdoctor::report
