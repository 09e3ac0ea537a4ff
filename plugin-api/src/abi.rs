//! The frozen C ABI: action bits, the structs passed to `create` and `update`, and their
//! layout. `include/tetrad_plugin.h` mirrors this file; a test compiles a C plugin against
//! the header and plays it, so the two cannot drift apart.
//!
//! These types change only with [`ABI_VERSION`]; the game model may change freely and
//! never crosses the boundary. The host still speaks every version from
//! [`OLDEST_ABI_VERSION`] on: a plugin is shown the game as the version it was built for
//! has it.

#[cfg(feature = "abi")]
use abi_stable::StableAbi;
use std::ffi::{c_char, CString};

/// The ABI version this crate speaks. Version 2 added [`TetradState`] (the hold piece, the
/// whole preview queue, combo, back-to-back and incoming garbage), the [`SOFT_DROP`] and
/// [`HOLD`] actions, and a `preview` in the game info that counts every previewed piece.
pub const ABI_VERSION: u32 = 2;

/// The oldest ABI version the host still loads. A plugin built for a version outside
/// `OLDEST_ABI_VERSION..=ABI_VERSION` is refused at load.
pub const OLDEST_ABI_VERSION: u32 = 1;

/// Shift the piece one column left.
pub const MOVE_LEFT: u32 = 0x1;
/// Shift the piece one column right.
pub const MOVE_RIGHT: u32 = 0x2;
/// Turn the piece clockwise.
pub const ROTATE_CW: u32 = 0x4;
/// Turn the piece counter-clockwise.
pub const ROTATE_CCW: u32 = 0x8;
/// Drop the piece (see the presets in the README for what follows).
pub const DROP: u32 = 0x10;
/// Soft drop (version 2): fall to rest without locking, so the piece can still shift and
/// turn there (a tuck, a spin). Under presets without soft drop it does nothing.
pub const SOFT_DROP: u32 = 0x20;
/// Hold (version 2): under presets with hold, the falling piece goes to the hold slot and
/// the held piece (or the next) enters; once per piece. Elsewhere it does nothing.
pub const HOLD: u32 = 0x40;
/// Every action bit version 1 defines; any other bit from a version 1 plugin is a
/// protocol violation.
pub const ACTION_MASK: u32 = 0x1f;
/// Every action bit version 2 defines.
pub const ACTION_MASK_V2: u32 = ACTION_MASK | SOFT_DROP | HOLD;

/// The action bits a plugin built for ABI `version` may answer with.
pub const fn action_mask(version: u32) -> u32 {
    if version >= 2 {
        ACTION_MASK_V2
    } else {
        ACTION_MASK
    }
}
/// Returned by a C plugin's `tetrad_update` when it failed; the game ends as a plugin
/// error with the text of `tetrad_last_error`, if the plugin exports it.
pub const UPDATE_FAILED: u32 = 0x8000_0000;

/// `TetradPiece::kind` when there is no piece (the preview is off).
pub const NO_PIECE: i32 = -1;

/// Room in [`TetradState::queue`]: the longest preview the ABI shows.
pub const MAX_QUEUE: usize = 8;

/// One cell of an orientation, relative to the piece position (y grows downwards).
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TetradCell {
    /// Column offset within the rotation box.
    pub x: i8,
    /// Row offset within the rotation box.
    pub y: i8,
}

/// One piece kind of the game's piece set, with every orientation's cells.
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug)]
pub struct TetradPieceInfo {
    /// NUL-terminated name ("T", or the name in a piece-set file).
    pub name: *const c_char,
    /// Side of the square rotation box the orientations are drawn in.
    pub box_size: u32,
    /// Distinct orientations; `k + 1` is `k` turned clockwise (wrapping).
    pub orientation_count: u32,
    /// Cells per orientation.
    pub cell_count: u32,
    /// `orientation_count * cell_count` cells, orientation by orientation.
    pub cells: *const TetradCell,
    /// Column of the rotation box when the piece appears.
    pub spawn_x: i32,
    /// Row of the rotation box when the piece appears (may be negative). Under `guideline`
    /// the piece then drops one row at once when that row is free ([`crate::Rules::enter`]).
    pub spawn_y: i32,
}

