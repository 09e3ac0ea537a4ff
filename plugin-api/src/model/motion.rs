//! One tick of a falling piece: the action bits a plugin returns, and what they do.
//!
//! This is the movement half of the rules engine, shared by the host and by plugins, so
//! a plugin's prediction of where a piece lands is exactly what the host does.

use super::board::{Board, PiecePos};
use super::piece::PieceKind;
use super::rotation::RotationSystem;
use super::rules::{Movement, Rules};
use std::fmt;

/// The OR-ed action bits returned by a plugin's `update`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Actions(pub u32);

impl Actions {
    /// No action.
    pub const NONE: Actions = Actions(0);
    /// Shift one column left.
    pub const LEFT: Actions = Actions(crate::abi::MOVE_LEFT);
    /// Shift one column right.
    pub const RIGHT: Actions = Actions(crate::abi::MOVE_RIGHT);
    /// Turn clockwise.
    pub const CW: Actions = Actions(crate::abi::ROTATE_CW);
    /// Turn counter-clockwise.
    pub const CCW: Actions = Actions(crate::abi::ROTATE_CCW);
    /// Fall to rest (and lock, if already resting or the preset drops and locks at once).
    pub const DROP: Actions = Actions(crate::abi::DROP);
    /// Soft drop under `guideline`: fall to rest without locking, so the piece can still
    /// shift and turn there (a tuck, a spin). An action of ABI version 2; under other
    /// presets it does nothing.
    pub const SOFT_DROP: Actions = Actions(crate::abi::SOFT_DROP);
    /// Hold under `guideline`: the falling piece goes to the hold slot, and the held piece
    /// (or the next) enters; once per piece. An action of ABI version 2; [`step`] ignores
    /// it (the engine holds).
    pub const HOLD: Actions = Actions(crate::abi::HOLD);
    /// Every bit the model knows.
    const MODEL_MASK: u32 = crate::abi::ACTION_MASK_V2;

    /// Whether every bit in `other` is set.
    #[inline]
    pub fn contains(self, other: Actions) -> bool {
        self.0 & other.0 == other.0
    }

    /// A protocol violation of ABI version 1: both shifts, both turns, or bits version 1
    /// does not define (soft drop and hold among them). See [`Actions::breaks`].
    #[inline]
    pub fn is_violation(self) -> bool {
        self.breaks(crate::abi::ACTION_MASK)
    }

    /// A protocol violation from a player that may answer the bits in `accepted` (see
    /// [`crate::abi::action_mask`]): both shifts, both turns, or any other bit.
    #[inline]
    pub fn breaks(self, accepted: u32) -> bool {
        (self.0 & !accepted) | self.both_of_a_pair() != 0
    }

    /// Non-zero when both shifts or both turns are set. The two pairs are neighbouring
    /// bits (left and right are bits 0 and 1, clockwise and counter-clockwise bits 2 and
    /// 3), so a bit set with the one above it marks a pair: a few instructions, with no
    /// branch, at every tick a player answers.
    #[inline]
    fn both_of_a_pair(self) -> u32 {
        const _: () = assert!(
            crate::abi::MOVE_LEFT == 1
                && crate::abi::MOVE_RIGHT == 2
                && crate::abi::ROTATE_CW == 4
                && crate::abi::ROTATE_CCW == 8
        );
        self.0 & (self.0 >> 1) & (crate::abi::MOVE_LEFT | crate::abi::ROTATE_CW)
    }

    /// Actions no player can apply: both shifts, both turns, or bits the model does not
    /// know. (A plugin's answer is checked with [`Actions::breaks`], which also refuses
    /// the bits its ABI version does not define.)
    #[inline]
    pub fn is_unplayable(self) -> bool {
        self.breaks(Actions::MODEL_MASK)
    }

    /// The turn requested: +1 clockwise, -1 counter-clockwise, 0 none.
    #[inline]
    pub fn turn(self) -> i8 {
        i8::from(self.contains(Actions::CW)) - i8::from(self.contains(Actions::CCW))
    }

    /// The shift requested: +1 right, -1 left, 0 none.
    #[inline]
    pub fn shift(self) -> i8 {
        i8::from(self.contains(Actions::RIGHT)) - i8::from(self.contains(Actions::LEFT))
    }

    /// The action bits for one turn in `direction` (+1 clockwise, -1 counter-clockwise).
    pub fn turning(direction: i8) -> Actions {
        match direction.signum() {
            1 => Actions::CW,
            -1 => Actions::CCW,
            _ => Actions::NONE,
        }
    }

