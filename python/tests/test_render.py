"""The renders: ``rgb_array`` frames that Gymnasium's tools take, a pygame window for
``human``, ``ansi`` text, and ``render_fps``."""

import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tetrad
from tetrad import envs, render

ENV_IDS = ["tetrad/Placements-v0", "tetrad/Ticks-v0"]


@pytest.fixture
def no_display(monkeypatch):
    """pygame draws into memory: no window appears, none is needed."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_render_modes_and_fps(env_id):
    env = gymnasium.make(env_id)
    assert env.metadata["render_modes"] == ["ansi", "rgb_array", "human"]
    fps = env.metadata["render_fps"]
    assert isinstance(fps, int) and fps > 0
    with pytest.raises(ValueError, match="render_mode must be None or one of 'ansi', 'rgb_array', 'human', not 'rgb'"):
        gymnasium.make(env_id, render_mode="rgb")


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("preset", ["classic", "guideline"])
def test_rgb_array_frames_show_the_board_and_the_falling_piece(env_id, preset, no_display):
    env = gymnasium.make(env_id, preset=preset, render_mode="rgb_array")
    check_env(env.unwrapped)  # render checks included
    obs, _ = env.reset(seed=2)
    game = env.unwrapped.game
    shown = render.cells(game)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape == (shown.shape[0] * render.CELL, game.width * render.CELL, 3)
    # The shown rows are the board's bottom rows, the falling piece drawn in them.
    assert ((shown == 1) == obs["board"][-shown.shape[0] :].astype(bool)).all()
    assert (shown == 2).sum() == 4
    centres = frame[render.CELL // 2 :: render.CELL, render.CELL // 2 :: render.CELL]
    colours = {tuple(c) for c in centres[shown == 2]}
    assert colours == {render._PIECES[game.current]}
    assert len({tuple(c) for c in centres[shown == 0]}) == 1
    # Each step draws its own frame.
    for _ in range(5):
        if env_id.endswith("Ticks-v0"):
            action = env.unwrapped.actions.index(tetrad.DROP)
        else:
            action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, *_ = env.step(action)
    assert not np.array_equal(env.render(), frame)


def test_ansi_renders_text():
    env = gymnasium.make("tetrad/Placements-v0", preset="classic", width=6, height=5, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text == env.unwrapped.game.render() and text.count("\n") == 5 and text.count("@") == 4


def test_rgb_array_drives_gymnasiums_human_rendering_wrapper(no_display, monkeypatch):
    pytest.importorskip("pygame")
    from gymnasium.wrappers import HumanRendering

    monkeypatch.setitem(envs.TickEnv.metadata, "render_fps", 1000)
    env = HumanRendering(gymnasium.make("tetrad/Ticks-v0", preset="classic", render_mode="rgb_array"))
    env.reset(seed=0)
    for _ in range(3):
        env.step(0)
    env.close()


def test_human_opens_a_pygame_window_and_draws_every_step(no_display, monkeypatch):
    pygame = pytest.importorskip("pygame")
    env = gymnasium.make("tetrad/Placements-v0", preset="simplified", render_mode="human")
    monkeypatch.setitem(env.unwrapped.metadata, "render_fps", 1000)
    flips = []
    monkeypatch.setattr(pygame.display, "flip", lambda: flips.append(1))
    obs, _ = env.reset(seed=0)
    assert pygame.display.get_surface().get_size() == (10 * render.CELL, 20 * render.CELL)
    for _ in range(3):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(flips) == 4 and env.render() is None
    env.close()
    assert pygame.display.get_surface() is None


def test_human_without_pygame_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame raises ImportError
    with pytest.raises(gymnasium.error.DependencyNotInstalled, match="pip install pygame"):
        gymnasium.make("tetrad/Ticks-v0", render_mode="human")
    # The other renders need no pygame.
    env = gymnasium.make("tetrad/Ticks-v0", render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape[2] == 3


@pytest.mark.parametrize("preset", ["classic", "guideline"])
def test_gymnasium_utils_play_plays_the_ticks_env_by_keys(no_display, preset):
    pygame = pytest.importorskip("pygame")
    from gymnasium.utils.play import play

    env = gymnasium.make("tetrad/Ticks-v0", preset=preset, render_mode="rgb_array")
    keys = env.unwrapped.get_keys_to_action()
    actions = env.unwrapped.actions
    assert actions[keys[(pygame.K_LEFT,)]] == tetrad.LEFT
    up_right_space = tuple(sorted((pygame.K_UP, pygame.K_RIGHT, pygame.K_SPACE)))
    assert actions[keys[up_right_space]] == tetrad.CW | tetrad.RIGHT | tetrad.DROP
    assert len(keys) == len(actions) - 1 and all(a in env.action_space for a in keys.values())
    steps = []

    def stop_after_ten(obs_before, obs, action, reward, terminated, truncated, info):
        steps.append(action)
        if len(steps) == 10:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    play(env, fps=1000, callback=stop_after_ten, noop=0)
    assert steps == [0] * 10


def test_the_batch_draws_nothing():
    with pytest.raises(ValueError, match="BatchPlacementEnv draws nothing"):
        envs.BatchPlacementEnv(2, render_mode="rgb_array")


def test_rgb_array_frames_make_a_video_with_record_video(tmp_path):
    # RecordVideo writes with moviepy, which CI does not install.
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    made = gymnasium.make("tetrad/Ticks-v0", preset="classic", render_mode="rgb_array", max_pieces=3)
    env = RecordVideo(made, str(tmp_path), episode_trigger=lambda episode: True)
    env.reset(seed=0)
    truncated = False
    while not truncated:
        _, _, _, truncated, _ = env.step(env.unwrapped.actions.index(tetrad.DROP))
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
