/* puzzlesat._moves: God's algorithm for the puzzles solved by moves (Mind Lock, the
 * sliding-block puzzles): the breadth-first engine's loops (runners/breadth_first.py drives
 * them level by level, looks at its deadline between calls and runs threads) and the families'
 * move kernels, in one module.
 *
 * A family's table model names its kernel by number (MIND_LOCK, SLIDING_CODES, SLIDING_RANKS,
 * module constants) and gives the arrays it reads as a tuple (`data`): the engine reads them
 * into a Tables, makes a Scratch for the call (a thread's own working rows), and calls the
 * kernel's `moves` (the codes one move away) and `goal` (whether a goal stands) through the
 * KERNELS table. Every search loop runs with the GIL released; the ranked level may run on
 * several threads at once over disjoint parts of the ranks (two may write one byte, always with
 * the same value: relaxed atomic stores).
 *
 * Codes:
 * - MIND_LOCK: a position's rank 0..92,399; data = (push, horizontal, vertical) uint64 arrays,
 *   the rank each move reaches (models/mind_lock `move_tables`).
 * - SLIDING_CODES: per group the rank of its placement set (combinatorial number system), in
 *   mixed radix (models/sliding, `SlidingPuzzle.code`).
 * - SLIDING_RANKS: the position's rank among all arrangements (models/sliding/ranking.py: a path
 *   through a DAG of cell states, each choice adding the arrangements before it).
 * The sliding data is runners/kernels/sliding.py `kernel_data` (its docstring names each array).
 *
 * Arguments are checked (sizes, item sizes, indices a kernel follows): a wrong argument is a
 * Python error, never a read outside an array. */
#include "kernel.h"

#include <stdlib.h>

enum { MIND_LOCK = 0, SLIDING_CODES = 1, SLIDING_RANKS = 2, KERNEL_COUNT = 3 };
enum { STEP = 0, SLIDE = 1, PATH = 2 };
#define EMPTY_KEY UINT64_MAX
#define GOLDEN 0x9E3779B97F4A7C15ULL
#define WRAP 249
#define IN_COMPONENT 252
#define UNSEEN_BYTE 255
#define FAR 65535 /* distances_to_goals: not reached */

/* ---------------------------------------------------------------- the tables a kernel reads */

typedef struct {
    int kernel;
    int64_t degree; /* at most this many moves from a position */
    /* Mind Lock */
    const uint64_t *push, *horizontal, *vertical;
    int64_t positions;
    /* sliding */
    const uint64_t *gmask;     /* per placement (all groups'), the cells it covers */
    const int64_t *shifts;     /* per placement and direction, the placement moved a cell */
    const int64_t *off;        /* per group, its first placement's global index */
    const int64_t *nplace;     /* per group, its placements */
    const int64_t *kcount;     /* per group, its pieces */
    const uint64_t *size;      /* per group, its placement sets (the radix; 0: past 2^63) */
    const uint64_t *mult;      /* per group, the mixed radix's weight */
    const uint64_t *binom;     /* binom[n * binom_width + k] = C(n, k) */
    const int64_t *info;       /* metric, -, goal group, goal placement, end state, goal cell */
    const int64_t *cells;      /* per state, the cell it decides */
    const int64_t *next;       /* per state and choice, the next state (-1: no choice) */
    const uint64_t *offset;    /* per state and choice, the arrangements before it */
    const int64_t *anchored;   /* per group and cell, the placement anchored there (-1) */
    const int64_t *start;      /* per group, its first piece's index */
    const int64_t *first;      /* per placement, its anchor (first) cell */
    int64_t groups, total, pieces, binom_width, binom_rows, states, choices, span, most;
} Tables;

/* A thread's working rows for one call. */
typedef struct {
    int64_t *pieces;  /* the position's placements, by piece (group by group, sorted) */
    int64_t *seen;    /* per placement, the stamp of the search that last reached it */
    int64_t *queue;   /* the path metric's search over placements */
    int64_t *targets; /* where one piece can go */
    int64_t *tmp;     /* a group's placements after a move */
    int64_t *anchor;  /* per cell, the choice anchored there (group + 1, 0: none) */
    int64_t *fill;    /* per group, the next piece to fill while unranking */
    int64_t *group, *piece, *where; /* per move: its group, piece and new placement */
    uint64_t *out;    /* the codes one move away */
    int64_t stamp;
    void *block;
} Scratch;

static int scratch_make(const Tables *t, Scratch *s) {
    int64_t rows[] = {t->pieces, t->total, t->total, t->total, t->most + 1, t->span, t->groups,
                      t->degree, t->degree, t->degree, t->degree};
    int64_t sum = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) sum += rows[i] + 1;
    memset(s, 0, sizeof *s);
    s->block = calloc((size_t)sum, sizeof(int64_t));
    if (s->block == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t *at = s->block;
    int64_t **into[] = {&s->pieces, &s->seen, &s->queue, &s->targets, &s->tmp, &s->anchor,
                        &s->fill, &s->group, &s->piece, &s->where, (int64_t **)&s->out};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        *into[i] = at;
        at += rows[i] + 1;
    }
    return 0;
}


/* The end of a call: its scratch and arrays released, its result (NULL: an error set). */
static PyObject *finish(Arrays *arrays, Scratch *s, PyObject *result) {
    if (s != NULL) free(s->block);
    arrays_release(arrays);
    return result;
}

/* ---------------------------------------------------------------- Mind Lock */

static inline int mind_lock_moves(const Tables *t, Scratch *s, uint64_t code, uint64_t *out) {
    (void)s;
    if (code >= (uint64_t)t->positions) return 0;
    out[0] = t->push[code];
    out[1] = t->horizontal[code];
    out[2] = t->vertical[code];
    return 3;
}

static int read_mind_lock(Arrays *arrays, PyObject *data, Tables *t) {
    if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 3) {
        PyErr_SetString(PyExc_TypeError, "Mind Lock's data: a tuple of 3 move tables expected");
        return -1;
    }
    const uint64_t **into[] = {&t->push, &t->horizontal, &t->vertical};
    for (int i = 0; i < 3; i++) {
        *into[i] = array_of(arrays, PyTuple_GET_ITEM(data, i), 8, 0, "move table");
        if (*into[i] == NULL) return -1;
        Py_ssize_t n = last_length(arrays);
        if (i && n != t->positions) {
            PyErr_SetString(PyExc_ValueError, "Mind Lock's move tables differ in length");
            return -1;
        }
        t->positions = n;
    }
    t->degree = 3;
    return 0;
}

/* ---------------------------------------------------------------- sliding: one piece's moves */

/* The placements (global indices) placement p can move to, the other pieces on `other`, into
 * s->targets; how many (fewer than `most`, the group's placements: a shift table with a cycle
 * ends there). Step: one cell in each direction; slide: any distance in a straight line; path:
 * anywhere reached by steps (a search over placements). */
