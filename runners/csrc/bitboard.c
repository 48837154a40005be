/* The bitboard search for exact covers without colours (packing puzzles): puzzlesat._bitboard.
 *
 * runners/backends/bitboard.py builds the board (class Masks: the arrays read here, their
 * layout described there) and keeps the resumable stack (class Search); this file is the
 * search itself: a slice of at most `budget` nodes from the saved stack (search), Knuth's
 * random-path estimate of a cube's tree (probe), the memo's table (its lock-free protocol for
 * a table the threads of a process share: memo_get, memo_store) and the small helpers the
 * Python side and the tests call (take, hash_of, rehash, enough, first_uncovered, the
 * fewest-fits bookkeeping, add, hammer).
 *
 * Items are bits of 63-bit words (int64 without its sign bit); a piece with copies is a counter,
 * a field of bits after the items covered once. Every function here runs on int64 words as
 * numba ran them (two's complement: products and shifts of signed values done on uint64). The
 * search and the estimate run with the GIL released, so threads count cubes at once. */
#include "kernel.h"

#include <math.h>

#define WORD 63 /* bits of an item word */
#define LIMB 62 /* bits of each of a count's two words */
#define LOW ((INT64_C(1) << LIMB) - 1)
#define ENTRY 3 /* words of a memo entry after its key: count low, count high, work */
enum { V_DEPTH, V_LEFT, V_HASH, V_OVERFLOW }; /* Search.var */

/* ------------------------------------------------------------------ the board (Masks) */

/* A 2-D int64 array: its items, rows and columns. */
typedef struct {
    int64_t *at;
    Py_ssize_t rows;
    int32_t cols; /* not an int64: the search's stores into int64 words never alias it */
} Table;

static inline int64_t cell(const Table *t, int64_t row, int64_t col) {
    return t->at[row * t->cols + col];
}

/* The board as Masks holds it (runners/backends/bitboard.py), field by field, in its order. */
typedef struct {
    Table base, window, rare, spill, copy, fields, units, hash, last_word, last_mask, run_end,
        halo_word, halo_mask, start, end, member_at, members, near_word, near_mask, single,
        zobrist, near_pair, halo_pair, cover_word, cover_mask, copies_word, copies_mask,
        option_bits;
} Masks;

#define MASKS_FIELDS 28

/* An int64 array argument as a Table (a 1-D array: one column); -1 with an error set where it
 * is no such array. */
static int table_of(Arrays *arrays, PyObject *obj, int writable, const char *name, Table *t) {
    t->at = array_of(arrays, obj, 8, writable, name);
    if (t->at == NULL) return -1;
    const Py_buffer *view = &arrays->views[arrays->count - 1];
    if (view->ndim > 2) {
        PyErr_Format(PyExc_ValueError, "%s: an array of one or two dimensions expected", name);
        return -1;
    }
    t->rows = view->ndim == 0 ? 1 : view->shape[0];
    t->cols = view->ndim == 2 ? (int32_t)view->shape[1] : 1;
    if (view->ndim == 2 && view->shape[1] > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: too many columns", name);
        return -1;
    }
    return 0;
}

/* Masks from the named tuple `obj` (every field an int64 array); -1 with an error set. */
static int masks_of(Arrays *arrays, PyObject *obj, Masks *m) {
    static const char *names[MASKS_FIELDS] = {
        "base", "window", "rare", "spill", "copy", "fields", "units", "hash", "last_word",
        "last_mask", "run_end", "halo_word", "halo_mask", "start", "end", "member_at",
        "members", "near_word", "near_mask", "single", "zobrist", "near_pair", "halo_pair",
        "cover_word", "cover_mask", "copies_word", "copies_mask", "option_bits"};
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != MASKS_FIELDS) {
        PyErr_SetString(PyExc_TypeError, "masks: the board's Masks expected");
        return -1;
    }
    Table *field = &m->base;
    for (int i = 0; i < MASKS_FIELDS; i++)
        if (table_of(arrays, PyTuple_GET_ITEM(obj, i), 0, names[i], field + i) < 0) return -1;
    if (m->copy.cols != 6 || m->fields.cols != 6 || m->window.rows != m->base.rows) {
        PyErr_SetString(PyExc_ValueError, "masks: arrays of inconsistent shapes");
        return -1;
    }
    return 0;
}

/* --------------------------------------------------------------------- bits of words */

static inline int64_t lowest_bit(int64_t x) { return (int64_t)((uint64_t)x & -(uint64_t)x); }
static inline int tz(int64_t x) { return trailing_zeros64((uint64_t)x); }
static inline int64_t bit(int64_t k) { return (int64_t)(UINT64_C(1) << k); }

/* The Zobrist key of counter f holding v copies (a multiplicative mix, odd constants). */
static inline int64_t mix(int64_t f, int64_t v) {
    int64_t x = (int64_t)(((uint64_t)f * UINT64_C(11400714819323198485)) ^
                          ((uint64_t)v * UINT64_C(14029467366897019727)));
    return x ^ (x >> 29);
}

/* The copies counter (word w, shift, mask) holds in `state`. */
static inline int64_t held(const int64_t *state, int64_t w, int64_t shift, int64_t mask) {
    return (state[w] >> shift) & mask;
}

/* ----------------------------------------------------------- an option on the state */

/* Where option o's counters past the first start in `spill` (after its bits beyond the window),
 * its rare parts starting at r: the number of counters, then 6 words each. */
static inline int64_t counters_at(const Masks *m, int64_t r) {
    return r + 1 + 2 * m->spill.at[r];
}

/* Whether option o clashes with nothing covered and finds its copies left. */
static inline int fits(const Masks *m, const int64_t *state, int64_t o) {
    const int64_t at = m->base.at[o], width = m->window.cols;
    const int64_t *win = m->window.at + o * width;
    if (width == 2) {
        if ((state[at] & win[0]) | (state[at + 1] & win[1])) return 0;
    } else {
        for (int64_t k = 0; k < width; k++)
            if (state[at + k] & win[k]) return 0;
    }
    const int64_t *c = m->copy.at + 6 * o;
    if (c[0] >= 0 && held(state, c[1], c[2], c[4]) + c[5] > c[3]) return 0;
    int64_t r = m->rare.at[o];
    if (r >= 0) { /* its bits beyond the window, then its counters (see Masks.spill) */
        const int64_t *s = m->spill.at;
        for (int64_t e = 0; e < s[r]; e++)
            if (state[s[r + 1 + 2 * e]] & s[r + 2 + 2 * e]) return 0;
        r = counters_at(m, r);
        for (int64_t q = r + 1; q < r + 1 + 6 * s[r]; q += 6)
            if (held(state, s[q + 1], s[q + 2], s[q + 4]) + s[q + 5] > s[q + 3]) return 0;
    }
    return 1;
}

/* Counter f (word w, shift, mask) moved by `step` copies; h, the hash, kept where `keep`. */
static inline int64_t count_copies(int64_t *state, int64_t h, int keep, int64_t f, int64_t w,
                                   int64_t shift, int64_t mask, int64_t step) {
    if (keep) {
        int64_t now = held(state, w, shift, mask);
        h ^= mix(f, now) ^ mix(f, now + step);
    }
    state[w] = (int64_t)((uint64_t)state[w] + ((uint64_t)step << shift));
    return h;
}

/* Option o placed (sign 1) or taken back (sign -1, after it was placed); the new hash of the
 * covered items where `keep` (a memo reads it), else h as it was. */
