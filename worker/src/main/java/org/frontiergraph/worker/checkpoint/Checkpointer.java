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

        /** Waits until every record sent is acknowledged. @throws Exception the first failure */
        void flush() throws Exception;
    }

    /** One graph's checkpoints, as this worker knows them. */
    private static final class State {
        final int partition;
        /** The newest complete checkpoint (written and acknowledged, or read back), or null. */
        volatile Meta acked;
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

        State(int partition) {
            this.partition = partition;
        }
    }

    private final GraphRegistry registry;
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

    public Checkpointer(GraphRegistry registry, FrontierConfig config, TopicsConfig topics) {
        this.registry = registry;
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
     * Installs the graphs of {@code partition} from their checkpoints (those {@link CheckpointCatalog#usable} found
     * and the rebuild needs) and returns, per graph installed, the offset through which its checkpoint holds it: the
     * replay skips the graph's records up to there. Records the slots hold are noted for later writes.
     */
    public Map<String, Long> restore(int partition, Collection<CheckpointCatalog.Found> found) {
        Map<String, Long> covered = new HashMap<>();
        for (CheckpointCatalog.Found f : found) {
            long t0 = System.nanoTime();
            try {
                Checkpoint c = f.decode();
                GraphEntry e = registry.restore(c.graphId(), c.version(), partition, c.firstVertexId(), c.graph(), c.names(),
                        c.lineage(), c.validThrough(), c.window());
                State s = new State(partition);
                s.acked = f.meta();
                s.validThrough = c.validThrough();
                s.ackStamp = stamps.incrementAndGet();
                s.changeAtAck = registry.lastChange(c.graphId());
                s.sinceLineage = c.lineage();
                s.sinceVersion = c.version();
                s.sinceMs = System.currentTimeMillis();
                s.slotSizes[0] = f.slotSizes()[0];
                s.slotSizes[1] = f.slotSizes()[1];
                states.put(c.graphId(), s);
                covered.put(c.graphId(), c.validThrough());
                LOG.info("graph {} version {} restored from its checkpoint (slot {}, covering offsets up to {} of partition {}): "
                                + "{} vertices, {} edges, {} update ids, in {} ms", LogSafe.quote(c.graphId()), c.version(), c.slot(),
                        c.validThrough(), partition, e.vertexCount(), e.edgeCount(), c.window().size(),
                        (System.nanoTime() - t0) / 1_000_000);
            } catch (FrontierCodec.MalformedMessageException | RuntimeException x) {   // RejectedException: too large here
                LOG.error("the checkpoint of graph {} (partition {}) cannot be installed: {}; its records after the checkpoint "
                        + "are replayed without it", LogSafe.quote(f.graphId()), partition, x.toString());
            }
        }
        return covered;
    }

    /** Notes the chunk keys a graph's slots hold on the topic (for a graph not restored: its tombstones). */
    public void known(int partition, Collection<CheckpointCatalog.Found> all) {
        for (CheckpointCatalog.Found f : all) {
            State s = states.computeIfAbsent(f.graphId(), g -> new State(partition));
            s.slotSizes[0] = Math.max(s.slotSizes[0], f.slotSizes()[0]);
            s.slotSizes[1] = Math.max(s.slotSizes[1], f.slotSizes()[1]);
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
            long change = registry.lastChange(e.graphId());
            Meta acked = s.acked;
            boolean due = e.version() - s.sinceVersion >= updates || nowMs - s.sinceMs >= intervalMs;
            if (acked != null && acked.lineage() == e.snapshotOffset() && s.changeAtAck == change) {
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
            jobs.add(() -> write(out, t, s, change));
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

    private void write(Sink out, CheckpointFormat.Taken t, State s, long change) {
        long t0 = System.nanoTime();
        int before = s.slotSizes[t.slot()];
        try {
            int count = CheckpointFormat.encode(t, edgesPerChunk, r -> {
                if (states.get(t.graphId()) != s) throw new IllegalStateException("partition revoked");
                out.send(r, t.partition());
            });
            for (int i = count; i < before; i++) out.send(new CheckpointFormat.Out(CheckpointFormat.key(t.graphId(), t.slot(), i), null, null), t.partition());
            out.send(new CheckpointFormat.Out(CheckpointFormat.validKey(t.graphId(), t.slot()), null, null), t.partition());
            s.slotSizes[t.slot()] = Math.max(before, count);
            out.flush();
            s.slotSizes[t.slot()] = count;
            s.acked = new Meta(t.offset(), t.lineage(), t.version(), t.partition(), t.slot(), 0, count);
            s.validThrough = t.offset();
            s.changeAtAck = change;
            s.sinceVersion = t.version();
            s.sinceMs = System.currentTimeMillis();
            s.ackStamp = stamps.incrementAndGet();
            registry.checkpointed(t.graphId(), t.lineage(), t.offset());
            LOG.info("checkpoint of graph {} version {} written: slot {}, {} chunks, {} edges, covering offsets up to {} of "
                            + "partition {}, in {} ms", LogSafe.quote(t.graphId()), t.version(), t.slot(), count, t.graph().edgeCount(),
                    t.offset(), t.partition(), (System.nanoTime() - t0) / 1_000_000);
        } catch (Exception x) {
            if (x instanceof InterruptedException) Thread.currentThread().interrupt();
            s.slotSizes[t.slot()] = Math.max(s.slotSizes[t.slot()], before);
            s.sinceMs = System.currentTimeMillis();   // tried again after the interval
            LOG.warn("checkpoint of graph {} version {} not written ({}); its rebuild still starts at the previous one",
                    LogSafe.quote(t.graphId()), t.version(), x.toString());
        }
    }

    /** Tombstones every key a forgotten graph's two slots may hold (its chunks and validity markers). */
    private void forget(Sink out, String graphId, State gone) {
        try {
            for (int slot = 0; slot < 2; slot++) {
                for (int i = 0; i < gone.slotSizes[slot]; i++) {
                    out.send(new CheckpointFormat.Out(CheckpointFormat.key(graphId, slot, i), null, null), gone.partition);
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
