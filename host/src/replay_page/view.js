// The replay page's player: the frames in the order the seats played them, the boards,
// queues, meters and numbers drawn on canvases, and the controls and keys.
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
