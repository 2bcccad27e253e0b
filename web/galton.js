// The page's side of the Galton board (web/index.html): steps the world live, one step of 1/60 s
// a frame at real time (up to 4 a frame when the frames come late), and draws the board from
// the world's ball arrays on a canvas. Plain JavaScript, no framework. Everything but
// galtonStart stays inside this function: the module's own script defines globals (run, among
// others) in the same page.
(function () {
'use strict';

var gw = null; // the module's functions, once loaded
var STEP = 1 / 60;

window.galtonStart = function () {
  var c = Module.cwrap, num = 'number';
  gw = {
    selectBackend: c('gw_select_backend', num, ['string']),
    backend: c('gw_backend', 'string', []),
    create: c('gw_create', num, [num, num, num, num]),
    step: c('gw_step', num, [num]),
    steps: c('gw_steps', num, []),
    hashStep: c('gw_hash_step', num, []),
    hashAt: c('gw_hash_at', 'string', []),
    ballCount: c('gw_ball_count', num, []),
    ballTotal: c('gw_ball_total', num, []),
    awakeCount: c('gw_awake_count', num, []),
    balls: c('gw_balls', num, []),
    ballX: c('gw_ball_x', num, []),
    ballY: c('gw_ball_y', num, []),
    ballAwake: c('gw_ball_awake', num, []),
    ballRadius: c('gw_ball_radius', num, []),
    capsuleCount: c('gw_capsule_count', num, []),
    ax: c('gw_capsule_ax', num, []),
    ay: c('gw_capsule_ay', num, []),
    bx: c('gw_capsule_bx', num, []),
    by: c('gw_capsule_by', num, []),
    cr: c('gw_capsule_radius', num, []),
    kind: c('gw_capsule_kind', num, []),
    bound: c('gw_bound', num, [num]),
    binCount: c('gw_bin_count', num, []),
    bins: c('gw_bins', num, []),
    binsAt: c('gw_bins_at', num, [])
  };
  var q = new URLSearchParams(location.search);
  var form = document.getElementById('controls');
  ['balls', 'backend', 'speed'].forEach(function (k) {
    if (q.has(k)) form.elements[k].value = q.get(k);
  });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    run(settings(form, q));
  });
  run(settings(form, q));
};

function settings(form, q) {
  return {
    balls: parseInt(form.elements.balls.value, 10) || 1000,
    rows: parseInt(q.get('rows') || '14', 10),
    seed: parseInt(q.get('seed') || '1', 10),
    hashStep: parseInt(q.get('hash_step') || '600', 10),
    backend: form.elements.backend.value,
    speed: parseFloat(form.elements.speed.value) // steps a frame = speed x real time; 0: flat out
  };
}

function show(id, text) {
  document.getElementById(id).textContent = text;
}

function binList(ptr) {
  var I = Module.HEAP32, out = [];
  for (var k = 0; k < gw.binCount(); k++) out.push(I[(ptr >> 2) + k]);
  return out.join(' ');
}

var runId = 0;

