//! `bcts`: the one-piece linear controllers of the research literature.
//!
//! - `controller=dellacherie`: six features (landing height, eroded cells, row and column
//!   transitions, holes, cumulative wells) weighted -1, 1, -1, -1, -4, -1.
//! - `controller=bcts` (default; Thiery and Scherrer 2009): the same six plus hole depth
//!   and rows with holes, weighted as in the MdpTetris simulator's weight file: -12.629,
//!   6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087.
//!
//! - `controller=tuned`: BCTS's eight features and six surface features (pattern
//!   diversity and five radial basis functions of the mean height, see `features`), with
//!   weights tuned for the 10x10 `simplified` board by `tetrad tune` (see the README for
//!   the commands): [`TUNED`] and [`TUNED_SURFACE`].
//!
//! Features follow the MdpTetris simulator (see `features`). A placement that ends the game
//! scores minus infinity; the first strict maximum in enumeration order (orientation,
//! then column from the left) wins; `order=mdptetris` takes the orientations in the
//! simulator's order (see `order`). `lookahead=2` rates each placement of the current
//! piece by its best follow-up with the previewed piece (needs a preview). `w1`..`w8`
//! override the weights, `w9`..`w14` the surface features' (zero but under `tuned`;
//! weight on them turns off the two-piece search's bound, so it searches every first
//! placement). `hold=true`, under rules with hold (`guideline`), rates the piece a hold
//! would bring in as well, and holds when that piece's best placement is strictly better
//! (not part of the published controllers, which know no hold; off by default).
//! `attack=W`, under `guideline`, places the piece among every placement its movement
//! reaches, T-spins and tucks included, rated by value plus `W` times the rows the clear
//! sends by the guideline's versus table (see `spins`; off by default). Works with any
//! board and piece set.

#[macro_use]
mod widths;
mod bound;
mod ceilings;
mod columns;
mod drops;
mod evaluate;
pub mod features;
mod hold;
mod lookahead;
mod order;
mod rater;
mod spins;
pub mod surface;

use bound::Bound;
use columns::Columns;
use drops::Drops;
use evaluate::evaluate;
use features::{Weights, COUNT};
pub use hold::Held;
use order::Order;
use rater::{keep_best, shapes, Rater, Shapes};
use surface::SURFACE;
use tetrad_plugin_api::{
    placements_into, Actions, Board, GameSetup, Info, Options, Path, PieceId, PiecePos, Placement, Preset, Solver, Tick,
};

/// Dellacherie's weights (hole depth and rows with holes unused).
pub const DELLACHERIE: [f64; COUNT] = [-1.0, 1.0, -1.0, -1.0, -4.0, -1.0, 0.0, 0.0];
/// Thiery and Scherrer's BCTS weights, at the precision of the MdpTetris simulator's
/// weight file (rounded to two decimals they flip near-ties the simulator does not).
pub const BCTS: [f64; COUNT] = [
    -12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087,
];

/// BCTS's eight features with weights tuned for 10x10 `simplified`, with the surface
/// features ([`TUNED_SURFACE`]), by `tetrad tune`, w5 (holes) held at BCTS's value to fix
/// the scale (the commands are in the README).
pub const TUNED: [f64; COUNT] = [
    -13.4620, 6.6599, -11.2170, -21.8641, -13.08335, -13.9507, -7.0881, -26.8132,
];

/// The surface features' weights (w9..w14: pattern diversity, then the five radial basis
/// functions of the mean height) of `controller=tuned`.
pub const TUNED_SURFACE: [f64; SURFACE] = [6.8176, -14.1431, -1.9825, -5.9516, 8.6235, 3.2442];

