package org.frontiergraph.worker.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.worker.metrics.RebuildProgress;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a worker gets the graphs of a partition back when it is assigned the partition (or publishing failed): it
 * drops what it held for it and replays the partition's log, snapshots and updates only, up to the committed offset
 * (queries there were answered already). The replay starts at the offset the last commit recorded in its metadata
 * ({@code rebuildFrom=N}: the first chunk of the oldest snapshot the partition's graphs still grow from), or at the
 * beginning when the commit carries none; every commit records that offset. This class decides; the listener seeks.
 * It reports each partition's replay to {@link RebuildProgress} (the {@code frontier_rebuild_*} gauges).
 */
final class PartitionRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionRecovery.class);

    /** Commit metadata: the offset a rebuild of the partition starts reading at. */
    static final String REBUILD_FROM = "rebuildFrom=";

    private final GraphRegistry registry;
    private final RebuildProgress progress;
    /** Per partition: records below this offset are replayed (state only). */
    private final Map<TopicPartition, Long> replayUntil = new ConcurrentHashMap<>();

    PartitionRecovery(GraphRegistry registry, RebuildProgress progress) {
        this.registry = registry;
        this.progress = progress;
    }

    /** Where the consumer resumes reading a partition: {@code offset}, or the beginning of its log ({@link #BEGINNING}). */
    record Resume(TopicPartition partition, long offset) {
        static final long BEGINNING = -1;

        boolean atBeginning() { return offset == BEGINNING; }
    }

    /** Whether the record at {@code offset} of {@code tp} is replayed: applied to the graphs, answering and publishing nothing. */
    boolean replaying(TopicPartition tp, long offset) {
        return offset < replayUntil.getOrDefault(tp, -1L);
    }

    /** Notes that a replayed record was applied; the last one completes the partition's rebuild (true). */
    boolean replayed(TopicPartition tp, long offset) {
        Long until = replayUntil.get(tp);
        if (until == null) return false;
        progress.applied(tp.partition(), offset);
        if (offset + 1 >= until) {
            replayUntil.remove(tp);
            progress.finished(tp.partition());
            LOG.info("partition {} rebuilt from the log ({} graphs held)", tp, registry.size());
            return true;
        }
        return false;
    }

    /** Whether the partition is still being replayed (its rebuild is not complete). */
    boolean rebuilding(TopicPartition tp) {
        return replayUntil.containsKey(tp);
    }

    /** The commits of these next offsets, each recording where a rebuild of its partition must start reading. */
    Map<TopicPartition, OffsetAndMetadata> commits(Map<TopicPartition, Long> next) {
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        next.forEach((tp, offset) -> commits.put(tp, new OffsetAndMetadata(offset,
                REBUILD_FROM + registry.rebuildFrom(tp.partition(), offset))));
        return commits;
    }

    /**
     * Drops what this worker holds for the partitions and decides where each resumes, given the committed offsets
     * ({@code committed} looks them up; a partition without a commit is read from the beginning): at the committed
     * offset when nothing before it is needed, else at the recorded rebuild start, replaying up to the commit.
     */
    List<Resume> rebuild(Collection<TopicPartition> partitions,
                         Function<Set<TopicPartition>, Map<TopicPartition, OffsetAndMetadata>> committed) {
        forget(partitions);
        Map<TopicPartition, OffsetAndMetadata> commits = committed.apply(new HashSet<>(partitions));
        List<Resume> resume = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata c = commits.get(tp);
            if (c == null) {
                resume.add(new Resume(tp, Resume.BEGINNING));
                progress.notNeeded(tp.partition());
                continue;
            }
            long from = rebuildFrom(c);
            if (from >= c.offset()) {
                resume.add(new Resume(tp, c.offset()));   // nothing before the committed offset is needed
                progress.notNeeded(tp.partition());
                continue;
            }
            replayUntil.put(tp, c.offset());
            progress.started(tp.partition(), Math.max(0, from), c.offset());
            resume.add(new Resume(tp, from <= 0 ? Resume.BEGINNING : from));
            LOG.info("rebuilding graphs of {} from the log: replaying offsets {}..{}", tp, Math.max(0, from), c.offset() - 1);
        }
        return resume;
    }

    /** Drops the graphs of partitions this worker no longer owns (revoked or lost) and their replay state. */
    void forget(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) return;
        partitions.forEach(replayUntil::remove);
        partitions.forEach(tp -> progress.forget(tp.partition()));
        registry.dropPartitions(partitions.stream().map(TopicPartition::partition).toList());
    }

    /** The rebuild start a commit recorded; 0 (the beginning) when it recorded none. */
    static long rebuildFrom(OffsetAndMetadata c) {
        String m = c.metadata();
        if (m == null || !m.startsWith(REBUILD_FROM)) return 0;
        try {
            return Long.parseLong(m.substring(REBUILD_FROM.length()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
