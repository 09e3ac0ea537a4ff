"""Checks tetrad_bot's placement enumeration against the host's, case by case.

Reads JSON lines on stdin, each one case:

    {"preset": "classic", "width": 10, "height": 20, "pieces": [...as in start...],
     "field": [rows], "piece": 2, "pos": [orientation, x, y],
     "placements": [[orientation, x, y, slide], ...]}

where ``placements`` is the host's list, in its order, of final positions and slides.
Prints one line per case that differs and exits 1 if any did (2 for unreadable input).
"""

import json
import sys

import tetrad_bot


def enumerate_case(case):
    """This module's placements for one case, as ``[orientation, x, y, slide]`` lists."""
    game = tetrad_bot.Game.from_message(case)
    board = tetrad_bot.Board(game.width, game.height, case.get("field") or [])
    piece = game.pieces[case["piece"]]
    start = tetrad_bot.Position(*case["pos"])
    found = tetrad_bot.placements(game, board, piece, start)
    return [[p.pos.orientation, p.pos.x, p.pos.y, p.slide] for p in found]


def difference(host, here):
    """How two lists differ, in a few words, or None if they are equal."""
    if host == here:
        return None
    for index, (a, b) in enumerate(zip(host, here)):
        if a != b:
            return "first difference at index %d: host %s, here %s" % (index, a, b)
    index = min(len(host), len(here))
    extra = ("host", host) if len(host) > len(here) else ("here", here)
    return "only %s has index %d on: %s" % (extra[0], index, extra[1][index])


def main():
    cases = mismatches = 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            host = [list(p) for p in case["placements"]]
            here = enumerate_case(case)
        except (ValueError, KeyError, IndexError, TypeError) as err:
            print("line %d: cannot read the case: %s" % (number, err))
            return 2
        cases += 1
        problem = difference(host, here)
        if problem:
            mismatches += 1
            print(
                "line %d (%s %dx%d, piece %d from %s): host %d placements, here %d; %s"
                % (number, case["preset"], case["width"], case["height"], case["piece"],
                   case["pos"], len(host), len(here), problem)
            )
    print("%d cases, %d mismatches" % (cases, mismatches), file=sys.stderr)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
