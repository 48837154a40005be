/* edgecount's searches (runners/backends/edgecount.py): the edge-matching tile count, in C.
 *
 * Three searches over one model's tables, each resumable: it runs from the stack saved in its
 * arrays for at most a budget of nodes, and saves the stack again, so that Python can honour a
 * deadline or Ctrl-C between slices. A node is a tile kind turned one distinct way placed on
 * a cell; at the last cell the grids left are counted, each one node.
 *
 * - search: the scan. A depth's candidates are one slice of `candidates` (the key of the
 *   colours its earlier neighbours show picks it in `table`); the kinds used up are skipped.
 * - search_tiles: where the tiles fit one 64-bit word, every tile a bit (a kind's copies side
 *   by side, the lowest in stock used first). A key's candidates are cut into layers; a
 *   layer's kinds in stock are one AND, and the child's key one addition.
 * - search_tiles2: the same with the tiles in two words (up to 128 tiles), each layer in one.
 *
 * Both tile searches visit the scan's nodes (in another order within a cell). The arrays are
 * the model's (models/edge_matching/tables.py) and TileMasks' (runners/backends/edgecount.py);
 * their shapes are checked here, their contents are trusted (the tables built them). */
#if defined(__GNUC__) && !defined(__clang__)
/* The loops here run a few times each (a cell's earlier neighbours): vectorized, with gathers,
 * they cost more than they save; and Python's -fwrapv keeps GCC from simplifying indexes.
 * (Set before kernel.h, so that its helpers, compiled alike, are inlined.) */
#pragma GCC optimize("no-tree-vectorize", "no-wrapv")
#pragma GCC target("tune=generic")
#endif
/* (and tuned for no one processor: tuned for this machine's znver3, GCC 12 keeps the tile
 * search's values in vector registers, moved back and forth on every node: 56 M nodes a CPU
 * second on Owen's 6x6 set 1 against 82 M tuned generic. The branch hints below, measured
 * likewise, make 88-90 M; results/kernels/edgecount.md) */
#include "kernel.h"

/* ---- arguments ---------------------------------------------------------------------- */

/* Whether a buffer's format is an integer type (so that a float array of the right item
 * size is refused, not read as indexes). */
static int integer_format(const char *format) {
    if (format == NULL) return 1; /* plain bytes */
    if (*format == '<' || *format == '=' || *format == '@' || *format == '!') format++;
    return format[0] != '\0' && format[1] == '\0' && strchr("bBhHiIlLqQ?", format[0]) != NULL;
}

/* The array argument `obj`: C-contiguous, `ndim` dimensions, integers of `itemsize` bytes;
 * its shape copied to `shape`. NULL with a Python error set where it is not one. */
static void *take(Arrays *arrays, PyObject *obj, Py_ssize_t itemsize, int writable,
                  const char *name, int ndim, Py_ssize_t *shape) {
    void *items = array_of(arrays, obj, itemsize, writable, name);
    if (items == NULL) return NULL;
    const Py_buffer *view = &arrays->views[arrays->count - 1];
    if (!integer_format(view->format)) {
        PyErr_Format(PyExc_TypeError, "%s: an integer array expected", name);
        return NULL;
    }
    if (view->ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s: %d dimensions expected, not %d", name, ndim,
                     view->ndim);
        return NULL;
    }
    for (int i = 0; i < ndim; i++) shape[i] = view->shape[i];
    return items;
}

/* 0 where `holds`, else -1 with a ValueError naming what is wrong. */
static int expect(int holds, const char *what) {
    if (holds) return 0;
    PyErr_Format(PyExc_ValueError, "edgecount: %s", what);
    return -1;
}

/* The resumable state [depth, grids found, nodes] and the depths of the cube (below `base`,
 * fixed): the depth saved lies in [base, depths). */
static int check_stack(const int64_t *state, Py_ssize_t state_length, int64_t base,
                       Py_ssize_t depths, int64_t budget) {
    if (expect(state_length == 3, "state holds (depth, grids, nodes)") < 0) return -1;
    if (expect(base >= 0 && base < depths, "base lies outside the depths") < 0) return -1;
    if (expect(state[0] >= base && state[0] < depths, "the saved depth lies outside the "
               "search") < 0) return -1;
    return expect(budget >= 0, "the budget is negative");
}

