/* Knuth's Algorithm X with dancing links, counting exact covers: the C anchor of
 * `puzzlesat bench --anchor dlx`. Written for puzzlesat (not part of the library; the benchmark
 * builds it at run time into a temporary folder where a C compiler is present).
 *
 * Input on stdin, whitespace-separated integers:
 *   items options
 *   per option: its length, then its items (0-based, each primary, covered exactly once)
 *   cubes
 *   per cube: its length, then signed 1-based options (+k: option k-1 chosen, -k: left out)
 * Items are linked in the order given (the caller lists them in its fill order); the search
 * branches on the item with fewest options left, the first such on ties (Knuth's MRV).
 * Output: per cube a line "solutions nodes" (nodes: options placed by the search), then a
 * line "cpu SECONDS" (CPU seconds of the searches, input reading left out).
 * An optional argument stops each cube after that many nodes (for a rate). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int *L, *R, *U, *D, *C, *S, *row, *first, *past;
static int items, options;
static unsigned long long nodes;
static long long limit = -1;

static void cover(int c) {
  L[R[c]] = L[c]; R[L[c]] = R[c];
  for (int i = D[c]; i != c; i = D[i])
    for (int j = i + 1 == past[row[i]] ? first[row[i]] : i + 1; j != i;
         j = j + 1 == past[row[j]] ? first[row[j]] : j + 1) {
      U[D[j]] = U[j]; D[U[j]] = D[j]; S[C[j]]--;
    }
}

static void uncover(int c) {
  for (int i = U[c]; i != c; i = U[i])
    for (int j = i == first[row[i]] ? past[row[i]] - 1 : i - 1; j != i;
         j = j == first[row[j]] ? past[row[j]] - 1 : j - 1) {
      S[C[j]]++; U[D[j]] = j; D[U[j]] = j;
    }
  L[R[c]] = c; R[L[c]] = c;
}

/* the options of row r, other than node i, covered (chosen) or uncovered (taken back) */
static void choose(int i) {
  for (int j = i + 1 == past[row[i]] ? first[row[i]] : i + 1; j != i;
       j = j + 1 == past[row[j]] ? first[row[j]] : j + 1)
    cover(C[j]);
}

static void unchoose(int i) {
  for (int j = i == first[row[i]] ? past[row[i]] - 1 : i - 1; j != i;
       j = j == first[row[j]] ? past[row[j]] - 1 : j - 1)
    uncover(C[j]);
}

static unsigned long long search(void) {
  if (R[0] == 0) return 1;
  int c = R[0], fewest = S[c];
  for (int k = R[c]; k != 0 && fewest > 0; k = R[k])
    if (S[k] < fewest) { c = k; fewest = S[k]; }
  if (fewest == 0) return 0;
  unsigned long long found = 0;
  cover(c);
  for (int r = D[c]; r != c; r = D[r]) {
    nodes++;
    if (limit >= 0 && (long long)nodes > limit) break;
    choose(r);
    found += search();
    unchoose(r);
  }
  uncover(c);
  return found;
}

static int read_int(void) {
  int x;
  if (scanf("%d", &x) != 1) { fprintf(stderr, "dlx: input ends early\n"); exit(2); }
  return x;
}

int main(int argc, char **argv) {
  if (argc > 1) limit = atoll(argv[1]);
  items = read_int(); options = read_int();
  int cap = 1 + items, size = 1 + items;
  int *len = malloc(sizeof(int) * (options + 1)), **opt = malloc(sizeof(int *) * (options + 1));
  for (int o = 0; o < options; o++) {
    len[o] = read_int();
    opt[o] = malloc(sizeof(int) * (len[o] + 1));
    for (int k = 0; k < len[o]; k++) opt[o][k] = read_int();
    cap += len[o];
  }
  L = malloc(sizeof(int) * cap); R = malloc(sizeof(int) * cap); U = malloc(sizeof(int) * cap);
  D = malloc(sizeof(int) * cap); C = malloc(sizeof(int) * cap); S = calloc(items + 1, sizeof(int));
  row = malloc(sizeof(int) * cap);
  first = malloc(sizeof(int) * (options + 1)); past = malloc(sizeof(int) * (options + 1));
  for (int c = 0; c <= items; c++) {  /* node 0 is the root, item i is node i + 1 */
    L[c] = c ? c - 1 : items; R[c] = c == items ? 0 : c + 1; U[c] = D[c] = c; C[c] = c;
  }
  for (int o = 0; o < options; o++) {
    first[o] = size;
    for (int k = 0; k < len[o]; k++) {
      int c = opt[o][k] + 1, n = size++;
      if (c < 1 || c > items) { fprintf(stderr, "dlx: option %d: no item %d\n", o, c - 1); return 2; }
      C[n] = c; row[n] = o; S[c]++;
      U[n] = U[c]; D[n] = c; D[U[c]] = n; U[c] = n;
    }
    past[o] = size;
  }
  int cubes = read_int();
  double cpu = 0;
  int *cube = malloc(sizeof(int) * (options + 1)), *done = malloc(sizeof(int) * (options + 1));
  char *taken = calloc(items + 1, 1);
  for (int q = 0; q < cubes; q++) {
    int n = read_int();
    for (int k = 0; k < n; k++) cube[k] = read_int();
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    nodes = 0;
    int clash = 0, hidden = 0, chosen = 0;
    for (int k = 0; k < n; k++)  /* options left out: unlinked from their items */
      if (cube[k] < 0) {
        int o = -cube[k] - 1;
        for (int j = first[o]; j < past[o]; j++) { U[D[j]] = U[j]; D[U[j]] = D[j]; S[C[j]]--; }
        done[hidden++] = o;
      }
    for (int k = 0; k < n && !clash; k++)  /* options chosen: their items covered */
      if (cube[k] > 0) {
        int o = cube[k] - 1;
        for (int j = first[o]; j < past[o]; j++) clash |= taken[C[j]];
        for (int h = 0; h < hidden; h++) clash |= done[h] == o;
        if (clash) break;
        for (int j = first[o]; j < past[o]; j++) { taken[C[j]] = 1; cover(C[j]); }
        done[hidden + chosen++] = o;
      }
    unsigned long long found = clash ? 0 : search();
    for (int k = hidden + chosen - 1; k >= hidden; k--) {  /* undone in reverse */
      int o = done[k];
      for (int j = past[o] - 1; j >= first[o]; j--) { uncover(C[j]); taken[C[j]] = 0; }
    }
    for (int k = hidden - 1; k >= 0; k--) {
      int o = done[k];
      for (int j = past[o] - 1; j >= first[o]; j--) { S[C[j]]++; U[D[j]] = j; D[U[j]] = j; }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    cpu += (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("%llu %llu\n", found, nodes);
  }
  printf("cpu %.6f\n", cpu);
  return 0;
}
