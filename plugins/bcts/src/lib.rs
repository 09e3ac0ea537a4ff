//! `bcts`: the one-piece linear controllers of the research literature.
//!
//! - `controller=dellacherie`: six features (landing height, eroded cells, row and column
//!   transitions, holes, cumulative wells) weighted -1, 1, -1, -1, -4, -1.
//! - `controller=bcts` (default; Thiery and Scherrer 2009): the same six plus hole depth
//!   and rows with holes, weighted as in the MdpTetris simulator's weight file: -12.629,
//!   6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087.
//!
//! Features follow the MdpTetris simulator (see `features`). A placement that ends the game
//! scores minus infinity; the first strict maximum in enumeration order (orientation,
//! then column from the left) wins; `order=mdptetris` takes the orientations in the
//! simulator's order (see `order`). `lookahead=2` rates each placement of the current
//! piece by its best follow-up with the previewed piece (needs a preview). `w1`..`w8`
//! override the weights. Works with any board and piece set.

mod columns;
mod drops;
pub mod features;
mod order;

use columns::{Columns, Dropped, PieceColumns};
use drops::{Drops, Reach};
use features::{board_features, board_features_of, Landing, Weights, COUNT};
use order::Order;
use tetrad_plugin_api::{
    placements_into, Actions, Board, GameSetup, Info, Options, Path, PieceId, PiecePos, PieceSet, Placement, Preset,
    Rules, Solver, Tick, MAX_PIECE_SIZE,
};

/// Dellacherie's weights (hole depth and rows with holes unused).
pub const DELLACHERIE: [f64; COUNT] = [-1.0, 1.0, -1.0, -1.0, -4.0, -1.0, 0.0, 0.0];
/// Thiery and Scherrer's BCTS weights, at the precision of the MdpTetris simulator's
/// weight file (rounded to two decimals they flip near-ties the simulator does not).
pub const BCTS: [f64; COUNT] = [
    -12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087,
];

/// A placement's outcome: the board after it, and its value.
fn evaluate(
    rules: &Rules,
    pieces: &PieceSet,
    board: &Board,
    piece: PieceId,
    pos: PiecePos,
    weights: &Weights,
) -> Option<(Board, f64)> {
    let shape = pieces.kind(piece).orientation(pos.orientation);
    let mut after = board.clone();
    if !after.place(shape, pos.x, pos.y) {
        return None;
    }
    let top = i32::from(pos.y) + i32::from(shape.top());
    let full = after.full_row();
    let left = i32::from(pos.x) + i32::from(shape.left());
    let mut lines = 0;
    let mut piece_cells_cleared = 0;
    for (i, &mask) in shape.row_masks().iter().enumerate() {
        if after.rows()[top as usize + i] == full {
            lines += 1;
            piece_cells_cleared += (mask << left).count_ones();
        }
    }
    let cleared = tetrad_plugin_api::Lock {
        lines: after.clear_full_rows(),
        above_board: false,
    };
    if rules.lock_ends_game(&cleared, &after) {
        return None;
    }
    let lowest = top + i32::from(shape.height()) - 1;
    let landing = Landing {
        bottom: (board.height() as i32 - 1 - lowest) as u32,
        piece_height: u32::from(shape.height()),
        lines,
        piece_cells_cleared,
    };
    let features = if weights.detail() {
        board_features(&after)
    } else {
        board_features_of::<false>(&after)
    };
    let value = weights.value(&features, &landing);
    Some((after, value))
}

/// One orientation of a piece, as the rater reads it for every placement.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// Offsets of the bounding box from the piece's position.
    top: i8,
    left: i8,
    /// Rows of the box, from its top, bit 0 the box's left column; `height` of them.
    rows: [u32; MAX_PIECE_SIZE],
    height: usize,
    columns: PieceColumns,
}

/// Each piece's orientations as [`Shape`]s.
type Shapes = Vec<Vec<Shape>>;

