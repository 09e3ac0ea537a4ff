"""Write tetrad bots in Python: the bot protocol's loop, a board, and placement enumeration.

Standard library only (Python 3.8+). A bot is a class with a ``setup`` method and either a
``place`` method (``answers = "placement"``) or a ``tick`` method (``answers = "tick"``);
``run(bot)`` speaks the protocol of ``docs/protocol.md`` (version 1) on stdin and stdout.

Coordinates are the host's: ``x`` is the column from the left, ``y`` the row from the TOP
(row 0 at the top, negative above the board), and a position is the top-left corner of
the piece's rotation box. A board row is an int, bit ``x`` set where column ``x`` is
filled.

``placements`` ports the host's move generator (``plugin-api/src/model/movegen.rs``) and
``step`` its tick (``motion.rs``): same paths, same order, same results, so any placement
it lists is one the host accepts.
"""

import json
import sys
import traceback
from collections import namedtuple

PROTOCOL = 1

# Action bits, as the C ABI defines them.
MOVE_LEFT = 1
MOVE_RIGHT = 2
ROTATE_CW = 4
ROTATE_CCW = 8
DROP = 16

# Rows above the well under `leiden`; a cell left in the lowest of them ends the game.
LEIDEN_TOP_ROWS = 3


class BotError(Exception):
    """An error to show the user verbatim (a bad option, an unsupported board...)."""


Position = namedtuple("Position", "orientation x y")
Position.__doc__ = "Where a piece is: its orientation's index and its box's top-left corner."

Placement = namedtuple("Placement", "orientation column slide pos turns shifts")
Placement.__doc__ = """A reachable resting position and how the host gets there.

``orientation``, ``column`` and ``slide`` are the protocol's answer (``column`` is the box's
x when the piece drops, so ``pos.x == column + slide``); ``pos`` is where the piece locks;
``turns`` (positive clockwise) and ``shifts`` (positive right) are the path's steps.
"""


def popcount(n):
    """Set bits of a non-negative int."""
    return bin(n).count("1")


if hasattr(int, "bit_count"):  # Python 3.10 and later: several times faster
    popcount = int.bit_count  # noqa: F811


class Shape:
    """One orientation of a piece: its cells in the box, their bounding box, row masks."""

    def __init__(self, cells):
        self.cells = sorted((int(x), int(y)) for x, y in cells)
        xs = [x for x, _ in self.cells]
        ys = [y for _, y in self.cells]
        self.left, self.top = min(xs), min(ys)
        self.width = max(xs) - self.left + 1
        self.height = max(ys) - self.top + 1
        # Row i of the bounding box, bit 0 at its leftmost column.
        self.masks = [0] * self.height
        for x, y in self.cells:
            self.masks[y - self.top] |= 1 << (x - self.left)

    def __repr__(self):
        return "Shape(%r)" % (self.cells,)


class Piece:
    """A piece kind as the start message gives it: name, box side, spawn, orientations."""

    def __init__(self, name, box, spawn, orientations):
        self.name = name
        self.box = box
        self.spawn = tuple(spawn)
        self.shapes = [Shape(cells) for cells in orientations]

    @classmethod
    def from_message(cls, piece):
        """The piece from one entry of the start message's ``pieces``."""
        return cls(piece.get("name", "?"), piece["box"], piece["spawn"], piece["orientations"])

    def turned(self, orientation, direction):
        """The orientation one turn away: ``direction`` +1 clockwise, -1 counter-clockwise."""
        return (orientation + direction) % len(self.shapes)

    def __repr__(self):
        return "Piece(%r)" % (self.name,)


class Game:
    """The rules of one game (from the start message) and what they decide."""

    def __init__(self, preset, width, height, pieces, preview=0, seed=0, options=""):
        self.preset = preset
        self.width = width
        self.height = height
        self.pieces = pieces
        self.preview = preview
        self.seed = seed
        self.options = options

    @classmethod
    def from_message(cls, message):
        """The game described by a start message."""
        return cls(
            message["preset"],
            message["width"],
            message["height"],
            [Piece.from_message(p) for p in message["pieces"]],
            message.get("preview", 0),
            message.get("seed", 0),
            message.get("options", "") or "",
        )

    @property
    def gravity(self):
        """Whether pieces fall by themselves (``classic``) or hover until DROP."""
        return self.preset == "classic"

    def entry_row(self, piece, orientation):
        """The row a piece in this orientation enters at (and re-enters at when it turns
        under ``leiden`` and ``simplified``)."""
        shape = piece.shapes[orientation]
        if self.preset == "classic":
            return -shape.top
        if self.preset == "leiden":
            return (LEIDEN_TOP_ROWS - 1) - (shape.top + shape.height - 1)
        return -(shape.top + shape.height)

    def lock_ends_game(self, above_board, after):
        """Whether a lock ends the game: a cell above the board, or under ``leiden`` a
        cell left in the lowest of the three top rows once full rows are cleared."""
        return above_board or (self.preset == "leiden" and after.rows[LEIDEN_TOP_ROWS - 1] != 0)


