package org.frontiergraph.kernels.mst;

import java.math.BigDecimal;

/** Sums doubles without overflow or silent loss: integers as a long (checked), anything else through BigDecimal. */
public final class ExactSum {
    private long integral;
    private BigDecimal exact;

    public void add(double x) {
        if (exact == null && x == Math.rint(x) && Math.abs(x) < 0x1p52) {
            try {
                integral = Math.addExact(integral, (long) x);
                return;
            } catch (ArithmeticException overflow) {
                // fall through to BigDecimal
            }
        }
        if (exact == null) exact = BigDecimal.valueOf(integral);
        exact = exact.add(new BigDecimal(x));
    }

    /** The exact sum rounded once to the nearest double. */
    public double value() {
        return exact == null ? (double) integral : exact.doubleValue();
    }

    /** Adds another sum (exactly: longs while they fit, else BigDecimal). */
    public void add(ExactSum other) {
        if (exact == null && other.exact == null) {
            try {
                integral = Math.addExact(integral, other.integral);
                return;
            } catch (ArithmeticException overflow) {
                // fall through to BigDecimal
            }
        }
        BigDecimal mine = exact != null ? exact : BigDecimal.valueOf(integral);
        exact = mine.add(other.exact != null ? other.exact : BigDecimal.valueOf(other.integral));
    }

    /** Below this many terms {@link #of} sums on the calling thread. */
    private static final int PARALLEL_MIN = 1 << 16;

    /**
     * The exact sum of {@code values[i]} for i in {@code indices}, rounded once. Many terms are summed in pieces on
     * the cores side by side (an MST of millions of edges reads its weights from an array of tens of millions:
     * memory-bound), and the pieces' exact sums added; the result is the same double either way.
     */
    public static double of(double[] values, int[] indices) {
        if (indices.length < PARALLEL_MIN) return piece(values, indices, 0, indices.length).value();
        int pieces = (indices.length + PARALLEL_MIN - 1) / PARALLEL_MIN;
        return java.util.stream.IntStream.range(0, pieces).parallel()
                .mapToObj(p -> piece(values, indices, p * PARALLEL_MIN, Math.min(indices.length, (p + 1) * PARALLEL_MIN)))
                .reduce(new ExactSum(), (a, b) -> {
                    ExactSum s = new ExactSum();
                    s.add(a);
                    s.add(b);
                    return s;
                })
                .value();
    }

    private static ExactSum piece(double[] values, int[] indices, int from, int to) {
        ExactSum s = new ExactSum();
        for (int k = from; k < to; k++) s.add(values[indices[k]]);
        return s;
    }
}