static inline int64_t place(const Masks *m, int64_t *state, int64_t o, int64_t h, int64_t sign,
                            int keep) {
    const int64_t at = m->base.at[o], width = m->window.cols;
    const int64_t *win = m->window.at + o * width;
    for (int64_t k = 0; k < width; k++) state[at + k] ^= win[k];
    if (keep) h ^= m->hash.at[o];
    const int64_t *c = m->copy.at + 6 * o;
    if (c[0] >= 0) h = count_copies(state, h, keep, c[0], c[1], c[2], c[4], sign * c[5]);
    int64_t r = m->rare.at[o];
    if (r >= 0) {
        const int64_t *s = m->spill.at;
        for (int64_t e = 0; e < s[r]; e++) state[s[r + 1 + 2 * e]] ^= s[r + 2 + 2 * e];
        r = counters_at(m, r);
        for (int64_t q = r + 1; q < r + 1 + 6 * s[r]; q += 6)
            h = count_copies(state, h, keep, s[q], s[q + 1], s[q + 2], s[q + 4], sign * s[q + 5]);
    }
    return h;
}

/* Option o placed by the search: its items no longer left (*left), the new hash. */
static inline int64_t put(const Masks *m, int64_t *state, int64_t o, int64_t h, int keep,
                          int64_t *left) {
    *left -= m->units.at[o];
    return place(m, state, o, h, 1, keep);
}

/* Option o, placed by put, taken back. */
static inline int64_t take_back(const Masks *m, int64_t *state, int64_t o, int64_t h, int keep,
                                int64_t *left) {
    *left += m->units.at[o];
    return place(m, state, o, h, -1, keep);
}

/* The first uncovered item covered once from word *w on: its bit, *w its word; -1 when every
 * such item is covered. */
static inline int64_t first_uncovered(const Masks *m, const int64_t *state, int64_t words,
                                      int64_t *w) {
    for (; *w < words; (*w)++) {
        int64_t x = ~state[*w] & m->single.at[*w];
        if (x) return WORD * *w + tz(x);
    }
    return -1;
}

/* Whether every counter holds at least the fewest copies a solution uses. */
static inline int enough(const Masks *m, const int64_t *state) {
    for (int64_t f = 0; f < m->fields.rows && m->fields.cols == 6; f++) {
        const int64_t *d = m->fields.at + 6 * f;
        if (held(state, d[0], d[1], d[3]) < d[5]) return 0;
    }
    return 1;
}

/* The Zobrist hash of covered items: its bits covered once, and its counters. */
static int64_t hash_of(const Masks *m, const int64_t *state) {
    int64_t h = 0;
    for (int64_t b = 0; b < m->zobrist.rows; b++)
        if (state[b / WORD] >> (b % WORD) & 1) h ^= m->zobrist.at[b];
    for (int64_t f = 0; f < m->fields.rows && m->fields.cols == 6; f++) {
        const int64_t *d = m->fields.at + 6 * f;
        h ^= mix(f, held(state, d[0], d[1], d[3]));
    }
    return h;
}

/* ------------------------------------------------ the fewest-fits choice's bookkeeping */

/* The options that fit and each item's fits, as the fewest-fits search keeps them: `alive`
 * rows of option words (bit j % WORD of word j / WORD: option j), `fits` rows of counts. */
typedef struct {
    int64_t *alive, *fits;
    int64_t alive_cols, fits_cols;
} Fits;

/* alive[row]: the options (of n) that fit `state`, as bits of option words. */
static void alive_of(const Masks *m, const int64_t *state, const Fits *t, int64_t row,
                     int64_t n) {
    int64_t *a = t->alive + row * t->alive_cols;
    memset(a, 0, sizeof(int64_t) * t->alive_cols);
    for (int64_t o = 0; o < n; o++)
        if (fits(m, state, o)) a[o / WORD] |= bit(o % WORD);
}

/* Each item covered once by option o (its list in option_bits, -1 after) counted by `by`. */
static inline void count_items(const Masks *m, int64_t *counts, int64_t o, int64_t by) {
    const int64_t *b = m->option_bits.at + o * m->option_bits.cols;
    for (int64_t k = 0; k < m->option_bits.cols && b[k] >= 0; k++) counts[b[k]] += by;
}

/* fits[row]: for each item covered once, the options of alive[row] covering it. */
static void fits_of(const Masks *m, const Fits *t, int64_t row) {
    int64_t *counts = t->fits + row * t->fits_cols;
    memset(counts, 0, sizeof(int64_t) * t->fits_cols);
    const int64_t *a = t->alive + row * t->alive_cols;
    for (int64_t w = 0; w < t->alive_cols; w++)
        for (int64_t x = a[w]; x; x &= x - 1) count_items(m, counts, WORD * w + tz(x), 1);
}

/* The uncovered item with the fewest options that fit (fits[row]), the first such in fill
 * order from word w on; -1 when there is none to choose. */
static inline int64_t least(const Masks *m, const int64_t *state, int64_t words, int64_t w,
                            const Fits *t, int64_t row) {
    const int64_t *counts = t->fits + row * t->fits_cols;
    int64_t best = -1, fewest = INT64_C(1) << 62;
    for (; w < words; w++) {
        for (int64_t x = ~state[w] & m->single.at[w]; x; x &= x - 1) {
            int64_t u = WORD * w + tz(x), k = counts[u];
            if (k < fewest) {
                best = u;
                fewest = k;
                if (k == 0) return best;
            }
        }
    }
    return best;
}

/* The options of bits x of option word w, just dropped from alive[row], taken off the fits
 * of their items. */
static inline void drop(const Masks *m, const Fits *t, int64_t row, int64_t w, int64_t x) {
    int64_t *counts = t->fits + row * t->fits_cols;
    for (; x; x &= x - 1) count_items(m, counts, WORD * w + tz(x), -1);
}

/* The options covering item u dropped from alive[row] and from fits[row]. */
static inline void kill_item(const Masks *m, const Fits *t, int64_t row, int64_t u) {
    int64_t *a = t->alive + row * t->alive_cols;
    for (int64_t e = 0; e < m->cover_word.cols; e++) {
        int64_t bits = cell(&m->cover_mask, u, e);
        if (bits == 0) break;
        int64_t w = cell(&m->cover_word, u, e), x = a[w] & bits;
        if (x) {
            a[w] ^= x;
            drop(m, t, row, w, x);
        }
    }
}

/* The options adding to counter f dropped from alive[row] where its copies left no longer take
 * them (tested one by one, only once fewer copies are left than an option places). */
static void kill_copies(const Masks *m, const int64_t *state, const Fits *t, int64_t row,
                        int64_t f) {
    const int64_t *d = m->fields.at + 6 * f;
    if (d[2] - held(state, d[0], d[1], d[3]) >= d[4]) return; /* room for its largest step */
    int64_t *a = t->alive + row * t->alive_cols;
    for (int64_t e = 0; e < m->copies_word.cols; e++) {
        int64_t w = cell(&m->copies_word, f, e);
        for (int64_t x = a[w] & cell(&m->copies_mask, f, e); x;) {
            int64_t one = lowest_bit(x);
            x ^= one;
            if (!fits(m, state, WORD * w + tz(one))) {
                a[w] ^= one;
                drop(m, t, row, w, one);
            }
        }
    }
}

/* Each item of the bits x of word w dropped (kill). */
static inline void kill_bits(const Masks *m, const Fits *t, int64_t row, int64_t w, int64_t x) {
    for (; x; x &= x - 1) kill_item(m, t, row, WORD * w + tz(x));
}

/* alive[dst]: the options of alive[src] that still fit once option o is placed (`state` holds
 * it); fits[dst] counted from fits[src] as options drop. */
static void alive_after(const Masks *m, const int64_t *state, const Fits *t, int64_t o,
                        int64_t src, int64_t dst) {
    if (dst != src) {
        memcpy(t->alive + dst * t->alive_cols, t->alive + src * t->alive_cols,
               sizeof(int64_t) * t->alive_cols);
        memcpy(t->fits + dst * t->fits_cols, t->fits + src * t->fits_cols,
               sizeof(int64_t) * t->fits_cols);
    }
    const int64_t at = m->base.at[o];
    for (int64_t k = 0; k < m->window.cols; k++) kill_bits(m, t, dst, at + k, cell(&m->window, o, k));
    if (cell(&m->copy, o, 0) >= 0) kill_copies(m, state, t, dst, cell(&m->copy, o, 0));
    int64_t r = m->rare.at[o];
    if (r < 0) return;
    const int64_t *s = m->spill.at;
    for (int64_t e = 0; e < s[r]; e++) kill_bits(m, t, dst, s[r + 1 + 2 * e], s[r + 2 + 2 * e]);
    r = counters_at(m, r);
    for (int64_t q = r + 1; q < r + 1 + 6 * s[r]; q += 6) kill_copies(m, state, t, dst, s[q]);
}

