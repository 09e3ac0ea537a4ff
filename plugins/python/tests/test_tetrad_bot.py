"""Tests of tetrad_bot and the two example bots: the protocol loop on fake pipes, the board,
the host's placement enumeration (counts and cases pinned by the Rust move generator's
own tests), and Dellacherie's features on boards drawn by hand."""

import io
import json
import os
import random
import sys
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import check_placements  # noqa: E402
import greedy_bot  # noqa: E402
import random_bot  # noqa: E402
import tetrad_bot as t  # noqa: E402
from pieces import start_message  # noqa: E402

I, O, T, S, Z, J, L = range(7)


def game(preset, **kwargs):
    return t.Game.from_message(start_message(preset, **kwargs))


def spawn(piece):
    return t.Position(0, *piece.spawn)


def session(bot, messages):
    """The bot's answers to ``messages`` (dicts, or raw lines), and what run returned."""
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    stdout = io.StringIO()
    t.run(bot, io.StringIO("".join(line + "\n" for line in lines)), stdout)
    return [json.loads(line) for line in stdout.getvalue().splitlines()]


def piece_message(preset, piece, field=None):
    g = game(preset)
    x, y = g.pieces[piece].spawn
    current = {"piece": piece, "orientation": 0, "x": x, "y": y}
    return {"type": "piece", "field": field or [0] * g.height, "current": current, "next": None}


class Protocol(unittest.TestCase):
    def test_a_whole_game_hello_start_pieces_quit(self):
        answers = session(greedy_bot.GreedyBot(), [
            {"type": "hello", "protocol": 1},
            start_message("simplified", seed=7),
            piece_message("simplified", T),
            piece_message("simplified", I),
            {"type": "quit"},
            {"type": "hello", "protocol": 1},
        ])
        info, ready, first, second = answers
        self.assertEqual(info["type"], "info")
        self.assertEqual((info["protocol"], info["name"], info["answers"]), (1, "greedy-py", "placement"))
        self.assertEqual(ready, {"type": "ready"})
        g = game("simplified")
        for answer, piece in [(first, T), (second, I)]:
            self.assertEqual(answer["type"], "placement")
            legal = [(p.orientation, p.column, p.slide) for p in
                     t.placements(g, t.Board(10, 20), g.pieces[piece], spawn(g.pieces[piece]))]
            self.assertIn((answer["orientation"], answer["column"], answer["slide"]), legal)

    def test_a_bad_option_is_an_error_message(self):
        answers = session(greedy_bot.GreedyBot(), [start_message("classic", options="w1=2,depth=3")])
        self.assertEqual(answers, [{
            "type": "error",
            "message": "unknown option `depth` (known: w1, w2, w3, w4, w5, w6)",
        }])
        answers = session(random_bot.RandomBot(), [start_message("classic", options="x=1")])
        self.assertEqual(answers[0]["message"], "unknown option `x` (this plugin takes no options)")

    def test_unknown_fields_and_types_are_ignored_and_eof_ends(self):
        hello = {"type": "hello", "protocol": 1, "colour": "blue"}
        answers = session(random_bot.RandomBot(), [hello, {"type": "gossip"}, ""])
        self.assertEqual([a["type"] for a in answers], ["info"])

    def test_a_bot_that_raises_sends_an_error(self):
        class Broken(t.Bot):
            def place(self, turn):
                return {}["no such key"]

        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            answers = session(Broken(), [start_message("leiden"), piece_message("leiden", O)])
        finally:
            sys.stderr = stderr
        self.assertEqual(answers[1]["type"], "error")
        self.assertIn("KeyError", answers[1]["message"])

    def test_a_tick_bot_answers_bits(self):
        class Dropper(t.Bot):
            answers = "tick"

            def tick(self, turn):
                return t.DROP if turn.new_piece else 0

        message = dict(piece_message("classic", S), type="tick", new_piece=True)
        answers = session(Dropper(), [{"type": "hello", "protocol": 1}, start_message("classic"), message])
        self.assertEqual(answers[0]["answers"], "tick")
        self.assertEqual(answers[2], {"type": "actions", "bits": 16})

    def test_options_are_read_as_their_defaults_type(self):
        defaults = {"depth": 1, "rate": 0.5, "fast": False, "name": "x"}
        self.assertEqual(t.parse_options("", defaults), defaults)
        got = t.parse_options("depth=3, rate=-2 fast=true,name=y", defaults)
        self.assertEqual(got, {"depth": 3, "rate": -2.0, "fast": True, "name": "y"})
        for text, message in [
            ("depth", "option `depth` is not of the form key=value"),
            ("=3", "option `=3` has an empty key"),
            ("depth=1,depth=2", "option `depth` is given twice"),
            ("depth=two", "option `depth`: cannot read `two` as an integer"),
            ("fast=yes", "option `fast`: cannot read `yes` as true or false"),
        ]:
            with self.assertRaises(t.BotError) as caught:
                t.parse_options(text, defaults)
            self.assertEqual(str(caught.exception), message)


