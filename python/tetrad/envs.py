"""Gymnasium environments on the tetrad engine.

- ``tetrad/Placements-v0`` (:class:`PlacementEnv`): one action per piece, the placement's
  slot; the observation carries the action mask (also in ``info["action_mask"]``).
- ``tetrad/Ticks-v0`` (:class:`TickEnv`): one action per tick, an index into
  :attr:`TickEnv.ACTIONS` of the preset.
- :class:`BatchPlacementEnv`: a ``gymnasium.vector.VectorEnv`` of N placement games
  stepped in Rust with the interpreter's lock released.

``reset(seed=s)`` deals game ``s`` of ``tetrad run --seed RUN_SEED`` (``run_seed=1`` by
default, the host's own default), so the pieces are exactly the host's. Without a seed
the environment draws a game number from its generator.
"""

import numpy as np
import gymnasium
from gymnasium import spaces

from . import _tetrad

_GAME_ARGS = ("preset", "width", "height", "preview", "pieces", "sequence", "run_seed", "randomizer", "max_pieces")


def _game_kwargs(kwargs):
    return {k: v for k, v in kwargs.items() if k in _GAME_ARGS and v is not None}


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
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, render_mode=None, **kwargs):
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.render_mode = render_mode
        self._kwargs = _game_kwargs(kwargs)
        self.game = _tetrad.Game(seed=0, **self._kwargs)

    def _new_game(self, seed):
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        # The same setup, a new deal: building the setup again would cost more than a
        # short game.
        self.game._restart(int(seed))

    def _info(self):
        game = self.game
        return {"lines": game.lines, "score": game.score, "pieces": game.pieces, "end": game.end}

    def _pieces(self):
        return np.asarray(self.game.piece_ids, dtype=np.int64)

    def render(self):
        if self.render_mode == "ansi":
            return self.game.render()
        return None


class PlacementEnv(_Base):
    """One step per piece: the action is a placement's slot (``Game.action_count``
    slots; ``observation["action_mask"]`` marks those of the falling piece's
    placements). The reward is the rows cleared. An action outside the mask ends the
    episode, as a refused placement ends a tournament game (``info["end"]`` is
    ``"violation"``). A game that reaches ``max_pieces`` is truncated."""

    def __init__(self, render_mode=None, **kwargs):
        super().__init__(render_mode, **kwargs)
        count = self.game.action_count
        self.action_space = spaces.Discrete(count)
        self.observation_space = _spaces(self.game, {"action_mask": spaces.MultiBinary(count)})

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        return self.game._gym_reset(int(seed))

    def step(self, action):
        # One call into the engine: the placement, then Gymnasium's five values built there.
        return self.game._gym_step(int(action))

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
    return {"LEFT": 1, "RIGHT": 2, "CW": 4, "CCW": 8, "DROP": 16, "SOFT_DROP": 32, "HOLD": 64}[name]


class TickEnv(_Base):
    """One step per tick: the action indexes :attr:`actions`, every combination of a
    turn, a shift and a drop (and HOLD alone under ``guideline``), applied as the host
    applies a bot's bits. The observation adds ``falling``: the falling piece's
    orientation and its box's column and row, each offset by ``margin`` to be
    non-negative. The reward is the rows cleared; the episode ends as the game does
    (a piece left hovering too long under a preset without gravity ends it as
    ``stalled``)."""

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
        super().reset(seed=seed)
        self._new_game(seed)
        return self._obs(), self._info()

    def step(self, action):
        _, lines = self.game.step(self.actions[int(action)])
        end = self.game.end
        return self._obs(), float(lines), end is not None and end != "capped", end == "capped", self._info()


class BatchPlacementEnv(gymnasium.vector.VectorEnv):
    """N placement games in one ``BatchGames``: ``step(actions)`` takes one slot per
    game and plays them all in Rust with the interpreter's lock released. A game that
    ends is replaced in the same step by the run's next game (``autoreset_mode`` is
    same-step); ``infos["final_lines"]`` and ``infos["final_pieces"]`` give the ended
    game's totals (-1 where a game goes on). An action outside a game's mask raises
    ``IndexError``. The games are played on ``threads`` threads (by default one a core;
    the games are the same on any number)."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, num_envs, threads=None, **kwargs):
        self._kwargs = _game_kwargs(kwargs)
        self.batch = _tetrad.BatchGames(num_envs, threads=threads, **self._kwargs)
        probe = _tetrad.Game(**self._kwargs)
        self.num_envs = num_envs
        count = self.batch.action_count
        self.single_action_space = spaces.Discrete(count)
        self.single_observation_space = _spaces(probe, {"action_mask": spaces.MultiBinary(count)})
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        boards, pieces, masks = self.batch.reset(None if seed is None else int(seed))
        return {"board": boards, "pieces": pieces, "action_mask": masks.view(np.int8)}, {}

    def step(self, actions):
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        boards, pieces, masks, rewards, terminated, truncated, lines, pieces_played = self.batch.step(actions)
        obs = {"board": boards, "pieces": pieces, "action_mask": masks.view(np.int8)}
        infos = {"final_lines": lines, "final_pieces": pieces_played}
        return obs, rewards, terminated, truncated, infos


def register_all():
    """Registers ``tetrad/Placements-v0`` and ``tetrad/Ticks-v0`` with Gymnasium."""
    registry = gymnasium.envs.registration.registry
    if "tetrad/Placements-v0" not in registry:
        gymnasium.register(id="tetrad/Placements-v0", entry_point="tetrad.envs:PlacementEnv")
    if "tetrad/Ticks-v0" not in registry:
        gymnasium.register(id="tetrad/Ticks-v0", entry_point="tetrad.envs:TickEnv")
