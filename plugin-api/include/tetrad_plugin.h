/*
 * tetrad_plugin.h - the C ABI of tetrad solver plugins, version 2.
 *
 * A tetrad plugin is a shared library (.so, .dylib or .dll) that plays Tetris: once per
 * clock tick the host shows it the board and the falling piece, and the plugin answers
 * with the actions to apply. This header is all a C (or C++) plugin needs; it mirrors the
 * Rust definitions in plugin-api/src/abi.rs exactly, and changes only together with
 * TETRAD_ABI_VERSION.
 *
 * Exports
 * -------
 * A plugin exports these functions with C linkage (declare them with TETRAD_EXPORT):
 *
 *   tetrad_abi_version   required  the ABI version the plugin was built for
 *   tetrad_plugin_info   required  name, version, author and description
 *   tetrad_create        required  starts one game, returns its instance
 *   tetrad_update_v2     one of    once per tick: the actions for the falling piece,
 *   tetrad_update          the two   with (v2) or without the TetradState
 *   tetrad_destroy       required  ends one game, frees its instance
 *   tetrad_last_error    optional  the message behind a failed update
 *
 * Versions
 * --------
 * Version 2 (this header) adds TetradState: the hold piece, the whole preview queue,
 * combo, back-to-back and incoming garbage, shown to tetrad_update_v2 at every tick; the
 * TETRAD_SOFT_DROP and TETRAD_HOLD actions; and a TetradGameInfo.preview that counts every
 * previewed piece. A plugin built for version 2 exports tetrad_update_v2, or
 * tetrad_update alone if it needs no state (the host calls tetrad_update_v2 when both are
 * there). A plugin built for version 1 (its tetrad_abi_version returns 1) keeps loading
 * and playing every preset: the host shows it the game as version 1 did, and it must
 * export tetrad_update.
 *
 * Life cycle
 * ----------
 * The host loads the library and calls tetrad_abi_version before anything else; a value
 * outside TETRAD_OLDEST_ABI_VERSION..TETRAD_ABI_VERSION of the host makes the host refuse
 * the plugin. It then reads tetrad_plugin_info. For every game it calls tetrad_create
 * once, tetrad_update_v2 (or tetrad_update) once per tick, and tetrad_destroy once when
 * the game ends (for whatever reason). A plugin is never unloaded while the process runs.
 *
 * Threads
 * -------
 * Several games may run at once on different threads, so tetrad_create may be called
 * concurrently for different games: keep no unsynchronised global mutable state. One
 * instance is only ever used by one thread at a time, but it may move to another thread
 * between calls, so do not keep per-game state in thread-local storage.
 *
 * Memory
 * ------
 * Every pointer the host passes is owned by the host and valid only for the duration of
 * the call it is passed to: copy whatever you need to keep. The instance returned by
 * tetrad_create is owned by the plugin and freed by it in tetrad_destroy.
 *
 * Coordinates
 * -----------
 * x is the column counted from the left (column 0 is the leftmost); y is the row counted
 * from the TOP (row 0 is the top row), so y grows downwards. Boards are at most 32
 * columns wide and 64 rows high. Rows above the board (y < 0) are open sky: a piece may
 * be partly or wholly above the board, and cells there never collide with anything.
 *
 * A piece position (TetradPiece x, y) is the top-left corner of the piece's square
 * rotation box, whose side is TetradPieceInfo.box_size. Cell (cx, cy) of orientation o
 * covers the board square (x + cx, y + cy). A piece fits at a position when every cell
 * has 0 <= x + cx < width and y + cy < height, and no cell on the board (y + cy >= 0)
 * covers a filled square of the field.
 *
 * Orientation k + 1 is orientation k turned clockwise, wrapping at orientation_count.
 * Under the `classic` preset turning never changes x or y (there are no wall kicks);
 * under `leiden` and `simplified` the host re-places y at the preset's entry row for the
 * new orientation after a turn (x is kept). Under `guideline` a turn follows the Super
 * Rotation System: the turned piece tries the offsets of its kick table in order (I has
 * its own, O does not kick) and takes the first where it fits; docs/rules.md lists them.
 *
 * Ticks
 * -----
 * Under `classic`, each tick the host calls tetrad_update, then applies, in order:
 *   1. the turn (ROTATE_CW or ROTATE_CCW), if the turned piece fits;
 *   2. the shift (MOVE_LEFT or MOVE_RIGHT), if the shifted piece fits;
 *   3. with DROP, the piece falls straight down to rest, or locks if it was already
 *      resting; without DROP, gravity moves it one row down, or locks it if it rests.
 * A piece that has been dropped to rest can therefore still shift (slide) on the next
 * tick before it locks.
 *
 * Under `leiden`, `simplified` and `guideline` there is no gravity: the piece hovers at
 * its entry row (under `guideline`, where it spawns, in the buffer above the field) while
 * it turns and shifts (same order and fit checks as above), and DROP makes it fall and
 * lock in the same tick. Under `guideline`, SOFT_DROP (version 2) makes it fall to rest
 * without locking, after the turn and the shift, so that later ticks can still turn and
 * shift it there; HOLD (version 2) is a tick of its own: nothing else in it applies, the
 * falling piece goes to the hold slot, and the held piece (or else the next) enters at its
 * spawn and is a new piece. HOLD acts once per piece (TetradState.hold_available).
 *
 * Errors
 * ------
 * C++ exceptions and longjmp must never cross any of these functions: catch them inside
 * the plugin and report failure through the return values described below.
 */
