// The page's side of the Galton board (web/index.html): runs the module's steps and draws the
// board, the balls and the histogram on a canvas. Plain JavaScript, no framework. Everything
// but galtonStart stays inside this function: the module's own script defines globals (run,
// among others) in the same page.
(function () {
'use strict';

var galton = null; // the module's functions, once loaded

window.galtonStart = function () {
  var c = Module.cwrap;
  galton = {
    selectBackend: c('gw_select_backend', 'number', ['string']),
    backend: c('gw_backend', 'string', []),
    create: c('gw_create', 'number', ['number', 'number', 'number', 'number']),
    step: c('gw_step', 'number', ['number']),
    done: c('gw_done', 'number', []),
    steps: c('gw_steps', 'number', []),
    hash: c('gw_hash', 'string', []),
    ballCount: c('gw_ball_count', 'number', []),
    ballX: c('gw_ball_x', 'number', []),
    ballY: c('gw_ball_y', 'number', []),
    ballRadius: c('gw_ball_radius', 'number', []),
    capsuleCount: c('gw_capsule_count', 'number', []),
    firstPin: c('gw_first_pin', 'number', []),
    firstDivider: c('gw_first_divider', 'number', []),
    ax: c('gw_capsule_ax', 'number', []),
    ay: c('gw_capsule_ay', 'number', []),
    bx: c('gw_capsule_bx', 'number', []),
    by: c('gw_capsule_by', 'number', []),
    cr: c('gw_capsule_radius', 'number', []),
    bound: c('gw_bound', 'number', ['number']),
    binCount: c('gw_bin_count', 'number', []),
    bins: c('gw_bins', 'number', []),
    binomial: c('gw_binomial', 'number', ['number'])
  };
  var q = new URLSearchParams(location.search);
  var form = document.getElementById('controls');
  ['balls', 'backend', 'speed'].forEach(function (k) {
    if (q.has(k)) form.elements[k].value = q.get(k);
  });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    run(settings(form, q, false));
  });
  run(settings(form, q, q.has('steps')));
};

function settings(form, q, fixed) {
  return {
    balls: parseInt(form.elements.balls.value, 10) || 3000,
    rows: parseInt(q.get('rows') || '24', 10),
    seed: parseInt(q.get('seed') || '1', 10),
    hopper: parseInt(q.get('hopper') || '300', 10),
    backend: form.elements.backend.value,
    speed: parseFloat(form.elements.speed.value),
    steps: fixed ? parseInt(q.get('steps'), 10) : 0 // > 0: run this many, then stop
  };
}

function show(id, text) {
  document.getElementById(id).textContent = text;
}

var runId = 0;

function run(s) {
  var id = ++runId;
  if (galton.selectBackend(s.backend) !== 0) {
    show('status', 'backend ' + s.backend + ' is not available here');
    return;
  }
  if (galton.create(s.balls, s.rows, s.seed, s.hopper) !== 0) {
    show('status', 'cannot build the board');
    return;
  }
  var view = makeView();
  show('backend', galton.backend());
  show('balls', String(s.balls));
  show('status', s.steps > 0 ? 'running ' + s.steps + ' steps' : 'running');
  var dt = 1 / 240;
  var busy = 0, ran = 0, t0 = performance.now(), last = t0;
  var rateSteps = 0, rateTime = 0;

  function report() {
    var steps = galton.steps();
    show('steps', String(steps));
    show('simulated', (steps * dt).toFixed(2) + ' s');
    if (busy > 0 && ran > 0) {
      show('cost', (busy / ran).toFixed(3));
      show('fastest', Math.round(ran / (busy / 1000)).toString());
    }
    show('hash', galton.hash());
  }

  // Test mode: N steps in slices (the page stays responsive), then the hash in the DOM.
  function fixedSlice() {
    if (id !== runId) return;
    var want = Math.min(60, s.steps - galton.steps());
    var a = performance.now();
    var n = want > 0 ? galton.step(want) : 0;
    busy += performance.now() - a;
    ran += n;
    if (n > 0 && galton.steps() < s.steps) {
      setTimeout(fixedSlice, 0);
      return;
    }
    draw(view);
    report();
    show('rate', document.getElementById('fastest').textContent);
    show('status', 'done: ' + galton.steps() + ' steps');
    document.getElementById('result').textContent =
      'steps=' + galton.steps() + ' backend=' + galton.backend() + ' hash=' + galton.hash();
    document.body.setAttribute('data-done', '1');
  }

  // Live: as many steps per frame as real time (or the chosen speed) asks, within a budget.
  function frame(now) {
    if (id !== runId) return;
    var elapsed = Math.min(now - last, 100);
    last = now;
    var want = s.speed > 0 ? Math.max(1, Math.round(elapsed / 1000 / dt * s.speed)) : 1000;
    var a = performance.now(), n = 0;
    while (n < want && performance.now() - a < 14) {
      var k = galton.step(Math.min(4, want - n));
      if (k <= 0) break;
      n += k;
    }
    var spent = performance.now() - a;
    busy += spent;
    ran += n;
    rateSteps += n;
    rateTime += elapsed;
    draw(view);
    if (rateTime > 500) {
      show('rate', Math.round(rateSteps / (rateTime / 1000)).toString());
      report();
      rateSteps = 0;
      rateTime = 0;
    }
    if (galton.done()) {
      report();
      show('status', 'every ball rests in a bin');
      return;
    }
    requestAnimationFrame(frame);
  }

  if (s.steps > 0)
    setTimeout(fixedSlice, 0);
  else
    requestAnimationFrame(function (now) { last = now; frame(now); });
}