/* ------------------------------------------------------------- dead regions */

/* The board's geometry as the region check reads it: a region closed off and smaller than
 * `smallest` cells, or of no multiple of `granule`, is a dead end; one grown past `reach` cells
 * is taken as coverable. `scratch` holds a region's cells while it grows (word << 6 | bit),
 * `seen` the cells of regions found large. */
typedef struct {
    int64_t smallest, granule, reach;
    int64_t *scratch, *seen;
    int64_t words;
} Regions;

/* Whether a region of n cells, closed off, cannot be covered. */
static inline int uncoverable(const Regions *g, int64_t n) {
    return n < g->smallest || n % g->granule != 0;
}

/* The region of uncovered cells holding the cell (word hw, bit `one`), grown a cell's
 * neighbours at a time, its cells marked covered meanwhile and then uncovered again (marked
 * seen where it was large): whether it is closed and cannot be covered; *large whether it
 * passed `reach` cells or met a region found large before. */
static int region_dead(const Masks *m, int64_t *state, const Regions *g, int64_t hw,
                       int64_t one, int *large) {
    int64_t *scratch = g->scratch, *seen = g->seen;
    state[hw] |= one;
    scratch[0] = hw << 6 | tz(one);
    int64_t n = 1, head = 0;
    *large = 0;
    while (head < n && !*large) {
        int64_t x = WORD * (scratch[head] >> 6) + (scratch[head] & 63);
        head++;
        for (int64_t k = 0; k < m->near_word.cols; k++) {
            int64_t around = cell(&m->near_mask, x, k);
            if (around == 0) break; /* a cell's words are listed first, then zeros */
            int64_t w = cell(&m->near_word, x, k);
            if (around & seen[w]) {
                *large = 1;
                break;
            }
            int64_t more = around & ~state[w];
            if (more == 0) continue;
            state[w] |= more;
            for (; more; more &= more - 1) scratch[n++] = w << 6 | tz(more);
            if (n > g->reach) {
                *large = 1;
                break;
            }
        }
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t b = bit(scratch[j] & 63);
        state[scratch[j] >> 6] ^= b;
        if (*large) seen[scratch[j] >> 6] |= b;
    }
    return !*large && uncoverable(g, n);
}

/* Whether option o, just placed, closed off a region of cells next to it that no piece can
 * fill (each region grown from a cell of its halo, region_dead). */
static int dead_end(const Masks *m, int64_t *state, const Regions *g, int64_t o) {
    int dead = 0, grown = 0;
    for (int64_t h = 0; h < m->halo_word.cols && !dead; h++) {
        int64_t hw = cell(&m->halo_word, o, h);
        int64_t open = cell(&m->halo_mask, o, h) & ~state[hw] & ~g->seen[hw];
        while (open && !dead) {
            int64_t one = lowest_bit(open);
            open ^= one;
            if (g->seen[hw] & one) continue; /* met by a region grown from another neighbour */
            int large;
            dead = region_dead(m, state, g, hw, one, &large);
            grown |= large;
        }
    }
    if (grown) memset(g->seen, 0, sizeof(int64_t) * g->words);
    return dead;
}

/* On a board of two words covered (n0, n1): whether the region of uncovered cells holding cell
 * c is closed and cannot be covered, grown a face at a time in registers. */
static int closed_pair(const Masks *m, const Regions *g, int64_t c, int64_t n0, int64_t n1) {
    const int64_t *near = m->near_pair.at;
    int64_t r0 = c < WORD ? bit(c) : 0, r1 = c < WORD ? 0 : bit(c - WORD);
    int64_t f0 = r0, f1 = r1, size = 1;
    for (;;) {
        int64_t g0 = 0, g1 = 0;
        for (; f0; f0 &= f0 - 1) {
            int64_t b = tz(f0);
            g0 |= near[2 * b];
            g1 |= near[2 * b + 1];
        }
        for (; f1; f1 &= f1 - 1) {
            int64_t b = WORD + tz(f1);
            g0 |= near[2 * b];
            g1 |= near[2 * b + 1];
        }
        g0 &= ~(n0 | r0);
        g1 &= ~(n1 | r1);
        if (g0 == 0 && g1 == 0) return uncoverable(g, size);
        size += popcount64((uint64_t)g0) + popcount64((uint64_t)g1);
        if (size > g->reach) return 0;
        r0 |= g0;
        r1 |= g1;
        f0 = g0;
        f1 = g1;
    }
}

/* dead_end on a board of one or two words, in registers. */
static inline int dead_end_pair(const Masks *m, const int64_t *state, const Regions *g,
                                int64_t o) {
    int64_t n0 = state[0], n1 = g->words > 1 ? state[1] : 0;
    for (int64_t e = cell(&m->halo_pair, o, 0) & ~n0; e; e &= e - 1)
        if (closed_pair(m, g, tz(e), n0, n1)) return 1;
    for (int64_t e = cell(&m->halo_pair, o, 1) & ~n1; e; e &= e - 1)
        if (closed_pair(m, g, WORD + tz(e), n0, n1)) return 1;
    return 0;
}

/* Whether option o, just placed on `state`, closes off a dead region (no geometry: never). */
static inline int closes_dead_region(const Masks *m, int64_t *state, const Regions *g,
                                     int64_t o) {
    if (!g->reach) return 0;
    return g->words <= 2 ? dead_end_pair(m, state, g, o) : dead_end(m, state, g, o);
}

/* ------------------------------------------------------------------- the memo */

/* A memo table (class Memo): buckets of two entries, each entry the key (`words` words of
 * covered items; -1: empty), the count's low and high words and the nodes its count took; a
 * shared table (SharedMemo) starts each bucket with a version word. */
typedef struct {
    int64_t *table;
    int64_t words, entry, lead, stride, mask, size; /* size: buckets (0: no memo) */
    int shared;
} Memo;

static Memo memo_of(int64_t *table, Py_ssize_t length, int64_t words, int shared) {
    Memo memo = {table, words, words + ENTRY, shared ? 1 : 0, 0, 0, 0, shared};
    memo.stride = 2 * memo.entry + memo.lead;
    memo.size = length / memo.stride;
    memo.mask = memo.size - 1;
    return memo;
}

/* The first entry of the bucket of hash h (after its version word, if any). */
static inline int64_t bucket_of(const Memo *memo, int64_t h) {
    return memo->stride * (h & memo->mask) + memo->lead;
}

/* Whether the entry at e holds `key` (the pieces, in the last word, differ most: first). */
static inline int same_key(const int64_t *table, int64_t e, const int64_t *key, int64_t words) {
    for (int64_t w = words - 1; w >= 0; w--)
        if (table[e + w] != key[w]) return 0;
    return 1;
}

/* Where the count of `key` is kept in the bucket at `at` (two entries), or -1. */
static inline int64_t memo_find(const Memo *memo, int64_t at, const int64_t *key) {
    if (same_key(memo->table, at, key, memo->words)) return at + memo->words;
    if (same_key(memo->table, at + memo->entry, key, memo->words))
        return at + memo->entry + memo->words;
    return -1;
}

/* The same, each word an atomic load (a table other threads write). */
static inline int64_t memo_find_atomic(const Memo *memo, int64_t at, const int64_t *key) {
    for (int64_t e = at; e <= at + memo->entry; e += memo->entry) {
        int64_t w = memo->words - 1;
        while (w >= 0 && load_relaxed(memo->table, e + w) == key[w]) w--;
        if (w < 0) return e + memo->words;
    }
    return -1;
}

