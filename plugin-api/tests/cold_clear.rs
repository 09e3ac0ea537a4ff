//! The guideline's reachability search checked against another bot's move generator:
//! every placement Cold Clear 2 (MinusKelvin/cold-clear-2) finds on a few hundred
//! boards, with its spin class, must be among the placements [`reachable`] finds, with
//! the spin class the host gives the lock when the piece plays the path found. What
//! tetrad finds and Cold Clear 2 does not is counted and printed, not failed on.
//!
//! The fixture, `data/cold-clear-2-moves.jsonl`, is Cold Clear 2's output (its header
//! line names the commit and how the boards were made): one line a board and piece, the
//! board as rows from the bottom, each move as a Tetris Bot Protocol location (the SRS
//! centre, y counted up from the bottom row) and a spin class. Placements are compared
//! by the cells they cover, since Cold Clear 2 names each I, S, Z and O placement in one
//! of the two (or four) states that cover it; for J, L and T the cells name the state.
//!
//! Both searches start where the guideline's piece enters: Cold Clear 2 at north, x 4,
//! y 19 (y 20 if that is blocked), tetrad at [`Rules::enter`], the spawn one row lower
//! when that row is free. (From the spawn itself, y 20, a few tucks under a cell floating
//! at y 19 are out of reach.) On a board under 17 rows Cold Clear 2 takes a short cut: it
//! drops every state from every column and does not search positions with every cell
//! above the stack, taking them to be reached by those drops. Turns into such positions
//! (T-spin minis on the surface, against a wall or a step) and a few tucks that pass
//! through one are what tetrad finds and it does not; with the short cut turned off the
//! two find the same placements with the same spins on these boards.

use std::collections::{BTreeMap, BTreeSet};
use tetrad_plugin_api::{reachable, step, t_spin, Actions, Board, PieceKind, PiecePos, PieceSet, Preset, Rules, Spin};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cold-clear-2-moves.jsonl");

// ---------------------------------------------------------------------------------------
// Just enough JSON for the fixture: objects, arrays, strings, integers.

#[derive(Debug)]
enum Json {
    Object(BTreeMap<String, Json>),
    Array(Vec<Json>),
    String(String),
    Number(i64),
}

impl Json {
    fn parse(text: &str) -> Json {
        let bytes = text.as_bytes();
        let mut at = 0;
        let value = Json::value(bytes, &mut at);
        Json::space(bytes, &mut at);
        assert_eq!(at, bytes.len(), "trailing text in a fixture line");
        value
    }

