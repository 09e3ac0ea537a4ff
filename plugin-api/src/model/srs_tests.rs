//! The guideline's movement pinned on boards drawn by hand: every kick of both SRS
//! tables taken where the earlier offsets are blocked, and placements that only a kick
//! reaches (a T-spin double, a T-spin triple through the fifth kick, an S twist).

use super::board::{Board, PiecePos};
use super::motion::{step, Actions};
use super::piece::{PieceId, PieceKind, PieceSet};
use super::reach::{reachable, reachable_with_hold, Reached};
use super::rotation::RotationSystem;
use super::rules::{Preset, Rules};

const I: PieceId = PieceId(0);
const T: PieceId = PieceId(2);
const S: PieceId = PieceId(3);

fn guideline() -> Rules {
    Rules::preset(Preset::Guideline)
}

fn kind(id: PieceId) -> PieceKind {
    PieceSet::srs().kind(id).clone()
}

/// The bottom rows of a guideline board, drawn from the top.
fn board(text: &str) -> Board {
    Board::from_text(10, 40, text)
}

fn cells(kind: &PieceKind, pos: PiecePos) -> Vec<(usize, usize)> {
    kind.orientation(pos.orientation)
        .cells()
        .iter()
        .map(|&(dx, dy)| ((pos.x + dx) as usize, (pos.y + dy) as usize))
        .collect()
}

#[test]
fn each_kick_is_taken_when_the_offsets_before_it_are_blocked() {
    // For every turn of every SRS piece and every offset k of its list: a board filled
    // everywhere but the piece's cells at offset k (the piece itself is not on the
    // board). Every offset before k needs some other cell, so the turn takes offset k,
    // and lands where the table says.
    let rules = guideline();
    let mut taken = 0;
    for id in [I, T] {
        let kind = kind(id);
        for from in 0..4u8 {
            for direction in [1i8, -1] {
                let to = kind.turned(from, direction);
                let kicks = RotationSystem::Srs.kicks(kind.box_size(), from, direction);
                for (k, &(dx, dy)) in kicks.iter().enumerate() {
                    let start = PiecePos {
                        orientation: from,
                        x: 3,
                        y: 30,
                    };
                    let target = PiecePos {
                        orientation: to,
                        x: 3 + dx,
                        y: 30 + dy,
                    };
                    let free = cells(&kind, target);
                    let mut board = Board::new(10, 40);
                    for y in 20..40 {
                        for x in 0..10 {
                            if !free.contains(&(x, y)) {
                                board.fill(x, y);
                            }
                        }
                    }
                    let mut pos = start;
                    let result = step(&rules, &board, &kind, &mut pos, Actions::turning(direction));
                    let name = kind.name();
                    assert!(result.turned, "{name} {from}->{to} kick {k}");
                    assert_eq!((pos, result.kick), (target, k as u8), "{name} {from}->{to} kick {k}");
                    taken += 1;
                }
            }
        }
    }
    // Every one of the 2 tables x 8 turns x 5 offsets.
    assert_eq!(taken, 80);
}

#[test]
fn o_turns_in_place_and_a_blocked_turn_keeps_the_piece() {
    let rules = guideline();
    let o = kind(PieceId(1));
    let mut pos = rules.spawn(&o);
    let before = pos;
    let result = step(&rules, &Board::new(10, 40), &o, &mut pos, Actions::CW);
    assert_eq!((pos.x, pos.y), (before.x, before.y), "O never moves when it turns");
    assert_eq!(result.kick, 0);
    let i = kind(I);
    // An I lying in a tunnel one row high cannot stand up, whatever the offset.
    let walled = board("##########\n#....#####");
    let mut lying = PiecePos {
        orientation: 0,
        x: 1,
        y: 38,
    };
    let result = step(&rules, &walled, &i, &mut lying, Actions::CW);
    assert!(!result.turned);
    assert_eq!(lying.orientation, 0);
}