/* The count of `key` kept in the bucket at `at` (*high its high word), or -1 (a count is never
 * negative). In a shared table the bucket's version word (at at - 1; odd while a thread writes
 * the bucket) is read before and after the entries, each word an atomic load: a count is taken
 * only where the version is even and unchanged, so an entry half written by another thread is
 * a miss, never a count (a seqlock: the entries' loads ordered before the second look at the
 * version by an acquire fence). */
static inline int64_t memo_get(const Memo *memo, int64_t at, const int64_t *key, int64_t *high) {
    *high = 0;
    if (!memo->shared) {
        int64_t k = memo_find(memo, at, key);
        if (k < 0) return -1;
        *high = memo->table[k + 1];
        return memo->table[k];
    }
    int64_t version = load_acquire(memo->table, at - 1);
    if (version & 1) return -1;
    int64_t found = -1, above = 0, k = memo_find_atomic(memo, at, key);
    if (k >= 0) {
        found = load_relaxed(memo->table, k);
        above = load_relaxed(memo->table, k + 1);
    }
    fence_acquire();
    if (load_relaxed(memo->table, at - 1) != version) return -1;
    *high = above;
    return found;
}

/* Which entry of the bucket at `at` takes `key`: its own, an empty one, else the one whose
 * count took less work (large sub-problems stay, small ones come and go). */
static inline int64_t entry_for(const Memo *memo, int64_t at, const int64_t *key) {
    const int64_t *t = memo->table, words = memo->words, e = memo->entry;
    int64_t k = memo_find(memo, at, key);
    if (k >= 0) return k - words;
    if (t[at] == -1) return at;
    if (t[at + e] == -1) return at + e;
    return t[at + e + words + 2] < t[at + words + 2] ? at + e : at;
}

/* Keep a sub-problem's count (low and high words) and its work in the bucket at `at`. In a
 * shared table the writer first takes the bucket (its version from even to odd by
 * compare-and-swap; a bucket another thread is writing is left alone: the count is not kept, a
 * later miss at worst), writes the entry by atomic stores after a release fence, and gives the
 * bucket back with the next even version (a release store). */
static inline void memo_store(const Memo *memo, int64_t at, const int64_t *key, int64_t found,
                              int64_t high, int64_t work) {
    int64_t *t = memo->table, words = memo->words, version = 0;
    if (memo->shared) {
        version = load_relaxed(t, at - 1);
        if (version & 1 || !compare_and_swap(t, at - 1, version, version + 1)) return;
        fence_release();
    }
    int64_t k = entry_for(memo, at, key); /* a bucket held, or not shared: no one else writes */
    if (!memo->shared) {
        memcpy(t + k, key, sizeof(int64_t) * words);
        t[k + words] = found;
        t[k + words + 1] = high;
        t[k + words + 2] = work;
        return;
    }
    for (int64_t w = 0; w < words; w++) store_relaxed(t, k + w, key[w]);
    store_relaxed(t, k + words, found);
    store_relaxed(t, k + words + 1, high);
    store_relaxed(t, k + words + 2, work);
    store_release(t, at - 1, version + 2);
}

/* Read the bucket at b of a table (its 2 entries, after its version word where shared) into
 * `out` as memo_get reads it; whether it was whole (a bucket being written is left out). */
static int bucket_read(const Memo *memo, int64_t b, int64_t *out) {
    int64_t n = 2 * memo->entry;
    if (!memo->shared) {
        memcpy(out, memo->table + b, sizeof(int64_t) * n);
        return 1;
    }
    int64_t version = load_acquire(memo->table, b);
    if (version & 1) return 0;
    for (int64_t j = 0; j < n; j++) out[j] = load_relaxed(memo->table, b + 1 + j);
    fence_acquire();
    return load_relaxed(memo->table, b) == version;
}

/* Add (low, high) to level d's count (below[d], above[d]), each word LIMB bits, the low word's
 * carry into the high one; whether the high word passed LIMB bits (the count past
 * 2^(2 * LIMB) - 1: the search stops rather than wrap). */
static inline int add(int64_t *below, int64_t *above, int64_t d, int64_t low, int64_t high) {
    int64_t x = below[d] + low; /* two words of LIMB bits: no overflow */
    below[d] = x & LOW;
    above[d] += high + (x >> LIMB);
    return above[d] < 0 || above[d] > LOW;
}

/* ------------------------------------------------------------------- the search */

/* The resumable stack of a search (class Search), per level d: the options still to try
 * (listed[d]: the bits of alive[d] covering item last[d], from cover word nxt[d] on, pend[d]
 * the bits of word pend_word[d] not tried yet; else the slice nxt[d]..last[d] of the options
 * whose first item is the first uncovered one), the solutions found under it (below, above),
 * the option placed to reach level d + 1, the word of its first item and the nodes counted
 * when it began. */
typedef struct {
    int64_t *var, *nxt, *last, *below, *above, *begun, *listed, *placed, *first, *chosen;
    int64_t *pend, *pend_word, *tally;
    int64_t levels;
} Stack;

/* What a search reads besides its stack: the board, its state, the memo, the options. */
typedef struct {
    const Masks *m;
    int64_t *state;
    int64_t words, budget, memo_depth, fewest_levels;
    int record;
    Memo memo;
    Regions regions;
    Fits fits;
} Run;

/* The next option level d tries, or -1 when its options are exhausted. */
static inline int64_t next_option(const Run *run, Stack *s, int64_t d) {
    int64_t i = s->nxt[d];
    if (s->listed[d]) { /* the options of alive[d] covering item last[d], bit by bit */
        const Masks *m = run->m;
        int64_t x = s->pend[d], u = s->last[d];
        const int64_t *alive = run->fits.alive + d * run->fits.alive_cols;
        while (x == 0 && i < m->cover_word.cols && cell(&m->cover_mask, u, i) != 0) {
            s->pend_word[d] = cell(&m->cover_word, u, i);
            x = alive[s->pend_word[d]] & cell(&m->cover_mask, u, i);
            i++;
        }
        s->nxt[d] = i;
        if (!x) return -1;
        int64_t one = lowest_bit(x);
        s->pend[d] = x ^ one;
        return WORD * s->pend_word[d] + tz(one);
    }
    if (i < s->last[d]) {
        s->nxt[d] = i + 1;
        return i;
    }
    return -1;
}

/* Level d + 1 opened below option o (placed on the state; w the word and b the bit of the first
 * uncovered item): its options those of the item with the fewest fits where d + 1 branches so,
 * else those whose first item is b. */
static inline void open_level(const Run *run, Stack *s, int64_t d, int64_t o, int64_t w,
                              int64_t b, int64_t nodes) {
    s->placed[d] = o;
    d++;
    s->first[d] = w;
    s->below[d] = 0;
    s->above[d] = 0;
    s->begun[d] = nodes;
    int64_t u = -1;
    if (d < run->fewest_levels) {
        alive_after(run->m, run->state, &run->fits, o, d - 1, d);
        u = least(run->m, run->state, run->words, w, &run->fits, d);
    }
    if (u >= 0) {
        s->nxt[d] = 0;
        s->last[d] = u;
        s->pend[d] = 0;
        s->listed[d] = 1;
    } else {
        s->nxt[d] = run->m->start.at[b];
        s->last[d] = run->m->end.at[b];
        s->listed[d] = 0;
    }
}

/* The first solution's options written to `chosen` (one per level, -1 after the last). */
static void record_solution(Stack *s, int64_t d, int64_t o) {
    for (int64_t k = 0; k < d; k++) s->chosen[k] = s->placed[k];
    s->chosen[d] = o;
    s->chosen[d + 1] = -1;
}

/* The saved registers (depth, items left, hash) and the slice's nodes put back on the stack. */
static inline void save(Stack *s, int64_t d, int64_t left, int64_t h, int64_t steps) {
    s->var[V_DEPTH] = d;
    s->var[V_LEFT] = left;
    s->var[V_HASH] = h;
    s->tally[0] += steps;
}

/* What a node's option led to. */
enum { GO_DOWN, GO_ON, STOP_OVER, STOP_RECORDED };