// World-to-canvas layout: the board on the left (y up), the histogram on the right; the
// capsules are drawn once to an off-screen canvas.
function makeView() {
  var canvas = document.getElementById('board');
  var left = galton.bound(0), right = galton.bound(1), floor = galton.bound(2);
  var top = galton.bound(3) + 2;
  var histW = 280, pad = 12;
  var scale = Math.min((canvas.width - histW - 3 * pad) / (right - left),
                       (canvas.height - 2 * pad) / (top - floor));
  var v = {
    canvas: canvas, ctx: canvas.getContext('2d'), scale: scale,
    ox: pad - left * scale, oy: pad + top * scale,
    histX: pad * 2 + (right - left) * scale, histW: histW, pad: pad
  };
  v.statics = document.createElement('canvas');
  v.statics.width = canvas.width;
  v.statics.height = canvas.height;
  var sc = v.statics.getContext('2d');
  sc.fillStyle = '#fffdf8';
  sc.fillRect(0, 0, canvas.width, canvas.height);
  var n = galton.capsuleCount(), firstPin = galton.firstPin(), firstDiv = galton.firstDivider();
  var F = Module.HEAPF32;
  var ax = galton.ax() >> 2, ay = galton.ay() >> 2, bx = galton.bx() >> 2, by = galton.by() >> 2;
  var cr = galton.cr() >> 2;
  sc.lineCap = 'round';
  for (var k = 0; k < n; k++) {
    sc.strokeStyle = k < firstPin ? '#262633' : k < firstDiv ? '#8c4d1a' : '#595966';
    var r = F[cr + k] > 0 ? F[cr + k] : 0.35;
    sc.lineWidth = Math.max(1, 2 * r * scale);
    sc.beginPath();
    sc.moveTo(v.ox + F[ax + k] * scale, v.oy - F[ay + k] * scale);
    sc.lineTo(v.ox + F[bx + k] * scale, v.oy - F[by + k] * scale);
    sc.stroke();
  }
  return v;
}

var palette = ['#3b5bdb', '#5f3dc4', '#1971c2', '#0c8599', '#2f9e44', '#e8590c'];

function draw(v) {
  var ctx = v.ctx, s = v.scale;
  ctx.drawImage(v.statics, 0, 0);
  var F = Module.HEAPF32, U = Module.HEAPU32;
  var n = galton.ballCount(), x = galton.ballX() >> 2, y = galton.ballY() >> 2;
  var r = Math.max(1.2, galton.ballRadius() * s);
  for (var p = 0; p < palette.length; p++) {
    ctx.fillStyle = palette[p];
    ctx.beginPath();
    for (var i = p; i < n; i += palette.length) {
      var cx = v.ox + F[x + i] * s, cy = v.oy - F[y + i] * s;
      ctx.moveTo(cx + r, cy);
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    }
    ctx.fill();
  }
  // Histogram: balls per bin (bars) and the binomial expectation (dots), counts below the pins.
  var bins = galton.binCount(), b = galton.bins() >> 2, total = 0, most = 1;
  for (var k = 0; k < bins; k++) {
    total += U[b + k];
    most = Math.max(most, U[b + k]);
  }
  for (var k2 = 1; k2 < bins; k2++) most = Math.max(most, total * galton.binomial(k2));
  var hx = v.histX, hy = v.pad, hw = v.histW, hh = v.canvas.height - 2 * v.pad - 20;
  ctx.fillStyle = '#fffdf8';
  ctx.fillRect(hx, hy, hw, hh + 20);
  ctx.strokeStyle = '#999';
  ctx.strokeRect(hx, hy, hw, hh);
  var bar = hw / bins;
  ctx.fillStyle = '#4c6ef5';
  for (var k3 = 0; k3 < bins; k3++) {
    var h = hh * U[b + k3] / most;
    ctx.fillRect(hx + k3 * bar + 1, hy + hh - h, bar - 2, h);
  }
  ctx.fillStyle = '#e03131';
  for (var k4 = 1; k4 < bins; k4++) {
    var e = total * galton.binomial(k4);
    if (e <= 0) continue;
    ctx.beginPath();
    ctx.arc(hx + (k4 + 0.5) * bar, hy + hh - hh * e / most, 3, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = '#222';
  ctx.font = '13px system-ui, sans-serif';
  ctx.fillText(total + ' balls in bins; dots: binomial', hx, hy + hh + 16);
}
})();
