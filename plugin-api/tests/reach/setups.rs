//! Setups drawn by hand, each reachable only the way its name says: the search must
//! find the lock with what it is worth, and its path, played from where the piece enters
//! as the host plays it, must lock there worth that.

use super::engine::{cells, play, spin, Spin};
use super::oracle::{locks, locks_with};
use tetrad_plugin_api::{reachable, Actions, Board, PieceId, PieceSet, Preset, Rules};

const I: PieceId = PieceId(0);
const T: PieceId = PieceId(2);
const S: PieceId = PieceId(3);
const Z: PieceId = PieceId(4);
const J: PieceId = PieceId(5);
const L: PieceId = PieceId(6);

fn guideline() -> Rules {
    Rules::preset(Preset::Guideline)
}

/// The bottom rows of a guideline board, drawn from the top.
fn board(text: &str) -> Board {
    Board::from_text(10, 40, text)
}

/// A T-spin double's slot under an overhang.
const TSD: &str = "
    ##........
    #...######
    ##.#######";

/// A T-spin triple's slot under a roof, the T's way in over its shoulder.
const TST: &str = "
    ###.......
    ##........
    ##.#######
    ##..######
    ##.#######";

/// The same with room over the slot, under the roof, for a T pointing down.
const TST_ROOM: &str = "
    ###.......
    #.........
    ##.#######
    ##..######
    ##.#######";

/// The triple's slot with its top row open: two rows clear.
const STSD: &str = "
    ###.......
    ##........
    ...#######
    ##..######
    ##.#######";

/// A notch at the wall, under an overhang.
const MINI: &str = "
    #.........
    ..........
    ...#######
    .#########";

/// A slot under a roof, reached pointing down from the left.
const NEO: &str = "
    ....######
    ......####
    ###..#####
    ###..#####
    ####.#####";

/// A slot at the end of a tunnel under a roof, reached pointing down from the right.
const ISO: &str = "
    ...###....
    ..........
    ####....##
    ###..#####
    ####.#####";

/// A slot under a roof, reached pointing down off a ledge at the left.
const FIN: &str = "
    ...#######
    .....#####
    #....#####
    ###..#####
    ####.#####";

/// The slots, for the seeded boards to be cut from.
pub const SLOTS: [&str; 9] = [TSD, TST, TST_ROOM, STSD, MINI, NEO, ISO, FIN, CAVE];

/// A lock to be found on a board drawn by hand.
struct Setup {
    drawing: &'static str,
    piece: PieceId,
    /// The cells it covers, (column, row from the top of the 40 rows).
    cells: [(i8, i8); 4],
    /// What it is worth.
    worth: Spin,
    /// Everything a lock of these cells can be worth on this board (the plain search's
    /// answer): only `worth` for a slot nothing but that move reaches.
    ways: &'static [Spin],
    /// Rows it clears.
    lines: u32,
    /// For a spin, the kick its last turn takes.
    kick: Option<u8>,
}

impl Setup {
    /// Checks it, and returns the path found.
    fn check(&self) -> Vec<Actions> {
        let rules = guideline();
        let board = board(self.drawing);
        let kind = PieceSet::srs().kind(self.piece).clone();
        let mut target = self.cells;
        target.sort_unstable();
        let ways: Vec<Spin> = locks(&rules, &board, &kind)
            .into_keys()
            .filter(|(cells, _)| *cells == target)
            .map(|(_, worth)| worth)
            .collect();
        assert_eq!(ways, self.ways, "what the lock can be worth");
        let start = rules.enter(&board, &kind);
        super::sweep::agrees(&rules, &board, &kind, start, &mut Vec::new());
        let reached = reachable(&rules, &board, &kind, start);
        let found = reached
            .iter()
            .find(|r| {
                cells(&kind, r.pos) == target
                    && spin(&board, &kind, r.pos, r.last_kick) == self.worth
                    && (self.kick.is_none() || r.last_kick == self.kick)
            })
            .unwrap_or_else(|| {
                panic!(
                    "{:?} worth {:?} (kick {:?}) not found",
                    self.cells, self.worth, self.kick
                )
            });
        assert_eq!(
            play(&rules, &board, &kind, &found.path),
            (found.pos, self.worth),
            "{:?}",
            found.path
        );
        if self.kick.is_some() {
            assert_ne!(found.path.last().unwrap().turn(), 0, "ends turning: {:?}", found.path);
        }
        let mut after = board.clone();
        assert_eq!(
            after
                .lock(kind.orientation(found.pos.orientation), found.pos.x, found.pos.y)
                .lines,
            self.lines
        );
        found.path.clone()
    }