fn shapes(pieces: &PieceSet) -> Shapes {
    let shape = |o: &tetrad_plugin_api::Orientation| {
        let mut rows = [0; MAX_PIECE_SIZE];
        rows[..o.row_masks().len()].copy_from_slice(o.row_masks());
        Shape {
            top: o.top(),
            left: o.left(),
            rows,
            height: usize::from(o.height()),
            columns: PieceColumns::new(o.row_masks(), usize::from(o.width())),
        }
    };
    let kinds = pieces.kinds().iter();
    kinds
        .map(|kind| kind.orientations().iter().map(shape).collect())
        .collect()
}

/// Rates every placement on one board: by the incremental features when the placement
/// clears no row, by [`evaluate`] when it does. Gives exactly `evaluate`'s value.
struct Rater<'a> {
    rules: &'a Rules,
    pieces: &'a PieceSet,
    shapes: &'a Shapes,
    weights: &'a Weights,
    board: &'a Board,
    columns: &'a Columns,
    /// [`Weights::detail`], read once per board: asking the weights at every placement
    /// costs 1% more instructions in `tetrad run`.
    detail: bool,
}

impl<'a> Rater<'a> {
    /// A rater of placements on `board`, whose columns `columns` holds.
    fn new(
        rules: &'a Rules,
        pieces: &'a PieceSet,
        shapes: &'a Shapes,
        weights: &'a Weights,
        board: &'a Board,
        columns: &'a Columns,
    ) -> Rater<'a> {
        Rater {
            rules,
            pieces,
            shapes,
            weights,
            board,
            columns,
            detail: weights.detail(),
        }
    }

    /// The placement's value, `None` if it ends the game.
    #[inline(always)]
    fn value(&self, piece: PieceId, pos: PiecePos) -> Option<f64> {
        let shape = &self.shapes[piece.index()][usize::from(pos.orientation)];
        match self.outcome(piece, shape, pos) {
            Outcome::Valued(value) => value,
            Outcome::Open { left, top, landing } => {
                let board = self.columns.with_piece(&shape.columns, left, top, self.detail);
                Some(self.weights.value(&board, &landing))
            }
        }
    }

    /// What is known of the placement before the features of a board that clears no row:
    /// its value when it ends the game or clears rows, else where its box lands.
    #[inline(always)]
    fn outcome(&self, piece: PieceId, shape: &Shape, pos: PiecePos) -> Outcome {
        let top = i32::from(pos.y) + i32::from(shape.top);
        if top < 0 {
            return Outcome::Valued(None);
        }
        let top = top as usize;
        let left = (i32::from(pos.x) + i32::from(shape.left)) as usize;
        let full = self.board.full_row();
        let rows = &self.board.rows()[top..top + shape.height];
        let mut clears = false;
        for (&row, &mask) in rows.iter().zip(&shape.rows) {
            clears |= row | mask << left == full;
        }
        if clears {
            let (rules, pieces, board, weights) = (self.rules, self.pieces, self.board, self.weights);
            return Outcome::Valued(evaluate(rules, pieces, board, piece, pos, weights).map(|(_, value)| value));
        }
        if self.rules.preset == Preset::Leiden {
            let row = Rules::LEIDEN_TOP_ROWS - 1;
            let piece_row = row.checked_sub(top).and_then(|i| shape.rows[..shape.height].get(i));
            if self.board.rows()[row] | piece_row.map_or(0, |&mask| mask << left) != 0 {
                return Outcome::Valued(None);
            }
        }
        let landing = Landing {
            bottom: (self.board.height() - (top + shape.height)) as u32,
            piece_height: shape.height as u32,
            lines: 0,
            piece_cells_cleared: 0,
        };
        Outcome::Open {
            left,
            top: top as u32,
            landing,
        }
    }

    /// Rates every drop of one orientation of `piece` from `start`, keeping the first
    /// strictly best in `best`.
    #[inline(always)]
    fn rate_drops(&self, piece: PieceId, reach: &Reach, start: PiecePos, best: &mut Option<(f64, Placement)>) {
        self.visit_drops(piece, reach, start, |value, placement| {
            keep_best(best, value, placement)
        });
    }

    /// Gives `visit` every drop of one orientation of `piece` from `start`, left to right,
    /// with its value.
    #[inline(always)]
    fn visit_drops(&self, piece: PieceId, reach: &Reach, start: PiecePos, visit: impl FnMut(f64, Placement)) {
        let shape = &self.shapes[piece.index()][usize::from(reach.orientation())];
        // Once per orientation, not per placement: the piece's width and whether the
        // detail features count, as constants the feature loops unroll on.
        match (shape.columns.width, self.detail) {
            (1, false) => self.visit_drops_of::<1, false>(piece, shape, reach, start, visit),
            (2, false) => self.visit_drops_of::<2, false>(piece, shape, reach, start, visit),
            (3, false) => self.visit_drops_of::<3, false>(piece, shape, reach, start, visit),
            (4, false) => self.visit_drops_of::<4, false>(piece, shape, reach, start, visit),
            (1, true) => self.visit_drops_of::<1, true>(piece, shape, reach, start, visit),
            (2, true) => self.visit_drops_of::<2, true>(piece, shape, reach, start, visit),
            (3, true) => self.visit_drops_of::<3, true>(piece, shape, reach, start, visit),
            (4, true) => self.visit_drops_of::<4, true>(piece, shape, reach, start, visit),
            _ => self.visit_landed(piece, reach, start, visit),
        }
    }

    /// [`Rater::visit_drops`] for an orientation `W` columns wide: each drop landed and
    /// rated on the columns alone, the board's rows read only when rows fill.
    #[inline(always)]
    fn visit_drops_of<const W: usize, const DETAIL: bool>(
        &self,
        piece: PieceId,
        shape: &Shape,
        reach: &Reach,
        start: PiecePos,
        mut visit: impl FnMut(f64, Placement),
    ) {
        for &x in reach.xs() {
            let drop = self.columns.drop_of::<W, DETAIL>(&shape.columns, reach.box_left(x));
            let placement = reach.placement(x, (drop.top() - i32::from(shape.top)) as i8, start);
            let value = match drop {
                Dropped::Over { .. } => f64::NEG_INFINITY,
                Dropped::Clears { .. } => {
                    let (rules, pieces, board, weights) = (self.rules, self.pieces, self.board, self.weights);
                    evaluate(rules, pieces, board, piece, placement.pos, weights).map_or(f64::NEG_INFINITY, |(_, v)| v)
                }
                Dropped::Open { top, features } => {
                    let landing = Landing {
                        bottom: self.board.height() as u32 - (top + shape.height as u32),
                        piece_height: shape.height as u32,
                        lines: 0,
                        piece_cells_cleared: 0,
                    };
                    self.weights.value(&features, &landing)
                }
            };
            visit(value, placement);
        }
    }

    /// [`Rater::visit_drops`] for wider orientations: each drop landed, then rated as any
    /// placement.
    fn visit_landed(&self, piece: PieceId, reach: &Reach, start: PiecePos, mut visit: impl FnMut(f64, Placement)) {
        for &x in reach.xs() {
            let placement = reach.land(x, start, |x| self.columns.top(x));
            visit(self.value(piece, placement.pos).unwrap_or(f64::NEG_INFINITY), placement);
        }
    }
}

