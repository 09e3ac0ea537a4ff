//! Whether a TBP bot's suggested move is legal now, and the path that plays it: the
//! placements reachable under SRS, found once per decision, matched by the cells the move
//! covers and the spin it names.

use crate::engine::Falling;
use crate::plugin::tbp::location::to_tetrad;
use crate::plugin::tbp::messages::{Move, Spin};
use tetrad_plugin_api::{reachable, t_spin, Actions, Board, PieceId, PieceSet, Reached, Rules};

/// The board cells `kind` covers at `pos`, sorted.
pub(super) fn covered(kind: &tetrad_plugin_api::PieceKind, pos: tetrad_plugin_api::PiecePos) -> Vec<(i16, i16)> {
    let mut cells: Vec<(i16, i16)> = kind
        .orientation(pos.orientation)
        .cells()
        .iter()
        .map(|&(dx, dy)| (i16::from(pos.x) + i16::from(dx), i16::from(pos.y) + i16::from(dy)))
        .collect();
    cells.sort_unstable();
    cells
}

/// The path that plays `suggested` on `board`, if it is legal now: the `current` falling
/// piece, or (a hold first) `swap`, the piece a hold brings in, at a place its SRS movement
/// reaches, ending in a turn if the move spins. The falling piece is searched from where
/// it is; the held-in one from where it enters ([`Rules::enter`]: under the guideline one
/// row under its spawn when that row is free, as a bot planning from TBP's y=19 expects).
/// A hold whose piece cannot enter is legal and is the whole path: the game ends on it
/// as a block out. Returns the path and what is placed, or why the move is not legal.
pub(super) fn legal(
    rules: &Rules,
    pieces: &PieceSet,
    board: &Board,
    current: Falling,
    swap: Option<PieceId>,
    suggested: &Move,
    reach: &mut Reach,
) -> Result<(Vec<Actions>, Played), String> {
    let (piece, named) =
        to_tetrad(pieces, &suggested.location, rules.height).ok_or("names no piece position on the board")?;
    let kind = pieces.kind(piece);
    let name = |piece: PieceId| pieces.kind(piece).name();
    let (start, held) = if piece == current.piece {
        (current.pos, false)
    } else if Some(piece) == swap {
        (rules.enter(board, kind), true)
    } else {
        return Err(format!(
            "is not the falling {}{}",
            name(current.piece),
            swap.map(|s| format!(" nor the {} a hold brings in", name(s)))
                .unwrap_or_default()
        ));
    };
    // A piece a hold brings in that does not fit where it enters ends the game there, a
    // block out, as the engine plays the hold: the move is the hold, and the place the bot
    // named for the piece is never reached. It is no illegal move of the bot's.
    if held && !board.fits(kind.orientation(start.orientation), start.x, start.y) {
        return Ok((vec![Actions::HOLD], Played { piece, pos: None, held }));
    }
    // By the cells it covers: a bot may name I, S and Z in either of the two states
    // with the same shape (Cold Clear 2 names one, whichever reached it), and the lock
    // is the same. (T's four states all differ, so its spins are told apart.)
    let target = covered(kind, named);
    // What the lock would be scored as: for a T, the host's T-spin rule; for any other
    // piece, whether a turn ends the path (a spin the bot may count, the host scores none).
    let is_t = kind.name() == "T";
    let class = |reached: &Reached| match (is_t, reached.last_kick) {
        (true, _) => match t_spin(board, reached.pos, reached.last_kick) {
            tetrad_plugin_api::Spin::None => Spin::None,
            tetrad_plugin_api::Spin::Mini => Spin::Mini,
            tetrad_plugin_api::Spin::Full => Spin::Full,
        },
        (false, None) => Spin::None,
        (false, Some(_)) => suggested.spin,
    };
    let found = reach.of(held, || reachable(rules, board, kind, start));
    let reached = found
        .iter()
        .filter(|r| covered(kind, r.pos) == target)
        .min_by_key(|r| (class(r) != suggested.spin, r.path.len()))
        .ok_or_else(|| format!("is out of the {}'s reach from where it is", name(piece)))?;
    let pos = reached.pos;
    // A spin is played as the spin the bot named; a move it named no spin is legal
    // however the lock is scored.
    if suggested.spin != Spin::None && class(reached) != suggested.spin {
        let named = if suggested.spin == Spin::Mini { "mini" } else { "full" };
        return Err(match reached.last_kick {
            None => "spins, but no turn ends there".to_string(),
            Some(_) => format!("spins as a {named}, but no turn ends there as one"),
        });
    }
    let mut path = Vec::with_capacity(reached.path.len() + 1);
    if held {
        path.push(Actions::HOLD);
    }
    path.extend_from_slice(&reached.path);
    Ok((
        path,
        Played {
            piece,
            pos: Some(pos),
            held,
        },
    ))
}

/// The placements the falling piece reaches, and the piece a hold brings in, each found
/// once per decision, when a suggested move first needs it.
#[derive(Default)]
pub(super) struct Reach {
    falling: Option<Vec<Reached>>,
    held: Option<Vec<Reached>>,
}

impl Reach {
    /// The placements of the held-in piece if `held`, else of the falling one.
    pub(super) fn of(&mut self, held: bool, find: impl FnOnce() -> Vec<Reached>) -> &[Reached] {
        let slot = if held { &mut self.held } else { &mut self.falling };
        slot.get_or_insert_with(find)
    }
}

/// A move played: the piece, where it locks, and whether a hold came first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Played {
    pub(super) piece: PieceId,
    /// Where it locks; `None` when it does not enter after the hold (the game ends).
    pub(super) pos: Option<tetrad_plugin_api::PiecePos>,
    pub(super) held: bool,
}
