"""The start message's pieces for the standard tetrominoes, built as the host builds them:
each drawn flat side down in its box, turned clockwise, repeated shapes dropped."""

import tetrad_bot

DRAWINGS = [
    ("I", 4, ["....", "####"]),
    ("O", 2, ["##", "##"]),
    ("T", 3, [".#.", "###"]),
    ("S", 3, [".##", "##."]),
    ("Z", 3, ["##.", ".##"]),
    ("J", 3, ["#..", "###"]),
    ("L", 3, ["..#", "###"]),
]


def orientations(box, rows):
    """Every distinct clockwise turn of a drawing inside its box, as cell lists."""
    cells = [[x, y] for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"]
    found = []
    shapes = []
    for _ in range(4):
        left = min(x for x, _ in cells)
        top = min(y for _, y in cells)
        shape = sorted((x - left, y - top) for x, y in cells)
        if shape not in shapes:
            shapes.append(shape)
            found.append(sorted(cells, key=lambda c: (c[1], c[0])))
        cells = [[box - 1 - y, x] for x, y in cells]
    return found


def start_message(preset, width=10, height=None, seed=1, options="", preview=0):
    """A start message as the host sends it, spawn positions included."""
    if height is None:
        height = 10 if preset == "leiden" else 20
    pieces = []
    for name, box, rows in DRAWINGS:
        piece = {"name": name, "box": box, "spawn": [0, 0], "orientations": orientations(box, rows)}
        pieces.append(piece)
    message = {
        "type": "start", "preset": preset, "width": width, "height": height,
        "preview": preview, "pieces": pieces, "seed": seed, "options": options,
    }
    game = tetrad_bot.Game.from_message(message)
    for piece, kind in zip(pieces, game.pieces):
        piece["spawn"] = [(width - kind.box) // 2, game.entry_row(kind, 0)]
    return message
