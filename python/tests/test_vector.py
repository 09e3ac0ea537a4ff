"""``gymnasium.make_vec`` of ``tetrad/Placements-v0`` reaches the Rust batch, which
resets games as Gymnasium's own vector environments do (same step) and lays its infos out
as they do."""

import gymnasium
import numpy as np
import pytest

import tetrad
from tetrad import envs

SAME_STEP = getattr(getattr(gymnasium.vector, "AutoresetMode", None), "SAME_STEP", None)
RULES = {"preset": "simplified", "width": 8, "height": 8}

needs_make_vec = pytest.mark.skipif(
    SAME_STEP is None, reason="gymnasium.make_vec takes a vector_entry_point's keywords from Gymnasium 1.0"
)


@needs_make_vec
@pytest.mark.parametrize("mode", [{"vectorization_mode": "vector_entry_point"}, {}])
def test_make_vec_reaches_the_batch(mode):
    vec = gymnasium.make_vec("tetrad/Placements-v0", num_envs=6, max_pieces=50, **mode, **RULES)
    assert isinstance(vec.unwrapped, envs.BatchPlacementEnv)
    assert vec.unwrapped.batch.num_games == 6 and vec.metadata["autoreset_mode"] == SAME_STEP
    batch = tetrad.BatchGames(6, seed=4, max_pieces=50, **RULES)
    obs, _ = vec.reset(seed=4)
    expected = batch.reset(4)
    rng = np.random.default_rng(1)
    for _ in range(80):
        assert (obs["board"] == expected[0]).all() and (obs["action_mask"] == expected[2]).all()
        actions = np.argmax(obs["action_mask"] * rng.random(obs["action_mask"].shape), axis=1)
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        expected = batch.step(actions.astype(np.int64))
        assert (rewards == expected[3]).all() and (terminated == expected[4]).all() and (truncated == expected[5]).all()
    # Gymnasium refuses sync and async wrappers for a vector entry point; they are not
    # needed: the keywords reach the batch, misspelt ones are refused.
    with pytest.raises(TypeError, match="'prest'"):
        gymnasium.make_vec("tetrad/Placements-v0", num_envs=2, vectorization_mode="vector_entry_point", prest="simplified")


def final(infos, k, key):
    """The ended game ``k``'s ``key``, laid out as the installed Gymnasium lays it: from
    1.0 a dict of arrays, in 0.29 an array of dicts."""
    if SAME_STEP is not None:
        assert infos["final_info"][f"_{key}"][k]
        return infos["final_info"][key][k]
    return infos["final_info"][k][key]


def final_obs(infos, k):
    """The ended game ``k``'s last observation, laid out as the installed Gymnasium lays
    it: ``final_obs`` from 1.0, ``final_observation`` in 0.29."""
    key = "final_obs" if SAME_STEP is not None else "final_observation"
    assert infos[f"_{key}"][k]
    return infos[key][k]


def test_the_batch_steps_as_gymnasiums_sync_vector_env_of_single_envs():
    # Some actions fall outside the mask: both end that game as a violation. After a
    # game ends the single environment's next game is drawn at random, so each game is
    # compared up to its first end.
    n = 6
    make = [lambda: gymnasium.make("tetrad/Placements-v0", max_pieces=25, **RULES) for _ in range(n)]
    same_step = {"autoreset_mode": SAME_STEP} if SAME_STEP else {}  # 0.29 resets in the same step only
    sync = gymnasium.vector.SyncVectorEnv(make, **same_step)
    batch = envs.BatchPlacementEnv(n, max_pieces=25, **RULES)
    obs_s, _ = sync.reset(seed=10)
    obs_b, _ = batch.reset(seed=10)
    rng = np.random.default_rng(2)
    live = np.ones(n, dtype=bool)
    ends = []
    for step in range(200):
        for key in ("board", "pieces", "action_mask"):
            assert (obs_s[key][live] == obs_b[key][live]).all(), (step, key)
        noise = rng.random(obs_s["action_mask"].shape)
        actions_s = np.argmax(obs_s["action_mask"] * noise, axis=1)
        actions_b = np.where(live, actions_s, np.argmax(obs_b["action_mask"] * noise, axis=1))
        if step % 9 == 4 and live[step % n]:
            actions_s[step % n] = actions_b[step % n] = int(np.flatnonzero(obs_s["action_mask"][step % n] == 0)[0])
        given = {key: value.copy() for key, value in obs_b.items()}
        obs_s, rew_s, term_s, trunc_s, infos_s = sync.step(actions_s)
        obs_b, rew_b, term_b, trunc_b, infos_b = batch.step(actions_b)
        assert (rew_s[live] == rew_b[live]).all()
        assert (term_s[live] == term_b[live]).all() and (trunc_s[live] == trunc_b[live]).all()
        ended = term_b | trunc_b
        assert (infos_b["final_lines"][~ended] == -1).all()
        if not ended.any():
            continue
        assert (infos_b["_final_info"] == ended).all()
        assert all(final_obs_none(infos_b, k) for k in np.flatnonzero(~ended))
        for k in np.flatnonzero(ended & live):
            assert final(infos_s, k, "lines") == final(infos_b, k, "lines") == infos_b["final_lines"][k]
            assert final(infos_s, k, "pieces") == final(infos_b, k, "pieces") == infos_b["final_pieces"][k]
            assert final(infos_s, k, "end") == final(infos_b, k, "end")
            last_s, last_b = final_obs(infos_s, k), final_obs(infos_b, k)
            for key in ("board", "pieces", "action_mask"):
                assert last_b[key].dtype == obs_b[key].dtype and (last_s[key] == last_b[key]).all(), (step, k, key)
            if final(infos_b, k, "end") == "violation":
                # Nothing was played: the last observation is the one the step was given.
                assert rew_b[k] == 0 and term_b[k]
                assert all((last_b[key] == given[key][k]).all() for key in given)
            else:
                assert not last_b["action_mask"].any()
            ends.append(final(infos_b, k, "end"))
            live[k] = False
        if not live.any():
            break
    assert "violation" in ends and {"topped_out", "capped"} & set(ends), ends


