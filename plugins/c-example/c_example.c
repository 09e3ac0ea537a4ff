/*
 * c_example.c - a small but complete tetrad plugin in plain C99.
 *
 * When a piece appears it tries every orientation and every column, drops the piece
 * straight down, and scores the resulting board with a well-known four-term heuristic
 * (aggregate height, lines cleared, holes, bumpiness). It then turns and shifts towards
 * the best spot one step per tick and drops once it is there.
 *
 * Everything it knows about the pieces comes from the game info, so it plays any piece
 * set on any board the ABI can carry.
 */
#include "tetrad_plugin.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WIDTH 32    /* the widest board a TetradField row (uint32_t) can hold */
#define MAX_HEIGHT 64   /* the tallest board the ABI allows */
#define MAX_BOX 8       /* the largest rotation box the ABI allows */
#define LOST (-1e9)     /* score of a placement that leaves a cell above the board */

/* Heuristic weights: Yiyuan Lee's well-known tuned set, rounded. `holes=` overrides one. */
#define W_HEIGHT 0.51
#define W_LINES 0.76
#define W_HOLES 0.36
#define W_BUMPINESS 0.18

/* One piece kind, copied at create because the host's game info dies with the call. */
typedef struct {
    int box_size, orientation_count, cell_count;
    const TetradCell *cells; /* points into Bot.cells */
} Shape;

/* One game's state. Nothing is global, so games on other threads never interfere. */
typedef struct {
    int width, height, piece_count;
    Shape *shapes;
    TetradCell *cells;
    double holes_weight;
    int target_orientation, target_x; /* where the current piece should go */
    int last_orientation, last_x;     /* where it was when we last asked it to move */
    bool moving;                      /* whether last tick asked for a turn or a shift */
    char error[160];                  /* for tetrad_last_error */
} Bot;

static const TetradPluginInfo INFO = {
    TETRAD_ABI_VERSION, "c-example", "0.1.0", "the tetrad authors",
    "example C plugin: best single-piece placement by a four-term heuristic",
};

TETRAD_EXPORT uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }

TETRAD_EXPORT const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }

/* Writes a create error for the host; returns false so callers can `return fail(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool fail(char *error, size_t error_len, const char *format, ...) {
    if (error != NULL && error_len > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(error, error_len, format, args); /* always NUL-terminates, truncating */
        va_end(args);
    }
    return false;
}

/* Whether the piece fits: inside the walls, above the floor, on empty squares. Rows
 * above the board (y < 0) are open sky, so cells there never collide. */
static bool fits(const Bot *bot, const uint32_t *rows, const Shape *s, int o, int x, int y) {
    const TetradCell *c = s->cells + o * s->cell_count;
    for (int i = 0; i < s->cell_count; i++) {
        int cx = x + c[i].x, cy = y + c[i].y;
        if (cx < 0 || cx >= bot->width || cy >= bot->height) return false;
        if (cy >= 0 && (rows[cy] >> cx & 1u)) return false;
    }
    return true;
}

/* Scores the board after locking the piece at (o, x, y) and clearing full rows. */
static double evaluate(const Bot *bot, const uint32_t *rows, const Shape *s, int o, int x, int y) {
    uint32_t board[MAX_HEIGHT];
    const uint32_t full = bot->width == 32 ? UINT32_MAX : (1u << bot->width) - 1u;
    const TetradCell *c = s->cells + o * s->cell_count;
    memcpy(board, rows, (size_t)bot->height * sizeof board[0]);
    for (int i = 0; i < s->cell_count; i++) {
        int cy = y + c[i].y;
        if (cy < 0) return LOST; /* a cell left above the board ends the game */
        board[cy] |= 1u << (x + c[i].x);
    }
    /* Clear full rows by copying the others downwards, bottom first. */
    int lines = 0, dst = bot->height - 1;
    for (int src = bot->height - 1; src >= 0; src--) {
        if ((board[src] & full) == full) lines++;
        else board[dst--] = board[src];
    }
    while (dst >= 0) board[dst--] = 0;

    int aggregate = 0, holes = 0, bumpiness = 0, previous = 0;
    for (int col = 0; col < bot->width; col++) {
        int top = 0;
        while (top < bot->height && !(board[top] >> col & 1u)) top++;
        int height = bot->height - top; /* rows from the topmost filled cell to the floor */
        for (int row = top + 1; row < bot->height; row++) holes += !(board[row] >> col & 1u);
        if (col > 0) bumpiness += abs(height - previous);
        aggregate += height;
        previous = height;
    }
    return -W_HEIGHT * aggregate + W_LINES * lines - bot->holes_weight * holes -
           W_BUMPINESS * bumpiness;
}