    fn space(bytes: &[u8], at: &mut usize) {
        while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
            *at += 1;
        }
    }

    fn expect(bytes: &[u8], at: &mut usize, byte: u8) {
        Json::space(bytes, at);
        assert_eq!(bytes.get(*at), Some(&byte), "expected {:?} at {}", byte as char, *at);
        *at += 1;
    }

    fn value(bytes: &[u8], at: &mut usize) -> Json {
        Json::space(bytes, at);
        match bytes[*at] {
            b'{' => {
                *at += 1;
                let mut map = BTreeMap::new();
                Json::space(bytes, at);
                if bytes[*at] == b'}' {
                    *at += 1;
                    return Json::Object(map);
                }
                loop {
                    Json::space(bytes, at);
                    let Json::String(key) = Json::value(bytes, at) else {
                        panic!("a key that is not a string at {}", *at);
                    };
                    Json::expect(bytes, at, b':');
                    map.insert(key, Json::value(bytes, at));
                    Json::space(bytes, at);
                    *at += 1;
                    match bytes[*at - 1] {
                        b',' => continue,
                        b'}' => return Json::Object(map),
                        other => panic!("unexpected {:?} in an object", other as char),
                    }
                }
            }
            b'[' => {
                *at += 1;
                let mut items = Vec::new();
                Json::space(bytes, at);
                if bytes[*at] == b']' {
                    *at += 1;
                    return Json::Array(items);
                }
                loop {
                    items.push(Json::value(bytes, at));
                    Json::space(bytes, at);
                    *at += 1;
                    match bytes[*at - 1] {
                        b',' => continue,
                        b']' => return Json::Array(items),
                        other => panic!("unexpected {:?} in an array", other as char),
                    }
                }
            }
            b'"' => {
                *at += 1;
                let mut out = Vec::new();
                while bytes[*at] != b'"' {
                    if bytes[*at] == b'\\' {
                        *at += 1;
                    }
                    out.push(bytes[*at]);
                    *at += 1;
                }
                *at += 1;
                Json::String(String::from_utf8(out).expect("UTF-8 string"))
            }
            _ => {
                let start = *at;
                while *at < bytes.len() && (bytes[*at] == b'-' || bytes[*at].is_ascii_digit()) {
                    *at += 1;
                }
                let text = std::str::from_utf8(&bytes[start..*at]).unwrap();
                Json::Number(text.parse().unwrap_or_else(|_| panic!("not an integer: {text:?}")))
            }
        }
    }

    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Object(map) => map.get(key).unwrap_or_else(|| panic!("no {key:?}")),
            _ => panic!("not an object"),
        }
    }

    fn str(&self) -> &str {
        match self {
            Json::String(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }

    fn int(&self) -> i32 {
        match self {
            Json::Number(n) => i32::try_from(*n).unwrap(),
            _ => panic!("not a number: {self:?}"),
        }
    }

    fn array(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => panic!("not an array: {self:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// TBP locations, as the host maps them (host/src/plugin/tbp/location.rs): the piece's
// cells at north around its SRS centre, x to the right and y up, turned clockwise once
// per quarter turn.

const ORIENTATIONS: [&str; 4] = ["north", "east", "south", "west"];

fn north_cells(piece: &str) -> [(i32, i32); 4] {
    match piece {
        "I" => [(-1, 0), (0, 0), (1, 0), (2, 0)],
        "O" => [(0, 0), (1, 0), (0, 1), (1, 1)],
        "T" => [(-1, 0), (0, 0), (1, 0), (0, 1)],
        "S" => [(-1, 0), (0, 0), (0, 1), (1, 1)],
        "Z" => [(-1, 1), (0, 1), (0, 0), (1, 0)],
        "J" => [(-1, 1), (-1, 0), (0, 0), (1, 0)],
        "L" => [(1, 1), (-1, 0), (0, 0), (1, 0)],
        _ => panic!("not a tetromino: {piece}"),
    }
}

fn around_centre(piece: &str, turns: usize) -> [(i32, i32); 4] {
    let mut cells = north_cells(piece);
    for _ in 0..turns {
        for cell in &mut cells {
            *cell = (cell.1, -cell.0);
        }
    }
    cells
}

/// A TBP location: orientation (clockwise turns from north), and the centre, y up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Location {
    turns: usize,
    x: i32,
    y: i32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{} x {} y {}", ORIENTATIONS[self.turns], self.x, self.y)
    }
}

/// The cells a location covers, (column, row from the bottom), sorted.
fn location_cells(piece: &str, location: Location) -> Vec<(i32, i32)> {
    let mut cells: Vec<(i32, i32)> = around_centre(piece, location.turns)
        .iter()
        .map(|&(dx, dy)| (location.x + dx, location.y + dy))
        .collect();
    cells.sort_unstable();
    cells
}

/// The cells tetrad's `pos` covers, (column, row from the bottom), sorted.
fn pos_cells(kind: &PieceKind, pos: PiecePos, height: usize) -> Vec<(i32, i32)> {
    let top = height as i32 - 1;
    let mut cells: Vec<(i32, i32)> = kind
        .orientation(pos.orientation)
        .cells()
        .iter()
        .map(|&(dx, dy)| {
            (
                i32::from(pos.x) + i32::from(dx),
                top - (i32::from(pos.y) + i32::from(dy)),
            )
        })
        .collect();
    cells.sort_unstable();
    cells
}

/// The TBP location of `pos`, as the host names it: the centre lies where the least
/// corner of the covered cells puts the least corner of the turned shape.
fn to_tbp(kind: &PieceKind, pos: PiecePos, height: usize) -> Location {
    let turns = usize::from(pos.orientation);
    let least = |cells: &[(i32, i32)]| {
        cells
            .iter()
            .fold((i32::MAX, i32::MAX), |(x, y), c| (x.min(c.0), y.min(c.1)))
    };
    let (board_x, board_y) = least(&pos_cells(kind, pos, height));
    let (around_x, around_y) = least(&around_centre(kind.name(), turns));
    Location {
        turns,
        x: board_x - around_x,
        y: board_y - around_y,
    }
}

// ---------------------------------------------------------------------------------------
// What a lock is worth, as the host's engine scores it (host/src/engine/mod.rs), by the
// shared model's spin rule.

/// A spin class as the fixture names it.
fn spin_named(name: &str) -> Spin {
    match name {
        "none" => Spin::None,
        "mini" => Spin::Mini,
        "full" => Spin::Full,
        _ => panic!("not a spin class: {name}"),
    }
}

/// Plays `path` from `start` as the host's engine does, tick by tick, keeping the kick
/// of a turn that neither a shift nor a fall followed; returns where the piece locked
/// and its spin class.
fn play(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos, path: &[Actions]) -> (PiecePos, Spin) {
    let mut pos = start;
    let mut last_kick = None;
    for (tick, &actions) in path.iter().enumerate() {
        let moved = step(rules, board, kind, &mut pos, actions);
        if moved.shifted || moved.fell {
            last_kick = None;
        } else if moved.turned {
            last_kick = Some(moved.kick);
        }
        assert_eq!(
            moved.locked,
            tick + 1 == path.len(),
            "a path locks on its last tick only"
        );
    }
    let spin = if kind.name() == "T" {
        t_spin(board, pos, last_kick)
    } else {
        Spin::None
    };
    (pos, spin)
}

// ---------------------------------------------------------------------------------------

/// The board of a fixture line: rows from the bottom, separated by '/'.
fn board_of(text: &str, rules: &Rules) -> Board {
    let mut board = Board::new(rules.width, rules.height);
    if text.is_empty() {
        return board;
    }
    for (up, row) in text.split('/').enumerate() {
        assert_eq!(row.len(), rules.width, "row {up} of {text:?}");
        for (x, cell) in row.bytes().enumerate() {
            if cell == b'#' {
                board.fill(x, rules.height - 1 - up);
            }
        }
    }
    board
}

/// A placement as compared: the cells it covers (rows from the bottom) and its spin.
type Lock = (Vec<(i32, i32)>, Spin);

#[test]
fn every_move_cold_clear_2_finds_is_reachable_with_the_same_spin() {
    let text = std::fs::read_to_string(FIXTURE).expect("the fixture is there");
    let mut lines = text.lines();
    let header = Json::parse(lines.next().expect("a header line"));
    assert_eq!(header.get("source").str(), "Cold Clear 2");

    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let mut checked = 0usize;
    let mut missing: Vec<String> = Vec::new();
    // What tetrad finds and Cold Clear 2 does not, by spin class, with a few examples.
    let mut extra = [0usize; 3];
    let mut examples: [Vec<String>; 3] = Default::default();
    let mut boards = BTreeSet::new();
    for line in lines {
        let entry = Json::parse(line);
        let name = entry.get("name").str();
        let board_text = entry.get("board").str();
        boards.insert(board_text.to_string());
        let board = board_of(board_text, &rules);
        let piece = entry.get("piece").str();
        let kind = pieces
            .kinds()
            .iter()
            .find(|kind| kind.name() == piece)
            .unwrap_or_else(|| panic!("no piece {piece}"));

        let start = rules.enter(&board, kind);
        let mut found: BTreeMap<Lock, Location> = BTreeMap::new();
        for reached in reachable(&rules, &board, kind, start) {
            let (pos, spin) = play(&rules, &board, kind, start, &reached.path);
            assert_eq!(pos, reached.pos, "{name} {piece}: the path locks where the search says");
            let location = to_tbp(kind, pos, rules.height);
            let cells = location_cells(piece, location);
            assert_eq!(
                cells,
                pos_cells(kind, pos, rules.height),
                "the TBP location covers the same cells"
            );
            found.entry((cells, spin)).or_insert(location);
        }

        let mut theirs: BTreeSet<Lock> = BTreeSet::new();
        for mv in entry.get("moves").array() {
            let mv = mv.array();
            let turns = ORIENTATIONS
                .iter()
                .position(|&o| o == mv[0].str())
                .unwrap_or_else(|| panic!("not an orientation: {:?}", mv[0]));
            let location = Location {
                turns,
                x: mv[1].int(),
                y: mv[2].int(),
            };
            let spin = spin_named(mv[3].str());
            let lock = (location_cells(piece, location), spin);
            checked += 1;
            if !found.contains_key(&lock) {
                missing.push(format!("{name} [{board_text}] {piece} {location} {spin:?}"));
            }
            theirs.insert(lock);
        }
        for (lock, location) in &found {
            if !theirs.contains(lock) {
                let class = lock.1 as usize;
                extra[class] += 1;
                if examples[class].len() < 3 {
                    examples[class].push(format!("{name} [{board_text}] {piece} {location}"));
                }
            }
        }
    }

    println!("{} boards, {checked} Cold Clear 2 moves checked", boards.len());
    println!(
        "found by tetrad, not by Cold Clear 2: {} without a spin, {} mini, {} full",
        extra[0], extra[1], extra[2]
    );
    for (class, list) in ["none", "mini", "full"].iter().zip(&examples) {
        for example in list {
            println!("  {class}: {example}");
        }
    }
    assert!(boards.len() >= 200 && checked >= 40_000, "the fixture is whole");
    assert!(
        missing.is_empty(),
        "{} Cold Clear 2 moves tetrad does not find (board rows from the bottom), first ones:\n{}",
        missing.len(),
        missing.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}