    /// Checks it, a tuck: no path without a soft drop reaches it, and the path found
    /// shifts after its soft drop.
    fn check_tuck(&self) {
        let path = self.check();
        let rules = guideline();
        let board = board(self.drawing);
        let kind = PieceSet::srs().kind(self.piece).clone();
        let mut target = self.cells;
        target.sort_unstable();
        let hovering = [Actions::LEFT, Actions::RIGHT, Actions::CW, Actions::CCW];
        let dropped = locks_with(&rules, &board, &kind, &hovering);
        assert!(dropped.keys().all(|(cells, _)| *cells != target), "a drop reaches it");
        let soft = path
            .iter()
            .position(|a| a.contains(Actions::SOFT_DROP))
            .expect("a soft drop");
        assert!(path[soft + 1..].iter().any(|a| a.shift() != 0), "{path:?}");
    }
}

#[test]
fn a_t_spin_double_under_an_overhang() {
    // The T stands in the slot's column, then turns clockwise in place to point down.
    Setup {
        drawing: TSD,
        piece: T,
        cells: [(1, 38), (2, 38), (3, 38), (2, 39)],
        worth: Spin::Full,
        ways: &[Spin::Full],
        lines: 2,
        kick: Some(0),
    }
    .check();
}

#[test]
fn a_t_spin_triple_through_the_fifth_kick() {
    // Pointing up on the slot's shoulder under the roof, the T turns clockwise: four
    // offsets are blocked, the fifth (one left, two down) stands it in the slot.
    Setup {
        drawing: TST,
        piece: T,
        cells: [(2, 37), (2, 38), (3, 38), (2, 39)],
        worth: Spin::Full,
        ways: &[Spin::Full],
        lines: 3,
        kick: Some(4),
    }
    .check();
}

#[test]
fn a_t_spin_triple_without_the_fifth_kick() {
    // The same slot with room over it: from the slot the T turns up out of it (pointing
    // down over it, under the roof), and back in, two rows straight down, the fourth
    // offset. Full by its corners.
    Setup {
        drawing: TST_ROOM,
        piece: T,
        cells: [(2, 37), (2, 38), (3, 38), (2, 39)],
        worth: Spin::Full,
        ways: &[Spin::Full],
        lines: 3,
        kick: Some(3),
    }
    .check();
}

#[test]
fn a_stsd_through_the_triple_kick_clears_two_rows() {
    Setup {
        drawing: STSD,
        piece: T,
        cells: [(2, 37), (2, 38), (3, 38), (2, 39)],
        worth: Spin::Full,
        ways: &[Spin::Full],
        lines: 2,
        kick: Some(4),
    }
    .check();
}

#[test]
fn a_t_spin_mini_single_against_the_wall() {
    // Pointing up in the notch, the T turns clockwise and kicks one left against the
    // wall: three corners (two of them the wall), one of them in front.
    Setup {
        drawing: MINI,
        piece: T,
        cells: [(0, 37), (0, 38), (1, 38), (0, 39)],
        worth: Spin::Mini,
        ways: &[Spin::Mini],
        lines: 1,
        kick: Some(1),
    }
    .check();
}

#[test]
fn a_neo_t_spin_double_is_a_mini_double() {
    // Pointing down under the roof, the T turns clockwise two rows straight down (the
    // fourth offset): the corner on its pointing side above is open, so a mini.
    Setup {
        drawing: NEO,
        piece: T,
        cells: [(4, 37), (3, 38), (4, 38), (4, 39)],
        worth: Spin::Mini,
        ways: &[Spin::Mini],
        lines: 2,
        kick: Some(3),
    }
    .check();
}

#[test]
fn an_iso_t_spin_double_is_full() {
    // Pointing down, slid left under the roof along the tunnel, the T turns clockwise
    // two rows straight down (the fourth offset): both corners on its pointing side are
    // filled.
    Setup {
        drawing: ISO,
        piece: T,
        cells: [(4, 37), (3, 38), (4, 38), (4, 39)],
        worth: Spin::Full,
        ways: &[Spin::Full],
        lines: 2,
        kick: Some(3),
    }
    .check();
}

