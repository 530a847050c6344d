package org.frontiergraph.worker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How far the rebuild of each partition this worker was assigned has come: a partition's graphs are replayed from
 * the graphs topic's log up to its committed offset before the partition is answered. Two gauges per assigned
 * partition, read at each scrape:
 * <ul>
 *   <li>{@code frontier_rebuild_remaining_offsets}: offsets still to replay (0 once rebuilt, and for a partition
 *       that needed no replay);</li>
 *   <li>{@code frontier_rebuild_replayed_offsets}: offsets replayed so far by the partition's last rebuild.</li>
 * </ul>
 * And {@code frontier_rebuild_lost_records_total}: records rebuilds needed that retention had deleted.
 * Offsets, not records: a gap in the log counts. A rebuild from the beginning of a log whose start was deleted by
 * retention counts from offset 0 until its first record arrives. A revoked partition's series go.
 * Written by the consumer's thread, read by the scrape's.
 */
public final class RebuildProgress {
    private final MeterRegistry meters;
    private final Map<Integer, Partition> partitions = new ConcurrentHashMap<>();
    /** Records a rebuild needed that retention had deleted ({@code frontier_rebuild_lost_records_total}). */
    private final Counter lost;

    /** One partition's rebuild: replays offsets [start, end); {@code next} is the next offset to apply. */
    private static final class Partition {
        volatile long start;
        volatile long next;
        volatile long end;
        /** When the partition's last rebuild began (an assignment), and how long it took to be ready (NaN: not yet). */
        volatile long beganNanos;
        volatile double seconds = Double.NaN;
        List<Gauge> gauges = List.of();

        void done() {
            if (beganNanos != 0 && Double.isNaN(seconds)) seconds = (System.nanoTime() - beganNanos) / 1e9;
        }

        double remaining() { return Math.max(0, end - next); }

        double replayed() { return Math.max(0, Math.min(next, end) - start); }
    }

    RebuildProgress(MeterRegistry meters) {
        this.meters = meters;
        this.lost = Counter.builder("frontier.rebuild.lost").baseUnit("records")
                .description("Records of the graphs topic a rebuild needed that retention had deleted (each rebuild counts "
                        + "its own; error events RECORDS_LOST name them)").register(meters);
    }

    /** A rebuild found {@code records} records it needed deleted by retention. */
    public void lost(long records) {
        lost.increment(records);
    }

    /** The partition's rebuild begins (before its checkpoints are read): {@code frontier_rebuild_duration_seconds} times it. */
    public void began(int partition) {
        Partition p = partitions.computeIfAbsent(partition, this::register);
        p.beganNanos = System.nanoTime();
        p.seconds = Double.NaN;
    }

    /** The partition's rebuild replays offsets {@code from} (0: the beginning of the log) up to {@code end}, exclusive. */
    public void started(int partition, long from, long end) {
        Partition p = partitions.computeIfAbsent(partition, this::register);
        p.start = from;
        p.next = from;
        p.end = end;
    }

    /** The partition needed no replay (it resumes at its committed offset, or has none). */
    public void notNeeded(int partition) {
        started(partition, 0, 0);
        partitions.get(partition).done();
    }

    /** The replayed record at {@code offset} of the partition was applied. */
    public void applied(int partition, long offset) {
        Partition p = partitions.get(partition);
        if (p == null || offset < p.next) return;
        if (p.next == p.start) p.start = Math.min(offset, p.end);   // the first record: the log may begin later
        p.next = offset + 1;
    }

    /** The partition's rebuild is complete. */
    public void finished(int partition) {
        Partition p = partitions.get(partition);
        if (p == null) return;
        p.next = p.end;
        p.done();
    }

    /** The partition was revoked or lost: its series go. */
    public void forget(int partition) {
        Partition p = partitions.remove(partition);
        if (p != null) p.gauges.forEach(meters::remove);
    }

    private Partition register(int partition) {
        Partition p = new Partition();
        String tag = Integer.toString(partition);
        p.gauges = List.of(
                Gauge.builder("frontier.rebuild.remaining", p, Partition::remaining).tag("partition", tag)
                        .baseUnit("offsets").strongReference(true)
                        .description("Offsets of the graphs topic this partition still replays before it is answered "
                                + "(0: rebuilt)").register(meters),
                Gauge.builder("frontier.rebuild.replayed", p, Partition::replayed).tag("partition", tag)
                        .baseUnit("offsets").strongReference(true)
                        .description("Offsets of the graphs topic replayed so far by this partition's last rebuild "
                                + "from the log").register(meters),
                Gauge.builder("frontier.rebuild.duration", p, x -> x.seconds).tag("partition", tag)
                        .baseUnit("seconds").strongReference(true)
                        .description("Seconds this partition's last rebuild took, from its assignment (checkpoints read and "
                                + "installed, the log replayed) to rebuilt; NaN while it runs").register(meters));
        return p;
    }
}
