//! The searches pinned on boards drawn by hand.

use super::*;
use tetrad_plugin_api::{PieceSet, Preset};

const I: PieceId = PieceId(0);
const O: PieceId = PieceId(1);

fn classic(width: usize, height: usize) -> Rules {
    Rules {
        width,
        height,
        ..Rules::preset(Preset::Classic)
    }
}

fn only(index: usize, weight: f64) -> Weights {
    let mut w = [0.0; 8];
    w[index] = weight;
    Weights(w)
}

fn searcher(rules: Rules, weights: Weights) -> Searcher {
    let settings = Settings {
        weights,
        ..Settings::defaults(rules.height)
    };
    Searcher::new(rules, PieceSet::tetrominoes(), settings)
}

fn falling(rules: &Rules, id: PieceId) -> FallingPiece {
    FallingPiece {
        id,
        pos: rules.spawn(PieceSet::tetrominoes().kind(id)),
    }
}

#[test]
fn a_leaf_takes_f1_to_f3_before_and_f4_to_f8_after_the_clear() {
    // 10 x 4 board (40 cells), column 10 empty in the two bottom rows:
    //   row 3  #########.
    //   row 4  #########.
    // A vertical I dropped in column 10 covers rows 1..4 (b): F1 = 4, F2 = 1,
    // F3 = (1 + 2 + 3 + 4) / 4 = 2.5. Rows 3 and 4 complete: F5 = 2. In b' the I's two
    // top squares fall to rows 3 and 4 of column 10; heights from the floor h1..h9 = 0,
    // h10 = 2: the wall term (h9 - h10) = 0 - 2 = -2 counts 0 (clipped), roughness 0,
    // F6 = 40 (height against the wall is smooth); no holes: F4 = 40, F7 = 40, F8 = 0.
    // With w = (1, 10, 100, 1000, 10^4, 10^5, 10^6, 10^7) every feature is one digit group:
    // E = 4 + 10 + 250 + 40 000 + 20 000 + 4 000 000 + 40 000 000 + 0 = 44 060 264.
    let rules = classic(10, 4);
    let board = Board::from_text(10, 4, "#########.\n#########.");
    let set = PieceSet::tetrominoes();
    let shape = set.kind(I).orientation(1);
    let pos = PiecePos {
        orientation: 1,
        x: 7,
        y: 0,
    };
    let (after, lines) = land(&board, shape, pos).unwrap();
    assert_eq!(lines, 2);
    assert_eq!(after, Board::from_text(10, 4, ".........#\n.........#"));
    let w = Weights([1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7]);
    let s = searcher(rules, w);
    assert_eq!(s.leaf_value(I, pos, lines, &after), 44_060_264.0);
    // With the wall term as written (walls=signed) roughness = -2, F6 = 42 (the tall
    // wall column pays), and E = 44 260 264.
    let read = |heights, walls| {
        let settings = Settings {
            weights: w,
            heights,
            walls,
            ..Settings::defaults(4)
        };
        Searcher::new(rules, PieceSet::tetrominoes(), settings).leaf_value(I, pos, lines, &after)
    };
    assert_eq!(read(Heights::FromFloor, Walls::Signed), 44_260_264.0);
    // Under heights=top the surfaces are row numbers, h1..h9 = 5 (the floor of an empty
    // column), h10 = 3: roughness = 5 - 3 = 2, F6 = 38, and E = 43 860 264 (positive, so
    // the same clipped or not).
    assert_eq!(read(Heights::FromTop, Walls::Signed), 43_860_264.0);
    assert_eq!(read(Heights::FromTop, Walls::Clipped), 43_860_264.0);
}

/// 10 x 6, column 5 open down to row 5 and column 6 open down to row 6:
///
/// ```text
///   row 5  ####.#####
///   row 6  #####.####
/// ```
fn two_steps() -> Board {
    Board::from_text(10, 6, "####.#####\n#####.####")
}

#[test]
fn deep_f5_counts_the_lines_of_both_pieces() {
    // I then I, E = F5 only. Shallow: a vertical I in column 5 completes row 5, F5 = 1.
    // Deep: after that clear, column 6 is open to row 6 and the second I completes it:
    // F5 = 1 + 1 = 2. No other order clears two rows.
    let rules = classic(10, 6);
    let mut s = searcher(rules, only(4, 1.0));
    let shallow = s.shallow(&two_steps(), falling(&rules, I)).unwrap();
    assert_eq!(shallow.value, 1.0);
    let deep = s.deep(&two_steps(), falling(&rules, I), I).unwrap();
    assert_eq!(deep.value, 2.0);
    // The vertical I's squares are in the third column of its box: box x 2 is column 5.
    assert_eq!((deep.placement.pos.orientation, deep.placement.pos.x), (1, 2));
}

#[test]
fn deep_f1_is_the_second_piece_s_depth() {
    // E = F1 only. Shallow: the deepest the first I reaches is row 5 (column 5).
    // Deep: F1 is the second piece's; it reaches row 6 only through column 6, open once
    // the first I has cleared row 5, so F1 = 6 and the first I goes to column 5.
    let rules = classic(10, 6);
    let mut s = searcher(rules, only(0, 1.0));
    assert_eq!(s.shallow(&two_steps(), falling(&rules, I)).unwrap().value, 5.0);
    let deep = s.decide(&two_steps(), falling(&rules, I), Some(I)).unwrap();
    assert!(deep.deep);
    assert_eq!(deep.value, 6.0);
    assert_eq!((deep.placement.pos.orientation, deep.placement.pos.x), (1, 2));
}

