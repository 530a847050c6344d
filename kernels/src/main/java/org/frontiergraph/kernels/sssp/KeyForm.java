package org.frontiergraph.kernels.sssp;

/**
 * How a vertex's distance key is held on the device (sssp_keys.cuh), and the suffix of the entry points compiled for
 * it ({@code sssp_async_seeded_i32}, {@code repair_prepare_unit}, ...): launchers name an entry point by
 * {@link #entry}, and tests check that every name they form is in the .cu sources.
 */
public enum KeyForm {
    /** Integer distances, on a graph of integer weights (unreached: all ones). */
    I32("i32"),
    /** The bits of double distances (unreached: the bits of +Inf). */
    F64("f64"),
    /** Hop counts: every arc counts 1 (BFS), held as {@link #I32}'s keys. */
    UNIT("unit");

    private final String suffix;

    KeyForm(String suffix) {
        this.suffix = suffix;
    }

    /** The suffix of the kernels' entry points for this form. */
    public String suffix() { return suffix; }

    /** The entry point {@code prefix} compiled for this form: {@code prefix_i32}, {@code prefix_f64}, {@code prefix_unit}. */
    public String entry(String prefix) { return prefix + "_" + suffix; }

    /** The form of distance keys on a graph of integer weights ({@link #I32}) or not ({@link #F64}). */
    public static KeyForm weights(boolean intWeights) { return intWeights ? I32 : F64; }

    /** The form of a tree's keys on a graph of integer weights or not ({@code intWeights}), hop counts when {@code unitWeights}. */
    public static KeyForm of(boolean unitWeights, boolean intWeights) {
        return unitWeights ? UNIT : intWeights ? I32 : F64;
    }

    /** Whether the keys are integers (every form but {@link #F64}). */
    public boolean integral() { return this != F64; }

    /** The key of an unreached vertex. */
    public long infinity() { return SeedSssp.infKey(integral()); }

    /** The value of a key of this form (+Inf unreached). */
    public double value(long key) {
        if (this == F64) return Double.longBitsToDouble(key);
        return key == SeedSssp.INT_INF ? Double.POSITIVE_INFINITY : (double) key;
    }

    /** The key of a value in this form ({@link #value}'s inverse). */
    public long key(double value) {
        if (this == F64) return Double.doubleToRawLongBits(value);
        return value == Double.POSITIVE_INFINITY ? SeedSssp.INT_INF : (long) value;
    }
}
