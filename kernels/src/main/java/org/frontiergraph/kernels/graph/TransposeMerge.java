package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The transpose of a directed graph's new version, derived from the previous version's transpose and what the merge
 * changed ({@link CsrMerge}) instead of transposing the new CSR from scratch: the same arrays, value for value, that
 * {@link GraphBuilder#transpose} gives (rows sorted by source, weights, and the edge ids, which on a directed graph
 * are the arcs' places in the forward CSR and so move in a merge).
 *
 * <p>A transposed row v whose in-arcs did not change is copied whole (columns and weights); its edge ids are shifted
 * by where their sources' forward rows moved ({@code next.rowStart(u) - old.rowStart(u)}, one table per merge), or
 * looked up in the new row when the source's row itself changed (O(log d)). A row that gained or lost in-arcs is
 * merged from its old arcs, less the removed ones, and the added arcs' sources, in order. O(m) copying on all cores
 * plus O(n + k log k) for k changed arcs; transposing from scratch scatters every arc to a random row.
 *
 * <p>Held by the new version until its {@link CsrGraph#transpose()} is first read ({@link #apply}), which holds the
 * previous version's transpose until then; the new version derives it before its first in-place re-weight, so the
 * weights copied from the previous transpose are the ones in force.
 */
final class TransposeMerge {
    /** The previous version's transpose, and its forward row offsets. */
    private final CsrGraph oldTranspose;
    private final int[] oldOffsets;
    /** Forward arcs of the previous version removed (ascending), and their targets. */
    private final int[] removed;
    private final int[] removedTargets;
    /** Added arcs as (target << 32 | source), ascending: by transposed row, then by column. */
    private final long[] added;
    /** Rows of the transpose that gain or lose arcs (ascending), and forward rows that changed (ascending). */
    private final int[] changedRows;
    private final int[] sourceRows;

    private TransposeMerge(CsrGraph oldTranspose, int[] oldOffsets, int[] removed, int[] removedTargets, long[] added,
                           int[] changedRows, int[] sourceRows) {
        this.oldTranspose = oldTranspose;
        this.oldOffsets = oldOffsets;
        this.removed = removed;
        this.removedTargets = removedTargets;
        this.added = added;
        this.changedRows = changedRows;
        this.sourceRows = sourceRows;
    }

    /**
     * The changes of a merge of directed {@code old} (whose transpose is {@code oldTranspose}): its arcs
     * {@code removedArcs} removed (ascending), the arcs {@code addedKeys} (u << 32 | v) added, forward rows
     * {@code rows} (ascending) rebuilt.
     */
    static TransposeMerge of(CsrGraph old, CsrGraph oldTranspose, int[] removedArcs, long[] addedKeys, int[] rows) {
        int[] col = old.columns();
        long[] reversed = new long[addedKeys.length];
        for (int i = 0; i < addedKeys.length; i++) {
            long key = addedKeys[i];
            reversed[i] = (key << 32) | (key >>> 32);
        }
        Arrays.sort(reversed);
        int[] removedTargets = new int[removedArcs.length];
        for (int i = 0; i < removedArcs.length; i++) removedTargets[i] = col[removedArcs[i]];
        int[] targets = Arrays.copyOf(removedTargets, removedArcs.length + reversed.length);
        for (int i = 0; i < reversed.length; i++) targets[removedArcs.length + i] = (int) (reversed[i] >>> 32);
        int[] changed = Arrays.stream(targets).sorted().distinct().toArray();
        return new TransposeMerge(oldTranspose, old.rowOffsets(), removedArcs, removedTargets, reversed, changed, rows);
    }

    /** The transpose of {@code next}, the version this merge built (its weights not yet changed in place). */
    CsrGraph apply(CsrGraph next) {
        int n = next.vertexCount(), bn = oldTranspose.vertexCount();
        int[] tOff = oldTranspose.rowOffsets(), tCol = oldTranspose.columns(), tIds = oldTranspose.arcEdgeIds();
        double[] tW = oldTranspose.weights();
        int[] nextOff = next.rowOffsets();
        double[] nextW = next.weights();
        int rows = changedRows.length;
        // 1. per changed row: where its added arcs start in `added`, and its new in-degree
        int[] addedStart = new int[rows + 1];
        int[] degree = new int[rows];
        for (int t = 0, a = 0; t < rows; t++) {
            int v = changedRows[t];
            addedStart[t] = a;
            while (a < added.length && (int) (added[a] >>> 32) == v) a++;
            degree[t] = a - addedStart[t];
            if (v < bn) degree[t] += tOff[v + 1] - tOff[v];
        }
        addedStart[rows] = added.length;
        for (int v : removedTargets) degree[Arrays.binarySearch(changedRows, v)]--;
        // 2. the new row offsets
        int[] offsets = new int[n + 1];
        long acc = 0;
        for (int v = 0, t = 0; v < n; v++) {
            offsets[v] = (int) acc;
            if (t < rows && changedRows[t] == v) acc += degree[t++];
            else if (v < bn) acc += tOff[v + 1] - tOff[v];
        }
        offsets[n] = (int) acc;
        if (acc != next.arcCount()) {
            throw new IllegalStateException("transpose merge produced " + acc + " arcs, expected " + next.arcCount());
        }
        // 3. where each unchanged forward row moved (its arcs' ids shift with it); MOVED_ROW: the row changed
        int[] shift = new int[bn];
        IntStream.range(0, chunks(bn)).parallel().forEach(c -> {
            for (int u = c * CHUNK, end = Math.min(bn, u + CHUNK); u < end; u++) shift[u] = nextOff[u] - oldOffsets[u];
        });
        for (int u : sourceRows) if (u < bn) shift[u] = MOVED_ROW;
        // 4. columns, weights and ids, row ranges on all cores: unchanged rows copied, changed rows merged
        int arcs = (int) acc;
        int[] cols = new int[arcs], ids = new int[arcs];
        double[] wts = new double[arcs];
        int[] bounds = CsrMerge.rowRanges(offsets, n);
        IntStream.range(0, bounds.length - 1).parallel().forEach(r -> {
            int t = CsrMerge.firstAtLeast(changedRows, bounds[r]);
            for (int v = bounds[r]; v < bounds[r + 1]; v++) {
                int to = offsets[v];
                if (t < rows && changedRows[t] == v) {
                    int p = to;
                    int e = v < bn ? tOff[v] : 0, end = v < bn ? tOff[v + 1] : 0;
                    for (int a = addedStart[t], aEnd = addedStart[t + 1]; e < end || a < aEnd; p++) {
                        while (e < end && Arrays.binarySearch(removed, tIds[e]) >= 0) e++;
                        if (e >= end && a >= aEnd) break;
                        if (a < aEnd && (e >= end || (int) added[a] < tCol[e])) {
                            int u = (int) added[a++];
                            int id = next.findArc(u, v);
                            cols[p] = u;
                            wts[p] = nextW[id];
                            ids[p] = id;
                        } else {
                            cols[p] = tCol[e];
                            wts[p] = tW[e];
                            ids[p] = newId(next, shift, tCol[e], v, tIds[e]);
                            e++;
                        }
                    }
                    t++;
                } else if (v < bn) {
                    int from = tOff[v], len = tOff[v + 1] - from;
                    System.arraycopy(tCol, from, cols, to, len);
                    System.arraycopy(tW, from, wts, to, len);
                    for (int j = 0; j < len; j++) ids[to + j] = newId(next, shift, tCol[from + j], v, tIds[from + j]);
                }
            }
        });
        CsrGraph t = new CsrGraph(n, true, offsets, cols, wts, ids, next.edgeCount(), next.integralWeights());
        t.knownTotals(next.nonIntegralArcsIfKnown(), Double.NaN);
        return t;
    }

    /** Vertices per task of the shift table. */
    private static final int CHUNK = 1 << 14;
    /** A shift that marks a forward row rebuilt by the merge (no real shift is this large). */
    private static final int MOVED_ROW = Integer.MIN_VALUE;

    private static int chunks(int n) {
        return (n + CHUNK - 1) / CHUNK;
    }

    /** The new id of kept arc u -> v, {@code oldId} in the previous version: shifted with its row, or found in it. */
    private static int newId(CsrGraph next, int[] shift, int u, int v, int oldId) {
        int s = shift[u];
        return s != MOVED_ROW ? oldId + s : next.findArc(u, v);
    }
}
