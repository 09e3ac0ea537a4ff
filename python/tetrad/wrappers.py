"""Observation wrappers for the tetrad environments: the board as features
(:class:`BoardFeatures`), every placement's Dellacherie and BCTS features
(:class:`PlacementFeatures`), and the board as an image (:class:`BoardImage`). Each keeps
the observation's other entries (``pieces``, ``action_mask``, ``falling``), so a maskable
agent still finds its mask."""

import numpy as np
import gymnasium
from gymnasium import spaces

from . import features, render


def _board_shape(env, wrapper):
    space = env.observation_space
    if not isinstance(space, spaces.Dict) or "board" not in space.spaces:
        raise TypeError(f"{wrapper} wraps a tetrad environment (an observation with a 'board'), not {env}")
    return space["board"].shape


def _replace(space, old, new, new_space):
    entries = {new: new_space}
    entries.update((k, v) for k, v in space.spaces.items() if k != old)
    return spaces.Dict(entries)


def column_heights(boards):
    """Each column's height (rows from the floor to its top filled cell, 0 if empty) of
    each board of ``boards`` (N x height x width): an N x width array."""
    b = np.asarray(boards).astype(bool)
    if b.ndim == 2:
        b = b[None]
    height = b.shape[1]
    top = np.argmax(b, axis=1)
    return np.where(b.any(axis=1), height - top, 0)


class BoardFeatures(gymnasium.ObservationWrapper, gymnasium.utils.RecordConstructorArgs):
    """Replaces ``board`` by ``features``, a ``float32`` vector: the six board features
    of Thiery and Scherrer's BCTS (:data:`tetrad.features.NAMES` from row transitions on:
    row transitions, column transitions, holes, cumulative wells, hole depth, rows with
    holes), then each column's height. :attr:`names` names them."""

    def __init__(self, env):
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.ObservationWrapper.__init__(self, env)
        height, width = _board_shape(env, "BoardFeatures")
        self.names = tuple(features.NAMES[2:]) + tuple(f"height_{x}" for x in range(width))
        high = [
            height * (width + 1),
            width * (height + 1),
            height * width,
            width * height * (height + 1) / 2,
            height * width,
            height,
        ] + [height] * width
        box = spaces.Box(0.0, np.array(high, dtype=np.float32), dtype=np.float32)
        self.observation_space = _replace(env.observation_space, "board", "features", box)

    def observation(self, observation):
        board = observation["board"]
        values = np.concatenate([features.board_features(board)[0], column_heights(board)[0]])
        out = {"features": values.astype(np.float32)}
        out.update((k, v) for k, v in observation.items() if k != "board")
        return out


class PlacementFeatures(gymnasium.ObservationWrapper, gymnasium.utils.RecordConstructorArgs):
    """For ``tetrad/Placements-v0``: adds ``placement_features``, ``action_count`` x 8
    ``float32``, the eight features of Dellacherie's and BCTS's controllers
    (:data:`tetrad.features.NAMES`) of the placement in each action slot, computed on the
    board that placement leaves; zeros where the mask is 0. A linear policy scores the
    slots with one product: ``placement_features @ weights``."""

    def __init__(self, env):
        gymnasium.utils.RecordConstructorArgs.__init__(self)
        gymnasium.ObservationWrapper.__init__(self, env)
        height, width = _board_shape(env, "PlacementFeatures")
        space = env.observation_space
        if "action_mask" not in space.spaces:
            raise TypeError("PlacementFeatures wraps tetrad/Placements-v0, whose actions are placements")
        self._count = space["action_mask"].n
        wells = width * height * (height + 1) / 2
        high = np.array(
            [height + 4, 16, height * (width + 1), width * (height + 1), height * width, wells, height * width, height],
            dtype=np.float32,
        )
        box = spaces.Box(0.0, np.broadcast_to(high, (self._count, 8)).copy(), dtype=np.float32)
        self.observation_space = spaces.Dict({**space.spaces, "placement_features": box})

    def observation(self, observation):
        game = self.env.unwrapped.game
        out = np.zeros((self._count, len(features.NAMES)), dtype=np.float32)
        placements = game.placements()
        if placements:
            slots = [p.slot for p in placements]
            out[slots] = features.features(game, placements)
        return {**observation, "placement_features": out}


class BoardImage(gymnasium.ObservationWrapper, gymnasium.utils.RecordConstructorArgs):
    """Replaces ``board`` by ``image``: the board as a (height x ``scale``) x (width x
    ``scale``) x 1 ``uint8`` image, 255 filled, 128 the falling piece (where shown), 0
    empty; channel last, as image policies (Stable-Baselines3's ``CnnPolicy``) take it."""

    def __init__(self, env, scale=1):
        gymnasium.utils.RecordConstructorArgs.__init__(self, scale=scale)
        gymnasium.ObservationWrapper.__init__(self, env)
        if isinstance(scale, bool) or not isinstance(scale, (int, np.integer)) or scale < 1:
            raise ValueError(f"BoardImage: scale must be a positive integer, not {scale!r}")
        height, width = _board_shape(env, "BoardImage")
        self.scale = int(scale)
        box = spaces.Box(0, 255, (height * self.scale, width * self.scale, 1), dtype=np.uint8)
        self.observation_space = _replace(env.observation_space, "board", "image", box)

    def observation(self, observation):
        image = observation["board"] * np.uint8(255)
        shown = render.cells(self.env.unwrapped.game)
        rows = shown.shape[0]
        image[-rows:][shown == 2] = 128
        if self.scale > 1:
            image = image.repeat(self.scale, axis=0).repeat(self.scale, axis=1)
        out = {"image": image[:, :, None]}
        out.update((k, v) for k, v in observation.items() if k != "board")
        return out