/* Run the search from its saved stack for at most `budget` nodes (see Search in
 * runners/backends/bitboard.py): whether the search is over. A level whose options are
 * exhausted has counted its whole sub-problem: with a memo its count is stored under the
 * covered items, and a later level reaching the same covered items takes it from there.
 * tally[0] counts nodes, [1] memo hits, [2] stores, [3] options dropped for closing off a
 * region no piece can fill. A count past 2^(2 * LIMB) - 1 sets var[V_OVERFLOW] and ends it;
 * with `record` the first solution's options go to `chosen` and the search stops there. */
static int search(const Run *run, Stack *s) {
    const Masks *m = run->m;
    const Memo *memo = &run->memo;
    int64_t *state = run->state, *tally = s->tally;
    int64_t d = s->var[V_DEPTH], left = s->var[V_LEFT], h = s->var[V_HASH], steps = 0;
    const int keep = memo->size > 0; /* the hash is kept only for a memo */
    while (d >= 0) {
        if (steps >= run->budget) {
            save(s, d, left, h, steps);
            return 0;
        }
        int64_t o = next_option(run, s, d);
        if (o < 0) { /* level d counted: its count kept, and added to the level above */
            int64_t found = s->below[d], high = s->above[d];
            if (keep && 0 < d && d < run->memo_depth) { /* level 0: the cube's start */
                memo_store(memo, bucket_of(memo, h), state, found, high,
                           tally[0] + steps - s->begun[d]);
                tally[2]++;
            }
            if (d == 0) break;
            d--;
            o = s->placed[d];
            h = take_back(m, state, o, h, keep, &left);
            if (add(s->below, s->above, d, found, high)) {
                s->var[V_OVERFLOW] = 1;
                break;
            }
            continue;
        }
        if (!s->listed[d] && !fits(m, state, o)) {
            if (state[m->last_word.at[o]] & m->last_mask.at[o])
                s->nxt[d] = m->run_end.at[o]; /* its piece is placed: so are the run's others */
            continue;
        }
        h = put(m, state, o, h, keep, &left);
        if (closes_dead_region(m, state, &run->regions, o)) {
            h = take_back(m, state, o, h, keep, &left);
            tally[3]++;
            continue;
        }
        steps++;
        if (left == 0) { /* every item covered: a solution where the copies are enough */
            int whole = enough(m, state);
            h = take_back(m, state, o, h, keep, &left);
            if (!whole) continue;
            if (add(s->below, s->above, d, 1, 0)) {
                s->var[V_OVERFLOW] = 1;
                break;
            }
            if (run->record) {
                record_solution(s, d, o);
                save(s, d, left, h, steps);
                return 0;
            }
            continue;
        }
        if (keep && d + 1 < run->memo_depth) {
            int64_t high, kept = memo_get(memo, bucket_of(memo, h), state, &high);
            if (kept >= 0) {
                tally[1]++;
                h = take_back(m, state, o, h, keep, &left);
                if (add(s->below, s->above, d, kept, high)) {
                    s->var[V_OVERFLOW] = 1;
                    break;
                }
                continue;
            }
        }
        int64_t w = s->first[d], b = first_uncovered(m, state, run->words, &w);
        if (b < 0) { /* every cell covered, some copies not placed: no cover here */
            h = take_back(m, state, o, h, keep, &left);
            continue;
        }
        open_level(run, s, d, o, w, b, tally[0] + steps);
        d++;
    }
    save(s, -1, left, h, steps);
    return 1;
}

/* ---------------------------------------------------------------- Knuth's estimate */

/* The Mersenne Twister as numba's np.random ran it (seeded by init_genrand, integers below n
 * by rejection of the low bits), so that an estimate is the one numba's search made. */
typedef struct {
    uint32_t mt[624];
    int index;
} Twister;

static void twister_seed(Twister *r, uint32_t seed) {
    for (int pos = 0; pos < 624; pos++) {
        r->mt[pos] = seed;
        seed = 1812433253U * (seed ^ (seed >> 30)) + (uint32_t)pos + 1;
    }
    r->index = 624;
}

static void twister_shuffle(Twister *r) {
    uint32_t *mt = r->mt;
    for (int i = 0; i < 624; i++) {
        uint32_t y = (mt[i] & 0x80000000U) | (mt[(i + 1) % 624] & 0x7fffffffU);
        mt[i] = mt[(i + 397) % 624] ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
    }
    r->index = 0;
}