function run(s) {
  var id = ++runId;
  document.body.removeAttribute('data-hash');
  show('result', '');
  show('hashat', '-');
  show('binsat', '-');
  if (gw.selectBackend(s.backend) !== 0) {
    show('status', 'backend ' + s.backend + ' is not available here');
    return;
  }
  if (gw.create(s.balls, s.rows, s.seed, s.hashStep) !== 0) {
    show('status', 'cannot build the board (balls 1 to 20000, rows even, 2 to 40)');
    return;
  }
  var view = makeView();
  show('backend', gw.backend());
  show('n', String(s.hashStep));
  show('command', 'galton_world --balls ' + s.balls + ' --rows ' + s.rows + ' --seed ' + s.seed +
       ' --steps ' + s.hashStep);
  show('status', 'running');
  document.body.setAttribute('data-live', '1');
  var owed = 1, last = performance.now(), shown = 0;
  var samples = []; // [performance.now(), steps, ms spent stepping so far] once a frame
  var busy = 0;

  function report(now) {
    var steps = gw.steps();
    show('steps', String(steps));
    show('simulated', (steps * STEP).toFixed(1) + ' s');
    show('dropped', gw.ballCount() + ' of ' + gw.ballTotal());
    show('awake', String(gw.awakeCount()));
    show('bins', binList(gw.bins()));
    // steps/s: the steps of the frames within the last second, by performance.now()
    var first = samples[0], lastS = samples[samples.length - 1];
    if (lastS[0] - first[0] >= 250) {
      var dt = (lastS[0] - first[0]) / 1000, ran = lastS[1] - first[1];
      show('rate', (ran / dt).toFixed(1));
      show('cost', ran > 0 ? ((lastS[2] - first[2]) / ran).toFixed(3) : '-');
    }
    if (gw.hashAt() && !document.body.hasAttribute('data-hash')) {
      show('hashat', gw.hashAt());
      show('binsat', binList(gw.binsAt()));
      show('result', 'steps=' + gw.hashStep() + ' backend=' + gw.backend() + ' hash=' +
           gw.hashAt() + ' bins=' + binList(gw.binsAt()));
      document.body.setAttribute('data-hash', gw.hashAt());
    }
    if (gw.ballCount() === gw.ballTotal() && gw.awakeCount() === 0)
      show('status', 'every ball asleep (the world still steps)');
  }

  function frame(now) {
    if (id !== runId) return;
    var elapsed = Math.min(now - last, 250);
    last = now;
    var a = performance.now(), n = 0;
    if (s.speed > 0) {
      // real time, or `speed` times it; behind by more than 4 frames' steps, drop the rest
      owed = Math.min(owed + elapsed / 1000 / STEP * s.speed, 4 * s.speed);
      while (n + 1 <= owed && performance.now() - a < 30) {
        if (gw.step(1) !== 1) break;
        n++;
      }
      owed -= n;
    } else {
      while (performance.now() - a < 14) { // flat out: what fits in a frame
        if (gw.step(1) !== 1) break;
        n++;
      }
    }
    var b = performance.now();
    busy += b - a;
    samples.push([b, gw.steps(), busy]);
    while (samples.length > 2 && samples[1][0] <= b - 1000) samples.shift();
    draw(view);
    if (b - shown > 200 || (gw.hashAt() && !document.body.hasAttribute('data-hash'))) {
      report(b);
      shown = b;
    }
    requestAnimationFrame(frame);
  }
  samples.push([performance.now(), 0, 0]);
  requestAnimationFrame(frame);
}

// World-to-canvas layout: the board on the left (y up) with each bin's count under it, the
// histogram on the right; the capsules are drawn once to an off-screen canvas.
function makeView() {
  var canvas = document.getElementById('board');
  var left = gw.bound(0), right = gw.bound(1), floor = gw.bound(2), top = gw.bound(3);
  var histW = 250, pad = 12, under = 18;
  var scale = Math.min((canvas.width - histW - 3 * pad) / (right - left),
                       (canvas.height - 2 * pad - under) / (top - floor));
  var v = {
    canvas: canvas, ctx: canvas.getContext('2d'), scale: scale,
    ox: pad - left * scale, oy: pad + top * scale, floorY: pad + (top - floor) * scale,
    histX: pad * 2 + (right - left) * scale, histW: histW, pad: pad
  };
  v.statics = document.createElement('canvas');
  v.statics.width = canvas.width;
  v.statics.height = canvas.height;
  var sc = v.statics.getContext('2d');
  sc.fillStyle = '#fffdf8';
  sc.fillRect(0, 0, canvas.width, canvas.height);
  var F = Module.HEAPF32, K = Module.HEAPU8;
  var ax = gw.ax() >> 2, ay = gw.ay() >> 2, bx = gw.bx() >> 2, by = gw.by() >> 2;
  var cr = gw.cr() >> 2, kind = gw.kind();
  var colours = ['#262633', '#595966', '#8c4d1a'];
  sc.lineCap = 'round';
  for (var k = 0; k < gw.capsuleCount(); k++) {
    sc.strokeStyle = sc.fillStyle = colours[K[kind + k]];
    var x0 = v.ox + F[ax + k] * scale, y0 = v.oy - F[ay + k] * scale;
    var x1 = v.ox + F[bx + k] * scale, y1 = v.oy - F[by + k] * scale;
    var w = Math.max(1, 2 * F[cr + k] * scale);
    if (x0 === x1 && y0 === y1) { // a round pin: a disc (a zero-length stroke may not show)
      sc.beginPath();
      sc.arc(x0, y0, w / 2, 0, 2 * Math.PI);
      sc.fill();
      continue;
    }
    sc.lineWidth = w;
    sc.beginPath();
    sc.moveTo(x0, y0);
    sc.lineTo(x1, y1);
    sc.stroke();
  }
  return v;
}

