// The replay page's player: decodes the game the engine re-simulated (embedded as JSON in
// the element #game) and draws it on canvases. It computes no move of its own: places,
// locks, risen garbage and points all come from the data; it only lays cells and clears
// full rows, and checks its board against the engine's sum after every lock.
"use strict";
(function () {
  var DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  var DIGIT = {};
  for (var i = 0; i < 64; i++) DIGIT[DIGITS.charCodeAt(i)] = i;
  var LOCK = 1, ENTERED = 2, HELD = 4, NONE = 8;
  var SUM_MODULUS = 32749, SNAPSHOT_EVERY = 32, GARBAGE = 255;
  var BASE_FRAMES_PER_SECOND = 20;
  var SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 64];

  function numbers(text) {
    var out = [], value = 0, scale = 1;
    for (var i = 0; i < text.length; i++) {
      var digit = DIGIT[text.charCodeAt(i)];
      value += (digit & 31) * scale;
      scale *= 32;
      if (digit < 32) { out.push(value); value = 0; scale = 1; }
    }
    return out;
  }
  function unzigzag(v) { return v % 2 === 0 ? v / 2 : -(v + 1) / 2; }
  function unplace(v) { return { r: v % 4, x: Math.floor(v / 4) % 64 - 16, y: Math.floor(v / 256) - 16 }; }

  var data = JSON.parse(document.getElementById("game").textContent);
  var W = data.rules.width, H = data.rules.height;
  var SHOWN_FROM = data.rules.shown[0], SHOWN_TO = data.rules.shown[1];
  var problems = [];

  // One seat's game: the state after every tick, and the board after every lock (kept
  // whole every SNAPSHOT_EVERY locks, rebuilt from the nearest between them).
  function decodeSeat(seat, index) {
    var T = seat.tickCount;
    var kind = new Int16Array(T + 1), px = new Int16Array(T + 1), py = new Int16Array(T + 1);
    var pr = new Int8Array(T + 1), held = new Int16Array(T + 1), locksAt = new Int32Array(T + 1);
    var lockTick = new Int32Array(seat.lockCount), lockKind = new Int16Array(seat.lockCount);
    var lockPlace = [], lockRisen = [];
    var score = new Float64Array(seat.lockCount + 1), lines = new Int32Array(seat.lockCount + 1);
    var sent = new Float64Array(seat.lockCount + 1), received = new Float64Array(seat.lockCount + 1);
    var ticks = numbers(seat.ticks), locks = numbers(seat.locks), at = 0, lat = 0;
    var start = unplace(seat.start[1]);
    kind[0] = seat.start[0]; px[0] = start.x; py[0] = start.y; pr[0] = start.r; held[0] = -1;
    var board = new Uint8Array(W * H), snapshots = [board.slice()], count = 0, lastDown = 0;
    for (var t = 1; t <= T; t++) {
      var v = ticks[at++];
      kind[t] = kind[t - 1]; px[t] = px[t - 1]; py[t] = py[t - 1]; pr[t] = pr[t - 1];
      held[t] = held[t - 1]; locksAt[t] = locksAt[t - 1];
      if (v % 2 === 0) {
        var m = v / 2;
        pr[t] = (pr[t] + m % 4) % 4;
        px[t] += unzigzag(Math.floor(m / 4) % 64);
        lastDown += unzigzag(Math.floor(m / 256));
        py[t] += lastDown;
        continue;
      }
      var flags = (v - 1) / 2, before = kind[t - 1], p;
      if (flags & ENTERED) {
        kind[t] = ticks[at++]; p = unplace(ticks[at++]);
        px[t] = p.x; py[t] = p.y; pr[t] = p.r;
      } else if (!(flags & NONE)) {
        p = unplace(ticks[at++]);
        px[t] = p.x; py[t] = p.y; pr[t] = p.r;
      }
      if (flags & HELD) held[t] = ticks[at++] - 1;
      if (flags & NONE) kind[t] = -1;
      if (flags & LOCK) {
        var place = unplace(locks[lat++]);
        score[count + 1] = score[count] + locks[lat++];
        var risen = locks[lat++], masks = [];
        for (var k = 0; k < Math.min(risen, H); k++) masks.push(locks[lat++]);
        sent[count + 1] = sent[count] + locks[lat++];
        received[count + 1] = received[count] + risen;
        var sum = locks[lat++];
        lockTick[count] = t; lockKind[count] = before; lockPlace.push(place); lockRisen.push(masks);
        lines[count + 1] = lines[count] + lay(board, before, place, masks);
        count++;
        locksAt[t] = count;
        if (boardSum(board) !== sum) {
          problems.push("seat " + (index + 1) + ": the board after piece " + count + " differs from the engine's");
        }
        if (count % SNAPSHOT_EVERY === 0) snapshots.push(board.slice());
      }
    }
    var pendingAt = new Int32Array(T + 1), changes = numbers(seat.pending), tick = 0, now = 0;
    for (var c = 0; c + 1 < changes.length; c += 2) {
      var until = tick + changes[c];
      for (; tick < until && tick <= T; tick++) pendingAt[tick] = now;
      now = changes[c + 1];
    }
    for (; tick <= T; tick++) pendingAt[tick] = now;
    var times = null;
    if (seat.times) {
      var deltas = numbers(seat.times), total = 0;
      times = new Float64Array(T + 1);
      for (var d = 0; d < deltas.length && d < T; d++) { total += deltas[d]; times[d + 1] = total; }
    }
    return {
      seat: seat, order: numbers(seat.order), kind: kind, px: px, py: py, pr: pr, held: held,
      locksAt: locksAt, lockTick: lockTick, lockKind: lockKind, lockPlace: lockPlace,
      lockRisen: lockRisen, snapshots: snapshots, score: score, lines: lines, sent: sent,
      received: received, pending: pendingAt, times: times, T: T
    };
  }

  // Lays a piece as the engine's board does (nothing when a cell is above the board),
  // clears full rows, raises the garbage rows given bottom first; returns the rows cleared.
  function lay(board, piece, place, masks) {
    var cells = data.pieces[piece].shapes[place.r], cleared = 0, y, x;
    var above = cells.some(function (c) { return place.y + c[1] < 0; });
    if (!above) {
      cells.forEach(function (c) {
        var cx = place.x + c[0], cy = place.y + c[1];
        if (cx >= 0 && cx < W && cy < H) board[cy * W + cx] = piece + 1;
      });
      for (y = H - 1; y >= 0; y--) {
        var full = true;
        for (x = 0; x < W; x++) if (!board[y * W + x]) { full = false; break; }
        if (full) {
          board.copyWithin(W, 0, y * W);
          board.fill(0, 0, W);
          cleared++;
          y++;
        }
      }
    }
    var n = masks.length;
    if (n > 0) {
      board.copyWithin(0, n * W, H * W);
      for (var i = 0; i < n; i++) {
        var row = H - 1 - i, mask = masks[i];
        for (x = 0; x < W; x++) board[row * W + x] = Math.floor(mask / Math.pow(2, x)) % 2 ? 0 : GARBAGE;
      }
    }
    return cleared;
  }

  function boardSum(board) {
    var sum = 0;
    for (var y = 0; y < H; y++) {
      var bits = 0;
      for (var x = 0; x < W; x++) if (board[y * W + x]) bits += Math.pow(2, x);
      sum = (sum * 31 + bits) % SUM_MODULUS;
    }
    return sum;
  }

  // The board after `count` locks: the snapshot before it, and the locks since.
  function boardAfter(g, count) {
    var base = Math.floor(count / SNAPSHOT_EVERY);
    var board = g.snapshots[base].slice();
    for (var i = base * SNAPSHOT_EVERY; i < count; i++) lay(board, g.lockKind[i], g.lockPlace[i], g.lockRisen[i]);
    return board;
  }

  var games = data.seats.map(decodeSeat);

  // The frames: one tick of one seat each, in the order they were played. The turns
  // alternate from seat 0; without counts, every turn is one tick while a seat has ticks.
  var frameSeat = [];
  (function () {
    var turns = numbers(data.turns), left = games.map(function (g) { return g.T; });
    if (turns.length) {
      turns.forEach(function (n, i) { for (var k = 0; k < n; k++) frameSeat.push(i % games.length); });
    } else {
      while (left.some(function (n) { return n > 0; })) {
        for (var s = 0; s < games.length; s++) if (left[s] > 0) { frameSeat.push(s); left[s]--; }
      }
    }
  })();
  var F = frameSeat.length;
  var ticksAt = games.map(function () { return new Int32Array(F + 1); });
  for (var f = 0; f < F; f++) {
    for (var s = 0; s < games.length; s++) ticksAt[s][f + 1] = ticksAt[s][f] + (frameSeat[f] === s ? 1 : 0);
  }

  // ---- The page.
  var app = document.getElementById("app");
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    app.appendChild(e);
    return e;
  }
  function child(parent, tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  var versus = games.length > 1;
  el("h1", null, app.getAttribute("data-title"));
  el("p", "rules", data.rules.text + ", seed " + data.seed);
  var warn = el("p", "problem");
  var boards = el("div", "boards");
  var CELL = versus ? 20 : 24;
  var ROWS = SHOWN_TO - SHOWN_FROM;
  var views = games.map(function (g, index) {
    var side = child(boards, "section", "seat");
    child(side, "h2", null, g.seat.players.join(", ") + " - " + g.seat.end);
    var row = child(side, "div", "row");
    var meter = null;
    if (versus) {
      meter = child(row, "canvas", "meter");
      meter.width = 8; meter.height = ROWS * CELL;
    }
    var canvas = child(row, "canvas", "board");
    canvas.width = W * CELL; canvas.height = ROWS * CELL;
    canvas.id = "board-" + index;
    var panel = child(row, "div", "panel");
    child(panel, "div", "caption", "next");
    var queue = child(panel, "canvas", "queue");
    queue.width = 5 * 12; queue.height = Math.max(1, data.rules.preview) * 3 * 12;
    var hold = null;
    if (data.rules.hold) {
      child(panel, "div", "caption", "hold");
      hold = child(panel, "canvas", "hold");
      hold.width = 5 * 12; hold.height = 3 * 12;
    }
    var stats = child(panel, "table", "stats");
    return { canvas: canvas, meter: meter, queue: queue, hold: hold, stats: stats };
  });

  var controls = el("div", "controls");
  function button(label, title, action) {
    var b = child(controls, "button", null, label);
    b.title = title;
    b.addEventListener("click", action);
    return b;
  }
  button("|<", "start (Home)", function () { seek(0); });
  button("<<", "previous piece (Up or p)", function () { stepPiece(-1); });
  button("<", "previous tick (Left)", function () { seek(frame - 1); });
  var play = button("play", "play or pause (Space)", function () { toggle(); });
  button(">", "next tick (Right)", function () { seek(frame + 1); });
  button(">>", "next piece (Down or n)", function () { stepPiece(1); });
  button(">|", "end (End)", function () { seek(F); });
  var speedIndex = 2;
  var speed = child(controls, "button", "speed");
  speed.title = "speed (- and +)";
  speed.addEventListener("click", function () { setSpeed((speedIndex + 1) % SPEEDS.length); });
  var slider = child(controls, "input", "seek");
  slider.type = "range"; slider.min = 0; slider.max = F; slider.value = 0;
  slider.setAttribute("aria-label", "seek");
  slider.addEventListener("input", function () { seek(Number(slider.value)); });
  var position = el("p", "position");
  el("p", "keys", "Keys: Space play/pause, Left/Right a tick, Up/Down (or p/n) a piece, - and + speed, Home/End.");

  function setSpeed(i) { speedIndex = i; speed.textContent = SPEEDS[i] + "x"; }
  setSpeed(2);

  var frame = 0, playing = false, last = 0, carry = 0;
  function seek(f) {
    frame = Math.max(0, Math.min(F, f));
    slider.value = frame;
    draw();
  }
  function locksAtFrame(f) {
    return games.reduce(function (sum, g, s) { return sum + g.locksAt[ticksAt[s][f]]; }, 0);
  }
  function stepPiece(direction) {
    var here = locksAtFrame(frame), f = frame;
    if (direction > 0) {
      while (f < F && locksAtFrame(f) === here) f++;
    } else {
      while (f > 0 && locksAtFrame(f) >= here) f--;
      var target = locksAtFrame(f);
      while (f > 0 && locksAtFrame(f - 1) === target) f--;
    }
    seek(f);
  }
  function toggle() {
    playing = !playing;
    if (playing && frame >= F) frame = 0;
    play.textContent = playing ? "pause" : "play";
    last = performance.now();
    carry = 0;
    if (playing) requestAnimationFrame(tick);
  }
  // The wall-clock time of frame f, when every seat's record keeps its ticks' times.
  function timeOf(f) {
    var latest = 0;
    games.forEach(function (g, s) { latest = Math.max(latest, g.times[ticksAt[s][f]]); });
    return latest;
  }
  var timed = games.every(function (g) { return g.times; });
  function tick(now) {
    if (!playing) return;
    var elapsed = (now - last) * SPEEDS[speedIndex];
    last = now;
    if (timed) {
      var target = timeOf(frame) + elapsed + carry, f = frame;
      while (f < F && timeOf(f + 1) <= target) f++;
      carry = target - timeOf(f);
      if (f !== frame) seek(f);
    } else {
      carry += elapsed * BASE_FRAMES_PER_SECOND / 1000;
      var whole = Math.floor(carry);
      if (whole > 0) { carry -= whole; seek(frame + whole * (versus ? games.length : 1)); }
    }
    if (frame >= F) { playing = false; play.textContent = "play"; return; }
    requestAnimationFrame(tick);
  }

  function drawPiece(ctx, piece, r, x, y, cell) {
    ctx.fillStyle = data.pieces[piece].colour;
    data.pieces[piece].shapes[r].forEach(function (c) {
      ctx.fillRect((x + c[0]) * cell + 1, (y + c[1]) * cell + 1, cell - 2, cell - 2);
    });
  }
  function drawSmall(canvas, pieces) {
    var ctx = canvas.getContext("2d");
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    pieces.forEach(function (piece, i) {
      var cells = data.pieces[piece].shapes[0];
      var left = Math.min.apply(null, cells.map(function (c) { return c[0]; }));
      var top = Math.min.apply(null, cells.map(function (c) { return c[1]; }));
      drawPiece(canvas.getContext("2d"), piece, 0, 0.5 - left, i * 3 + 0.5 - top, 12);
    });
  }
  function stat(table, rows) {
    table.textContent = "";
    rows.forEach(function (r) {
      var tr = document.createElement("tr");
      var th = document.createElement("th"); th.textContent = r[0];
      var td = document.createElement("td"); td.textContent = r[1];
      tr.appendChild(th); tr.appendChild(td); table.appendChild(tr);
    });
  }

  function draw() {
    games.forEach(function (g, s) {
      var v = views[s], t = ticksAt[s][frame], count = g.locksAt[t];
      var board = boardAfter(g, count), ctx = v.canvas.getContext("2d");
      ctx.fillStyle = "#000";
      ctx.fillRect(0, 0, v.canvas.width, v.canvas.height);
      for (var y = SHOWN_FROM; y < SHOWN_TO; y++) {
        for (var x = 0; x < W; x++) {
          var c = board[y * W + x], top = (y - SHOWN_FROM) * CELL;
          if (c === GARBAGE) ctx.fillStyle = data.colours.garbage;
          else if (c) ctx.fillStyle = data.pieces[c - 1].colour;
          else {
            // An empty cell shows a dot in its corner, as the terminal's " ." does.
            if (y >= data.rules.buffer) {
              ctx.fillStyle = "#333";
              ctx.fillRect(x * CELL + CELL - 5, top + CELL - 5, 2, 2);
            }
            continue;
          }
          ctx.fillRect(x * CELL + 1, top + 1, CELL - 2, CELL - 2);
        }
      }
      if (g.kind[t] >= 0) {
        drawPiece(ctx, g.kind[t], g.pr[t], g.px[t], g.py[t] - SHOWN_FROM, CELL);
      }
      var taken = 1 + count + (g.held[t] >= 0 ? 1 : 0);
      drawSmall(v.queue, g.kind[t] >= 0 ? g.order.slice(taken, taken + data.rules.preview) : []);
      if (v.hold) drawSmall(v.hold, g.held[t] >= 0 ? [g.held[t]] : []);
      if (v.meter) {
        var m = v.meter.getContext("2d"), rows = Math.min(g.pending[t], ROWS);
        m.fillStyle = "#111"; m.fillRect(0, 0, v.meter.width, v.meter.height);
        m.fillStyle = "#cd0000"; m.fillRect(0, (ROWS - rows) * CELL, v.meter.width, rows * CELL);
      }
      var rowsOf = [["score", g.score[count]], ["lines", g.lines[count]], ["pieces", count], ["ticks", t + " / " + g.T]];
      if (versus) rowsOf.push(["sent", g.sent[count]], ["received", g.received[count]], ["waiting", g.pending[t]]);
      if (t === g.T && F > 0 && frame === F) rowsOf.push(["end", g.seat.end]);
      stat(v.stats, rowsOf);
    });
    position.textContent = "frame " + frame + " of " + F;
  }

  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT" && e.key !== " ") return;
    var handled = true;
    switch (e.key) {
      case " ": toggle(); break;
      case "ArrowRight": seek(frame + 1); break;
      case "ArrowLeft": seek(frame - 1); break;
      case "ArrowDown": case "n": stepPiece(1); break;
      case "ArrowUp": case "p": stepPiece(-1); break;
      case "+": case "=": setSpeed(Math.min(SPEEDS.length - 1, speedIndex + 1)); break;
      case "-": setSpeed(Math.max(0, speedIndex - 1)); break;
      case "Home": seek(0); break;
      case "End": seek(F); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });

  // `#piece=N` opens at the frame right after seat 1's Nth lock; `#frame=N` at frame N.
  function fromFragment() {
    var match = /piece=(\d+)/.exec(location.hash), f = 0;
    if (match) {
      var n = Number(match[1]);
      while (f < F && games[0].locksAt[ticksAt[0][f]] < n) f++;
    }
    match = /frame=(\d+)/.exec(location.hash);
    if (match) f = Number(match[1]);
    seek(f);
  }
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
  if (problems.length) {
    warn.textContent = problems[0];
    document.body.setAttribute("data-problem", problems[0]);
    console.error(problems[0]);
  }
  // Where each board is drawn, for whoever checks the page's pixels, and when it was ready.
  views.forEach(function (v, s) {
    var box = v.canvas.getBoundingClientRect();
    var left = Math.round(box.left + v.canvas.clientLeft), top = Math.round(box.top + v.canvas.clientTop);
    document.body.setAttribute("data-board-" + s, [left, top, CELL, SHOWN_FROM].join(","));
  });
  document.body.setAttribute("data-ready-ms", performance.now().toFixed(1));
})();