#[test]
fn soft_drop_falls_to_rest_without_locking_and_hard_drop_locks() {
    let rules = guideline();
    let t = kind(T);
    let board = Board::new(10, 40);
    let mut pos = rules.spawn(&t);
    let soft = step(&rules, &board, &t, &mut pos, Actions::SOFT_DROP);
    assert!(soft.fell && !soft.locked);
    assert_eq!(pos.y, 38, "the T's flat side on the floor");
    let tucked = step(&rules, &board, &t, &mut pos, Actions::LEFT);
    assert!(tucked.shifted && !tucked.locked);
    let hard = step(&rules, &board, &t, &mut pos, Actions::DROP);
    assert!(hard.locked && !hard.fell, "already resting: it locks where it is");
}

/// The placements reachable with every kick, and those reachable when a turn may only
/// take offset 0 (no kick): the same search, dropping the turns that kicked.
fn only_through_a_kick(rules: &Rules, board: &Board, kind: &PieceKind) -> Vec<Reached> {
    let with = reachable(rules, board, kind, rules.spawn(kind));
    let without = reachable_without_kicks(rules, board, kind);
    with.into_iter().filter(|r| !without.contains(&r.pos)).collect()
}

fn reachable_without_kicks(rules: &Rules, board: &Board, kind: &PieceKind) -> Vec<PiecePos> {
    let start = rules.spawn(kind);
    let mut seen = vec![start];
    let mut landed = Vec::new();
    let mut next = 0;
    while next < seen.len() {
        let pos = seen[next];
        let mut dropped = pos;
        step(rules, board, kind, &mut dropped, Actions::DROP);
        landed.push(dropped);
        for action in [
            Actions::LEFT,
            Actions::RIGHT,
            Actions::CW,
            Actions::CCW,
            Actions::SOFT_DROP,
        ] {
            let mut moved = pos;
            let result = step(rules, board, kind, &mut moved, action);
            if result.kick == 0 && !seen.contains(&moved) {
                seen.push(moved);
            }
        }
        next += 1;
    }
    landed
}

/// Plays `path` from the spawn position and returns where the piece locked, and the
/// last tick's step.
fn play(rules: &Rules, board: &Board, kind: &PieceKind, path: &[Actions]) -> (PiecePos, super::motion::Step) {
    play_from(rules, board, kind, rules.spawn(kind), path)
}

/// The same from `start`.
fn play_from(
    rules: &Rules,
    board: &Board,
    kind: &PieceKind,
    start: PiecePos,
    path: &[Actions],
) -> (PiecePos, super::motion::Step) {
    let mut pos = start;
    let mut last = Default::default();
    for (tick, &actions) in path.iter().enumerate() {
        last = step(rules, board, kind, &mut pos, actions);
        assert_eq!(last.locked, tick + 1 == path.len(), "locks on the last tick only");
    }
    (pos, last)
}

/// The placement of piece `id` at `slot` on `drawing`: it must be reachable only through
/// a kick, clear `lines` rows, and lock there when its path is played, the piece not
/// falling on its last tick (it ends turning, a spin candidate).
fn kicked_into(drawing: &str, id: PieceId, slot: PiecePos, lines: u32) -> Reached {
    let board = board(drawing);
    let rules = guideline();
    let kind = kind(id);
    let reached = only_through_a_kick(&rules, &board, &kind)
        .into_iter()
        .find(|r| r.pos == slot)
        .expect("the slot is reachable through a kick");
    let mut after = board.clone();
    assert_eq!(
        after.lock(kind.orientation(slot.orientation), slot.x, slot.y).lines,
        lines
    );
    let (pos, last) = play(&rules, &board, &kind, &reached.path);
    assert_eq!((pos, last.fell), (slot, false));
    reached
}

#[test]
fn a_t_spin_double_slot_under_an_overhang_only_a_kick_reaches() {
    // The overhang at column 4 stops a T dropped flat over columns 4-6: the way into the
    // slot takes a kick, and the T ends it turning (a spin).
    let drawing = ".....#....\n\
        ..........\n\
        ###.#..#..\n\
        ####...###\n\
        #####.####";
    let slot = PiecePos {
        orientation: 2,
        x: 4,
        y: 37,
    };
    let spin = kicked_into(drawing, T, slot, 2);
    assert!(spin.last_kick.is_some(), "{spin:?}");
}

