package org.frontiergraph.worker.registry;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.logging.LogSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The graphs this worker owns, one current version each. A new version is built completely (snapshot assembled,
 * CSR built, made resident) before it replaces the old one in a single map update, so no query sees a half-loaded
 * graph. Mutations come from the consumer thread that owns the graph's partition; reads may come from anywhere.
 */
@Singleton
public class GraphRegistry implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GraphRegistry.class);

    private final Map<String, GraphEntry> graphs = new ConcurrentHashMap<>();
    private final SnapshotAssembler assembler;
    /** Decode and count snapshot chunks for {@link #assembler} ({@code frontier.ingest-threads}). */
    private final ChunkDecoders decoders;
    private final EngineService engines;
    private final FrontierConfig config;
    private final HeapBudget budget;
    private final AtomicLong gpuFallbacks = new AtomicLong();
    private final AtomicLong duplicateUpdates = new AtomicLong();
    /** Per graph, the ids of the last updates applied (frontier.update-dedup-window): retries are refused. */
    private final AppliedUpdates applied;
    private final List<PartitionState> states = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Graphs a tombstone dropped, until a new snapshot of them is installed: for {@link #whyUnknown}. */
    private final Map<String, Dropped> dropped = new ConcurrentHashMap<>();
    /**
     * Per graph, the snapshot version refused as GRAPH_TOO_LARGE: its later chunks are dropped quietly. The last
     * {@link #REFUSED_KEPT} graphs refused (so that refusals under many graph ids cannot grow it without bound; a chunk
     * of a version forgotten so is refused, and reported, again).
     */
    private final Map<String, Refused> refused = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Refused> eldest) {
            return size() > REFUSED_KEPT;
        }
    };
    static final int REFUSED_KEPT = 4_096;
    private final AtomicLong refusedChunks = new AtomicLong();
    private volatile LoadTimes lastLoad;

    /** A refused version, by the header its chunks share (a version published again with another header is new). */
    private record Refused(long version, int vertexCount, long edgeCount, int chunkCount, boolean directed, int firstVertexId,
                           int partition) {
        static Refused of(GraphSnapshotChunk c, int partition) {
            return new Refused(c.getVersion(), c.getVertexCount(), c.getEdgeCount(), c.getChunkCount(), c.getDirected(),
                    c.getFirstVertexId(), partition);
        }

        boolean sameVersion(GraphSnapshotChunk c) {
            return of(c, partition).equals(this);
        }
    }
    /** Which graphs a checkpoint holds, and through which offset (none: every graph grows from its snapshot). */
    private volatile Coverage coverage = (graphId, lineage) -> -1;
    /** Per graph, the tick of {@link #changes} at its last change (a version, a window's ids): checkpoints compare it. */
    private final Map<String, Long> lastChange = new ConcurrentHashMap<>();
    private long changes;

    @jakarta.inject.Inject
    public GraphRegistry(EngineService engines, FrontierConfig config) {
        this(engines, config, HeapBudget.ofHeap(config.getHeapBudgetFraction()));
        // set aside whatever the graphs: answers in hand and their encoded copies, the producer's buffer, a fetch's records
        budget.reserveAlways(() -> HeapBudget.alwaysReserved(config));
    }

    public GraphRegistry(EngineService engines, FrontierConfig config, HeapBudget budget) {
        this.engines = engines;
        this.config = config;
        this.budget = budget;
        long pendingCap = config.getMaxPendingSnapshotBytes();   // 0: the graph budget bounds the chunks being assembled
        this.decoders = new ChunkDecoders(config.getIngestThreads());
        this.assembler = new SnapshotAssembler(pendingCap > 0 ? pendingCap : budget.limitBytes(), decoders, config.getWideArcsFrom());
        this.applied = new AppliedUpdates(config.getUpdateDedupWindow());
    }

    /**
     * How the last snapshot version installed was made, after its last chunk arrived: ms until its chunks were all
     * decoded and checked (the ingest threads finishing the chunks before it), until the CSR was built, until the
     * engine's copy was made (the device upload on the GPU).
     */
    public record LoadTimes(String graphId, long version, double assembledMs, double builtMs, double residentMs) {}

    /** What a record did to the registry: the version now current (if it changed) and versions abandoned. */
    public record Change(Optional<GraphEntry> installed, List<RejectedException> abandoned) {}

    /**
     * A graph a tombstone dropped: the version it held (-1: it had only a version still being assembled), its
     * partition, and where the tombstone was read ({@code topic-partition@offset}).
     */
    public record Dropped(String graphId, long version, int partition, String backend, String where) {}

    /** A snapshot version dropped incomplete because it grew too old: the graph, where its first chunk was, why. */
    public record Expired(String graphId, int partition, long firstOffset, RejectedException reason) {}

    /**
     * State besides the graphs that a partition's log rebuilds (standing queries): dropped with the partition's
     * graphs, and holding the partition's rebuild start back to the earliest record it still needs.
     */
    public interface PartitionState {
        void dropPartitions(Collection<Integer> partitions);

        /** The earliest offset of {@code partition} this state was built from; Long.MAX_VALUE when none. */
        long earliestOffset(int partition);
    }

    /**
     * Where a graph's checkpoint stands: the offset through which a written checkpoint of the graph's lineage (the
     * first-chunk offset of the snapshot its version grew from) holds it, or -1 when none does. A rebuild then needs
     * the graph's records after that offset only ({@link #rebuildFrom}).
     */
    @FunctionalInterface
    public interface Coverage {
        long coveredThrough(String graphId, long lineage);
    }

    /** Checkpoints cover graphs from now on: see {@link Coverage}. */
    public void cover(Coverage c) {
        this.coverage = c;
    }

    /** Keeps {@code state} in step with the partitions: see {@link PartitionState}. */
    public void attach(PartitionState state) {
        states.add(state);
    }

    public Optional<GraphEntry> get(String graphId) {
        return Optional.ofNullable(graphs.get(graphId));
    }

    public Collection<GraphEntry> all() {
        return List.copyOf(graphs.values());
    }

    /** Why a graph is not (yet) here, for error messages. */
    public String whyUnknown(String graphId) {
        Dropped d = dropped.get(graphId);
        if (d != null && assembler.pendingDescription(graphId).isEmpty()) {
            return "graph '" + graphId + "' was dropped (the tombstone at " + d.where() + ")";
        }
        return assembler.pendingDescription(graphId)
                .map(p -> "graph '" + graphId + "' has no complete version on this worker yet: " + p)
                .orElse("graph '" + graphId + "' is unknown: no snapshot for it has been published to its partition");
    }

    public Change acceptChunk(GraphSnapshotChunk chunk, int partition) {
        return acceptChunk(chunk, partition, -1);
    }

    public Change acceptChunk(GraphSnapshotChunk chunk, int partition, long offset) {
        return acceptChunk(chunk, partition, offset, System.currentTimeMillis());
    }

    /**
     * Accepts a snapshot chunk read at {@code offset} of {@code partition}, published at {@code timestampMs}. The
     * first chunk of a version is admitted only when the version, by the sizes its header declares, fits the heap
     * budget beside what is held; the complete version is checked again before it is built. A version refused as
     * GRAPH_TOO_LARGE is refused once: its later chunks (same version, same header) change nothing and report nothing
     * (counted by {@link #refusedChunks()}), until another version of the graph arrives.
     */
    public synchronized Change acceptChunk(GraphSnapshotChunk chunk, int partition, long offset, long timestampMs) {
        String graphId = chunk.getGraphId();
        Refused r = refused.get(graphId);
        if (r != null && r.sameVersion(chunk)) {
            refusedChunks.incrementAndGet();
            return new Change(Optional.empty(), List.of());
        }
        if (r != null && chunk.getVersion() >= r.version()) refused.remove(graphId);
        try {
            return admit(chunk, partition, offset, timestampMs);
        } catch (RejectedException e) {
            if (e.code() == ErrorCode.GRAPH_TOO_LARGE && graphId != null) refused.put(graphId, Refused.of(chunk, partition));
            throw e;
        }
    }

    /** The stages of the last snapshot version installed; empty before the first. */
    public Optional<LoadTimes> lastLoad() { return Optional.ofNullable(lastLoad); }

    /** Snapshot chunks of refused versions dropped without a word after the version's one refusal. */
    public long refusedChunks() { return refusedChunks.get(); }

    private Change admit(GraphSnapshotChunk chunk, int partition, long offset, long timestampMs) {
        GraphEntry current = graphs.get(chunk.getGraphId());
        if (current != null && chunk.getVersion() <= current.version()) {
            throw new RejectedException(ErrorCode.STALE_VERSION, "snapshot version " + chunk.getVersion() + " of graph '"
                    + chunk.getGraphId() + "' is not newer than the current version " + current.version());
        }
        if (chunk.getVertexCount() > config.getMaxVertices() || chunk.getEdgeCount() > config.getMaxEdges()) {
            throw new RejectedException(ErrorCode.GRAPH_TOO_LARGE, "graph '" + chunk.getGraphId() + "' version " + chunk.getVersion()
                    + " has " + chunk.getVertexCount() + " vertices and " + chunk.getEdgeCount()
                    + " edges; this worker accepts at most " + config.getMaxVertices() + " and " + config.getMaxEdges()
                    + " (frontier.max-vertices / frontier.max-edges)");
        }
        if (!assembler.isPending(chunk.getGraphId(), chunk.getVersion())) {
            long edges = chunk.getEdgeCount();
            budget.require("graph '" + chunk.getGraphId() + "' version " + chunk.getVersion() + " (" + chunk.getVertexCount()
                            + " vertices, " + edges + " edges)",
                    HeapBudget.buildBytes(chunk.getVertexCount(), edges, chunk.getDirected()), heldBytes());
        }
        long t0 = System.nanoTime();
        SnapshotAssembler.Outcome outcome = assembler.accept(chunk, partition, offset, timestampMs);
        if (outcome.complete().isEmpty()) return new Change(Optional.empty(), outcome.abandoned());
        SnapshotAssembler.Assembled a = outcome.complete().get();
        try {
            budget.require("graph '" + a.graphId() + "' version " + a.version(), a.graph().projectedPeakBytes(), heldBytes());
            long t1 = System.nanoTime();
            CsrGraph graph = build(a);
            long t2 = System.nanoTime();
            GraphEntry entry = new GraphEntry(a.graphId(), a.version(), partition, a.firstVertexId(), engines.load(graph),
                    a.firstOffset(), a.names());
            swapIn(entry);
            lastLoad = new LoadTimes(entry.graphId(), entry.version(), (t1 - t0) / 1e6, (t2 - t1) / 1e6, (System.nanoTime() - t2) / 1e6);
            LOG.info("graph {} version {} loaded: {} vertices, {} edges on {} (last chunk assembled in {} ms, built in {} ms, "
                    + "made resident in {} ms)", LogSafe.quote(entry.graphId()), entry.version(), entry.vertexCount(), entry.edgeCount(),
                    entry.resident().backend(), millis(t1 - t0), millis(t2 - t1), millis(System.nanoTime() - t2));
            return new Change(Optional.of(entry), outcome.abandoned());
        } catch (RejectedException e) {
            outcome.abandoned().forEach(e::addSuppressed);  // the abandoned older version is still reported
            throw e;
        }
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private static CsrGraph build(SnapshotAssembler.Assembled a) {
        try {
            return a.graph().build();
        } catch (InvalidGraphException e) {
            throw new RejectedException(ErrorCode.of(e), "version " + a.version() + " of graph '" + a.graphId() + "' rejected: "
                    + e.getMessage(), e);
        }
    }

    public GraphEntry applyUpdate(GraphUpdate u, int partition) {
        return applyUpdate(u, partition, false);
    }

    /**
     * Applies an update to the graph's current version, giving version + 1. An update whose {@code updateId} is among
     * the last {@code frontier.update-dedup-window} ids applied to the graph is a retry: refused with
     * DUPLICATE_UPDATE (naming the version it produced), the graph unchanged. A replay (rebuilding the partition)
     * goes through the same checks, so it refuses the same duplicates and refills the window; {@code replay} only
     * keeps its refusals out of {@link #duplicateUpdates()}.
     */
    public synchronized GraphEntry applyUpdate(GraphUpdate u, int partition, boolean replay) {
        GraphEntry current = graphs.get(u.getGraphId());
        if (current == null) throw new RejectedException(ErrorCode.UNKNOWN_GRAPH, "update for " + whyUnknown(u.getGraphId()));
        Optional<AppliedUpdates.Applied> earlier = applied.find(u.getGraphId(), u.getUpdateId());
        if (earlier.isPresent()) {
            applied.refused(u.getGraphId(), u.getUpdateId());
            changed(u.getGraphId());
            if (!replay) duplicateUpdates.incrementAndGet();
            throw new RejectedException(ErrorCode.DUPLICATE_UPDATE, "update '" + u.getUpdateId() + "' of graph '"
                    + u.getGraphId() + "' was applied already, as version " + earlier.get().version()
                    + "; not applied again (the current version " + current.version() + " is kept)");
        }
        if (u.getBaseVersion() != null && u.getBaseVersion() != current.version()) {
            throw new RejectedException(ErrorCode.STALE_VERSION, "update" + (u.getUpdateId() == null ? "" : " '" + u.getUpdateId() + "'")
                    + " of graph '" + u.getGraphId() + "' expects base version " + u.getBaseVersion()
                    + " but the current version is " + current.version());
        }
        int first = current.firstVertexId();
        MutableGraph graph = current.resident().mutable();
        NamedUpdates.Resolved named = NamedUpdates.resolve(u, current);
        try {
            EdgeEdits edits = edits(named.update(), first);
            if (!edits.reweightsOnly()) {
                // a structural change is merged into a new CSR before the next query, beside the current one
                budget.require("update of graph '" + u.getGraphId() + "'", HeapBudget.mergeBytes(
                        graph.vertexCount() + edits.addedVertices(), graph.edgeCount() + edits.addU().length,
                        graph.directed()) + 64L * edits.addU().length, heldBytes());
            }
            graph.apply(edits, first, config.getMaxEdges());
        } catch (InvalidGraphException e) {
            throw new RejectedException(ErrorCode.of(e), "update of graph '" + u.getGraphId() + "' rejected, version "
                    + current.version() + " kept: " + e.getMessage()
                    + (e.kind() == InvalidGraphException.Kind.TOO_LARGE ? " (frontier.max-edges)" : ""), e);
        }
        named.applied(current);
        GraphEntry entry = new GraphEntry(current.graphId(), current.version() + 1, partition, first,
                current.resident(), current.snapshotOffset(), current.names());
        graphs.put(entry.graphId(), entry);
        applied.applied(entry.graphId(), u.getUpdateId(), entry.version());
        changed(entry.graphId());
        return entry;
    }

    /**
     * The graph's current entry with its backend copy brought up to date with the updates applied since the last
     * query (one step for all of them). A graph that grew beyond the GPU's free memory moves to the CPU engine when
     * {@code frontier.gpu-fallback-to-cpu} allows (a WARN and {@link #gpuFallbacks()}), else the query is refused
     * with GRAPH_TOO_LARGE and the graph stays held on the host.
     */
    public synchronized GraphEntry synced(GraphEntry e) {
        try {
            e.resident().sync();
            return e;
        } catch (GraphTooLargeException x) {
            if (!engines.mayMoveToCpu(e.resident().graph())) throw new RejectedException(ErrorCode.GRAPH_TOO_LARGE, x.getMessage(), x);
            LOG.warn("graph {} version {} outgrew the {} engine ({}); holding it on the CPU engine instead "
                    + "(frontier.gpu-fallback-to-cpu=true)", LogSafe.quote(e.graphId()), e.version(), e.resident().backend(), x.getMessage());
            gpuFallbacks.incrementAndGet();
            GraphEntry moved = new GraphEntry(e.graphId(), e.version(), e.partition(), e.firstVertexId(),
                    engines.onCpu(e.resident()), e.snapshotOffset(), e.names());
            graphs.put(moved.graphId(), moved);
            e.resident().close();
            return moved;
        }
    }

    /** Graphs moved from the GPU to the CPU engine because they outgrew the device after updates. */
    public long gpuFallbacks() { return gpuFallbacks.get(); }

    /** Updates refused as DUPLICATE_UPDATE when read live (not in replays). */
    public long duplicateUpdates() { return duplicateUpdates.get(); }

    /** Update ids held in the graphs' deduplication windows. */
    public synchronized long dedupWindowIds() { return applied.size(); }

    /**
     * Where a rebuild of {@code partition} must start reading: the earliest offset its graphs need (for a graph a
     * checkpoint holds, the record after the offset it covers; else the first chunk of the snapshot it grew from), of
     * the versions still being assembled and of the records attached states still need (standing queries, see
     * {@link PartitionState}); {@code nothingBefore} when it holds none (0 when an offset is unknown). Records before
     * it only describe versions that were superseded, or are in checkpoints.
     */
    public synchronized long rebuildFrom(int partition, long nothingBefore) {
        long min = assembler.earliestPendingOffset(partition);
        for (PartitionState s : states) min = Math.min(min, s.earliestOffset(partition));
        min = Math.min(min, applied.earliestOffset(partition));   // a previous snapshot whose update ids are still held
        for (GraphEntry e : graphs.values()) {
            if (e.partition() != partition) continue;
            long covered = coverage.coveredThrough(e.graphId(), e.snapshotOffset());
            min = Math.min(min, covered >= 0 ? covered + 1 : e.snapshotOffset() < 0 ? 0 : e.snapshotOffset());
        }
        if (min < 0) return 0;
        return min == Long.MAX_VALUE ? nothingBefore : min;
    }

    /**
     * Drops {@code graphId} for a tombstone (a record of its key with no value) read at {@code where} of
     * {@code partition}: its current version is freed (host copy and device memory), its versions still being
     * assembled and its deduplication window are forgotten, and it no longer holds its partition's rebuild start.
     * Empty when this worker holds nothing of the graph. Subscriptions of the graph end at the next flush (their
     * graph is unknown). The one way a graph leaves the registry other than a revoked partition.
     */
    public synchronized Optional<Dropped> drop(String graphId, int partition, String where) {
        GraphEntry current = graphs.remove(graphId);
        boolean pending = assembler.pendingDescription(graphId).isPresent();
        assembler.forget(List.of(graphId));
        applied.forget(graphId);
        refused.remove(graphId);   // a version published again after the tombstone is considered afresh
        if (current == null && !pending) return Optional.empty();
        if (current != null) current.resident().close();
        Dropped d = new Dropped(graphId, current == null ? -1 : current.version(), partition,
                current == null ? "" : current.backend(), where);
        dropped.put(graphId, d);
        LOG.info("graph {} dropped by the tombstone at {} (version {})", LogSafe.quote(graphId), where, d.version());
        return Optional.of(d);
    }

    /** The tick of the graph's last change (a version applied or installed, its window's ids moved); 0: none seen. */
    public long lastChange(String graphId) {
        return lastChange.getOrDefault(graphId, 0L);
    }

    private synchronized void changed(String graphId) {
        lastChange.put(graphId, ++changes);
    }

    /** Whether a version of the graph is being assembled (its chunks are in no checkpoint of the graph). */
    public synchronized boolean assembling(String graphId) {
        return assembler.pendingDescription(graphId).isPresent();
    }

    /** The graph's deduplication window, oldest id first, as a checkpoint carries it. */
    public synchronized List<WindowEntry> window(String graphId) {
        return applied.export(graphId);
    }

    /**
     * A checkpoint of the graph's lineage {@code lineage} holds it through {@code covered} (written and acknowledged):
     * the ids of its window are refilled from the checkpoint from now on, so they hold the partition's rebuild start
     * at {@code covered + 1} at most, no longer at the snapshots they were applied on.
     */
    public synchronized void checkpointed(String graphId, long lineage, long covered) {
        GraphEntry e = graphs.get(graphId);
        if (e != null && e.snapshotOffset() == lineage) applied.repin(graphId, covered + 1);
    }

    /**
     * Installs a graph read back from a checkpoint (as a rebuild does, before it replays what follows the checkpoint):
     * built and made resident like a snapshot, its window restored, its lineage the checkpoint's. Budget checks as a
     * snapshot's; {@code names} null for an unnamed graph. @throws RejectedException when it does not fit or its edges
     * or names are invalid
     */
    public synchronized GraphEntry restore(String graphId, long version, int partition, int firstVertexId, CsrAssembly chunks,
                                           String[] names, long lineage, long covered, List<WindowEntry> window) {
        budget.require("graph '" + graphId + "' version " + version + " from its checkpoint", chunks.projectedPeakBytes(),
                heldBytes());
        VertexNameTable table = names == null ? null
                : VertexNameTable.of(names, "checkpoint of version " + version + " of graph '" + graphId + "'");
        CsrGraph graph = build(new SnapshotAssembler.Assembled(graphId, version, firstVertexId, chunks, lineage, table));
        GraphEntry entry = new GraphEntry(graphId, version, partition, firstVertexId, engines.load(graph), lineage, table);
        swapIn(entry);
        applied.restore(graphId, window, covered + 1);
        return entry;
    }

    /** Drops the graphs of partitions this worker no longer owns and frees their memory. */
    public synchronized List<GraphEntry> dropPartitions(Collection<Integer> partitions) {
        List<GraphEntry> dropped = new ArrayList<>();
        for (GraphEntry e : List.copyOf(graphs.values())) {
            if (partitions.contains(e.partition())) {
                graphs.remove(e.graphId());
                lastChange.remove(e.graphId());
                e.resident().close();
                dropped.add(e);
            }
        }
        assembler.forget(dropped.stream().map(GraphEntry::graphId).toList());
        assembler.forgetPartitions(partitions);  // also versions of graphs that have none complete yet
        applied.dropPartitions(partitions);      // refilled by the rebuild's replay
        refused.values().removeIf(r -> partitions.contains(r.partition()));
        for (PartitionState s : states) s.dropPartitions(partitions);
        this.dropped.values().removeIf(d -> partitions.contains(d.partition()));
        if (!dropped.isEmpty()) LOG.info("dropped {} graph(s) of revoked partitions {}", dropped.size(), partitions);
        return dropped;
    }

    public long residentBytes(String backend) {
        return graphs.values().stream().filter(e -> e.resident().backend().equals(backend))
                .mapToLong(e -> e.resident().residentBytes()).sum();
    }

    public int size() { return graphs.size(); }

    public long pendingSnapshotBytes() { return assembler.pendingBytes(); }

    /**
     * Heap held for graphs: the host copy of every version held (GPU-resident ones keep one too) with the caches its
     * queries build ({@link #cacheBytes}), pending snapshots and the update ids of the deduplication windows.
     */
    public synchronized long heldBytes() {
        return assembler.pendingBytes() + applied.bytes() + graphBytes();
    }

    /** Heap held by the graphs themselves and their query caches. */
    public synchronized long graphBytes() {
        long held = 0;
        for (GraphEntry e : graphs.values()) held += e.resident().mutable().bytes() + cacheBytes(e) + (e.names() == null ? 0 : e.names().bytes());
        return held;
    }

    /**
     * What a graph's queries may cache beside it, counted from its load on (so a query never finds the heap taken):
     * the transpose of a directed graph (its CSR again), the undirected edge list MST reads (16 bytes an edge).
     */
    static long cacheBytes(GraphEntry e) {
        MutableGraph g = e.resident().mutable();
        return HeapBudget.cacheBytes(g.bytes(), e.edgeCount(), g.directed());
    }

    /** The memory model: the heap budget shared by graphs, pending snapshots, standing answers and fixed reserves. */
    public HeapBudget budget() {
        return budget;
    }

    /** Reserves heap for a standing answer beside what is held; false when it does not fit. */
    public boolean tryReserveStanding(long bytes) {
        return budget.tryReserveStanding(bytes, heldBytes());
    }

    /**
     * Drops the pending snapshot versions of the partitions {@code partitions} accepts whose first chunk was published
     * more than {@code frontier.pending-snapshot-ttl} before {@code nowMs} (the time of the record being read, or the
     * clock): a version that never completes frees its buffer, and a partition's rebuild no longer starts at it.
     */
    public synchronized List<Expired> expirePending(IntPredicate partitions, long nowMs) {
        if (assembler.pendingBytes() == 0) return List.of();
        List<Expired> expired = new ArrayList<>();
        assembler.expire(partitions, nowMs - config.getPendingSnapshotTtl().toMillis(),
                "within frontier.pending-snapshot-ttl (" + config.getPendingSnapshotTtl() + ") of its first chunk",
                (graphId, partition, firstOffset, reason) -> expired.add(new Expired(graphId, partition, firstOffset, reason)));
        return expired;
    }

    private void swapIn(GraphEntry entry) {
        GraphEntry old = graphs.put(entry.graphId(), entry);
        if (old != null) old.resident().close();
        dropped.remove(entry.graphId());
        applied.installed(entry.graphId(), entry.partition(), entry.snapshotOffset());
        changed(entry.graphId());
    }

    private record Ids(int[] u, int[] v, double[] w) {}

    /** An update's edits in 0-based ids. */
    private static EdgeEdits edits(GraphUpdate u, int first) {
        Ids removed = ids("removed", u.getRemoved(), first, false);
        Ids reweighted = ids("reweighted", u.getReweighted(), first, true);
        Ids added = ids("added", u.getAdded(), first, true);
        return new EdgeEdits(u.getAddedVertexCount(), removed.u, removed.v, reweighted.u, reweighted.v, reweighted.w,
                added.u, added.v, added.w);
    }

    /** An update's edge batch unpacked into 0-based ids (weights 1 when it has none); checks its arrays' lengths. */
    private static Ids ids(String name, EdgeBatch b, int first, boolean weighted) {
        if (b == null) return new Ids(new int[0], new int[0], new double[0]);
        int[] us, vs;
        double[] ws;
        try {
            us = PackedArrays.toIntArray(b.getSources());
            vs = PackedArrays.toIntArray(b.getTargets());
            ws = weighted ? PackedArrays.toDoubleArray(b.getWeights()) : new double[0];
        } catch (PackedArrays.MalformedArrayException e) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE, "edge batch '" + name + "' is malformed: "
                    + e.getMessage() + " (sources " + b.getSources().remaining() + ", targets " + b.getTargets().remaining()
                    + ", weights " + b.getWeights().remaining() + " bytes)");
        }
        int m = us.length;
        if (vs.length != m || (weighted && ws.length != 0 && ws.length != m)) {
            throw new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE, "edge batch '" + name
                    + "': sources, targets and weights differ in length (" + m + ", " + vs.length + ", " + ws.length + ")");
        }
        for (int i = 0; i < m; i++) {
            us[i] -= first;
            vs[i] -= first;
        }
        if (weighted && ws.length == 0) {
            ws = new double[m];
            Arrays.fill(ws, 1.0);
        }
        return new Ids(us, vs, ws);
    }

    @Override
    @PreDestroy
    public synchronized void close() {
        graphs.values().forEach(e -> e.resident().close());
        graphs.clear();
        assembler.forgetAll();
        applied.clear();
        dropped.clear();
        refused.clear();
        decoders.close();
    }
}
