/* The best-board search of runners/backends/edgesearch.py (module puzzlesat._edgesearch):
 * depth-first over the free cells, with slips (broken seams) on a depth-dependent budget,
 * and the local search (swaps and turns) that polishes each better board.
 *
 * search(...): runs the depth-first search from its saved stack for at most `budget` nodes (a
 * node: a tile placed). At each depth the candidates come in phases: 0, every seam to the
 * filled neighbours above and to the left met (a slice of the candidate table, used tiles
 * skipped); 1, the left seam broken; 2, the top one broken; 3, both broken (when allowed). A
 * slip's candidates are read from the unused tiles as words of bits. The Python side
 * (edgesearch.py's Search) builds the tables and keeps the stack between two calls.
 *
 * polish(...): local search on a full board, with its own small random number generator
 * (splitmix64), so that a seed gives the same board on every build.
 *
 * Both read their arrays in place (int64, C order) and run with the GIL released. */
#include "kernel.h"

#include <math.h>

/* ------------------------------------------------------------------ the depth-first search */

/* The arrays of one search, read in place, and their sizes. Tiles are numbered by the
 * search's shuffle (real[t]: the puzzle's tile); colours run 0..wild (wild: "any"). */
typedef struct {
    /* per depth: the cell, its turn class, its filled neighbours left/top, fixed ones to the
     * right or below (`width` a depth, -1 ends them) and their sides, the breaks allowed */
    const int64_t *order, *cls, *left, *top, *extra, *extra_side, *allow;
    /* the candidate table: slices start/stop[class, L, T] of cand_tile/cand_turn */
    const int64_t *start, *stop, *cand_tile, *cand_turn;
    /* has[side, class, colour, word]: the tiles of a class showing a colour on a side */
    const uint64_t *has;
    /* turn_left/turn_top[tile, colour]: a bit a turn showing it; allowed[class, tile] */
    const int64_t *turn_left, *turn_top, *allowed;
    const int64_t *edge, *partner, *real; /* edge[tile, side]; partner[colour] */
    int64_t *tile_at, *turn_at, *used; /* the board (per cell), and used[tile] */
    uint64_t *free;                     /* the unused tiles as words of bits */
    int64_t *stack; /* stack[depth, FRAME]: the search's state at each depth (below) */
    /* [depth, nodes, best score, improved, over, double breaks allowed] */
    int64_t *state, *best_tile, *best_turn;
    int64_t depths, width, cells, tiles, words, classes, wild, colours, base_broken, seams;
} Tree;

/* A depth's frame of the stack: its phase of candidates (0-3), its slice of the table (next
 * position and end), the word and bits of unused tiles left to read in a slip, the tile of the
 * slip and its turns left, the colours asked of it on the left and top, and the breaks so far
 * (this cell's included). One row of int64 a depth, so that the loop holds one pointer. */
enum { PHASE, POS, END, WORD, BITS, TILE, TURNS, NEED_L, NEED_T, SLIPS, FRAME };
#define AT(s, d, column) ((s)->stack[(d) * FRAME + (column)])

static inline uint64_t bit_of(int64_t t) { return (uint64_t)1 << (t & 63); }

/* The tile at depth d taken off the board (the search goes back to depth d). */
static inline void take_back(Tree *s, int64_t d) {
    int64_t t = s->tile_at[s->order[d]];
    s->used[t] = 0;
    s->free[t >> 6] |= bit_of(t);
}

/* A full board: kept where it breaks fewer seams than the best so far. */
static inline void full_board(Tree *s, int64_t d) {
    int64_t broken = s->base_broken + (d > 0 ? AT(s, d - 1, SLIPS) : 0);
    if (s->seams - broken <= s->state[2]) return;
    s->state[2] = s->seams - broken;
    s->state[3] = 1;
    for (int64_t c = 0; c < s->cells; c++) {
        s->best_tile[c] = s->real[s->tile_at[c]];
        s->best_turn[c] = s->turn_at[c];
    }
}