    /// The action bits for one shift in `direction` (+1 right, -1 left).
    pub fn shifting(direction: i8) -> Actions {
        match direction.signum() {
            1 => Actions::RIGHT,
            -1 => Actions::LEFT,
            _ => Actions::NONE,
        }
    }
}

impl std::ops::BitOr for Actions {
    type Output = Actions;
    fn bitor(self, rhs: Actions) -> Actions {
        Actions(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Actions {
    fn bitor_assign(&mut self, rhs: Actions) {
        self.0 |= rhs.0;
    }
}

impl fmt::Debug for Actions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Actions::LEFT, "LEFT"),
            (Actions::RIGHT, "RIGHT"),
            (Actions::CW, "CW"),
            (Actions::CCW, "CCW"),
            (Actions::DROP, "DROP"),
            (Actions::SOFT_DROP, "SOFT_DROP"),
            (Actions::HOLD, "HOLD"),
        ];
        let set: Vec<&str> = names
            .iter()
            .filter(|(bits, _)| self.contains(*bits))
            .map(|(_, name)| *name)
            .collect();
        if set.is_empty() {
            write!(f, "NONE")?;
        } else {
            write!(f, "{}", set.join("|"))?;
        }
        let unknown = self.0 & !Actions::MODEL_MASK;
        if unknown != 0 {
            write!(f, "|{unknown:#x}")?;
        }
        Ok(())
    }
}

/// What one tick did to the falling piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The requested turn was applied.
    pub turned: bool,
    /// The requested shift was applied.
    pub shifted: bool,
    /// The piece locked at its (updated) position.
    pub locked: bool,
    /// Which offset of the rotation system's list the turn took (0: none, in place).
    pub kick: u8,
    /// A drop or gravity moved the piece down after the turn and shift: the tick's last
    /// movement was not a turn (what the guideline's T-spin rule asks).
    pub fell: bool,
}

