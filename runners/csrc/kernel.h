/* What every compiled search shares: bit tricks, atomics on the memo's words, and the
 * reading of its arguments (NumPy arrays through the buffer protocol, and integers).
 *
 * A kernel is a C function called from Python with METH_FASTCALL; it reads its arrays in place
 * (no copy), runs with the GIL released, so that threads search at once, and returns plain
 * integers. A wrong argument (an array of the wrong item size, a read-only array it writes)
 * is a TypeError or ValueError, never a crash. */
#ifndef PUZZLESAT_KERNEL_H
#define PUZZLESAT_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define KERNEL_ARRAYS 64 /* most arrays one call reads */

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
/* the number of zero bits below the lowest set bit (x not 0) */
static inline int trailing_zeros64(uint64_t x) { return __builtin_ctzll(x); }

/* atomics on one int64 of an array shared by threads (the orderings named) */
static inline int64_t load_relaxed(const int64_t *a, int64_t i) {
    return __atomic_load_n(a + i, __ATOMIC_RELAXED);
}
static inline int64_t load_acquire(const int64_t *a, int64_t i) {
    return __atomic_load_n(a + i, __ATOMIC_ACQUIRE);
}
static inline void store_relaxed(int64_t *a, int64_t i, int64_t v) {
    __atomic_store_n(a + i, v, __ATOMIC_RELAXED);
}
static inline void store_release(int64_t *a, int64_t i, int64_t v) {
    __atomic_store_n(a + i, v, __ATOMIC_RELEASE);
}
static inline void fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
static inline void fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
/* a[i] set to new where it holds old, at once; whether it did */
static inline int compare_and_swap(int64_t *a, int64_t i, int64_t old, int64_t new_value) {
    return __atomic_compare_exchange_n(a + i, &old, new_value, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_RELAXED);
}

/* The arrays one call holds, released together by arrays_release. */
typedef struct {
    Py_buffer views[KERNEL_ARRAYS];
    int count;
} Arrays;

/* The items of `obj` (a C-contiguous array of items of `itemsize` bytes), held in `arrays`;
 * NULL with a Python error set where it is not one. `writable`: the kernel writes into it. */
static void *array_of(Arrays *arrays, PyObject *obj, Py_ssize_t itemsize, int writable,
                      const char *name) {
    if (arrays->count >= KERNEL_ARRAYS) {
        PyErr_SetString(PyExc_ValueError, "too many arrays for one kernel call");
        return NULL;
    }
    Py_buffer *view = &arrays->views[arrays->count];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Format(PyExc_TypeError, "%s: a contiguous%s array expected", name,
                     writable ? " writable" : "");
        return NULL;
    }
    arrays->count++;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: items of %zd bytes expected, not %zd", name,
                     itemsize, view->itemsize);
        return NULL;
    }
    return view->buf;
}

/* The number of items of the array last taken by array_of. */
static inline Py_ssize_t last_length(const Arrays *arrays) {
    const Py_buffer *view = &arrays->views[arrays->count - 1];
    return view->len / view->itemsize;
}

static void arrays_release(Arrays *arrays) {
    for (int i = 0; i < arrays->count; i++) PyBuffer_Release(&arrays->views[i]);
    arrays->count = 0;
}

/* A Python integer (or NumPy integer) as int64; -1 with an error set where it is none. */
static int int_of(PyObject *obj, int64_t *out, const char *name) {
    long long value = PyLong_AsLongLong(obj);
    if (value == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyObject *index = PyNumber_Index(obj);
        if (index == NULL) {
            PyErr_Format(PyExc_TypeError, "%s: an integer expected", name);
            return -1;
        }
        value = PyLong_AsLongLong(index);
        Py_DECREF(index);
        if (value == -1 && PyErr_Occurred()) return -1;
    }
    *out = (int64_t)value;
    return 0;
}

/* `n` integer arguments in a row (`names`, in order) as int64; -1 with an error set at the
 * first that is none. */
static inline int ints_of(PyObject *const *args, int n, const char *const *names, int64_t *out) {
    for (int i = 0; i < n; i++)
        if (int_of(args[i], &out[i], names[i]) < 0) return -1;
    return 0;
}

/* A float argument (or integer) as double; -1 with an error set where it is none. */
static int double_of(PyObject *obj, double *out, const char *name) {
    double value = PyFloat_AsDouble(obj);
    if (value == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s: a number expected", name);
        return -1;
    }
    *out = value;
    return 0;
}

/* Refuse a call with the wrong number of arguments (the kernel's name in the message). */
static int check_arguments(const char *kernel, Py_ssize_t given, Py_ssize_t wanted) {
    if (given == wanted) return 0;
    PyErr_Format(PyExc_TypeError, "%s takes %zd arguments, not %zd", kernel, wanted, given);
    return -1;
}

#endif
