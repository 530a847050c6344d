package org.frontiergraph.worker.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/** Typed settings under {@code frontier.*} (application.yml; environment variables such as FRONTIER_BACKEND work too). */
@ConfigurationProperties("frontier")
public class FrontierConfig {
    /** auto, gpu or cpu: the default engine; a query may override it. */
    private String backend = "auto";
    /** When the GPU engine cannot hold a graph (too large), keep it on the CPU engine instead of rejecting it. */
    private boolean gpuFallbackToCpu = true;
    /** Largest graph (vertices) a worker accepts. */
    private int maxVertices = 200_000_000;
    /**
     * Largest graph (edges, as a snapshot declares them) a worker accepts: by default the most a host CSR holds
     * (2^31 - 8: edge ids are 32-bit; beyond 2^31 - 8 arcs it is built in the wide form, 64-bit offsets over pages of
     * arcs), so that the heap budget, not this cap, decides whether a graph fits (kron26: 2^30 edges, 2^31 arcs).
     */
    private long maxEdges = 2_147_483_639L;   // CsrAssembly.MAX_ARCS
    /**
     * Bytes of snapshot chunks a worker buffers while versions are being assembled; 0 (the default): the graph budget
     * ({@code heap-budget-fraction} of the heap), which also counts them, so the heap alone decides how large a snapshot
     * may be in flight.
     */
    private long maxPendingSnapshotBytes = 0;
    /**
     * Threads that decode snapshot chunks and count their arcs, off the consumer thread (the CSR is then laid out by
     * the common pool); 0 (the default): the cores, at most 16; 1: on the consumer thread.
     */
    private int ingestThreads = 0;
    /**
     * A test and diagnostic switch: snapshots of at least this many arcs are built in the wide form (64-bit row
     * offsets, arcs in pages: what a graph of more than 2^31 - 8 arcs needs), so that a small graph takes that path;
     * 0 (the default): only where the arcs exceed one Java array.
     */
    private long wideArcsFrom = 0;
    /** Vertices per result chunk: 60,000 keeps a distances+parents chunk under Kafka's 1 MB default. */
    private int resultChunkVertices = 60_000;
    /** MST edges per result chunk. */
    private int resultChunkEdges = 50_000;
    /** Largest graph (vertices) an APSP query is answered on: the answer is n^2 distances. */
    private int apspMaxVertices = 30_000;
    /** The consumer group every worker of a deployment shares. */
    private String groupId = "frontier-workers";
    /** Identifies this worker in status events (defaults to the host name); when set, also its static group membership. */
    private String workerId;
    /** A snapshot version still incomplete this long after its first chunk was published is dropped (INCOMPLETE_SNAPSHOT). */
    private Duration pendingSnapshotTtl = Duration.ofMinutes(10);
    /** Share of the JVM's maximum heap that graphs, pending snapshots and a version being built may take. */
    private double heapBudgetFraction = 0.7;
    /** How long the group waits for a worker that stopped heartbeating (crashed) before its partitions move. */
    private Duration sessionTimeout = Duration.ofSeconds(6);
    /** How often a worker heartbeats to the group coordinator (a third of the session timeout at most). */
    private Duration heartbeatInterval = Duration.ofSeconds(1);
    /** With a configured worker-id, join the group as a static member (group.instance.id = worker-id). */
    private boolean staticMembership = true;
    /**
     * Records handed to the worker per poll. Many: a stream of small updates is applied, published and committed a
     * poll at a time, so the per-poll costs (publishing, acknowledgement, commit) are shared by many records; a poll
     * of large answers is bounded by {@link #maxBatchAnswerBytes} instead.
     */
    private int maxPollRecords = 10_000;
    /**
     * Bytes of answers (packed arrays) a partition's records of one poll may produce before the worker stops there,
     * publishes them and reads the partition's remaining records again with the next poll: bounds what a burst of
     * FULL queries holds on the heap, however many records a poll has.
     */
    private long maxBatchAnswerBytes = 0;
    /** How long a stopping worker waits for the records in hand to be published and committed. */
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    /**
     * A Kafka client properties file (FRONTIER_KAFKA_CONFIG), the kind Kafka's own tools read with --command-config:
     * its settings (security.protocol, sasl.*, ssl.*) apply to every Kafka client of the worker where {@code kafka.*}
     * does not set the same key.
     */
    private String kafkaConfig;
    /**
     * Partitions of one poll processed at the same time (each in its own task, in log order within the partition;
     * outputs published and offsets committed as before). 1: one after another on the consumer thread. Default: the
     * cores, at most 4.
     */
    private int partitionConcurrency = Math.min(4, Runtime.getRuntime().availableProcessors());
    /**
     * Consecutive live records of a partition handed to the processor together, at most: the SUMMARY queries of a
     * run are answered per graph and algorithm in one engine batch, so a burst spread over several graphs and
     * algorithms gets batches of about this many divided by their number; the answers in hand are weighed after each
     * run ({@link #maxBatchAnswerBytes}). 1,024 by measurement: 12 NY graphs over 6 partitions under a mixed BFS/SSSP
     * burst gave 8,262-9,681 answers/s with 256 and 12,225-12,570 with 1,024 on one H200 (docs/benchmarks.md, "Runs of a
     * mixed burst").
     */
    private int runRecords = 1024;
    /**
     * Update ids remembered per graph: an update whose {@code updateId} is among the last this many applied to its
     * graph is a retry, refused with DUPLICATE_UPDATE (0: no deduplication). About 120 bytes an id plus its characters.
     */
    private int updateDedupWindow = 10_000;
    /** Standing queries one graph may have; a subscription beyond is refused (TOO_MANY_SUBSCRIPTIONS). */
    private int maxSubscriptionsPerGraph = 1_000;
    /**
     * The fraction of incremental repairs of standing answers that are checked against a recompute from scratch
     * (0: none, 1: every one); a mismatch is logged as an ERROR, counted, and the subscription gets the recomputed
     * answer as a RESYNC push.
     */
    private double verifyIncremental = 0.0;
    /**
     * Standing BFS and SSSP answers of a graph held on the GPU keep a tree in device memory
     * ({@code org.frontiergraph.kernels.standing.DeviceTrees}, 12 bytes a vertex each): a batch too large for the host's
     * repair is repaired there, only what changed copied back, instead of recomputed and compared; false: recomputed,
     * as on the CPU engine. (Small batches are repaired on the host either way: there, the host's cores repair many
     * small regions side by side faster than the device repairs them one tree after another.) See docs/benchmarks.md,
     * "Standing trees repaired on the device".
     */
    private boolean standingTreesOnDevice = true;

