"""Serve a Python policy as a tetrad process bot.

A policy is a function ``policy(game) -> int``: given a :class:`tetrad.Game` at the start
of a piece, it returns the index of one of ``game.placements()`` (or a
:class:`tetrad.Placement` of that list). The very function an agent trains with in
``tetrad.Game`` or ``tetrad/Placements-v0`` then plays ``tetrad run``, ``tetrad
tournament`` and ``tetrad versus`` unchanged::

    # mybot.py
    import tetrad.bot

    def policy(game):
        return max(range(game.placement_count()), key=lambda i: ...)

    if __name__ == "__main__":
        tetrad.bot.serve(policy, name="mybot")

``python3 mybot.py --write-manifest mybot.toml`` writes the manifest (the command is this
interpreter and this script); ``tetrad run --plugin mybot.toml`` plays it.

The bot speaks the bot protocol of ``docs/protocol.md`` on stdin and stdout. Placements
and paths come from the Rust engine, so they are the host's. With ``answers="placement"``
(the default) the bot answers once per piece with the placement's orientation, column and
slide; under ``guideline`` it must answer ticks (``answers="tick"``), since a placement
answer cannot spin, tuck or hold.

The game the policy sees is the host's game: the bot keeps its own game, plays its moves
in it, in the engine, gives it the pieces the host shows as they appear, and checks it
against what the host shows (board, piece, position, preview, hold), so lines, score,
combo and back-to-back are the host's too. A decision costs the same early or late in a
game. Where the host shows something else
(versus garbage) the bot rebuilds the game from what it sees, and plays on from there:
``lines``, ``score`` and ``pieces`` then count on from its own, but the level, combo and
back-to-back restart, and a held piece makes hold unavailable until the next piece.
"""

import json
import os
import sys
import traceback

from . import _tetrad

PROTOCOL = 1


def write_manifest(path, script=None, name=None, args=(), python=None):
    """Writes a bot manifest at ``path`` that runs ``script`` (by default the running
    script) with ``python`` (by default this interpreter). Returns the path."""
    script = os.path.abspath(script or sys.argv[0])
    name = name or os.path.splitext(os.path.basename(script))[0]
    command = [python or sys.executable, script] + [str(a) for a in args]
    lines = [
        "name = %s" % json.dumps(name),
        "command = [%s]" % ", ".join(json.dumps(c) for c in command),
        'env = { PYTHONUNBUFFERED = "1" }',
    ]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return path