/* Phase 0: the next unused candidate of the table's slice; its tile, or -1. */
static inline int64_t next_exact(Tree *s, int64_t d, int64_t *turn) {
    int64_t i = AT(s, d, POS), e = AT(s, d, END);
    while (i < e && s->used[s->cand_tile[i]]) i++;
    if (i >= e) return -1;
    AT(s, d, POS) = i + 1;
    *turn = s->cand_turn[i];
    return s->cand_tile[i];
}

/* The turns of tile t that break the phase's seams (1: left, 2: top, 3: both), of those its
 * class allows, as bits. */
static inline uint64_t slip_turns(const Tree *s, int64_t p, int64_t k, int64_t t, int64_t L,
                                  int64_t T) {
    uint64_t a = (uint64_t)s->turn_left[t * s->colours + L];
    uint64_t b = (uint64_t)s->turn_top[t * s->colours + T];
    uint64_t turns = p == 1 ? a & ~b : (p == 2 ? b & ~a : ~(a | b));
    return turns & (uint64_t)s->allowed[k * s->tiles + t];
}

/* Phases 1-3: the next unused tile of the phase's words of bits with a turn that slips as the
 * phase says; its turns (0: none left), the tile in tile_now[d]. */
static inline uint64_t next_slip_tile(Tree *s, int64_t d, int64_t p) {
    int64_t k = s->cls[d], L = AT(s, d, NEED_L), T = AT(s, d, NEED_T);
    int64_t side = p == 2 ? 0 : 1; /* phase 2 reads the top's colour, the others the left's */
    int64_t colour = p == 2 ? T : (p == 1 ? L : s->wild);
    const uint64_t *has = s->has + ((side * s->classes + k) * s->colours + colour) * s->words;
    uint64_t x = AT(s, d, BITS), turns = 0;
    int64_t w = AT(s, d, WORD);
    for (;;) {
        while (x == 0 && w + 1 < s->words) {
            w++;
            x = has[w] & s->free[w];
        }
        if (x == 0) break;
        int64_t t = (w << 6) + trailing_zeros64(x);
        x &= x - 1;
        turns = slip_turns(s, p, k, t, L, T);
        if (turns != 0) {
            AT(s, d, TILE) = t;
            break;
        }
    }
    AT(s, d, BITS) = x;
    AT(s, d, WORD) = w;
    return turns;
}

/* Phases 1-3: the next (tile, turn) that slips; its tile, or -1. */
static inline int64_t next_slip(Tree *s, int64_t d, int64_t p, int64_t *turn) {
    uint64_t turns = AT(s, d, TURNS);
    if (turns == 0) turns = next_slip_tile(s, d, p);
    if (turns == 0) return -1;
    *turn = trailing_zeros64(turns);
    AT(s, d, TURNS) = turns & (turns - 1);
    return AT(s, d, TILE);
}

/* The phase after p at depth d that is usable (a seam to break there, double breaks allowed)
 * and within the budget; 4 where none is. */
static inline int64_t next_phase(const Tree *s, int64_t d, int64_t p, int64_t before) {
    int64_t L = AT(s, d, NEED_L), T = AT(s, d, NEED_T), wild = s->wild;
    for (p++; p <= 3; p++) {
        int64_t cost = p < 3 ? 1 : 2;
        int usable = (p == 1 && T != wild) || (p == 2 && L != wild)
                     || (p == 3 && L != wild && T != wild && s->state[5] != 0);
        if (usable && before + cost <= s->allow[d]) return p;
    }
    return p;
}

/* The seams tile t turned r at depth d breaks with its fixed neighbours right and below. */
static inline int64_t fixed_cost(const Tree *s, int64_t d, int64_t t, int64_t r) {
    int64_t cost = 0;
    for (int64_t i = 0; i < s->width; i++) {
        int64_t n = s->extra[d * s->width + i];
        if (n < 0) break;
        int64_t side = s->extra_side[d * s->width + i];
        int64_t shown = s->edge[s->tile_at[n] * 4 + ((side + 2 - s->turn_at[n]) & 3)];
        if (s->partner[shown] != s->edge[t * 4 + ((side - r) & 3)]) cost++;
    }
    return cost;
}