/* A call's answer: whether the search is over, or NULL (-1) where an argument was refused;
 * the arrays released either way. */
static PyObject *answer(Arrays *arrays, int over) {
    arrays_release(arrays);
    return over < 0 ? NULL : PyBool_FromLong(over);
}

/* ---- the scan ----------------------------------------------------------------------- */

/* One model's tables as the scan reads them. */
typedef struct {
    const int32_t *node_mark; /* node -> 1 where it carries the `apart` mark */
    const int32_t *near;      /* depth x side -> depth of an earlier neighbour (then -1) */
    const int64_t *keyed;     /* depth x side x node -> what the node adds to the key */
    const int64_t *base_key;  /* depth -> its first key */
    const int64_t *mult;      /* depth -> tiles a placement there uses */
    const int32_t *table;     /* key x 3 -> first candidate, end of the unmarked, end */
    const int32_t *candidates;
    const int64_t *cand_type; /* candidate -> the kind of its node */
    const int64_t *known;     /* depth -> its earlier neighbours (the first entries of near) */
    Py_ssize_t sides, nodes;
    int apart;
} Scan;

/* Depth d's slice of candidates, by the key the nodes placed before it make. */
static inline void open_depth(const Scan *t, const int64_t *placed, int64_t *pos, int64_t *last,
                              int64_t d) {
    int64_t k = t->base_key[d];
    const int32_t *near = t->near + d * t->sides;
    const int64_t *keyed = t->keyed + d * t->sides * t->nodes;
    int32_t blocked = 0;
    for (int64_t s = 0; s < t->known[d]; s++) {
        int64_t m = placed[near[s]];
        k += keyed[s * t->nodes + m];
        blocked |= t->node_mark[m];
    }
    pos[d] = t->table[3 * k];
    last[d] = t->table[3 * k + ((t->apart && blocked) ? 1 : 2)];
}

/* The scan from its saved stack for at most `budget` nodes; whether it is over. With
 * `record`, it stops after each grid (placed holds it). */
static int scan(const Scan *t, int64_t *stock, int64_t *placed, int64_t *pos, int64_t *last,
                int64_t *state, int64_t base, int64_t budget, int64_t top, int record) {
    const int64_t *cand_type = t->cand_type;
    int64_t d = state[0], found = 0, nodes = 0;
    int over = 0;
    while (__builtin_expect(nodes < budget, 1)) {
        int64_t need = t->mult[d];
        if (__builtin_expect(d == top, 0) && !record) { /* the last cell: count what is left */
            for (int64_t i = pos[d]; i < last[d]; i++) {
                int64_t fits = stock[cand_type[i]] >= need;
                found += fits;
                nodes += fits;
            }
            pos[d] = last[d];
        }
        int64_t i = pos[d], end = last[d];
        while (i < end && stock[cand_type[i]] < need) i++; /* skip the kinds used up */
        if (__builtin_expect(i >= end, 0)) {
            pos[d] = end;
            d--;
            if (d < base) {
                over = 1;
                break;
            }
            stock[cand_type[pos[d] - 1]] += t->mult[d];
            continue;
        }
        pos[d] = i + 1;
        nodes++;
        placed[d] = t->candidates[i];
        if (d == top) {
            found++;
            break;
        }
        stock[cand_type[i]] -= need;
        d++;
        open_depth(t, placed, pos, last, d);
    }
    state[0] = d;
    state[1] += found;
    state[2] += nodes;
    return over;
}

