"""Gymnasium environments on the tetrad engine.

- ``tetrad/Placements-v0`` (:class:`PlacementEnv`): one action per piece, the placement's
  slot; the observation carries the action mask (also in ``info["action_mask"]``).
- ``tetrad/Ticks-v0`` (:class:`TickEnv`): one action per tick, an index into
  :attr:`TickEnv.actions` of the preset.
- :class:`BatchPlacementEnv`: a ``gymnasium.vector.VectorEnv`` of N placement games
  stepped in Rust with the interpreter's lock released (``gymnasium.make_vec`` of
  ``tetrad/Placements-v0`` makes one).

``reset(seed=s)`` deals game ``s`` of ``tetrad run --seed RUN_SEED`` (``run_seed=1`` by
default, the host's own default), so the pieces are exactly the host's. Without a seed
the environment draws a game number from its generator. A step after the episode ended
(terminated or truncated), or before the first reset, raises :class:`EpisodeOver`.
"""

import numpy as np
import gymnasium
from gymnasium import spaces
from gymnasium.utils import seeding

from . import _tetrad
from . import render as _render
from ._options import GAME_ARGS, REWARD_ARGS, Reward, check_action, check_options

# Gymnasium 1.0 names the autoreset modes of vector environments; 0.29 has one, the
# same-step reset, and no name for it.
_AUTORESET = getattr(gymnasium.vector, "AutoresetMode", None)


class EpisodeOver(_tetrad.GameOver, gymnasium.error.ResetNeeded):
    """A step asked of an environment whose episode has ended, or has not begun: call
    ``reset()``. Both a :class:`tetrad.GameOver` and Gymnasium's ``ResetNeeded``."""


def _episode_over(env_id, over):
    """The :class:`EpisodeOver` for a step asked of environment `env_id` while its episode
    is `over` (``"no reset yet"``, or how it ended); the engine's step raises it too."""
    if over == "no reset yet":
        return EpisodeOver(f"{env_id}: call reset() before the first step()")
    return EpisodeOver(f"{env_id}: the episode has ended ({over}): call reset() before step()")


def _spaces(game, extra=None):
    kinds = len(game.piece_names)
    columns = len(game.piece_ids)
    obs = {
        "board": spaces.Box(0, 1, (game.height, game.width), np.uint8),
        "pieces": spaces.MultiDiscrete(np.full(columns, kinds + 1, dtype=np.int64)),
    }
    obs.update(extra or {})
    return spaces.Dict(obs)


