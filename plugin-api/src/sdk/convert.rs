//! The host's ABI structs read into model types: the game info into a [`GameSetup`], and
//! each tick's field and pieces into a [`Tick`], checked.

use super::solver::{FallingPiece, GameSetup, Tick};
use crate::abi::{
    TetradField, TetradGameInfo, TetradPiece, TetradState, ABI_VERSION, MAX_QUEUE, NO_PIECE, OLDEST_ABI_VERSION,
};
use crate::model::board::{Board, PiecePos, MAX_HEIGHT, MAX_WIDTH};
use crate::model::piece::{PieceId, PieceKind, PieceSet, MAX_PIECE_SIZE};
use crate::model::rules::{Preset, Rules};
use std::ffi::CStr;

/// Reads the game info the host passed to `create` into model types.
///
/// Everything is checked: a malformed info is an error, never undefined behaviour beyond
/// what the raw pointers themselves promise.
pub fn setup_from_abi(game: &TetradGameInfo) -> Result<GameSetup, String> {
    if !(OLDEST_ABI_VERSION..=ABI_VERSION).contains(&game.abi_version) {
        return Err(format!(
            "host speaks ABI version {}, plugin expects {OLDEST_ABI_VERSION} to {ABI_VERSION}",
            game.abi_version
        ));
    }
    let preset = Preset::from_abi_id(game.preset).ok_or_else(|| format!("unknown preset number {}", game.preset))?;
    let width = game.width as usize;
    let height = game.height as usize;
    if !(1..=MAX_WIDTH).contains(&width) || !(1..=MAX_HEIGHT).contains(&height) {
        return Err(format!("board {width}x{height} is beyond {MAX_WIDTH}x{MAX_HEIGHT}"));
    }
    if game.pieces.is_null() || game.piece_count == 0 || game.piece_count > 255 {
        return Err(format!("piece set of {} pieces is not usable", game.piece_count));
    }
    // SAFETY: the header requires `pieces` to point to `piece_count` records that stay
    // valid for the whole `create` call, which encloses this function.
    let records = unsafe { std::slice::from_raw_parts(game.pieces, game.piece_count as usize) };
    let mut kinds = Vec::with_capacity(records.len());
    for record in records {
        let name = if record.name.is_null() {
            String::new()
        } else {
            // SAFETY: a non-null name is a NUL-terminated string valid during `create`.
            unsafe { CStr::from_ptr(record.name) }.to_string_lossy().into_owned()
        };
        let orientations = record.orientation_count as usize;
        let cells = record.cell_count as usize;
        if record.cells.is_null()
            || orientations == 0
            || orientations > 4
            || cells == 0
            || cells > MAX_PIECE_SIZE * MAX_PIECE_SIZE
        {
            return Err(format!("piece `{name}` has no usable cells"));
        }
        // SAFETY: the header requires `cells` to hold `orientation_count * cell_count`
        // entries, valid during `create`.
        let all = unsafe { std::slice::from_raw_parts(record.cells, orientations * cells) };
        let box_size = record.box_size as usize;
        let in_box =
            |c: &crate::abi::TetradCell| (0..box_size as i8).contains(&c.x) && (0..box_size as i8).contains(&c.y);
        if box_size == 0 || box_size > MAX_PIECE_SIZE || !all.iter().all(in_box) {
            return Err(format!("piece `{name}` has cells outside its rotation box"));
        }
        let shapes = all
            .chunks(cells)
            .map(|o| o.iter().map(|c| (c.x, c.y)).collect())
            .collect();
        kinds.push(PieceKind::from_orientations(name, box_size as u8, shapes));
    }
    Ok(GameSetup {
        rules: Rules {
            preset,
            width,
            height,
            preview: game.preview as usize,
            // The ABI does not carry the randomizer: the preset's own is the best guess.
            randomizer: Rules::preset(preset).randomizer,
        },
        pieces: PieceSet::new(kinds),
        seed: game.seed,
    })
}

/// Orientations per piece kind, indexed by kind, 0 past the last kind of the set: checking
/// a piece view from the host is then one lookup in a fixed-size table, rather than two
/// bounds checks through the piece set's kinds.
pub(super) type OrientationCounts = [u8; 256];

/// The [`OrientationCounts`] of `pieces`.
pub(super) fn orientation_counts(pieces: &PieceSet) -> OrientationCounts {
    let mut counts = [0; 256];
    for (count, kind) in counts.iter_mut().zip(pieces.kinds()) {
        // At most 4 orientations.
        *count = kind.orientations().len() as u8;
    }
    counts
}