static inline int targets_of(const Tables *t, Scratch *s, int64_t p, uint64_t other,
                             int64_t most) {
    int n = 0;
    int64_t metric = t->info[0];
    if (metric == PATH) {
        int64_t stamp = ++s->stamp;
        s->seen[p] = stamp;
        s->queue[0] = p;
        int64_t head = 0, tail = 1;
        while (head < tail) {
            int64_t a = s->queue[head++];
            for (int d = 0; d < 4; d++) {
                int64_t q = t->shifts[4 * a + d];
                if (q >= 0 && s->seen[q] != stamp && (t->gmask[q] & other) == 0) {
                    s->seen[q] = stamp;
                    s->queue[tail++] = q;
                    s->targets[n++] = q;
                }
            }
        }
        return n;
    }
    for (int d = 0; d < 4; d++) {
        int64_t q = t->shifts[4 * p + d];
        while (q >= 0 && n < most && (t->gmask[q] & other) == 0) {
            s->targets[n++] = q;
            if (metric == STEP) break;
            q = t->shifts[4 * q + d];
        }
    }
    return n;
}

/* Every move of every piece of the position in s->pieces (occupying `occ`): the e-th moves
 * piece s->piece[e] (of group s->group[e]) to global placement s->where[e]; how many. */
static inline int all_moves(const Tables *t, Scratch *s, uint64_t occ) {
    int n = 0;
    int64_t j = 0;
    for (int64_t g = 0; g < t->groups; g++) {
        for (int64_t end = j + t->kcount[g]; j < end; j++) {
            int64_t p = t->off[g] + s->pieces[j];
            int m = targets_of(t, s, p, occ & ~t->gmask[p], t->nplace[g]);
            for (int i = 0; i < m; i++) {
                s->group[n] = g;
                s->piece[n] = j;
                s->where[n] = s->targets[i];
                n++;
            }
        }
    }
    return n;
}

/* ---------------------------------------------------------------- sliding: mixed-radix codes */

static inline uint64_t binom(const Tables *t, int64_t n, int64_t k) {
    return t->binom[n * t->binom_width + k];
}

/* A group's placement-set rank r -> its k placements (ascending) into pieces; -1 where r is
 * no rank of the group's sets. */
static inline int unrank_set(const Tables *t, int64_t g, uint64_t r, int64_t *pieces) {
    int64_t c = t->nplace[g] - 1;
    for (int64_t i = t->kcount[g]; i > 0; i--) {
        while (c >= 0 && binom(t, c, i) > r) c--;
        if (c < 0) return -1;
        pieces[i - 1] = c;
        r -= binom(t, c, i);
        c--;
    }
    return 0;
}

/* The group's rank digit of a mixed-radix code (size 0: the radix is past 64 bits). */
static inline uint64_t group_digit(const Tables *t, int64_t g, uint64_t code) {
    uint64_t q = t->mult[g] ? code / t->mult[g] : 0;
    return t->size[g] ? q % t->size[g] : q;
}

static int codes_moves(const Tables *t, Scratch *s, uint64_t code, uint64_t *out) {
    uint64_t occ = 0;
    for (int64_t g = 0; g < t->groups; g++) {
        int64_t *here = s->pieces + t->start[g];
        if (unrank_set(t, g, group_digit(t, g, code), here) < 0) return 0;
        for (int64_t i = 0; i < t->kcount[g]; i++) occ |= t->gmask[t->off[g] + here[i]];
    }
    int moves = all_moves(t, s, occ);
    for (int e = 0; e < moves; e++) {
        /* piece j of group g goes to placement q: the group's rank again, the others kept */
        int64_t g = s->group[e], first = t->start[g], k = t->kcount[g];
        int64_t j = s->piece[e] - first, q = s->where[e] - t->off[g];
        const int64_t *here = s->pieces + first;
        uint64_t old = 0, now = 0;
        int64_t h = 0;
        for (int64_t i = 0; i < k; i++) {
            old += binom(t, here[i], i + 1);
            if (i != j) s->tmp[h++] = here[i];
        }
        s->tmp[h++] = q;
        for (int64_t a = h - 1; a > 0 && s->tmp[a] < s->tmp[a - 1]; a--) {
            int64_t swap = s->tmp[a];
            s->tmp[a] = s->tmp[a - 1];
            s->tmp[a - 1] = swap;
        }
        for (int64_t i = 0; i < h; i++) now += binom(t, s->tmp[i], i + 1);
        out[e] = code - old * t->mult[g] + now * t->mult[g];
    }
    return moves;
}

/* Whether a piece of the goal's group stands on the goal's placement (a mixed-radix code). */
static int codes_goal(const Tables *t, Scratch *s, uint64_t code) {
    int64_t g = t->info[2];
    int64_t *here = s->pieces + t->start[g];
    if (unrank_set(t, g, group_digit(t, g, code), here) < 0) return 0;
    for (int64_t i = 0; i < t->kcount[g]; i++)
        if (here[i] == t->info[3]) return 1;
    return 0;
}

/* ---------------------------------------------------------------- sliding: ranks */

/* Fill s->pieces and s->anchor from a rank; the occupied cells. Every state followed is
 * checked (a rank past the arrangements ends the walk early: no read outside the tables), and
 * a walk takes at most one step a state (a table with a cycle ends). */
static inline uint64_t unrank(const Tables *t, Scratch *s, uint64_t r) {
    for (int64_t g = 0; g < t->groups; g++) s->fill[g] = t->start[g];
    memset(s->anchor, 0, (size_t)t->span * sizeof(int64_t));
    uint64_t occ = 0;
    int64_t state = 0, end = t->info[4], choices = t->choices;
    for (int64_t steps = 0; state != end && (uint64_t)state < (uint64_t)t->states &&
                            steps < t->states;
         steps++) {
        const int64_t *next = t->next + state * choices;
        const uint64_t *offset = t->offset + state * choices;
        int64_t chosen = 0;
        for (int64_t c = 1; c < choices; c++)
            if (next[c] >= 0 && offset[c] <= r) chosen = c;
        r -= offset[chosen];
        if (chosen) {
            int64_t g = chosen - 1, cell = t->cells[state];
            int64_t p = t->anchored[g * t->span + cell];
            if (p < 0 || s->fill[g] >= t->start[g] + t->kcount[g]) break;
            s->pieces[s->fill[g]++] = p;
            s->anchor[cell] = chosen;
            occ |= t->gmask[t->off[g] + p];
        }
        state = next[chosen];
    }
    return occ;
}

/* The rank of the arrangement s->anchor describes (the walk checked as unrank's). */
static inline uint64_t rank_of(const Tables *t, const Scratch *s) {
    uint64_t total = 0;
    int64_t state = 0, end = t->info[4], choices = t->choices;
    for (int64_t steps = 0; state != end && (uint64_t)state < (uint64_t)t->states &&
                            steps < t->states;
         steps++) {
        int64_t choice = s->anchor[t->cells[state]];
        total += t->offset[state * choices + choice];
        state = t->next[state * choices + choice];
    }
    return total;
}

static inline int ranks_moves(const Tables *t, Scratch *s, uint64_t r, uint64_t *out) {
    uint64_t occ = unrank(t, s, r);
    int moves = all_moves(t, s, occ);
    for (int e = 0; e < moves; e++) {
        int64_t g = s->group[e];
        int64_t was = t->first[t->off[g] + s->pieces[s->piece[e]]], to = t->first[s->where[e]];
        s->anchor[was] = 0;
        s->anchor[to] = g + 1;
        out[e] = rank_of(t, s);
        s->anchor[to] = 0;
        s->anchor[was] = g + 1;
    }
    return moves;
}

