/* A plain row-scan edge-matching counter in C: the benchmark's anchor for nodes per second.
 * Written for puzzlesat (not part of the library; built at run time into a temporary folder).
 * Input on stdin: rows cols frame colours kinds, then per kind: count top right bottom left.
 * frame is the colour that must face the border and nowhere else, or -1 (border free).
 * Cells are filled row by row; each cell's candidates are a list by (left colour, top colour).
 * An optional argument stops the search after that many nodes (for a rate on a large board);
 * a second one, a kind's number, keeps only that kind on the first cell (the top left corner):
 * the grids with that tile there (where the tile is alone of its kind and fits only corners,
 * a quarter of every grid on a square board; checked against the full scan by the tests);
 * a third, a kind's number, keeps only that kind on the second cell (the first cell's node is
 * counted by every such part: a caller adding the parts takes it off all but one).
 * Counts distinct grids (a kind turned one distinct way per cell) and nodes (tiles placed).
 * Prints: grids, nodes, wall seconds of the search, CPU seconds of the search. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int R, C, F, K, N, W;
static int cnt[4096], ntype[16384], nedge[16384][4];
static int *lst, *lstart, *lend; /* per cell x (W+1) x (W+1) */
static int placed[1024];
static long long found, nodes, limit = -1;
static int first_kind = -1, second_kind = -1;

static long long count(int i) {
  int r = i / C, c = i % C;
  int lc = c ? nedge[placed[i - 1]][1] : W;
  int tc = r ? nedge[placed[i - C]][2] : W;
  int k = (i * (W + 1) + lc) * (W + 1) + tc;
  for (int j = lstart[k]; j < lend[k]; j++) {
    int n = lst[j], t = ntype[n];
    if (!cnt[t] || (i == 0 && first_kind >= 0 && t != first_kind)
        || (i == 1 && second_kind >= 0 && t != second_kind)) continue;
    nodes++;
    if (limit >= 0 && nodes > limit) return 0;
    if (i == R * C - 1) { found++; continue; }
    cnt[t]--; placed[i] = n;
    count(i + 1);
    cnt[t]++;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) limit = atoll(argv[1]); /* stop after this many nodes (negative: never) */
  if (argc > 2) first_kind = atoi(argv[2]); /* only this kind on the first cell */
  if (argc > 3) second_kind = atoi(argv[3]); /* only this kind on the second cell */
  if (scanf("%d %d %d %d %d", &R, &C, &F, &W, &K) != 5) return 2;
  N = 0;
  for (int t = 0; t < K; t++) {
    int e[4];
    if (scanf("%d %d %d %d %d", &cnt[t], &e[0], &e[1], &e[2], &e[3]) != 5) return 2;
    for (int q = 0; q < 4; q++) {
      int f[4], dup = 0;
      for (int s = 0; s < 4; s++) f[s] = e[(s - q + 4) % 4];
      for (int m = 0; m < N; m++)
        if (ntype[m] == t && nedge[m][0] == f[0] && nedge[m][1] == f[1] && nedge[m][2] == f[2]
            && nedge[m][3] == f[3]) dup = 1;
      if (dup) continue;
      ntype[N] = t;
      for (int s = 0; s < 4; s++) nedge[N][s] = f[s];
      N++;
    }
  }
  int keys = R * C * (W + 1) * (W + 1);
  lstart = calloc(keys, sizeof(int)); lend = calloc(keys, sizeof(int));
  lst = malloc(sizeof(int) * (size_t)keys * 1 + sizeof(int) * (size_t)N * R * C + 16);
  int at = 0;
  for (int i = 0; i < R * C; i++) {
    int r = i / C, c = i % C, out[4] = {r == 0, c == C - 1, r == R - 1, c == 0};
    for (int lc = 0; lc <= W; lc++)
      for (int tc = 0; tc <= W; tc++) {
        int k = (i * (W + 1) + lc) * (W + 1) + tc;
        lstart[k] = at;
        if ((c > 0) != (lc < W) || (r > 0) != (tc < W)) { lend[k] = at; continue; }
        for (int n = 0; n < N; n++) {
          int ok = 1;
          if (F >= 0) for (int s = 0; s < 4; s++) ok &= (nedge[n][s] == F) == out[s];
          if (lc < W) ok &= nedge[n][3] == lc;
          if (tc < W) ok &= nedge[n][0] == tc;
          if (ok) lst[at++] = n;
        }
        lend[k] = at;
      }
  }
  struct timespec a, b, ca, cb;
  clock_gettime(CLOCK_MONOTONIC, &a);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
  count(0);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
  double cpu = (cb.tv_sec - ca.tv_sec) + (cb.tv_nsec - ca.tv_nsec) * 1e-9;
  printf("%lld %lld %.6f %.6f\n", found, nodes, s, cpu);
  return 0;
}