static uint32_t twister_next(Twister *r) {
    if (r->index >= 624) twister_shuffle(r);
    uint32_t y = r->mt[r->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

/* A random integer in [0, n) (n >= 1), as numba's np.random.randint(0, n). */
static int64_t twister_below(Twister *r, int64_t n) {
    if (n == 1) return 0;
    int bits = 64 - __builtin_clzll((uint64_t)(n - 1));
    for (;;) {
        uint64_t x;
        if (bits <= 32) {
            x = twister_next(r) & (0xffffffffU >> (32 - bits));
        } else {
            uint64_t high = twister_next(r) & (0xffffffffU >> (64 - bits));
            x = (high << 32) | twister_next(r);
        }
        if ((int64_t)x < n) return (int64_t)x;
    }
}

/* What the estimate reads: the board, the start, room for a path. */
typedef struct {
    const Masks *m;
    const int64_t *start_state;
    int64_t *state, *options; /* a path's covered items; a node's options that fit */
    int64_t words, start_left, n;
    int fewest;
    Regions regions;
    Fits fits; /* two rows: 0 the path's, 1 the start's */
} Probe;

/* The options of the node at `state` (the first uncovered item b, or item u with the fewest
 * fits) that fit and close off no dead region, into p->options; their number. */
static int64_t branches(const Probe *p, int64_t b, int64_t u) {
    const Masks *m = p->m;
    int64_t lo = u >= 0 ? m->member_at.at[u] : m->start.at[b];
    int64_t hi = u >= 0 ? m->member_at.at[u + 1] : m->end.at[b], k = 0;
    for (int64_t j = lo; j < hi; j++) {
        int64_t o = u >= 0 ? m->members.at[j] : j;
        if (!fits(m, p->state, o)) continue;
        if (p->regions.reach) {
            place(m, p->state, o, 0, 1, 0);
            int dead = closes_dead_region(m, p->state, &p->regions, o);
            place(m, p->state, o, 0, -1, 0);
            if (dead) continue;
        }
        p->options[k++] = o;
    }
    return k;
}

/* One random path down the tree from the start: its nodes and solutions, each node's
 * branching multiplying the weight of those below. */
static void path(const Probe *p, Twister *r, double *nodes, double *solutions) {
    const Masks *m = p->m;
    memcpy(p->state, p->start_state, sizeof(int64_t) * p->words);
    int64_t left = p->start_left, w = 0;
    double weight = 1.0;
    *nodes = 1.0;
    if (p->fewest) {
        memcpy(p->fits.alive, p->fits.alive + p->fits.alive_cols,
               sizeof(int64_t) * p->fits.alive_cols);
        memcpy(p->fits.fits, p->fits.fits + p->fits.fits_cols,
               sizeof(int64_t) * p->fits.fits_cols);
    }
    while (left > 0) {
        int64_t b = first_uncovered(m, p->state, p->words, &w);
        if (b < 0) break;
        int64_t u = p->fewest ? least(m, p->state, p->words, w, &p->fits, 0) : -1;
        int64_t k = branches(p, b, u);
        if (k == 0) break;
        weight *= (double)k;
        *nodes += weight;
        int64_t o = p->options[twister_below(r, k)];
        place(m, p->state, o, 0, 1, 0);
        left -= m->units.at[o];
        if (p->fewest) alive_after(m, p->state, &p->fits, o, 0, 0);
    }
    *solutions = left == 0 && enough(m, p->state) ? weight : 0.0;
}

/* Knuth's estimate over `samples` paths: the means of the paths' nodes and solutions and the
 * standard deviations of both, in out[0..3]. */
static void probe(const Probe *p, uint32_t seed, int64_t samples, double *out) {
    Twister r;
    twister_seed(&r, seed);
    double sums[4] = {0.0, 0.0, 0.0, 0.0};
    if (p->fewest) { /* the start's options that fit and their counts, row 1, once */
        alive_of(p->m, p->start_state, &p->fits, 1, p->n);
        fits_of(p->m, &p->fits, 1);
    }
    for (int64_t i = 0; i < samples; i++) {
        double nodes, solutions;
        path(p, &r, &nodes, &solutions);
        sums[0] += nodes;
        sums[1] += solutions;
        sums[2] += nodes * nodes;
        sums[3] += solutions * solutions;
    }
    out[0] = sums[0] / samples;
    out[1] = sums[1] / samples;
    out[2] = sqrt(fmax(0.0, sums[2] / samples - out[0] * out[0]));
    out[3] = sqrt(fmax(0.0, sums[3] / samples - out[1] * out[1]));
}

/* ------------------------------------------------------------ the Python functions */

/* Reading the arguments: each helper sets a Python error and returns -1 where one is wrong. */

static int state_of(Arrays *arrays, PyObject *obj, const Masks *m, Table *t) {
    if (table_of(arrays, obj, 1, "state", t) < 0) return -1;
    if (t->cols != 1 || t->rows != m->single.rows || t->rows < 1) {
        PyErr_SetString(PyExc_ValueError, "state: one word per word of the board expected");
        return -1;
    }
    return 0;
}

/* An int64 array of at least `rows` rows (and `cols` columns where cols > 0). */
static int sized(Arrays *arrays, PyObject *obj, int writable, const char *name, Py_ssize_t rows,
                 Py_ssize_t cols, Table *t) {
    if (table_of(arrays, obj, writable, name, t) < 0) return -1;
    if (t->rows < rows || (cols > 0 && t->cols != cols)) {
        PyErr_Format(PyExc_ValueError, "%s: an array too small for the board", name);
        return -1;
    }
    return 0;
}

/* The fewest-fits rows `alive` and `fits` (at least `rows` rows each where they are used). */
static int fits_arrays(Arrays *arrays, PyObject *alive, PyObject *counts, const Masks *m,
                       Py_ssize_t rows, Fits *t) {
    Table a, f;
    if (table_of(arrays, alive, 1, "alive", &a) < 0 || table_of(arrays, counts, 1, "fits", &f) < 0)
        return -1;
    if (rows > 0 && (a.rows < rows || f.rows < rows ||
                     a.cols * WORD < m->base.rows || f.cols < m->zobrist.rows)) {
        PyErr_SetString(PyExc_ValueError, "alive, fits: arrays too small for the board");
        return -1;
    }
    *t = (Fits){a.at, f.at, a.cols, f.cols};
    return 0;
}

/* The most neighbours a cell has (near_mask's bits in a row): a region grows past `reach` cells
 * by at most this many before the check sees it. */
static int64_t most_neighbours(const Masks *m) {
    int64_t most = 0;
    for (Py_ssize_t x = 0; x < m->near_mask.rows; x++) {
        int64_t k = 0;
        for (int32_t e = 0; e < m->near_mask.cols; e++)
            k += popcount64((uint64_t)cell(&m->near_mask, x, e));
        if (k > most) most = k;
    }
    return most;
}

/* The geometry of a board (Board.smallest, granule, reach) and the room it is grown in (the
 * arrays checked large enough for the board, so that a wrong one is an error, not a crash). */
static int regions_of(Arrays *arrays, const Masks *m, PyObject *scratch, PyObject *seen,
                      PyObject *const *ints, int64_t words, Regions *g) {
    Table sc, se;
    if (table_of(arrays, scratch, 1, "scratch", &sc) < 0 || table_of(arrays, seen, 1, "seen", &se) < 0)
        return -1;
    if (int_of(ints[0], &g->smallest, "smallest") < 0 ||
        int_of(ints[1], &g->granule, "granule") < 0 || int_of(ints[2], &g->reach, "reach") < 0)
        return -1;
    int bad = g->granule < 1 || g->reach < 0 || se.rows < words;
    if (g->reach && words <= 2)
        bad |= m->near_pair.rows < m->zobrist.rows || m->halo_pair.rows < m->base.rows ||
               m->near_pair.cols != 2 || m->halo_pair.cols != 2;
    else if (g->reach)
        bad |= sc.rows < g->reach + 1 + most_neighbours(m) || m->near_mask.rows < m->zobrist.rows ||
               m->halo_mask.rows < m->base.rows;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "regions: a geometry or room the board cannot take");
        return -1;
    }
    g->scratch = sc.at;
    g->seen = se.at;
    g->words = words;
    return 0;
}

static PyObject *fail(Arrays *arrays) {
    arrays_release(arrays);
    return NULL;
}

/* search(masks, scratch, seen, state, var, nxt, last, below, above, begun, listed, placed,
 *        first, budget, record, chosen, memo, shared, memo_depth, tally, fewest_levels,
 *        smallest, granule, reach, alive, fits, pend, pend_word) -> whether the search is over
 * (the arguments of Search.run; see search above). */
static PyObject *py_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("search", nargs, 28) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Run run = {0};
    Stack s = {0};
    Table state, var, memo, tally, t;
    int64_t record, shared;
    if (masks_of(&arrays, args[0], &m) < 0 || state_of(&arrays, args[3], &m, &state) < 0)
        return fail(&arrays);
    if (regions_of(&arrays, &m, args[1], args[2], args + 21, state.rows, &run.regions) < 0)
        return fail(&arrays);
    if (sized(&arrays, args[4], 1, "var", 4, 1, &var) < 0) return fail(&arrays);
    int64_t levels = m.zobrist.rows + 2; /* each option covers an item once */
    int64_t **stack[] = {&s.nxt, &s.last, &s.below, &s.above, &s.begun, &s.listed, &s.placed,
                         &s.first};
    static const char *names[] = {"nxt", "last", "below", "above", "begun", "listed", "placed",
                                  "first"};
    for (int i = 0; i < 8; i++) {
        if (sized(&arrays, args[5 + i], 1, names[i], levels, 1, &t) < 0) return fail(&arrays);
        *stack[i] = t.at;
    }
    if (int_of(args[13], &run.budget, "budget") < 0 || int_of(args[14], &record, "record") < 0 ||
        sized(&arrays, args[15], 1, "chosen", levels, 1, &t) < 0)
        return fail(&arrays);
    s.chosen = t.at;
    if (table_of(&arrays, args[16], 1, "memo", &memo) < 0 ||
        int_of(args[17], &shared, "shared") < 0 ||
        int_of(args[18], &run.memo_depth, "memo_depth") < 0 ||
        sized(&arrays, args[19], 1, "tally", 4, 1, &tally) < 0 ||
        int_of(args[20], &run.fewest_levels, "fewest_levels") < 0)
        return fail(&arrays);
    if (run.memo_depth > levels || run.fewest_levels > levels) {
        PyErr_SetString(PyExc_ValueError, "memo_depth, fewest_levels: past the board's levels");
        return fail(&arrays);
    }
    if (fits_arrays(&arrays, args[24], args[25], &m, run.fewest_levels ? levels : 0, &run.fits) < 0 ||
        sized(&arrays, args[26], 1, "pend", levels, 1, &t) < 0)
        return fail(&arrays);
    s.pend = t.at;
    if (sized(&arrays, args[27], 1, "pend_word", levels, 1, &t) < 0) return fail(&arrays);
    s.pend_word = t.at;
    s.var = var.at;
    s.tally = tally.at;
    s.levels = levels;
    run.m = &m;
    run.state = state.at;
    run.words = state.rows;
    run.record = record != 0;
    run.memo = memo_of(memo.at, memo.rows * memo.cols, state.rows, shared != 0);
    if (var.at[V_DEPTH] >= levels || (run.memo.size & (run.memo.size - 1))) {
        PyErr_SetString(PyExc_ValueError, "var, memo: a stack or table the board cannot take");
        return fail(&arrays);
    }
    int over;
    Py_BEGIN_ALLOW_THREADS
    over = search(&run, &s);
    Py_END_ALLOW_THREADS
    arrays_release(&arrays);
    return PyBool_FromLong(over);
}

