package org.frontiergraph.worker.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.checkpoint.CheckpointCatalog;
import org.frontiergraph.worker.checkpoint.CheckpointedSubscriptions;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.Ids;
import org.frontiergraph.worker.metrics.RebuildProgress;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a worker gets the graphs of a partition back when it is assigned the partition (or publishing failed): it
 * drops what it held for it, installs the graphs that have a checkpoint from the checkpoint topic, and replays the
 * partition's log, snapshots and updates only, up to the committed offset (queries there were answered already),
 * skipping a checkpointed graph's records up to the offset its checkpoint covers (its subscription records too when
 * the checkpoint carries its subscriptions: they are registered from it, {@link #registerSubscriptions}). The replay starts at the offset the
 * last commit recorded in its metadata ({@code rebuildFrom=N}: the earliest record the partition's graphs need, see
 * {@link GraphRegistry#rebuildFrom}), or at the beginning when the commit carries none; every commit records it.
 * With checkpoints, a commit also names where on the checkpoint topic the checkpoints it relies on start, and how
 * many graphs have one ({@code ;checkpointFrom=M;checkpoints=K}, {@link Checkpointer#hint}): the rebuild reads the
 * checkpoint topic from there, and again from its beginning when that read does not hold what the commit relied on
 * ({@link CheckpointCatalog#lacks}) or the commit names no such offset (an older commit, or no checkpoint yet).
 *
 * <p>Retention: what the rebuild needs is compared with the partition's log start. Records it needed that retention
 * deleted are named (an ERROR log, {@code frontier_rebuild_lost_records_total}, a RECORDS_LOST error event for the
 * partition and one per graph known to be affected: a checkpointed graph whose later records are gone is not
 * installed, a graph whose updates are replayed but whose snapshot is gone stays unknown), and the partition is
 * rebuilt from what remains, so it becomes ready. This class decides; the listener seeks. It reports each
 * partition's replay to {@link RebuildProgress} (the {@code frontier_rebuild_*} gauges).
 */
final class PartitionRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionRecovery.class);

    /** Commit metadata: the offset a rebuild of the partition starts reading at. */
    static final String REBUILD_FROM = "rebuildFrom=";
    /** Commit metadata: where on the checkpoint topic the checkpoints the commit relies on start, and how many graphs have one. */
    static final String CHECKPOINT_FROM = "checkpointFrom=", CHECKPOINTS = "checkpoints=";
    /** Between the fields of the commit metadata. */
    static final String SEPARATOR = ";";

    /** Reads a partition of the checkpoint topic from an offset, or from its beginning ({@link #BEGINNING}). */
    interface CheckpointReader {
        long BEGINNING = -1;

        CheckpointCatalog read(int partition, long from);
    }

    private final GraphRegistry registry;
    private final RebuildProgress progress;
    /** Installs graphs from checkpoints, and is told of the commits that succeeded; null: no checkpoints. */
    private final Checkpointer checkpointer;
    /** Reads the checkpoint topic; null: no checkpoints. */
    private final CheckpointReader checkpoints;
    /** Per partition: records below this offset are replayed (state only). */
    private final Map<TopicPartition, Long> replayUntil = new ConcurrentHashMap<>();
    /** Per partition being replayed: per graph installed from a checkpoint, the offset through which it holds it. */
    private final Map<TopicPartition, Map<String, Long>> covered = new ConcurrentHashMap<>();
    /** Per partition being replayed: the graphs whose checkpoint carried their subscriptions. */
    private final Map<TopicPartition, Set<String>> withSubscriptions = new ConcurrentHashMap<>();
    /** Per partition rebuilt: the subscriptions its checkpoints carried, not yet registered. */
    private final Map<TopicPartition, List<CheckpointedSubscriptions.Carried>> carried = new ConcurrentHashMap<>();
    /** Per partition being replayed after records were lost: the graphs of the snapshots and updates replayed. */
    private final Map<TopicPartition, Lost> lost = new ConcurrentHashMap<>();
    /** RECORDS_LOST events not published yet. */
    private final Queue<ErrorEvent> errors = new ConcurrentLinkedQueue<>();

    /** Records of a partition deleted by retention before its rebuild read them: [from, to); the graphs it touched. */
    private record Lost(long from, long to, Set<String> replayed, Set<String> named) {}

    PartitionRecovery(GraphRegistry registry, RebuildProgress progress) {
        this(registry, progress, null, null);
    }

    PartitionRecovery(GraphRegistry registry, RebuildProgress progress, Checkpointer checkpointer, CheckpointReader checkpoints) {
        this.registry = registry;
        this.progress = progress;
        this.checkpointer = checkpointer;
        this.checkpoints = checkpoints;
    }

    /** Where the consumer resumes reading a partition: {@code offset}, or the beginning of its log ({@link #BEGINNING}). */
    record Resume(TopicPartition partition, long offset) {
        static final long BEGINNING = -1;

        boolean atBeginning() { return offset == BEGINNING; }
    }

    /** The commits of a batch, and the checkpoint stamp they were computed at. */
    record Commits(Map<TopicPartition, OffsetAndMetadata> offsets, long stamp) {}

    /** Whether the record at {@code offset} of {@code tp} is replayed: applied to the graphs, answering and publishing nothing. */
    boolean replaying(TopicPartition tp, long offset) {
        return offset < replayUntil.getOrDefault(tp, -1L);
    }

    /**
     * Whether a replayed record of graph {@code key} at {@code offset} holding {@code value} is in the graph's
     * checkpoint already: any record up to the offset the checkpoint covers, a subscription only when the checkpoint
     * carries the graph's subscriptions (else it is registered as any replayed one).
     */
    boolean covered(TopicPartition tp, String key, long offset, byte[] value) {
        Map<String, Long> c = covered.get(tp);
        Long through = c == null || key == null ? null : c.get(key);
        if (through == null || offset > through) return false;
        Set<String> s = withSubscriptions.get(tp);
        return (s != null && s.contains(key)) || !isSubscription(value);
    }

    private static boolean isSubscription(byte[] value) {
        try {
            return FrontierCodec.typeOf(value) == Subscription.class;
        } catch (FrontierCodec.MalformedMessageException e) {
            return false;   // rejected when it was read live; it changed nothing
        }
    }

    /**
     * Registers the subscriptions that the checkpoints of the partitions rebuilt since the last call carried, as their
     * replayed records would be ({@code replay}, before the replay of what follows; timestamp 0: nothing of the
     * partition is pending yet, so they age nothing), then has each such partition's subscriptions push complete
     * ({@code resync}: RESYNC, also where nothing is replayed).
     */
    void registerSubscriptions(Consumer<InputRecord> replay, IntConsumer resync) {
        for (TopicPartition tp : List.copyOf(carried.keySet())) {
            List<CheckpointedSubscriptions.Carried> subs = carried.remove(tp);
            if (subs == null) continue;
            for (CheckpointedSubscriptions.Carried c : subs) {
                replay.accept(new InputRecord(tp.topic(), tp.partition(), c.offset(), c.graphId(), c.record(), 0));
            }
            resync.accept(tp.partition());
        }
    }

    /** Notes that a replayed record was applied; the last one completes the partition's rebuild (true). */
    boolean replayed(TopicPartition tp, long offset) {
        return replayed(tp, offset, null, null);
    }

    /** As {@link #replayed(TopicPartition, long)}, for a record keyed {@code key} holding {@code value}. */
    boolean replayed(TopicPartition tp, long offset, String key, byte[] value) {
        Long until = replayUntil.get(tp);
        if (until == null) return false;
        Lost l = lost.get(tp);
        if (l != null && key != null && changesGraphs(value)) l.replayed().add(key);
        progress.applied(tp.partition(), offset);
        if (offset + 1 >= until) {
            finish(tp);
            LOG.info("partition {} rebuilt from the log ({} graphs held)", tp, registry.size());
            return true;
        }
        return false;
    }

    private void finish(TopicPartition tp) {
        replayUntil.remove(tp);
        covered.remove(tp);
        withSubscriptions.remove(tp);
        progress.finished(tp.partition());
        Lost l = lost.remove(tp);
        if (l == null) return;
        for (String graph : l.replayed()) {   // updates of it were replayed, yet it is unknown: its snapshot was deleted
            if (!l.named().contains(graph) && registry.get(graph).isEmpty() && !registry.assembling(graph)) {
                lostGraph(tp, l.from(), graph, "graph '" + graph + "' is unknown after the rebuild of partition " + tp.partition()
                        + ": its records before offset " + l.to() + " (its snapshot) were deleted by retention; re-publish it");
            }
        }
    }

    private static boolean changesGraphs(byte[] value) {
        try {
            Class<?> type = FrontierCodec.typeOf(value);
            return type == GraphUpdate.class || type == GraphSnapshotChunk.class;
        } catch (FrontierCodec.MalformedMessageException e) {
            return false;
        }
    }

    /** Whether the partition is still being replayed (its rebuild is not complete). */
    boolean rebuilding(TopicPartition tp) {
        return replayUntil.containsKey(tp);
    }

    /**
     * The commits of these next offsets, each recording where a rebuild of its partition must start reading (and,
     * with checkpoints acknowledged, where on the checkpoint topic those it relies on start).
     */
    Commits commits(Map<TopicPartition, Long> next) {
        long stamp = checkpointer == null ? 0 : checkpointer.stamp();   // before the rebuild starts are computed
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        next.forEach((tp, offset) -> commits.put(tp, new OffsetAndMetadata(offset, metadata(registry.rebuildFrom(tp.partition(), offset),
                checkpointer == null ? null : checkpointer.hint(tp.partition(), offset)))));
        return new Commits(commits, stamp);
    }

    /** The commit metadata naming {@code rebuildFrom} and, when not null, {@code hint} (a few dozen bytes). */
    static String metadata(long rebuildFrom, Checkpointer.Hint hint) {
        return REBUILD_FROM + rebuildFrom + (hint == null ? ""
                : SEPARATOR + CHECKPOINT_FROM + hint.from() + SEPARATOR + CHECKPOINTS + hint.graphs());
    }

    /** These commits succeeded: a checkpoint written before them may now be replaced. */
    void committed(Commits c) {
        if (checkpointer != null) c.offsets().keySet().forEach(tp -> checkpointer.committed(tp.partition(), c.stamp()));
    }

    /** The RECORDS_LOST events noted since the last call, to publish. */
    List<ErrorEvent> takeErrors() {
        List<ErrorEvent> out = new ArrayList<>();
        for (ErrorEvent e; (e = errors.poll()) != null; ) out.add(e);
        return out;
    }

    boolean hasErrors() {
        return !errors.isEmpty();
    }

    List<Resume> rebuild(Collection<TopicPartition> partitions,
                         Function<Set<TopicPartition>, Map<TopicPartition, OffsetAndMetadata>> committed) {
        return rebuild(partitions, committed, tps -> Map.of());
    }

    /**
     * Drops what this worker holds for the partitions and decides where each resumes, given the committed offsets
     * ({@code committed} looks them up; a partition without a commit is read from the beginning) and the first offset
     * each partition's log still holds ({@code logStart}): the graphs with a usable checkpoint are installed from it;
     * the partition resumes at the committed offset when nothing before it is needed, else at the recorded rebuild
     * start (or the log start, when retention deleted records before it), replaying up to the commit.
     */
    List<Resume> rebuild(Collection<TopicPartition> partitions,
                         Function<Set<TopicPartition>, Map<TopicPartition, OffsetAndMetadata>> committed,
                         Function<Set<TopicPartition>, Map<TopicPartition, Long>> logStart) {
        forget(partitions);
        Map<TopicPartition, OffsetAndMetadata> commits = committed.apply(new HashSet<>(partitions));
        Map<TopicPartition, Long> starts = logStart.apply(new HashSet<>(partitions));
        List<Resume> resume = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            progress.began(tp.partition());
            OffsetAndMetadata c = commits.get(tp);
            long start = starts.getOrDefault(tp, 0L);
            if (c == null) {
                if (start > 0) lostRecords(tp, 0, start, "before this group committed anything");
                lost.remove(tp);   // nothing is replayed: the records are read live
                resume.add(new Resume(tp, Resume.BEGINNING));
                progress.notNeeded(tp.partition());
                continue;
            }
            long from = Math.max(0, rebuildFrom(c)), until = c.offset();
            if (from < start) lostRecords(tp, from, start, "before the rebuild read them");   // from <= until: all of it
            Checkpointer.Restored restoredAll = restore(tp, from, until, start, checkpointFrom(c));
            Map<String, Long> restored = restoredAll.covered();
            List<CheckpointedSubscriptions.Carried> subs = new ArrayList<>();
            restoredAll.subscriptions().values().forEach(subs::addAll);
            if (!subs.isEmpty()) carried.put(tp, subs);
            long replayFrom = Math.max(from, start);
            if (replayFrom >= until) {
                resume.add(new Resume(tp, Math.max(until, start)));   // nothing before the committed offset is needed
                progress.notNeeded(tp.partition());
                lost.remove(tp);
                continue;
            }
            replayUntil.put(tp, until);
            if (!restored.isEmpty()) covered.put(tp, restored);
            if (!restoredAll.subscriptions().isEmpty()) withSubscriptions.put(tp, Set.copyOf(restoredAll.subscriptions().keySet()));
            progress.started(tp.partition(), replayFrom, until);
            resume.add(new Resume(tp, replayFrom <= 0 ? Resume.BEGINNING : replayFrom));
            LOG.info("rebuilding graphs of {} from the log: replaying offsets {}..{}{}", tp, replayFrom, until - 1,
                    restored.isEmpty() ? "" : " (" + restored.size() + " graph(s) from checkpoints, their records up to the "
                            + "checkpoint skipped)");
        }
        return resume;
    }

    /**
     * Installs the graphs of the partition that have a checkpoint the rebuild may start from: taken before the commit,
     * and still needed (holding through at least the rebuild start less one: an older one belongs to a graph that was
     * re-published or dropped since). A checkpoint whose graph's later records are gone to retention is not installed.
     */
    private Checkpointer.Restored restore(TopicPartition tp, long from, long until, long start, Checkpointer.Hint hint) {
        if (checkpointer == null || checkpoints == null) return Checkpointer.Restored.NONE;
        List<String> unusable = new ArrayList<>();
        long t0 = System.nanoTime(), cpu0 = Checkpointer.cpuNanos();
        CheckpointCatalog catalog = checkpoints.read(tp.partition(), hint == null ? CheckpointReader.BEGINNING : hint.from());
        Map<String, CheckpointCatalog.Found> found = catalog.usable(until, unusable);
        long records = catalog.records(), bytes = catalog.bytes();
        String lacks = catalog.whole() ? null : catalog.lacks(hint.graphs(), found, unusable);
        if (lacks != null) {   // correctness over speed: everything compaction kept
            LOG.warn("partition {}: the checkpoint topic read from offset {} (where the last commit's checkpoints start) is not "
                    + "enough ({}): read again from its beginning", tp, catalog.from(), lacks);
            unusable.clear();
            catalog = checkpoints.read(tp.partition(), CheckpointReader.BEGINNING);
            found = catalog.usable(until, unusable);
            records += catalog.records();
            bytes += catalog.bytes();
        }
        Checkpointer.Read read = new Checkpointer.Read(System.nanoTime() - t0, Checkpointer.cpuNanos() - cpu0, records, bytes,
                catalog.whole() ? CheckpointReader.BEGINNING : catalog.from());
        LOG.info("partition {}: checkpoint topic read from {}: {} records, {} bytes", tp,
                catalog.whole() ? "its beginning" : "offset " + catalog.from(), records, bytes);
        checkpointer.known(tp.partition(), found.values());
        List<CheckpointCatalog.Found> install = new ArrayList<>();
        for (CheckpointCatalog.Found f : found.values()) {
            if (f.validThrough() + 1 < from) continue;   // not needed at the commit
            if (f.validThrough() + 1 < start) {
                lostGraph(tp, f.validThrough() + 1, f.graphId(), "the checkpoint of graph '" + f.graphId() + "' (version "
                        + f.meta().version() + ") holds it through offset " + f.validThrough() + " of partition " + tp.partition()
                        + ", but the records from there to " + (start - 1) + " were deleted by retention: not restored; re-publish it");
                continue;
            }
            install.add(f);
        }
        if (!unusable.isEmpty()) LOG.info("partition {}: no usable checkpoint for graphs {} (incomplete, or taken after the commit)", tp, unusable);
        return checkpointer.restore(tp.partition(), install, read);
    }

    private void lostRecords(TopicPartition tp, long from, long to, String when) {
        progress.lost(to - from);
        LOG.error("partition {}: offsets {}..{} ({} records) were deleted by retention {}; graphs whose snapshots or updates "
                + "were there are lost or stale on this worker (error events RECORDS_LOST name those known)", tp, from, to - 1,
                to - from, when);
        lost.put(tp, new Lost(from, to, ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet()));
        errors.add(event(tp, from, null, "offsets " + from + ".." + (to - 1) + " of partition " + tp.partition() + " ("
                + (to - from) + " records) were deleted by retention " + when + "; graphs whose snapshots or updates were "
                + "there are lost or stale (docs/operations.md, \"Checkpoints\")"));
    }

    private void lostGraph(TopicPartition tp, long offset, String graph, String reason) {
        LOG.error("{}", reason);
        Lost l = lost.get(tp);
        if (l != null) l.named().add(graph);
        errors.add(event(tp, offset, graph, reason));
    }

    private static ErrorEvent event(TopicPartition tp, long offset, String graph, String reason) {
        return ErrorEvent.newBuilder().setSourceTopic(tp.topic()).setPartition(tp.partition()).setOffset(offset)
                .setKey(graph == null ? null : Ids.echo(graph)).setGraphId(graph == null ? null : Ids.echo(graph))
                .setCode(ErrorCode.RECORDS_LOST.name()).setReason(Ids.reason(reason))
                .setTimestampMs(System.currentTimeMillis()).build();
    }

    /** Drops the graphs of partitions this worker no longer owns (revoked or lost) and their replay state. */
    void forget(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) return;
        partitions.forEach(replayUntil::remove);
        partitions.forEach(covered::remove);
        partitions.forEach(withSubscriptions::remove);
        partitions.forEach(carried::remove);
        partitions.forEach(lost::remove);
        partitions.forEach(tp -> progress.forget(tp.partition()));
        registry.dropPartitions(partitions.stream().map(TopicPartition::partition).toList());
    }

    /** The rebuild start a commit recorded; 0 (the beginning) when it recorded none. */
    static long rebuildFrom(OffsetAndMetadata c) {
        return Math.max(0, field(c.metadata(), REBUILD_FROM));
    }

    /**
     * Where the checkpoints a commit relied on start on the checkpoint topic, and how many graphs have one; null when
     * the commit names none (an older worker's, no checkpoint yet) or names them malformed.
     */
    static Checkpointer.Hint checkpointFrom(OffsetAndMetadata c) {
        long from = field(c.metadata(), CHECKPOINT_FROM), graphs = field(c.metadata(), CHECKPOINTS);
        return from < 0 || graphs < 1 || graphs > Integer.MAX_VALUE ? null : new Checkpointer.Hint(from, (int) graphs);
    }

    /** The non-negative number a field of the commit metadata holds; -1 when it is absent or malformed. */
    private static long field(String metadata, String name) {
        if (metadata == null) return -1;
        for (String f : metadata.split(SEPARATOR)) {
            if (!f.startsWith(name)) continue;
            try {
                return Math.max(-1, Long.parseLong(f.substring(name.length())));
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return -1;
    }
}