static PyObject *py_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (check_arguments("search", nargs, 18) < 0) return NULL;
    Arrays arrays = {0};
    Scan t = {0};
    Py_ssize_t mark[1], near[2], keyed[3], base_key[1], mult[1], table[2], candidates[1],
        stock[1], placed[1], pos[1], last[1], state[1], cand_type[1], known[1];
    int64_t apart, base, budget, record;
    int64_t *stock_items, *placed_items, *pos_items, *last_items, *state_items;
    int over;
    if (!(t.node_mark = take(&arrays, args[0], 4, 0, "node_mark", 1, mark))) goto fail;
    if (!(t.near = take(&arrays, args[1], 4, 0, "near", 2, near))) goto fail;
    if (!(t.keyed = take(&arrays, args[2], 8, 0, "keyed", 3, keyed))) goto fail;
    if (!(t.base_key = take(&arrays, args[3], 8, 0, "base_key", 1, base_key))) goto fail;
    if (!(t.mult = take(&arrays, args[4], 8, 0, "mult", 1, mult))) goto fail;
    if (!(t.table = take(&arrays, args[5], 4, 0, "table", 2, table))) goto fail;
    if (!(t.candidates = take(&arrays, args[6], 4, 0, "candidates", 1, candidates))) goto fail;
    if (int_of(args[7], &apart, "apart") < 0) goto fail;
    if (!(stock_items = take(&arrays, args[8], 8, 1, "stock", 1, stock))) goto fail;
    if (!(placed_items = take(&arrays, args[9], 8, 1, "placed", 1, placed))) goto fail;
    if (!(pos_items = take(&arrays, args[10], 8, 1, "pos", 1, pos))) goto fail;
    if (!(last_items = take(&arrays, args[11], 8, 1, "last", 1, last))) goto fail;
    if (!(state_items = take(&arrays, args[12], 8, 1, "state", 1, state))) goto fail;
    if (int_of(args[13], &base, "base") < 0 || int_of(args[14], &budget, "budget") < 0 ||
        int_of(args[15], &record, "record") < 0) goto fail;
    if (!(t.cand_type = take(&arrays, args[16], 8, 0, "cand_type", 1, cand_type))) goto fail;
    if (!(t.known = take(&arrays, args[17], 8, 0, "known", 1, known))) goto fail;
    Py_ssize_t depths = placed[0];
    if (expect(base_key[0] == depths && mult[0] == depths && pos[0] == depths &&
               last[0] == depths && known[0] == depths && near[0] == depths &&
               keyed[0] == depths, "the per-depth arrays differ in length") < 0 ||
        expect(keyed[1] == near[1] && keyed[2] == mark[0], "keyed is not depth x side x "
               "node") < 0 ||
        expect(table[1] == 3, "table is not key x 3") < 0 ||
        expect(cand_type[0] == candidates[0], "cand_type is not one a candidate") < 0 ||
        check_stack(state_items, state[0], base, depths, budget) < 0) goto fail;
    t.sides = near[1];
    t.nodes = mark[0];
    t.apart = apart != 0;
    Py_BEGIN_ALLOW_THREADS
    over = scan(&t, stock_items, placed_items, pos_items, last_items, state_items, base, budget,
                depths - 1, record != 0);
    Py_END_ALLOW_THREADS
    return answer(&arrays, over);
fail:
    return answer(&arrays, -1);
}

/* ---- the tile searches --------------------------------------------------------------- */

typedef struct { /* a row of TileMasks.layers */
    int64_t kinds; /* the top bits of the layer's kinds */
    int64_t first; /* where its candidates begin in cands */
    int64_t next;  /* the row of the key's next layer, or -1 */
    int64_t word;  /* the word its tiles lie in */
} Layer;

typedef struct { /* a row of TileMasks.cands */
    int64_t node;
    int64_t copies; /* the bits of its kind's copies in its word */
    int64_t adds;   /* what it adds to the key of the depth after its own */
} Cand;

/* One model's tables as the tile searches read them. */
typedef struct {
    const int64_t *older;       /* depth x slot -> an earlier neighbour but the depth before */
    const int64_t *older_keyed; /* depth x slot x node -> what that node adds to the key */
    const int64_t *older_count; /* depth -> its older neighbours (depths + 1 entries) */
    const int64_t *base_key;    /* depth -> its first key (depths + 1 entries) */
    const Layer *layers;
    const Cand *cands;
    Py_ssize_t slots, nodes;
} Tiles;

/* The tiles in stock of a layer's word (one word: always the first). */
static inline uint64_t in_word(int two, int64_t word, uint64_t s0, uint64_t s1) {
    return two && word ? s1 : s0;
}

/* The grids at the last cell: the kinds `fits` of its first layer, and those in stock of the
 * key's next layers from row x on. */
