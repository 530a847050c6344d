package org.frontiergraph.client;

/**
 * How a publisher that does not number its graphs' versions itself chooses a snapshot's version
 * (docs/contract.md, "Choosing versions"): the publisher's clock in milliseconds since the epoch, shifted left by
 * {@value #UPDATE_BITS} bits. Each update adds one to the version, so a snapshot published at time {@code t} is
 * newer than every version reached from a snapshot of an earlier millisecond {@code t0} by fewer than
 * {@code (t - t0) << 20} updates: more than a million updates a millisecond (10^9 a second) would be needed
 * before a clock-chosen snapshot ran behind. A version read back ({@link #timeOf}) tells when its snapshot was
 * published. The shifted clock stays below {@code Long.MAX_VALUE} until the year 2248.
 *
 * <p>Where the graph's current version is known (the status topic), {@link #next(long, long)} also stays above it,
 * so a publisher whose clock is behind the one that published before it is still accepted.
 */
public final class SnapshotVersions {
    /** Bits of a version left to the updates applied to a snapshot. */
    public static final int UPDATE_BITS = 20;

    private SnapshotVersions() {}

    /** The version of a snapshot published now. */
    public static long now() {
        return ofTime(System.currentTimeMillis());
    }

    /** The version of a snapshot published at {@code epochMs}. */
    public static long ofTime(long epochMs) {
        if (epochMs < 0 || epochMs > (Long.MAX_VALUE >> UPDATE_BITS)) {
            throw new IllegalArgumentException("a clock reading of " + epochMs + " ms cannot make a version");
        }
        return epochMs << UPDATE_BITS;
    }

    /**
     * The version of a snapshot published at {@code epochMs} of a graph whose current version is {@code current}
     * (-1 or less: unknown or none): the clock's, or {@code current + 1} when that is higher.
     */
    public static long next(long epochMs, long current) {
        long clock = ofTime(epochMs);
        return current >= clock ? current + 1 : clock;
    }

    /** When a clock-chosen version's snapshot was published (ms since the epoch); meaningless for other versions. */
    public static long timeOf(long version) {
        return version >> UPDATE_BITS;
    }

    /** Whether {@code version} looks clock-chosen: its time lies after 2001 (an explicit small version does not). */
    public static boolean isClockChosen(long version) {
        return timeOf(version) > 1_000_000_000_000L;
    }
}