class Board:
    """A well of ``height`` rows of ``width`` columns; ``rows[0]`` is the top row."""

    def __init__(self, width, height, rows=None):
        self.width = width
        self.height = height
        self.full = (1 << width) - 1
        rows = list(rows or [])[:height]
        self.rows = [r & self.full for r in rows] + [0] * (height - len(rows))

    @classmethod
    def from_text(cls, width, height, text):
        """A board drawn as lines of ``#`` and ``.``, the last line being the bottom row."""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        rows = [0] * (height - len(lines))
        for line in lines:
            rows.append(sum(1 << x for x, c in enumerate(line) if c == "#"))
        return cls(width, height, rows)

    def copy(self):
        """An independent copy."""
        return Board(self.width, self.height, self.rows)

    def filled(self, x, y):
        """Whether cell (x, y) is filled; cells outside the board are empty."""
        return 0 <= y < self.height and 0 <= x < self.width and self.rows[y] >> x & 1 == 1

    def fits(self, shape, x, y):
        """Whether ``shape`` at (x, y) lies within the walls and the floor and overlaps no
        filled cell. The sky above row 0 is open."""
        left = x + shape.left
        if left < 0 or left + shape.width > self.width:
            return False
        top = y + shape.top
        if top + shape.height > self.height:
            return False
        rows = self.rows
        for i, mask in enumerate(shape.masks):
            row = top + i
            if row >= 0 and rows[row] & (mask << left):
                return False
        return True

    def rests(self, shape, x, y):
        """Whether the piece at (x, y) rests: one row lower it would not fit."""
        return not self.fits(shape, x, y + 1)

    def surface(self):
        """The first row holding a filled cell (``height`` when the board is empty)."""
        for y, row in enumerate(self.rows):
            if row:
                return y
        return self.height

    def drop(self, shape, x, y):
        """The row the piece reaches falling straight down from row ``y``."""
        # Rows above the surface are empty: a piece above it falls to just above at once.
        skip = self.surface() - (y + shape.top + shape.height)
        if skip > 0 and self.fits(shape, x, y):
            y += skip
        while self.fits(shape, x, y + 1):
            y += 1
        return y

    def place(self, shape, x, y):
        """Writes the piece's cells without clearing rows. Returns False, writing nothing,
        if a cell lies above row 0."""
        top = y + shape.top
        if top < 0:
            return False
        left = x + shape.left
        for i, mask in enumerate(shape.masks):
            self.rows[top + i] |= mask << left
        return True

    def clear(self):
        """Removes every full row, moving the rows above down. Returns how many."""
        kept = [r for r in self.rows if r != self.full]
        cleared = self.height - len(kept)
        if cleared:
            self.rows = [0] * cleared + kept
        return cleared

    def lock(self, shape, x, y):
        """Locks the piece as the host does: place it and clear full rows. Returns
        ``(lines, above_board)``; nothing is placed when the piece is above the board."""
        if not self.place(shape, x, y):
            return 0, True
        return self.clear(), False

    def column_heights(self):
        """Per column, the rows from its highest filled cell to the floor (0 if empty)."""
        heights = [0] * self.width
        seen = 0
        for y, row in enumerate(self.rows):
            fresh = row & ~seen
            for x in range(self.width):
                if fresh >> x & 1:
                    heights[x] = self.height - y
            seen |= row
        return heights

    def holes(self):
        """Empty cells with a filled cell somewhere above them in their column."""
        covered = 0
        holes = 0
        for row in self.rows:
            holes += popcount(covered & ~row & self.full)
            covered |= row
        return holes

    def __str__(self):
        return "\n".join(
            "".join("#" if row >> x & 1 else "." for x in range(self.width)) for row in self.rows
        )