/// A placement as [`Rater::outcome`] leaves it.
enum Outcome {
    /// Its value (`None` if it ends the game): it clears rows, or ends the game.
    Valued(Option<f64>),
    /// It clears no row: its box's column and row, and the landing.
    Open { left: usize, top: u32, landing: Landing },
}

/// Keeps `placement` in `best` if its value beats the best so far (so the first of equals
/// stays).
#[inline(always)]
fn keep_best(best: &mut Option<(f64, Placement)>, value: f64, placement: Placement) {
    if best.is_none_or(|(score, _)| value > score) {
        *best = Some((value, placement));
    }
}

/// The linear controller.
pub struct Controller {
    setup: GameSetup,
    shapes: Shapes,
    /// Every piece's drops, under `simplified`.
    drops: Option<Drops>,
    weights: Weights,
    lookahead: usize,
    /// The order placements are rated in, when it is not the SDK's.
    order: Option<Order>,
    /// The current board's columns, and the board after each first placement's.
    columns: Box<Columns>,
    next_columns: Box<Columns>,
    /// The last decision's board with the chosen piece added, when it cleared no row,
    /// and where the piece went: a decision on that board adds the piece to `columns`
    /// (which still hold the last board) instead of rebuilding them.
    carried: Option<Carried>,
    path: Option<Path>,
    first: Vec<Placement>,
    second: Vec<Placement>,
}

