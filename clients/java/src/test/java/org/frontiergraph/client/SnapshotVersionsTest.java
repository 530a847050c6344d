package org.frontiergraph.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The contract's rule for a snapshot version chosen by the publisher's clock. */
class SnapshotVersionsTest {
    private static final long T = 1_795_000_000_000L;   // a clock reading in 2026

    @Test
    void aLaterSnapshotIsNewerThanAnyVersionAMillionUpdatesAMillisecondReach() {
        long loaded = SnapshotVersions.ofTime(T);
        long afterUpdates = loaded + 100_000;   // 10^5 updates, each one version
        assertTrue(SnapshotVersions.ofTime(T + 1) > afterUpdates, "a snapshot one millisecond later");
        assertTrue(SnapshotVersions.ofTime(T + 1_000) > loaded + 1_000_000_000L - 1, "10^9 updates in the second between");
        assertEquals(T, SnapshotVersions.timeOf(afterUpdates), "the version tells when its snapshot was published");
        assertTrue(SnapshotVersions.isClockChosen(afterUpdates));
        assertFalse(SnapshotVersions.isClockChosen(42));
    }

    @Test
    void aKnownCurrentVersionAheadOfTheClockIsPassed() {
        assertEquals(SnapshotVersions.ofTime(T), SnapshotVersions.next(T, -1));
        assertEquals(SnapshotVersions.ofTime(T), SnapshotVersions.next(T, 5));
        long ahead = SnapshotVersions.ofTime(T + 60_000) + 7;   // a publisher whose clock ran a minute ahead
        assertEquals(ahead + 1, SnapshotVersions.next(T, ahead));
    }

    @Test
    void theShiftedClockFitsALongUntil2248() {
        long year2248 = 8_790_000_000_000L;   // June 2248; 2^43 ms is September
        assertTrue(SnapshotVersions.ofTime(year2248) > 0);
        assertThrows(IllegalArgumentException.class, () -> SnapshotVersions.ofTime(Long.MAX_VALUE >> 10));
        assertThrows(IllegalArgumentException.class, () -> SnapshotVersions.ofTime(-1));
    }
}
