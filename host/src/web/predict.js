// The person's own presses, shown in the frame after them. The server is the referee and
// answers each key event with a new state, but that answer and the frame after it take
// longer than a frame; so the page plays the presses the server has not yet answered on
// the last state it sent, with the rules the server sent when the game started (every
// piece's orientations, kicks and spawn), and the server's next state replaces the guess.
// The commands a key gives at once are the server's handler's (`handling.rs`); the repeats
// that DAS and ARR bring later, gravity, locks by delay and garbage are left to the server.

/**
 * The page's copy of the person's handler (`Handler` in `handling.rs`, line for line):
 * from where the server's was when it sent its state, the commands of key events, each
 * with its time, and the repeats by DAS and ARR due by a time.
 */
class PredictedHands {
  constructor(handling, at) {
    this.handling = handling;
    this.held = at.held.slice();      // controls held
    this.shifts = at.shifts.slice();  // shift directions held, the last pressed last
    this.shifting = at.shifting && { ...at.shifting };  // { direction, due_us, charged }
    this.now = at.now_us;
  }

  /** The repeats due by `time` (µs), each at its own time. */
  until(time) {
    const out = [];
    for (let s = this.shifting; s && s.due_us !== null && s.due_us <= time;) {
      if (this.handling.arr_ms === 0) {
        out.push({ t: s.due_us, c: "wall", d: s.direction });
        s.due_us = null;
      } else {
        out.push({ t: s.due_us, c: "shift", d: s.direction });
        s.due_us += this.handling.arr_ms * 1000;
      }
      s.charged = true;
    }
    this.now = Math.max(this.now, time);
    return out;
  }

  /** The commands of `control` pressed or released at `time` (µs), after the repeats due by then. */
  key(control, pressed, time) {
    time = Math.max(time, this.now);
    const out = this.until(time);
    if (control === undefined || pressed === this.held.includes(control)) return out;
    if (pressed) this.held.push(control); else this.held = this.held.filter(c => c !== control);
    let command = null;
    if (control === "left" || control === "right") command = this.shiftKey(control === "left" ? -1 : 1, pressed, time);
    else if (control === "soft_drop") command = { c: pressed ? "soft_on" : "soft_off" };
    else if (pressed) {
      command = {
        hard_drop: { c: "hard" },
        cw: { c: "turn", d: 1 },
        ccw: { c: "turn", d: -1 },
        turn180: this.handling.turn_180 ? { c: "turn", d: 2 } : null,
        hold: { c: "hold" },
      }[control];
    }
    if (command) out.push({ t: time, ...command });
    return out;
  }

  /** The last shift key pressed shifts at once and starts its DAS; releasing it hands the shift to the other. */
  shiftKey(d, pressed, time) {
    if (pressed) {
      this.shifts.push(d);
    } else {
      this.shifts = this.shifts.filter(s => s !== d);
      if (!this.shifting || this.shifting.direction !== d) return null;
    }
    if (!this.shifts.length) { this.shifting = null; return null; }
    const active = this.shifts[this.shifts.length - 1];
    this.shifting = { direction: active, due_us: time + this.handling.das_ms * 1000, charged: false };
    return { c: "shift", d: active };
  }

  /** The direction a piece entering now goes to the wall in: a shift held past DAS under ARR 0. */
  chargedToWall() {
    const s = this.shifting;
    return s && s.charged && this.handling.arr_ms === 0 ? s.direction : 0;
  }

  softHeld() { return this.held.includes("soft_drop") && this.handling.soft_drop === "instant"; }
}

/** The person's seat as the server last sent it, with presses played on it. */
class PredictedSeat {
  constructor(rules, seat, hands) {
    this.rules = rules;
    this.rows = seat.above.concat(seat.rows);
    this.top = seat.above.length;
    // Each cell's colour as the server numbers them (0 empty, piece + 1, -1 garbage, -2
    // unknown); the rows above those shown are sent as bits alone.
    const unknown = row => Array.from({ length: rules.width }, (_, x) => (row >>> x) & 1 ? -2 : 0);
    this.colours = seat.above.map(unknown).concat(seat.colours.map(row => row.slice()));
    this.falling = seat.falling && { p: seat.falling[0], o: seat.falling[1], x: seat.falling[2], y: seat.falling[3] };
    this.hold = seat.hold_id;
    this.canHold = seat.can_hold;
    this.queue = seat.queue_ids.slice();
    this.pieces = seat.pieces;
    this.lines = seat.lines;
    this.hands = hands;
  }

  cells(f) { return this.rules.pieces[f.p].orientations[f.o]; }

  fits(f) {
    const width = this.rules.width, height = this.rules.height;
    for (const [dx, dy] of this.cells(f)) {
      const x = f.x + dx, y = f.y + dy;
      if (x < 0 || x >= width || y >= height) return false;
      if (y >= 0 && (this.rows[y] >>> x) & 1) return false;
    }
    return true;
  }

  dropRow(f) {
    let y = f.y;
    while (this.fits({ ...f, y: y + 1 })) y += 1;
    return y;
  }

  shift(d) {
    const moved = { ...this.falling, x: this.falling.x + d };
    if (!this.fits(moved)) return false;
    this.falling = moved;
    return true;
  }