def step(game, board, piece, pos, actions):
    """One tick of the falling piece, as the host plays it (``motion.rs``): the turn if the
    turned piece fits (no wall kicks), the shift if it fits, then DROP or gravity.

    Returns ``(pos, turned, shifted, locked)``. ``actions`` must not be a violation.
    """
    orientation, x, y = pos
    turned = shifted = locked = False
    turn = (1 if actions & ROTATE_CW else 0) - (1 if actions & ROTATE_CCW else 0)
    if turn:
        o = piece.turned(orientation, turn)
        ty = y if game.gravity else game.entry_row(piece, o)
        if board.fits(piece.shapes[o], x, ty):
            orientation, y, turned = o, ty, True
    shape = piece.shapes[orientation]
    shift = (1 if actions & MOVE_RIGHT else 0) - (1 if actions & MOVE_LEFT else 0)
    if shift and board.fits(shape, x + shift, y):
        x += shift
        shifted = True
    if game.gravity:
        if board.rests(shape, x, y):
            locked = True
        elif actions & DROP:
            y = board.drop(shape, x, y)
        else:
            y += 1
    elif actions & DROP:
        y = board.drop(shape, x, y)
        locked = True
    return Position(orientation, x, y), turned, shifted, locked


def shortest_turns(piece, start, target):
    """The quarter turns reaching ``target`` from ``start`` fastest, clockwise on a tie."""
    count = len(piece.shapes)
    clockwise = (target - start) % count
    return clockwise if clockwise * 2 <= count else clockwise - count


def path(game, turns, shifts, slide):
    """The per-tick action bits of a placement's path: turn and shift together one step
    per tick with DROP in the last, then under gravity one more tick for the slide (or
    the lock)."""
    turn = ROTATE_CW if turns > 0 else ROTATE_CCW
    shift = MOVE_RIGHT if shifts > 0 else MOVE_LEFT
    ticks = []
    for i in range(max(abs(turns), abs(shifts), 1)):
        actions = (turn if i < abs(turns) else 0) | (shift if i < abs(shifts) else 0)
        ticks.append(actions)
    ticks[-1] |= DROP
    if game.gravity:
        ticks.append((MOVE_RIGHT if slide > 0 else MOVE_LEFT if slide < 0 else 0) | DROP)
    return ticks


def play(game, board, piece, start, turns, shifts, slide):
    """Plays a path with ``step`` and returns where the piece locks, or None if a turn or
    shift was refused or the piece locked before the path's end."""
    pos = start
    ticks = path(game, turns, shifts, slide)
    for i, actions in enumerate(ticks):
        pos, turned, shifted, locked = step(game, board, piece, pos, actions)
        if turned != bool(actions & (ROTATE_CW | ROTATE_CCW)):
            return None
        if shifted != bool(actions & (MOVE_LEFT | MOVE_RIGHT)):
            return None
        if locked:
            # Under gravity a piece already resting locks on a bare DROP; the host then
            # ignores the rest of the path, so that placement still counts.
            early_lock_on_drop = actions == DROP and slide == 0
            return pos if i == len(ticks) - 1 or early_lock_on_drop else None
    return None


def placements(game, board, piece, start):
    """Every placement of ``piece`` reachable from ``start``, in the host's order: for
    each orientation by index, each column from left to right; then under gravity the
    slides, each after the placement it slides from, left before right, kept where the
    slid piece rests and no earlier placement ends there."""
    found = []
    for orientation, shape in enumerate(piece.shapes):
        turns = shortest_turns(piece, start.orientation, orientation)
        for x in range(-shape.left, game.width - shape.left - shape.width + 1):
            pos = play(game, board, piece, start, turns, x - start.x, 0)
            if pos is not None:
                found.append(Placement(orientation, x, 0, pos, turns, x - start.x))
    if game.gravity:
        ends = set(p.pos for p in found)
        for base in list(found):
            shape = piece.shapes[base.pos.orientation]
            for slide in (-1, 1):
                pos = base.pos._replace(x=base.pos.x + slide)
                lands = board.fits(shape, pos.x, pos.y) and board.rests(shape, pos.x, pos.y)
                if not lands or pos in ends:
                    continue
                if play(game, board, piece, start, base.turns, base.shifts, slide) == pos:
                    found.append(base._replace(slide=slide, pos=pos))
                    ends.add(pos)
    return found