var palette = ['#3b5bdb', '#5f3dc4', '#1971c2', '#0c8599', '#2f9e44', '#e8590c'];
var asleep = '#a5afc2';

function draw(v) {
  var ctx = v.ctx, s = v.scale;
  ctx.drawImage(v.statics, 0, 0);
  var n = gw.balls(), F = Module.HEAPF32, K = Module.HEAPU8, I = Module.HEAP32;
  var x = gw.ballX() >> 2, y = gw.ballY() >> 2, awake = gw.ballAwake();
  var r = Math.max(1.2, gw.ballRadius() * s);
  // awake balls in the palette's colours by index, sleeping ones grey
  for (var p = 0; p <= palette.length; p++) {
    ctx.fillStyle = p < palette.length ? palette[p] : asleep;
    ctx.beginPath();
    for (var i = 0; i < n; i++) {
      if (p < palette.length ? !K[awake + i] || i % palette.length !== p : K[awake + i]) continue;
      var cx = v.ox + F[x + i] * s, cy = v.oy - F[y + i] * s;
      ctx.moveTo(cx + r, cy);
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    }
    ctx.fill();
  }
  // the sensors' counts: under each bin, and as a histogram on the right
  var bins = gw.binCount(), b = gw.bins() >> 2, total = 0, most = 1;
  for (var k = 0; k < bins; k++) {
    total += I[b + k];
    most = Math.max(most, I[b + k]);
  }
  var left = gw.bound(0) + 0.6, width = (gw.bound(1) - gw.bound(0) - 1.2) / bins;
  ctx.fillStyle = '#fffdf8';
  ctx.fillRect(0, v.floorY + 1, v.histX - v.pad, v.canvas.height - v.floorY - 1);
  ctx.fillStyle = '#222';
  ctx.font = '10px system-ui, sans-serif';
  ctx.textAlign = 'center';
  for (var k1 = 0; k1 < bins; k1++)
    ctx.fillText(String(I[b + k1]), v.ox + (left + (k1 + 0.5) * width) * s, v.floorY + 13);
  var hx = v.histX, hy = v.pad, hw = v.histW, hh = v.canvas.height - 2 * v.pad - 20;
  ctx.fillStyle = '#fffdf8';
  ctx.fillRect(hx, hy, hw, hh + 20);
  ctx.strokeStyle = '#999';
  ctx.strokeRect(hx, hy, hw, hh);
  var bar = hw / bins;
  ctx.fillStyle = '#4c6ef5';
  for (var k2 = 0; k2 < bins; k2++) {
    var h = 0.95 * hh * I[b + k2] / most;
    ctx.fillRect(hx + k2 * bar + 1, hy + hh - h, bar - 2, h);
  }
  ctx.fillStyle = '#222';
  ctx.font = '13px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.fillText(total + ' balls in bins (sensor counts)', hx, hy + hh + 16);
}
})();