  /** A quarter turn: the first offset of the rules' kicks where the turned piece fits. */
  turn(d) {
    const f = this.falling, piece = this.rules.pieces[f.p];
    const o = ((f.o + d) % piece.orientations.length + piece.orientations.length) % piece.orientations.length;
    for (const [dx, dy] of piece.kicks[f.o][d === 1 ? 0 : 1]) {
      const turned = { p: f.p, o, x: f.x + dx, y: f.y + dy };
      if (this.fits(turned)) { this.falling = turned; return true; }
    }
    return false;
  }

  /** A piece comes in at its spawn, one row lower where it fits there too. */
  enter(p) {
    if (p === undefined) { this.falling = null; return; }
    const [o, x, y] = this.rules.pieces[p].spawn;
    const f = { p, o, x, y };
    if (!this.fits(f)) { this.falling = null; return; }  // a block out: the server says
    if (this.rules.enter_lowers && this.fits({ ...f, y: y + 1 })) f.y += 1;
    this.falling = f;
  }

  lock() {
    const f = this.falling;
    for (const [dx, dy] of this.cells(f)) {
      if (f.y + dy < 0) { this.falling = null; return; }  // above the board: the server says
      this.rows[f.y + dy] |= 1 << (f.x + dx);
      this.colours[f.y + dy][f.x + dx] = f.p + 1;
    }
    const full = this.rules.width >= 32 ? 0xffffffff : (1 << this.rules.width) - 1;
    const kept = this.rows.map((row, y) => y).filter(y => (this.rows[y] >>> 0) !== full >>> 0);
    const cleared = this.rows.length - kept.length;
    const empty = () => new Array(this.rules.width).fill(0);
    this.rows = new Array(cleared).fill(0).concat(kept.map(y => this.rows[y]));
    this.colours = Array.from({ length: cleared }, empty).concat(kept.map(y => this.colours[y]));
    this.pieces += 1;
    this.lines += cleared;
    this.canHold = true;
    this.enter(this.queue.shift());
    const wall = this.hands.chargedToWall();
    if (this.falling && wall) while (this.shift(wall));
  }

  /** Plays one command as the server's hands play it. */
  command(cmd) {
    if (!this.falling) return;
    switch (cmd.c) {
      case "shift": this.shift(cmd.d); break;
      case "wall": while (this.shift(cmd.d)); break;
      case "turn": if (cmd.d === 2) { if (this.turn(1)) this.turn(1); } else this.turn(cmd.d); break;
      case "hard": this.falling.y = this.dropRow(this.falling); this.lock(); break;
      case "hold":
        if (this.rules.hold && this.canHold && (this.hold !== null || this.queue.length)) {
          const incoming = this.hold !== null ? this.hold : this.queue.shift();
          this.hold = this.falling.p;
          this.canHold = false;
          this.enter(incoming);
        }
        break;
    }
    // A held instant soft drop keeps every piece on the floor.
    if (this.hands.softHeld() && this.falling) this.falling.y = this.dropRow(this.falling);
  }

  /** The seat as the page draws it, over the server's `seat` for what is not predicted. */
  view(seat) {
    const names = this.rules.pieces.map(piece => piece.name);
    const shown = cells => cells.map(([x, y]) => [x, y - this.top]);
    const at = f => this.cells(f).map(([dx, dy]) => [f.x + dx, f.y + dy]);
    const f = this.falling;
    return {
      ...seat,
      rows: this.rows.slice(this.top),
      colours: this.colours.slice(this.top),
      piece: f ? shown(at(f)) : [],
      ghost: f ? shown(at({ ...f, y: this.dropRow(f) })) : [],
      kind: f ? names[f.p] : null,
      hold: this.hold === null ? null : names[this.hold],
      next: this.queue.slice(0, seat.next.length).map(p => names[p]),
      pieces: this.pieces,
      lines: this.lines,
    };
  }

  /** Whether `other` has the same board, hold and falling piece, but for its row: gravity
   *  moves a piece down between two states, which the page does not guess. */
  placedAs(other) {
    const f = this.falling, g = other.falling;
    return this.hold === other.hold && this.rows.join() === other.rows.join() &&
      (f === null) === (g === null) && (!f || (f.p === g.p && f.o === g.o && f.x === g.x));
  }
}

/**
 * `state` with the person's `inputs` (each a key event: { control, pressed, time_us })
 * played on their seat, then the repeats due by `now_us` (none if null); with `predicted`,
 * the seat, and `hands`, the handler, as they are after them. `state` itself when nothing
 * is to be played or the rules are not known.
 */
function predictState(rules, state, handling, inputs, now_us) {
  if (!rules || !state || state.over || !state.seats[0].hands) return state;
  const hands = new PredictedHands(handling, state.seats[0].hands);
  // Each key event's commands play on the handler as it is after that event (a piece
  // entering after a lock reads whether a shift is charged), as on the server. The seat
  // is copied at the first command: the page asks every frame, mostly for nothing.
  let seat = null;
  const play = commands => {
    if (commands.length && !seat) seat = new PredictedSeat(rules, state.seats[0], hands);
    for (const command of commands) seat.command(command);
  };
  for (const input of inputs) play(hands.key(input.control, input.pressed, input.time_us));
  if (now_us !== null) play(hands.until(now_us));
  if (!seat) return state;
  return { ...state, seats: [seat.view(state.seats[0]), state.seats[1]], predicted: seat, hands };
}