static inline int64_t count_last(const Layer *layers, uint64_t fits, int64_t x, int two,
                                 uint64_t s0, uint64_t s1) {
    int64_t c = popcount64(fits);
    for (; x >= 0; x = layers[x].next)
        c += popcount64((uint64_t)layers[x].kinds & in_word(two, layers[x].word, s0, s1));
    return c;
}

/* The node of the first candidate in stock at the last cell: among `fits` (of the layer
 * `kinds` beginning at `first`), else in the key's next layers from row x on. */
static inline int64_t leaf(const Tiles *t, uint64_t kinds, int64_t first, uint64_t fits,
                           int64_t x, int two, uint64_t s0, uint64_t s1) {
    while (fits == 0) {
        const Layer *layer = &t->layers[x];
        kinds = (uint64_t)layer->kinds;
        first = layer->first;
        fits = kinds & in_word(two, layer->word, s0, s1);
        x = layer->next;
    }
    return t->cands[first + popcount64(kinds & ((fits & -fits) - 1))].node;
}

/* The part of depth e's key that the depths before e-1 fix (summed once, as e is entered). */
static inline int64_t key_part(const Tiles *t, const int64_t *placed, int64_t e) {
    int64_t part = t->base_key[e];
    const int64_t *older = t->older + e * t->slots;
    const int64_t *keyed = t->older_keyed + e * t->slots * t->nodes;
    for (int64_t s = 0; s < t->older_count[e]; s++)
        part += keyed[s * t->nodes + placed[older[s]]];
    return part;
}

/* The columns of a frame's row: (kinds still to try, the stock's words, the layer's kinds,
 * its first candidate, the key's next layer or -1, the part of the next depth's key the
 * depths before fix, the layer's word: two words only). */
#define TODO 0
#define STOCK0 1
#define STOCK1 2
#define KINDS(two) ((two) ? 3 : 2)
#define FIRST(two) ((two) ? 4 : 3)
#define NEXT(two) ((two) ? 5 : 4)
#define PART(two) ((two) ? 6 : 5)
#define WORD 7
#define WIDTH(two) ((two) ? 8 : 6)

/* The tile search's registers: the row of the frame at the depth searched, held in locals
 * (`two`: the tiles in two words; one word: s1 and w stay 0). */
typedef struct {
    uint64_t todo, s0, s1, kinds;
    int64_t first, part, w;
} Row;

#define STEP static inline __attribute__((always_inline))

/* A row of the frame read into the registers (backing up to its depth). */
STEP void row_read(Row *r, const int64_t *row, const int two) {
    r->todo = row[TODO];
    r->s0 = row[STOCK0];
    if (two) r->s1 = row[STOCK1];
    r->kinds = row[KINDS(two)];
    r->first = row[FIRST(two)];
    r->part = row[PART(two)];
    if (two) r->w = row[WORD];
}

/* The registers of a depth entered written to its row (its todo is written when it is left;
 * x: the key's next layer). */
STEP void row_write(const Row *r, int64_t *row, int64_t x, const int two) {
    row[STOCK0] = r->s0;
    if (two) row[STOCK1] = r->s1;
    row[KINDS(two)] = r->kinds;
    row[FIRST(two)] = r->first;
    row[NEXT(two)] = x;
    row[PART(two)] = r->part;
    if (two) row[WORD] = r->w;
}

/* The key's next layer (row x of the layers) taken as the depth's candidates. */
STEP void next_layer(Row *r, int64_t *row, const Layer *layer, const int two) {
    r->kinds = layer->kinds;
    r->first = layer->first;
    if (two) r->w = layer->word;
    r->todo = r->kinds & in_word(two, r->w, r->s0, r->s1);
    row[KINDS(two)] = r->kinds;
    row[FIRST(two)] = r->first;
    row[NEXT(two)] = layer->next;
    if (two) row[WORD] = r->w;
}

