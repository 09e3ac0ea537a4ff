"""The Gymnasium environments: Gymnasium's own checks, and the host's pieces on reset."""

import copy

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tetrad
from tetrad import envs


@pytest.mark.parametrize("env_id", ["tetrad/Placements-v0", "tetrad/Ticks-v0"])
@pytest.mark.parametrize("preset", ["classic", "simplified", "guideline"])
def test_check_env(env_id, preset):
    env = gymnasium.make(env_id, preset=preset)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_reset_deals_game_s_of_the_run():
    env = gymnasium.make("tetrad/Placements-v0", preset="simplified", width=10, height=10)
    for seed in (0, 1, 5):
        obs, info = env.reset(seed=seed)
        game = tetrad.Game("simplified", width=10, height=10, seed=seed)
        assert obs["pieces"][0] == game.piece_ids[0]
        assert (obs["action_mask"] == game.action_mask()).all()
        played = []
        while True:
            slot = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, terminated, truncated, info = env.step(slot)
            game.place(game.index_of_slot(slot))
            played.append(reward)
            assert info["lines"] == game.lines and (obs["board"] == game.board).all()
            if terminated or truncated:
                break
        assert game.done


def test_a_masked_out_action_ends_the_episode():
    env = gymnasium.make("tetrad/Placements-v0", preset="simplified")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == 0 and info["end"] == "violation"


def test_ticks_env_plays_ticks():
    env = gymnasium.make("tetrad/Ticks-v0", preset="classic", max_pieces=5)
    env.reset(seed=0)
    drop = env.unwrapped.actions.index(tetrad.DROP)
    steps = 0
    while True:
        _, _, terminated, truncated, info = env.step(drop)
        steps += 1
        if terminated or truncated:
            break
    assert truncated and info["pieces"] == 5 and steps >= 10


@pytest.mark.parametrize("preset", ["simplified", "leiden"])
def test_batch_env_steps_every_game_as_single_games_do(preset):
    # Both drop-only presets: their placements come from the per-piece tables.
    n = 8
    vec = envs.BatchPlacementEnv(n, preset=preset, width=10, height=10)
    obs, _ = vec.reset(seed=100)
    games = [tetrad.Game(preset, width=10, height=10, seed=100 + k) for k in range(n)]
    next_seed = 100 + n
    ended = 0
    rng = np.random.default_rng(0)
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        for k in range(n):
            lines = games[k].place(games[k].index_of_slot(int(actions[k])))
            assert rewards[k] == lines
            if games[k].done:
                assert terminated[k] and infos["final_lines"][k] == games[k].lines
                games[k] = tetrad.Game(preset, width=10, height=10, seed=next_seed)
                next_seed += 1
                ended += 1
            assert (obs["board"][k] == games[k].board).all()
            assert (obs["action_mask"][k] == games[k].action_mask()).all()
    assert ended > 0


def test_a_batch_game_given_a_slot_outside_its_mask_ends_as_a_violation():
    # As a refused placement ends a tournament game and `Placements-v0`'s episode: that
    # game ends, the next begins, the others play on.
    batch = tetrad.BatchGames(2, "simplified")
    boards, pieces, masks = batch.reset(0)
    empty = int(np.flatnonzero(~masks[0])[0])
    actions = np.array([empty, int(np.flatnonzero(masks[1])[0])])
    out = batch.step(actions)
    rewards, terminated, truncated, final_lines, final_pieces = out[3:]
    assert terminated.tolist() == [True, False] and not truncated.any() and rewards[0] == 0
    assert final_lines.tolist() == [0, -1] and final_pieces.tolist() == [0, -1]
    assert batch.indices == [2, 1]
    games, last_boards, last_pieces, last_masks, ends = batch.final_observations()
    assert games.tolist() == [0] and ends == ["violation"]
    assert (last_boards[0] == boards[0]).all() and (last_pieces[0] == pieces[0]).all()
    assert (last_masks[0] == masks[0]).all()
    assert (out[0][0] == tetrad.Game("simplified", seed=2).board).all()
    for bad in (masks.shape[1], -1):
        with pytest.raises(IndexError, match=rf"game 1: action {bad} is out of range: the slots are 0\.\.{masks.shape[1] - 1}"):
            batch.step(np.array([0, bad]))
    with pytest.raises(tetrad.TetradError, match="1 actions for 2 games"):
        batch.step(np.array([0]))
    assert batch.indices == [2, 1]


