#!/usr/bin/env python3
"""stacker: a small Tetris Bot Protocol bot, in Python with the standard library only.

It plays the guideline game as the TBP describes it: for the falling piece, and for the
piece a hold would bring in, every orientation dropped straight down in every column,
rated by a four-term heuristic (aggregate height, lines cleared, holes, bumpiness; Yiyuan
Lee's tuned weights). It suggests every such move, best first, and leaves the path to the
frontend. It keeps its own copy of the game from `start`, `play` and `new_piece`.

`--mode` makes it misbehave for tests: `empty-first` answers `moves: []` to the first
`suggest` after each `start` or `play`; `silent` never answers `suggest`; `crash` exits
at its third `suggest`; `illegal` suggests only a piece that is not in play; `slow`
waits `--sleep-ms` milliseconds (default 300) before it answers each `suggest`;
`compute` works that many milliseconds of its own CPU time first, so a busy machine
stretches its answers. `--first-cpu` keeps it on the first CPU it may use.
`--transcript FILE` writes the type of every message it reads to FILE, a line each;
`--log-json FILE` writes every message it reads to FILE whole, as a JSON line each.
`--move-info` adds the `move_info` extension to each suggestion: `nodes` the moves it
rated, `depth` 1, and `nps` a made-up 1000 per node.
"""

import json
import os
import sys
import time

WIDTH, HEIGHT = 10, 40

# Each piece's cells at north around its TBP centre (x right, y up); other orientations
# turn these clockwise about the centre, as the protocol defines its centres.
NORTH = {
    "I": [(-1, 0), (0, 0), (1, 0), (2, 0)],
    "O": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "T": [(-1, 0), (0, 0), (1, 0), (0, 1)],
    "S": [(-1, 0), (0, 0), (0, 1), (1, 1)],
    "Z": [(-1, 1), (0, 1), (0, 0), (1, 0)],
    "J": [(-1, 1), (-1, 0), (0, 0), (1, 0)],
    "L": [(1, 1), (-1, 0), (0, 0), (1, 0)],
}
ORIENTATIONS = ["north", "east", "south", "west"]
# The highest centre row a dropped piece starts from: the spawn rows, above the field.
DROP_FROM = 21


def cells(piece, orientation):
    out = NORTH[piece]
    for _ in range(ORIENTATIONS.index(orientation)):
        out = [(y, -x) for (x, y) in out]
    return out


def fits(rows, shape, cx, cy):
    for dx, dy in shape:
        x, y = cx + dx, cy + dy
        if x < 0 or x >= WIDTH or y < 0 or y >= HEIGHT or rows[y][x]:
            return False
    return True


def lock(rows, shape, cx, cy):
    rows = [row[:] for row in rows]
    for dx, dy in shape:
        rows[cy + dy][cx + dx] = True
    kept = [row for row in rows if not all(row)]
    cleared = HEIGHT - len(kept)
    kept.extend([False] * WIDTH for _ in range(cleared))
    return rows if cleared == 0 else kept, cleared


def rate(rows, cleared):
    heights = []
    holes = 0
    for x in range(WIDTH):
        top = 0
        for y in range(HEIGHT - 1, -1, -1):
            if rows[y][x]:
                top = y + 1
                break
        heights.append(top)
        holes += sum(1 for y in range(top) if not rows[y][x])
    bumpiness = sum(abs(a - b) for a, b in zip(heights, heights[1:]))
    return -0.51 * sum(heights) + 0.76 * cleared - 0.36 * holes - 0.18 * bumpiness


def drops(rows, piece):
    """Every straight drop of `piece`: (value, move, rows after)."""
    out = []
    seen = set()
    for orientation in ORIENTATIONS:
        shape = cells(piece, orientation)
        for cx in range(-2, WIDTH + 2):
            if not fits(rows, shape, cx, DROP_FROM):
                continue
            cy = DROP_FROM
            while fits(rows, shape, cx, cy - 1):
                cy -= 1
            key = frozenset((cx + dx, cy + dy) for dx, dy in shape)
            if key in seen:
                continue
            seen.add(key)
            after, cleared = lock(rows, shape, cx, cy)
            move = {
                "location": {"type": piece, "orientation": orientation, "x": cx, "y": cy},
                "spin": "none",
            }
            out.append((rate(after, cleared), move))
    return out


