package org.frontiergraph.kernels.apsp;

import java.util.Locale;
import org.frontiergraph.kernels.engine.GraphTooLargeException;

/**
 * How large an APSP the host will compute. The answer is n^2 doubles (8 n^2 bytes: 7.2 GB at 30 K vertices, the size
 * of paper 004's largest APSP), so a graph is refused when it has more than {@link #maxVertices()} vertices or when
 * the distance matrix does not fit in the JVM's free heap.
 *
 * @param maxVertices the most vertices an APSP may have, at most {@link #ARRAY_MAX_VERTICES}
 */
public record ApspLimits(int maxVertices) {
    /** 30 K vertices, as paper 004: 7.2 GB of distances. */
    public static final int DEFAULT_MAX_VERTICES = 30_000;
    /** The n * n distances live in one Java array: n^2 <= Integer.MAX_VALUE - 8. */
    public static final int ARRAY_MAX_VERTICES = 46_340;
    /** System property overriding {@link #DEFAULT_MAX_VERTICES} (for {@link #defaults()}). */
    public static final String MAX_VERTICES_PROPERTY = "frontier.apsp.maxVertices";
    /** Working memory asked for beyond the matrix: per-thread SSSP arrays and slack, as a fraction of the matrix. */
    private static final double SCRATCH_FRACTION = 0.05;

    public ApspLimits {
        if (maxVertices < 0 || maxVertices > ARRAY_MAX_VERTICES) {
            throw new IllegalArgumentException("maxVertices must be in 0.." + ARRAY_MAX_VERTICES + ", got " + maxVertices);
        }
    }

    /** {@link #DEFAULT_MAX_VERTICES}, or the value of the system property {@value #MAX_VERTICES_PROPERTY}. */
    public static ApspLimits defaults() {
        String p = System.getProperty(MAX_VERTICES_PROPERTY);
        if (p == null || p.isBlank()) return new ApspLimits(DEFAULT_MAX_VERTICES);
        try {
            return new ApspLimits(Integer.parseInt(p.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(MAX_VERTICES_PROPERTY + " must be an integer, got '" + p + "'", e);
        }
    }

    /** Bytes of the n * n distance matrix. */
    public static long distanceBytes(int vertices) {
        return 8L * vertices * vertices;
    }

    /**
     * Refuses an APSP on {@code vertices} vertices that exceeds the vertex limit or the JVM's free heap (collecting
     * garbage once before refusing for memory).
     *
     * @throws GraphTooLargeException saying "APSP on N vertices needs X GB; the limit is ..."
     */
    public void check(int vertices) {
        checkVertices(vertices);
        long needed = neededBytes(vertices);
        if (needed > freeHeapBytes()) {
            System.gc();
            check(vertices, freeHeapBytes());
        }
    }

    /** As {@link #check(int)} with {@code availableBytes} of memory. */
    public void check(int vertices, long availableBytes) {
        checkVertices(vertices);
        long needed = neededBytes(vertices);
        if (needed > availableBytes) {
            throw new GraphTooLargeException(String.format(Locale.ROOT,
                    "APSP on %d vertices needs %s (%d x %d distances); the limit is %s free here (max heap %s), "
                            + "enough for about %d vertices",
                    vertices, gb(distanceBytes(vertices)), vertices, vertices, gb(availableBytes), gb(Runtime.getRuntime().maxMemory()),
                    verticesFor(availableBytes)));
        }
    }

    private void checkVertices(int vertices) {
        if (vertices > maxVertices) {
            throw new GraphTooLargeException(String.format(Locale.ROOT,
                    "APSP on %d vertices needs %s (%d x %d distances); the limit is %d vertices (%s)",
                    vertices, gb(distanceBytes(vertices)), vertices, vertices, maxVertices, gb(distanceBytes(maxVertices))));
        }
    }

    private static long neededBytes(int vertices) {
        return (long) (distanceBytes(vertices) * (1 + SCRATCH_FRACTION));
    }

    private static int verticesFor(long bytes) {
        return (int) Math.min(ARRAY_MAX_VERTICES, Math.sqrt(bytes / (8 * (1 + SCRATCH_FRACTION))));
    }

    private static long freeHeapBytes() {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }

    private static String gb(long bytes) {
        return bytes >= 100_000_000L ? String.format(Locale.ROOT, "%.1f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
