"""tetrad: the tetrad host's Tetris engine in Python.

``Game`` is one game under the host's rules (``classic``, ``leiden``, ``simplified``,
``guideline``), dealt the very pieces ``tetrad run`` deals: game ``seed`` of
``tetrad run --seed run_seed``. ``Game.placements()`` lists every placement of the
falling piece by the host's own enumeration; ``place(i)`` and ``step(actions)`` move.
``BatchGames`` steps many games at once in Rust. ``tetrad.envs`` has the Gymnasium
environments (registered as ``tetrad/Placements-v0`` and ``tetrad/Ticks-v0``),
``tetrad.wrappers`` observation wrappers for them, and
``tetrad.bot.serve`` turns a policy into a bot for ``tetrad run`` and ``tetrad
tournament``. See ``docs/python.md``.
"""

from ._tetrad import (
    ACTION_BITS,
    BatchGames,
    Game,
    GameOver,
    Placement,
    TetradError,
    __version__,
)

# Action bits for Game.step, as the plugin ABI defines them.
LEFT = 0x1
RIGHT = 0x2
CW = 0x4
CCW = 0x8
DROP = 0x10
SOFT_DROP = 0x20
HOLD = 0x40

PRESETS = ("classic", "leiden", "simplified", "guideline")

__all__ = [
    "ACTION_BITS",
    "BatchGames",
    "CCW",
    "CW",
    "DROP",
    "Game",
    "GameOver",
    "HOLD",
    "LEFT",
    "PRESETS",
    "Placement",
    "RIGHT",
    "SOFT_DROP",
    "TetradError",
    "__version__",
]

import importlib.util as _util

if _util.find_spec("gymnasium") is not None:  # the environments, when Gymnasium is installed
    from . import envs as _envs

    _envs.register_all()
