"""Pictures of a game: the RGB frames of ``render_mode="rgb_array"`` (for Gymnasium's
``RecordVideo`` and ``gymnasium.utils.play``), the pygame window of ``"human"``, and the
keys ``gymnasium.utils.play`` plays ``tetrad/Ticks-v0`` with. pygame is needed for the
window only (``pip install pygame``, or the package's ``[render]`` extra)."""

import numpy as np

#: Action bits, as the plugin ABI defines them (``tetrad.LEFT`` and the others).
BITS = {"LEFT": 0x1, "RIGHT": 0x2, "CW": 0x4, "CCW": 0x8, "DROP": 0x10, "SOFT_DROP": 0x20, "HOLD": 0x40}

#: Pixels a side of one cell in a frame.
CELL = 16

_EMPTY = (18, 18, 28)
_FILLED = (150, 150, 162)
_PIECES = {
    "I": (0, 200, 220),
    "O": (230, 210, 0),
    "T": (160, 60, 200),
    "S": (40, 190, 60),
    "Z": (220, 40, 40),
    "J": (40, 80, 220),
    "L": (240, 140, 0),
}
_OTHER = (235, 235, 235)


def cells(game):
    """The rows shown (under ``guideline`` the buffer's top rows are not), as a rows x
    width ``uint8`` array: 0 empty, 1 filled, 2 the falling piece. Shown rows are the
    board's bottom rows."""
    text = game.render()
    rows = text.count("\n")
    chars = np.frombuffer(text.replace("\n", "").encode("ascii"), dtype=np.uint8)
    out = np.zeros(chars.shape, dtype=np.uint8)
    out[chars == ord("#")] = 1
    out[chars == ord("@")] = 2
    return out.reshape(rows, -1)


def frame(game, cell=CELL):
    """The shown rows as a picture: (rows x ``cell``) x (width x ``cell``) x 3 ``uint8``,
    the falling piece in its kind's colour, a darker line between cells."""
    palette = np.array([_EMPTY, _FILLED, _PIECES.get(game.current, _OTHER)], dtype=np.uint8)
    picture = palette[cells(game)].repeat(cell, axis=0).repeat(cell, axis=1)
    picture[::cell, :, :] //= 2
    picture[:, ::cell, :] //= 2
    return picture


class Window:
    """A pygame window showing frames at a given rate. Made when the environment is
    (so a missing pygame is said at once); opened at the first frame."""

    def __init__(self, title):
        try:
            import pygame
        except ImportError:
            from gymnasium.error import DependencyNotInstalled

            raise DependencyNotInstalled(
                f'{title}: render_mode="human" shows the game in a pygame window, and pygame is not installed: '
                "pip install pygame (or install the package with its [render] extra); "
                'render_mode="rgb_array" and "ansi" need nothing more'
            ) from None
        self._pygame = pygame
        self._title = title
        self._screen = None
        self._clock = None

    def show(self, picture, fps):
        pygame = self._pygame
        height, width, _ = picture.shape
        if self._screen is None:
            pygame.display.init()
            pygame.display.set_caption(self._title)
            self._screen = pygame.display.set_mode((width, height))
            self._clock = pygame.time.Clock()
        surface = pygame.surfarray.make_surface(picture.swapaxes(0, 1))
        self._screen.blit(surface, (0, 0))
        # Events pumped so the window stays responsive between steps.
        pygame.event.pump()
        pygame.display.flip()
        self._clock.tick(fps)

    def close(self):
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None


def keys_to_action(actions):
    """``gymnasium.utils.play``'s mapping from keys held together to an index into
    ``actions`` (tuples of action bits): left and right arrows shift, up turns clockwise,
    ``z`` counter-clockwise, space drops, down soft-drops, ``c`` holds."""
    import pygame

    keys = {
        BITS["LEFT"]: pygame.K_LEFT,
        BITS["RIGHT"]: pygame.K_RIGHT,
        BITS["CW"]: pygame.K_UP,
        BITS["CCW"]: pygame.K_z,
        BITS["DROP"]: pygame.K_SPACE,
        BITS["SOFT_DROP"]: pygame.K_DOWN,
        BITS["HOLD"]: pygame.K_c,
    }
    mapping = {}
    for index, bits in enumerate(actions):
        if bits:
            mapping[tuple(sorted(key for bit, key in keys.items() if bits & bit))] = index
    return mapping
