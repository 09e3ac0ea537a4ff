//! One game as the host plays it, without Python: the engine's `Game`, the referee's
//! ends (top-out, the piece cap, a stall), the falling piece's placements by the host's
//! own enumeration, and a placement played tick by tick along its path, as the host's
//! pilot plays it.

use tetrad_engine::engine::Game;
use tetrad_engine::referee::{ended, stall_limit, End};
use tetrad_engine::setup::Setup;
use tetrad_plugin_api::{
    placements_into, reachable_with_hold, Actions, Board, Lock, Movement, PieceId, PiecePos, Placement, Preset, Rules,
};

/// How a placement is reached.
#[derive(Clone, Debug)]
pub enum Route {
    /// A path of the move generator (`classic`, `leiden`, `simplified`).
    Plan(Placement),
    /// The guideline's search: its ticks, a hold first if it holds.
    Ticks(Vec<Actions>),
}

/// One placement of the falling piece (or of the piece a hold brings in).
#[derive(Clone, Debug)]
pub struct Cand {
    /// The piece that locks.
    pub piece: PieceId,
    /// Reached through a hold.
    pub hold: bool,
    /// Where it locks.
    pub pos: PiecePos,
    /// If its last move into rest was a turn (a spin candidate), the kick it took.
    pub kick: Option<u8>,
    /// The one-column slide after the drop (`classic`).
    pub slide: i8,
    /// The path there.
    pub route: Route,
}

impl Cand {
    /// The actions, tick by tick, that lock it.
    pub fn actions(&self, movement: Movement) -> Vec<Actions> {
        match &self.route {
            Route::Plan(placement) => placement.path(movement).collect(),
            Route::Ticks(ticks) => ticks.clone(),
        }
    }
}

/// What locking a placement does to the board.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The board after the lock and its clears.
    pub after: Board,
    /// Rows cleared.
    pub lines: u32,
    /// The rows that were full, numbered before they were cleared.
    pub cleared_rows: Vec<usize>,
    /// The piece's cells on the board (column, row), before the clear.
    pub cells: Vec<(i32, i32)>,
    /// The lock ends the game.
    pub ends: bool,
}

/// What locking `cand` on `board` under `rules` does.
pub fn outcome(rules: &Rules, game: &Game, cand: &Cand) -> Outcome {
    let shape = game.pieces().kind(cand.piece).orientation(cand.pos.orientation);
    let cells = shape
        .cells()
        .iter()
        .map(|&(dx, dy)| {
            (
                i32::from(cand.pos.x) + i32::from(dx),
                i32::from(cand.pos.y) + i32::from(dy),
            )
        })
        .collect();
    let mut after = game.board().clone();
    let (lock, cleared_rows) = if after.place(shape, cand.pos.x, cand.pos.y) {
        let full = after.full_row();
        let rows = (0..after.height()).filter(|&y| after.rows()[y] == full).collect();
        let lines = after.clear_full_rows();
        (
            Lock {
                lines,
                above_board: false,
            },
            rows,
        )
    } else {
        (
            Lock {
                lines: 0,
                above_board: true,
            },
            Vec::new(),
        )
    };
    let ends = rules.lock_ends_game(&lock, &after) || rules.locks_out(shape, cand.pos.y);
    Outcome {
        after,
        lines: lock.lines,
        cleared_rows,
        cells,
        ends,
    }
}

/// A game with the referee's view of its end.
#[derive(Clone, Debug)]
pub struct Play {
    /// The engine's game.
    pub game: Game,
    /// The piece cap.
    pub max_pieces: Option<u64>,
    /// The piece hovered too long under a preset without gravity.
    pub stalled: bool,
}

impl Play {
    /// A game under the referee, capped at `max_pieces`.
    pub fn new(game: Game, max_pieces: Option<u64>) -> Play {
        Play {
            game,
            max_pieces,
            stalled: false,
        }
    }

    /// How the game has ended, if it has, as `tetrad run` reports it.
    #[inline]
    pub fn end(&self) -> Option<End> {
        if self.stalled {
            Some(End::Stalled)
        } else {
            ended(&self.game, self.max_pieces)
        }
    }