#ifndef TETRAD_PLUGIN_H
#define TETRAD_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------ */
/* Export macro                                                                          */
/* ------------------------------------------------------------------------------------ */

/*
 * TETRAD_EXPORT - put in front of each exported function so that it is visible in the
 * shared library even when the plugin is built with -fvisibility=hidden (GCC, Clang) or
 * without a .def file (Windows). Define TETRAD_EXPORT yourself before including this
 * header to override it.
 */
#ifndef TETRAD_EXPORT
#if defined(_WIN32) || defined(__CYGWIN__)
#define TETRAD_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define TETRAD_EXPORT __attribute__((visibility("default")))
#else
#define TETRAD_EXPORT
#endif
#endif

/* ------------------------------------------------------------------------------------ */
/* Constants                                                                             */
/* ------------------------------------------------------------------------------------ */

/*
 * The ABI version this header describes; tetrad_abi_version returns it (or 1, for a
 * plugin written for version 1). The host refuses a plugin built for a version outside
 * TETRAD_OLDEST_ABI_VERSION..TETRAD_ABI_VERSION.
 */
#define TETRAD_ABI_VERSION 2u
/* The oldest version a host of this version still loads. */
#define TETRAD_OLDEST_ABI_VERSION 1u

/* Action bits returned by tetrad_update, OR-ed together. */

/* Shift the piece one column left. */
#define TETRAD_MOVE_LEFT 0x1u
/* Shift the piece one column right. */
#define TETRAD_MOVE_RIGHT 0x2u
/* Turn the piece clockwise (to the next orientation). */
#define TETRAD_ROTATE_CW 0x4u
/* Turn the piece counter-clockwise (to the previous orientation). */
#define TETRAD_ROTATE_CCW 0x8u
/*
 * Drop the piece: under `classic` it falls straight down to rest, or locks if it was
 * already resting; under `leiden`, `simplified` and `guideline` it falls and locks at once.
 */
#define TETRAD_DROP 0x10u
/*
 * Version 2. Soft drop: under `guideline` the piece falls to rest without locking (a tuck
 * or a spin can follow); under the other presets it does nothing.
 */
#define TETRAD_SOFT_DROP 0x20u
/*
 * Version 2. Hold: under `guideline` the falling piece goes to the hold slot and the held
 * piece (or else the next) enters, once per piece; under the other presets it does
 * nothing.
 */
#define TETRAD_HOLD 0x40u
/*
 * Every action bit version 1 defines. Returning a bit outside the mask of the plugin's
 * version, MOVE_LEFT together with MOVE_RIGHT, or ROTATE_CW together with ROTATE_CCW is a
 * protocol violation: the host counts it and applies none of that tick's actions (gravity
 * still applies).
 */
#define TETRAD_ACTION_MASK 0x1fu
/* Every action bit version 2 defines. */
#define TETRAD_ACTION_MASK_V2 0x7fu
/*
 * Returned by tetrad_update when the plugin failed. The game ends as a plugin error; the
 * host then calls tetrad_last_error (if exported) for the message to show.
 */
