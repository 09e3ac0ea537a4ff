"""``BatchPlacementEnv``: the Rust batch of placement games as a Gymnasium vector
environment, the ``vector_entry_point`` of ``tetrad/Placements-v0``."""

import numpy as np
import gymnasium
from gymnasium import spaces

from . import _tetrad
from ._options import GAME_ARGS, REWARD_ARGS, Reward, check_options
from .envs import _AUTORESET, _spaces


class BatchPlacementEnv(gymnasium.vector.VectorEnv):
    """N placement games in one ``BatchGames``: ``step(actions)`` takes one slot per
    game and plays them all in Rust with the interpreter's lock released. A game that
    ends is replaced in the same step by the run's next game (the same-step autoreset,
    Gymnasium 0.29's only one and ``AutoresetMode.SAME_STEP`` from 1.0), and the infos
    carry the ended game's last observation and info as Gymnasium's own vector
    environments lay them out: from 1.0, ``infos["final_obs"]`` (an array of
    observations, ``None`` where a game goes on) and ``infos["final_info"]`` (a dict of
    arrays, each with its ``_key`` mask); in 0.29, ``infos["final_observation"]`` and
    ``infos["final_info"]`` (an array of dicts); each with its mask
    (``infos["_final_obs"]``, ...). The final info holds the ended game's ``lines``,
    ``pieces`` and ``end``; ``infos["final_lines"]`` and ``infos["final_pieces"]`` give
    the totals for every game (-1 where a game goes on).

    An action in the action space but outside a game's mask is a violation, as in
    ``Placements-v0``: that game ends (terminated, reward 0, ``end`` ``"violation"``,
    its last observation the one the step was given) and the next begins; the other
    games play on. An action out of the action space raises ``ValueError``
    (``TypeError`` if not an integer) and nothing is played. The games are played on
    ``threads`` threads (by default one a core; the games are the same on any
    number)."""

    metadata = {"autoreset_mode": _AUTORESET.SAME_STEP} if _AUTORESET is not None else {}

    def __init__(self, num_envs, threads=None, render_mode=None, **kwargs):
        owner = "BatchPlacementEnv"
        check_options(owner, kwargs, GAME_ARGS + REWARD_ARGS)
        if render_mode is not None:
            raise ValueError(f"{owner} draws nothing: render_mode must be None, not {render_mode!r}")
        self.reward_settings = Reward(**{k: kwargs[k] for k in REWARD_ARGS if k in kwargs})
        if self.reward_settings.reward != "lines":
            raise ValueError(f"{owner}: reward must be 'lines' (its games report rows, not points, at each step)")
        self._kwargs = {k: v for k, v in kwargs.items() if k in GAME_ARGS and v is not None}
        self.batch = _tetrad.BatchGames(num_envs, threads=threads, **self._kwargs)
        probe = _tetrad.Game(**self._kwargs)
        self.num_envs = num_envs
        self.render_mode = None
        self.closed = False
        count = self.batch.action_count
        self._count = count
        self.single_action_space = spaces.Discrete(count)
        self.single_observation_space = _spaces(probe, {"action_mask": spaces.MultiBinary(count)})
        if _AUTORESET is None:  # Gymnasium 0.29's VectorEnv sets its fields in __init__
            super().__init__(num_envs, self.single_observation_space, self.single_action_space)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        boards, pieces, masks = self.batch.reset(None if seed is None else int(seed))
        return {"board": boards, "pieces": pieces, "action_mask": masks.view(np.int8)}, {}

    def step(self, actions):
        actions = self._check(actions)
        boards, pieces, masks, rewards, terminated, truncated, lines, pieces_played = self.batch.step(actions)
        obs = {"board": boards, "pieces": pieces, "action_mask": masks.view(np.int8)}
        infos = {"final_lines": lines, "final_pieces": pieces_played}
        ended = terminated | truncated
        if ended.any():
            self._add_finals(infos, ended, lines, pieces_played)
        settings = self.reward_settings
        if not settings.plain:
            rewards = rewards + np.where(terminated, settings.game_over_reward, settings.survival_reward)
        return obs, rewards, terminated, truncated, infos

    def _check(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(
                f"BatchPlacementEnv takes {self.num_envs} actions, one a game, not an array of shape {actions.shape}"
            )
        if actions.dtype.kind not in "iu":
            raise TypeError(f"BatchPlacementEnv takes integer actions in 0..{self._count - 1}, not {actions.dtype}")
        if actions.size and (actions.min() < 0 or actions.max() >= self._count):
            k = int(np.flatnonzero((actions < 0) | (actions >= self._count))[0])
            raise ValueError(
                f"BatchPlacementEnv: game {k}'s action {int(actions[k])} is out of range: "
                f"the actions are 0..{self._count - 1} (Discrete({self._count}))"
            )
        return np.ascontiguousarray(actions, dtype=np.int64)

    def _add_finals(self, infos, ended, lines, pieces):
        """The ended games' last observations and infos, laid out as the installed
        Gymnasium's vector environments lay them out: from 1.0 ``final_obs`` an array
        of observations and ``final_info`` a dict of arrays, each with its ``_key``
        mask; in 0.29 ``final_observation`` and ``final_info`` arrays of observations
        and of dicts (``None`` where a game goes on)."""
        games, boards, pieces_seen, masks, ends = self.batch.final_observations()
        final_obs = np.full(self.num_envs, None, dtype=object)
        end = np.full(self.num_envs, None, dtype=object)
        for row, k in enumerate(games):
            final_obs[k] = {"board": boards[row], "pieces": pieces_seen[row], "action_mask": masks[row].view(np.int8)}
            end[k] = ends[row]
        if _AUTORESET is not None:
            infos["final_obs"], infos["_final_obs"] = final_obs, ended
            infos["final_info"] = {
                "lines": lines, "_lines": ended, "pieces": pieces, "_pieces": ended, "end": end, "_end": ended
            }
        else:
            infos["final_observation"], infos["_final_observation"] = final_obs, ended
            final_info = np.full(self.num_envs, None, dtype=object)
            for k in games:
                final_info[k] = {"lines": int(lines[k]), "pieces": int(pieces[k]), "end": end[k]}
            infos["final_info"] = final_info
        infos["_final_info"] = ended
