"""The trained weights as a tetrad bot: the policy `train.py` trained with, served.

    python3 bot.py --write-manifest cem.toml     # then: tetrad tournament --plugins cem.toml bcts ...
"""

import json
import os

import numpy as np

import tetrad.bot
from tetrad import features

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path=os.path.join(HERE, "weights.json")):
    with open(path, encoding="utf-8") as f:
        named = json.load(f)
    return np.array([named.get(name, 0.0) for name in features.NAMES])


WEIGHTS = load()


def policy(game):
    return features.choose(game, WEIGHTS)


if __name__ == "__main__":
    tetrad.bot.serve(policy, name="cem")