/* probe(masks, scratch, seen, start_state, start_left, seed, samples, fewest, smallest,
 *       granule, reach, state, fits, out, alive, counts): Knuth's estimate (see probe above)
 * written to out (float64: nodes, solutions and the standard deviations of both). */
static PyObject *py_probe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("probe", nargs, 16) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Probe p = {0};
    Table start, state, options, out;
    int64_t seed, samples, fewest;
    if (masks_of(&arrays, args[0], &m) < 0 || table_of(&arrays, args[3], 0, "start_state", &start) < 0)
        return fail(&arrays);
    if (start.rows != m.single.rows || start.cols != 1) {
        PyErr_SetString(PyExc_ValueError, "start_state: one word per word of the board expected");
        return fail(&arrays);
    }
    if (regions_of(&arrays, &m, args[1], args[2], args + 8, start.rows, &p.regions) < 0 ||
        int_of(args[4], &p.start_left, "start_left") < 0 || int_of(args[5], &seed, "seed") < 0 ||
        int_of(args[6], &samples, "samples") < 0 || int_of(args[7], &fewest, "fewest") < 0 ||
        state_of(&arrays, args[11], &m, &state) < 0 ||
        sized(&arrays, args[12], 1, "fits", m.base.rows, 1, &options) < 0 ||
        sized(&arrays, args[13], 1, "out", 4, 1, &out) < 0 ||
        fits_arrays(&arrays, args[14], args[15], &m, fewest ? 2 : 0, &p.fits) < 0)
        return fail(&arrays);
    if (samples < 1) {
        PyErr_SetString(PyExc_ValueError, "samples: at least one path");
        return fail(&arrays);
    }
    p.m = &m;
    p.start_state = start.at;
    p.state = state.at;
    p.options = options.at;
    p.words = start.rows;
    p.n = options.rows - 1;
    p.fewest = fewest != 0;
    double *sums = (double *)out.at;
    Py_BEGIN_ALLOW_THREADS
    probe(&p, (uint32_t)seed, samples, sums);
    Py_END_ALLOW_THREADS
    arrays_release(&arrays);
    Py_RETURN_NONE;
}

/* take(masks, state, j) -> whether option j fitted `state` (then placed on it). */
static PyObject *py_take(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("take", nargs, 3) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    int64_t j;
    if (masks_of(&arrays, args[0], &m) < 0 || state_of(&arrays, args[1], &m, &state) < 0 ||
        int_of(args[2], &j, "j") < 0)
        return fail(&arrays);
    if (j < 0 || j >= m.base.rows) {
        PyErr_SetString(PyExc_IndexError, "j: no such option");
        return fail(&arrays);
    }
    int fitted = fits(&m, state.at, j);
    if (fitted) place(&m, state.at, j, 0, 1, 0);
    arrays_release(&arrays);
    return PyBool_FromLong(fitted);
}

/* hash_of(masks, state) -> the Zobrist hash of its covered items. */
static PyObject *py_hash_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("hash_of", nargs, 2) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    if (masks_of(&arrays, args[0], &m) < 0 || state_of(&arrays, args[1], &m, &state) < 0)
        return fail(&arrays);
    int64_t h = hash_of(&m, state.at);
    arrays_release(&arrays);
    return PyLong_FromLongLong(h);
}

/* enough(masks, state) -> whether every counter holds its fewest copies. */
static PyObject *py_enough(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("enough", nargs, 2) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    if (masks_of(&arrays, args[0], &m) < 0 || state_of(&arrays, args[1], &m, &state) < 0)
        return fail(&arrays);
    int whole = enough(&m, state.at);
    arrays_release(&arrays);
    return PyBool_FromLong(whole);
}

/* first_uncovered(masks, state, w) -> (its word, its bit), bit -1 when all are covered. */
static PyObject *py_first_uncovered(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("first_uncovered", nargs, 3) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    int64_t w;
    if (masks_of(&arrays, args[0], &m) < 0 || state_of(&arrays, args[1], &m, &state) < 0 ||
        int_of(args[2], &w, "w") < 0)
        return fail(&arrays);
    if (w < 0) w = 0;
    int64_t b = first_uncovered(&m, state.at, state.rows, &w);
    arrays_release(&arrays);
    return Py_BuildValue("(LL)", (long long)w, (long long)b);
}

/* Every entry of `from` that took at least `fewest_nodes` nodes to count stored in `to`
 * (keys of `words` words, hashed by m's zobrist and fields); a bucket being written
 * meanwhile is left out. */
static void rehash(const Memo *from, const Memo *to, const Masks *m, int64_t words,
                   int64_t fewest_nodes) {
    int64_t bucket[2 * (1024 + ENTRY)];
    for (int64_t b = 0; to->size && b + from->stride <= from->size * from->stride;
         b += from->stride) {
        if (!bucket_read(from, b, bucket)) continue;
        for (int64_t e = 0; e < 2 * from->entry; e += from->entry)
            if (bucket[e] != -1 && bucket[e + words + 2] >= fewest_nodes)
                memo_store(to, bucket_of(to, hash_of(m, bucket + e)), bucket + e,
                           bucket[e + words], bucket[e + words + 1], bucket[e + words + 2]);
    }
}

/* rehash(old, new, words, zobrist, fields, shared, fewest_nodes): copy a memo's entries that
 * took at least `fewest_nodes` nodes into a larger table of the same layout (one that took
 * fewer costs more to copy than to count again). A shared table is read bucket by bucket as
 * memo_get reads it while other threads may still write it: a bucket being written is left
 * out (a later miss at worst). */
static PyObject *py_rehash(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("rehash", nargs, 7) < 0) return NULL;
    Arrays arrays = {0};
    Table old, new, zobrist, fields;
    int64_t words, shared, fewest_nodes;
    if (table_of(&arrays, args[0], 0, "old", &old) < 0 ||
        table_of(&arrays, args[1], 1, "new", &new) < 0 || int_of(args[2], &words, "words") < 0 ||
        table_of(&arrays, args[3], 0, "zobrist", &zobrist) < 0 ||
        table_of(&arrays, args[4], 0, "fields", &fields) < 0 ||
        int_of(args[5], &shared, "shared") < 0 ||
        int_of(args[6], &fewest_nodes, "fewest_nodes") < 0)
        return fail(&arrays);
    Memo from = memo_of(old.at, old.rows, words, shared != 0);
    Memo to = memo_of(new.at, new.rows, words, shared != 0);
    if (words < 1 || words > 1024 || (to.size & (to.size - 1)) ||
        zobrist.rows > WORD * words || (fields.rows && fields.cols != 6)) {
        PyErr_SetString(PyExc_ValueError, "rehash: tables or a board of inconsistent sizes");
        return fail(&arrays);
    }
    Masks m = {0};
    m.zobrist = zobrist;
    m.fields = fields;
    Py_BEGIN_ALLOW_THREADS
    rehash(&from, &to, &m, words, fewest_nodes);
    Py_END_ALLOW_THREADS
    arrays_release(&arrays);
    Py_RETURN_NONE;
}

/* The fewest-fits bookkeeping on its own (Search._fewest, and the tests):
 * alive_of(masks, state, alive, fits, row, n), fits_of(masks, alive, fits, row),
 * least(masks, state, w, alive, fits, row) -> an item or -1,
 * alive_after(masks, state, alive, fits, o, src, dst). */
