//! Attack and spins (`attack=W`, under `guideline`): the piece is placed among every
//! placement the guideline's movement reaches (the shared model's [`reachable`]: T-spins,
//! minis and tucks included), each rated by the controller's value plus `W` times the rows
//! the clear would send by the guideline's versus table, a T-spin scored as the host
//! scores it ([`t_spin`]), with the back-to-back, combo and perfect-clear bonuses the
//! game's state gives. With `hold=true`, the piece a hold brings in is rated alike, and
//! held when its best is strictly better. Not part of the published controllers (which
//! know neither versus nor spins); off by default.

use crate::rater::Rater;
use crate::Controller;
use tetrad_plugin_api::{
    placements_into, reachable, t_spin, Actions, Board, FallingPiece, GuidelineAttack, PieceId, PiecePos, Spin, Streak,
    Tick,
};

/// What the controller does with the falling piece.
pub(crate) enum Spun {
    /// Hold it: the piece a hold brings in does strictly better.
    Hold,
    /// Play these actions, tick by tick (the last locks the piece).
    Path(Vec<Actions>),
    /// Nothing reaches a place.
    Nowhere,
}

impl Controller {
    /// One tick under `attack=W`: a new decision at each new piece, then its path.
    pub(crate) fn update_spinning(&mut self, tick: &Tick, current: FallingPiece) -> Actions {
        if tick.new_piece || self.spin_path.is_none() {
            match self.spin_or_hold(tick, current) {
                Spun::Hold => {
                    self.spin_path = None;
                    return Actions::HOLD;
                }
                Spun::Path(path) => self.spin_path = Some(path.into_iter()),
                Spun::Nowhere => self.spin_path = None,
            }
        }
        self.spin_path
            .as_mut()
            .and_then(Iterator::next)
            .unwrap_or(Actions::DROP)
    }

    /// The falling piece's best reachable placement by value plus attack, or a hold when
    /// the piece a hold brings in does strictly better (under `hold=true`).
    pub(crate) fn spin_or_hold(&mut self, tick: &Tick, current: FallingPiece) -> Spun {
        let board = &tick.board;
        let streak = Streak {
            back_to_back: tick.back_to_back,
            combo: tick.combo,
        };
        self.prepare(board);
        let kept = self.best_reached(board, current.id, current.pos, streak);
        let swap = if self.hold { self.swap(tick, current) } else { None };
        if let Some((swap, _)) = swap {
            let enter = self.setup.rules.enter(board, self.setup.pieces.kind(swap));
            let swapped = self.best_reached(board, swap, enter, streak);
            match (&kept, swapped) {
                (Some((kept, _)), Some((swapped, _))) if swapped > *kept => return Spun::Hold,
                (None, Some(_)) => return Spun::Hold,
                _ => {}
            }
        }
        match kept {
            Some((_, path)) => Spun::Path(path),
            None => Spun::Nowhere,
        }
    }

    /// The best of `piece`'s reachable placements from `start` on `board` (whose columns
    /// `self.columns` holds): its value and its path. The placements a turn, shift and
    /// drop reaches come first, in the SDK's order and on its paths (the fewest ticks);
    /// then the others the movement reaches (tucks, and T-spins, which a drop never is).
    /// The first of equal ones wins, so without a spin or an attack in sight the choice is
    /// the controller's own.
    fn best_reached(
        &mut self,
        board: &Board,
        piece: PieceId,
        start: PiecePos,
        streak: Streak,
    ) -> Option<(f64, Vec<Actions>)> {
        let (rules, pieces) = (&self.setup.rules, &self.setup.pieces);
        let kind = pieces.kind(piece);
        placements_into(rules, board, kind, start, &mut self.first);
        let reached = reachable(rules, board, kind, start);
        let rater = Rater::new(rules, pieces, &self.shapes, &self.weights, board, &self.columns);
        let rate = |pos: PiecePos, last_kick: Option<u8>| -> Option<(f64, Spin)> {
            let value = rater.value(piece, pos)?;
            let spin = if kind.name() == "T" {
                t_spin(board, pos, last_kick)
            } else {
                Spin::None
            };
            let mut after = board.clone();
            let (lines, empty) = match after.place(kind.orientation(pos.orientation), pos.x, pos.y) {
                true => {
                    let lines = after.clear_full_rows();
                    (lines, after.rows().iter().all(|&row| row == 0))
                }
                false => (0, false),
            };
            let sent = f64::from(GuidelineAttack::rows(lines, spin, streak, empty));
            let slots = f64::from(t_slots(&after));
            Some((value + self.attack_weight * sent + self.slot_weight * slots, spin))
        };
        let mut best: Option<(f64, Choice)> = None;
        let mut keep = |value: f64, choice: Choice| {
            if best.as_ref().is_none_or(|(score, _)| value > *score) {
                best = Some((value, choice));
            }
        };
        for (index, placement) in self.first.iter().enumerate() {
            if let Some((value, _)) = rate(placement.pos, None) {
                keep(value, Choice::Dropped(index));
            }
        }
        for (index, place) in reached.iter().enumerate() {
            let dropped = self.first.iter().any(|p| p.pos == place.pos);
            match rate(place.pos, place.last_kick) {
                Some((value, spin)) if !dropped || spin != Spin::None => keep(value, Choice::Reached(index)),
                _ => {}
            }
        }
        let (value, choice) = best?;
        let path = match choice {
            Choice::Dropped(index) => self.first[index].path(rules.movement()).collect(),
            Choice::Reached(index) => reached.into_iter().nth(index)?.path,
        };
        Some((value, path))
    }
}

/// T-spin double slots on `board`: a row with exactly three empty cells side by side, the
/// row under it empty only under their middle one, and over them one end covered and the
/// middle open, so that a T turned in fills both rows. A slot is an attack of four rows
/// in waiting; `slots=W` weighs each.
pub(crate) fn t_slots(board: &Board) -> u32 {
    let full = board.full_row();
    let rows = board.rows();
    let mut slots = 0;
    for r in 1..rows.len().saturating_sub(1) {
        let (above, row, below) = (rows[r - 1], rows[r], rows[r + 1]);
        let holes = full & !row;
        if holes.count_ones() != 3 {
            continue;
        }
        let x = holes.trailing_zeros();
        if holes != 0b111 << x || full & !below != 0b10 << x {
            continue;
        }
        let covered = (above >> x) & 1 == 1 || (above >> (x + 2)) & 1 == 1;
        let open = (above >> (x + 1)) & 1 == 0;
        slots += u32::from(covered && open);
    }
    slots
}

/// Where a best placement was found.
enum Choice {
    /// Among the turn, shift and drop placements.
    Dropped(usize),
    /// Among the reachable ones.
    Reached(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_t_spin_double_slot_is_counted_and_a_plain_well_is_not() {
        // Columns 3..5 open in the second row from the bottom, only column 4 in the
        // bottom row, and column 3 covered above: a T turned in clears both rows.
        let slot = Board::from_text(10, 6, "...#......\n###...####\n####.#####");
        assert_eq!(t_slots(&slot), 1);
        let uncovered = Board::from_text(10, 6, "..........\n###...####\n####.#####");
        assert_eq!(t_slots(&uncovered), 0, "nothing over it: a drop fills it, no spin");
        let well = Board::from_text(10, 6, "...#......\n####.#####\n####.#####");
        assert_eq!(t_slots(&well), 0);
    }
}
