package org.frontiergraph.worker.checkpoint;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.worker.checkpoint.CheckpointFormat.Meta;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints the resident graphs, so that a rebuild reads a graph's newest checkpoint and replays only the records
 * after it (docs/operations.md, "Checkpoints"). After {@code frontier.checkpoints.updates} updates or {@code
 * frontier.checkpoints.interval} (whichever first) a changed graph's current version is written to the checkpoint
 * topic ({@link CheckpointFormat}); a graph unchanged since its checkpoint gets a validity marker instead (a few bytes:
 * "still this state through offset N"), so a quiet graph never holds its partition's rebuild start back.
 *
 * <p>At-least-once: a checkpoint only lets a commit's rebuild start move forward once every record of it is
 * acknowledged ({@link #coveredThrough}); a graph has two slots, a write goes to the slot that is not the newest
 * checkpoint's, and only after a commit that relies on the newest one succeeded ({@link #committed}), so the
 * checkpoint the last commit relies on is never overwritten. Checkpoints are taken on the consumer's thread between
 * polls (a copy of the version: its rows and columns are immutable, its weights are copied, within the heap budget),
 * encoded and sent on a thread of their own, one at a time.
 *
 * <p>Where a rebuild reads: each checkpoint's first record's offset on the checkpoint topic is known from its
 * acknowledgement, so a commit can name where the newest checkpoints of its partition's graphs start ({@link #hint});
 * a rebuild reads the partition from there, not from its beginning (where compaction still keeps each graph's previous
 * checkpoint and superseded records it has not cleaned yet).
 *
 * <p>A checkpoint carries the graph's live subscriptions ({@link CheckpointedSubscriptions}, {@link SubscriptionRecords}):
 * a rebuild installs them with the graph and skips their records up to the covered offset, so a subscription
 * published long ago holds its partition's rebuild start only until the next checkpoint. A change of the graph's
 * subscriptions counts as a change (no validity marker past it).
 */
@Singleton
public class Checkpointer implements GraphRegistry.PartitionState, GraphRegistry.Coverage {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);
    /** Room a chunk keeps beside its edges (16 bytes each): the window's slice, the headers, the record's framing. */
    private static final int CHUNK_RESERVE = CheckpointFormat.WINDOW_BYTES_PER_CHUNK + (64 << 10);

    /** Where the records of checkpoints go: the checkpoint topic, partition by partition. */
    public interface Sink {
        /** Sends one record to {@code partition} of the checkpoint topic (asynchronously). */
        void send(CheckpointFormat.Out record, int partition);

        /**
         * Waits until every record sent is acknowledged and returns the lowest offset among them (-1: none, or one
         * unknown). @throws Exception the first failure
         */
        long flush() throws Exception;
    }

    /**
     * Where the checkpoints a commit of a partition relies on lie on the checkpoint topic: {@code from}, the smallest
     * offset at which one of them starts (its first record), and {@code graphs}, how many graphs have one.
     */
    public record Hint(long from, int graphs) {}

    /** Where an acknowledged checkpoint lies: the graphs-topic offset it covers and its first checkpoint-topic offset. */
    private record Placed(long offset, long start) {}

    /** One graph's checkpoints, as this worker knows them. */
    private static final class State {
        final int partition;
        /** The newest complete checkpoint (written and acknowledged, or read back), or null. */
        volatile Meta acked;
        /** Where {@link #acked} lies (null until one is). */
        volatile Placed placed;
        /** The offset through which {@link #acked} holds the graph (its offset, or a marker's). */
        volatile long validThrough = -1;
        /** The commit stamp at which {@link #acked} was acknowledged. */
        volatile long ackStamp;
        /** The registry's change tick the acked checkpoint (or marker) saw. */
        long changeAtAck = -1;
        /** The lineage and version counting starts from, and when: the last checkpoint, or when the lineage was first seen. */
        long sinceLineage = Long.MIN_VALUE, sinceVersion, sinceMs;
        /** Chunk keys each slot may hold: a shorter checkpoint tombstones the indexes beyond it. */
        final int[] slotSizes = new int[2];
        /** Subscription keys each slot may hold, likewise. */
        final int[] subSizes = new int[2];
        /** Whether {@link #acked} carries the graph's subscriptions (one read back may predate them). */
        volatile boolean carries;
        /** The subscriptions' change tick the acked checkpoint (or marker) saw. */
        long subsAtAck = -1;

        State(int partition) {
            this.partition = partition;
        }
    }

    private final GraphRegistry registry;
    private final CheckpointedSubscriptions subscriptions;
    private final boolean enabled;
    private final long updates;
    private final long intervalMs;
    private final int edgesPerChunk;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    /** Per partition, the stamp of the newest commit that succeeded. */
    private final Map<Integer, Long> committed = new ConcurrentHashMap<>();
    /** Counts acknowledged checkpoints: a commit carries the count it was computed at. */
    private final AtomicLong stamps = new AtomicLong();
    private final ExecutorService writer;
    private volatile Sink sink;
    private Future<?> writing;

    public Checkpointer(GraphRegistry registry, CheckpointedSubscriptions subscriptions, FrontierConfig config, TopicsConfig topics) {
        this.registry = registry;
        this.subscriptions = subscriptions;
        FrontierConfig.Checkpoints c = config.getCheckpoints();
        this.enabled = c.isEnabled();
        this.updates = Math.max(1, c.getUpdates());
        this.intervalMs = Math.max(1, c.getInterval().toMillis());
        this.edgesPerChunk = Math.max(1, (topics.getMaxMessageBytes() - CHUNK_RESERVE) / 16);
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "frontier-checkpoint");
            t.setDaemon(true);
            return t;
        });
        if (enabled) {
            registry.attach(this);
            registry.cover(this);
            subscriptions.cover(this::subscriptionsCoveredThrough);
        }
    }

    public boolean enabled() {
        return enabled;
    }

    /** Where checkpoints go (set by the consumer when it starts). */
    public void sink(Sink s) {
        this.sink = s;
    }

    /** The stamp a commit computed now carries: it relies on checkpoints acknowledged up to here. */
    public long stamp() {
        return stamps.get();
    }

    /** A commit of {@code partition} computed at {@code stamp} succeeded. */
    public void committed(int partition, long stamp) {
        committed.merge(partition, stamp, Math::max);
    }

    @Override
    public long coveredThrough(String graphId, long lineage) {
        State s = states.get(graphId);
        Meta m = s == null ? null : s.acked;
        return m == null || m.lineage() != lineage ? -1 : s.validThrough;
    }

    /** As {@link #coveredThrough}, for the graph's subscriptions: -1 unless the checkpoint carries them. */
    long subscriptionsCoveredThrough(String graphId, long lineage) {
        State s = states.get(graphId);
        return s == null || !s.carries ? -1 : coveredThrough(graphId, lineage);
    }

    /**
     * Where a rebuild of {@code partition} resuming at {@code commitOffset} finds the checkpoints it may install: the
     * smallest checkpoint-topic offset at which the newest acknowledged checkpoint of one of the partition's graphs
     * starts, and how many graphs have one. Null when none has, or one is not placed well enough (its start unknown,
     * or taken at or past the commit, so the rebuild would need the one before it): the rebuild then reads the
     * partition from its beginning. A checkpoint written later lies after the offset, and the one named here is not
     * overwritten before a commit relying on a newer one succeeds ({@link #committed}).
     */
    public Hint hint(int partition, long commitOffset) {
        long from = Long.MAX_VALUE;
        int graphs = 0;
        for (State s : states.values()) {
            Placed p = s.placed;
            if (s.partition != partition || p == null) continue;
            if (p.start() < 0 || p.offset() >= commitOffset) return null;
            from = Math.min(from, p.start());
            graphs++;
        }
        return graphs == 0 ? null : new Hint(from, graphs);
    }

    @Override
    public void dropPartitions(Collection<Integer> partitions) {
        states.values().removeIf(s -> partitions.contains(s.partition));
        partitions.forEach(committed::remove);
    }

    @Override
    public long earliestOffset(int partition) {
        return Long.MAX_VALUE;
    }

    /**
     * What a rebuild installed from checkpoints: per graph, the offset through which its checkpoint holds it (the
     * replay skips the graph's records up to there), and per graph whose checkpoint carries its subscriptions, those
     * subscriptions (to register as a replay of their records would; the replay skips the graph's subscription
     * records up to the covered offset too).
     */
    public record Restored(Map<String, Long> covered, Map<String, List<CheckpointedSubscriptions.Carried>> subscriptions) {
        public static final Restored NONE = new Restored(Map.of(), Map.of());
    }

    /**
     * Installs the graphs of {@code partition} from their checkpoints (those {@link CheckpointCatalog#usable} found
     * and the rebuild needs) and returns what it installed ({@link Restored}); the caller registers the subscriptions.
     * Records the slots hold are noted for later writes.
     */
    public Restored restore(int partition, Collection<CheckpointCatalog.Found> found, Read read) {
        Map<String, Long> covered = new HashMap<>();
        Map<String, List<CheckpointedSubscriptions.Carried>> subs = new HashMap<>();
        long decodeNs = 0, installNs = 0, cpu0 = cpuNanos();
        for (CheckpointCatalog.Found f : found) {
            long t0 = System.nanoTime();
            try {
                Checkpoint c = f.decode();
                long t1 = System.nanoTime();
                decodeNs += t1 - t0;
                GraphEntry e = registry.restore(c.graphId(), c.version(), partition, c.firstVertexId(), c.graph(), c.names(),
                        c.lineage(), c.validThrough(), c.window());
                State s = new State(partition);
                s.placed = new Placed(c.offset(), f.start());
                s.acked = f.meta();
                s.validThrough = c.validThrough();
                s.ackStamp = stamps.incrementAndGet();
                // one that does not declare its slots' keys is replaced when due (not extended by markers), so that
                // a rebuild may read from where the newest checkpoints start
                s.changeAtAck = f.declared() ? registry.lastChange(c.graphId()) : -1;
                s.sinceLineage = c.lineage();
                s.sinceVersion = c.version();
                s.sinceMs = System.currentTimeMillis();
                s.slotSizes[0] = f.slotSizes()[0];
                s.slotSizes[1] = f.slotSizes()[1];
                s.subSizes[0] = f.subSizes()[0];
                s.subSizes[1] = f.subSizes()[1];
                s.carries = f.subscriptions() != null;
                states.put(c.graphId(), s);
                covered.put(c.graphId(), c.validThrough());
                if (f.subscriptions() != null) subs.put(c.graphId(), f.subscriptions());
                installNs += System.nanoTime() - t1;
                LOG.info("graph {} version {} restored from its checkpoint (slot {}, covering offsets up to {} of partition {}): "
                                + "{} vertices, {} edges, {} update ids, {} subscriptions, in {} ms", LogSafe.quote(c.graphId()), c.version(),
                        c.slot(), c.validThrough(), partition, e.vertexCount(), e.edgeCount(), c.window().size(),
                        f.subscriptions() == null ? "no" : f.subscriptions().size(), (System.nanoTime() - t0) / 1_000_000);
            } catch (FrontierCodec.MalformedMessageException | RuntimeException x) {   // RejectedException: too large here
                LOG.error("the checkpoint of graph {} (partition {}) cannot be installed: {}; its records after the checkpoint "
                        + "are replayed without it", LogSafe.quote(f.graphId()), partition, x.toString());
            }
        }
        lastRestore = new RestoreTimes(partition, read.nanos() / 1e6, read.cpuNanos() / 1e6, read.records(), read.bytes(),
                decodeNs / 1e6, installNs / 1e6, (cpuNanos() - cpu0) / 1e6, covered.size(), read.from());
        return new Restored(covered, subs);
    }

    /**
     * How a partition's checkpoints were read: the time to read its partition of the checkpoint topic (and the reading
     * thread's CPU time), records and value bytes (of every read, a read from the beginning after a hint that did not
     * hold included), and the offset the read used started at (-1: the beginning).
     */
    public record Read(long nanos, long cpuNanos, long records, long bytes, long from) {}

    /**
     * The stages of the last restore: ms reading the checkpoint topic (and finding the usable checkpoints) and the
     * reading thread's CPU ms, the records and value bytes read, ms decoding the checkpoints installed, ms building
     * them and making them resident (their subscriptions noted), the CPU ms of those two, the graphs installed, the
     * offset the read used started at (-1: the beginning of the partition).
     */
    public record RestoreTimes(int partition, double readMs, double readCpuMs, long records, long bytes, double decodeMs,
                               double installMs, double installCpuMs, int graphs, long readFrom) {}

    /** The calling thread's CPU time (0 where the JVM does not measure it). */
    public static long cpuNanos() {
        java.lang.management.ThreadMXBean t = java.lang.management.ManagementFactory.getThreadMXBean();
        return t.isCurrentThreadCpuTimeSupported() ? t.getCurrentThreadCpuTime() : 0;
    }

    private volatile RestoreTimes lastRestore;

    /** The stages of the last restore from checkpoints; empty before the first. */
    public java.util.Optional<RestoreTimes> lastRestore() {
        return java.util.Optional.ofNullable(lastRestore);
    }

    /** Notes the chunk keys a graph's slots hold on the topic (for a graph not restored: its tombstones). */
    public void known(int partition, Collection<CheckpointCatalog.Found> all) {
        for (CheckpointCatalog.Found f : all) {
            State s = states.computeIfAbsent(f.graphId(), g -> new State(partition));
            for (int slot = 0; slot < 2; slot++) {
                s.slotSizes[slot] = Math.max(s.slotSizes[slot], f.slotSizes()[slot]);
                s.subSizes[slot] = Math.max(s.subSizes[slot], f.subSizes()[slot]);
            }
        }
    }

    /**
     * Between polls, on the consumer's thread: takes the checkpoints (and markers) that are due for the graphs of the
     * partitions in {@code live} (assigned, rebuilt), each of which has processed every record up to the offset it
     * maps to, and hands them to the writer. Nothing while the previous write is in progress.
     */
    public void tick(Map<Integer, Long> live, long nowMs) {
        Sink out = sink;
        if (!enabled || out == null || live.isEmpty() || (writing != null && !writing.isDone())) return;
        List<Runnable> jobs = new ArrayList<>();
        boolean full = false;
        for (GraphEntry e : registry.all()) {
            Long offset = live.get(e.partition());
            if (offset == null || offset < 0 || registry.assembling(e.graphId())) continue;
            State s = states.compute(e.graphId(), (g, old) -> old == null || old.partition != e.partition() ? new State(e.partition()) : old);
            if (s.sinceLineage != e.snapshotOffset()) {   // a new snapshot: counted from its install
                s.sinceLineage = e.snapshotOffset();
                s.sinceVersion = e.version();
                s.sinceMs = nowMs;
            }
            long change = registry.lastChange(e.graphId()), subsChange = subscriptions.lastChange(e.graphId());
            Meta acked = s.acked;
            boolean due = e.version() - s.sinceVersion >= updates || nowMs - s.sinceMs >= intervalMs;
            if (acked != null && acked.lineage() == e.snapshotOffset() && s.changeAtAck == change && s.carries
                    && s.subsAtAck == subsChange) {
                if (due && offset > s.validThrough) jobs.add(() -> mark(out, e.graphId(), s, acked, offset, nowMs));
                continue;
            }
            if (!due || full) continue;
            int slot = acked == null ? 0 : 1 - acked.slot();
            if (acked != null && committed.getOrDefault(e.partition(), -1L) < s.ackStamp) continue;   // no commit relies on it yet
            long copyBytes = 8L * (e.resident().mutable().directed() ? 1 : 2) * e.edgeCount() + 32L * edgesPerChunk;
            try {   // the copy of the weights (and a chunk's arrays) while the checkpoint is written
                registry.budget().require("a checkpoint of graph '" + e.graphId() + "'", copyBytes, registry.heldBytes());
            } catch (RejectedException x) {
                s.sinceMs = nowMs;   // tried again after the interval
                LOG.warn("checkpoint of graph {} skipped: {}", LogSafe.quote(e.graphId()), x.getMessage());
                continue;
            }
            CsrGraph copy = e.resident().mutable().snapshot();
            CheckpointFormat.Taken t = new CheckpointFormat.Taken(e.graphId(), e.partition(), slot, offset, e.version(),
                    e.snapshotOffset(), e.firstVertexId(), copy, registry.window(e.graphId()),
                    e.names() == null ? null : e.names().snapshot());
            List<CheckpointedSubscriptions.Carried> subs = subscriptions.carried(e.graphId());
            jobs.add(() -> write(out, t, subs, s, change, subsChange));
            full = true;   // one graph's copy at a time
        }
        // graphs no longer held (dropped) on live partitions: forgotten, and their slots' keys tombstoned, so that
        // compaction removes the checkpoint of a graph that is gone
        for (Iterator<Map.Entry<String, State>> it = states.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, State> x = it.next();
            if (!live.containsKey(x.getValue().partition) || registry.get(x.getKey()).isPresent()) continue;
            it.remove();
            String graphId = x.getKey();
            State gone = x.getValue();
            jobs.add(() -> forget(out, graphId, gone));
        }
        if (!jobs.isEmpty()) writing = writer.submit(() -> jobs.forEach(Runnable::run));
    }

    /**
     * Writes a checkpoint: its subscription records first, then its chunks (chunk 0 declaring the subscriptions), then
     * tombstones for the keys of the slot's previous checkpoint beyond it and for the slot's validity marker.
     */
    private void write(Sink out, CheckpointFormat.Taken t, List<CheckpointedSubscriptions.Carried> subs, State s, long change,
                       long subsChange) {
        long t0 = System.nanoTime();
        int slot = t.slot(), before = s.slotSizes[slot], subsBefore = s.subSizes[slot];
        try {
            s.subSizes[slot] = Math.max(subsBefore, subs.size());
            for (CheckpointFormat.Out r : SubscriptionRecords.encode(t.graphId(), new Meta(t.offset(), t.lineage(), t.version(),
                    t.partition(), slot, 0, subs.size()), subs)) {
                out.send(r, t.partition());
            }
            int count = CheckpointFormat.encode(t, edgesPerChunk, r -> {
                if (states.get(t.graphId()) != s) throw new IllegalStateException("partition revoked");
                if (r.key().equals(CheckpointFormat.key(t.graphId(), slot, 0))) {
                    SubscriptionRecords.count(r, subs.size());
                    int[] chunks = s.slotSizes.clone(), subKeys = s.subSizes.clone();
                    chunks[slot] = Math.max(before, CheckpointFormat.meta(r.headers()).count());
                    CheckpointFormat.slots(r, chunks, subKeys);
                }
                out.send(r, t.partition());
            });
            for (int i = count; i < before; i++) out.send(new CheckpointFormat.Out(CheckpointFormat.key(t.graphId(), slot, i), null, null), t.partition());
            for (int j = subs.size(); j < subsBefore; j++) {
                out.send(new CheckpointFormat.Out(SubscriptionRecords.key(t.graphId(), slot, j), null, null), t.partition());
            }
            out.send(new CheckpointFormat.Out(CheckpointFormat.validKey(t.graphId(), slot), null, null), t.partition());
            s.slotSizes[slot] = Math.max(before, count);
            long start = out.flush();   // the first record sent: its first subscription record, or its chunk 0
            s.slotSizes[slot] = count;
            s.subSizes[slot] = subs.size();
            s.placed = new Placed(t.offset(), start);
            s.acked = new Meta(t.offset(), t.lineage(), t.version(), t.partition(), slot, 0, count);
            s.validThrough = t.offset();
            s.carries = true;
            s.changeAtAck = change;
            s.subsAtAck = subsChange;
            s.sinceVersion = t.version();
            s.sinceMs = System.currentTimeMillis();
            s.ackStamp = stamps.incrementAndGet();
            registry.checkpointed(t.graphId(), t.lineage(), t.offset());
            LOG.info("checkpoint of graph {} version {} written: slot {}, {} chunks, {} edges, {} subscriptions, covering offsets "
                            + "up to {} of partition {}, in {} ms", LogSafe.quote(t.graphId()), t.version(), slot, count,
                    t.graph().edgeCount(), subs.size(), t.offset(), t.partition(), (System.nanoTime() - t0) / 1_000_000);
        } catch (Exception x) {
            if (x instanceof InterruptedException) Thread.currentThread().interrupt();
            s.slotSizes[slot] = Math.max(s.slotSizes[slot], before);
            s.sinceMs = System.currentTimeMillis();   // tried again after the interval
            LOG.warn("checkpoint of graph {} version {} not written ({}); its rebuild still starts at the previous one",
                    LogSafe.quote(t.graphId()), t.version(), x.toString());
        }
    }

    /** Tombstones every key a forgotten graph's two slots may hold (its chunks, subscriptions and validity markers). */
    private void forget(Sink out, String graphId, State gone) {
        try {
            for (int slot = 0; slot < 2; slot++) {
                for (int i = 0; i < gone.slotSizes[slot]; i++) {
                    out.send(new CheckpointFormat.Out(CheckpointFormat.key(graphId, slot, i), null, null), gone.partition);
                }
                for (int j = 0; j < gone.subSizes[slot]; j++) {
                    out.send(new CheckpointFormat.Out(SubscriptionRecords.key(graphId, slot, j), null, null), gone.partition);
                }
                out.send(new CheckpointFormat.Out(CheckpointFormat.validKey(graphId, slot), null, null), gone.partition);
            }
            out.flush();
            LOG.info("checkpoint of graph {} removed (tombstones for its keys): the graph is no longer held", LogSafe.quote(graphId));
        } catch (Exception x) {
            if (x instanceof InterruptedException) Thread.currentThread().interrupt();
            LOG.warn("checkpoint of graph {} not removed ({}); a rebuild skips it, as it is older than the graph's end",
                    LogSafe.quote(graphId), x.toString());
        }
    }

    private void mark(Sink out, String graphId, State s, Meta acked, long offset, long nowMs) {
        try {
            if (states.get(graphId) != s) return;
            out.send(CheckpointFormat.marker(graphId, acked, offset), s.partition);
            out.flush();
            s.validThrough = offset;
            s.sinceMs = nowMs;
            registry.checkpointed(graphId, acked.lineage(), offset);
            stamps.incrementAndGet();   // a quiet partition is committed again, so its rebuild start moves past the marker
            LOG.debug("checkpoint of graph {} holds through offset {} of partition {} (unchanged)", LogSafe.quote(graphId), offset, s.partition);
        } catch (Exception x) {
            if (x instanceof InterruptedException) Thread.currentThread().interrupt();
            LOG.warn("validity marker of graph {} not written ({})", LogSafe.quote(graphId), x.toString());
        }
    }

    /** Waits for the write in progress (tests, shutdown). */
    public void awaitWrites() {
        Future<?> w = writing;
        if (w == null) return;
        try {
            w.get();
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        }
    }

    @PreDestroy
    public void close() {
        writer.shutdownNow();
    }
}