def final_obs_none(infos, k):
    key = "final_obs" if SAME_STEP is not None else "final_observation"
    return not infos[f"_{key}"][k] and infos[key][k] is None


@pytest.mark.parametrize("preset", ["classic", "simplified"])
def test_a_slot_an_earlier_piece_had_is_a_violation_now(preset):
    # A slot that held a placement of the piece before, and holds none of this one, ends
    # the game as any slot outside the mask does (the batch keeps no stale placement).
    n = 8
    batch = tetrad.BatchGames(n, preset, seed=3)
    masks = batch.reset(3)[2]
    rng = np.random.default_rng(5)
    before, tried = masks.copy(), 0
    for _ in range(60):
        stale = before.astype(bool) & ~masks.astype(bool)
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        chosen = [k for k in range(n) if stale[k].any()]
        for k in chosen:
            actions[k] = int(np.flatnonzero(stale[k])[0])
        before = masks.copy()
        _, _, masks, rewards, terminated, _, _, _ = batch.step(actions.astype(np.int64))
        games, _, _, _, names = batch.final_observations()
        ends = dict(zip(games.tolist(), names))
        for k in chosen:
            assert terminated[k] and rewards[k] == 0 and ends[k] == "violation", (k, ends)
            tried += 1
        for k in range(n):
            if not terminated[k] and k not in chosen:
                assert ends.get(k) is None
    assert tried > 10, tried


def test_the_batch_takes_the_reward_settings():
    plain = envs.BatchPlacementEnv(16, **RULES)
    shaped = envs.BatchPlacementEnv(16, survival_reward=0.25, game_over_reward=-5, **RULES)
    obs, _ = plain.reset(seed=0)
    shaped.reset(seed=0)
    ends = 0
    for _ in range(60):
        actions = np.argmax(obs["action_mask"], axis=1)
        obs, rewards, terminated, _, _ = plain.step(actions)
        _, shaped_rewards, _, _, _ = shaped.step(actions)
        assert (shaped_rewards == rewards + np.where(terminated, -5.0, 0.25)).all()
        ends += terminated.sum()
    assert ends > 0
    with pytest.raises(ValueError, match="reward must be 'lines'"):
        envs.BatchPlacementEnv(2, reward="score")


def test_the_batch_refuses_bad_actions_naming_the_range():
    batch = envs.BatchPlacementEnv(3, **RULES)
    obs, _ = batch.reset(seed=0)
    n = batch.single_action_space.n
    good = np.argmax(obs["action_mask"], axis=1)
    for k, bad in ((1, n), (2, -1)):
        actions = good.copy()
        actions[k] = bad
        with pytest.raises(ValueError, match=rf"game {k}'s action {bad} is out of range: the actions are 0\.\.{n - 1}"):
            batch.step(actions)
    with pytest.raises(TypeError, match=rf"integer actions in 0\.\.{n - 1}, not float64"):
        batch.step(good.astype(np.float64))
    with pytest.raises(ValueError, match=r"takes 3 actions, one a game, not an array of shape \(2,\)"):
        batch.step(good[:2])
    # Nothing was played by the refused steps.
    _, _, terminated, truncated, _ = batch.step(good)
    assert not (terminated | truncated).any() and batch.batch.indices == [0, 1, 2]