/* Whether a piece of the goal's group stands on the goal's placement (a rank). */
static int ranks_goal(const Tables *t, Scratch *s, uint64_t r) {
    unrank(t, s, r);
    return s->anchor[t->info[5]] == t->info[2] + 1;
}

/* ---------------------------------------------------------------- reading the sliding data */

static int fail(PyObject *kind, const char *message) {
    PyErr_Format(kind, "sliding data: %s", message);
    return -1;
}

/* The sliding arrays (kernel_data's order), their sizes checked against each other. */
static int take_sliding_arrays(Arrays *arrays, PyObject *data, Tables *t, Py_ssize_t *length) {
    if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 15)
        return fail(PyExc_TypeError, "a tuple of 15 arrays expected");
    static const char *names[] = {"gmask", "shifts", "offsets", "placements", "counts", "sizes",
                                  "weights", "binomials", "info", "cells", "next", "offset",
                                  "anchored", "starts", "first cells"};
    const void **into[] = {(const void **)&t->gmask,  (const void **)&t->shifts,
                           (const void **)&t->off,    (const void **)&t->nplace,
                           (const void **)&t->kcount, (const void **)&t->size,
                           (const void **)&t->mult,   (const void **)&t->binom,
                           (const void **)&t->info,   (const void **)&t->cells,
                           (const void **)&t->next,   (const void **)&t->offset,
                           (const void **)&t->anchored, (const void **)&t->start,
                           (const void **)&t->first};
    for (int i = 0; i < 15; i++) {
        *into[i] = array_of(arrays, PyTuple_GET_ITEM(data, i), 8, 0, names[i]);
        if (*into[i] == NULL) return -1;
        length[i] = last_length(arrays);
    }
    return 0;
}

/* The group arrays' values: placements and pieces consistent, offsets their running sums. */
static int check_groups(Tables *t, const Py_ssize_t *length) {
    t->groups = length[2];
    for (int i = 3; i <= 6; i++)
        if (length[i] != t->groups) return fail(PyExc_ValueError, "group arrays differ");
    if (length[13] != t->groups || length[8] < 6 || t->groups < 1)
        return fail(PyExc_ValueError, "group arrays differ");
    int64_t placements = 0, pieces = 0, degree = 0;
    t->most = 0;
    for (int64_t g = 0; g < t->groups; g++) {
        if (t->off[g] != placements || t->start[g] != pieces || t->kcount[g] < 0 ||
            t->nplace[g] < t->kcount[g])
            return fail(PyExc_ValueError, "offsets are not the running sums of the groups");
        placements += t->nplace[g];
        pieces += t->kcount[g];
        degree += t->kcount[g] * t->nplace[g];
        if (t->kcount[g] > t->most) t->most = t->kcount[g];
    }
    t->total = placements;
    t->pieces = pieces;
    t->degree = 4 * degree + 1;
    if (length[0] != placements || length[1] != 4 * placements || length[14] != placements)
        return fail(PyExc_ValueError, "placement arrays differ");
    if (t->info[0] < STEP || t->info[0] > PATH || t->info[2] < 0 || t->info[2] >= t->groups)
        return fail(PyExc_ValueError, "info out of range");
    return 0;
}

/* The binomials cover every placement set; the placements' moves and cells are in range. */
static int check_placements(Tables *t, const Py_ssize_t *length) {
    t->binom_width = t->most + 2;
    t->binom_rows = length[7] / t->binom_width;
    int64_t widest = 0;
    for (int64_t g = 0; g < t->groups; g++)
        if (t->nplace[g] > widest) widest = t->nplace[g];
    if (length[7] % t->binom_width || t->binom_rows < widest + 1)
        return fail(PyExc_ValueError, "binomials too few");
    for (int64_t g = 0; g < t->groups; g++) /* a placement moves to one of its group's */
        for (int64_t i = 4 * t->off[g]; i < 4 * (t->off[g] + t->nplace[g]); i++)
            if (t->shifts[i] != -1 &&
                (t->shifts[i] < t->off[g] || t->shifts[i] >= t->off[g] + t->nplace[g]))
                return fail(PyExc_ValueError, "a shift out of its group's placements");
    t->span = t->groups ? length[12] / t->groups : 0;
    if (length[12] != t->span * t->groups || t->span < 1)
        return fail(PyExc_ValueError, "anchored: one row a group expected");
    for (int64_t g = 0; g < t->groups; g++)
        for (int64_t c = 0; c < t->span; c++) {
            int64_t p = t->anchored[g * t->span + c];
            if (p < -1 || p >= t->nplace[g])
                return fail(PyExc_ValueError, "an anchored placement out of range");
        }
    for (int64_t p = 0; p < t->total; p++)
        if (t->first[p] < 0 || t->first[p] >= t->span)
            return fail(PyExc_ValueError, "a first cell out of range");
    if (t->info[5] < 0 || t->info[5] >= t->span || t->info[3] < 0)
        return fail(PyExc_ValueError, "info out of range");
    return 0;
}

/* The ranking's states: one row of choices a state, cells on the board (but the end's). */
static int check_states(Tables *t, const Py_ssize_t *length) {
    t->states = length[9];
    t->choices = t->groups + 1;
    if (length[10] != t->states * t->choices || length[11] != length[10])
        return fail(PyExc_ValueError, "state arrays differ");
    for (int64_t i = 0; i < t->states; i++) /* the end state decides no cell (-1) */
        if ((t->cells[i] < 0 && i != t->info[4]) || t->cells[i] >= t->span)
            return fail(PyExc_ValueError, "a state's cell out of range");
    return 0;
}

static int read_sliding(Arrays *arrays, PyObject *data, Tables *t) {
    Py_ssize_t length[15];
    if (take_sliding_arrays(arrays, data, t, length) < 0) return -1;
    if (check_groups(t, length) < 0 || check_placements(t, length) < 0) return -1;
    return check_states(t, length);
}

/* ---------------------------------------------------------------- the kernel table */

typedef int (*MovesFn)(const Tables *, Scratch *, uint64_t, uint64_t *);
typedef int (*GoalFn)(const Tables *, Scratch *, uint64_t);

typedef struct {
    const char *name;
    int (*read)(Arrays *, PyObject *, Tables *);
    MovesFn moves;
    GoalFn goal; /* NULL: the family's goals are listed positions, not a test */
} Kernel;

static const Kernel KERNELS[KERNEL_COUNT] = {
    {"MIND_LOCK", read_mind_lock, mind_lock_moves, NULL},
    {"SLIDING_CODES", read_sliding, codes_moves, codes_goal},
    {"SLIDING_RANKS", read_sliding, ranks_moves, ranks_goal},
};

/* The kernel number and its data read into `t`, a scratch made for it. */
static int open_kernel(Arrays *arrays, PyObject *number, PyObject *data, Tables *t,
                       Scratch *s) {
    int64_t kernel;
    if (int_of(number, &kernel, "kernel") < 0) return -1;
    if (kernel < 0 || kernel >= KERNEL_COUNT) {
        PyErr_Format(PyExc_ValueError, "kernel: 0 to %d, not %lld", KERNEL_COUNT - 1,
                     (long long)kernel);
        return -1;
    }
    memset(t, 0, sizeof *t);
    t->kernel = (int)kernel;
    if (KERNELS[kernel].read(arrays, data, t) < 0) return -1;
    return scratch_make(t, s);
}