#define TETRAD_UPDATE_FAILED 0x80000000u

/* TetradPiece.kind when there is no piece (the next piece while the preview is off). */
#define TETRAD_NO_PIECE (-1)

/* Room in TetradState.queue: the longest preview the ABI shows. */
#define TETRAD_MAX_QUEUE 8

/* Values of TetradGameInfo.preset. */

/* WinTetris demo rules: gravity, DROP falls to rest, a resting piece may slide a tick. */
#define TETRAD_PRESET_CLASSIC 0u
/* Leiden course rules: no gravity, choose orientation and column, DROP falls and locks. */
#define TETRAD_PRESET_LEIDEN 1u
/* Research benchmark rules: no gravity, pieces enter above the board, DROP locks. */
#define TETRAD_PRESET_SIMPLIFIED 2u
/*
 * Guideline rules: 20 buffer rows over the field (counted in height), SRS turns with wall
 * kicks, a 7-bag, no gravity, DROP is a hard drop. Presets may be added in this version:
 * a plugin that does not know TetradGameInfo.preset should refuse it from tetrad_create.
 */
#define TETRAD_PRESET_GUIDELINE 3u

/* ------------------------------------------------------------------------------------ */
/* Types                                                                                 */
/* ------------------------------------------------------------------------------------ */

/*
 * TetradCell - one cell of one orientation of a piece, relative to the top-left corner
 * of the piece's rotation box (y grows downwards). Both offsets lie in 0..box_size-1.
 */
typedef struct TetradCell {
    /* Column offset within the rotation box. */
    int8_t x;
    /* Row offset within the rotation box. */
    int8_t y;
} TetradCell;

/*
 * TetradPieceInfo - one piece kind of the game's piece set, with the cells of every
 * orientation. Passed to tetrad_create inside TetradGameInfo; it and everything it
 * points to are owned by the host and valid only during that call.
 */
typedef struct TetradPieceInfo {
    /* NUL-terminated display name ("T", or the name given in a piece-set file). */
    const char *name;
    /* Side of the square rotation box the orientations are drawn in (at most 8). */
    uint32_t box_size;
    /*
     * Number of distinct orientations (1 to 4). Orientation k + 1 is orientation k turned
     * clockwise; turning clockwise from the last orientation gives orientation 0.
     */
    uint32_t orientation_count;
    /* Number of cells in each orientation (the same for every orientation). */
    uint32_t cell_count;
    /*
     * orientation_count * cell_count cells, orientation by orientation: the cells of
     * orientation o are cells[o * cell_count] .. cells[o * cell_count + cell_count - 1].
     */
    const TetradCell *cells;
    /* Column of the rotation box's left edge when the piece appears (orientation 0). */
    int32_t spawn_x;
    /*
     * Row of the rotation box's top edge when the piece appears (may be negative). Under
     * guideline the piece then drops one row at once when that row is free: the falling
     * piece passed to tetrad_update is where it is.
     */
    int32_t spawn_y;
} TetradPieceInfo;

/*
 * TetradGameInfo - what a plugin learns once per game, at tetrad_create. It and
 * everything it points to are owned by the host and valid only during that call.
 */
typedef struct TetradGameInfo {
    /*
     * The version of this conversation: the plugin's own (1 for a version 1 plugin), at
     * most the host's TETRAD_ABI_VERSION.
     */
    uint32_t abi_version;
    /* The rules: TETRAD_PRESET_CLASSIC, _LEIDEN, _SIMPLIFIED or _GUIDELINE (see above). */
    uint32_t preset;
    /* Board columns (1 to 32). */
    uint32_t width;
    /* Board rows (1 to 64); under `leiden` this includes the three rows above the well,
     * under `guideline` the 20 rows of buffer above the field. */
    uint32_t height;
    /*
     * Next pieces shown to the plugin, 0 to TETRAD_MAX_QUEUE (`guideline` shows up to 6);
     * TetradState.queue holds them. A version 1 plugin is told 0 or 1 (1 when a preset
     * previews more: next is the only one version 1 shows). With 0, next is empty.
     */
    uint32_t preview;
    /* Number of entries in pieces. */
    uint32_t piece_count;
    /* The piece set; TetradPiece.kind indexes this array. */
    const TetradPieceInfo *pieces;
    /* Seed for the plugin's own randomness, so that a game can be replayed exactly. */
    uint64_t seed;
} TetradGameInfo;