/* The colour a filled cell asks of its neighbour on `side` of it. */
static inline int64_t asked(const Tree *s, int64_t cell, int64_t side) {
    return s->partner[s->edge[s->tile_at[cell] * 4 + ((side - s->turn_at[cell]) & 3)]];
}

/* Depth d entered: the colours asked of it, and its slice of the table. */
static inline void open_depth(Tree *s, int64_t d) {
    int64_t a = s->left[d], b = s->top[d];
    int64_t L = a < 0 ? s->wild : asked(s, a, 1);
    int64_t T = b < 0 ? s->wild : asked(s, b, 2);
    AT(s, d, NEED_L) = L;
    AT(s, d, NEED_T) = T;
    AT(s, d, PHASE) = 0;
    int64_t slice = (s->cls[d] * s->colours + L) * s->colours + T;
    AT(s, d, POS) = s->start[slice];
    AT(s, d, END) = s->stop[slice];
}

/* Tile t turned r placed at depth d, with `total` breaks so far. */
static inline void place(Tree *s, int64_t d, int64_t t, int64_t r, int64_t total) {
    int64_t c = s->order[d];
    s->tile_at[c] = t;
    s->turn_at[c] = r;
    s->used[t] = 1;
    s->free[t >> 6] &= ~bit_of(t);
    AT(s, d, SLIPS) = total;
}

/* The search from its saved stack for at most `budget` nodes (node for node the loop of the
 * numba kernel it replaced: results/kernels/edgesearch.md). */
static void run_search(Tree *s, int64_t budget) {
    int64_t d = s->state[0], nodes = 0;
    while (d >= 0 && nodes < budget) {
        if (d == s->depths) {
            full_board(s, d);
            if (--d < 0) break;
            take_back(s, d);
            continue;
        }
        int64_t p = AT(s, d, PHASE), r = 0;
        int64_t t = p == 0 ? next_exact(s, d, &r) : next_slip(s, d, p, &r);
        int64_t before = d > 0 ? AT(s, d - 1, SLIPS) : 0;
        if (t < 0) { /* the next phase of candidates, or back */
            p = next_phase(s, d, p, before);
            if (p > 3) {
                if (--d < 0) break;
                take_back(s, d);
                continue;
            }
            AT(s, d, PHASE) = p;
            AT(s, d, WORD) = -1;
            AT(s, d, BITS) = 0;
            AT(s, d, TURNS) = 0;
            continue;
        }
        int64_t total = before + (p == 0 ? 0 : (p < 3 ? 1 : 2)) + fixed_cost(s, d, t, r);
        if (total > s->allow[d]) continue;
        nodes++;
        place(s, d, t, r, total);
        if (++d < s->depths) open_depth(s, d);
    }
    if (d < 0) s->state[4] = 1;
    s->state[0] = d;
    s->state[1] += nodes;
}

/* ------------------------------------------------------------------ argument checks */

/* Whether every a[i] (i < n) lies in [lo, hi); a ValueError naming the array where not. */
static int within(const int64_t *a, Py_ssize_t n, int64_t lo, int64_t hi, const char *name) {
    for (Py_ssize_t i = 0; i < n; i++) {
        if (a[i] < lo || a[i] >= hi) {
            PyErr_Format(PyExc_ValueError, "%s[%zd] = %lld is out of range", name, i,
                         (long long)a[i]);
            return 0;
        }
    }
    return 1;
}

/* Whether an array holds `want` items; a ValueError where not. */
static int sized(Py_ssize_t given, Py_ssize_t want, const char *name) {
    if (given == want) return 1;
    PyErr_Format(PyExc_ValueError, "%s: %zd items expected, not %zd", name, want, given);
    return 0;
}

