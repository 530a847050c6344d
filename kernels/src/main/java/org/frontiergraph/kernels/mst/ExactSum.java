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

    public static double of(double[] values, int[] indices) {
        ExactSum s = new ExactSum();
        for (int i : indices) s.add(values[i]);
        return s.value();
    }
}