/* Picks the target (orientation, x) for a new piece: every orientation and column where
 * the piece fits at its current row, dropped straight down. */
static void plan(Bot *bot, const uint32_t *rows, const TetradPiece *piece) {
    const Shape *s = &bot->shapes[piece->kind];
    double best = -HUGE_VAL;
    /* If nothing fits, stay put and drop: the game is lost either way. */
    bot->target_orientation = piece->orientation;
    bot->target_x = piece->x;
    for (int o = 0; o < s->orientation_count; o++) {
        /* The box may hang over the left wall when its left columns are empty. */
        for (int x = 1 - s->box_size; x < bot->width; x++) {
            int y = piece->y;
            if (!fits(bot, rows, s, o, x, y)) continue;
            while (fits(bot, rows, s, o, x, y + 1)) y++;
            double score = evaluate(bot, rows, s, o, x, y);
            if (score > best) {
                best = score;
                bot->target_orientation = o;
                bot->target_x = x;
            }
        }
    }
}

/* Reads `holes=<number>` (the only option); comma- or space-separated pairs, like the
 * Rust SDK. Parses by hand, because strtok keeps global state and games run in
 * parallel. */
static bool parse_options(Bot *bot, const char *p, char *error, size_t error_len) {
    bool seen_holes = false;
    for (size_t len; *p != '\0'; p += len + (p[len] != '\0')) {
        len = strcspn(p, ", \t\r\n");
        if (len == 0) continue; /* empty pair */
        const char *eq = memchr(p, '=', len);
        if (eq == NULL)
            return fail(error, error_len, "option `%.*s` is not of the form key=value",
                        (int)len, p);
        int key_len = (int)(eq - p), value_len = (int)len - key_len - 1;
        if (key_len != 5 || memcmp(p, "holes", 5) != 0)
            return fail(error, error_len, "unknown option `%.*s` (known: holes)", key_len, p);
        if (seen_holes) return fail(error, error_len, "option `holes` is given twice");
        seen_holes = true;
        /* strtod needs a terminated string; a number longer than 63 chars is not sane. */
        char value[64], *end = value;
        if (value_len > 0 && value_len < (int)sizeof value) {
            memcpy(value, eq + 1, (size_t)value_len);
            value[value_len] = '\0';
            errno = 0;
            bot->holes_weight = strtod(value, &end);
        }
        if (end == value || end != value + value_len || errno == ERANGE ||
            !isfinite(bot->holes_weight))
            return fail(error, error_len, "option `holes`: cannot read `%.*s` as a number",
                        value_len, eq + 1);
    }
    return true;
}

TETRAD_EXPORT void tetrad_destroy(void *instance) {
    Bot *bot = instance;
    if (bot == NULL) return;
    free(bot->cells);
    free(bot->shapes);
    free(bot);
}

/* Checks what the ABI promises before trusting it, and counts the cells to copy. */
static bool check_game(const TetradGameInfo *game, size_t *total, char *error, size_t error_len) {
    if (game->abi_version != TETRAD_ABI_VERSION)
        return fail(error, error_len, "host speaks ABI version %u, c-example speaks %u",
                    (unsigned)game->abi_version, TETRAD_ABI_VERSION);
    if (game->width < 1 || game->width > MAX_WIDTH || game->height < 1 ||
        game->height > MAX_HEIGHT || game->piece_count < 1 || game->pieces == NULL)
        return fail(error, error_len, "unsupported game: %ux%u board, %u pieces",
                    (unsigned)game->width, (unsigned)game->height, (unsigned)game->piece_count);
    *total = 0;
    for (uint32_t k = 0; k < game->piece_count; k++) {
        const TetradPieceInfo *p = &game->pieces[k];
        uint32_t box = p->box_size, n = p->orientation_count * p->cell_count;
        /* The bounds keep n small and every cell inside the box the planner scans. */
        bool ok = p->cells != NULL && box >= 1 && box <= MAX_BOX && p->orientation_count >= 1 &&
                  p->orientation_count <= 4 && p->cell_count >= 1 && p->cell_count <= box * box;
        for (uint32_t i = 0; ok && i < n; i++)
            ok = p->cells[i].x >= 0 && (uint32_t)p->cells[i].x < box && p->cells[i].y >= 0 &&
                 (uint32_t)p->cells[i].y < box;
        if (!ok) return fail(error, error_len, "piece %u has an unusable shape", (unsigned)k);
        *total += n;
    }
    return true;
}