#[test]
fn a_fin_t_spin_double_is_full_by_the_fifth_kick() {
    // Pointing down, slid right off the ledge under the roof, the T turns clockwise one
    // right and two down (the fifth offset): a mini by its corners, full by the kick.
    // (A tuck reaches the same cells too, as no spin.)
    Setup {
        drawing: FIN,
        piece: T,
        cells: [(4, 37), (3, 38), (4, 38), (4, 39)],
        worth: Spin::Full,
        ways: &[Spin::None, Spin::Full],
        lines: 2,
        kick: Some(4),
    }
    .check();
}

/// Cold Clear 2's suggestion from a real game, `{"type":"T","orientation":"west","x":4,
/// "y":18}` spin mini (TBP: the T's centre, rows counted up from 0 at the bottom), on a
/// board drawn to match: one left, soft drop to rest, a counter-clockwise turn with the
/// second offset (one right). The same cells are reached by a drop, in fewer moves.
#[test]
fn cold_clear_2s_west_t_spin_mini() {
    // Centre (4, 39 - 18) in the model's rows: box (3, 20), pointing west.
    let path = Setup {
        drawing: "
            .....#####
            .....#####
            ####.#####
            ###.######
            #########.
            .#########
            ##.#######
            #######.##
            ###.######
            ####.#####
            #.########
            ########.#
            #####.####
            .#########
            #######.##
            ###.######
            ##.#######
            ######.###
            #.########
            ########.#",
        piece: T,
        cells: [(4, 20), (3, 21), (4, 21), (4, 22)],
        worth: Spin::Mini,
        ways: &[Spin::None, Spin::Mini],
        lines: 1,
        kick: Some(1),
    }
    .check();
    assert_eq!(path, [Actions::LEFT | Actions::SOFT_DROP, Actions::CCW | Actions::DROP]);
}

/// The other, `{"type":"T","orientation":"east","x":4,"y":13}` spin mini: centre (4, 26)
/// in the model's rows, box (3, 25), pointing east; one right, soft drop, a clockwise
/// turn with the second offset (one left).
#[test]
fn cold_clear_2s_east_t_spin_mini() {
    let path = Setup {
        drawing: "
            ####......
            ####......
            ####.#####
            ####.#####
            .#########
            #####.####
            ##.#######
            #######.##
            #.########
            #########.
            ###.######
            .#########
            ########.#
            ######.###
            ##.#######",
        piece: T,
        cells: [(4, 25), (4, 26), (5, 26), (4, 27)],
        worth: Spin::Mini,
        ways: &[Spin::None, Spin::Mini],
        lines: 1,
        kick: Some(1),
    }
    .check();
    assert_eq!(path, [Actions::RIGHT | Actions::SOFT_DROP, Actions::CW | Actions::DROP]);
}

/// A cave under a roof at the left: only a piece soft-dropped to the right of it and
/// shifted in reaches its floor.
const CAVE: &str = "
    ###.......
    ..........
    ..........
    ..########";

#[test]
fn an_s_tuck() {
    Setup {
        drawing: CAVE,
        piece: S,
        cells: [(1, 38), (2, 38), (0, 39), (1, 39)],
        worth: Spin::None,
        ways: &[Spin::None],
        lines: 1,
        kick: None,
    }
    .check_tuck();
}

#[test]
fn a_z_tuck() {
    Setup {
        drawing: CAVE,
        piece: Z,
        cells: [(1, 37), (0, 38), (1, 38), (0, 39)],
        worth: Spin::None,
        ways: &[Spin::None],
        lines: 0,
        kick: None,
    }
    .check_tuck();
}

#[test]
fn a_j_tuck() {
    Setup {
        drawing: CAVE,
        piece: J,
        cells: [(1, 37), (1, 38), (0, 39), (1, 39)],
        worth: Spin::None,
        ways: &[Spin::None],
        lines: 1,
        kick: None,
    }
    .check_tuck();
}

#[test]
fn an_l_tuck() {
    Setup {
        drawing: CAVE,
        piece: L,
        cells: [(0, 38), (1, 38), (2, 38), (0, 39)],
        worth: Spin::None,
        ways: &[Spin::None],
        lines: 0,
        kick: None,
    }
    .check_tuck();
}

#[test]
fn an_i_tuck() {
    Setup {
        drawing: CAVE,
        piece: I,
        cells: [(0, 38), (1, 38), (2, 38), (3, 38)],
        worth: Spin::None,
        ways: &[Spin::None],
        lines: 0,
        kick: None,
    }
    .check_tuck();
}