    /// One tick with `actions` (already checked), then the stall rule. Returns the rows
    /// cleared if a piece locked.
    #[inline]
    pub fn tick(&mut self, actions: Actions) -> Option<u32> {
        let report = self.game.tick(actions);
        let rules = self.game.rules();
        if rules.movement() == Movement::DropOnly
            && !self.game.is_over()
            && self.game.piece_ticks() >= stall_limit(rules)
        {
            self.stalled = true;
        }
        report.locked.map(|locked| locked.lines)
    }

    /// Every placement of the falling piece, in the host's order: the move generator's
    /// under `classic`, `leiden` and `simplified` (what a placement bot may answer), and
    /// under `guideline` the reachability search's, spins and tucks included, then the
    /// placements of the piece a hold would bring in.
    pub fn candidates_into(&self, scratch: &mut Vec<Placement>, out: &mut Vec<Cand>) {
        out.clear();
        if self.end().is_some() {
            return;
        }
        let game = &self.game;
        let Some(falling) = game.current() else {
            return;
        };
        let rules = game.rules();
        if rules.preset == Preset::Guideline {
            let swap = if game.hold_available() {
                game.held().or(game.preview())
            } else {
                None
            };
            let found = reachable_with_hold(rules, game.board(), game.pieces(), falling.piece, falling.pos, swap);
            out.extend(found.into_iter().map(|r| Cand {
                piece: r.piece,
                hold: r.held,
                pos: r.reached.pos,
                kick: r.reached.last_kick,
                slide: 0,
                route: Route::Ticks(r.reached.path),
            }));
        } else {
            self.plans_into(scratch);
            out.extend(scratch.iter().map(|p| Cand {
                piece: falling.piece,
                hold: false,
                pos: p.pos,
                kick: None,
                slide: p.slide,
                route: Route::Plan(*p),
            }));
        }
    }

    /// The move generator's placements of the falling piece, for the presets other than
    /// `guideline` (whose placements need [`Play::candidates_into`]); none once the game
    /// is over.
    pub fn plans_into(&self, out: &mut Vec<Placement>) {
        out.clear();
        if self.end().is_some() {
            return;
        }
        let game = &self.game;
        if let Some(falling) = game.current() {
            placements_into(
                game.rules(),
                game.board(),
                game.pieces().kind(falling.piece),
                falling.pos,
                out,
            );
        }
    }

    /// Plays `placement` of [`Play::plans_into`] as [`Play::place`] does (the path of a
    /// table's placement, whose row is the empty board's, needs [`Play::place_path`]).
    /// It lands at once where the engine knows that to be the same game as its ticks
    /// ([`Game::land`]) and the path is too short to stall.
    pub fn place_plan(&mut self, placement: &Placement) -> Option<u32> {
        if self.end().is_some() {
            return None;
        }
        let rules = self.game.rules();
        let movement = rules.movement();
        let stalls = movement == Movement::DropOnly
            && self
                .game
                .current()
                .is_some_and(|f| self.game.piece_ticks() + placement.lock_ticks(movement, f.pos) > stall_limit(rules));
        if !stalls {
            if let Some(report) = self.game.land(placement) {
                return report.locked.map(|locked| locked.lines);
            }
        }
        self.fly(placement.path(movement))
    }

    /// Plays the path of `placement` tick by tick, where its row may not be this board's.
    pub fn place_path(&mut self, placement: &Placement) -> Option<u32> {
        let movement = self.game.rules().movement();
        self.fly(placement.path(movement))
    }

    /// Plays `cand` tick by tick until its piece locks (or the game ends). Returns the rows
    /// it cleared, or `None` if its path did not lock the piece.
    pub fn place(&mut self, cand: &Cand) -> Option<u32> {
        match &cand.route {
            Route::Plan(placement) => self.place_plan(placement),
            Route::Ticks(ticks) => self.fly(ticks.iter().copied()),
        }
    }

    #[inline]
    fn fly(&mut self, path: impl Iterator<Item = Actions>) -> Option<u32> {
        for actions in path {
            if self.end().is_some() {
                return None;
            }
            if let Some(lines) = self.tick(actions) {
                return Some(lines);
            }
        }
        None
    }
}

/// The index of the fifth kick in the SRS kick lists.
const FIFTH_KICK: u8 = 4;

/// The layout of placement actions: each placement has a fixed slot, so an agent's
/// action means the same placement on every board. Under `classic`, `leiden` and
/// `simplified` a slot is (slide, orientation, column); under `guideline` (hold, spin,
/// way in, orientation, row, column), the way in as the search tells placements apart:
/// a drop or shift, a turn, or a turn through the fifth kick.
#[derive(Clone, Copy, Debug)]
pub struct Slots {
    orientations: usize,
    columns: usize,
    rows: usize,
    margin: i32,
    slides: usize,
    guideline: bool,
}