TETRAD_EXPORT void *tetrad_create(const TetradGameInfo *game, const char *options, char *error,
                                  size_t error_len) {
    size_t total = 0;
    if (!check_game(game, &total, error, error_len)) return NULL;
    Bot *bot = calloc(1, sizeof *bot);
    if (bot != NULL) {
        bot->shapes = calloc(game->piece_count, sizeof *bot->shapes);
        bot->cells = malloc(total * sizeof *bot->cells);
    }
    if (bot == NULL || bot->shapes == NULL || bot->cells == NULL) {
        tetrad_destroy(bot); /* NULL-safe, and frees whichever part was allocated */
        fail(error, error_len, "out of memory");
        return NULL;
    }
    bot->width = (int)game->width;
    bot->height = (int)game->height;
    bot->piece_count = (int)game->piece_count;
    bot->holes_weight = W_HOLES;
    TetradCell *next = bot->cells;
    for (int k = 0; k < bot->piece_count; k++) {
        const TetradPieceInfo *p = &game->pieces[k];
        size_t n = (size_t)p->orientation_count * p->cell_count;
        memcpy(next, p->cells, n * sizeof *next);
        bot->shapes[k] = (Shape){(int)p->box_size, (int)p->orientation_count,
                                 (int)p->cell_count, next};
        next += n;
    }
    /* This plugin is deterministic, so game->seed goes unused. */
    if (!parse_options(bot, options, error, error_len)) {
        tetrad_destroy(bot);
        return NULL;
    }
    return bot;
}

TETRAD_EXPORT uint32_t tetrad_update(void *instance, const TetradField *field,
                                     const TetradPiece *current, const TetradPiece *next,
                                     bool new_piece) {
    Bot *bot = instance;
    (void)next; /* it plans for the current piece only */
    if (current->kind == TETRAD_NO_PIECE) return 0; /* nothing to steer */
    if ((int)field->width != bot->width || (int)field->height != bot->height ||
        current->kind < 0 || current->kind >= bot->piece_count || current->orientation < 0 ||
        current->orientation >= bot->shapes[current->kind].orientation_count) {
        snprintf(bot->error, sizeof bot->error, "host sent a %ux%u field with piece %d/%d",
                 (unsigned)field->width, (unsigned)field->height, (int)current->kind,
                 (int)current->orientation);
        return TETRAD_UPDATE_FAILED;
    }
    if (new_piece) {
        plan(bot, field->rows, current);
        bot->moving = false;
    } else if (bot->moving && current->orientation == bot->last_orientation &&
               current->x == bot->last_x) {
        /* Nothing we asked for last tick happened: the way is blocked. Drop here rather
         * than hover forever (leiden and simplified have no gravity). */
        return TETRAD_DROP;
    }

    uint32_t actions = 0;
    int count = bot->shapes[current->kind].orientation_count;
    int turn = ((bot->target_orientation - current->orientation) % count + count) % count;
    if (turn != 0) actions |= turn <= count / 2 ? TETRAD_ROTATE_CW : TETRAD_ROTATE_CCW;
    if (bot->target_x < current->x) actions |= TETRAD_MOVE_LEFT;
    if (bot->target_x > current->x) actions |= TETRAD_MOVE_RIGHT;
    bot->moving = actions != 0;
    bot->last_orientation = current->orientation;
    bot->last_x = current->x;
    return bot->moving ? actions : TETRAD_DROP;
}

TETRAD_EXPORT const char *tetrad_last_error(void *instance) {
    const Bot *bot = instance;
    return bot != NULL && bot->error[0] != '\0' ? bot->error : NULL;
}