#[test]
fn a_t_spin_triple_takes_the_fifth_kick() {
    // The T rests pointing up on the slot's shoulder, pushed in under the roof; turning
    // clockwise, four offsets are blocked and the fifth (one left, two down) stands it in
    // the three-deep slot.
    let drawing = "###.......\n\
        ##........\n\
        ##.#######\n\
        ##..######\n\
        ##.#######";
    let slot = PiecePos {
        orientation: 1,
        x: 1,
        y: 37,
    };
    assert_eq!(kicked_into(drawing, T, slot, 3).last_kick, Some(4));
}

#[test]
fn an_s_twists_into_a_slot_a_straight_drop_cannot_fill() {
    let drawing = "...#......\n\
        ..........\n\
        ###.######\n\
        ###...####\n\
        ####.#####";
    let slot = PiecePos {
        orientation: 1,
        x: 2,
        y: 37,
    };
    assert_eq!(kicked_into(drawing, S, slot, 2).last_kick, Some(4));
}

#[test]
fn on_an_empty_board_every_resting_position_is_reached_by_a_short_path() {
    // The SRS states make I, S and Z reach their positions in two states each (the
    // others are the same cells one column or row over), so the distinct resting cells
    // are those of the seeds' count: O 9, I/S/Z 17, T/J/L 34.
    let rules = guideline();
    let board = Board::new(10, 40);
    for (id, want) in [(0, 17), (1, 9), (2, 34), (3, 17), (4, 17), (5, 34), (6, 34)] {
        let kind = kind(PieceId(id));
        let reached = reachable(&rules, &board, &kind, rules.spawn(&kind));
        let mut distinct: Vec<Vec<(usize, usize)>> = reached
            .iter()
            .map(|r| {
                let mut c = cells(&kind, r.pos);
                c.sort();
                c
            })
            .collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), want, "{}", kind.name());
        for r in &reached {
            assert_eq!(play(&rules, &board, &kind, &r.path).0, r.pos, "{}", kind.name());
            assert!(r.path.len() <= 6, "{} {:?}", kind.name(), r.path);
        }
    }
}

#[test]
fn with_hold_the_placements_of_both_pieces_are_found_the_held_ones_behind_a_hold() {
    let rules = guideline();
    let pieces = PieceSet::srs();
    let board = board(
        "
        #.........
        ##...#####
        ###.######
        ",
    );
    let t = kind(T);
    let mine = reachable(&rules, &board, &t, rules.spawn(&t));
    let i = kind(I);
    // The piece a hold brings in enters as a new piece does, a row below its spawn here.
    let entered = rules.enter(&board, &i);
    assert_eq!(entered.y, rules.spawn(&i).y + 1);
    let swapped = reachable(&rules, &board, &i, entered);
    let both = reachable_with_hold(&rules, &board, &pieces, T, rules.spawn(&t), Some(I));
    assert_eq!(both.len(), mine.len() + swapped.len());
    let (held, kept): (Vec<_>, Vec<_>) = both.into_iter().partition(|choice| choice.held);
    assert!(kept.iter().all(|choice| choice.piece == T));
    assert_eq!(kept.into_iter().map(|choice| choice.reached).collect::<Vec<_>>(), mine);
    for choice in &held {
        assert_eq!(choice.piece, I);
        // A hold, a tick of its own, then the swapped-in piece's path from where it
        // enters.
        assert_eq!(choice.reached.path[0], Actions::HOLD);
        assert_eq!(
            play_from(&rules, &board, &i, entered, &choice.reached.path[1..]).0,
            choice.reached.pos
        );
    }
    // Holding a piece for one of its own kind, or with no hold to make, adds nothing.
    let same = reachable_with_hold(&rules, &board, &pieces, T, rules.spawn(&t), Some(T));
    let none = reachable_with_hold(&rules, &board, &pieces, T, rules.spawn(&t), None);
    assert_eq!((same.len(), none.len()), (mine.len(), mine.len()));
}
