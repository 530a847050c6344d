package org.frontiergraph.kernels.bfs;

import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * Bit-parallel multi-source BFS on the CPU (MS-BFS: Then, Kaufmann, Chirigati, Hoang-Vu, Pham, Kemper, Neumann, Vo,
 * "The More the Merrier: Efficient Multi-Source Graph Traversal", VLDB 2014), the CPU counterpart of the
 * GPU's {@link MultiSourceBfs}: one pass computes the SUMMARY (reached count, largest hop count) of up to
 * {@link #PASS} searches, with one {@code long} per vertex for each of
 * <ul>
 *   <li>{@code seen[v]}: the searches that reached v;</li>
 *   <li>{@code visit[v]}: the searches that reached v at the current level exactly (non-zero only for the level's
 *       active vertices);</li>
 *   <li>{@code visitNext[v]}: the same for the next level.</li>
 * </ul>
 * A level pushes each active vertex u's {@code visit[u]} along its out-arcs: the bits of it that v has not seen are
 * new at v (v joins the next level with them), so a vertex reached by several searches at the same level is expanded
 * once for all of them. Top-down only: the push is right for directed and undirected graphs alike. The arc loop has
 * no branch on whether anything is new (the masks are OR-ed in either way): on sparse graphs that test is a coin toss.
 *
 * <p>The active vertices of a level are kept as a bitmap and, while levels are small (at most
 * {@code words / }{@link #LIST_RATIO} vertices, {@code words} the bitmap's 64-bit words), also as a list in the order
 * they were found; a small level is read from its list, a larger one from the bitmap, in vertex order (which follows
 * the graph's layout, so the masks and arcs are read nearly in order: reading a NY level in the order found instead
 * took about 1.8 times as long). The largest hop count of a search is the last level whose new bits include it; the reached
 * counts are the bit counts of the seen masks, added up bit-sliced at the end (a vertex seen by every search of the
 * pass counts once for all).
 *
 * <p>An object holds one pass's arrays (about 32 bytes a vertex) and leaves them clean for its next pass. Not
 * thread-safe: one per thread. Used by {@link CpuBfsSummaries#bitParallel}.
 */
final class CpuMultiSourceBfs {
    /** Searches one pass can run: the bits of a mask. */
    static final int PASS = 64;
    /** A level of more than vertexCount / 64 / LIST_RATIO active vertices is read from the bitmap (chosen, not tuned). */
    static final int LIST_RATIO = 4;
    /** Words of bit-sliced counters: 2^SLICES - 1 masks are added up before they are flushed. */
    private static final int SLICES = 8;

    private final long[] seen, visit, visitNext;
    private final long[] bits, bitsNext;
    private final int[] list, listNext;
    /** Levels run by this object's passes so far (a pass's last level, which finds nothing, not counted). */
    long levels;

    CpuMultiSourceBfs(int vertexCount) {
        int words = (vertexCount + 63) >>> 6;
        seen = new long[vertexCount];
        visit = new long[vertexCount];
        visitNext = new long[vertexCount];
        bits = new long[words];
        bitsNext = new long[words];
        list = new int[vertexCount];
        listNext = new int[vertexCount];
    }

    /**
     * Searches from {@code sources[from, to)} (distinct vertices of {@code g}, at most {@link #PASS}, {@code g} of
     * at most the vertices this object was made for): {@code reached[i]} and {@code maxHops[i]} receive source i's summary.
     */
    void search(CsrGraph g, int[] sources, int from, int to, long[] reached, int[] maxHops) {
        int count = to - from;
        if (count < 1 || count > PASS) throw new IllegalArgumentException("a pass searches 1 to 64 sources, not " + count);
        int n = g.vertexCount();
        int words = (n + 63) >>> 6;
        int[] off = g.rowOffsets(), col = g.columns();
        long[] seen = this.seen, visit = this.visit, visitNext = this.visitNext;
        long[] bits = this.bits, bitsNext = this.bitsNext;
        int[] list = this.list, listNext = this.listNext;
        int active = 0;
        for (int i = 0; i < count; i++) {
            int s = sources[from + i];
            long bit = 1L << i;
            seen[s] |= bit;
            if (visit[s] == 0) {
                list[active++] = s;
                bits[s >>> 6] |= 1L << s;
            }
            visit[s] |= bit;
            maxHops[from + i] = 0;
        }
        boolean listed = true;   // list[0, active) holds the level's active vertices (else only the bitmap does)
        int level = 0;
        while (true) {
            if (listed && active <= words / LIST_RATIO) {
                for (int j = 0; j < active; j++) bits[list[j] >>> 6] = 0;
            } else {
                active = bitmapToList(bits, words, list);   // vertex order; clears the bitmap
            }
            if (active == 0) break;
            listed = active <= words / LIST_RATIO;   // a small level: list the next one as well
            level++;
            long live = 0;   // the searches that reach some vertex at this level
            int found = 0;
            for (int j = 0; j < active; j++) {
                int u = list[j];
                long mine = visit[u];
                visit[u] = 0;
                // branch-free: whether a search is new at v is a coin toss on sparse graphs
                for (int a = off[u], end = off[u + 1]; a < end; a++) {
                    int v = col[a];
                    long had = seen[v];
                    long fresh = mine & ~had;
                    seen[v] = had | fresh;
                    long was = visitNext[v];
                    visitNext[v] = was | fresh;
                    long isNew = (fresh | -fresh) >>> 63;   // 1 when fresh != 0
                    bitsNext[v >>> 6] |= isNew << v;
                    if (listed) {
                        listNext[found] = v;
                        found += (int) (isNew & ~((was | -was) >>> 63));   // new at v, and v not yet listed
                    }
                    live |= fresh;
                }
            }
            for (long b = live; b != 0; b &= b - 1) maxHops[from + Long.numberOfTrailingZeros(b)] = level;
            long[] t = visit; visit = visitNext; visitNext = t;
            t = bits; bits = bitsNext; bitsNext = t;
            int[] l = list; list = listNext; listNext = l;
            active = found;
        }
        level--;   // the last level found nothing
        levels += level;
        countBits(seen, n, count, reached, from);
    }

    /** The vertices of {@code bitmap}'s first {@code words} words into {@code list}, ascending; zeroes those words. */
    private static int bitmapToList(long[] bitmap, int words, int[] list) {
        int out = 0;
        for (int w = 0; w < words; w++) {
            long word = bitmap[w];
            if (word == 0) continue;
            bitmap[w] = 0;
            int base = w << 6;
            do {
                list[out++] = base + Long.numberOfTrailingZeros(word);
                word &= word - 1;
            } while (word != 0);
        }
        return out;
    }

    /**
     * {@code reached[from + b]} = the masks of {@code seen[0, n)} with bit b set, for b below {@code count}; zeroes
     * them. The masks are added in bit-sliced counters ({@link #SLICES} words: slice j holds bit j of 64 counts),
     * flushed every 2^SLICES - 1 masks; a mask with every bit of the pass set is counted apart.
     */
    private static void countBits(long[] seen, int n, int count, long[] reached, int from) {
        long all = count == PASS ? -1L : (1L << count) - 1;
        long[] slice = new long[SLICES];
        long[] sums = new long[PASS];
        long full = 0;
        int added = 0;
        for (int v = 0; v < n; v++) {
            long x = seen[v];
            if (x == 0) continue;
            seen[v] = 0;
            if (x == all) {
                full++;
                continue;
            }
            for (int j = 0; x != 0; j++) {   // ripple-carry add of x's bits to the counters
                long carry = slice[j] & x;
                slice[j] ^= x;
                x = carry;
            }
            if (++added == (1 << SLICES) - 1) {
                flush(slice, sums);
                added = 0;
            }
        }
        flush(slice, sums);
        for (int b = 0; b < count; b++) reached[from + b] = sums[b] + full;
    }

    private static void flush(long[] slice, long[] sums) {
        for (int j = 0; j < SLICES; j++) {
            long s = slice[j];
            for (; s != 0; s &= s - 1) sums[Long.numberOfTrailingZeros(s)] += 1L << j;
            slice[j] = 0;
        }
    }
}