/*
 * TetradField - the board at one tick, without the falling piece. Passed to
 * tetrad_update; owned by the host and valid only during that call.
 */
typedef struct TetradField {
    /* Board columns; the same as TetradGameInfo.width. */
    uint32_t width;
    /* Board rows; the same as TetradGameInfo.height. rows has this many entries. */
    uint32_t height;
    /*
     * The rows, top first: rows[y] bit x (rows[y] >> x & 1) is set when the square at
     * column x, row y is filled. Bits at and above width are clear. The falling piece is
     * not included. Never NULL.
     */
    const uint32_t *rows;
} TetradField;

/*
 * TetradPiece - the falling piece, or the next piece. Passed to tetrad_update; owned by
 * the host and valid only during that call.
 */
typedef struct TetradPiece {
    /* Index into TetradGameInfo.pieces, or TETRAD_NO_PIECE when there is no piece. */
    int32_t kind;
    /* Orientation index, 0 .. orientation_count - 1. */
    int32_t orientation;
    /* Column of the rotation box's left edge (see "Coordinates" above). */
    int32_t x;
    /* Row of the rotation box's top edge; negative when the box is partly above the board. */
    int32_t y;
} TetradPiece;

/*
 * TetradState - what version 2 adds at each tick: the hold slot, the whole preview queue,
 * and the game's scoring and garbage state. Passed to tetrad_update_v2; owned by the host
 * and valid only during that call.
 */
typedef struct TetradState {
    /*
     * sizeof(TetradState) as the host knows it. Later versions may append fields; read
     * only those that fit in size.
     */
    uint32_t size;
    /* The held piece's kind, or TETRAD_NO_PIECE (nothing held, or rules without hold). */
    int32_t hold;
    /*
     * 1 if TETRAD_HOLD this tick would act: the rules have hold and the falling piece did
     * not come out of a hold. 0 otherwise.
     */
    uint32_t hold_available;
    /*
     * Entries of queue in use: the previewed pieces (TetradGameInfo.preview of them,
     * fewer at the end of a given sequence).
     */
    uint32_t queue_len;
    /*
     * The previewed pieces' kinds, the next one first (queue[0] == next->kind); entries
     * past queue_len are TETRAD_NO_PIECE.
     */
    int32_t queue[TETRAD_MAX_QUEUE];
    /*
     * Line-clearing locks in a row up to the last lock: 0 when the last lock cleared
     * nothing, 1 after a first clear, and so on (the combo bonus grows with it).
     */
    uint32_t combo;
    /*
     * 1 if the last clear was a difficult one (four lines, or a spin that cleared lines),
     * so another difficult clear earns the back-to-back bonus. 0 otherwise.
     */
    uint32_t back_to_back;
    /*
     * Garbage rows sent by the opponent that rise when this piece locks, unless its clears
     * cancel them (versus only; 0 otherwise).
     */
    uint32_t pending_garbage;
} TetradState;

/*
 * TetradPluginInfo - a plugin's description of itself, returned by tetrad_plugin_info.
 * Owned by the plugin: the struct and every string in it must stay valid for the life of
 * the process (use static storage). All strings are NUL-terminated UTF-8 and not NULL.
 */
typedef struct TetradPluginInfo {
    /* The ABI version the plugin was built for: what tetrad_abi_version returns. */
    uint32_t abi_version;
    /* Short name, the one users type to pick the plugin ("c-example"). */
    const char *name;
    /* Plugin version ("0.1.0"). */
    const char *version;
    /* Author. */
    const char *author;
    /* One-line description. */
    const char *description;
} TetradPluginInfo;

/*
 * Layout checks: on 64-bit targets these sizes are part of the ABI, and the Rust side
 * asserts the same numbers. A failure here means the compiler packs or pads the structs
 * differently from the host, and the plugin would misread everything it is given.
 */
