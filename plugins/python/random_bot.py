"""A bot that drops each piece at a uniformly random placement, seeded by the game."""

import random

import tetrad_bot


class RandomBot(tetrad_bot.Bot):
    name = "random-py"
    description = "a uniformly random placement per piece"

    def setup(self, game):
        tetrad_bot.parse_options(game.options, {})
        self.rng = random.Random(game.seed)

    def place(self, turn):
        return self.rng.choice(turn.placements())


if __name__ == "__main__":
    tetrad_bot.run(RandomBot())
