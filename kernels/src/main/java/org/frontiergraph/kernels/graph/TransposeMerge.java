package org.frontiergraph.kernels.graph;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The transpose of a directed graph's new version, derived from the previous version's transpose and what the merge
 * changed ({@link CsrMerge}) instead of transposing the new CSR from scratch: the same arrays, value for value, that
 * {@link GraphBuilder#transpose} gives (rows sorted by source, weights, and the edge ids, which on a directed graph
 * are the arcs' places in the forward CSR and so move in a merge).
 *
 * <p>Runs of transposed rows whose in-arcs did not change are copied at once (columns and weights), their edge ids
 * shifted by how far their sources' forward rows moved ({@code next.rowStart(u) - old.rowStart(u)}, one table per
 * merge); a row that gained or lost in-arcs is merged from its old arcs, less the removed ones, and the added arcs'
 * sources, in order; last, the arcs out of each forward row the merge rebuilt (the added ones among them) take their
 * ids and weights from the new forward row, found by binary search in their transposed rows. O(m) sequential copying
 * on all cores plus O(n + k log k) for k changed arcs, where transposing from scratch scatters every arc to its row.
 * Both allocate the new arrays; on USA-road-d.NY that allocation and the copying are most of either's time.
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
        // 2. the new row offsets: the old ones (past the old rows: their end) plus the change in degree of the
        //    changed rows before, a run of rows at a time
        int[] offsets = new int[n + 1];
        int change = 0;
        for (int t = 0, v = 0; t <= rows; t++) {
            int stop = t < rows ? changedRows[t] : n;
            for (int end = Math.min(stop, bn); v <= end; v++) offsets[v] = tOff[v] + change;
            for (; v <= stop; v++) offsets[v] = tOff[bn] + change;
            if (t < rows) change += degree[t] - (stop < bn ? tOff[stop + 1] - tOff[stop] : 0);
        }
        int arcs = offsets[n];
        if (arcs != next.arcCount()) {
            throw new IllegalStateException("transpose merge produced " + arcs + " arcs, expected " + next.arcCount());
        }
        // 3. how far each forward row moved: the arcs of an unchanged row keep their order, so their ids shift by it
        //    (for a row the merge rebuilt it means nothing: step 5 writes those arcs' ids)
        int[] shift = new int[bn];
        IntStream.range(0, chunks(bn)).parallel().forEach(c -> {
            for (int u = c * CHUNK, end = Math.min(bn, u + CHUNK); u < end; u++) shift[u] = nextOff[u] - oldOffsets[u];
        });
        // 4. columns, weights and ids, row ranges on all cores: runs of unchanged rows copied at once, changed rows
        //    merged (an added arc's weight and id are left to step 5)
        int[] cols = new int[arcs], ids = new int[arcs];
        double[] wts = new double[arcs];
        int[] bounds = CsrMerge.rowRanges(offsets, n);
        IntStream.range(0, bounds.length - 1).parallel().forEach(r -> {
            int t = CsrMerge.firstAtLeast(changedRows, bounds[r]);
            for (int v = bounds[r], hi = bounds[r + 1]; v < hi; ) {
                int stop = Math.min(hi, t < rows ? changedRows[t] : n), spanEnd = Math.min(stop, bn);
                if (v < spanEnd) {   // rows v .. spanEnd - 1 keep their in-arcs
                    int from = tOff[v], to = offsets[v], len = tOff[spanEnd] - from, d = to - from;
                    System.arraycopy(tCol, from, cols, to, len);
                    System.arraycopy(tW, from, wts, to, len);
                    for (int e = from, end = from + len; e < end; e++) ids[e + d] = tIds[e] + shift[tCol[e]];
                }
                v = stop;   // rows from bn up to stop hold no arcs
                if (v == hi) break;
                int p = offsets[v];   // changed row v: its old arcs less the removed ones, merged with the added ones
                int e = v < bn ? tOff[v] : 0, end = v < bn ? tOff[v + 1] : 0;
                for (int a = addedStart[t], aEnd = addedStart[t + 1]; e < end || a < aEnd; p++) {
                    while (e < end && Arrays.binarySearch(removed, tIds[e]) >= 0) e++;
                    if (e >= end && a >= aEnd) break;
                    if (a < aEnd && (e >= end || (int) added[a] < tCol[e])) {
                        cols[p] = (int) added[a++];
                    } else {
                        cols[p] = tCol[e];
                        wts[p] = tW[e];
                        ids[p] = tIds[e] + shift[tCol[e]];
                        e++;
                    }
                }
                t++;
                v++;
            }
        });
        // 5. the arcs out of the forward rows the merge rebuilt (every added arc among them): id and weight from there
        int[] nextCol = next.columns();
        IntStream moved = IntStream.range(0, sourceRows.length);
        (sourceRows.length >= CHUNK ? moved.parallel() : moved).forEach(i -> {
            int u = sourceRows[i];
            for (int a = nextOff[u], end = nextOff[u + 1]; a < end; a++) {
                int v = nextCol[a];
                int p = Arrays.binarySearch(cols, offsets[v], offsets[v + 1], u);
                ids[p] = a;
                wts[p] = nextW[a];
            }
        });
        CsrGraph t = new CsrGraph(n, true, offsets, cols, wts, ids, next.edgeCount(), next.integralWeights());
        t.knownTotals(next.nonIntegralArcsIfKnown(), Double.NaN);
        return t;
    }

    /** Vertices per task of the shift table. */
    private static final int CHUNK = 1 << 14;

    private static int chunks(int n) {
        return (n + CHUNK - 1) / CHUNK;
    }
}
