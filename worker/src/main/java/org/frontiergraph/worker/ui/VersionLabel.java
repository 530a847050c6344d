package org.frontiergraph.worker.ui;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * How the page shows a graph version. {@code ./frontier load} and the clients version a snapshot by the time it was
 * published, in epoch milliseconds shifted left by {@value #UPDATE_BITS} bits (docs/contract.md, "Choosing versions"),
 * and pipelines often by the plain epoch milliseconds; each update adds 1. Such a version reads as a time: it is shown
 * as that time (UTC) and its age, {@code 12:01:05 (3 s ago)}, with the date when it is not today's. A version that is
 * neither a plausible time (before 2000, or more than a year ahead: 1, 2, 3 ...) is shown as the number.
 */
final class VersionLabel {
    /** 2000-01-01T00:00:00Z: a smaller version is a counter, not a time. */
    static final long EARLIEST_TIME_MS = 946_684_800_000L;
    static final long YEAR_MS = 366L * 86_400_000L;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** The contract's clock-chosen versions: {@code epoch_ms << UPDATE_BITS} (the client's SnapshotVersions). */
    static final int UPDATE_BITS = 20;

    private VersionLabel() {}

    /** The label of {@code version} seen at {@code nowMs}. */
    static String of(long version, long nowMs) {
        long ms = timeOf(version, nowMs);
        if (ms < 0) return Long.toString(version);
        ZonedDateTime at = Instant.ofEpochMilli(ms).atZone(ZoneOffset.UTC);
        ZonedDateTime now = Instant.ofEpochMilli(nowMs).atZone(ZoneOffset.UTC);
        String when = at.toLocalDate().equals(now.toLocalDate()) ? TIME.format(at) : DATE_TIME.format(at);
        return when + " (" + age(nowMs - ms) + ")";
    }

    /** The time {@code version} reads as (a clock-chosen version first, then plain epoch ms), or -1 when none. */
    static long timeOf(long version, long nowMs) {
        if (isTime(version >> UPDATE_BITS, nowMs)) return version >> UPDATE_BITS;
        return isTime(version, nowMs) ? version : -1;
    }

    /** Whether {@code version} reads as an epoch-ms time: from 2000 to a year after {@code nowMs}. */
    static boolean isTime(long version, long nowMs) {
        return version >= EARLIEST_TIME_MS && version <= nowMs + YEAR_MS;
    }

    /** "just now", "3 s ago", "5 min ago", "2 h ago", "3 d ago"; a negative age (a clock ahead of ours): "in 3 s". */
    static String age(long ms) {
        long a = Math.abs(ms);
        if (a < 1_000) return "just now";
        String span;
        if (a < 60_000) span = a / 1_000 + " s";
        else if (a < 3_600_000) span = a / 60_000 + " min";
        else if (a < 48 * 3_600_000L) span = a / 3_600_000 + " h";
        else span = a / 86_400_000 + " d";
        return ms < 0 ? "in " + span : span + " ago";
    }
}