/// Reads one piece view, checking its kind and orientation against the piece set's
/// `orientations`. Inlined into [`fill_tick`], which reads two per tick.
#[inline]
pub(super) fn piece_from_abi(
    orientations: &OrientationCounts,
    piece: &TetradPiece,
) -> Result<Option<FallingPiece>, String> {
    if piece.kind == NO_PIECE {
        return Ok(None);
    }
    // Every kind of a set has an orientation: a kind with none is not in the set.
    let (kind, count) = u8::try_from(piece.kind)
        .ok()
        .map(|k| (k, orientations[usize::from(k)]))
        .filter(|&(_, count)| count != 0)
        .ok_or_else(|| format!("host sent unknown piece kind {}", piece.kind))?;
    let orientation = u8::try_from(piece.orientation)
        .ok()
        .filter(|&o| o < count)
        .ok_or_else(|| format!("host sent unknown orientation {}", piece.orientation))?;
    Ok(Some(FallingPiece {
        id: PieceId(kind),
        pos: PiecePos {
            orientation,
            x: piece.x as i8,
            y: piece.y as i8,
        },
    }))
}

/// The kind of a queued or held piece, or `None` for [`NO_PIECE`].
#[inline]
fn kind_from_abi(orientations: &OrientationCounts, kind: i32) -> Result<Option<PieceId>, String> {
    if kind == NO_PIECE {
        return Ok(None);
    }
    u8::try_from(kind)
        .ok()
        .filter(|&k| orientations[usize::from(k)] != 0)
        .map(|k| Some(PieceId(k)))
        .ok_or_else(|| format!("host sent unknown piece kind {kind}"))
}

/// Reads the version 2 state into `tick`: without one (a host speaking version 1), the
/// queue is the next piece alone and nothing is held or pending. Only the pending garbage
/// changes during a piece (the header promises it), so only a new piece's state is read
/// whole; a debug build checks the promise.
#[inline]
fn fill_state(
    tick: &mut Tick,
    orientations: &OrientationCounts,
    state: Option<&TetradState>,
    new_piece: bool,
) -> Result<(), String> {
    let Some(state) = state else {
        tick.queue.clear();
        tick.queue.extend(tick.next);
        tick.hold = None;
        tick.hold_available = false;
        (tick.combo, tick.back_to_back, tick.pending_garbage) = (0, false, 0);
        return Ok(());
    };
    if !new_piece {
        tick.pending_garbage = state.pending_garbage;
        debug_assert!(
            {
                let mut whole = tick.clone();
                fill_state(&mut whole, orientations, Some(state), true).is_ok()
                    && (
                        &whole.queue,
                        whole.hold,
                        whole.hold_available,
                        whole.combo,
                        whole.back_to_back,
                    ) == (
                        &tick.queue,
                        tick.hold,
                        tick.hold_available,
                        tick.combo,
                        tick.back_to_back,
                    )
            },
            "host changed the state during a piece (new_piece was false)"
        );
        return Ok(());
    }
    tick.queue.clear();
    if (state.size as usize) < std::mem::size_of::<TetradState>() {
        return Err(format!("host sent a state of {} bytes", state.size));
    }
    let len = state.queue_len as usize;
    if len > MAX_QUEUE {
        return Err(format!("host sent a queue of {len} pieces"));
    }
    for &kind in &state.queue[..len] {
        let piece = kind_from_abi(orientations, kind)?.ok_or("host sent an empty place in the queue")?;
        tick.queue.push(piece);
    }
    tick.hold = kind_from_abi(orientations, state.hold)?;
    tick.hold_available = state.hold_available != 0;
    tick.combo = state.combo;
    tick.back_to_back = state.back_to_back != 0;
    tick.pending_garbage = state.pending_garbage;
    Ok(())
}

/// Reads the host's view of one tick into `tick`, reusing its board; `state` is the
/// version 2 state, if the host speaks version 2.
#[allow(clippy::too_many_arguments)] // the ABI's own arguments, plus where they go
#[inline]
pub(super) fn fill_tick(
    tick: &mut Tick,
    setup: &GameSetup,
    orientations: &OrientationCounts,
    field: &TetradField,
    current: &TetradPiece,
    next: &TetradPiece,
    state: Option<&TetradState>,
    new_piece: bool,
) -> Result<(), String> {
    let height = field.height as usize;
    if field.rows.is_null() || height != setup.rules.height || field.width as usize != setup.rules.width {
        return Err(format!(
            "host sent a {}x{} field for a {}x{} game",
            field.width, field.height, setup.rules.width, setup.rules.height
        ));
    }
    // SAFETY: the header requires `rows` to hold `height` rows, valid during `update`.
    let rows = unsafe { std::slice::from_raw_parts(field.rows, height) };
    // The rows change only when a piece locks, so only a call for a new piece brings new
    // rows (the header promises it); the other calls' rows are the board already held.
    // A debug build checks the promise.
    if new_piece {
        tick.board.copy_rows(rows);
    } else {
        debug_assert!(
            Board::from_rows(setup.rules.width, height, rows) == tick.board,
            "host changed the field during a piece (new_piece was false)"
        );
    }
    tick.current = piece_from_abi(orientations, current)?;
    tick.next = piece_from_abi(orientations, next)?.map(|p| p.id);
    tick.new_piece = new_piece;
    fill_state(tick, orientations, state, new_piece)
}
