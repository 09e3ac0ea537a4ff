"""The trained REINFORCE weights as a tetrad bot: the greedy policy over the same
features, served with `tetrad.bot.serve`.

    python3 bot.py --write-manifest reinforce.toml    # then: tetrad tournament --plugins reinforce.toml ...
    python3 bot.py WEIGHTS.json                        # serves other weights (the manifest's command)

The weights are `weights.json` beside this file unless a path is given.
"""

import os
import sys

import tetrad.bot

import reinforce

HERE = os.path.dirname(os.path.abspath(__file__))


def weights_path(argv):
    given = [a for a in argv[1:] if a.endswith(".json")]
    return given[0] if given else os.path.join(HERE, "weights.json")


WEIGHTS = reinforce.load(weights_path(sys.argv))


def policy(game):
    placement, _, _ = reinforce.act(game, WEIGHTS)
    return placement.index


if __name__ == "__main__":
    tetrad.bot.serve(policy, name="reinforce")