class BoardOperations(unittest.TestCase):
    def test_drawing_heights_and_holes(self):
        board = t.Board.from_text(4, 4, ".#..\n##.#\n#..#")
        self.assertEqual(board.rows, [0, 0b0010, 0b1011, 0b1001])
        self.assertEqual(board.column_heights(), [2, 3, 0, 2])
        self.assertEqual(board.holes(), 1)
        self.assertEqual(board.surface(), 1)
        self.assertEqual(str(board), "....\n.#..\n##.#\n#..#")

    def test_clearing_keeps_the_order_of_the_other_rows(self):
        board = t.Board.from_text(4, 5, "#...\n####\n.#..\n####\n..#.")
        self.assertEqual(board.clear(), 2)
        self.assertEqual(board.rows, [0, 0, 0b0001, 0b0010, 0b0100])

    def test_vertical_i_drops_onto_the_stack_and_the_sky_is_open(self):
        vertical = game("classic").pieces[I].shapes[1]
        board = t.Board.from_text(6, 8, "..#...\n..#...")
        self.assertEqual(board.drop(vertical, 0, -2), 2)
        self.assertEqual(board.drop(vertical, 1, -2), 4)
        self.assertFalse(board.fits(vertical, -3, 0))
        self.assertTrue(board.fits(vertical, -2, 0))
        self.assertTrue(board.fits(vertical, 0, -3))
        self.assertTrue(board.rests(vertical, 0, 2))

    def test_lock_places_and_clears_or_refuses_above_the_board(self):
        o = game("classic").pieces[O].shapes[0]
        board = t.Board.from_text(4, 4, "..##\n..##")
        self.assertEqual(board.lock(o, 0, 2), (2, False))
        self.assertEqual(board.rows, [0, 0, 0, 0])
        self.assertEqual(board.lock(o, 0, -1), (0, True))
        self.assertEqual(board.rows, [0, 0, 0, 0])


class Placements(unittest.TestCase):
    def test_empty_ten_wide_board_counts_for_every_preset(self):
        for preset in ["classic", "leiden", "simplified"]:
            g = game(preset)
            counts = [len(t.placements(g, t.Board(10, g.height), p, spawn(p))) for p in g.pieces]
            self.assertEqual(counts, [17, 9, 34, 17, 17, 34, 34], preset)

    def test_leiden_counts_follow_the_width(self):
        for w in [4, 6, 15, 20]:
            g = game("leiden", width=w, height=12)
            counts = [len(t.placements(g, t.Board(w, 12), p, spawn(p))) for p in g.pieces]
            self.assertEqual(counts, [2 * w - 3, w - 1, 4 * w - 6, 2 * w - 3, 2 * w - 3, 4 * w - 6, 4 * w - 6])

    def test_order_is_orientation_then_column_and_ends_are_distinct(self):
        g = game("simplified")
        found = t.placements(g, t.Board(10, 20), g.pieces[T], spawn(g.pieces[T]))
        self.assertEqual([(p.orientation, p.column) for p in found][:3], [(0, 0), (0, 1), (0, 2)])
        self.assertEqual([p.orientation for p in found], sorted(p.orientation for p in found))
        self.assertEqual(len(set(p.pos for p in found)), len(found))
        # Orientation 3 is one turn counter-clockwise from 0, 2 two turns clockwise.
        self.assertEqual({p.orientation: p.turns for p in found}, {0: 0, 1: 1, 2: 2, 3: -1})

    def test_classic_slide_tucks_under_an_overhang(self):
        g = game("classic")
        board = t.Board.from_text(10, 20, "....######\n..........\n..........")
        found = t.placements(g, board, g.pieces[O], spawn(g.pieces[O]))
        tucked = [p for p in found if p.pos == (0, 3, 18)]
        self.assertEqual(len(tucked), 1)
        self.assertEqual((tucked[0].column, tucked[0].slide, tucked[0].shifts), (2, 1, -2))
        self.assertEqual(t.path(g, 0, -2, 1), [t.MOVE_LEFT, t.MOVE_LEFT | t.DROP, t.MOVE_RIGHT | t.DROP])
        on_top = [p for p in found if p.pos.x == 3 and p.slide == 0]
        self.assertEqual(on_top[0].pos.y, 15)

    def test_gravity_stops_a_piece_blocked_while_it_descends(self):
        # A wall of height 18 in column 8: a flat I cannot reach the right edge under
        # gravity, though it could from the sky.
        g = game("classic")
        board = t.Board(10, 20, [0, 0] + [1 << 8] * 18)
        found = t.placements(g, board, g.pieces[I], spawn(g.pieces[I]))
        self.assertTrue(all(p.pos.orientation != 0 or p.pos.x + 3 < 8 for p in found))
        self.assertTrue(any(p.pos.orientation == 0 and p.pos.x == 4 for p in found))
        s = game("simplified")
        flat = [p for p in t.placements(s, board, s.pieces[I], spawn(s.pieces[I])) if p.orientation == 0]
        self.assertEqual(len(flat), 7)

    def test_classic_drop_then_slide_off_a_ledge_keeps_falling(self):
        g = game("classic", width=6, height=6)
        board = t.Board.from_text(6, 6, "#.....\n#.....\n#.....")
        o = g.pieces[O]
        pos, _, _, locked = t.step(g, board, o, t.Position(0, 0, 0), t.DROP)
        self.assertEqual((locked, pos.y), (False, 1))
        pos, _, shifted, locked = t.step(g, board, o, pos, t.MOVE_RIGHT)
        self.assertEqual((shifted, locked, pos), (True, False, (0, 1, 2)))
        for y in (3, 4):
            pos, _, _, locked = t.step(g, board, o, pos, 0)
            self.assertEqual((locked, pos.y), (False, y))
        self.assertTrue(t.step(g, board, o, pos, 0)[3])

    def test_the_host_gives_the_same_placements_on_random_boards(self):
        # host_placements.jsonl: 240 cases the Rust move generator (plugin-api's
        # `placements`) listed on random boards with holes, from spawn or from other
        # orientations and columns, under every preset; the pieces are the tetrominoes.
        with open(os.path.join(HERE, "host_placements.jsonl")) as cases:
            for number, line in enumerate(cases, 1):
                case = json.loads(line)
                case["pieces"] = start_message(case["preset"], case["width"], case["height"])["pieces"]
                found = check_placements.enumerate_case(case)
                self.assertEqual(found, case["placements"], "case %d" % number)

    def test_check_placements_reports_each_differing_case(self):
        g = game("classic")
        message = start_message("classic")
        found = t.placements(g, t.Board(10, 20), g.pieces[L], spawn(g.pieces[L]))
        case = dict(message, field=[0] * 20, piece=L, pos=list(spawn(g.pieces[L])),
                    placements=[[p.pos.orientation, p.pos.x, p.pos.y, p.slide] for p in found])
        wrong = dict(case, placements=case["placements"][1:])
        out = io.StringIO()
        stdin = sys.stdin
        try:
            for cases, status, lines in [([case], 0, 0), ([case, wrong, case], 1, 1)]:
                sys.stdin = io.StringIO("".join(json.dumps(c) + "\n" for c in cases))
                stderr, sys.stderr = sys.stderr, io.StringIO()
                with redirect_stdout(out):
                    got = check_placements.main()
                sys.stderr = stderr
                self.assertEqual(got, status)
                self.assertEqual(len(out.getvalue().splitlines()), lines)
        finally:
            sys.stdin = stdin
        self.assertTrue(out.getvalue().startswith("line 2 (classic 10x20, piece 6 from [0, 3, 0])"))