class Game:
    def __init__(self, start):
        self.rows = [[cell is not None for cell in row] for row in start["board"]]
        self.hold = start.get("hold")
        self.queue = list(start.get("queue", []))

    def candidates(self):
        if not self.queue:
            return []
        pieces = [self.queue[0]]
        swap = self.hold if self.hold is not None else (self.queue[1] if len(self.queue) > 1 else None)
        if swap is not None and swap != self.queue[0]:
            pieces.append(swap)
        moves = []
        for piece in pieces:
            moves.extend(drops(self.rows, piece))
        moves.sort(key=lambda pair: -pair[0])
        return [move for _, move in moves]

    def play(self, move):
        location = move["location"]
        piece = location["type"]
        shape = cells(piece, location["orientation"])
        self.rows, _ = lock(self.rows, shape, location["x"], location["y"])
        if self.queue and piece == self.queue[0]:
            self.queue.pop(0)
        elif self.hold is None:
            # Held into an empty hold: the falling piece is held, the next is placed.
            self.hold = self.queue.pop(0)
            self.queue.pop(0)
        else:
            self.hold = self.queue.pop(0)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(argv):
    mode = argv[argv.index("--mode") + 1] if "--mode" in argv else "normal"
    transcript = open(argv[argv.index("--transcript") + 1], "a") if "--transcript" in argv else None
    log_json = open(argv[argv.index("--log-json") + 1], "a") if "--log-json" in argv else None
    move_info = "--move-info" in argv
    sleep_ms = float(argv[argv.index("--sleep-ms") + 1]) if "--sleep-ms" in argv else 300.0
    if "--first-cpu" in argv:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if transcript:
        transcript.write("started\n")
        transcript.flush()
    send({"type": "info", "name": "stacker", "version": "0.1.0", "author": "tetrad", "features": []})
    game = None
    fresh = True
    asked = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if transcript:
            transcript.write(f"{kind}\n")
            transcript.flush()
        if log_json:
            log_json.write(json.dumps(message) + "\n")
            log_json.flush()
        if kind == "rules":
            if mode == "escape-rules":
                send({"type": "error", "reason": "\x1b[2J\x1b[Hok"})
                continue
            send({"type": "ready"})
        elif kind == "start":
            game = Game(message)
            fresh = True
        elif kind == "suggest":
            asked += 1
            if mode == "silent" or game is None:
                continue
            if mode == "slow":
                time.sleep(sleep_ms / 1000)
            if mode == "compute":
                until = time.thread_time() + sleep_ms / 1000
                while time.thread_time() < until:
                    pass
            if mode == "crash" and asked == 3:
                sys.exit(3)
            if mode == "empty-first" and fresh:
                fresh = False
                send({"type": "suggestion", "moves": []})
                continue
            if mode == "escape" and asked == 3:
                send({"type": "error", "reason": "\x1b[2J\x1b[Hall is well"})
                continue
            if mode in ("illegal", "many"):
                missing = next(p for p in "IOTSZJL" if p not in game.queue[:2] and p != game.hold)
                location = {"type": missing, "orientation": "north", "x": 4, "y": 0}
                count = 10000 if mode == "many" else 1
                send({"type": "suggestion", "moves": [{"location": location, "spin": "none"}] * count})
                continue
            moves = game.candidates()
            if mode == "twice" and asked == 3:
                # Both answers in one short write, so the pipe delivers them together and
                # the second is surely waiting before tetrad asks again.
                answer = json.dumps({"type": "suggestion", "moves": moves[:1]}) + "\n"
                sys.stdout.write(answer + answer)
                sys.stdout.flush()
                continue
            suggestion = {"type": "suggestion", "moves": moves}
            if move_info:
                suggestion["move_info"] = {"nodes": len(moves), "nps": 1000 * len(moves), "depth": 1}
            send(suggestion)
        elif kind == "play":
            game.play(message["move"])
            fresh = True
        elif kind == "new_piece":
            game.queue.append(message["piece"])
        elif kind == "stop":
            game = None
        elif kind == "quit":
            return


if __name__ == "__main__":
    main(sys.argv)