impl Solver for Controller {
    const INFO: Info = Info {
        name: "bcts",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "Dellacherie and BCTS linear controllers (MdpTetris features), one or two pieces",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        let controller: String = options.get("controller", "bcts".to_string())?;
        let mut weights = match controller.as_str() {
            "bcts" => BCTS,
            "dellacherie" => DELLACHERIE,
            other => return Err(format!("option `controller`: `{other}` is not bcts or dellacherie")),
        };
        const KEYS: [&str; COUNT] = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
        for (weight, key) in weights.iter_mut().zip(KEYS) {
            *weight = options.get(key, *weight)?;
        }
        let lookahead: usize = options.get("lookahead", 1)?;
        if !(1..=2).contains(&lookahead) {
            return Err(format!("option `lookahead`: {lookahead} is not 1 or 2"));
        }
        if lookahead == 2 && setup.rules.preview == 0 {
            return Err("option `lookahead=2` needs the preview (--preview 1)".to_string());
        }
        let order: String = options.get("order", "tetrad".to_string())?;
        let order = Order::parse(&order, &setup.pieces)?;
        let mut drops = Drops::new(&setup.rules, &setup.pieces);
        if let (Some(drops), Some(order)) = (&mut drops, &order) {
            drops.sort(order);
        }
        Ok(Controller {
            setup: setup.clone(),
            shapes: shapes(&setup.pieces),
            drops,
            weights: Weights::new(weights),
            lookahead,
            order,
            columns: Box::new(Columns::empty()),
            next_columns: Box::new(Columns::empty()),
            carried: None,
            path: None,
            first: Vec::new(),
            second: Vec::new(),
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece || self.path.is_none() {
            let next = if self.lookahead == 2 { tick.next } else { None };
            let choice = self.choose(&tick.board, current.id, current.pos, next);
            self.path = choice.map(|p| p.path(self.setup.rules.movement()));
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

impl Controller {
    /// The first strictly best placement of `piece` (rated with its best follow-up by
    /// `next`, if given); `None` only if the piece has no placement at all.
    pub fn choose(
        &mut self,
        board: &Board,
        piece: PieceId,
        start: PiecePos,
        next: Option<PieceId>,
    ) -> Option<Placement> {
        match self.carried.take() {
            Some(carried) if carried.board == *board => {
                let shape = &self.shapes[carried.piece.index()][usize::from(carried.orientation)];
                self.columns.place(&shape.columns, carried.left, carried.top);
            }
            _ => self.columns.rebuild(board),
        }
        let mut best: Option<(f64, Placement)> = None;
        self.rate(board, piece, start, next, &mut best);
        let (_, chosen) = best?;
        self.carry(board, piece, chosen.pos);
        Some(chosen)
    }

    /// Rates every placement of `piece` on `board` (whose columns `self.columns` holds),
    /// keeping the first strictly best in `best`.
    fn rate(
        &mut self,
        board: &Board,
        piece: PieceId,
        start: PiecePos,
        next: Option<PieceId>,
        best: &mut Option<(f64, Placement)>,
    ) {
        let Controller {
            setup,
            shapes,
            drops,
            weights,
            first,
            second,
            columns,
            next_columns,
            order,
            ..
        } = self;
        let (rules, pieces) = (&setup.rules, &setup.pieces);
        let rater = Rater::new(rules, pieces, shapes, weights, board, columns);
        // One piece under `simplified`: rated as the drops are enumerated, with no list.
        let one_piece_drops = drops
            .as_ref()
            .filter(|_| next.is_none())
            .and_then(|d| d.from(piece, start));
        if let Some(reaches) = one_piece_drops {
            for reach in reaches {
                rater.rate_drops(piece, reach, start, best);
            }
            return;
        }
        placements_into(rules, board, pieces.kind(piece), start, first);
        if let Some(order) = order {
            order.sort(piece, first);
        }
        for placement in first.iter() {
            let value = match next {
                None => rater.value(piece, placement.pos).unwrap_or(f64::NEG_INFINITY),
                Some(next) => match evaluate(rules, pieces, board, piece, placement.pos, weights) {
                    None => f64::NEG_INFINITY,
                    Some((after, _)) => {
                        next_columns.rebuild(&after);
                        let rater = Rater::new(rules, pieces, shapes, weights, &after, next_columns);
                        let spawn = rules.spawn(pieces.kind(next));
                        let mut follow_up = f64::NEG_INFINITY;
                        let mut rate = |p: Placement| {
                            if let Some(value) = rater.value(next, p.pos) {
                                follow_up = follow_up.max(value);
                            }
                        };
                        if let Some(reaches) = drops.as_ref().and_then(|drops| drops.from(next, spawn)) {
                            for reach in reaches {
                                for &x in reach.xs() {
                                    rate(reach.land(x, spawn, |x| rater.columns.top(x)));
                                }
                            }
                        } else {
                            placements_into(rules, &after, pieces.kind(next), spawn, second);
                            second.iter().for_each(|&p| rate(p));
                        }
                        follow_up
                    }
                },
            };
            keep_best(best, value, *placement);
        }
    }

    /// Remembers the board after the chosen placement, when it clears no row and keeps
    /// the game going: the next decision's board, unless the host's engine disagrees (then
    /// the columns are rebuilt). The columns themselves change only once that is known.
    fn carry(&mut self, board: &Board, piece: PieceId, pos: PiecePos) {
        let shape = &self.shapes[piece.index()][usize::from(pos.orientation)];
        let top = i32::from(pos.y) + i32::from(shape.top);
        let mut after = board.clone();
        let orientation = self.setup.pieces.kind(piece).orientation(pos.orientation);
        if top < 0 || !after.place(orientation, pos.x, pos.y) {
            return;
        }
        let full = after.full_row();
        if after.rows()[top as usize..top as usize + shape.height].contains(&full) {
            return;
        }
        self.carried = Some(Carried {
            board: after,
            piece,
            orientation: pos.orientation,
            left: (i32::from(pos.x) + i32::from(shape.left)) as usize,
            top: top as u32,
        });
    }
}

/// A decision's board with its chosen piece added, and where the piece's box went.
struct Carried {
    board: Board,
    piece: PieceId,
    orientation: u8,
    left: usize,
    top: u32,
}

tetrad_plugin_api::export_solver!(Controller);

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{PieceKind, Preset};

    fn controller(options: &str) -> Controller {
        let rules = Rules {
            preview: 1,
            ..Rules::preset(Preset::Simplified)
        };
        let setup = GameSetup {
            rules,
            pieces: PieceSet::tetrominoes(),
            seed: 1,
        };
        Controller::create(&setup, &mut Options::parse(options).unwrap()).unwrap()
    }

    #[test]
    fn options_choose_the_weights() {
        assert_eq!(controller("").weights.real(), &BCTS);
        assert_eq!(controller("controller=dellacherie").weights.real(), &DELLACHERIE);
        assert_eq!(controller("w5=-2").weights.real()[4], -2.0);
        let setup = GameSetup {
            rules: Rules::preset(Preset::Simplified),
            pieces: PieceSet::tetrominoes(),
            seed: 1,
        };
        let err = Controller::create(&setup, &mut Options::parse("lookahead=2").unwrap())
            .err()
            .unwrap();
        assert!(err.contains("needs the preview"));
    }

    #[test]
    fn an_i_goes_into_the_well_that_clears_four_rows() {
        let board = Board::from_text(10, 20, "#########.\n#########.\n#########.\n#########.");
        for options in ["", "controller=dellacherie", "lookahead=2", "order=mdptetris"] {
            let mut c = controller(options);
            let i = PieceId(0);
            let start = c.setup.rules.spawn(c.setup.pieces.kind(i));
            let next = (options == "lookahead=2").then_some(PieceId(1));
            let best = c.choose(&board, i, start, next).unwrap();
            assert_eq!((best.pos.orientation, best.pos.x + 2), (1, 9), "{options}");
        }
    }

    /// A board `width` wide and 20 high whose lowest `stack` rows are filled where the
    /// bits of `cells` say, full rows cleared.
    fn stacked_board(width: usize, cells: &[u16], stack: usize) -> Board {
        let mut board = Board::new(width, 20);
        for (y, &row) in cells.iter().enumerate().skip(20 - stack) {
            for x in (0..width).filter(|x| row >> x & 1 == 1) {
                board.fill(x, y);
            }
        }
        board.clear_full_rows();
        board
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

        /// The rater's value of every placement, incremental or not, is bit for bit the
        /// value [`evaluate`] computes from the whole board after it, under both weight
        /// sets (Dellacherie's skips the features it gives no weight), on boards as narrow
        /// as the widest piece.
        #[test]
        fn the_rater_gives_exactly_the_reference_value(
            cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
            stack in 0usize..20,
            classic in proptest::prelude::any::<bool>(),
            piece in 0u8..7,
            width in 4usize..=12,
        ) {
            let preset = if classic { Preset::Classic } else { Preset::Simplified };
            let rules = Rules { width, ..Rules::preset(preset) };
            let pieces = PieceSet::tetrominoes();
            let board = stacked_board(width, &cells, stack);
            let shapes = shapes(&pieces);
            let piece = PieceId(piece);
            let kind = pieces.kind(piece);
            for weights in [DELLACHERIE, BCTS].map(Weights::new) {
                let mut columns = Columns::empty();
                columns.rebuild(&board);
                let rater = Rater::new(&rules, &pieces, &shapes, &weights, &board, &columns);
                for p in tetrad_plugin_api::placements(&rules, &board, kind, rules.spawn(kind)) {
                    let reference = evaluate(&rules, &pieces, &board, piece, p.pos, &weights).map(|(_, v)| v.to_bits());
                    proptest::prop_assert_eq!(rater.value(piece, p.pos).map(f64::to_bits), reference, "{:?}", p);
                }
            }
        }

        /// Under `simplified`, every drop rated on the columns is the placement the
        /// enumerator lands at that column, with exactly [`evaluate`]'s value: on boards 4
        /// to 12 wide, under both weight sets, for tetrominoes and for pieces whose columns
        /// have gaps (a C) or that are wider than the specialised loops (a line of five).
        #[test]
        fn every_drop_has_the_reference_value(
            cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
            stack in 0usize..20,
            width in 4usize..=12,
            hollow in proptest::prelude::any::<bool>(),
        ) {
            let rules = Rules { width, ..Rules::preset(Preset::Simplified) };
            let pieces = if hollow {
                PieceSet::new(vec![
                    PieceKind::from_cells("c", &[(0, 0), (1, 0), (0, 1), (0, 2), (1, 2)]),
                    PieceKind::from_cells("u", &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)]),
                    PieceKind::from_cells("dot", &[(0, 0)]),
                    PieceKind::from_cells("long", &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
                ])
            } else {
                PieceSet::tetrominoes()
            };
            let board = stacked_board(width, &cells, stack);
            let (shapes, drops) = (shapes(&pieces), Drops::new(&rules, &pieces).unwrap());
            for weights in [DELLACHERIE, BCTS].map(Weights::new) {
                let mut columns = Columns::empty();
                columns.rebuild(&board);
                let rater = Rater::new(&rules, &pieces, &shapes, &weights, &board, &columns);
                for (index, kind) in pieces.kinds().iter().enumerate() {
                    let (piece, start) = (PieceId(index as u8), rules.spawn(kind));
                    for reach in drops.from(piece, start).unwrap() {
                        let mut rated = Vec::new();
                        rater.visit_drops(piece, reach, start, |value, placement| rated.push((value.to_bits(), placement)));
                        let reference: Vec<_> = reach
                            .xs()
                            .iter()
                            .map(|&x| {
                                let placement = reach.land(x, start, |x| columns.top(x));
                                let value = evaluate(&rules, &pieces, &board, piece, placement.pos, &weights)
                                    .map_or(f64::NEG_INFINITY, |(_, v)| v);
                                (value.to_bits(), placement)
                            })
                            .collect();
                        proptest::prop_assert_eq!(rated, reference);
                    }
                }
            }
        }

        /// Under `simplified`, rating the drops orientation by orientation keeps the same
        /// best placement, with the same value, as rating the SDK's list one by one.
        #[test]
        fn drops_keep_the_best_of_the_listed_placements(
            cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
            stack in 0usize..20,
            piece in 0u8..7,
        ) {
            let rules = Rules::preset(Preset::Simplified);
            let pieces = PieceSet::tetrominoes();
            let board = stacked_board(10, &cells, stack);
            let (shapes, drops) = (shapes(&pieces), Drops::new(&rules, &pieces).unwrap());
            let piece = PieceId(piece);
            let start = rules.spawn(pieces.kind(piece));
            for weights in [DELLACHERIE, BCTS].map(Weights::new) {
                let mut columns = Columns::empty();
                columns.rebuild(&board);
                let rater = Rater::new(&rules, &pieces, &shapes, &weights, &board, &columns);
                let mut by_drops = None;
                for reach in drops.from(piece, start).unwrap() {
                    rater.rate_drops(piece, reach, start, &mut by_drops);
                }
                let mut listed = None;
                for p in tetrad_plugin_api::placements(&rules, &board, pieces.kind(piece), start) {
                    keep_best(&mut listed, rater.value(piece, p.pos).unwrap_or(f64::NEG_INFINITY), p);
                }
                let bits = |best: Option<(f64, Placement)>| best.map(|(v, p)| (v.to_bits(), p));
                proptest::prop_assert_eq!(bits(by_drops), bits(listed));
            }
        }

        /// With `order=mdptetris` the controller chooses the first strict maximum of
        /// [`evaluate`] over the SDK's placements sorted in the simulator's order, under
        /// `simplified` (by the drops) and `classic` (by the list) alike.
        #[test]
        fn mdptetris_order_keeps_its_first_strict_maximum(
            cells in proptest::collection::vec(proptest::prelude::any::<u16>(), 20),
            stack in 0usize..20,
            piece in 0u8..7,
            classic in proptest::prelude::any::<bool>(),
            dellacherie in proptest::prelude::any::<bool>(),
        ) {
            let preset = if classic { Preset::Classic } else { Preset::Simplified };
            let rules = Rules::preset(preset);
            let setup = GameSetup { rules, pieces: PieceSet::tetrominoes(), seed: 1 };
            let options = if dellacherie { "order=mdptetris,controller=dellacherie" } else { "order=mdptetris" };
            let mut controller = Controller::create(&setup, &mut Options::parse(options).unwrap()).unwrap();
            let board = stacked_board(10, &cells, stack);
            let (piece, kind) = (PieceId(piece), setup.pieces.kind(PieceId(piece)));
            let start = rules.spawn(kind);
            let mut listed = tetrad_plugin_api::placements(&rules, &board, kind, start);
            Order::parse("mdptetris", &setup.pieces).unwrap().unwrap().sort(piece, &mut listed);
            let mut expected = None;
            for p in listed {
                let value = evaluate(&rules, &setup.pieces, &board, piece, p.pos, &controller.weights);
                keep_best(&mut expected, value.map_or(f64::NEG_INFINITY, |(_, v)| v), p);
            }
            proptest::prop_assert_eq!(controller.choose(&board, piece, start, None), expected.map(|(_, p)| p));
        }
    }

    #[test]
    fn value_of_a_placement_worked_by_hand() {
        // An O on an empty 10x20 board at columns 0-1: bottom row 0, height 2, landing
        // height 0.5; no lines. Row transitions: rows 18-19 "##........": wall-filled 0,
        // filled-empty 1, empty-wall 1 = 2 each, 18 empty rows x 2: 40 in all. Column
        // transitions: columns 0-1 change once at their top (row 18), columns 2-9 once at
        // the floor: 10. No holes, wells, hole depth or rows with holes.
        let c = controller("controller=dellacherie");
        let pos = PiecePos {
            orientation: 0,
            x: 0,
            y: 18,
        };
        let (_, value) = evaluate(
            &c.setup.rules,
            &c.setup.pieces,
            &Board::new(10, 20),
            PieceId(1),
            pos,
            &Weights::new(DELLACHERIE),
        )
        .unwrap();
        assert_eq!(value, -0.5 - 40.0 - 10.0);
    }
}