/* An int64 array argument and its number of items (NULL with an error set). */
#define ARRAY(var, i, writable)                                                              \
    int64_t *var = array_of(&arrays, args[i], 8, writable, #var);                            \
    if (var == NULL) goto fail;                                                              \
    Py_ssize_t var##_n = last_length(&arrays);                                               \
    (void)var##_n;

#define CHECK(condition) \
    if (!(condition)) goto fail;

/* The end of a kernel call: its arrays released; None, or NULL where it failed (an error set). */
static PyObject *finish(Arrays *arrays, int ok) {
    arrays_release(arrays);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* The sizes of the tables, checked against each other. */
static int tree_sizes(Tree *s, Py_ssize_t n_extra, Py_ssize_t n_allowed, Py_ssize_t n_partner) {
    if (s->tiles <= 0 || s->depths <= 0 || n_extra % s->depths || n_allowed % s->tiles
        || s->wild < 0 || n_partner != s->colours) {
        PyErr_SetString(PyExc_ValueError, "search: the tables' sizes do not agree");
        return 0;
    }
    s->width = n_extra / s->depths;
    s->classes = n_allowed / s->tiles;
    return 1;
}

/* Whether the words of unused tiles hold no bit beyond the last tile (a bit read is a tile). */
static int tiles_only(const Tree *s) {
    if (s->tiles % 64 == 0 || (s->free[s->words - 1] >> (s->tiles % 64)) == 0) return 1;
    PyErr_SetString(PyExc_ValueError, "free: a bit beyond the last tile");
    return 0;
}

/* Whether column `column` of the stack lies in [lo, hi) at every depth. */
static int stack_within(const Tree *s, int column, int64_t lo, int64_t hi, const char *name) {
    for (int64_t d = 0; d <= s->depths; d++) {
        int64_t value = AT(s, d, column);
        if (value < lo || value >= hi) {
            PyErr_Format(PyExc_ValueError, "stack[%lld, %s] = %lld is out of range",
                         (long long)d, name, (long long)value);
            return 0;
        }
    }
    return 1;
}

/* An array whose entries are indexes: they lie in [lo, hi). */
typedef struct {
    const int64_t *at;
    Py_ssize_t n;
    int64_t lo, hi;
    const char *name;
} Range;

/* A column of the stack whose entries are indexes: they lie in [lo, hi) at every depth. */
typedef struct {
    int column;
    int64_t lo, hi;
    const char *name;
} Column;

/* The table entries read as indexes lie where they may (a wrong table is an error, not a
 * read out of bounds). */
static int tree_values(const Tree *s, Py_ssize_t cands) {
    int64_t slices = s->classes * s->colours * s->colours;
    const Range tables[] = {
        {s->order, s->depths, 0, s->cells, "order"},
        {s->cls, s->depths, 0, s->classes, "cls"},
        {s->left, s->depths, -1, s->cells, "left"},
        {s->top, s->depths, -1, s->cells, "top"},
        {s->extra, s->depths * s->width, -1, s->cells, "extra"},
        {s->start, slices, 0, cands + 1, "start"},
        {s->stop, slices, 0, cands + 1, "stop"},
        {s->cand_tile, cands, 0, s->tiles, "cand_tile"},
        {s->cand_turn, cands, 0, 4, "cand_turn"},
        {s->edge, 4 * s->tiles, 0, s->colours, "edge"},
        {s->partner, s->colours, 0, s->colours, "partner"},
        {s->real, s->tiles, 0, s->tiles, "real"},
        {s->tile_at, s->cells, -1, s->tiles, "tile_at"},
        {s->turn_at, s->cells, 0, 4, "turn_at"},
    };
    const Column columns[] = {
        {PHASE, 0, 4, "phase"},         {POS, 0, cands + 1, "pos"},
        {END, 0, cands + 1, "end"},     {WORD, -1, s->words, "word"},
        {TILE, 0, s->tiles, "tile"},    {NEED_L, 0, s->colours, "need_l"},
        {NEED_T, 0, s->colours, "need_t"},
    };
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        const Range *r = &tables[i];
        if (!within(r->at, r->n, r->lo, r->hi, r->name)) return 0;
    }
    for (size_t i = 0; i < sizeof columns / sizeof *columns; i++) {
        const Column *c = &columns[i];
        if (!stack_within(s, c->column, c->lo, c->hi, c->name)) return 0;
    }
    return within(s->state, 1, -1, s->depths + 1, "state") && tiles_only(s);
}

/* An array's length and the length the others' make it. */
typedef struct {
    Py_ssize_t given, want;
    const char *name;
} Length;

/* Whether every length is the one wanted (the first that is not named in the error). */
static int lengths_agree(const Length *lengths, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!sized(lengths[i].given, lengths[i].want, lengths[i].name)) return 0;
    return 1;
}

