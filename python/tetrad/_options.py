"""What the environments accept: their keyword arguments, their actions and their reward
settings, each refused with a message that names what is valid."""

import difflib
import math
import numbers
import operator

#: The rules arguments the environments pass on to :class:`tetrad.Game`.
GAME_ARGS = ("preset", "width", "height", "preview", "pieces", "sequence", "run_seed", "randomizer", "max_pieces")
#: The reward settings.
REWARD_ARGS = ("reward", "survival_reward", "game_over_reward")
#: What ``reward`` may name: the rows a step clears, or the points it scores.
REWARDS = ("lines", "score")


def check_options(owner, kwargs, valid):
    """Refuses keyword arguments ``owner`` does not take (a misspelt option would
    otherwise be dropped without a word), naming the valid ones."""
    unknown = [k for k in kwargs if k not in valid]
    if not unknown:
        return
    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, valid, n=1)
        hints.append(f"{name!r} (did you mean {close[0]!r}?)" if close else repr(name))
    word = "argument" if len(unknown) == 1 else "arguments"
    raise TypeError(
        f"{owner} got an unexpected keyword {word} {', '.join(hints)}; "
        f"valid: render_mode, {', '.join(valid)}"
    )


def check_action(owner, action, count):
    """The action as an ``int`` in ``0 .. count - 1``: a non-integer is a ``TypeError``,
    an integer out of range a ``ValueError``, each naming the range."""
    try:
        index = operator.index(action)
    except TypeError:
        raise TypeError(
            f"{owner} takes an integer action in 0..{count - 1} (Discrete({count})), not {action!r}"
        ) from None
    if not 0 <= index < count:
        raise ValueError(f"{owner}: action {index} is out of range: the actions are 0..{count - 1} (Discrete({count}))")
    return index


def _number(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    return value


class Reward:
    """The reward settings: ``reward`` (``"lines"``, the rows the step cleared, or
    ``"score"``, the points it scored under the preset's scoring), plus
    ``survival_reward`` on every step after which the game goes on and
    ``game_over_reward`` on the step that ends it (topped out, stalled or a violation; a
    cap truncates and is not a game over)."""

    def __init__(self, reward="lines", survival_reward=0.0, game_over_reward=0.0):
        if not isinstance(reward, str) or reward not in REWARDS:
            valid = ", ".join(repr(r) for r in REWARDS)
            raise ValueError(f"reward must be one of {valid}, not {reward!r}")
        self.reward = reward
        self.survival_reward = _number("survival_reward", survival_reward)
        self.game_over_reward = _number("game_over_reward", game_over_reward)
        #: The engine's own reward (rows cleared) with nothing added.
        self.plain = reward == "lines" and self.survival_reward == 0.0 and self.game_over_reward == 0.0

    def of(self, lines, points, terminated):
        """A step's reward from the rows it cleared, the points it scored and whether it
        ended the game."""
        base = float(lines) if self.reward == "lines" else float(points)
        return base + (self.game_over_reward if terminated else self.survival_reward)

    def __repr__(self):
        return (
            f"Reward(reward={self.reward!r}, survival_reward={self.survival_reward}, "
            f"game_over_reward={self.game_over_reward})"
        )