static int fewest_arguments(Arrays *arrays, PyObject *const *args, Masks *m, Table *state,
                            Fits *t, PyObject *row_obj, int64_t *row) {
    if (masks_of(arrays, args[0], m) < 0 || (state && state_of(arrays, args[1], m, state) < 0) ||
        fits_arrays(arrays, args[2], args[3], m, 1, t) < 0 || int_of(row_obj, row, "row") < 0)
        return -1;
    const Py_buffer *a = &arrays->views[arrays->count - 2], *f = &arrays->views[arrays->count - 1];
    if (*row < 0 || *row >= a->shape[0] || *row >= f->shape[0]) {
        PyErr_SetString(PyExc_IndexError, "row: no such row");
        return -1;
    }
    return 0;
}

static PyObject *py_alive_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("alive_of", nargs, 6) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    Fits t;
    int64_t row, n;
    if (fewest_arguments(&arrays, args, &m, &state, &t, args[4], &row) < 0 ||
        int_of(args[5], &n, "n") < 0)
        return fail(&arrays);
    if (n < 0 || n > m.base.rows) n = m.base.rows;
    alive_of(&m, state.at, &t, row, n);
    arrays_release(&arrays);
    Py_RETURN_NONE;
}

static PyObject *py_fits_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("fits_of", nargs, 4) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Fits t;
    int64_t row;
    PyObject *shifted[4] = {args[0], NULL, args[1], args[2]};
    if (fewest_arguments(&arrays, shifted, &m, NULL, &t, args[3], &row) < 0)
        return fail(&arrays);
    fits_of(&m, &t, row);
    arrays_release(&arrays);
    Py_RETURN_NONE;
}

static PyObject *py_least(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("least", nargs, 6) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    Fits t;
    int64_t row, w;
    PyObject *shifted[4] = {args[0], args[1], args[3], args[4]};
    if (fewest_arguments(&arrays, shifted, &m, &state, &t, args[5], &row) < 0 ||
        int_of(args[2], &w, "w") < 0)
        return fail(&arrays);
    int64_t u = least(&m, state.at, state.rows, w < 0 ? 0 : w, &t, row);
    arrays_release(&arrays);
    return PyLong_FromLongLong(u);
}

static PyObject *py_alive_after(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("alive_after", nargs, 7) < 0) return NULL;
    Arrays arrays = {0};
    Masks m;
    Table state;
    Fits t;
    int64_t o, src, dst;
    if (fewest_arguments(&arrays, args, &m, &state, &t, args[6], &dst) < 0 ||
        int_of(args[4], &o, "o") < 0 || int_of(args[5], &src, "src") < 0)
        return fail(&arrays);
    const Py_buffer *a = &arrays.views[arrays.count - 2];
    if (o < 0 || o >= m.base.rows || src < 0 || src >= a->shape[0]) {
        PyErr_SetString(PyExc_IndexError, "o, src: no such option or row");
        return fail(&arrays);
    }
    alive_after(&m, state.at, &t, o, src, dst);
    arrays_release(&arrays);
    Py_RETURN_NONE;
}

/* add(below, above, d, low, high) -> whether level d's count passed two words (see add). */
static PyObject *py_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("add", nargs, 5) < 0) return NULL;
    Arrays arrays = {0};
    Table below, above;
    int64_t d, low, high;
    if (table_of(&arrays, args[0], 1, "below", &below) < 0 ||
        table_of(&arrays, args[1], 1, "above", &above) < 0 || int_of(args[2], &d, "d") < 0 ||
        int_of(args[3], &low, "low") < 0 || int_of(args[4], &high, "high") < 0)
        return fail(&arrays);
    if (d < 0 || d >= below.rows || d >= above.rows) {
        PyErr_SetString(PyExc_IndexError, "d: no such level");
        return fail(&arrays);
    }
    int over = add(below.at, above.at, d, low, high);
    arrays_release(&arrays);
    return PyBool_FromLong(over);
}

/* hammer's rounds: random stores and reads of keys 0-63 in `memo` (see py_hammer). */
static void hammer(const Memo *memo, int64_t words, uint32_t seed, int64_t rounds,
                   int64_t *out) {
    Twister r;
    twister_seed(&r, seed);
    int64_t key[64];
    for (int64_t i = 0; i < rounds; i++) {
        int64_t k = twister_below(&r, 64);
        for (int64_t w = 0; w < words; w++) key[w] = k * (w + 1);
        int64_t at = bucket_of(memo, k);
        if (twister_below(&r, 2)) {
            memo_store(memo, at, key, k * 1000003 + 7, k * 7 + 1, twister_below(&r, 1000));
        } else {
            int64_t high, got = memo_get(memo, at, key, &high);
            if (got >= 0) {
                out[1]++;
                if (got != k * 1000003 + 7 || high != k * 7 + 1) out[0]++;
            }
        }
    }
}

/* hammer(table, words, seed, rounds, out): a test of the shared memo's protocol. Random stores
 * and reads of keys 0-63 (key word w: k * (w + 1); count: k * 1000003 + 7, high k * 7 + 1) in
 * a shared table: out[0] counts read that are not their key's, out[1] counts read. Threads run
 * it at once on one table (the GIL released). */
static PyObject *py_hammer(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("hammer", nargs, 5) < 0) return NULL;
    Arrays arrays = {0};
    Table table, out;
    static const char *const names[] = {"words", "seed", "rounds"};
    int64_t given[3];
    if (table_of(&arrays, args[0], 1, "table", &table) < 0 || ints_of(args + 1, 3, names, given) < 0 ||
        sized(&arrays, args[4], 1, "out", 2, 1, &out) < 0)
        return fail(&arrays);
    int64_t words = given[0], seed = given[1], rounds = given[2];
    Memo memo = memo_of(table.at, table.rows, words, 1);
    if (words < 1 || words > 64 || memo.size < 1 || (memo.size & (memo.size - 1))) {
        PyErr_SetString(PyExc_ValueError, "hammer: a shared table of a power of two buckets");
        return fail(&arrays);
    }
    Py_BEGIN_ALLOW_THREADS
    hammer(&memo, words, (uint32_t)seed, rounds, out.at);
    Py_END_ALLOW_THREADS
    arrays_release(&arrays);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL,
     "A slice of the search from its saved stack; whether it is over."},
    {"probe", (PyCFunction)(void (*)(void))py_probe, METH_FASTCALL,
     "Knuth's random-path estimate of a cube's tree, into out."},
    {"take", (PyCFunction)(void (*)(void))py_take, METH_FASTCALL,
     "Option j placed on state where it fits; whether it did."},
    {"hash_of", (PyCFunction)(void (*)(void))py_hash_of, METH_FASTCALL,
     "The Zobrist hash of a state's covered items."},
    {"enough", (PyCFunction)(void (*)(void))py_enough, METH_FASTCALL,
     "Whether every counter holds its fewest copies."},
    {"first_uncovered", (PyCFunction)(void (*)(void))py_first_uncovered, METH_FASTCALL,
     "(word, bit) of the first uncovered item from word w on; bit -1 for none."},
    {"rehash", (PyCFunction)(void (*)(void))py_rehash, METH_FASTCALL,
     "A memo's entries copied into a larger table."},
    {"alive_of", (PyCFunction)(void (*)(void))py_alive_of, METH_FASTCALL,
     "alive[row]: the options that fit state."},
    {"fits_of", (PyCFunction)(void (*)(void))py_fits_of, METH_FASTCALL,
     "fits[row]: each item's options in alive[row]."},
    {"least", (PyCFunction)(void (*)(void))py_least, METH_FASTCALL,
     "The uncovered item with the fewest fits, or -1."},
    {"alive_after", (PyCFunction)(void (*)(void))py_alive_after, METH_FASTCALL,
     "alive[dst] and fits[dst] once option o is placed."},
    {"add", (PyCFunction)(void (*)(void))py_add, METH_FASTCALL,
     "A count added to level d's two words; whether it passed them."},
    {"hammer", (PyCFunction)(void (*)(void))py_hammer, METH_FASTCALL,
     "A test of the shared memo: random stores and reads on threads."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "puzzlesat._bitboard",
    "The bitboard packing search, compiled at install (runners/csrc/bitboard.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__bitboard(void) { return PyModule_Create(&module); }
