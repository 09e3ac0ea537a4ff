//! A plain search over everything the host's lock reads (the position, and the kick of
//! the last movement if it was a turn), every move played with the model's `step`:
//! nothing packed, nothing pruned, no state left out. `reachable` must find exactly the
//! locks it finds, on thousands of seeded boards.

use super::engine::{cells, last_kick, play, spin, Spin};
use super::setups::SLOTS;
use std::collections::BTreeMap;
use tetrad_plugin_api::derive_seed;
use tetrad_plugin_api::{reachable, step, Actions, Board, PieceKind, PiecePos, PieceSet, Preset, Rules, SeededRng};

const MOVES: [Actions; 5] = [
    Actions::LEFT,
    Actions::RIGHT,
    Actions::CW,
    Actions::CCW,
    Actions::SOFT_DROP,
];

/// A falling piece as the host's lock sees it.
type State = (PiecePos, Option<u8>);

/// A lock: the cells it covers and what it is worth.
pub type Lock = ([(i8, i8); 4], Spin);

/// Every lock `kind` can reach from where it enters, each with one sequence of single
/// moves that reaches it (the last one DROP).
pub fn locks(rules: &Rules, board: &Board, kind: &PieceKind) -> BTreeMap<Lock, Vec<Actions>> {
    locks_with(rules, board, kind, &MOVES)
}

/// The same, with only `moves` (and the DROP that locks).
pub fn locks_with(rules: &Rules, board: &Board, kind: &PieceKind, moves: &[Actions]) -> BTreeMap<Lock, Vec<Actions>> {
    let mut found = BTreeMap::new();
    search(rules, board, kind, moves, |states, index, lock| {
        found.entry(lock).or_insert_with(|| path_to(states, index));
    });
    found
}

/// Breadth first over every state from where the piece enters, calling `lock` with the
/// states so far, the index of the state locking, and its lock.
fn search(
    rules: &Rules,
    board: &Board,
    kind: &PieceKind,
    moves: &[Actions],
    mut lock: impl FnMut(&[(State, usize, Actions)], usize, Lock),
) {
    let start = rules.enter(board, kind);
    if !board.fits(kind.orientation(start.orientation), start.x, start.y) {
        return;
    }
    // Each state with the state and move it was first reached from.
    let mut states: Vec<(State, usize, Actions)> = vec![((start, None), usize::MAX, Actions::NONE)];
    let mut seen = Seen::new(board);
    seen.insert((start, None));
    let mut next = 0;
    while next < states.len() {
        let ((pos, kick), _, _) = states[next];
        let mut locked = pos;
        let result = step(rules, board, kind, &mut locked, Actions::DROP);
        assert!(result.locked);
        let worth = spin(board, kind, locked, last_kick(kick, result));
        lock(&states, next, (cells(kind, locked), worth));
        for &action in moves {
            let mut moved = pos;
            let result = step(rules, board, kind, &mut moved, action);
            let state = (moved, last_kick(kick, result));
            if seen.insert(state) {
                states.push((state, next, action));
            }
        }
        next += 1;
    }
}

/// The states seen: one flag for each orientation, row, column and last kick (none, or
/// one of five), over the board and 8 cells around it.
struct Seen {
    flags: Vec<bool>,
    width: usize,
    height: usize,
}

impl Seen {
    fn new(board: &Board) -> Seen {
        let (width, height) = (board.width() + 16, board.height() + 16);
        Seen {
            flags: vec![false; 4 * 6 * width * height],
            width,
            height,
        }
    }

    fn insert(&mut self, (pos, kick): State) -> bool {
        let (x, y) = ((pos.x + 8) as usize, (pos.y + 8) as usize);
        let kick = kick.map_or(0, |k| usize::from(k) + 1);
        let index = ((usize::from(pos.orientation) * 6 + kick) * self.height + y) * self.width + x;
        !std::mem::replace(&mut self.flags[index], true)
    }
}

/// The single moves to state `index`, then the DROP that locks.
fn path_to(states: &[(State, usize, Actions)], mut index: usize) -> Vec<Actions> {
    let mut moves = vec![Actions::DROP];
    while states[index].1 != usize::MAX {
        moves.push(states[index].2);
        index = states[index].1;
    }
    moves.reverse();
    moves
}

/// Every lock `kind` can reach, sorted, without paths.
fn lock_set(rules: &Rules, board: &Board, kind: &PieceKind) -> Vec<Lock> {
    let mut found = Vec::new();
    search(rules, board, kind, &MOVES, |_, _, lock| found.push(lock));
    found.sort_unstable();
    found.dedup();
    found
}