/* search(order, cls, left, top, extra, extra_side, allow, start, stop, cand_tile, cand_turn,
 *        has, turn_left, turn_top, allowed, edge, partner, wild, tile_at, turn_at, used, free,
 *        stack, state, best_tile, best_turn, real, base_broken, seams, budget) -> None */
static PyObject *search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tree s;
    int64_t wild, base_broken, seams, budget;
    if (check_arguments("search", nargs, 30) < 0) return NULL;
    ARRAY(order, 0, 0) ARRAY(cls, 1, 0) ARRAY(left, 2, 0) ARRAY(top, 3, 0)
    ARRAY(extra, 4, 0) ARRAY(extra_side, 5, 0) ARRAY(allow, 6, 0) ARRAY(start, 7, 0)
    ARRAY(stop, 8, 0) ARRAY(cand_tile, 9, 0) ARRAY(cand_turn, 10, 0) ARRAY(has, 11, 0)
    ARRAY(turn_left, 12, 0) ARRAY(turn_top, 13, 0) ARRAY(allowed, 14, 0) ARRAY(edge, 15, 0)
    ARRAY(partner, 16, 0)
    CHECK(int_of(args[17], &wild, "wild") == 0)
    ARRAY(tile_at, 18, 1) ARRAY(turn_at, 19, 1) ARRAY(used, 20, 1) ARRAY(free, 21, 1)
    ARRAY(stack, 22, 1) ARRAY(state, 23, 1) ARRAY(best_tile, 24, 1) ARRAY(best_turn, 25, 1)
    ARRAY(real, 26, 0)
    CHECK(int_of(args[27], &base_broken, "base_broken") == 0)
    CHECK(int_of(args[28], &seams, "seams") == 0)
    CHECK(int_of(args[29], &budget, "budget") == 0)
    s = (Tree){order, cls, left, top, extra, extra_side, allow, start, stop, cand_tile,
               cand_turn, (const uint64_t *)has, turn_left, turn_top, allowed, edge, partner,
               real, tile_at, turn_at, used, (uint64_t *)free, stack, state, best_tile,
               best_turn, .depths = order_n, .cells = tile_at_n, .tiles = used_n,
               .words = free_n, .wild = wild, .colours = wild + 1,
               .base_broken = base_broken, .seams = seams};
    CHECK(tree_sizes(&s, extra_n, allowed_n, partner_n))
    const Length lengths[] = {
        {cls_n, s.depths, "cls"},
        {left_n, s.depths, "left"},
        {top_n, s.depths, "top"},
        {extra_side_n, extra_n, "extra_side"},
        {allow_n, s.depths, "allow"},
        {start_n, s.classes * s.colours * s.colours, "start"},
        {stop_n, start_n, "stop"},
        {cand_turn_n, cand_tile_n, "cand_turn"},
        {has_n, 2 * s.classes * s.colours * s.words, "has"},
        {turn_left_n, s.tiles * s.colours, "turn_left"},
        {turn_top_n, turn_left_n, "turn_top"},
        {edge_n, 4 * s.tiles, "edge"},
        {free_n, (s.tiles + 63) / 64, "free"},
        {real_n, s.tiles, "real"},
        {turn_at_n, s.cells, "turn_at"},
        {best_tile_n, s.cells, "best_tile"},
        {best_turn_n, s.cells, "best_turn"},
        {stack_n, (s.depths + 1) * FRAME, "stack"},
        {state_n, 6, "state"},
    };
    CHECK(lengths_agree(lengths, sizeof lengths / sizeof *lengths))
    CHECK(tree_values(&s, cand_tile_n))
    Py_BEGIN_ALLOW_THREADS
    run_search(&s, budget);
    Py_END_ALLOW_THREADS
    return finish(&arrays, 1);