class Turn:
    """What a tick or piece message says: the board, the falling piece (or None), the
    next piece (or None without a preview), and whether the piece is new."""

    def __init__(self, game, message):
        self.game = game
        self.board = Board(game.width, game.height, message.get("field") or [])
        current = message.get("current")
        self.piece = self.pos = None
        if current is not None:
            self.piece = game.pieces[current["piece"]]
            self.pos = Position(current["orientation"], current["x"], current["y"])
        nxt = message.get("next")
        self.next = None if nxt is None else game.pieces[nxt]
        self.new_piece = message.get("new_piece", True)

    def placements(self):
        """Every placement of the falling piece, in the host's order."""
        return placements(self.game, self.board, self.piece, self.pos)


def parse_options(text, defaults):
    """Parses ``key=value`` pairs separated by commas or spaces, each value read as the
    type of its default. Returns ``defaults`` updated; raises ``BotError`` for an unknown
    key, a repeated key, or a value of the wrong type, as the Rust SDK words them."""
    values = dict(defaults)
    seen = set()
    for pair in (text or "").replace(",", " ").split():
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise BotError("option `%s` is not of the form key=value" % pair)
        if not key:
            raise BotError("option `%s` has an empty key" % pair)
        if key in seen:
            raise BotError("option `%s` is given twice" % key)
        seen.add(key)
        if key not in defaults:
            if not defaults:
                raise BotError("unknown option `%s` (this plugin takes no options)" % key)
            raise BotError("unknown option `%s` (known: %s)" % (key, ", ".join(defaults)))
        values[key] = _read_value(key, value, defaults[key])
    return values


def _read_value(key, text, default):
    kind = type(default)
    try:
        if kind is bool:
            if text not in ("true", "false"):
                raise ValueError(text)
            return text == "true"
        return kind(text)
    except ValueError:
        names = {bool: "true or false", int: "an integer", float: "a number"}
        raise BotError("option `%s`: cannot read `%s` as %s" % (key, text, names.get(kind, kind.__name__)))


class Bot:
    """Base class for bots. Override ``setup`` and ``place`` (or ``tick``, with
    ``answers = "tick"``)."""

    name = "bot"
    version = "0.1.0"
    author = ""
    description = ""
    answers = "placement"

    def setup(self, game):
        """Called once at the start with the ``Game``; raise ``BotError`` to refuse it
        (the message is shown to the user)."""

    def place(self, turn):
        """Where the piece of ``turn`` (a ``Turn``) should lock: a ``Placement`` from
        ``turn.placements()``, or an ``(orientation, column, slide)`` tuple."""
        raise NotImplementedError

    def tick(self, turn):
        """The action bits for this tick (an int, the OR of the constants above)."""
        raise NotImplementedError


def _info(bot):
    return {
        "type": "info",
        "protocol": PROTOCOL,
        "name": bot.name,
        "version": bot.version,
        "author": bot.author,
        "description": bot.description,
        "answers": bot.answers,
    }


def _answer(bot, game, message):
    """The reply to one message (None for none), given the game so far; a start message
    replaces the game, so the new one is returned too."""
    kind = message.get("type")
    if kind == "hello":
        return _info(bot), game
    if kind == "start":
        game = Game.from_message(message)
        bot.setup(game)
        return {"type": "ready"}, game
    if kind == "tick":
        return {"type": "actions", "bits": int(bot.tick(Turn(game, message)))}, game
    if kind == "piece":
        choice = bot.place(Turn(game, message))
        if isinstance(choice, Placement):
            choice = (choice.orientation, choice.column, choice.slide)
        orientation, column, slide = choice
        reply = {"type": "placement", "orientation": orientation, "column": column, "slide": slide}
        return reply, game
    return None, game


def run(bot, stdin=None, stdout=None):
    """Plays one game on ``stdin``/``stdout`` (the process's own by default) until quit
    or the end of input. An exception from the bot is sent as an error message, which
    ends the game as ``plugin_error``; its traceback goes to stderr (the bot's log)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    game = None
    for line in iter(stdin.readline, ""):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            if message.get("type") == "quit":
                return
            reply, game = _answer(bot, game, message)
        except BotError as err:
            reply = {"type": "error", "message": str(err)}
        except Exception as err:  # a bot's bug should reach the user, not hang the game
            traceback.print_exc(file=sys.stderr)
            reply = {"type": "error", "message": "%s: %s" % (type(err).__name__, err)}
        if reply is not None:
            stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
            stdout.flush()