class _Session:
    """One bot process: its answers to the host's messages."""

    def __init__(self, policy, name, answers, version, author, description):
        if answers not in ("placement", "tick"):
            raise ValueError('answers must be "placement" or "tick"')
        self.policy = policy
        self.name = name
        self.answers = answers
        self.info = {
            "type": "info",
            "protocol": PROTOCOL,
            "name": name,
            "version": version,
            "author": author,
            "description": description,
            "answers": answers,
        }
        self.start = None
        self.mirror = None
        self.path = []

    def answer(self, message):
        kind = message.get("type")
        if kind == "hello":
            return self.info
        if kind == "start":
            return self.on_start(message)
        if kind == "piece":
            return self.on_piece(message)
        if kind == "tick":
            return self.on_tick(message)
        return None

    def on_start(self, message):
        preset = message["preset"]
        if preset == "guideline" and self.answers == "placement":
            return {
                "type": "error",
                "message": "%s answers placements, which cannot spin, tuck or hold: serve it with "
                'answers="tick" to play guideline' % self.name,
            }
        pieces = [(p["name"], int(p["box"]), [[tuple(c) for c in o] for o in p["orientations"]]) for p in message["pieces"]]
        self.start = (preset, int(message["width"]), int(message["height"]), int(message["preview"]), pieces)
        self.following = True
        self.mirror = None
        self.path = []
        return {"type": "ready"}

    def matches(self, game, message, names):
        """Whether ``game`` shows what the host's ``message`` shows."""
        current = message["current"]
        hold = message.get("hold")
        return (
            not game.done
            and game.rows == list(message["field"])
            and game.current == names[current["piece"]]
            and game.position == (current["orientation"], current["x"], current["y"])
            and game.queue == [names[p] for p in self.queue_of(message)]
            and game.hold == (None if hold is None else names[hold])
            and game.hold_available == bool(message.get("hold_available", game.hold_available))
        )

    @staticmethod
    def queue_of(message):
        queue = message.get("queue")
        if queue is None:
            queue = [] if message.get("next") is None else [message["next"]]
        return list(queue)

    def game_for(self, message):
        """The host's game at this piece: the bot's own game, given the pieces the host
        has shown since, if that shows what the host shows; else one rebuilt from what it
        shows."""
        current = message["current"]
        shown = [current["piece"]] + self.queue_of(message)
        mirror = self.mirror
        if self.following:
            game = None
            if mirror is None:
                game = _tetrad.Game._replayed(*self.start, shown, [])
            else:
                ids = {name: i for i, name in enumerate(mirror.piece_names)}
                known = ([ids[mirror.current]] if mirror.current is not None else []) + [ids[n] for n in mirror.queue]
                if shown[: len(known)] == known:
                    game = mirror
                    if len(shown) > len(known):
                        game._give(shown[len(known) :])
            if game is not None and self.matches(game, message, game.piece_names):
                self.mirror = game
                return game
        carried = [0, 0, 0] if mirror is None else [mirror.lines, mirror.score, mirror.pieces]
        self.mirror = _tetrad.Game._observed(
            *self.start, list(message["field"]), current["piece"], self.queue_of(message), message.get("hold"), carried
        )
        # The bot's game cannot follow this one any more: it plays on from what it sees.
        self.following = False
        return self.mirror

    def choose(self, game):
        choice = self.policy(game.clone())
        if isinstance(choice, _tetrad.Placement):
            choice = choice.index
        placements = game.placements()
        choice = int(choice)
        if not 0 <= choice < len(placements):
            raise IndexError("the policy chose placement %d of %d" % (choice, len(placements)))
        placement = placements[choice]
        game.place(choice)
        return placement

    def on_piece(self, message):
        if message.get("current") is None:
            return {"type": "placement", "orientation": 0, "column": 0}
        placement = self.choose(self.game_for(message))
        return {
            "type": "placement",
            "orientation": placement.orientation,
            "column": placement.x - placement.slide,
            "slide": placement.slide,
        }

    def on_tick(self, message):
        if message.get("current") is None:
            return {"type": "actions", "bits": 0}
        # A new piece starts a decision, unless it is the piece our own HOLD brought in.
        if message.get("new_piece") and not (self.path and self.held_last):
            self.path = list(self.choose(self.game_for(message)).actions)
        bits = self.path.pop(0) if self.path else 0
        self.held_last = bits == 0x40
        return {"type": "actions", "bits": bits}


def serve(policy, name=None, answers="placement", version="0.1.0", author="", description="", stdin=None, stdout=None):
    """Plays the bot protocol with ``policy`` on ``stdin``/``stdout`` until ``quit``.

    With ``--write-manifest PATH`` among the script's arguments it writes the manifest
    instead (see :func:`write_manifest`) and returns. A policy's exception is sent to the
    host as an error, which ends the game as ``plugin_error``; its traceback goes to
    stderr (the bot's log)."""
    name = name or os.path.splitext(os.path.basename(sys.argv[0] or "bot"))[0]
    if "--write-manifest" in sys.argv:
        at = sys.argv.index("--write-manifest")
        if at + 1 >= len(sys.argv):
            raise SystemExit("--write-manifest needs a path")
        print(write_manifest(sys.argv[at + 1], name=name))
        return
    session = _Session(policy, name, answers, version, author, description)
    session.held_last = False
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in iter(stdin.readline, ""):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            if message.get("type") == "quit":
                return
            reply = session.answer(message)
        except Exception as err:  # the host shows it and ends the game
            traceback.print_exc(file=sys.stderr)
            reply = {"type": "error", "message": "%s: %s" % (type(err).__name__, err)}
        if reply is not None:
            stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
            stdout.flush()