class _Base(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}
    _id = None

    def __init__(self, render_mode=None, **kwargs):
        check_options(self._id, kwargs, GAME_ARGS + REWARD_ARGS)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(repr(m) for m in self.metadata["render_modes"])
            raise ValueError(f"{self._id}: render_mode must be None or one of {modes}, not {render_mode!r}")
        self.render_mode = render_mode
        self._window = _render.Window(self._id) if render_mode == "human" else None
        self.reward_settings = Reward(**{k: kwargs[k] for k in REWARD_ARGS if k in kwargs})
        self._kwargs = {k: v for k, v in kwargs.items() if k in GAME_ARGS and v is not None}
        self.game = _tetrad.Game(seed=0, **self._kwargs)
        # Plain: the engine's reward as it is and nothing drawn, the step's short way.
        self._plain = self.reward_settings.plain and self._window is None
        self._over = "no reset yet"
        self._score = 0

    # Gymnasium's `reset(seed=s)` makes `np_random` anew from a seed sequence, which costs
    # several times a short episode's whole reset; here the seed is kept and the
    # generator made from it when first read: the same generator, made later or never.
    @property
    def _np_random(self):
        seed = self.__dict__.pop("_np_random_seed_kept", None)
        if seed is not None:
            self.__dict__["_np_random_made"], _ = seeding.np_random(seed)
        return self.__dict__.get("_np_random_made")

    @_np_random.setter
    def _np_random(self, generator):
        self.__dict__.pop("_np_random_seed_kept", None)
        self.__dict__["_np_random_made"] = generator

    def _game_number(self, seed):
        """What Gymnasium's ``reset(seed=seed)`` does to ``np_random`` (the generator made
        when first read), and the game a reset deals: `seed`, or without one a number
        drawn from ``np_random``."""
        if type(seed) is int and seed >= 0:
            self.__dict__["_np_random_seed_kept"] = seed
            self._np_random_seed = seed
            return seed
        # No seed leaves the generator as it is; a bad one gets Gymnasium's own error.
        super().reset(seed=seed)
        return int(seed if seed is not None else self.np_random.integers(0, 2**63 - 1))

    def _refuse_step(self):
        raise _episode_over(self._id, self._over)

    def _began(self):
        self._over = None
        self._score = 0
        if self._window is not None:
            self.render()

    def _finish(self, reward, terminated, truncated, info):
        """The step's reward under the reward settings, and a frame in a window."""
        score = info["score"]
        reward = self.reward_settings.of(reward, score - self._score, terminated)
        self._score = score
        if self._window is not None:
            self.render()
        return reward

    def _info(self):
        game = self.game
        return {"lines": game.lines, "score": game.score, "pieces": game.pieces, "end": game.end}

    def _pieces(self):
        return np.asarray(self.game.piece_ids, dtype=np.int64)

    def render(self):
        """``ansi``: the board as text (``#`` filled, ``@`` the falling piece); ``rgb_array``:
        a height x width x 3 ``uint8`` picture, :data:`tetrad.render.CELL` pixels a cell;
        ``human``: the picture in a pygame window, at ``metadata["render_fps"]``."""
        if self.render_mode == "ansi":
            return self.game.render()
        if self.render_mode == "rgb_array":
            return _render.frame(self.game)
        if self.render_mode == "human":
            self._window.show(_render.frame(self.game), self.metadata["render_fps"])
        return None

    def close(self):
        if self._window is not None:
            self._window.close()
        super().close()


