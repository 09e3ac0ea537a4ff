// The replay page's decoder: the game the engine re-simulated, embedded as JSON in the
// element #game, into each seat's state after every tick and its board after every lock.
// It computes no move: places, locks, risen garbage and points all come from the data; it
// only lays cells and clears full rows, and checks its board against the engine's sum
// after every lock. The page's script is this file and view.js, in one function.
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

