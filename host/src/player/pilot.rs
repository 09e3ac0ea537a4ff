//! The pilot: turns a player's decision into this tick's actions. Actions pass through,
//! checked against the protocol; a placement is looked up among the placements
//! [`movegen`](tetrad_plugin_api::placements) finds for the falling piece, and its path
//! is then flown tick by tick without asking the player again until the next piece.

use super::{Answer, Decision, Reply, Target, Violation};
use crate::engine::Game;
use tetrad_plugin_api::{placements, Actions, Path, PiecePos, Placement};

/// One seat's pilot.
#[derive(Debug, Default)]
pub struct Pilot {
    /// The path being flown, and the piece count when it began: a path never outlives
    /// its piece (a hold does not end it: the piece count stays).
    flying: Option<(Flight, u64)>,
}

/// A path in flight.
#[derive(Debug)]
enum Flight {
    /// To a placement the move generator found.
    Plan(Path),
    /// Actions a player gave, one a tick.
    Given(std::vec::IntoIter<Actions>),
}

impl Flight {
    #[inline(always)]
    fn next(&mut self) -> Option<Actions> {
        match self {
            Flight::Plan(path) => path.next(),
            Flight::Given(actions) => actions.next(),
        }
    }
}

impl Pilot {
    /// The next action of the path being flown, if one is, for this tick of `game`. The
    /// player is not asked on such a tick.
    #[inline(always)]
    pub fn next(&mut self, game: &Game) -> Option<Answer> {
        let (path, piece) = self.flying.as_mut()?;
        if *piece == game.stats().pieces {
            if let Some(actions) = path.next() {
                return Some(Answer {
                    actions: Ok(actions),
                    violation: None,
                    elapsed_ns: 0,
                });
            }
        }
        self.flying = None;
        None
    }

    /// This tick's answer from the player's `reply` on `game`: its actions (a violation
    /// if they break the player's `accepted` bits, see [`Player::accepted_actions`]), or
    /// the first action of the path to its placement.
    ///
    /// [`Player::accepted_actions`]: super::Player::accepted_actions
    #[inline(always)]
    pub fn steer(&mut self, reply: Reply, game: &Game, accepted: u32) -> Answer {
        let elapsed_ns = reply.elapsed_ns;
        let (actions, violation) = match reply.decision {
            Ok(Decision::Actions(actions)) if actions.breaks(accepted) => {
                (Ok(Actions::NONE), Some(Violation::Bits(actions.0)))
            }
            Ok(Decision::Actions(actions)) => (Ok(actions), None),
            Ok(Decision::Placement(target)) => match self.take_off(target, game) {
                Some(actions) => (Ok(actions), None),
                None => (Ok(Actions::NONE), Some(Violation::Unreachable(target))),
            },
            Ok(Decision::Path(actions)) => {
                let mut flight = Flight::Given(actions.into_iter());
                let first = flight.next().unwrap_or(Actions::NONE);
                self.flying = Some((flight, game.stats().pieces));
                (Ok(first), None)
            }
            Err(failure) => (Err(failure), None),
        };
        Answer {
            actions,
            violation,
            elapsed_ns,
        }
    }

    /// Starts the path to `target` and returns its first action, or `None` if no path
    /// reaches it from where the falling piece is.
    fn take_off(&mut self, target: Target, game: &Game) -> Option<Actions> {
        let falling = game.current()?;
        let kind = game.pieces().kind(falling.piece);
        let rules = game.rules();
        let found = placements(rules, game.board(), kind, falling.pos);
        let path = reaching(&found, target, |pos| {
            let shape = kind.orientation(pos.orientation);
            game.board().fits(shape, pos.x, pos.y) && game.board().rests(shape, pos.x, pos.y)
        })?;
        let mut flight = Flight::Plan(path.path(rules.movement()));
        let first = flight.next()?;
        self.flying = Some((flight, game.stats().pieces));
        Some(first)
    }
}

/// The placement among `found` that locks the piece where `target` asks: the one found
/// for it, or, for a slide, any whose final position is where the slid piece would rest.
/// The move generator keeps one path per final position, so a slide that ends where a
/// straight drop (or another slide) ends is listed under that other path; the place is
/// reachable all the same. `rests_at` says whether the piece fits and rests at a position.
fn reaching(found: &[Placement], target: Target, rests_at: impl Fn(PiecePos) -> bool) -> Option<Placement> {
    let asked = |p: &&Placement| {
        p.pos.orientation == target.orientation && p.slide == target.slide && p.pos.x - p.slide == target.column
    };
    if let Some(exact) = found.iter().find(asked) {
        return Some(*exact);
    }
    if target.slide == 0 {
        return None;
    }
    // Where the drop before the slide locks the piece, then the slid position at that row.
    let dropped = found
        .iter()
        .find(|p| p.pos.orientation == target.orientation && p.slide == 0 && p.pos.x == target.column)?;
    let slid = PiecePos {
        x: dropped.pos.x.checked_add(target.slide)?,
        ..dropped.pos
    };
    if !rests_at(slid) {
        return None;
    }
    found.iter().find(|p| p.pos == slid).copied()
}

#[cfg(test)]
mod tests;