    public String getBackend() { return backend; }
    public void setBackend(String backend) { this.backend = backend; }
    public boolean isGpuFallbackToCpu() { return gpuFallbackToCpu; }
    public void setGpuFallbackToCpu(boolean v) { this.gpuFallbackToCpu = v; }
    public int getMaxVertices() { return maxVertices; }
    public void setMaxVertices(int maxVertices) { this.maxVertices = maxVertices; }
    public long getMaxEdges() { return maxEdges; }
    public void setMaxEdges(long maxEdges) { this.maxEdges = maxEdges; }
    public long getMaxPendingSnapshotBytes() { return maxPendingSnapshotBytes; }
    public void setMaxPendingSnapshotBytes(long v) { this.maxPendingSnapshotBytes = v; }
    public int getIngestThreads() { return ingestThreads; }
    public void setIngestThreads(int v) { this.ingestThreads = v; }
    public long getWideArcsFrom() { return wideArcsFrom; }
    public void setWideArcsFrom(long v) { this.wideArcsFrom = v; }
    /**
     * Vertices a result chunk holds: {@code frontier.result-chunk-vertices}, or fewer where a chunk of that many would
     * not fit the output producer's {@code max.request.size} ({@link #fitsOneRecord}).
     */
    public int getResultChunkVertices() { return Math.min(resultChunkVertices, fitsOneRecord()); }
    public void setResultChunkVertices(int v) { this.resultChunkVertices = v; }
    /** Edges an MST result chunk holds: {@code frontier.result-chunk-edges}, or fewer, as {@link #getResultChunkVertices}. */
    public int getResultChunkEdges() { return Math.min(resultChunkEdges, fitsOneRecord()); }
    public void setResultChunkEdges(int v) { this.resultChunkEdges = v; }

