/* A plain breadth-first search of a sliding-tile puzzle (ROWS x COLUMNS cells: numbered tiles
 * and one gap) from the solved position, written for puzzlesat as the anchor of
 * `puzzlesat sliding bench --tiles`: a compiled search with nothing clever in it.
 *
 * Every arrangement of the tiles and the gap is ranked by its Lehmer code (a perfect rank,
 * 0 to (ROWS*COLUMNS)! - 1) and keeps one byte, its distance from the solved position (255:
 * not reached yet). Level d is found by scanning every rank for the byte d; each such
 * position is unranked, its gap moved up, down, left and right, and each neighbour ranked and
 * given d + 1 where it was not reached. One thread.
 *
 * Usage: tiles_bfs ROWS COLUMNS
 * Prints one line: positions reached, God's number, seconds of search, peak resident KB, then
 * the positions at each distance from 0 up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define MAX_CELLS 13

static int cells, columns;
static unsigned long long factorial[MAX_CELLS + 1];

static unsigned long long rank_of(const int *tiles)
{
    unsigned long long rank = 0;
    for (int i = 0; i < cells; i++) {
        int smaller = 0;
        for (int j = i + 1; j < cells; j++)
            smaller += tiles[j] < tiles[i];
        rank += smaller * factorial[cells - 1 - i];
    }
    return rank;
}

static void unrank(unsigned long long rank, int *tiles)
{
    int used[MAX_CELLS] = {0};
    for (int i = 0; i < cells; i++) {
        unsigned long long digit = rank / factorial[cells - 1 - i];
        rank %= factorial[cells - 1 - i];
        int value = 0;
        for (;; value++)
            if (!used[value] && digit-- == 0)
                break;
        used[value] = 1;
        tiles[i] = value;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tiles_bfs ROWS COLUMNS\n");
        return 2;
    }
    int rows = atoi(argv[1]);
    columns = atoi(argv[2]);
    cells = rows * columns;
    if (rows < 1 || columns < 1 || cells < 2 || cells > MAX_CELLS) {
        fprintf(stderr, "tiles_bfs: 2 to %d cells\n", MAX_CELLS);
        return 2;
    }
    factorial[0] = 1;
    for (int i = 1; i <= cells; i++)
        factorial[i] = factorial[i - 1] * i;
    unsigned long long size = factorial[cells];
    unsigned char *distance = malloc(size);
    if (distance == NULL) {
        fprintf(stderr, "tiles_bfs: cannot allocate %llu bytes\n", size);
        return 1;
    }
    memset(distance, 255, size);
    int tiles[MAX_CELLS];
    for (int i = 0; i < cells - 1; i++)
        tiles[i] = i + 1; /* the solved position: tiles 1.. in order, the gap (0) last */
    tiles[cells - 1] = 0;
    distance[rank_of(tiles)] = 0;

    static unsigned long long counts[256];
    int levels = 0;
    struct timespec begin, end;
    clock_gettime(CLOCK_MONOTONIC, &begin);
    for (int d = 0; d < 254; d++) {
        unsigned long long expanded = 0;
        for (unsigned long long r = 0; r < size; r++) {
            if (distance[r] != d)
                continue;
            expanded++;
            unrank(r, tiles);
            int gap = 0;
            while (tiles[gap] != 0)
                gap++;
            int row = gap / columns, column = gap % columns;
            int near[4], n = 0;
            if (row > 0)
                near[n++] = gap - columns;
            if (row < rows - 1)
                near[n++] = gap + columns;
            if (column > 0)
                near[n++] = gap - 1;
            if (column < columns - 1)
                near[n++] = gap + 1;
            for (int i = 0; i < n; i++) {
                tiles[gap] = tiles[near[i]];
                tiles[near[i]] = 0;
                unsigned long long next = rank_of(tiles);
                if (distance[next] == 255)
                    distance[next] = (unsigned char)(d + 1);
                tiles[near[i]] = tiles[gap];
                tiles[gap] = 0;
            }
        }
        if (expanded == 0)
            break;
        counts[d] = expanded;
        levels = d + 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - begin.tv_sec) + (end.tv_nsec - begin.tv_nsec) / 1e9;
    unsigned long long positions = 0;
    for (int d = 0; d < levels; d++)
        positions += counts[d];
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("%llu %d %.3f %ld", positions, levels - 1, seconds, usage.ru_maxrss);
    for (int d = 0; d < levels; d++)
        printf(" %llu", counts[d]);
    printf("\n");
    free(distance);
    return 0;
}
