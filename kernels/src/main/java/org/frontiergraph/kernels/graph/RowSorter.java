package org.frontiergraph.kernels.graph;

import java.util.Arrays;

/**
 * Sorts a row of {@link CsrLayout} by target and merges its parallel arcs, for one task, row after row: stably (an
 * insertion sort for short rows, else sort keys {@code target << 32 | position} in a buffer the task reuses, grown to
 * its longest such row, radix sorted or by {@code Arrays.sort}, the weights permuted in place), parallel arcs merged to
 * the smallest weight (the first in row order among equals, as {@link GraphBuilder}), the slots they free marked
 * {@link CsrLayout#FREED}; a row already sorted is only merged.
 */
final class RowSorter {
    /** Rows of at most this many arcs are sorted by insertion. */
    static final int INSERTION_ROW = 32;
    /** Rows of at least this many arcs are radix sorted (GraphBuilder measured it faster from about 100 keys). */
    static final int RADIX_ROW = GraphBuilder.RADIX_ROW_KEYS;

    /** Rows of at most this many arcs may be radix sorted (their second buffer counted in the build's scratch). */
    private final long radixLimit;
    private long[] keys = new long[0];

    RowSorter(long radixLimit) {
        this.radixLimit = radixLimit;
    }

    /** Sorts and merges row lo..hi-1 of these arrays; returns the arcs kept, at the row's start. */
    int sortAndMerge(int[] col, double[] w, int lo, int hi) {
        if (hi - lo < 2) return hi - lo;
        boolean sorted = true;
        for (int k = lo + 1; k < hi && sorted; k++) sorted = col[k - 1] <= col[k];
        if (!sorted) {
            if (hi - lo <= INSERTION_ROW) insertionSort(col, w, lo, hi);
            else keySort(col, w, lo, hi);
        }
        int out = lo + 1;
        for (int k = lo + 1; k < hi; k++) {
            if (col[k] == col[out - 1]) {
                if (w[k] < w[out - 1]) w[out - 1] = w[k];
            } else {
                col[out] = col[k];
                w[out++] = w[k];
            }
        }
        Arrays.fill(col, out, hi, CsrLayout.FREED);
        return out - lo;
    }

    /**
     * Sorts keys {@code target << 32 | position} (distinct, so any sort gives the stable order), writes the targets
     * back and permutes the weights in place along the permutation's cycles (bit 63 of a key marks its slot done).
     */
    private void keySort(int[] col, double[] w, int lo, int hi) {
        int d = hi - lo;
        if (keys.length < d) keys = new long[d];
        long[] key = keys;
        for (int k = 0; k < d; k++) key[k] = (long) col[lo + k] << 32 | k;
        if (d >= RADIX_ROW && d <= radixLimit) GraphBuilder.radixSortRow(key, 0, d);
        else Arrays.sort(key, 0, d);
        for (int start = 0; start < d; start++) {
            if (key[start] < 0) continue;
            double first = w[lo + start];
            int j = start;
            while (true) {
                key[j] |= Long.MIN_VALUE;
                int from = (int) key[j];
                if (from == start) {
                    w[lo + j] = first;
                    break;
                }
                w[lo + j] = w[lo + from];
                j = from;
            }
        }
        for (int k = 0; k < d; k++) col[lo + k] = (int) ((key[k] >>> 32) & 0x7fffffff);
    }

    private static void insertionSort(int[] col, double[] w, int lo, int hi) {
        for (int k = lo + 1; k < hi; k++) {
            int c = col[k];
            double x = w[k];
            int j = k - 1;
            while (j >= lo && col[j] > c) {
                col[j + 1] = col[j];
                w[j + 1] = w[j];
                j--;
            }
            col[j + 1] = c;
            w[j + 1] = x;
        }
    }
}
