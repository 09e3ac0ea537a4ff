"""Dellacherie's controller in Python, served as a tetrad bot (for the tests).

    python3 dellacherie_bot.py [placement|tick] [--write-manifest FILE]
"""

import sys

import tetrad.bot
from tetrad import features


def policy(game):
    return features.choose(game, features.DELLACHERIE)


if __name__ == "__main__":
    answers = next((a for a in sys.argv[1:] if a in ("placement", "tick")), "placement")
    tetrad.bot.serve(policy, name="dellacherie-py", answers=answers)
