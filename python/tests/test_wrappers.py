"""The observation wrappers: board features, every placement's features, the board as an
image; each passes Gymnasium's checker and keeps the action mask."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tetrad
from tetrad import features
from tetrad.wrappers import BoardFeatures, BoardImage, PlacementFeatures, column_heights

ENV_IDS = ["tetrad/Placements-v0", "tetrad/Ticks-v0"]
# check_env says it would rather have an unwrapped environment: the wrappers are what is checked.
pytestmark = pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")
# Small boards where the preset allows them (guideline's has 20 buffer rows on top).
SIZE = {"classic": {"width": 8, "height": 10}, "simplified": {"width": 8, "height": 10}, "guideline": {}}


def play(env, steps, seed=0):
    """Observations of ``steps`` steps, a legal action each, resets included."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [obs]
    for _ in range(steps):
        if "action_mask" in obs:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action = int(rng.integers(env.action_space.n))
        obs, _, terminated, truncated, _ = env.step(action)
        seen.append(obs)
        if terminated or truncated:
            obs, _ = env.reset()
            seen.append(obs)
    return seen


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("preset", ["classic", "simplified", "guideline"])
@pytest.mark.parametrize("wrapper", [BoardFeatures, BoardImage, lambda env: BoardImage(env, scale=3), PlacementFeatures])
def test_the_wrappers_pass_gymnasiums_checker(env_id, preset, wrapper):
    env = gymnasium.make(env_id, preset=preset, **SIZE[preset])
    if wrapper is PlacementFeatures and env_id.endswith("Ticks-v0"):
        with pytest.raises(TypeError, match="PlacementFeatures wraps tetrad/Placements-v0"):
            wrapper(env)
        return
    wrapped = wrapper(env)
    check_env(wrapped, skip_render_check=True)
    for obs in play(wrapped, 60):
        assert obs in wrapped.observation_space
        assert set(obs) == set(wrapped.observation_space.spaces)
        assert set(env.observation_space.spaces) - {"board"} <= set(obs)


def test_board_features_are_bcts_board_features_and_column_heights():
    env = gymnasium.make("tetrad/Placements-v0", preset="classic", width=8, height=10)
    wrapped = BoardFeatures(env)
    assert wrapped.names[:6] == features.NAMES[2:] and wrapped.names[6:] == tuple(f"height_{x}" for x in range(8))
    obs, _ = wrapped.reset(seed=1)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(30):
        obs, _, terminated, truncated, _ = wrapped.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break
        board = env.unwrapped.game.board
        expected = np.concatenate([features.board_features(board)[0], column_heights(board)[0]])
        assert np.array_equal(obs["features"], expected.astype(np.float32))
        checked += 1
    assert checked >= 5
    heights = column_heights(np.array([[0, 0, 0], [0, 1, 0], [1, 1, 0]]))
    assert heights.tolist() == [[1, 2, 0]]


@pytest.mark.parametrize("preset", ["classic", "guideline"])
def test_placement_features_are_each_slots_placements_features(preset):
    env = PlacementFeatures(gymnasium.make("tetrad/Placements-v0", preset=preset, **SIZE[preset]))
    obs, _ = env.reset(seed=5)
    for _ in range(10):
        game = env.unwrapped.game
        placements = game.placements()
        table = features.features(game, placements)
        got = obs["placement_features"]
        mask = obs["action_mask"].astype(bool)
        for p, row in zip(placements, table):
            assert np.allclose(got[p.slot], row)
        assert sorted(p.slot for p in placements) == list(np.flatnonzero(mask))
        assert not got[~mask].any()
        # A linear policy over the slots is Dellacherie's controller.
        values = np.where(mask, got @ features.DELLACHERIE.astype(np.float32), -np.inf)
        values[[p.slot for p in placements if p.ends_game]] = -np.inf
        best = placements[features.choose(game, features.DELLACHERIE)].slot
        assert np.isclose(values[best], values.max())
        obs, _, terminated, truncated, _ = env.step(int(best))
        assert not (terminated or truncated)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_board_image_shows_the_board_and_the_falling_piece(env_id):
    env = gymnasium.make(env_id, preset="classic", width=6, height=8)
    wrapped = BoardImage(env, scale=2)
    assert wrapped.observation_space["image"].shape == (16, 12, 1)
    obs, _ = wrapped.reset(seed=0)
    for _ in range(4):
        image = obs["image"][::2, ::2, 0]
        board = env.unwrapped.game.board
        assert (image[board == 1] == 255).all()
        assert (image == 128).sum() == 4 and (image[board == 0] != 255).all()
        assert (obs["image"][1::2, 1::2, 0] == image).all()
        if env_id.endswith("Ticks-v0"):
            action = env.unwrapped.actions.index(tetrad.DROP)
        else:
            action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, *_ = wrapped.step(action)


def test_the_wrappers_refuse_what_they_cannot_wrap():
    with pytest.raises(TypeError, match="BoardFeatures wraps a tetrad environment"):
        BoardFeatures(gymnasium.make("CartPole-v1"))
    for scale in (0, 1.5, True):
        with pytest.raises(ValueError, match="scale must be a positive integer"):
            BoardImage(gymnasium.make("tetrad/Placements-v0"), scale=scale)
