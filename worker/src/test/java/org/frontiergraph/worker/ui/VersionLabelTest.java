package org.frontiergraph.worker.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Versions that are epoch-ms times read as the time (UTC) and its age; counters stay numbers. */
class VersionLabelTest {
    static final long NOW = Instant.parse("2026-11-28T12:01:08.250Z").toEpochMilli();

    static long at(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    @Test
    void aTimeVersionShowsTheTimeAndItsAge() {
        assertEquals("12:01:05 (3 s ago)", VersionLabel.of(at("2026-11-28T12:01:05Z"), NOW));
        assertEquals("12:01:05 (3 s ago)", VersionLabel.of(at("2026-11-28T12:01:05Z") + 2, NOW), "two updates later: the same time");
        assertEquals("12:01:08 (just now)", VersionLabel.of(at("2026-11-28T12:01:08Z"), NOW));
        assertEquals("11:56:00 (5 min ago)", VersionLabel.of(at("2026-11-28T11:56:00Z"), NOW));
        assertEquals("01:00:00 (11 h ago)", VersionLabel.of(at("2026-11-28T01:00:00Z"), NOW));
        assertEquals("2026-11-27 12:01:08 (24 h ago)", VersionLabel.of(at("2026-11-27T12:01:08Z"), NOW), "another day: with the date");
        assertEquals("2026-11-20 00:00:00 (8 d ago)", VersionLabel.of(at("2026-11-20T00:00:00Z"), NOW));
        assertEquals("12:01:18 (in 9 s)", VersionLabel.of(at("2026-11-28T12:01:18Z"), NOW), "a publisher's clock ahead of ours");
    }

    @Test
    void aClockChosenVersionShowsItsPublicationTime() {   // ./frontier load's default: epoch_ms << 20
        long v = at("2026-11-28T12:01:05Z") << VersionLabel.UPDATE_BITS;
        assertEquals("12:01:05 (3 s ago)", VersionLabel.of(v, NOW));
        assertEquals("12:01:05 (3 s ago)", VersionLabel.of(v + 100_000, NOW), "10^5 updates later: the snapshot's time");
        assertEquals("2026-11-20 00:00:00 (8 d ago)", VersionLabel.of(at("2026-11-20T00:00:00Z") << VersionLabel.UPDATE_BITS, NOW));
    }

    @Test
    void aCounterVersionStaysANumber() {
        assertEquals("1", VersionLabel.of(1, NOW));
        assertEquals("42", VersionLabel.of(42, NOW));
        assertEquals("946684799999", VersionLabel.of(VersionLabel.EARLIEST_TIME_MS - 1, NOW), "before 2000: a number");
        long farFuture = NOW + VersionLabel.YEAR_MS + 1;
        assertEquals(Long.toString(farFuture), VersionLabel.of(farFuture, NOW), "beyond a year ahead: a number");
        assertEquals(Long.toString(Long.MAX_VALUE), VersionLabel.of(Long.MAX_VALUE, NOW));
    }

    @Test
    void agesRoundDownToTheirUnit() {
        assertEquals("just now", VersionLabel.age(999));
        assertEquals("1 s ago", VersionLabel.age(1_000));
        assertEquals("59 s ago", VersionLabel.age(59_999));
        assertEquals("1 min ago", VersionLabel.age(60_000));
        assertEquals("59 min ago", VersionLabel.age(3_599_999));
        assertEquals("1 h ago", VersionLabel.age(3_600_000));
        assertEquals("47 h ago", VersionLabel.age(48 * 3_600_000L - 1));
        assertEquals("2 d ago", VersionLabel.age(48 * 3_600_000L));
        assertEquals("in 2 min", VersionLabel.age(-150_000));
    }
}