class Dellacherie(unittest.TestCase):
    def test_board_features_on_a_board_drawn_by_hand(self):
        # The bcts plugin's own case: row transitions 14, column transitions 7, holes 1,
        # cumulative wells 2 + 1 + 1 + 1.
        board = t.Board.from_text(5, 5, ".....\n.#...\n.#..#\n##.##\n#.###")
        self.assertEqual(greedy_bot.board_features(board), (14, 7, 1, 5))

    def test_an_empty_board_and_a_deep_well(self):
        self.assertEqual(greedy_bot.board_features(t.Board(10, 20)), (40, 10, 0, 0))
        # Column 0 empty to the floor, three rows of the others full but it: a well of
        # depth 3 (1 + 2 + 3).
        board = t.Board.from_text(4, 5, ".###\n.###\n.###")
        self.assertEqual(greedy_bot.board_features(board), (2 * 2 + 3 * 2, 1 + 3, 0, 6))

    def test_landing_height_and_eroded_cells(self):
        g = game("simplified")
        board = t.Board.from_text(10, 20, "....######")
        flat, upright = g.pieces[I].shapes
        features = greedy_bot.features(g, board, flat, t.Position(0, 0, 18))
        self.assertEqual(features[:2], (0, 4), "a flat I on the floor clearing its row")
        self.assertEqual(features[2:], greedy_bot.board_features(t.Board(10, 20)))
        features = greedy_bot.features(g, board, upright, t.Position(1, -2, 16))
        self.assertEqual(features[:2], (1.5, 0), "an upright I on the floor: its middle")

    def test_a_placement_that_ends_the_game_rates_nothing(self):
        g = game("simplified", height=4)
        board = t.Board.from_text(10, 4, "#.........\n#.........\n#.........\n#.........")
        o = g.pieces[O].shapes[0]
        self.assertIsNone(greedy_bot.features(g, board, o, t.Position(0, 1, -1)))

    def test_greedy_clears_lines_on_simplified(self):
        g = game("simplified", seed=3)
        bot = greedy_bot.GreedyBot()
        bot.setup(g)
        board, rng, lines = t.Board(10, 20), random.Random(3), 0
        for _ in range(600):
            index = rng.randrange(7)
            piece = g.pieces[index]
            x, y = piece.spawn
            current = {"piece": index, "orientation": 0, "x": x, "y": y}
            choice = bot.place(t.Turn(g, {"field": board.rows, "current": current}))
            cleared, above = board.lock(piece.shapes[choice.pos.orientation], choice.pos.x, choice.pos.y)
            self.assertFalse(above)
            lines += cleared
        self.assertGreater(lines, 200)


if __name__ == "__main__":
    unittest.main()