impl Slots {
    /// The layout for `rules` with pieces of at most `orientations` orientations in
    /// boxes of at most `box_size`.
    pub fn new(rules: &Rules, orientations: usize, box_size: usize) -> Slots {
        let guideline = rules.preset == Preset::Guideline;
        Slots {
            orientations: orientations.max(1),
            columns: rules.width + 2 * box_size,
            rows: if guideline { rules.height + 2 * box_size } else { 1 },
            margin: box_size as i32,
            slides: if rules.movement() == Movement::Gravity { 3 } else { 1 },
            guideline,
        }
    }

    /// How many slots there are.
    pub fn count(&self) -> usize {
        let variants = if self.guideline { 6 } else { self.slides };
        variants * self.orientations * self.rows * self.columns
    }

    /// The slot of a placement of [`Play::plans_into`] (not under `guideline`).
    #[inline]
    pub fn of_plan(&self, placement: &Placement) -> usize {
        self.of_plain(placement.pos, placement.slide)
    }

    /// The slot of a placement at `pos` after `slide` (not under `guideline`).
    #[inline]
    fn of_plain(&self, pos: PiecePos, slide: i8) -> usize {
        let x = (i32::from(pos.x) + self.margin).clamp(0, self.columns as i32 - 1) as usize;
        let orientation = usize::from(pos.orientation).min(self.orientations - 1);
        let slide = if self.slides == 3 { (slide + 1) as usize } else { 0 };
        (slide * self.orientations + orientation) * self.columns + x
    }

    /// The slot of `cand`.
    #[inline]
    pub fn of(&self, cand: &Cand) -> usize {
        if !self.guideline {
            return self.of_plain(cand.pos, cand.slide);
        }
        let x = (i32::from(cand.pos.x) + self.margin).clamp(0, self.columns as i32 - 1) as usize;
        let orientation = usize::from(cand.pos.orientation).min(self.orientations - 1);
        let y = (i32::from(cand.pos.y) + self.margin).clamp(0, self.rows as i32 - 1) as usize;
        let way = match cand.kick {
            None => 0,
            Some(FIFTH_KICK) => 2,
            Some(_) => 1,
        };
        let variant = usize::from(cand.hold) * 3 + way;
        ((variant * self.orientations + orientation) * self.rows + y) * self.columns + x
    }
}

/// The slots of a setup.
pub fn slots_of(setup: &Setup) -> Slots {
    let kinds = setup.pieces.kinds();
    let orientations = kinds.iter().map(|k| k.orientations().len()).max().unwrap_or(1);
    let box_size = kinds.iter().map(|k| usize::from(k.box_size())).max().unwrap_or(1);
    Slots::new(&setup.rules, orientations, box_size)
}

/// Each byte's eight bits as eight cells, bit 0 first.
const SPREAD: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = ((byte >> bit) & 1) as u8;
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Writes `rows` (bit x set where column x is filled) as cells, 1 where filled, `width`
/// a row. The rows are read as one stream of bits, eight cells a table lookup and a
/// copy of a fixed size (observations are written once a step); only the last cells,
/// fewer than eight, are written one by one. (A row at a time, the copy of each row's
/// last few cells was a call to `memcpy`.)
#[inline]
pub fn write_cells(rows: &[u32], width: usize, out: &mut [u8]) {
    let count = rows.len().min(out.len() / width.max(1));
    let (groups, rest) = out[..count * width].as_chunks_mut::<8>();
    let mut rows = rows[..count].iter().map(|&row| u64::from(row));
    // The stream's next bits, `pending` of them (under 8 + 32).
    let (mut bits, mut pending) = (0u64, 0usize);
    for group in groups {
        while pending < 8 {
            bits |= rows.next().unwrap_or(0) << pending;
            pending += width;
        }
        *group = SPREAD[(bits & 0xFF) as usize];
        bits >>= 8;
        pending -= 8;
    }
    while pending < rest.len() {
        bits |= rows.next().unwrap_or(0) << pending;
        pending += width;
    }
    for (i, cell) in rest.iter_mut().enumerate() {
        *cell = ((bits >> i) & 1) as u8;
    }
}
