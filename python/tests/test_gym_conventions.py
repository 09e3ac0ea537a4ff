"""Gymnasium's conventions: the import on every Gymnasium the package names, keyword
arguments and actions refused with what is valid, one behaviour after any end, and the
reward settings."""

import importlib.metadata
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import tetrad
from tetrad import envs, features

ENV_IDS = ["tetrad/Placements-v0", "tetrad/Ticks-v0"]


def test_the_import_needs_no_autoreset_mode():
    # Gymnasium 0.29 has no gymnasium.vector.AutoresetMode; `import tetrad` (the Game API
    # with it) failed on it.
    code = (
        "import gymnasium.vector as v\n"
        "if hasattr(v, 'AutoresetMode'): del v.AutoresetMode\n"
        "import tetrad, tetrad.envs\n"
        "print(tetrad.Game().width)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "10"


def test_the_metadata_names_the_gymnasium_range_and_the_installed_one_is_in_it():
    requires = importlib.metadata.requires("tetrad")
    gym = [r for r in requires if r.startswith("gymnasium") and "gym" in r.split("extra ==")[-1]]
    assert gym and ">=0.29" in gym[0] and "<2" in gym[0], requires
    major, minor = (int(p) for p in gymnasium.__version__.split(".")[:2])
    assert (0, 29) <= (major, minor) < (2, 0)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_misspelt_keyword_is_refused_with_the_valid_ones(env_id):
    with pytest.raises(TypeError) as caught:
        gymnasium.make(env_id, widht=6)
    message = str(caught.value)
    assert "'widht' (did you mean 'width'?)" in message
    assert "valid: render_mode, preset, width, height" in message and "reward" in message


def test_the_batch_refuses_a_misspelt_keyword_and_a_render_mode():
    with pytest.raises(TypeError, match="unexpected keyword arguments 'prest' .*'preset'.*valid: "):
        envs.BatchPlacementEnv(2, prest="simplified", foo=1)
    with pytest.raises(ValueError, match="render_mode must be None"):
        envs.BatchPlacementEnv(2, render_mode="human")


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("preset", ["classic", "guideline"])
def test_an_action_out_of_range_names_the_range(env_id, preset):
    env = gymnasium.make(env_id, preset=preset)
    env.reset(seed=0)
    n = env.action_space.n
    for action in (-1, n, np.int64(n + 5)):
        with pytest.raises(ValueError, match=rf"action {int(action)} is out of range: the actions are 0\.\.{n - 1}"):
            env.step(action)
    # Refused before anything was played: the episode goes on.
    _, _, terminated, truncated, info = env.step(legal(env))
    assert info["pieces"] <= 1 and not terminated


def legal(env):
    """An action that does not end the episode at once."""
    if isinstance(env.unwrapped, envs.TickEnv):
        return 0
    return int(np.flatnonzero(env.unwrapped.game.action_mask())[0])


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_non_integer_action_is_a_type_error_naming_the_range(env_id):
    env = gymnasium.make(env_id, preset="simplified")
    env.reset(seed=0)
    n = env.action_space.n
    for action in (1.0, "3", None, np.array([1, 2]), np.float64(2)):
        with pytest.raises(TypeError, match=rf"takes an integer action in 0\.\.{n - 1} \(Discrete\({n}\)\)"):
            env.step(action)
    # numpy integers and 0-d integer arrays are integers.
    env.step(np.int32(legal(env)))
    env.step(np.array(legal(env)))


def play_to_the_end(env, pick):
    obs, info = env.reset(seed=0)
    for _ in range(100_000):
        obs, reward, terminated, truncated, info = env.step(pick(env, obs))
        if terminated or truncated:
            return terminated, truncated, info
    raise AssertionError("the episode did not end")


def first_legal(env, obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


def first_illegal(env, obs):
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


def drop(env, obs):
    return env.unwrapped.actions.index(tetrad.DROP)


def hover(env, obs):
    return 0


ENDS = [
    ("tetrad/Placements-v0", {"preset": "simplified"}, first_illegal, "violation", True),
    ("tetrad/Placements-v0", {"preset": "simplified", "width": 6, "height": 6}, first_legal, "topped_out", True),
    ("tetrad/Placements-v0", {"preset": "simplified", "max_pieces": 3}, first_legal, "capped", False),
    ("tetrad/Ticks-v0", {"preset": "classic", "width": 6, "height": 6}, drop, "topped_out", True),
    ("tetrad/Ticks-v0", {"preset": "classic", "max_pieces": 2}, drop, "capped", False),
    ("tetrad/Ticks-v0", {"preset": "simplified", "width": 4, "height": 4}, hover, "stalled", True),
]


@pytest.mark.parametrize("env_id,kwargs,pick,end,terminates", ENDS, ids=[f"{e[0][7:]}-{e[3]}" for e in ENDS])
def test_a_step_after_any_end_raises_until_a_reset(env_id, kwargs, pick, end, terminates):
    # Placements-v0 played on after a violation where Ticks-v0 raised a GameOver.
    for env in (gymnasium.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs).unwrapped):
        terminated, truncated, info = play_to_the_end(env, pick)
        assert info["end"] == end and (terminated, truncated) == (terminates, not terminates)
        with pytest.raises(envs.EpisodeOver, match=rf"the episode has ended \({end}\): call reset\(\) before step\(\)"):
            env.step(0)
        with pytest.raises(tetrad.GameOver):
            env.step(0)
        with pytest.raises(gymnasium.error.ResetNeeded):
            env.step(0)
        env.reset(seed=1)
        _, _, terminated, _, info = env.step(legal(env))
        assert not terminated and info["end"] is None


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_step_before_the_first_reset_raises(env_id):
    env = gymnasium.make(env_id).unwrapped
    with pytest.raises(envs.EpisodeOver, match=r"call reset\(\) before the first step\(\)"):
        env.step(0)


def test_the_reward_settings():
    def run(**settings):
        # Dellacherie's controller for 30 pieces (rows are cleared), then the first
        # placement (the stack tops out).
        env = gymnasium.make("tetrad/Placements-v0", preset="simplified", width=6, height=8, **settings)
        obs, info = env.reset(seed=3)
        rewards, infos = [], [info]
        while True:
            game = env.unwrapped.game
            if game.pieces < 30:
                action = game.placements()[features.choose(game, features.DELLACHERIE)].slot
            else:
                action = first_legal(env, obs)
            obs, reward, terminated, truncated, info = env.step(action)
            rewards.append(reward)
            infos.append(info)
            if terminated or truncated:
                return np.array(rewards), infos

    lines, infos = run()
    assert list(lines) == [b["lines"] - a["lines"] for a, b in zip(infos, infos[1:])] and lines.sum() > 0
    points, _ = run(reward="score")
    assert list(points) == [b["score"] - a["score"] for a, b in zip(infos, infos[1:])] and points.sum() > lines.sum()
    shaped, _ = run(survival_reward=0.5, game_over_reward=-10)
    assert list(shaped) == list(lines + np.r_[np.full(len(lines) - 1, 0.5), -10.0])
    # A cap truncates: no game over, the survival reward.
    capped, _ = run(max_pieces=3, game_over_reward=-10, survival_reward=1)
    assert list(capped) == list(lines[:3] + 1.0)


def test_the_ticks_env_takes_the_reward_settings():
    env = gymnasium.make("tetrad/Ticks-v0", preset="classic", width=6, height=6, survival_reward=0.01, game_over_reward=-1)
    _, info = env.reset(seed=0)
    terminated = truncated = False
    steps = 0
    while not (terminated or truncated):
        before = info["lines"]
        _, reward, terminated, truncated, info = env.step(drop(env, None))
        lines = info["lines"] - before
        assert reward == pytest.approx(lines + (-1.0 if terminated else 0.01))
        steps += 1
    assert info["end"] == "topped_out" and steps >= 3


@pytest.mark.parametrize(
    "settings,error,message",
    [
        ({"reward": "points"}, ValueError, "reward must be one of 'lines', 'score', not 'points'"),
        ({"reward": 1}, ValueError, "reward must be one of 'lines', 'score', not 1"),
        ({"survival_reward": "x"}, TypeError, "survival_reward must be a number, not 'x'"),
        ({"game_over_reward": float("nan")}, ValueError, "game_over_reward must be a finite number"),
        ({"game_over_reward": True}, TypeError, "game_over_reward must be a number"),
    ],
)
def test_bad_reward_settings_are_refused(settings, error, message):
    for env_id in ENV_IDS:
        with pytest.raises(error, match=message):
            gymnasium.make(env_id, **settings)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_gymnasiums_autoreset_wrapper_plays_on_through_ends(env_id):
    # Autoreset from Gymnasium 1.0, AutoResetWrapper before.
    autoreset = getattr(gymnasium.wrappers, "Autoreset", None) or gymnasium.wrappers.AutoResetWrapper
    env = autoreset(gymnasium.make(env_id, preset="classic", width=6, height=6))
    obs, _ = env.reset(seed=0)
    ends = 0
    for _ in range(300):
        if env_id.endswith("Ticks-v0"):
            action = drop(env, obs)
        else:  # after an end, Gymnasium 1's next step resets and takes no action
            action = first_legal(env, obs) if obs["action_mask"].any() else 0
        obs, _, terminated, truncated, _ = env.step(action)
        ends += terminated or truncated
    assert ends >= 2


@pytest.mark.parametrize("env_id", ["tetrad/Placements-v0", "tetrad/Ticks-v0"])
def test_a_seeded_reset_gives_the_generator_gymnasium_s_reset_gives(env_id):
    from gymnasium.utils import seeding

    env = gymnasium.make(env_id)
    env.reset(seed=5)
    expected, _ = seeding.np_random(5)
    assert env.unwrapped.np_random.bit_generator.state == expected.bit_generator.state
    assert env.unwrapped.np_random.integers(1000) == expected.integers(1000)
    # A generator set by hand is kept until the next seeded reset, and an unseeded reset
    # draws from the generator it has.
    env.unwrapped.np_random = np.random.default_rng(9)
    env.reset()
    assert env.unwrapped.np_random.bit_generator.state != seeding.np_random(5)[0].bit_generator.state
    env.reset(seed=7)
    first = env.reset()
    env.reset(seed=7)
    again = env.reset()
    assert (first[0]["board"] == again[0]["board"]).all() and (first[0]["pieces"] == again[0]["pieces"]).all()
    if hasattr(env.unwrapped, "np_random_seed"):  # Gymnasium 1.0 and later
        env.reset(seed=11)
        assert env.unwrapped.np_random_seed == 11
    with pytest.raises(gymnasium.error.Error, match="Seed must be"):
        env.reset(seed=-1)