#[test]
fn slides_are_searched_when_the_board_has_a_hole() {
    // Columns 5-10 overhang two empty rows: 12 holes, F4 = 200 - 12 = 188 as it stands.
    //   row 18  ....######
    //   row 19  ..........
    //   row 20  ..........
    // E = F4. An O dropped in columns 3-4 and slid right tucks under the overhang,
    // filling the holes at column 5, rows 19-20: F4 = 190, the only leaf that high
    // (dropped in columns 1-4 it leaves F4 at 188; on the overhang it covers more).
    let rules = classic(10, 20);
    let overhang = Board::from_text(10, 20, "....######\n..........\n..........");
    let mut s = searcher(rules, only(3, 1.0));
    let best = s.shallow(&overhang, falling(&rules, O)).unwrap();
    assert_eq!(best.value, 190.0);
    assert_eq!((best.placement.slide, best.placement.pos.x), (1, 3));
    let set = PieceSet::tetrominoes();
    let all = tetrad_plugin_api::placements(&rules, &overhang, set.kind(O), rules.spawn(set.kind(O)));
    assert!(all.iter().any(|p| p.slide != 0));
    assert_eq!(best.leaves, all.len());
    // On a board without a hole (here, the same rows with the overhang's holes filled),
    // a slide could only reach a square a straight drop reaches too; none are searched.
    let solid = Board::from_text(10, 20, "....######\n....######\n....######");
    let plain = s.shallow(&solid, falling(&rules, O)).unwrap();
    assert_eq!((plain.leaves, plain.placement.slide), (9, 0));
}

#[test]
fn ties_go_to_the_first_leaf_of_the_depth_first_walk() {
    // E = F1 on an empty board: every flat placement of an O reaches row 20; the first in
    // the tree is the leftmost column.
    let rules = classic(10, 20);
    let mut s = searcher(rules, only(0, 1.0));
    let best = s.shallow(&Board::new(10, 20), falling(&rules, O)).unwrap();
    assert_eq!((best.value, best.placement.pos.x), (20.0, 0));
    // Dropped in column 3 then slid right comes before dropped in column 4, and a slide
    // left before no slide before a slide right from the same column.
    let at = |x: i8, slide: i8| Placement {
        pos: PiecePos {
            orientation: 0,
            x: x + slide,
            y: 5,
        },
        turns: 0,
        shifts: x - 4,
        slide,
    };
    assert!(tree_key(&at(3, 1)) < tree_key(&at(4, 0)));
    assert!(tree_key(&at(4, -1)) < tree_key(&at(4, 0)));
    assert!(tree_key(&at(4, 0)) < tree_key(&at(4, 1)));
}

#[test]
fn deep_search_stops_at_height_14_of_20_and_scales() {
    assert_eq!(scaled_limit(20), 14);
    assert_eq!(scaled_limit(10), 7);
    assert_eq!(scaled_limit(22), 15);
    let rules = classic(10, 20);
    let s = searcher(rules, Weights::DEFAULT);
    // A square in row 7 from the top (0-based 6) is 20 - 6 = 14 above the floor.
    let mut at_13 = Board::new(10, 20);
    at_13.fill(0, 7);
    let mut at_14 = Board::new(10, 20);
    at_14.fill(0, 6);
    assert!(s.below_limit(&at_13));
    assert!(!s.below_limit(&at_14));
    let mut s = s;
    let current = falling(&rules, O);
    assert!(s.decide(&at_13, current, Some(O)).unwrap().deep);
    assert!(!s.decide(&at_14, current, Some(O)).unwrap().deep);
    assert!(
        !s.decide(&at_13, current, None).unwrap().deep,
        "no preview, no deep search"
    );
    // Limits 0 and 1 count every filled square; one above the board height none.
    for (limit, deep) in [(0, false), (1, false), (20, true), (21, true)] {
        let settings = Settings {
            limit,
            ..Settings::defaults(20)
        };
        let s = Searcher::new(rules, PieceSet::tetrominoes(), settings);
        assert_eq!(s.below_limit(&at_13), deep, "limit {limit}");
    }
}

#[test]
fn fast_leaves_match_locking_and_counting_the_plain_way() {
    // Every placement of every piece on random boards, clearing rows or not: the leaf
    // value from ORed columns equals E computed on the locked and cleared board.
    for heights in [Heights::FromTop, Heights::FromFloor] {
        for walls in [Walls::Signed, Walls::Clipped] {
            fast_leaves_match(heights, walls);
        }
    }
}

fn fast_leaves_match(heights: Heights, walls: Walls) {
    let rules = classic(10, 12);
    let set = PieceSet::tetrominoes();
    let settings = Settings {
        weights: Weights([1.0, -2.0, 3.0, 5.0, 7.0, 0.5, -1.5, 0.25]),
        limit: 8,
        heights,
        walls,
    };
    let s = Searcher::new(rules, set.clone(), settings);
    let mut rng = tetrad_plugin_api::SeededRng::new(4);
    for _ in 0..200 {
        let mut board = Board::new(10, 12);
        for y in 4 + rng.below(8) as usize..12 {
            for x in 0..10 {
                if rng.below(100) < 85 {
                    board.fill(x, y);
                }
            }
        }
        let ground = Ground::new(&board);
        for id in set.ids() {
            let kind = set.kind(id);
            for p in tetrad_plugin_api::placements(&rules, &board, kind, rules.spawn(kind)) {
                let Some((after, lines)) = land(&board, kind.orientation(p.pos.orientation), p.pos) else {
                    assert_eq!(s.leaf(&ground, id, p.pos, 3), None);
                    continue;
                };
                let fast = s.leaf(&ground, id, p.pos, 3).unwrap();
                assert_eq!(fast, s.leaf_value(id, p.pos, lines + 3, &after), "{board:?} {p:?}");
            }
        }
    }
}