/* The stock once candidate `cand` is placed: the lowest copy of its kind in stock used. */
STEP void stock_after(const Row *r, const Cand *cand, uint64_t *b0, uint64_t *b1,
                      const int two) {
    *b0 = r->s0;
    *b1 = r->s1;
    if (two && r->w) {
        uint64_t copies = r->s1 & (uint64_t)cand->copies;
        *b1 = r->s1 ^ (copies & -copies);
    } else {
        uint64_t copies = r->s0 & (uint64_t)cand->copies;
        *b0 = r->s0 ^ (copies & -copies);
    }
}

/* The tile search (`two`: its tiles in two words) from its saved stack for at most `budget`
 * nodes; whether it is over. A child with nothing in stock is counted as a node and not
 * entered. With first_grid it stops after the first last cell with grids (counted as ever),
 * placed holding one of them. Compiled once for each `two` (a constant). */
static inline __attribute__((always_inline)) int tile_search(
    const Tiles *t, int64_t *restrict placed, int64_t *restrict frame, int64_t *restrict state,
    int64_t base, int64_t budget, int64_t top, int first_grid, const int two) {
    /* the tables in locals: the stores into the frame (int64) then need no reload of them */
    const Layer *restrict layers = t->layers;
    const Cand *restrict cands = t->cands;
    const Tiles here = *t;
    int64_t d = state[0], found = 0, nodes = 0;
    int over = 0;
    int64_t *row = frame + d * WIDTH(two);
    Row r = {0};
    row_read(&r, row, two);
    if (d == top) { /* the cube ends at the last cell: count it */
        int64_t c = count_last(layers, r.todo, row[NEXT(two)], two, r.s0, r.s1);
        if (first_grid && c) /* (the loop below then ends the cube at once) */
            placed[d] = leaf(&here, r.kinds, r.first, r.todo, row[NEXT(two)], two, r.s0, r.s1);
        found += c;
        nodes += c;
        r.todo = 0;
        row[NEXT(two)] = -1;
    }
    for (;;) {
        if (r.todo == 0) {
            int64_t x = row[NEXT(two)];
            if (x >= 0) { /* the key's next layer */
                next_layer(&r, row, &layers[x], two);
                continue;
            }
            d--;
            if (d < base) {
                over = 1;
                d = base;
                row = frame + d * WIDTH(two);
                break;
            }
            row = frame + d * WIDTH(two);
            row_read(&r, row, two);
            continue;
        }
        if (__builtin_expect(nodes >= budget, 0)) break;
        uint64_t kind = r.todo & -r.todo;
        r.todo ^= kind;
        nodes++;
        const Cand *cand = &cands[r.first + popcount64(r.kinds & (kind - 1))];
        const Layer *then = &layers[r.part + cand->adds];
        uint64_t b0, b1;
        stock_after(&r, cand, &b0, &b1, two);
        int64_t v = two ? then->word : 0;
        uint64_t fits = (uint64_t)then->kinds & in_word(two, v, b0, b1);
        int64_t x = then->next, e = d + 1;
        if (e == top) { /* the last cell: count what is left */
            int64_t c = count_last(layers, fits, x, two, b0, b1);
            found += c;
            nodes += c;
            if (first_grid && c) {
                placed[d] = cand->node;
                placed[e] = leaf(&here, then->kinds, then->first, fits, x, two, b0, b1);
                break;
            }
            continue;
        }
        /* (a hint, measured: laid out for the child entered, 1.10x the nodes a second) */
        if (__builtin_expect(fits == 0, 0) && x < 0) continue;
        placed[d] = cand->node;
        row[TODO] = r.todo;
        d = e;
        row = frame + d * WIDTH(two);
        r = (Row){fits, b0, b1, then->kinds, then->first, key_part(&here, placed, e + 1), v};
        row_write(&r, row, x, two);
    }
    row[TODO] = r.todo;
    state[0] = d;
    state[1] += found;
    state[2] += nodes;
    return over;
}

static int search_tiles1(const Tiles *t, int64_t *placed, int64_t *frame, int64_t *state,
                         int64_t base, int64_t budget, int64_t top, int first_grid) {
    return tile_search(t, placed, frame, state, base, budget, top, first_grid, 0);
}

static int search_tiles2(const Tiles *t, int64_t *placed, int64_t *frame, int64_t *state,
                         int64_t base, int64_t budget, int64_t top, int first_grid) {
    return tile_search(t, placed, frame, state, base, budget, top, first_grid, 1);
}