    /**
     * The output producer's {@code max.request.size} (set at start from the Kafka settings by the publisher; Kafka's
     * default until then): what one published record may take, key and framing included.
     */
    private int outputRecordBytes = 1 << 20;
    public int getOutputRecordBytes() { return outputRecordBytes; }
    public void setOutputRecordBytes(int v) { this.outputRecordBytes = v; }

    /** Bytes an answer record holds beside its arrays, at most: the ids (1 KiB each, bounded on input), the header, framing. */
    public static final int CHUNK_HEADER_BYTES = 8 << 10;
    /** Bytes per vertex or edge of the widest chunk: TARGETS SSSP (vertex, distance, parent), MST (two ends, a weight). */
    public static final int CHUNK_ELEMENT_BYTES = 16;

    /** Elements of the widest kind that fit one output record. */
    private int fitsOneRecord() {
        return Math.max(1, (outputRecordBytes - CHUNK_HEADER_BYTES) / CHUNK_ELEMENT_BYTES);
    }
    public int getApspMaxVertices() { return apspMaxVertices; }
    public void setApspMaxVertices(int v) { this.apspMaxVertices = v; }
    public String getGroupId() { return groupId; }
    public void setGroupId(String groupId) { this.groupId = groupId; }
    public String getWorkerId() { return workerId; }
    public void setWorkerId(String workerId) { this.workerId = workerId; }
    public Duration getPendingSnapshotTtl() { return pendingSnapshotTtl; }
    public void setPendingSnapshotTtl(Duration v) { this.pendingSnapshotTtl = v; }
    public double getHeapBudgetFraction() { return heapBudgetFraction; }
    public void setHeapBudgetFraction(double v) { this.heapBudgetFraction = v; }
    public Duration getSessionTimeout() { return sessionTimeout; }
    public void setSessionTimeout(Duration v) { this.sessionTimeout = v; }
    public Duration getHeartbeatInterval() { return heartbeatInterval; }
    public void setHeartbeatInterval(Duration v) { this.heartbeatInterval = v; }
    public boolean isStaticMembership() { return staticMembership; }
    public void setStaticMembership(boolean v) { this.staticMembership = v; }
    public int getMaxPollRecords() { return maxPollRecords; }
    /**
     * Answer bytes a poll may hold before the rest waits for the next round, and complete pushes a flush may make:
     * {@code frontier.max-batch-answer-bytes}, or (0, the default) a sixteenth of the heap, at most 256 MiB.
     */
    public long getMaxBatchAnswerBytes() {
        return maxBatchAnswerBytes > 0 ? maxBatchAnswerBytes : Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16);
    }
    public void setMaxBatchAnswerBytes(long v) { this.maxBatchAnswerBytes = v; }
    public void setMaxPollRecords(int v) { this.maxPollRecords = v; }
    public Duration getShutdownTimeout() { return shutdownTimeout; }
    public void setShutdownTimeout(Duration v) { this.shutdownTimeout = v; }
    public int getPartitionConcurrency() { return partitionConcurrency; }
    public int getUpdateDedupWindow() { return updateDedupWindow; }
    public void setUpdateDedupWindow(int v) { this.updateDedupWindow = v; }
    public void setPartitionConcurrency(int v) { this.partitionConcurrency = v; }
    public int getRunRecords() { return runRecords; }
    public void setRunRecords(int v) {
        if (v < 1) throw new IllegalArgumentException("frontier.run-records must be at least 1, not " + v);
        this.runRecords = v;
    }
    public int getMaxSubscriptionsPerGraph() { return maxSubscriptionsPerGraph; }
    public void setMaxSubscriptionsPerGraph(int v) { this.maxSubscriptionsPerGraph = v; }
    public double getVerifyIncremental() { return verifyIncremental; }
    public void setVerifyIncremental(double v) { this.verifyIncremental = v; }
    public boolean isStandingTreesOnDevice() { return standingTreesOnDevice; }
    public void setStandingTreesOnDevice(boolean v) { this.standingTreesOnDevice = v; }
    /** The output producer's buffer.memory (set at start from the Kafka settings by the publisher; Kafka's default until then). */
    private long outputBufferBytes = 32L << 20;
    public long getOutputBufferBytes() { return outputBufferBytes; }
    public void setOutputBufferBytes(long v) { this.outputBufferBytes = v; }
    /** The graphs consumer's fetch.max.bytes (set at start from the Kafka settings; Kafka's default until then). */
    private long consumerFetchBytes = 52_428_800L;
    public long getConsumerFetchBytes() { return consumerFetchBytes; }
    public void setConsumerFetchBytes(long v) { this.consumerFetchBytes = v; }
    /** Subscriptions this worker holds at most, over all its graphs. */
    private int maxSubscriptions = 10_000;
    public int getMaxSubscriptions() { return maxSubscriptions; }
    public void setMaxSubscriptions(int v) { this.maxSubscriptions = v; }
    /** The longest minIntervalMs a subscription may ask for (pushes held back longer than this are refused). */
    private long maxMinIntervalMs = 3_600_000L;
    public long getMaxMinIntervalMs() { return maxMinIntervalMs; }
    public void setMaxMinIntervalMs(long v) { this.maxMinIntervalMs = v; }
    /** The most targets a TARGETS-mode subscription may list (each push sends all of them). */
    private int maxSubscriptionTargets = 10_000;
    public int getMaxSubscriptionTargets() { return maxSubscriptionTargets; }
    public void setMaxSubscriptionTargets(int v) { this.maxSubscriptionTargets = v; }
    /** Publishing failures that may pass (the broker away), in a row, from which the worker reports itself not live. */
    private int maxPublishFailures = 10;
    public int getMaxPublishFailures() { return maxPublishFailures; }
    public void setMaxPublishFailures(int v) { this.maxPublishFailures = v; }
    public String getKafkaConfig() { return kafkaConfig; }
    public void setKafkaConfig(String kafkaConfig) { this.kafkaConfig = kafkaConfig; }
    /**
     * One GraphStatus per applied update, instead of one per graph for the updates a worker applies together (the
     * last version's): the behaviour before that batching, kept for A/B measurements (docs/benchmarks.md).
     */
    private boolean statusPerUpdate = false;
    public boolean isStatusPerUpdate() { return statusPerUpdate; }
    public void setStatusPerUpdate(boolean v) { this.statusPerUpdate = v; }
    /**
     * How often the worker publishes its WorkerStatus (readiness, partitions and lag, graphs held) on the status topic
     * ({@code frontier.status-interval}); the live page's cluster view reads them.
     */
    private Duration statusInterval = Duration.ofSeconds(10);
    public Duration getStatusInterval() { return statusInterval; }
    public void setStatusInterval(Duration v) { this.statusInterval = v; }
    /**
     * A poll batch, or a graph's subscription flush, that takes at least this long is logged at DEBUG with its steps
     * ({@code frontier.slow-batch-ms}; 0: every one).
     */
    private long slowBatchMs = 20;
    public long getSlowBatchMs() { return slowBatchMs; }
    public void setSlowBatchMs(long v) { this.slowBatchMs = v; }
    /**
     * A consumer that has not polled for this long has its thread's stack logged (WARN, once per stall), so that a hung
     * worker, which liveness restarts once it has not polled for {@code max.poll.interval.ms}, leaves where it hung in
     * its log ({@code frontier.stall-report}; 0: never).
     */
    private Duration stallReport = Duration.ofSeconds(60);
    public Duration getStallReport() { return stallReport; }
    public void setStallReport(Duration v) { this.stallReport = v; }

    /** The GPU engine's tuning switches ({@code frontier.gpu.*}). */
    private Gpu gpu = new Gpu();
    public Gpu getGpu() { return gpu; }
    public void setGpu(Gpu gpu) { this.gpu = gpu; }

    /**
     * The GPU engine's tuning switches under {@code frontier.gpu.*}, given to the engine when it is opened (defaults
     * that benchmarks chose; docs/operations.md, "GPU engine tuning").
     */
    @ConfigurationProperties("gpu")
    public static class Gpu {
        /** The CUDA device the engine opens. */
        private int device = 0;
        /** Each resident graph on its own CUDA stream and lock; false: one for all. */
        private boolean lanes = true;
        /** Structural updates applied on the device copy (slack-form CSR); false: merged on the host. */
        private boolean editsOnDevice = true;
        /** Free slots a slack row gets at least when laid out. */
        private int slackMin = 4;
        /** And d >> slack-shift for a row of d arcs (3: an eighth). */
        private int slackShift = 3;
        /** Print each device edit's phases to stderr (benchmarks). */
        private boolean editPhases = false;
        /** auto, on or off: asynchronous SSSP on a slack copy bounds each row by its live count. */
        private String ssspLiveBound = "auto";
        public int getDevice() { return device; }
        public void setDevice(int v) { this.device = v; }
        public boolean isLanes() { return lanes; }
        public void setLanes(boolean v) { this.lanes = v; }
        public boolean isEditsOnDevice() { return editsOnDevice; }
        public void setEditsOnDevice(boolean v) { this.editsOnDevice = v; }
        public int getSlackMin() { return slackMin; }
        public void setSlackMin(int v) { this.slackMin = v; }
        public int getSlackShift() { return slackShift; }
        public void setSlackShift(int v) { this.slackShift = v; }
        public boolean isEditPhases() { return editPhases; }
        public void setEditPhases(boolean v) { this.editPhases = v; }
        public String getSsspLiveBound() { return ssspLiveBound; }
        public void setSsspLiveBound(String v) { this.ssspLiveBound = v; }
    }

    private Serialization serialization = new Serialization();
    public Serialization getSerialization() { return serialization; }
    public void setSerialization(Serialization v) { this.serialization = v; }

    /**
     * {@code frontier.serialization.*}: how records are framed, per direction ({@code single-object} or
     * {@code registry}; docs/contract.md, "Framing"). The registry's URL and credentials are Kafka client settings
     * ({@code kafka.schema.registry.url}, {@code kafka.basic.auth.user.info}, or the {@code frontier.kafka-config} file).
     */
    @ConfigurationProperties("serialization")
    public static class Serialization {
        /** What the worker reads: {@code registry} takes both framings (the first byte tells), single-object only that. */
        private String read = "single-object";
        /** What the worker writes: {@code registry} registers each output schema under {@code <topic>-value}. */
        private String write = "single-object";
        public String getRead() { return read; }
        public void setRead(String v) { this.read = v; }
        public String getWrite() { return write; }
        public void setWrite(String v) { this.write = v; }
    }

    private Subscriptions subscriptions = new Subscriptions();
    public Subscriptions getSubscriptions() { return subscriptions; }
    public void setSubscriptions(Subscriptions v) { this.subscriptions = v; }

    private Checkpoints checkpoints = new Checkpoints();
    public Checkpoints getCheckpoints() { return checkpoints; }
    public void setCheckpoints(Checkpoints v) { this.checkpoints = v; }

    /**
     * {@code frontier.checkpoints.*}: each resident graph is written to the checkpoint topic after {@code updates}
     * updates or {@code interval} (whichever first), so a rebuild replays only what follows its checkpoint
     * (docs/operations.md, "Checkpoints"). A graphs topic with a finite retention needs them: retention >= interval.
     */
    @ConfigurationProperties("checkpoints")
    public static class Checkpoints {
        /** false: no checkpoints; a rebuild replays every graph from its snapshot (the log must keep them). */
        private boolean enabled = true;
        /** Updates applied to a graph after which its next checkpoint is due. */
        private long updates = 100_000;
        /** Time after which a changed graph's next checkpoint (an unchanged one's validity marker) is due. */
        private Duration interval = Duration.ofSeconds(60);
        public boolean isEnabled() { return enabled; }
        public void setEnabled(boolean v) { this.enabled = v; }
        public long getUpdates() { return updates; }
        public void setUpdates(long v) { this.updates = v; }
        public Duration getInterval() { return interval; }
        public void setInterval(Duration v) { this.interval = v; }
    }

    private Trees trees = new Trees();
    public Trees getTrees() { return trees; }
    public void setTrees(Trees v) { this.trees = v; }

    /**
     * {@code frontier.subscriptions.*}: when standing answers are repaired on the device (docs/operations.md, "Engine
     * tuning"), and how DELTA pushes are written (docs/contract.md, "Compact arrays").
     */
    @ConfigurationProperties("subscriptions")
    public static class Subscriptions {
        /** Changed arcs from which a batch repairs the standing trees on the GPU first (0: the host always tries first). */
        private int deviceFirstArcs = 1024;
        /** How many times sooner the host gives up on an answer that keeps a tree on the GPU (1: as any other). */
        private int deviceBudgetDivisor = 32;
        /** DELTA pushes carry their vertex lists and arrays in the compact fields (false: the plain packed ones). */
        private boolean compactDelta = true;
        /**
         * The answers a batch's host repairs settled push at once, before the device repairs or the recomputes of the
         * batch's heavy ones (false: every push of the batch after its slowest answer).
         */
        private boolean settledFirst = true;
        /**
         * A flush hands its pushes to the producer smallest first (false: in the subscriptions' order): a push of a few
         * vertices is not read after the 10^5-vertex DELTAs of the same batch.
         */
        private boolean smallFirst = true;
        public boolean isSmallFirst() { return smallFirst; }
        public void setSmallFirst(boolean v) { this.smallFirst = v; }
        public boolean isSettledFirst() { return settledFirst; }
        public void setSettledFirst(boolean v) { this.settledFirst = v; }
        public boolean isCompactDelta() { return compactDelta; }
        public void setCompactDelta(boolean v) { this.compactDelta = v; }
        public int getDeviceFirstArcs() { return deviceFirstArcs; }
        public void setDeviceFirstArcs(int v) { this.deviceFirstArcs = v; }
        public int getDeviceBudgetDivisor() { return deviceBudgetDivisor; }
        public void setDeviceBudgetDivisor(int v) { this.deviceBudgetDivisor = v; }
    }

    /** {@code frontier.trees.*}: the launches of the standing trees' repair on the GPU (docs/operations.md, "Engine tuning"). */
    @ConfigurationProperties("trees")
    public static class Trees {
        /** A group's trees settle in one launch (false: tree by tree). */
        private boolean sideBySide = true;
        /** Blocks per multiprocessor of a group's prepare and finish launches. */
        private int blocksPerSm = 4;
        /** Print each repair's phases to stderr (benchmarks). */
        private boolean phases = false;
        /** The settle's options (the asynchronous SSSP's, e.g. df=256,ahead=16); empty: its defaults. */
        private String settle = "";
        /** Passes in which a lowered vertex takes its old subtree down in the prepare launch (0: the settle walks it). */
        private int shiftPasses = 1;
        public int getShiftPasses() { return shiftPasses; }
        public void setShiftPasses(int v) { this.shiftPasses = v; }
        public boolean isSideBySide() { return sideBySide; }
        public void setSideBySide(boolean v) { this.sideBySide = v; }
        public int getBlocksPerSm() { return blocksPerSm; }
        public void setBlocksPerSm(int v) { this.blocksPerSm = v; }
        public boolean isPhases() { return phases; }
        public void setPhases(boolean v) { this.phases = v; }
        public String getSettle() { return settle; }
        public void setSettle(String v) { this.settle = v; }
    }
}