/// What a plugin learns once, at `create`.
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug)]
pub struct TetradGameInfo {
    /// The ABI version of this conversation: the plugin's own (1 for a version 1
    /// plugin, whose `create` checks it), at most the host's [`ABI_VERSION`].
    pub abi_version: u32,
    /// 0 `classic`, 1 `leiden`, 2 `simplified`, 3 `guideline`.
    pub preset: u32,
    /// Board columns.
    pub width: u32,
    /// Board rows.
    pub height: u32,
    /// Next pieces shown. Version 2: every one, up to [`MAX_QUEUE`] (`TetradState::queue`
    /// holds them). Version 1: 0 or 1, since `update`'s `next` is the only one that
    /// version shows; a preset that shows more, as `guideline` does, gives 1 there.
    pub preview: u32,
    /// Entries in `pieces`.
    pub piece_count: u32,
    /// The piece set.
    pub pieces: *const TetradPieceInfo,
    /// Seed for the plugin's own randomness.
    pub seed: u64,
}

/// The board at one tick: one `u32` per row, row 0 at the top, bit x for column x.
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug)]
pub struct TetradField {
    /// Board columns.
    pub width: u32,
    /// Board rows; `rows` has this many entries.
    pub height: u32,
    /// The rows, top first. The falling piece is not included.
    pub rows: *const u32,
}

/// The falling or the next piece.
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TetradPiece {
    /// Index into the piece set, or [`NO_PIECE`].
    pub kind: i32,
    /// Orientation index.
    pub orientation: i32,
    /// Column of the rotation box's left edge.
    pub x: i32,
    /// Row of the rotation box's top edge.
    pub y: i32,
}

/// What version 2 adds to each `update`: the hold slot, the whole preview queue, and the
/// game's scoring and garbage state. Passed by pointer, valid during the call. Only a call
/// for a new piece brings a new state, except `pending_garbage`, which may change on any
/// call.
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TetradState {
    /// `size_of::<TetradState>()` as the host knows it: later versions may append fields,
    /// and a plugin reads only those that fit in `size`.
    pub size: u32,
    /// The held piece's kind, or [`NO_PIECE`] (nothing held, or rules without hold).
    pub hold: i32,
    /// 1 if a [`HOLD`] this tick would act: the rules have hold and the falling piece did
    /// not come out of a hold. 0 otherwise.
    pub hold_available: u32,
    /// Entries of `queue` in use: the previewed pieces (fewer at the end of a given
    /// sequence, 0 with the preview off).
    pub queue_len: u32,
    /// The previewed pieces' kinds, the next one first (`queue[0]` is `next.kind`); unused
    /// entries are [`NO_PIECE`].
    pub queue: [i32; MAX_QUEUE],
    /// Line-clearing locks in a row up to the last lock: 0 when the last lock cleared
    /// nothing, 1 after a first clear, and so on. The combo bonus grows with it.
    pub combo: u32,
    /// 1 if the last clear was a difficult one (four lines, or a spin that cleared
    /// lines): another difficult clear now earns the back-to-back bonus. 0 otherwise.
    pub back_to_back: u32,
    /// Garbage rows sent by the opponent that rise when this piece locks, unless its
    /// clears cancel them (versus only; 0 otherwise).
    pub pending_garbage: u32,
}

impl TetradState {
    /// The state with nothing held, nothing previewed and nothing pending.
    pub const EMPTY: TetradState = TetradState {
        size: std::mem::size_of::<TetradState>() as u32,
        hold: NO_PIECE,
        hold_available: 0,
        queue_len: 0,
        queue: [NO_PIECE; MAX_QUEUE],
        combo: 0,
        back_to_back: 0,
        pending_garbage: 0,
    };
}

/// A C plugin's description of itself, returned by `tetrad_plugin_info`.
#[repr(C)]
#[cfg_attr(feature = "abi", derive(StableAbi))]
#[derive(Clone, Copy, Debug)]
pub struct TetradPluginInfo {
    /// The ABI version the plugin was built for.
    pub abi_version: u32,
    /// Short name, NUL-terminated.
    pub name: *const c_char,
    /// Version, NUL-terminated.
    pub version: *const c_char,
    /// Author, NUL-terminated.
    pub author: *const c_char,
    /// One-line description, NUL-terminated.
    pub description: *const c_char,
}