/* search_tiles / search_tiles2 (`two`): the arguments read and checked, the search run with
 * the GIL released. */
static PyObject *tiles_call(PyObject *const *args, Py_ssize_t nargs, int two) {
    const char *name = two ? "search_tiles2" : "search_tiles";
    if (check_arguments(name, nargs, 12) < 0) return NULL;
    Arrays arrays = {0};
    Tiles t = {0};
    Py_ssize_t older[2], older_keyed[3], base_key[1], layers[2], cands[2], placed[1],
        frame[2], state[1], older_count[1];
    int64_t base, budget, first_grid;
    int64_t *placed_items, *frame_items, *state_items;
    int over;
    if (!(t.older = take(&arrays, args[0], 8, 0, "older", 2, older))) goto fail;
    if (!(t.older_keyed = take(&arrays, args[1], 8, 0, "older_keyed", 3, older_keyed)))
        goto fail;
    if (!(t.base_key = take(&arrays, args[2], 8, 0, "base_key", 1, base_key))) goto fail;
    if (!(t.layers = take(&arrays, args[3], 8, 0, "layers", 2, layers))) goto fail;
    if (!(t.cands = take(&arrays, args[4], 8, 0, "cands", 2, cands))) goto fail;
    if (!(placed_items = take(&arrays, args[5], 8, 1, "placed", 1, placed))) goto fail;
    if (!(frame_items = take(&arrays, args[6], 8, 1, "frame", 2, frame))) goto fail;
    if (!(state_items = take(&arrays, args[7], 8, 1, "state", 1, state))) goto fail;
    if (int_of(args[8], &base, "base") < 0 || int_of(args[9], &budget, "budget") < 0) goto fail;
    if (!(t.older_count = take(&arrays, args[10], 8, 0, "older_count", 1, older_count)))
        goto fail;
    if (int_of(args[11], &first_grid, "first_grid") < 0) goto fail;
    Py_ssize_t depths = placed[0];
    if (expect(base_key[0] == depths + 1 && older_count[0] == depths + 1 &&
               older[0] == depths && older_keyed[0] == depths && frame[0] == depths,
               "the per-depth arrays differ in length") < 0 ||
        expect(older_keyed[1] == older[1], "older_keyed is not depth x slot x node") < 0 ||
        expect(layers[1] == 4, "layers is not row x 4") < 0 ||
        expect(cands[1] == 3, "cands is not candidate x 3") < 0 ||
        expect(frame[1] == WIDTH(two), two ? "frame is not depth x 8" : "frame is not depth "
               "x 6") < 0 ||
        check_stack(state_items, state[0], base, depths, budget) < 0) goto fail;
    t.slots = older[1];
    t.nodes = older_keyed[2];
    Py_BEGIN_ALLOW_THREADS
    over = (two ? search_tiles2 : search_tiles1)(&t, placed_items, frame_items, state_items,
                                                 base, budget, depths - 1, first_grid != 0);
    Py_END_ALLOW_THREADS
    return answer(&arrays, over);
fail:
    return answer(&arrays, -1);
}

static PyObject *py_search_tiles(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    return tiles_call(args, nargs, 0);
}

static PyObject *py_search_tiles2(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    return tiles_call(args, nargs, 1);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL,
     "search(node_mark, near, keyed, base_key, mult, table, candidates, apart, stock, placed, "
     "pos, last, state, base, budget, record, cand_type, known) -> over: the scan"},
    {"search_tiles", (PyCFunction)(void (*)(void))py_search_tiles, METH_FASTCALL,
     "search_tiles(older, older_keyed, base_key, layers, cands, placed, frame, state, base, "
     "budget, older_count, first_grid) -> over: the tiles in one word"},
    {"search_tiles2", (PyCFunction)(void (*)(void))py_search_tiles2, METH_FASTCALL,
     "search_tiles2(...) -> over: search_tiles with the tiles in two words"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "puzzlesat._edgecount",
    "edgecount's edge-matching searches (runners/backends/edgecount.py), compiled at install",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__edgecount(void) { return PyModule_Create(&module); }