class PlacementEnv(_Base):
    """One step per piece: the action is a placement's slot (``Game.action_count``
    slots; ``observation["action_mask"]`` marks those of the falling piece's
    placements). The reward is the rows cleared, or as ``reward`` and the other reward
    settings say. An action outside the mask ends the episode, as a refused placement
    ends a tournament game (``info["end"]`` is ``"violation"``); an action outside the
    action space raises. A game that reaches ``max_pieces`` is truncated."""

    _id = "tetrad/Placements-v0"

    def __init__(self, render_mode=None, **kwargs):
        super().__init__(render_mode, **kwargs)
        count = self.game.action_count
        self.action_space = spaces.Discrete(count)
        self.observation_space = _spaces(self.game, {"action_mask": spaces.MultiBinary(count)})
        self.game._gym_serve(self._id)
        self._bind_step()

    def _bind_step(self):
        # Under the plain reward the engine's step is the whole step: bound to the
        # instance, it is called straight, without a Python frame (unless a subclass
        # has a step of its own).
        if self._plain and type(self).step is PlacementEnv.step:
            self.step = self.game._gym_step

    def __getstate__(self):
        # A copy's step is its own game's, bound again in __setstate__.
        state = self.__dict__.copy()
        state.pop("step", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._bind_step()

    # The episode's state lives in the game, which checks it on every step.
    @property
    def _over(self):
        return self.game._gym_over

    @_over.setter
    def _over(self, over):
        self.game._gym_over = over

    def reset(self, *, seed=None, options=None):
        out = self.game._gym_reset(self._game_number(seed))
        self._began()
        return out

    def step(self, action):
        # One call into the engine: the checks, the placement, then Gymnasium's five
        # values built there (after an end, or on a bad action, it raises).
        out = self.game._gym_step(action)
        if self._plain:
            return out
        obs, reward, terminated, truncated, info = out
        return obs, self._finish(reward, terminated, truncated, info), terminated, truncated, info

    def action_masks(self):
        """The mask of the falling piece's placements (as maskable agents ask for it)."""
        return self.game.action_mask().astype(bool)


def _tick_actions(preset):
    turns = (0, _tetrad_bits("CW"), _tetrad_bits("CCW"))
    shifts = (0, _tetrad_bits("LEFT"), _tetrad_bits("RIGHT"))
    if preset == "guideline":
        drops = (0, _tetrad_bits("SOFT_DROP"), _tetrad_bits("DROP"))
        extra = (_tetrad_bits("HOLD"),)
    else:
        drops = (0, _tetrad_bits("DROP"))
        extra = ()
    return tuple(t | s | d for d in drops for t in turns for s in shifts) + extra


def _tetrad_bits(name):
    return _render.BITS[name]


class TickEnv(_Base):
    """One step per tick: the action indexes :attr:`actions`, every combination of a
    turn, a shift and a drop (and HOLD alone under ``guideline``), applied as the host
    applies a bot's bits. The observation adds ``falling``: the falling piece's
    orientation and its box's column and row, each offset by ``margin`` to be
    non-negative. The reward is the rows cleared, or as the reward settings say; the
    episode ends as the game does (a piece left hovering too long under a preset without
    gravity ends it as ``stalled``)."""

    _id = "tetrad/Ticks-v0"
    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 10}

    def __init__(self, render_mode=None, **kwargs):
        super().__init__(render_mode, **kwargs)
        self.actions = _tick_actions(self.game.preset)
        self.action_space = spaces.Discrete(len(self.actions))
        self.margin = 8
        bound = np.array([8, self.game.width + 2 * self.margin, self.game.height + 2 * self.margin], dtype=np.int64)
        self.observation_space = _spaces(self.game, {"falling": spaces.MultiDiscrete(bound)})

    def _obs(self):
        position = self.game.position
        falling = np.zeros(3, dtype=np.int64)
        if position is not None:
            falling[:] = (position[0], position[1] + self.margin, position[2] + self.margin)
        return {"board": self.game.board, "pieces": self._pieces(), "falling": falling}

    def reset(self, *, seed=None, options=None):
        self.game._restart(self._game_number(seed))
        self._began()
        return self._obs(), self._info()

    def step(self, action):
        if self._over is not None:
            self._refuse_step()
        index = check_action(self._id, action, len(self.actions))
        _, lines = self.game.step(self.actions[index])
        end = self.game.end
        terminated, truncated = end is not None and end != "capped", end == "capped"
        if end is not None:
            self._over = end
        info = self._info()
        reward = float(lines) if self._plain else self._finish(float(lines), terminated, truncated, info)
        return self._obs(), reward, terminated, truncated, info

    def get_keys_to_action(self):
        """Keys for ``gymnasium.utils.play``: the arrows shift (left, right), turn
        clockwise (up) and soft-drop (down, under ``guideline``); ``z`` turns
        counter-clockwise, space drops, ``c`` holds; keys held together combine."""
        return _render.keys_to_action(self.actions)


from ._vector import BatchPlacementEnv  # noqa: E402  (it builds on the helpers above)


# ``gymnasium.make`` wraps an environment in ``OrderEnforcing`` (a step before the first
# reset raises ``ResetNeeded``) and ``PassiveEnvChecker`` (which checks the first reset and
# step): these environments raise ``EpisodeOver``, a ``ResetNeeded``, themselves, and pass
# Gymnasium's own checker (tests/test_envs.py), so the two wrappers would only add two
# Python calls to every step. ``gymnasium.make(..., disable_env_checker=False)`` still
# adds the checker.
_UNWRAPPED = {"order_enforce": False, "disable_env_checker": True}


def register_all():
    """Registers ``tetrad/Placements-v0`` (with :class:`BatchPlacementEnv` as its
    ``vector_entry_point``) and ``tetrad/Ticks-v0`` with Gymnasium."""
    registry = gymnasium.envs.registration.registry
    if "tetrad/Placements-v0" not in registry:
        gymnasium.register(
            id="tetrad/Placements-v0",
            entry_point="tetrad.envs:PlacementEnv",
            vector_entry_point="tetrad.envs:BatchPlacementEnv",
            **_UNWRAPPED,
        )
    if "tetrad/Ticks-v0" not in registry:
        gymnasium.register(id="tetrad/Ticks-v0", entry_point="tetrad.envs:TickEnv", **_UNWRAPPED)


__all__ = ["BatchPlacementEnv", "EpisodeOver", "PlacementEnv", "TickEnv", "register_all"]
