package org.frontiergraph.kernels.standing;

import java.nio.LongBuffer;
import java.util.Arrays;
import org.frontiergraph.kernels.sssp.KeyForm;

/**
 * The DELTAs of a group's trees, filled from the arena's pairs (key, vertex << 32 | parent) as runs of them arrive:
 * tree j's pairs are [base j, base j + count j), ascending by vertex.
 */
final class TreeDeltas {
    final int[][] vertices, parents;
    final double[][] values;
    final KeyForm[] forms;
    final long[] bases;
    /** Trees with pairs, in ascending order of their bases. */
    int[] order = new int[0];

    TreeDeltas(int trees) {
        vertices = new int[trees][];
        parents = new int[trees][];
        values = new double[trees][];
        forms = new KeyForm[trees];
        bases = new long[trees];
    }

    void add(int j, KeyForm form, long base, int count) {
        vertices[j] = new int[count];
        parents[j] = new int[count];
        values[j] = new double[count];
        forms[j] = form;
        bases[j] = base;
        // an empty DELTA holds no pair, and may share its base with the next tree's (the finish of a group hands
        // out the bases in any order): left out of the order, so the search finds the tree that holds the pairs
        if (count == 0) return;
        order = Arrays.copyOf(order, order.length + 1);
        int at = order.length - 1;
        while (at > 0 && bases[order[at - 1]] > base) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = j;
    }

    /** Pairs {@code first / 2} on, from {@code run} (a whole number of pairs). */
    void accept(LongBuffer run, long first) {
        long p = first / 2;
        int pairs = run.limit() / 2;
        int o = 0;   // the last tree whose base is at or below p
        for (int lo = 0, hi = order.length - 1; lo <= hi; ) {
            int mid = (lo + hi) >>> 1;
            if (bases[order[mid]] <= p) {
                o = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        for (int i = 0; i < pairs; i++, p++) {
            while (o + 1 < order.length && bases[order[o + 1]] <= p) o++;
            if (order.length == 0) return;
            int j = order[o];
            long at = p - bases[j];
            if (at < 0 || at >= vertices[j].length) continue;   // another tree's (one the host repaired)
            long key = run.get(2 * i), vp = run.get(2 * i + 1);
            vertices[j][(int) at] = (int) (vp >>> 32);
            parents[j][(int) at] = (int) vp;
            values[j][(int) at] = forms[j].value(key);
        }
    }
}