/// The linear controller.
pub struct Controller {
    setup: GameSetup,
    shapes: Shapes,
    /// Every piece's drops, under `simplified`.
    drops: Option<Drops>,
    weights: Weights,
    lookahead: usize,
    /// Weigh holding at each new piece.
    hold: bool,
    /// Under `attack=W`: the weight of a row sent (0: off).
    attack_weight: f64,
    /// Under `attack=W`: the weight of a T-spin double slot left on the board (`slots=W`).
    slot_weight: f64,
    /// Under `attack=W`: what is left of the chosen placement's path.
    spin_path: Option<std::vec::IntoIter<Actions>>,
    /// The order placements are rated in, when it is not the SDK's.
    order: Option<Order>,
    /// The current board's columns.
    columns: Box<Columns>,
    /// The two-piece search's buffers.
    scratch: lookahead::Scratch,
    /// The bound that lets the two-piece search skip first placements, when it holds.
    bound: Option<Bound>,
    /// Where the last decision's chosen piece went, when it cleared no row: a decision on
    /// the board after it ([`Controller::foreseen`]) adds the piece to `columns` (which
    /// still hold the last board) instead of rebuilding them.
    carried: Option<Carried>,
    /// The last decision's board with its chosen piece added, when it cleared no row.
    foreseen: Board,
    path: Option<Path>,
    first: Vec<Placement>,
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
            "tuned" => TUNED,
            other => {
                return Err(format!(
                    "option `controller`: `{other}` is not bcts, dellacherie or tuned"
                ))
            }
        };
        const KEYS: [&str; COUNT] = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"];
        for (weight, key) in weights.iter_mut().zip(KEYS) {
            *weight = options.get(key, *weight)?;
        }
        let mut surface = if controller == "tuned" {
            TUNED_SURFACE
        } else {
            [0.0; SURFACE]
        };
        const SURFACE_KEYS: [&str; SURFACE] = ["w9", "w10", "w11", "w12", "w13", "w14"];
        for (weight, key) in surface.iter_mut().zip(SURFACE_KEYS) {
            *weight = options.get(key, *weight)?;
        }
        if let Some(key) = KEYS
            .iter()
            .chain(&SURFACE_KEYS)
            .zip(weights.iter().chain(&surface))
            .find(|(_, w)| !w.is_finite())
        {
            return Err(format!("option `{}`: {} is not a finite number", key.0, key.1));
        }
        let weights = Weights::new(weights).with_surface(surface, setup.rules.width, setup.rules.height as u32);
        let bound = Bound::new(&weights, &setup.pieces);
        let lookahead: usize = options.get("lookahead", 1)?;
        if !(1..=2).contains(&lookahead) {
            return Err(format!("option `lookahead`: {lookahead} is not 1 or 2"));
        }
        if lookahead == 2 && setup.rules.preview == 0 {
            return Err("option `lookahead=2` needs the preview (--preview 1)".to_string());
        }
        let hold: bool = options.get("hold", false)?;
        if hold && !setup.rules.has_hold() {
            return Err(format!(
                "option `hold=true` needs rules with hold (--preset guideline), not `{}`",
                setup.rules.preset.name()
            ));
        }
        let attack_weight: f64 = options.get("attack", 0.0)?;
        if !attack_weight.is_finite() || attack_weight < 0.0 {
            return Err(format!("option `attack`: {attack_weight} is not a weight of 0 or more"));
        }
        if attack_weight > 0.0 && setup.rules.preset != Preset::Guideline {
            return Err(format!(
                "option `attack` rates the guideline's spins and garbage: it needs --preset guideline, not `{}`",
                setup.rules.preset.name()
            ));
        }
        if attack_weight > 0.0 && lookahead == 2 {
            return Err("option `attack` rates one piece: it does not go with `lookahead=2`".to_string());
        }
        let slot_weight: f64 = options.get("slots", 0.0)?;
        if !slot_weight.is_finite() {
            return Err(format!("option `slots`: {slot_weight} is not a finite number"));
        }
        if slot_weight != 0.0 && attack_weight == 0.0 {
            return Err("option `slots` weighs T-spin slots under `attack=W`: give `attack` too".to_string());
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
            weights,
            lookahead,
            hold,
            attack_weight,
            slot_weight,
            spin_path: None,
            order,
            columns: Box::new(Columns::empty()),
            scratch: lookahead::Scratch::new(),
            bound,
            carried: None,
            foreseen: Board::new(setup.rules.width, setup.rules.height),
            path: None,
            first: Vec::new(),
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if self.attack_weight > 0.0 {
            return self.update_spinning(tick, current);
        }
        if tick.new_piece || self.path.is_none() {
            let next = if self.lookahead == 2 { tick.next } else { None };
            let swap = if self.hold { self.swap(tick, current) } else { None };
            let choice = match swap {
                None => self.choose(&tick.board, current.id, current.pos, next),
                Some((swap, swap_next)) => match self.choose_or_hold(&tick.board, current, next, swap, swap_next) {
                    Held::Hold => {
                        self.path = None;
                        return Actions::HOLD;
                    }
                    Held::Keep(choice) => choice,
                },
            };
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
        self.prepare(board);
        let mut best: Option<(f64, Placement)> = None;
        self.rate(board, piece, start, next, &mut best);
        let (_, chosen) = best?;
        self.carry(board, piece, chosen.pos);
        Some(chosen)
    }

    /// Brings the columns to `board`: the carried piece added, if the board is the one the
    /// last decision foresaw, else rebuilt.
    #[inline]
    fn prepare(&mut self, board: &Board) {
        match self.carried.take() {
            // The boards are of one size: their rows say whether they are the same.
            Some(carried) if self.foreseen.rows() == board.rows() => {
                let shape = &self.shapes[carried.piece.index()][usize::from(carried.orientation)];
                self.columns.place(&shape.columns, carried.left, carried.top);
            }
            _ => self.columns.rebuild(board),
        }
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
            columns,
            order,
            scratch,
            bound,
            ..
        } = self;
        let (rules, pieces) = (&setup.rules, &setup.pieces);
        if let Some(next) = next {
            let search = lookahead::Context {
                rules,
                pieces,
                shapes,
                drops: drops.as_ref(),
                weights,
                order: order.as_ref(),
                bound: bound.as_ref(),
            };
            *best = search.rate(board, columns, piece, start, next, scratch);
            return;
        }
        let rater = Rater::new(rules, pieces, shapes, weights, board, columns);
        // Under `simplified`: rated as the drops are enumerated, with no list.
        if let Some(reaches) = drops.as_ref().and_then(|d| d.from(piece, start)) {
            for reach in reaches {
                rater.rate_drops(piece, reach, start, best, bound.as_ref());
            }
            return;
        }
        placements_into(rules, board, pieces.kind(piece), start, first);
        if let Some(order) = order {
            order.sort(piece, first);
        }
        for placement in first.iter() {
            let value = rater.value(piece, placement.pos).unwrap_or(f64::NEG_INFINITY);
            keep_best(best, value, *placement);
        }
    }

    /// Remembers the board after the chosen placement, when it clears no row and keeps
    /// the game going: the next decision's board, unless the host's engine disagrees (then
    /// the columns are rebuilt). The columns themselves change only once that is known.
    fn carry(&mut self, board: &Board, piece: PieceId, pos: PiecePos) {
        let shape = &self.shapes[piece.index()][usize::from(pos.orientation)];
        let top = i32::from(pos.y) + i32::from(shape.top);
        let orientation = self.setup.pieces.kind(piece).orientation(pos.orientation);
        // In place, not a new board: the board is a few hundred bytes, and this is once
        // per decision.
        self.foreseen.clone_from(board);
        if top < 0 || !self.foreseen.place(orientation, pos.x, pos.y) {
            return;
        }
        let full = self.foreseen.full_row();
        if self.foreseen.rows()[top as usize..top as usize + shape.height].contains(&full) {
            return;
        }
        self.carried = Some(Carried {
            piece,
            orientation: pos.orientation,
            left: (i32::from(pos.x) + i32::from(shape.left)) as usize,
            top: top as u32,
        });
    }
}

/// Where a decision's chosen piece went (the board after it is
/// [`Controller::foreseen`]'s).
struct Carried {
    piece: PieceId,
    orientation: u8,
    left: usize,
    top: u32,
}

tetrad_plugin_api::export_solver!(Controller);

#[cfg(test)]
mod tests;