static int need_goal(const Tables *t) {
    if (KERNELS[t->kernel].goal != NULL) return 0;
    PyErr_Format(PyExc_ValueError, "kernel %s has no goal test", KERNELS[t->kernel].name);
    return -1;
}

/* Calls the kernel's moves with the function known at compile time in each case (inlined). */
#define BY_KERNEL(t, CALL)                                                                   \
    switch ((t)->kernel) {                                                                   \
    case MIND_LOCK: CALL(mind_lock_moves); break;                                            \
    case SLIDING_CODES: CALL(codes_moves); break;                                            \
    default: CALL(ranks_moves); break;                                                       \
    }

/* ---------------------------------------------------------------- the hash set */

static inline uint64_t slot_of(uint64_t code, int shift) { return (code * GOLDEN) >> shift; }

/* Add a code to the set (its size a power of two, never full: the queue it mirrors is smaller;
 * a full set given by a caller ends after one probe a slot); whether it was new. */
static inline int insert(uint64_t *keys, uint64_t mask, uint64_t code, int shift) {
    uint64_t i = slot_of(code, shift);
    for (uint64_t probes = 0; probes <= mask; probes++, i = (i + 1) & mask) {
        uint64_t here = keys[i];
        if (here == code) return 0;
        if (here == EMPTY_KEY) {
            keys[i] = code;
            return 1;
        }
    }
    return 0;
}

/* The slot of a code in the set, -1 if absent. */
static inline int64_t find(const uint64_t *keys, uint64_t mask, uint64_t code, int shift) {
    uint64_t i = slot_of(code, shift);
    for (uint64_t probes = 0; probes <= mask; probes++, i = (i + 1) & mask) {
        uint64_t here = keys[i];
        if (here == code) return (int64_t)i;
        if (here == EMPTY_KEY) return -1;
    }
    return -1;
}

/* keys: a power of two of slots, shift = 64 - log2(slots); a Python error where not. */
static uint64_t *keys_of(Arrays *arrays, PyObject *obj, PyObject *shift_obj, int *shift,
                         uint64_t *mask) {
    uint64_t *keys = array_of(arrays, obj, 8, 1, "keys");
    if (keys == NULL) return NULL;
    Py_ssize_t n = last_length(arrays);
    int64_t value;
    if (int_of(shift_obj, &value, "shift") < 0) return NULL;
    if (n < 2 || (n & (n - 1)) || value < 1 || value > 63 || ((uint64_t)1 << (64 - value)) !=
                                                                (uint64_t)n) {
        PyErr_SetString(PyExc_ValueError, "keys: a power of two of slots, shift 64 - log2");
        return NULL;
    }
    *shift = (int)value;
    *mask = (uint64_t)n - 1;
    return keys;
}