/// Applies one tick's actions to a falling piece, in the preset's order: the turn (if the
/// turned piece fits: in place, or under SRS at the first kicked offset that does), the
/// shift (if it fits), then DROP or gravity (or, under `guideline`, soft drop).
///
/// The caller has already rejected violations (see [`Actions::is_violation`]).
///
/// Always inlined: the engine calls it at every tick, and inlined there the preset's
/// rotation system and movement are read once and the result never goes through memory.
#[inline(always)]
pub fn step(rules: &Rules, board: &Board, kind: &PieceKind, pos: &mut PiecePos, actions: Actions) -> Step {
    let mut result = Step::default();
    let turn = actions.turn();
    if turn != 0 {
        let orientation = kind.turned(pos.orientation, turn);
        let shape = kind.orientation(orientation);
        match rules.rotation() {
            RotationSystem::InBox => {
                let y = match rules.movement() {
                    Movement::Gravity => pos.y,
                    Movement::DropOnly => rules.entry_row(kind, orientation),
                };
                if board.fits(shape, pos.x, y) {
                    pos.orientation = orientation;
                    pos.y = y;
                    result.turned = true;
                }
            }
            RotationSystem::Srs => {
                let kicks = rules.rotation().kicks(kind.box_size(), pos.orientation, turn);
                if let Some(kick) = kicks
                    .iter()
                    .position(|&(dx, dy)| board.fits(shape, pos.x + dx, pos.y + dy))
                {
                    let (dx, dy) = kicks[kick];
                    *pos = PiecePos {
                        orientation,
                        x: pos.x + dx,
                        y: pos.y + dy,
                    };
                    result.turned = true;
                    result.kick = kick as u8;
                }
            }
        }
    }
    let shape = kind.orientation(pos.orientation);
    let shift = actions.shift();
    if shift != 0 && board.fits(shape, pos.x + shift, pos.y) {
        pos.x += shift;
        result.shifted = true;
    }
    let drop = actions.contains(Actions::DROP);
    let y = pos.y;
    match rules.movement() {
        // Only gravity asks whether the piece rests: a piece that hovers need not know.
        Movement::Gravity if board.rests(shape, pos.x, pos.y) => result.locked = true,
        Movement::Gravity if drop => pos.y = board.drop_row(shape, pos.x, pos.y),
        Movement::Gravity => pos.y += 1,
        Movement::DropOnly if drop => {
            pos.y = board.drop_row(shape, pos.x, pos.y);
            result.locked = true;
        }
        Movement::DropOnly if actions.contains(Actions::SOFT_DROP) && rules.rotation() == RotationSystem::Srs => {
            pos.y = board.drop_row(shape, pos.x, pos.y);
        }
        Movement::DropOnly => {}
    }
    result.fell = pos.y > y;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::{PieceId, PieceSet};
    use crate::model::rules::Preset;

    fn o_piece() -> PieceKind {
        PieceSet::tetrominoes().kind(PieceId(1)).clone()
    }

    #[test]
    fn violations_are_both_shifts_both_turns_or_unknown_bits() {
        assert!((Actions::LEFT | Actions::RIGHT).is_violation());
        assert!((Actions::CW | Actions::CCW | Actions::DROP).is_violation());
        assert!(Actions(0x20).is_violation());
        assert!(!(Actions::LEFT | Actions::CW | Actions::DROP).is_violation());
        assert_eq!(format!("{:?}", Actions(0x23)), "LEFT|RIGHT|SOFT_DROP");
        assert_eq!(format!("{:?}", Actions(0x83)), "LEFT|RIGHT|0x80");
        assert!(Actions::SOFT_DROP.is_violation(), "not an action of the version 1 ABI");
        assert!(Actions::HOLD.is_violation());
        let v2 = crate::abi::action_mask(2);
        assert!(!(Actions::SOFT_DROP | Actions::HOLD | Actions::LEFT).breaks(v2));
        assert!((Actions::HOLD | Actions::LEFT | Actions::RIGHT).breaks(v2) && Actions(0x80).breaks(v2));
        assert!(!(Actions::SOFT_DROP | Actions::HOLD).is_unplayable() && Actions(0x80).is_unplayable());
    }

    #[test]
    fn classic_drop_rests_then_a_slide_is_still_possible() {
        // An O over a one-column ledge: after DROP it rests on the ledge; the next tick
        // slides it right, off the ledge, where gravity moves it down instead of locking.
        let rules = Rules {
            width: 6,
            height: 6,
            ..Rules::preset(Preset::Classic)
        };
        let board = Board::from_text(6, 6, "#.....\n#.....\n#.....");
        let kind = o_piece();
        let mut pos = PiecePos {
            orientation: 0,
            x: 0,
            y: 0,
        };
        let dropped = step(&rules, &board, &kind, &mut pos, Actions::DROP);
        assert_eq!((dropped.locked, pos.y), (false, 1), "DROP falls to rest, no lock");
        let slid = step(&rules, &board, &kind, &mut pos, Actions::RIGHT);
        assert_eq!((slid.shifted, slid.locked, pos.x, pos.y), (true, false, 1, 2));
        let fall = step(&rules, &board, &kind, &mut pos, Actions::NONE);
        assert_eq!((fall.locked, pos.y), (false, 3));
        let floor = step(&rules, &board, &kind, &mut pos, Actions::NONE);
        assert_eq!((floor.locked, pos.y), (false, 4));
        let lock = step(&rules, &board, &kind, &mut pos, Actions::NONE);
        assert!(lock.locked, "gravity locks a resting piece");
        assert_eq!(
            pos,
            PiecePos {
                orientation: 0,
                x: 1,
                y: 4
            }
        );
    }

    #[test]
    fn drop_only_presets_hover_until_drop_and_lock_at_once() {
        let rules = Rules::preset(Preset::Simplified);
        let board = Board::new(10, 20);
        let set = PieceSet::tetrominoes();
        let i = set.kind(PieceId(0));
        let mut pos = rules.spawn(i);
        let hover = step(&rules, &board, i, &mut pos, Actions::CW | Actions::LEFT);
        assert_eq!(
            hover,
            Step {
                turned: true,
                shifted: true,
                locked: false,
                kick: 0,
                fell: false
            }
        );
        assert_eq!(pos.y, rules.entry_row(i, 1), "turning keeps the piece above the board");
        let drop = step(&rules, &board, i, &mut pos, Actions::DROP);
        assert!(drop.locked);
        assert_eq!(pos.y + i.orientation(1).top() + 4, 20);
    }

    #[test]
    fn turn_is_refused_when_the_turned_piece_would_not_fit() {
        let rules = Rules::preset(Preset::Classic);
        let board = Board::new(10, 20);
        let set = PieceSet::tetrominoes();
        let i = set.kind(PieceId(0));
        // Vertical I against the left wall: turning back to horizontal would leave the
        // board on the left, and there are no wall kicks.
        let mut pos = PiecePos {
            orientation: 1,
            x: -2,
            y: 5,
        };
        let result = step(&rules, &board, i, &mut pos, Actions::CW);
        assert!(!result.turned);
        assert_eq!((pos.orientation, pos.y), (1, 6));
    }
}