fail:
    return finish(&arrays, 0);
}

/* ------------------------------------------------------------------ the local search */

/* splitmix64 (Steele, Lea and Flood 2014): the next word of the generator at *rng. */
static inline uint64_t next_word(uint64_t *rng) {
    uint64_t z = (*rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random integer in [0, n), n > 0. */
static inline int64_t below(uint64_t *rng, int64_t n) {
    return (int64_t)(next_word(rng) % (uint64_t)n);
}

/* A random float in [0, 1): the word's top 53 bits. */
static inline double uniform(uint64_t *rng) {
    return (double)(next_word(rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* A full board and what the local search reads (the puzzle's own tile numbers). */
typedef struct {
    int64_t *tile_at, *turn_at, *state, *best_tile, *best_turn;
    /* the cells it may change; turns[cell, tile]: the turns allowed there, as bits */
    const int64_t *free, *turns, *neighbour, *edge, *partner;
    int64_t cells, free_cells, tiles;
    double heat;
    uint64_t rng;
} Board;

/* Whether the seam on side s of cell c, tile t turned r, meets tile u turned q beyond it. */
static inline int meets(const Board *b, int64_t s, int64_t t, int64_t r, int64_t u, int64_t q) {
    return b->partner[b->edge[t * 4 + ((s - r) & 3)]] == b->edge[u * 4 + ((s + 2 - q) & 3)];
}

/* Matched seams around cell c. */
static inline int64_t around(const Board *b, int64_t c) {
    int64_t found = 0, t = b->tile_at[c], r = b->turn_at[c];
    for (int64_t s = 0; s < 4; s++) {
        int64_t n = b->neighbour[c * 4 + s];
        if (n >= 0) found += meets(b, s, t, r, b->tile_at[n], b->turn_at[n]);
    }
    return found;
}

/* Matched seams around cells x and y (a seam between them counted once). */
static inline int64_t around_two(const Board *b, int64_t x, int64_t y) {
    int64_t found = around(b, x);
    if (y == x) return found;
    found += around(b, y);
    for (int64_t s = 0; s < 4; s++)
        if (b->neighbour[x * 4 + s] == y)
            found -= meets(b, s, b->tile_at[x], b->turn_at[x], b->tile_at[y], b->turn_at[y]);
    return found;
}

/* A partner cell for x: one whose tile may go to x and x's to it (20 tries); -1 if none. */
static inline int64_t partner_cell(Board *b, int64_t x) {
    for (int t = 0; t < 20; t++) {
        int64_t y = b->free[below(&b->rng, b->free_cells)];
        if (y != x && b->turns[y * b->tiles + b->tile_at[x]] != 0
            && b->turns[x * b->tiles + b->tile_at[y]] != 0)
            return y;
    }
    return -1;
}

/* With the tiles of x and y in place (swapped), the turns of both that match the most seams
 * (ties broken at random): that count, the turns in *qx, *qy. */
static inline int64_t best_turns(Board *b, int64_t x, int64_t y, int64_t *qx, int64_t *qy) {
    int64_t best = -1, ties = 0;
    int64_t allow_x = b->turns[x * b->tiles + b->tile_at[x]];
    int64_t allow_y = b->turns[y * b->tiles + b->tile_at[y]];
    for (int64_t ax = 0; ax < 4; ax++) {
        if (!((allow_x >> ax) & 1)) continue;
        for (int64_t ay = 0; ay < (y == x ? 1 : 4); ay++) {
            if (y != x && !((allow_y >> ay) & 1)) continue;
            b->turn_at[x] = ax;
            if (y != x) b->turn_at[y] = ay;
            int64_t found = around_two(b, x, y);
            if (found > best) {
                best = found;
                ties = 1;
                *qx = ax;
                *qy = ay;
            } else if (found == best && below(&b->rng, ++ties) == 0) {
                *qx = ax;
                *qy = ay;
            }
        }
    }
    return best;
}

/* One step: swap two tiles (or turn one), each turned its best way; kept if no seam is lost
 * (or, at temperature heat, with probability exp(drop / heat)). */
static void polish_step(Board *b) {
    int64_t x = b->free[below(&b->rng, b->free_cells)], y = x;
    if (uniform(&b->rng) < 0.9) {
        y = partner_cell(b, x);
        if (y < 0) return;
    }
    int64_t tx = b->tile_at[x], ty = b->tile_at[y], rx = b->turn_at[x], ry = b->turn_at[y];
    int64_t old = around_two(b, x, y);
    int64_t qx = rx, qy = ry;
    b->tile_at[x] = ty;
    b->tile_at[y] = tx;
    int64_t delta = best_turns(b, x, y, &qx, &qy) - old;
    if (delta >= 0 || (b->heat > 0 && uniform(&b->rng) < exp((double)delta / b->heat))) {
        b->turn_at[x] = qx;
        if (y != x) b->turn_at[y] = qy;
        b->state[0] += delta;
        if (b->state[0] > b->state[1]) {
            b->state[1] = b->state[0];
            memcpy(b->best_tile, b->tile_at, (size_t)b->cells * sizeof(int64_t));
            memcpy(b->best_turn, b->turn_at, (size_t)b->cells * sizeof(int64_t));
        }
    } else {
        b->tile_at[x] = tx;
        b->tile_at[y] = ty;
        b->turn_at[x] = rx;
        b->turn_at[y] = ry;
    }
}

/* polish(tile_at, turn_at, free, turns, neighbour, edge, partner, steps, heat, seed, state,
 *        best_tile, best_turn) -> None: state = [score, best score]; the best board is kept
 * in best_*. */
static PyObject *polish(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    int64_t steps, seed;
    double heat;
    if (check_arguments("polish", nargs, 13) < 0) return NULL;
    ARRAY(tile_at, 0, 1) ARRAY(turn_at, 1, 1) ARRAY(free, 2, 0) ARRAY(turns, 3, 0)
    ARRAY(neighbour, 4, 0) ARRAY(edge, 5, 0) ARRAY(partner, 6, 0)
    CHECK(int_of(args[7], &steps, "steps") == 0)
    CHECK(double_of(args[8], &heat, "heat") == 0)
    CHECK(int_of(args[9], &seed, "seed") == 0)
    ARRAY(state, 10, 1) ARRAY(best_tile, 11, 1) ARRAY(best_turn, 12, 1)
    Board b = {tile_at, turn_at, state, best_tile, best_turn, free, turns, neighbour, edge,
               partner, tile_at_n, free_n, edge_n / 4, heat, (uint64_t)seed};
    CHECK(sized(turn_at_n, b.cells, "turn_at") && sized(turns_n, b.cells * b.tiles, "turns")
          && sized(neighbour_n, 4 * b.cells, "neighbour") && sized(edge_n, 4 * b.tiles, "edge")
          && sized(state_n, 2, "state") && sized(best_tile_n, b.cells, "best_tile")
          && sized(best_turn_n, b.cells, "best_turn"))
    CHECK(within(free, free_n, 0, b.cells, "free")
          && within(tile_at, b.cells, 0, b.tiles, "tile_at")
          && within(turn_at, b.cells, 0, 4, "turn_at")
          && within(neighbour, 4 * b.cells, -1, b.cells, "neighbour")
          && within(edge, edge_n, 0, partner_n, "edge")
          && within(partner, partner_n, 0, partner_n, "partner"))
    if (b.free_cells > 0) {
        Py_BEGIN_ALLOW_THREADS
        for (int64_t i = 0; i < steps; i++) polish_step(&b);
        Py_END_ALLOW_THREADS
    }
    return finish(&arrays, 1);
fail:
    return finish(&arrays, 0);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_FASTCALL,
     "Run the best-board search from its saved stack for at most `budget` nodes."},
    {"polish", (PyCFunction)(void (*)(void))polish, METH_FASTCALL,
     "Local search (swaps and turns) on a full board; the best board kept."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_edgesearch",
    .m_doc = "The best-board search and its local search (runners/csrc/edgesearch.c).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__edgesearch(void) { return PyModule_Create(&module); }