#if defined(UINTPTR_MAX) && UINTPTR_MAX == 0xffffffffffffffffu
#if defined(__cplusplus) && (__cplusplus >= 201103L || (defined(_MSVC_LANG) && _MSVC_LANG >= 201103L))
#define TETRAD_STATIC_ASSERT_(cond, msg) static_assert(cond, msg)
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define TETRAD_STATIC_ASSERT_(cond, msg) _Static_assert(cond, msg)
#endif
#ifdef TETRAD_STATIC_ASSERT_
TETRAD_STATIC_ASSERT_(sizeof(TetradCell) == 2, "TetradCell must be 2 bytes");
TETRAD_STATIC_ASSERT_(sizeof(TetradPieceInfo) == 40, "TetradPieceInfo must be 40 bytes");
TETRAD_STATIC_ASSERT_(sizeof(TetradGameInfo) == 40, "TetradGameInfo must be 40 bytes");
TETRAD_STATIC_ASSERT_(sizeof(TetradField) == 16, "TetradField must be 16 bytes");
TETRAD_STATIC_ASSERT_(sizeof(TetradPiece) == 16, "TetradPiece must be 16 bytes");
TETRAD_STATIC_ASSERT_(sizeof(TetradPluginInfo) == 40, "TetradPluginInfo must be 40 bytes");
TETRAD_STATIC_ASSERT_(sizeof(TetradState) == 60, "TetradState must be 60 bytes");
#undef TETRAD_STATIC_ASSERT_
#endif
#endif

/* ------------------------------------------------------------------------------------ */
/* Functions a plugin exports                                                            */
/* ------------------------------------------------------------------------------------ */

/*
 * tetrad_abi_version - the ABI version the plugin was built for. Required.
 *
 * Return TETRAD_ABI_VERSION (or 1, for a plugin written for version 1). The host calls
 * this first, before any other function, and refuses the plugin if the value lies outside
 * its TETRAD_OLDEST_ABI_VERSION..TETRAD_ABI_VERSION. It may be called from any thread, any
 * number of times.
 */
TETRAD_EXPORT uint32_t tetrad_abi_version(void);

/*
 * tetrad_plugin_info - the plugin's name, version, author and description. Required.
 *
 * Called after tetrad_abi_version, from any thread, any number of times. The returned
 * pointer must not be NULL, and it and the strings it points to must stay valid and
 * unchanged for the life of the process: return the address of a static const struct.
 */
TETRAD_EXPORT const TetradPluginInfo *tetrad_plugin_info(void);

/*
 * tetrad_create - starts one game and returns its instance. Required.
 *
 * Called once per game. Several games may be created at the same time from different
 * threads, so this function must not touch unsynchronised global mutable state.
 *
 * game       The rules and the piece set. Never NULL. It and everything it points to
 *            (pieces, their names and cells) are owned by the host and valid only during
 *            this call: copy what you need into the instance. game->seed should seed the
 *            plugin's own randomness, so that a seeded game plays the same every time.
 * options    The user's options for this plugin: a NUL-terminated `key=value,key=value`
 *            string. Never NULL; may be empty (no options). Owned by the host, valid only
 *            during this call. Unknown keys and values that do not parse should make
 *            create fail, so that the user learns of a typo at once.
 * error      A host-owned buffer of error_len bytes (error_len counts the terminating
 *            NUL) for the failure message. Never NULL, and error_len is at least 1. Valid
 *            only during this call; leave it alone on success.
 *
 * Returns a non-NULL instance pointer, owned by the plugin and opaque to the host; the
 * host passes it back to the update function, tetrad_last_error and tetrad_destroy.
 *
 * On failure, returns NULL after writing a NUL-terminated, one-line message into error
 * (truncated to fit); the host shows it to the user verbatim, so make it say what was
 * wrong ("unknown option `foo`"). tetrad_destroy is not called after a failed create.
 */
TETRAD_EXPORT void *tetrad_create(const TetradGameInfo *game, const char *options, char *error,
                                  size_t error_len);

