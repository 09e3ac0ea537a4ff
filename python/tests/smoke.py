"""What a newcomer does first with an installed wheel: import the package, make each
environment through Gymnasium, play a few steps and a batch. Run as a script (not a
pytest module) by `.ci/run` in a fresh environment without Rust; exits non-zero on any
failure."""

import gymnasium
import numpy as np

import tetrad
from tetrad import envs

print(f"tetrad {tetrad.__version__} from {tetrad.__file__}, gymnasium {gymnasium.__version__}, numpy {np.__version__}")

game = tetrad.Game("classic", seed=0)
assert game.width == 10 and game.height == 20 and game.placements()

for env_id in ("tetrad/Placements-v0", "tetrad/Ticks-v0"):
    env = gymnasium.make(env_id, render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    for _ in range(60):
        if "action_mask" in obs:
            action = int(np.flatnonzero(obs["action_mask"])[0])
        else:
            action = env.unwrapped.actions.index(tetrad.DROP)
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()
    assert env.render().shape[2] == 3
    print(f"{env_id}: 60 steps, {info['pieces']} pieces in the game being played")

vec = envs.BatchPlacementEnv(4, preset="simplified")
obs, _ = vec.reset(seed=0)
for _ in range(20):
    obs, rewards, terminated, truncated, infos = vec.step(np.argmax(obs["action_mask"], axis=1))
print(f"BatchPlacementEnv x 4: 20 steps, games {vec.batch.indices}")
print("smoke test passed")
