(function () {
  var errorBox = document.getElementById('js-errors');
  var MARK = ['JS', 'ERROR'].join('-') + ': ';   // not spelled out: the DOM holds this script
  window.onerror = function (msg, src, line, col) {
    errorBox.textContent += MARK + msg + ' (line ' + line + ')\n';
  };
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function svg(host, w, h, chart) {
    var s = el('svg', {width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, 'class': 'chart',
                       'data-chart': chart, role: 'img'});
    document.getElementById(host).appendChild(s);
    return s;
  }
  function color(v) { return D.colors[v] || '#999'; }
  function tip(node, text) { el('title', {}, node, text); }
  function legend(host, items) {
    var box = document.createElement('div'); box.className = 'legend';
    items.forEach(function (it) {
      var s = document.createElement('span');
      var i = document.createElement('i'); i.style.background = it[1];
      s.appendChild(i); s.appendChild(document.createTextNode(it[0])); box.appendChild(s);
    });
    document.getElementById(host).appendChild(box);
  }
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b'];
  var drawn = 0;

  function matrix() {
    var P = D.matrix.problems, S = D.matrix.samples;
    if (!P.length) return;
    var cell = Math.max(5, Math.min(24, Math.floor(760 / Math.max(S, 1))));
    var rowH = Math.max(5, Math.min(22, cell));
    var labels = rowH >= 10, left = labels ? 200 : 20, top = 24;
    var s = svg('plot-matrix', left + S * cell + 20, top + P.length * rowH + 10, 'matrix');
    if (labels) P.forEach(function (p, r) {
      el('text', {x: left - 6, y: top + r * rowH + rowH * 0.7, 'text-anchor': 'end'}, s,
         p.length > 30 ? p.slice(0, 29) + '…' : p);
    });
    for (var c = 0; c < S; c += Math.max(1, Math.ceil(S / 20)))
      el('text', {x: left + c * cell + cell / 2, y: top - 8, 'text-anchor': 'middle'}, s, '' + c);
    D.matrix.cells.forEach(function (m) {
      var r = el('rect', {x: left + m[1] * cell + 1, y: top + m[0] * rowH + 1,
                          width: cell - 2, height: rowH - 2, rx: 2, fill: color(m[2]),
                          'class': 'cell'}, s);
      tip(r, P[m[0]] + ' sample ' + m[1] + ' (' + m[3] + '): ' + m[2] + (m[4] ? '\n' + m[4] : ''));
    });
    legend('plot-matrix', D.verdicts.map(function (v) { return [v, color(v)]; }));
    drawn++;
  }

  function distribution() {
    var langs = Object.keys(D.byLanguage);
    if (!langs.length) return;
    var W = 560, left = 80, barH = 26, top = 10, w = W - left - 20;
    var s = svg('plot-verdicts', W, top + langs.length * (barH + 12) + 24, 'verdicts');
    langs.forEach(function (lang, i) {
      var counts = D.byLanguage[lang], total = 0, x = left, y = top + i * (barH + 12);
      D.verdicts.forEach(function (v) { total += counts[v] || 0; });
      el('text', {x: left - 8, y: y + barH * 0.65, 'text-anchor': 'end'}, s, lang);
      D.verdicts.forEach(function (v) {
        var n = counts[v] || 0; if (!n) return;
        var bw = w * n / total;
        var r = el('rect', {x: x, y: y, width: Math.max(bw, 1), height: barH, fill: color(v),
                            'class': 'bar'}, s);
        tip(r, lang + ' ' + v + ': ' + n + ' of ' + total);
        if (bw > 26) el('text', {x: x + bw / 2, y: y + barH * 0.65, 'text-anchor': 'middle',
                                  fill: '#fff', style: 'fill:#fff'}, s, '' + n);
        x += bw;
      });
    });
    var ay = top + langs.length * (barH + 12) + 8;
    [0, 25, 50, 75, 100].forEach(function (p) {
      el('text', {x: left + w * p / 100, y: ay + 8, 'text-anchor': 'middle'}, s, p + '%');
    });
    legend('plot-verdicts', D.verdicts.map(function (v) { return [v, color(v)]; }));
    drawn++;
  }

  function passk() {
    var series = D.passk, names = Object.keys(series);
    var ks = [];
    names.forEach(function (n) { Object.keys(series[n]).forEach(function (k) {
      if (ks.indexOf(+k) < 0) ks.push(+k); }); });
    if (!ks.length) return;
    ks.sort(function (a, b) { return a - b; });
    var W = 560, H = 300, L = 48, R = 16, T = 14, B = 36;
    var s = svg('plot-passk', W, H, 'passk');
    var lo = Math.log2(ks[0]), hi = Math.log2(ks[ks.length - 1]);
    function X(k) { return hi > lo ? L + (Math.log2(k) - lo) / (hi - lo) * (W - L - R) : (L + W - R) / 2; }
    function Y(v) { return T + (1 - v) * (H - T - B); }
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      el('line', {x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: '#e5e7eb'}, s);
      el('text', {x: L - 6, y: Y(v) + 4, 'text-anchor': 'end'}, s, v.toFixed(2));
    });
    ks.forEach(function (k) { el('text', {x: X(k), y: H - B + 16, 'text-anchor': 'middle'}, s, '' + k); });
    el('text', {x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle'}, s, 'k (samples drawn)');
    var items = [];
    names.forEach(function (n, i) {
      var c = n === 'all' ? '#111' : palette[i % palette.length];
      var pts = Object.keys(series[n]).map(Number).sort(function (a, b) { return a - b; });
      var d = pts.map(function (k, j) { return (j ? 'L' : 'M') + X(k) + ' ' + Y(series[n][k]); }).join(' ');
      el('path', {d: d, fill: 'none', stroke: c, 'stroke-width': n === 'all' ? 3 : 2,
                  'class': 'curve'}, s);
      pts.forEach(function (k) {
        var p = el('circle', {cx: X(k), cy: Y(series[n][k]), r: 3.5, fill: c}, s);
        tip(p, n + ' pass@' + k + ' = ' + series[n][k].toFixed(4));
      });
      items.push([n, c]);
    });
    legend('plot-passk', items);
    drawn++;
  }

  function cpu() {
    var pts = D.cpu;
    if (!pts.length) return;
    var W = 1180, H = 310, L = 48, R = 16, T = 14, B = 40, top = 1.6;
    var s = svg('plot-cpu', W, H, 'cpu');
    var P = D.matrix.problems.length;
    function X(p, i) { return L + (p + 0.15 + 0.7 * (i / Math.max(D.matrix.samples - 1, 1))) / P * (W - L - R); }
    function Y(v) { return T + (1 - Math.min(v, top) / top) * (H - T - B); }
    el('rect', {x: L, y: Y(1.5), width: W - L - R, height: Y(0.8) - Y(1.5), fill: '#fdf1dc'}, s);
    [0, 0.5, 0.8, 1, 1.5].forEach(function (v) {
      el('line', {x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: v === 1 ? '#d9453d' : '#e5e7eb',
                  'stroke-dasharray': v === 1 ? '5 3' : ''}, s);
      el('text', {x: L - 6, y: Y(v) + 4, 'text-anchor': 'end'}, s, v + '×');
    });
    el('text', {x: W - R, y: Y(1) - 5, 'text-anchor': 'end'}, s, 'time limit');
    for (var p = 0; p < P; p++) {
      var x0 = L + p / P * (W - L - R);
      if (p) el('line', {x1: x0, x2: x0, y1: T, y2: H - B, stroke: '#eef0f3'}, s);
      if (P <= 24) {
        var name = D.matrix.problems[p], room = (W - L - R) / P / 6.5;
        el('text', {x: x0 + (W - L - R) / P / 2, y: H - B + 13, 'text-anchor': 'middle',
                    'class': 'muted'}, s, name.length > room ? name.slice(0, Math.max(room - 1, 3)) + '…' : name);
      }
    }
    el('text', {x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle'}, s,
       'samples, grouped by problem (band: 0.8–1.5× re-run zone)');
    pts.forEach(function (q) {
      var c = el('circle', {cx: X(q[0], q[1]), cy: Y(q[2]), r: 4, fill: color(q[3]),
                            'fill-opacity': 0.85, 'class': 'dot'}, s);
      tip(c, D.matrix.problems[q[0]] + ' sample ' + q[1] + ' (' + q[4] + '): ' + q[3] +
          ', max CPU ' + (q[2] * 100).toFixed(1) + '% of the limit');
    });
    legend('plot-cpu', D.verdicts.map(function (v) { return [v, color(v)]; }));
    drawn++;
  }

  [matrix, distribution, passk, cpu].forEach(function (f) {
    try { f(); } catch (e) { errorBox.textContent += MARK + f.name + ': ' + e + '\n'; }
  });
  var status = document.getElementById('render-status');
  status.setAttribute('data-charts', '' + drawn);
  status.textContent = 'charts rendered: ' + drawn;
})();