/*
 * tetrad_update - the actions for the falling piece at this tick. Required of a version 1
 * plugin; a version 2 plugin exports it, tetrad_update_v2, or both.
 *
 * Called once per clock tick while the game runs. An instance is only ever used by one
 * thread at a time, but successive calls may come from different threads.
 *
 * instance   The value tetrad_create returned. Never NULL.
 * field      The board, without the falling piece. Never NULL.
 * current    The falling piece. Never NULL, and never TETRAD_NO_PIECE: update is only
 *            called while a piece is in play.
 * next       The next piece. Never NULL; next->kind is TETRAD_NO_PIECE when the preview is
 *            off (TetradGameInfo.preview == 0), and its other fields are then meaningless.
 * new_piece  True on the first call for each piece (the first tick after it appeared),
 *            false on the following ticks of the same piece. The field changes only when
 *            a piece locks, so a call with new_piece false always brings the same rows as
 *            the call before it: a plugin may read the rows on new pieces alone (the Rust
 *            SDK does). A host must keep to this.
 *
 * field, current and next and everything they point to are owned by the host and valid
 * only during this call.
 *
 * Returns the OR of the TETRAD_MOVE_*, TETRAD_ROTATE_* and TETRAD_DROP bits (and, from a
 * version 2 plugin, TETRAD_SOFT_DROP and TETRAD_HOLD) to apply this tick (0 for none); see
 * "Ticks" above for the order the host applies them in. Asking for both shifts, both
 * turns, or any bit outside the mask of the plugin's version is a protocol violation:
 * the host counts it and applies none of the actions that tick (under `classic`, gravity
 * still moves the piece).
 *
 * Return TETRAD_UPDATE_FAILED to end the game as a plugin error; the host then calls
 * tetrad_last_error, if the plugin exports it, for the message, and tetrad_update is not
 * called again for this instance (tetrad_destroy still is).
 */
TETRAD_EXPORT uint32_t tetrad_update(void *instance, const TetradField *field,
                                     const TetradPiece *current, const TetradPiece *next,
                                     bool new_piece);

/*
 * tetrad_update_v2 - tetrad_update with the TetradState. Version 2; the host calls it in
 * place of tetrad_update when a version 2 plugin exports it.
 *
 * Everything tetrad_update says holds, and:
 * state      The hold slot, the preview queue, combo, back-to-back and pending garbage at
 *            this tick. Never NULL. Owned by the host and valid only during this call.
 *            As with the field, only a call with new_piece true brings a new state, with one
 *            exception: pending_garbage may change on any call (the opponent sends
 *            garbage). A plugin may read the rest on new pieces alone (the Rust SDK does).
 *            A host must keep to this.
 */
TETRAD_EXPORT uint32_t tetrad_update_v2(void *instance, const TetradField *field,
                                        const TetradPiece *current, const TetradPiece *next,
                                        const TetradState *state, bool new_piece);

/*
 * tetrad_destroy - ends one game and frees its instance. Required.
 *
 * Called exactly once for every instance a successful tetrad_create returned, when its
 * game ends for any reason (game over, plugin error, or the host stopping the game),
 * possibly on a different thread from earlier calls. instance is never NULL, and the
 * host never uses it again after this call.
 */
TETRAD_EXPORT void tetrad_destroy(void *instance);

/*
 * tetrad_last_error - the message behind a failed update. Optional.
 *
 * Called after tetrad_update or tetrad_update_v2 returned TETRAD_UPDATE_FAILED, before any other call on that
 * instance. instance is never NULL. Returns a NUL-terminated, one-line message owned by
 * the plugin, valid until the next call of any function on that instance (including
 * tetrad_destroy), or NULL when there is no message. The host shows the message to the
 * user verbatim.
 */
TETRAD_EXPORT const char *tetrad_last_error(void *instance);

/*
 * tetrad_set_think_budget - the time a piece's decision may take. Optional.
 *
 * Called only under a time control (--tc, --st), just before the update of each piece's
 * first tick (new_piece true), on the thread that makes that update. instance is never
 * NULL. micros is that piece's share of the instance's clock, in microseconds, at least 1.
 * Every update of the piece is charged to the clock when it returns, and an update is
 * never stopped, so a plugin that searches stops well within micros. A plugin that does
 * not export this function is never told, and plays as it would without a clock.
 */
TETRAD_EXPORT void tetrad_set_think_budget(void *instance, uint64_t micros);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TETRAD_PLUGIN_H */