def test_a_masked_action_is_a_violation_in_the_single_and_the_batch_env():
    single = gymnasium.make("tetrad/Placements-v0", preset="simplified", game_over_reward=-5.0)
    vec = envs.BatchPlacementEnv(3, preset="simplified", game_over_reward=-5.0)
    obs, _ = single.reset(seed=7)
    obs_b, _ = vec.reset(seed=7)
    empty = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = single.step(empty)
    assert (reward, terminated, truncated, info["end"]) == (-5.0, True, False, "violation")
    assert all((after[key] == obs[key]).all() for key in obs)
    actions = np.argmax(obs_b["action_mask"], axis=1)
    actions[0] = empty
    _, rewards, terminated_b, truncated_b, infos = vec.step(actions)
    assert rewards[0] == -5.0 and terminated_b.tolist() == [True, False, False] and not truncated_b.any()
    assert final_info(infos, 0, "end") == "violation"
    key = "final_obs" if hasattr(gymnasium.vector, "AutoresetMode") else "final_observation"
    assert all((infos[key][0][k] == obs[k]).all() for k in obs)


def final_info(infos, k, key):
    if hasattr(gymnasium.vector, "AutoresetMode"):
        return infos["final_info"][key][k]
    return infos["final_info"][k][key]


@pytest.mark.parametrize("n", [2**40, 2**63, 2**64 - 1])
def test_a_batch_too_big_for_memory_raises_memory_error(n):
    # Issue 35: nothing aborts the interpreter. Allocating 2**40 games failed and aborted
    # it; 2**63 overflowed the size and panicked (a `PanicException`, not an `Exception`).
    with pytest.raises(MemoryError, match=f"a batch of {n} games does not fit in memory"):
        tetrad.BatchGames(n, "simplified")


def test_a_batch_plays_the_same_games_on_any_number_of_threads():
    batches = [tetrad.BatchGames(100, "simplified", width=8, height=8, threads=t) for t in (1, 3)]
    assert [b.threads for b in batches] == [1, 3]
    outs = [b.reset(0) for b in batches]
    rng = np.random.default_rng(4)
    for _ in range(60):
        masks = outs[0][2]
        for a, b in zip(outs[0], outs[1]):
            assert (a == b).all()
        assert batches[0].indices == batches[1].indices
        actions = np.argmax(masks * rng.random(masks.shape), axis=1).astype(np.int64)
        outs = [b.step(actions) for b in batches]
    assert batches[0].indices == batches[1].indices and max(batches[0].indices) >= 100


def test_a_batch_step_lets_other_python_threads_run():
    """The batch plays its games with the interpreter's lock released: another Python
    thread, waking every half millisecond, goes on running while a step is in Rust. (Were
    the lock held, the other thread could not get it before the step returned, so none
    of its wake-ups would fall inside a step.)"""
    import sys
    import threading
    import time

    batch = tetrad.BatchGames(2048, "classic", threads=1)
    _, _, masks = batch.reset(0)
    actions = np.argmax(masks, axis=1).astype(np.int64)
    steps, ticks, done = [], [], threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    # The interpreter hands its lock to a waiting thread between bytecodes after every
    # switch interval (5 ms), which puts a wake-up at the start of any longer step even
    # with the lock held through it; a second's interval leaves only what the step allows.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1.0)
    counter = threading.Thread(target=count)
    counter.start()
    try:
        for _ in range(20):
            begun = time.perf_counter()
            _, _, masks, *_ = batch.step(actions)
            steps.append((begun, time.perf_counter()))
            actions = np.argmax(masks, axis=1).astype(np.int64)
    finally:
        done.set()
        counter.join()
        sys.setswitchinterval(interval)
    # With the lock held through the step none falls inside (none in 20 steps, also under
    # load); released, about one in 0.7 ms does on a quiet machine and one in 1.3 ms with
    # four busy programs beside it. At least one in 10 ms is asked.
    inside = sum(1 for t in ticks if any(begun < t < ended for begun, ended in steps))
    stepping_ms = 1000 * sum(ended - begun for begun, ended in steps)
    assert inside >= stepping_ms / 10, (
        f"{inside} of the other thread's {len(ticks)} wake-ups fell inside {stepping_ms:.0f} ms of steps"
    )


def test_a_copied_placement_env_plays_its_own_game():
    env = gymnasium.make("tetrad/Placements-v0", preset="classic")
    obs, _ = env.reset(seed=3)
    for _ in range(5):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = copy.deepcopy(env)
    action = int(np.flatnonzero(obs["action_mask"])[-1])
    ours, theirs = twin.step(action), env.step(action)
    assert np.array_equal(ours[0]["board"], theirs[0]["board"]) and ours[4]["pieces"] == theirs[4]["pieces"] == 6
    for _ in range(3):
        twin.step(int(np.flatnonzero(twin.unwrapped.game.action_mask())[0]))
    # The copy's steps moved the copy's game, not the original's.
    assert env.unwrapped.game.pieces == 6 and twin.unwrapped.game.pieces == 9


def test_a_subclass_step_is_called_under_the_plain_reward():
    class Counted(envs.PlacementEnv):
        steps = 0

        def step(self, action):
            Counted.steps += 1
            return super().step(action)

    env = Counted(preset="simplified")
    obs, _ = env.reset(seed=0)
    _, reward, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert Counted.steps == 1 and reward == 0.0