/* integers in order, each checked to lie in [low, high] */
static int range_of(PyObject *obj, int64_t *out, int64_t low, int64_t high, const char *name) {
    if (int_of(obj, out, name) < 0) return -1;
    if (*out < low || *out > high) {
        PyErr_Format(PyExc_ValueError, "%s: %lld is not in [%lld, %lld]", name,
                     (long long)*out, (long long)low, (long long)high);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the search on codes */

/* The arguments expand and expand_again share: the kernel, the queue, its part [head, end) to
 * expand and its tail, the hash set. */
typedef struct {
    Tables t;
    Scratch s;
    uint64_t *queue, *keys, mask;
    int64_t head, end, tail, size;
    int shift;
} Pass;

static int pass_of(Arrays *arrays, PyObject *const *args, Pass *p) {
    if (open_kernel(arrays, args[0], args[1], &p->t, &p->s) < 0) return -1;
    p->queue = array_of(arrays, args[2], 8, 1, "queue");
    if (p->queue == NULL) return -1;
    p->size = last_length(arrays);
    if (range_of(args[5], &p->tail, 0, p->size, "tail") < 0 ||
        range_of(args[4], &p->end, 0, p->tail, "end") < 0 ||
        range_of(args[3], &p->head, 0, p->end, "head") < 0)
        return -1;
    p->keys = keys_of(arrays, args[6], args[7], &p->shift, &p->mask);
    if (p->keys == NULL) return -1;
    if ((uint64_t)p->size > p->mask) { /* the set holds the queue's codes: never full */
        PyErr_SetString(PyExc_ValueError, "keys: more slots than the queue holds codes");
        return -1;
    }
    return 0;
}

/* The first pass: expand queue[head:end], adding the codes not in the set at the tail; the
 * new tail, -1 when the queue is full. */
#define EXPAND_LOOP(MOVES)                                                                   \
    for (int64_t i = p.head; i < p.end && tail >= 0; i++) {                                  \
        int n = MOVES(&p.t, &p.s, p.queue[i], p.s.out);                                      \
        for (int j = 0; j < n; j++) {                                                        \
            if (!insert(p.keys, p.mask, p.s.out[j], p.shift)) continue;                      \
            if (tail >= p.size) {                                                            \
                tail = -1;                                                                   \
                break;                                                                       \
            }                                                                                \
            p.queue[tail++] = p.s.out[j];                                                    \
        }                                                                                    \
    }

/* The second pass (from the goals over the set the first found): the codes not yet `seen` (a
 * byte a slot of the set) added at the tail. */
#define EXPAND_AGAIN_LOOP(MOVES)                                                             \
    for (int64_t i = p.head; i < p.end && tail >= 0; i++) {                                  \
        int n = MOVES(&p.t, &p.s, p.queue[i], p.s.out);                                      \
        for (int j = 0; j < n; j++) {                                                        \
            int64_t slot = find(p.keys, p.mask, p.s.out[j], p.shift);                        \
            if (slot < 0 || seen[slot]) continue;                                            \
            if (tail >= p.size) {                                                            \
                tail = -1;                                                                   \
                break;                                                                       \
            }                                                                                \
            seen[slot] = 1;                                                                  \
            p.queue[tail++] = p.s.out[j];                                                    \
        }                                                                                    \
    }

/* expand(kernel, data, queue, head, end, tail, keys, shift), and expand_again with `seen`
 * after them: the new tail, -1 when the queue is full. */
static PyObject *expand_pass(PyObject *const *args, Py_ssize_t nargs, int again) {
    Arrays arrays = {0};
    Pass p;
    PyObject *result = NULL;
    uint8_t *seen = NULL;
    memset(&p, 0, sizeof p);
    if (check_arguments(again ? "expand_again" : "expand", nargs, again ? 9 : 8) < 0)
        return NULL;
    if (pass_of(&arrays, args, &p) < 0) goto done;
    if (again) {
        seen = array_of(&arrays, args[8], 1, 1, "seen");
        if (seen == NULL) goto done;
        if ((uint64_t)last_length(&arrays) != p.mask + 1) {
            PyErr_SetString(PyExc_ValueError, "seen: a byte a slot of keys");
            goto done;
        }
    }
    int64_t tail = p.tail;
    Py_BEGIN_ALLOW_THREADS
    if (again) {
        BY_KERNEL(&p.t, EXPAND_AGAIN_LOOP)
    } else {
        BY_KERNEL(&p.t, EXPAND_LOOP)
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(tail);
done:
    return finish(&arrays, &p.s, result);
}

static PyObject *expand(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return expand_pass(args, nargs, 0);
}

static PyObject *expand_again(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return expand_pass(args, nargs, 1);
}

/* fill(keys, codes, count, shift): codes[:count] into the set. */
static PyObject *fill(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    int shift;
    uint64_t mask;
    int64_t count;
    if (check_arguments("fill", nargs, 4) < 0) return NULL;
    uint64_t *keys = keys_of(&arrays, args[0], args[3], &shift, &mask);
    if (keys == NULL) goto done;
    const uint64_t *codes = array_of(&arrays, args[1], 8, 0, "codes");
    if (codes == NULL) goto done;
    int64_t room = last_length(&arrays);
    if ((uint64_t)room > mask) room = (int64_t)mask; /* the set never full */
    if (range_of(args[2], &count, 0, room, "count") < 0) goto done;
    for (int64_t j = 0; j < count; j++) insert(keys, mask, codes[j], shift);
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* mark_seen(keys, shift, queue, count, seen): mark the slots of queue[:count] seen. */
static PyObject *mark_seen(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    int shift;
    uint64_t mask;
    int64_t count;
    if (check_arguments("mark_seen", nargs, 5) < 0) return NULL;
    const uint64_t *keys = keys_of(&arrays, args[0], args[1], &shift, &mask);
    if (keys == NULL) goto done;
    const uint64_t *queue = array_of(&arrays, args[2], 8, 0, "queue");
    if (queue == NULL) goto done;
    if (range_of(args[3], &count, 0, last_length(&arrays), "count") < 0) goto done;
    uint8_t *seen = array_of(&arrays, args[4], 1, 1, "seen");
    if (seen == NULL) goto done;
    if ((uint64_t)last_length(&arrays) != mask + 1) {
        PyErr_SetString(PyExc_ValueError, "seen: a byte a slot of keys");
        goto done;
    }
    for (int64_t i = 0; i < count; i++) {
        int64_t slot = find(keys, mask, queue[i], shift);
        if (slot < 0) {
            PyErr_SetString(PyExc_ValueError, "a seed not in the set");
            goto done;
        }
        seen[slot] = 1;
    }
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* pick(kernel, data, queue, count, picked): the codes of queue[:count] where the kernel's goal
 * stands, into picked; how many. */
static PyObject *pick(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    int64_t count, found = 0;
    if (check_arguments("pick", nargs, 5) < 0) return NULL;
    if (open_kernel(&arrays, args[0], args[1], &t, &s) < 0 || need_goal(&t) < 0) goto done;
    const uint64_t *queue = array_of(&arrays, args[2], 8, 0, "queue");
    if (queue == NULL) goto done;
    Py_ssize_t size = last_length(&arrays);
    uint64_t *picked = array_of(&arrays, args[4], 8, 1, "picked");
    if (picked == NULL) goto done;
    if (last_length(&arrays) < size) size = last_length(&arrays);
    if (range_of(args[3], &count, 0, size, "count") < 0) goto done;
    GoalFn goal = KERNELS[t.kernel].goal;
    Py_BEGIN_ALLOW_THREADS
    for (int64_t i = 0; i < count; i++)
        if (goal(&t, &s, queue[i])) picked[found++] = queue[i];
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(found);
done:
    return finish(&arrays, &s, result);
}

/* mark_levels(queue, ends): code -> code * 4 + distance mod 3, the levels ending at `ends`. */
static PyObject *mark_levels(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    if (check_arguments("mark_levels", nargs, 2) < 0) return NULL;
    uint64_t *queue = array_of(&arrays, args[0], 8, 1, "queue");
    if (queue == NULL) goto done;
    int64_t size = last_length(&arrays);
    const int64_t *ends = array_of(&arrays, args[1], 8, 0, "ends");
    if (ends == NULL) goto done;
    int64_t levels = last_length(&arrays), start = 0;
    for (int64_t level = 0; level < levels; level++)
        if (ends[level] < start || ends[level] > size) {
            PyErr_SetString(PyExc_ValueError, "ends: ascending, within the queue");
            goto done;
        } else {
            start = ends[level];
        }
    start = 0;
    for (int64_t level = 0; level < levels; level++) {
        uint64_t residue = (uint64_t)(level % 3);
        for (int64_t i = start; i < ends[level]; i++) queue[i] = (queue[i] << 2) | residue;
        start = ends[level];
    }
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* split(queue, count, packed): sorted code * 4 + residue -> the codes in place and the
 * residues packed four a byte. */
static PyObject *split(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    int64_t count;
    if (check_arguments("split", nargs, 3) < 0) return NULL;
    uint64_t *queue = array_of(&arrays, args[0], 8, 1, "queue");
    if (queue == NULL) goto done;
    int64_t size = last_length(&arrays);
    uint8_t *packed = array_of(&arrays, args[2], 1, 1, "packed");
    if (packed == NULL) goto done;
    int64_t room = 4 * last_length(&arrays);
    if (range_of(args[1], &count, 0, size < room ? size : room, "count") < 0) goto done;
    for (int64_t i = 0; i < count; i++) {
        int at = (int)((i & 3) << 1);
        packed[i >> 2] = (uint8_t)((packed[i >> 2] & ~(3 << at)) | ((queue[i] & 3) << at));
        queue[i] >>= 2;
    }
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* scatter(queue, count, packed): code * 4 + residue -> the residues packed four a byte at
 * their codes (the codes 0..count-1, each once: a dense search's, no sort needed). */
static PyObject *scatter(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    int64_t count;
    if (check_arguments("scatter", nargs, 3) < 0) return NULL;
    const uint64_t *queue = array_of(&arrays, args[0], 8, 0, "queue");
    if (queue == NULL) goto done;
    int64_t size = last_length(&arrays);
    uint8_t *packed = array_of(&arrays, args[2], 1, 1, "packed");
    if (packed == NULL) goto done;
    uint64_t room = 4 * (uint64_t)last_length(&arrays);
    if (range_of(args[1], &count, 0, size, "count") < 0) goto done;
    for (int64_t i = 0; i < count; i++) {
        uint64_t code = queue[i] >> 2;
        if (code >= room) {
            PyErr_SetString(PyExc_ValueError, "scatter: a code past the packed residues");
            goto done;
        }
        int at = (int)((code & 3) << 1);
        packed[code >> 2] = (uint8_t)((packed[code >> 2] & ~(3 << at)) | ((queue[i] & 3) << at));
    }
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* ---------------------------------------------------------------- the search on ranks */

/* Whether a byte of `word` equals that of `pattern` (a byte repeated 8 times). */
static inline int holds_byte(uint64_t word, uint64_t pattern) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    uint64_t v = word ^ pattern; /* a zero byte where the word holds the pattern's */
    return ~(((v & low7) + low7) | v | low7) != 0;
}

static inline uint8_t byte_at(const uint8_t *distance, uint64_t r) {
    return __atomic_load_n(distance + r, __ATOMIC_RELAXED);
}

#define LEVEL_LOOP(MOVES)                                                                    \
    for (int64_t w = lo / 8; w < hi / 8; w++) {                                              \
        uint64_t word;                                                                       \
        memcpy(&word, distance + 8 * w, 8);                                                  \
        if (!holds_byte(word, pattern)) continue; /* no byte of the word is the level's */   \
        for (int64_t r = 8 * w; r < 8 * w + 8; r++) {                                        \
            if (byte_at(distance, r) != level) continue;                                     \
            expanded++;                                                                      \
            int n = MOVES(&t, &s, (uint64_t)r, s.out);                                       \
            for (int i = 0; i < n; i++) {                                                    \
                uint64_t x = s.out[i];                                                       \
                if (x < ranks && byte_at(distance, x) == unseen)                             \
                    __atomic_store_n(distance + x, after, __ATOMIC_RELAXED);                 \
            }                                                                                \
        }                                                                                    \
    }

/* The byte array of a ranked search and the part [lo, hi) of it a call takes (multiples of 8
 * within it); its length. */
static int64_t ranked_part(Arrays *arrays, PyObject *const *args, uint8_t **distance,
                           int64_t *lo, int64_t *hi) {
    *distance = array_of(arrays, args[0], 1, 1, "distance");
    if (*distance == NULL) return -1;
    int64_t size = last_length(arrays);
    if (size % 8) {
        PyErr_SetString(PyExc_ValueError, "distance: whole words of 8 bytes expected");
        return -1;
    }
    if (range_of(args[2], hi, 0, size, "hi") < 0 || range_of(args[1], lo, 0, *hi, "lo") < 0)
        return -1;
    if (*lo % 8 || *hi % 8) {
        PyErr_SetString(PyExc_ValueError, "lo, hi: multiples of 8 expected");
        return -1;
    }
    return size;
}

/* level(kernel, data, distance, lo, hi, level, after, unseen): expand every rank in [lo, hi)
 * whose byte is `level`, giving `after` to each neighbour whose byte is `unseen`; how many
 * ranks were expanded. Threads may each take a part at once. */
static PyObject *level_of(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    uint8_t *distance;
    int64_t lo, hi, values[3], expanded = 0;
    if (check_arguments("level", nargs, 8) < 0) return NULL;
    if (open_kernel(&arrays, args[0], args[1], &t, &s) < 0) goto done;
    int64_t size = ranked_part(&arrays, args + 2, &distance, &lo, &hi);
    if (size < 0) goto done;
    for (int i = 0; i < 3; i++)
        if (range_of(args[5 + i], &values[i], 0, 255, "level, after, unseen") < 0) goto done;
    uint8_t level = (uint8_t)values[0], after = (uint8_t)values[1], unseen = (uint8_t)values[2];
    uint64_t pattern = 0x0101010101010101ULL * level, ranks = (uint64_t)size;
    Py_BEGIN_ALLOW_THREADS
    BY_KERNEL(&t, LEVEL_LOOP)
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(expanded);
done:
    return finish(&arrays, &s, result);
}

/* goals(kernel, data, distance, lo, hi, unseen): for the goal's component, every reached rank
 * in [lo, hi) (byte not `unseen`) becomes 0 where a goal stands, else IN_COMPONENT (to be
 * reached again from the goals); how many goals. */
static PyObject *goals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    uint8_t *distance;
    int64_t lo, hi, unseen, found = 0;
    if (check_arguments("goals", nargs, 6) < 0) return NULL;
    if (open_kernel(&arrays, args[0], args[1], &t, &s) < 0 || need_goal(&t) < 0) goto done;
    if (ranked_part(&arrays, args + 2, &distance, &lo, &hi) < 0) goto done;
    if (range_of(args[5], &unseen, 0, 255, "unseen") < 0) goto done;
    GoalFn goal = KERNELS[t.kernel].goal;
    Py_BEGIN_ALLOW_THREADS
    for (int64_t r = lo; r < hi; r++) {
        if (distance[r] == unseen) continue;
        int here = goal(&t, &s, (uint64_t)r);
        distance[r] = here ? 0 : IN_COMPONENT;
        found += here;
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(found);
done:
    return finish(&arrays, &s, result);
}

/* A byte array and a byte value: the arguments of retire and collect. */
static int bytes_and_value(Arrays *arrays, PyObject *const *args, uint8_t **bytes,
                           int64_t *size, uint8_t *value) {
    int64_t v;
    *bytes = array_of(arrays, args[0], 1, 1, "distance");
    if (*bytes == NULL) return -1;
    *size = last_length(arrays);
    if (range_of(args[1], &v, 0, 255, "value") < 0) return -1;
    *value = (uint8_t)v;
    return 0;
}

/* retire(distance, value, to): every byte `value` becomes `to`. */
static PyObject *retire(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    uint8_t *distance, value;
    int64_t size, to;
    if (check_arguments("retire", nargs, 3) < 0) return NULL;
    if (bytes_and_value(&arrays, args, &distance, &size, &value) < 0 ||
        range_of(args[2], &to, 0, 255, "to") < 0)
        goto done;
    Py_BEGIN_ALLOW_THREADS
    for (int64_t r = 0; r < size; r++)
        if (distance[r] == value) distance[r] = (uint8_t)to;
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* collect(distance, value, found): the first ranks whose byte is `value`, into found (int64);
 * how many. */
static PyObject *collect(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    uint8_t *distance, value;
    int64_t size, n = 0;
    if (check_arguments("collect", nargs, 3) < 0) return NULL;
    if (bytes_and_value(&arrays, args, &distance, &size, &value) < 0) goto done;
    int64_t *found = array_of(&arrays, args[2], 8, 1, "found");
    if (found == NULL) goto done;
    int64_t room = last_length(&arrays);
    for (int64_t r = 0; r < size && n < room; r++)
        if (distance[r] == value) found[n++] = r;
    result = PyLong_FromLongLong(n);
done:
    return finish(&arrays, NULL, result);
}

/* pack_ranked(distance, packed): the bytes as residues mod 3 in 2 bits (3: not reached), rank
 * r in bits 2(r % 4) of byte r / 4. */
static PyObject *pack_ranked(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    if (check_arguments("pack_ranked", nargs, 2) < 0) return NULL;
    const uint8_t *distance = array_of(&arrays, args[0], 1, 0, "distance");
    if (distance == NULL) goto done;
    int64_t size = last_length(&arrays);
    uint8_t *packed = array_of(&arrays, args[1], 1, 1, "packed");
    if (packed == NULL) goto done;
    int64_t bytes = last_length(&arrays);
    Py_BEGIN_ALLOW_THREADS
    for (int64_t i = 0; i < bytes; i++) {
        unsigned byte = 0;
        for (int j = 0; j < 4; j++) {
            int64_t r = 4 * i + j;
            unsigned v = r < size ? distance[r] : UNSEEN_BYTE;
            unsigned residue = v < WRAP ? v % 3 : (v < IN_COMPONENT ? v - WRAP : 3);
            byte |= residue << (2 * j);
        }
        packed[i] = (uint8_t)byte;
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, NULL, result);
}

/* ---------------------------------------------------------------- one position, for checks */

/* neighbours(kernel, data, code, out): the codes one move away from `code`, into out; how
 * many (out must hold the kernel's degree: ValueError where it cannot). */
static PyObject *neighbours(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    int64_t code;
    if (check_arguments("neighbours", nargs, 4) < 0) return NULL;
    if (open_kernel(&arrays, args[0], args[1], &t, &s) < 0) goto done;
    unsigned long long value = PyLong_AsUnsignedLongLongMask(args[2]);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) goto done;
    code = (int64_t)value;
    uint64_t *out = array_of(&arrays, args[3], 8, 1, "out");
    if (out == NULL) goto done;
    if (last_length(&arrays) < t.degree) {
        PyErr_Format(PyExc_ValueError, "out: room for %lld codes expected", (long long)t.degree);
        goto done;
    }
    int n = KERNELS[t.kernel].moves(&t, &s, (uint64_t)code, out);
    result = PyLong_FromLong(n);
done:
    return finish(&arrays, &s, result);
}

/* ---------------------------------------------------------------- sliding: every arrangement */

/* The sliding ranks kernel's data read for a call on every rank; a Python error where not. */
static int open_ranks(Arrays *arrays, PyObject *data, Tables *t, Scratch *s) {
    PyObject *number = PyLong_FromLong(SLIDING_RANKS);
    if (number == NULL) return -1;
    int status = open_kernel(arrays, number, data, t, s);
    Py_DECREF(number);
    return status;
}

/* mixed_codes(data, ranks, codes): the mixed-radix code of each rank's arrangement (for the
 * play page, whose script computes those codes). */
static PyObject *mixed_codes(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    if (check_arguments("mixed_codes", nargs, 3) < 0) return NULL;
    if (open_ranks(&arrays, args[0], &t, &s) < 0) goto done;
    const uint64_t *ranks = array_of(&arrays, args[1], 8, 0, "ranks");
    if (ranks == NULL) goto done;
    int64_t count = last_length(&arrays);
    uint64_t *codes = array_of(&arrays, args[2], 8, 1, "codes");
    if (codes == NULL) goto done;
    if (last_length(&arrays) < count) {
        PyErr_SetString(PyExc_ValueError, "codes: one a rank expected");
        goto done;
    }
    for (int64_t i = 0; i < count; i++) {
        unrank(&t, &s, ranks[i]);
        uint64_t code = 0;
        for (int64_t g = 0; g < t.groups; g++) {
            uint64_t rank = 0;
            for (int64_t j = 0; j < t.kcount[g]; j++)
                rank += binom(&t, s.pieces[t.start[g] + j], j + 1);
            code += rank * t.mult[g];
        }
        codes[i] = code;
    }
    result = Py_NewRef(Py_None);
done:
    return finish(&arrays, &s, result);
}

static inline uint32_t root(uint32_t *parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Join every rank with its neighbours (union by smaller root), then number the clusters by
 * their smallest rank; how many. */
static int64_t label_clusters(const Tables *t, Scratch *s, uint32_t *parent, int64_t size) {
    for (int64_t r = 0; r < size; r++) parent[r] = (uint32_t)r;
    for (int64_t r = 0; r < size; r++) {
        int n = ranks_moves(t, s, (uint64_t)r, s->out);
        for (int i = 0; i < n; i++) {
            if (s->out[i] >= (uint64_t)size) continue;
            uint32_t a = root(parent, (uint32_t)r), b = root(parent, (uint32_t)s->out[i]);
            if (a < b) parent[b] = a; /* a cluster's root is its smallest rank */
            else if (b < a) parent[a] = b;
        }
    }
    for (int64_t r = 0; r < size; r++) parent[r] = root(parent, (uint32_t)r);
    int64_t found = 0;
    for (int64_t r = 0; r < size; r++) /* ascending: a root comes before its cluster */
        parent[r] = parent[r] == (uint32_t)r ? (uint32_t)found++ : parent[parent[r]];
    return found;
}

/* clusters(data, parent): label every arrangement (rank, 0 to len(parent) - 1) with its
 * cluster, the positions joined to it by moves, numbered by their smallest rank (uint32); how
 * many clusters. Joining is the same in every metric, so data may be the step metric's. */
static PyObject *clusters(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    int64_t found = 0;
    if (check_arguments("clusters", nargs, 2) < 0) return NULL;
    if (open_ranks(&arrays, args[0], &t, &s) < 0) goto done;
    uint32_t *parent = array_of(&arrays, args[1], 4, 1, "parent");
    if (parent == NULL) goto done;
    int64_t size = last_length(&arrays);
    if (size > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "parent: at most 2^32 ranks");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    found = label_clusters(&t, &s, parent, size);
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(found);
done:
    return finish(&arrays, &s, result);
}

/* The arrays of distances_to_goals after data and the goal's terms. */
typedef struct {
    const uint32_t *label;
    int64_t *count, *farthest, *far_rank, *goal_count;
    uint16_t *distance;
    int64_t size, clusters, levels;
} Spread;

/* Every rank's distance to its cluster's nearest goal (FAR: none), level by level. */
static void spread(const Tables *t, Scratch *s, Spread *d, int goals, int64_t single) {
    for (int64_t r = 0; r < d->size; r++) d->distance[r] = FAR;
    for (int64_t c = 0; c < d->clusters; c++) d->farthest[c] = d->far_rank[c] = -1;
    memset(d->goal_count, 0, (size_t)d->clusters * sizeof(int64_t));
    for (int64_t r = 0; r < d->size; r++)
        if (goals ? ranks_goal(t, s, (uint64_t)r) : r == single) {
            d->distance[r] = 0;
            d->goal_count[d->label[r]]++;
        }
    for (int64_t level = 0; level < FAR - 1; level++) {
        int64_t expanded = 0;
        for (int64_t r = 0; r < d->size; r++) {
            if (d->distance[r] != level) continue;
            expanded++;
            uint32_t c = d->label[r];
            if (level > d->farthest[c]) {
                d->farthest[c] = level;
                d->far_rank[c] = r;
            }
            int n = ranks_moves(t, s, (uint64_t)r, s->out);
            for (int i = 0; i < n; i++)
                if (s->out[i] < (uint64_t)d->size && d->distance[s->out[i]] == FAR)
                    d->distance[s->out[i]] = (uint16_t)(level + 1);
        }
        d->levels = level;
        if (!expanded) return;
        d->count[level] = expanded;
    }
    d->levels = FAR - 1;
}

/* distances_to_goals(data, goals, single, label, count, distance, farthest, far_rank,
 * goal_count): every rank's distance to the nearest goal position of its cluster (the goals:
 * where the goal test holds when `goals`, else the rank `single`) in distance (uint16; 65535: a
 * cluster with no goal); per cluster its farthest distance and the smallest rank at it, and its
 * goals; the positions at each distance into count. How many levels. */
/* distances_to_goals' arrays (args[3..8]): label, count, distance, and the clusters' farthest,
 * far_rank, goal_count, their lengths checked against each other. */
static int spread_arrays(Arrays *arrays, PyObject *const *args, Spread *d) {
    if ((d->label = array_of(arrays, args[3], 4, 0, "label")) == NULL) return -1;
    d->size = last_length(arrays);
    if ((d->count = array_of(arrays, args[4], 8, 1, "count")) == NULL) return -1;
    int64_t levels_room = last_length(arrays);
    if ((d->distance = array_of(arrays, args[5], 2, 1, "distance")) == NULL) return -1;
    int64_t distance_length = last_length(arrays);
    int64_t *cluster_arrays[3];
    const char *names[] = {"farthest", "far_rank", "goal_count"};
    for (int i = 0; i < 3; i++) {
        if ((cluster_arrays[i] = array_of(arrays, args[6 + i], 8, 1, names[i])) == NULL)
            return -1;
        if (i && last_length(arrays) != d->clusters) {
            PyErr_SetString(PyExc_ValueError, "farthest, far_rank, goal_count: one a cluster");
            return -1;
        }
        d->clusters = last_length(arrays);
    }
    d->farthest = cluster_arrays[0], d->far_rank = cluster_arrays[1];
    d->goal_count = cluster_arrays[2];
    if (distance_length != d->size || levels_room < FAR) {
        PyErr_SetString(PyExc_ValueError, "distance: one a rank; count: 65535 levels");
        return -1;
    }
    for (int64_t r = 0; r < d->size; r++)
        if (d->label[r] >= d->clusters) {
            PyErr_SetString(PyExc_ValueError, "label: a cluster out of range");
            return -1;
        }
    return 0;
}

static PyObject *distances_to_goals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    Tables t;
    Scratch s = {0};
    PyObject *result = NULL;
    Spread d = {0};
    int64_t goals, single;
    if (check_arguments("distances_to_goals", nargs, 9) < 0) return NULL;
    if (open_ranks(&arrays, args[0], &t, &s) < 0) goto done;
    if (int_of(args[1], &goals, "goals") < 0 || int_of(args[2], &single, "single") < 0)
        goto done;
    if (spread_arrays(&arrays, args, &d) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    spread(&t, &s, &d, goals != 0, single);
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong(d.levels);
done:
    return finish(&arrays, &s, result);
}

/* at_distance(distance, moves, picks, found): the ranks at `moves` moves (uint16 distances)
 * whose ordinal among them (rank order) is in the sorted picks, into found; how many positions
 * lie at that distance. */
static PyObject *at_distance(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Arrays arrays = {0};
    PyObject *result = NULL;
    int64_t moves, seen = 0, j = 0;
    if (check_arguments("at_distance", nargs, 4) < 0) return NULL;
    const uint16_t *distance = array_of(&arrays, args[0], 2, 0, "distance");
    if (distance == NULL) goto done;
    int64_t size = last_length(&arrays);
    if (int_of(args[1], &moves, "moves") < 0) goto done;
    const int64_t *picks = array_of(&arrays, args[2], 8, 0, "picks");
    if (picks == NULL) goto done;
    int64_t count = last_length(&arrays);
    int64_t *found = array_of(&arrays, args[3], 8, 1, "found");
    if (found == NULL) goto done;
    if (last_length(&arrays) < count) {
        PyErr_SetString(PyExc_ValueError, "found: one a pick expected");
        goto done;
    }
    for (int64_t r = 0; r < size; r++) {
        if (distance[r] != moves) continue;
        while (j < count && picks[j] == seen) found[j++] = r;
        seen++;
    }
    result = PyLong_FromLongLong(seen);
done:
    return finish(&arrays, NULL, result);
}

/* ---------------------------------------------------------------- the module */

static PyMethodDef methods[] = {
    {"expand", (PyCFunction)(void (*)(void))expand, METH_FASTCALL,
     "expand(kernel, data, queue, head, end, tail, keys, shift) -> new tail, -1 when full"},
    {"expand_again", (PyCFunction)(void (*)(void))expand_again, METH_FASTCALL,
     "expand_again(kernel, data, queue, head, end, tail, keys, shift, seen) -> new tail"},
    {"fill", (PyCFunction)(void (*)(void))fill, METH_FASTCALL,
     "fill(keys, codes, count, shift): codes[:count] into the hash set"},
    {"mark_seen", (PyCFunction)(void (*)(void))mark_seen, METH_FASTCALL,
     "mark_seen(keys, shift, queue, count, seen): the slots of queue[:count] seen"},
    {"pick", (PyCFunction)(void (*)(void))pick, METH_FASTCALL,
     "pick(kernel, data, queue, count, picked) -> how many codes pass the goal test"},
    {"mark_levels", (PyCFunction)(void (*)(void))mark_levels, METH_FASTCALL,
     "mark_levels(queue, ends): code -> code * 4 + distance mod 3"},
    {"split", (PyCFunction)(void (*)(void))split, METH_FASTCALL,
     "split(queue, count, packed): codes back in place, residues packed"},
    {"scatter", (PyCFunction)(void (*)(void))scatter, METH_FASTCALL,
     "scatter(queue, count, packed): residues packed at their codes (a dense search's)"},
    {"level", (PyCFunction)(void (*)(void))level_of, METH_FASTCALL,
     "level(kernel, data, distance, lo, hi, level, after, unseen) -> ranks expanded"},
    {"goals", (PyCFunction)(void (*)(void))goals, METH_FASTCALL,
     "goals(kernel, data, distance, lo, hi, unseen) -> goals marked"},
    {"retire", (PyCFunction)(void (*)(void))retire, METH_FASTCALL,
     "retire(distance, value, to): every byte value becomes to"},
    {"collect", (PyCFunction)(void (*)(void))collect, METH_FASTCALL,
     "collect(distance, value, found) -> how many ranks of that byte"},
    {"pack_ranked", (PyCFunction)(void (*)(void))pack_ranked, METH_FASTCALL,
     "pack_ranked(distance, packed): residues in 2 bits"},
    {"neighbours", (PyCFunction)(void (*)(void))neighbours, METH_FASTCALL,
     "neighbours(kernel, data, code, out) -> how many codes one move away"},
    {"mixed_codes", (PyCFunction)(void (*)(void))mixed_codes, METH_FASTCALL,
     "mixed_codes(data, ranks, codes): each rank's mixed-radix code"},
    {"clusters", (PyCFunction)(void (*)(void))clusters, METH_FASTCALL,
     "clusters(data, parent) -> how many clusters (parent: each rank's)"},
    {"distances_to_goals", (PyCFunction)(void (*)(void))distances_to_goals, METH_FASTCALL,
     "distances_to_goals(data, goals, single, label, count, distance, farthest, far_rank, "
     "goal_count) -> levels"},
    {"at_distance", (PyCFunction)(void (*)(void))at_distance, METH_FASTCALL,
     "at_distance(distance, moves, picks, found) -> positions at that distance"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "puzzlesat._moves",
    "God's algorithm for the puzzles solved by moves: the breadth-first engine's loops and the "
    "families' move kernels (runners/csrc/moves.c).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__moves(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    for (int k = 0; k < KERNEL_COUNT; k++)
        if (PyModule_AddIntConstant(m, KERNELS[k].name, k) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    if (PyModule_AddIntConstant(m, "WRAP", WRAP) < 0 ||
        PyModule_AddIntConstant(m, "IN_COMPONENT", IN_COMPONENT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