// Layout asserts: the header promises these sizes on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = {
    use std::mem::{align_of, size_of};
    assert!(size_of::<TetradCell>() == 2);
    assert!(size_of::<TetradPieceInfo>() == 40 && align_of::<TetradPieceInfo>() == 8);
    assert!(size_of::<TetradGameInfo>() == 40 && align_of::<TetradGameInfo>() == 8);
    assert!(size_of::<TetradField>() == 16);
    assert!(size_of::<TetradPiece>() == 16);
    assert!(size_of::<TetradPluginInfo>() == 40);
    assert!(size_of::<TetradState>() == 60 && align_of::<TetradState>() == 4);
};

impl TetradPiece {
    /// The falling piece `id` at `pos`.
    #[inline]
    pub fn falling(id: crate::PieceId, pos: crate::PiecePos) -> TetradPiece {
        TetradPiece {
            kind: i32::from(id.0),
            orientation: i32::from(pos.orientation),
            x: i32::from(pos.x),
            y: i32::from(pos.y),
        }
    }

    /// The previewed piece, or [`TetradPiece::NONE`] when there is none.
    #[inline]
    pub fn next(id: Option<crate::PieceId>) -> TetradPiece {
        id.map_or(TetradPiece::NONE, |id| TetradPiece {
            kind: i32::from(id.0),
            ..TetradPiece::NONE
        })
    }

    /// The "no piece" value.
    pub const NONE: TetradPiece = TetradPiece {
        kind: NO_PIECE,
        orientation: 0,
        x: 0,
        y: 0,
    };
}

/// Owned storage behind a [`TetradGameInfo`]: names, cells and piece records that the
/// raw pointers point into. Keep it alive while the info is in use.
pub struct GameInfoBuf {
    _names: Vec<CString>,
    _cells: Vec<Vec<TetradCell>>,
    pieces: Vec<TetradPieceInfo>,
    info: TetradGameInfo,
}

// SAFETY: the raw pointers in `pieces` and `info` point into heap buffers owned by this
// value (never handed out mutably), so moving or sharing it between threads is sound.
unsafe impl Send for GameInfoBuf {}
// SAFETY: as above; all access through `&self` is read-only.
unsafe impl Sync for GameInfoBuf {}

impl GameInfoBuf {
    /// Lays out the game info for these rules, pieces and plugin seed, as ABI `version`
    /// shows it (a version 1 plugin sees at most one previewed piece).
    pub fn new(rules: &crate::Rules, pieces: &crate::PieceSet, seed: u64, version: u32) -> GameInfoBuf {
        let mut names = Vec::with_capacity(pieces.len());
        let mut cells = Vec::with_capacity(pieces.len());
        let mut records = Vec::with_capacity(pieces.len());
        for kind in pieces.kinds() {
            // Piece names come from identifiers in piece-set files; an interior NUL
            // cannot occur there, and would only shorten the name.
            let name = CString::new(kind.name().replace('\0', "")).unwrap_or_default();
            let all: Vec<TetradCell> = kind
                .orientations()
                .iter()
                .flat_map(|o| o.cells().iter().map(|&(x, y)| TetradCell { x, y }))
                .collect();
            let spawn = rules.spawn(kind);
            records.push(TetradPieceInfo {
                name: name.as_ptr(),
                box_size: u32::from(kind.box_size()),
                orientation_count: kind.orientations().len() as u32,
                cell_count: kind.cell_count() as u32,
                cells: all.as_ptr(),
                spawn_x: i32::from(spawn.x),
                spawn_y: i32::from(spawn.y),
            });
            names.push(name);
            cells.push(all);
        }
        let info = TetradGameInfo {
            abi_version: version.min(ABI_VERSION),
            preset: rules.preset.abi_id(),
            width: rules.width as u32,
            height: rules.height as u32,
            preview: if version >= 2 {
                rules.preview.min(MAX_QUEUE)
            } else {
                rules.preview.min(1)
            } as u32,
            piece_count: records.len() as u32,
            pieces: records.as_ptr(),
            seed,
        };
        GameInfoBuf {
            _names: names,
            _cells: cells,
            pieces: records,
            info,
        }
    }

    /// The info, pointing into this buffer.
    pub fn info(&self) -> &TetradGameInfo {
        debug_assert_eq!(self.info.pieces, self.pieces.as_ptr());
        &self.info
    }
}