/// A guideline board: garbage rows with one or two holes each at the bottom, and over
/// them either a ragged surface with holes and overhangs, or one of the hand-drawn
/// setups' slots (either way round, a cell or two changed).
pub fn seeded_board(rng: &mut SeededRng) -> Board {
    const WIDTH: usize = 10;
    const HEIGHT: usize = 40;
    let mut rows = [0u32; HEIGHT];
    let full = (1u32 << WIDTH) - 1;
    let garbage = rng.below(9) as usize;
    let mut hole = rng.below(WIDTH as u32);
    for row in rows[HEIGHT - garbage..].iter_mut() {
        if rng.below(3) == 0 {
            hole = rng.below(WIDTH as u32);
        }
        *row = full & !(1 << hole);
        if rng.below(4) == 0 {
            *row &= !(1 << rng.below(WIDTH as u32));
        }
    }
    let base = HEIGHT - garbage;
    if rng.below(2) == 0 {
        // A surface of up to 6 rows, a random walk from column to column, with holes.
        let mut height = rng.below(4) as i32;
        for x in 0..WIDTH {
            height = (height + rng.below(5) as i32 - 2).clamp(0, 6);
            for row in &mut rows[base - height as usize..base] {
                if rng.below(6) != 0 {
                    *row |= 1 << x;
                }
            }
        }
        // Overhangs: cells beside a filled one, over empty ones.
        for _ in 0..rng.below(5) {
            let x = rng.below(WIDTH as u32);
            let y = base - 1 - rng.below(8) as usize;
            if (rows[y] >> 1 | rows[y] << 1) & 1 << x != 0 {
                rows[y] |= 1 << x;
            }
        }
    } else {
        let slot = SLOTS[rng.below(SLOTS.len() as u32) as usize];
        let drawn = Board::from_text(WIDTH, HEIGHT, slot);
        let drawn = &drawn.rows()[drawn.surface()..];
        let mirror = rng.below(2) == 0;
        let top = base - drawn.len();
        for (row, &line) in rows[top..base].iter_mut().zip(drawn) {
            *row = if mirror {
                line.reverse_bits() >> (32 - WIDTH)
            } else {
                line
            };
        }
        for _ in 0..rng.below(3) {
            let y = top + rng.below(drawn.len() as u32) as usize;
            rows[y] ^= 1 << rng.below(WIDTH as u32);
        }
    }
    for row in rows.iter_mut() {
        if *row == full {
            *row &= !(1 << rng.below(WIDTH as u32));
        }
    }
    Board::from_rows(WIDTH, HEIGHT, &rows)
}

/// The locks `reachable` finds, sorted, each one's path played from where the piece
/// enters as the host plays it and found to lock there, worth as much.
fn searched(rules: &Rules, board: &Board, kind: &PieceKind) -> Vec<Lock> {
    let mut found: Vec<Lock> = reachable(rules, board, kind, rules.enter(board, kind))
        .into_iter()
        .map(|r| {
            let worth = spin(board, kind, r.pos, r.last_kick);
            assert_eq!(
                play(rules, board, kind, &r.path),
                (r.pos, worth),
                "{}, {board:?}",
                kind.name()
            );
            (cells(kind, r.pos), worth)
        })
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Compares the two searches on boards `first..first + count`, each drawn from its own
/// seed, for all seven pieces, and returns how many locks of each worth they found.
fn agree(first: u64, count: u64) -> [usize; 3] {
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let mut spins = [0; 3];
    for index in first..first + count {
        let board = seeded_board(&mut SeededRng::new(derive_seed(0x7e7a_d5ee_d000, index)));
        for kind in pieces.kinds() {
            let plain = lock_set(&rules, &board, kind);
            let found = searched(&rules, &board, kind);
            if found != plain {
                let missed: Vec<_> = plain.iter().filter(|l| !found.contains(l)).collect();
                let extra: Vec<_> = found.iter().filter(|l| !plain.contains(l)).collect();
                panic!(
                    "board {index}, {}: missed {missed:?}, extra {extra:?}\n{board:?}",
                    kind.name()
                );
            }
            for (_, worth) in &plain {
                spins[*worth as usize] += 1;
            }
        }
    }
    // The boards make spins of both kinds often enough to mean something.
    assert!(spins[1] > 200 && spins[2] > 200, "{spins:?}");
    spins
}

// Ten thousand boards in four tests, which the harness runs side by side.

#[test]
fn reachable_finds_what_the_plain_search_finds_on_boards_0_to_2499() {
    agree(0, 2_500);
}

#[test]
fn reachable_finds_what_the_plain_search_finds_on_boards_2500_to_4999() {
    agree(2_500, 2_500);
}

#[test]
fn reachable_finds_what_the_plain_search_finds_on_boards_5000_to_7499() {
    agree(5_000, 2_500);
}

#[test]
fn reachable_finds_what_the_plain_search_finds_on_boards_7500_to_9999() {
    agree(7_500, 2_500);
}
