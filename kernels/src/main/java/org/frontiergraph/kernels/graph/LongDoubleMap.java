package org.frontiergraph.kernels.graph;

import java.util.Arrays;

/**
 * A map from long keys to double values without boxing: open addressing, linear probing, deletion by backward
 * shift (no tombstones), a power-of-two table at most half full. {@link MutableGraph}'s overlay (edges added since
 * the last merge, by edge key) and its per-update shadow of effects; a {@code HashMap<Long, Double>} there cost two
 * objects per entry and, with keys {@code u << 32 | v}, {@link Long#hashCode()} = {@code u ^ v} made long probe
 * chains (treeified bins on kron graphs). Keys are mixed with a multiplicative hash (Fibonacci hashing) instead.
 * Not thread-safe.
 */
final class LongDoubleMap {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private long[] keys;
    private double[] values;
    private boolean[] used;
    private int size;
    private int shift;   // 64 - log2(capacity)

    LongDoubleMap() {
        this(16);
    }

    LongDoubleMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(8, expected) * 2 - 1) * 2;   // at most half full
        allocate(capacity);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new double[capacity];
        used = new boolean[capacity];
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
    }

    int size() { return size; }

    boolean isEmpty() { return size == 0; }

    private int home(long key) {
        return (int) ((key * GOLDEN) >>> shift);
    }

    /** The slot holding {@code key}, or -1. */
    private int slot(long key) {
        int mask = keys.length - 1;
        for (int i = home(key); used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) return i;
        }
        return -1;
    }

    boolean containsKey(long key) {
        return slot(key) >= 0;
    }

    /** The value of {@code key}, or {@code absent} when the map has none. */
    double get(long key, double absent) {
        int i = slot(key);
        return i < 0 ? absent : values[i];
    }

    void put(long key, double value) {
        put(key, value, 0);
    }

    /** Maps {@code key} to {@code value}; the value it had, or {@code absent} when it had none (one probe). */
    double put(long key, double value, double absent) {
        int mask = keys.length - 1;
        int i = home(key);
        for (; used[i]; i = (i + 1) & mask) {
            if (keys[i] == key) {
                double before = values[i];
                values[i] = value;
                return before;
            }
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        if (++size > keys.length / 2) grow();
        return absent;
    }

    /** Removes {@code key}; whether it was there. */
    boolean remove(long key) {
        int i = slot(key);
        if (i < 0) return false;
        int mask = keys.length - 1;
        // backward-shift deletion: move later entries of the probe chain into the gap when their home allows
        for (int gap = i, j = (i + 1) & mask; ; j = (j + 1) & mask) {
            if (!used[j]) {
                used[gap] = false;
                break;
            }
            int h = home(keys[j]);
            // entry j may move to gap when its home is not in the cyclic range (gap, j]
            if (gap <= j ? (h <= gap || h > j) : (h <= gap && h > j)) {
                keys[gap] = keys[j];
                values[gap] = values[j];
                gap = j;
            }
        }
        size--;
        return true;
    }

    /**
     * Empties the map. A big table is dropped, not kept for the small updates after a big batch (slot-wise
     * iteration costs the table's capacity); refilling it grows geometrically, so that costs O(entries) again.
     */
    void clear() {
        if (keys.length > 1024) {
            allocate(16);
        } else if (size > 0) {
            Arrays.fill(used, false);
        }
        size = 0;
    }

    /** The keys, in no particular order. */
    long[] keys() {
        long[] out = new long[size];
        int k = 0;
        for (int i = 0; i < keys.length; i++) if (used[i]) out[k++] = keys[i];
        return out;
    }

    /** Bytes the table holds (a slot is a key, a value and a flag). */
    long bytes() {
        return 17L * keys.length;
    }

    /**
     * Slot-wise iteration without a lambda: slots {@code 0..capacity() - 1}, those {@link #usedAt} hold an entry.
     * The map must not change meanwhile.
     */
    int capacity() { return keys.length; }

    boolean usedAt(int slot) { return used[slot]; }

    long keyAt(int slot) { return keys[slot]; }

    double valueAt(int slot) { return values[slot]; }

    private void grow() {
        long[] k = keys;
        double[] v = values;
        boolean[] u = used;
        allocate(k.length * 2);
        int mask = keys.length - 1;
        for (int i = 0; i < k.length; i++) {
            if (!u[i]) continue;
            int j = home(k[i]);
            while (used[j]) j = (j + 1) & mask;
            used[j] = true;
            keys[j] = k[i];
            values[j] = v[i];
        }
    }
}
