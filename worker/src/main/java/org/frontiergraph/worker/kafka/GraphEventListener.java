package org.frontiergraph.worker.kafka;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.worker.checkpoint.Checkpointer;
import org.frontiergraph.worker.metrics.FrontierMetrics;
import org.frontiergraph.worker.processing.AnsweredQuery;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka adapter of the graphs topic, for one consumer ({@link GraphConsumer} owns the consumer and its thread).
 * For each polled batch: every record goes through the processor (errors are per record, and it never throws), the
 * outputs are published and acknowledged, and only then are offsets committed (at-least-once; results are
 * idempotent by query id). A stop requested mid-batch ends the batch after the record in hand: what was processed is
 * published and committed, the rest is left to the partition's next owner.
 *
 * <p>When partitions are assigned, or publishing fails, their graphs are rebuilt from the log: {@link PartitionRecovery}
 * decides where each partition resumes and which records are replayed (state only), the listener seeks there. A
 * partition whose committed offset cannot be read (the broker is away) is paused until it can: nothing of it is
 * processed before its graphs are rebuilt. Not thread-safe: it runs on the consumer's thread, which hands the
 * partitions of a poll to {@code frontier.partition-concurrency} tasks and waits for them before it publishes.
 */
final class GraphEventListener implements ConsumerRebalanceListener {
    private static final Logger LOG = LoggerFactory.getLogger(GraphEventListener.class);

    private final Consumer<String, byte[]> consumer;
    private final GraphEventProcessor processor;
    private final OutputPublisher publisher;
    private final FrontierMetrics metrics;
    private final PartitionRecovery recovery;
    /** Checkpoints between polls; null: none. */
    private final CheckpointTicks checkpoints;
    private final String topic;
    private final BooleanSupplier stopping;
    /** {@code frontier.slow-batch-ms}: a batch that takes this long or longer is logged at DEBUG with its steps. */
    private final long slowBatchMs;
    /** Runs the partitions of a poll side by side; null: one after another on this thread. */
    private final ExecutorService partitions;
    /** Partitions assigned to this consumer now. */
    private final Set<TopicPartition> assigned = new LinkedHashSet<>();
    /** Assigned partitions whose rebuild could not start yet (their committed offset was out of reach): paused. */
    private final Set<TopicPartition> awaitingRebuild = new LinkedHashSet<>();
    /**
     * Records polled but left for the next round, per partition (its answers in hand reached {@code
     * frontier.max-batch-answer-bytes}); such a partition is paused ({@link #holding}) until they are processed.
     */
    private final Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> held = new HashMap<>();
    private final Set<TopicPartition> holding = new HashSet<>();
    /** What the partitions of a poll share while they are processed (the answer bytes they hold so far among it). */
    private final PartitionWork.Poll poll;
    /** Per partition: answer bytes per record in its latest poll, which sizes the first run of its next one. */
    private final Map<TopicPartition, Long> answerBytesPerRecord = new HashMap<>();
    /** Whether the group has assigned this consumer anything yet (an empty assignment counts). */
    private boolean joined;
    /**
     * Publishing failures in a row that may pass (the broker away, timeouts; {@link SendFailures}): each rebuilds the
     * partitions in flight after a pause that grows with the count; from {@code frontier.max-publish-failures} on the
     * worker reports itself not live. A batch published resets it.
     */
    private volatile int publishFailures;
    private volatile String lastPublishFailure;

    /** {@code checkpointer} takes checkpoints between polls; a rebuild reads them from {@code checkpoints} (null: none). */
    GraphEventListener(Consumer<String, byte[]> consumer, GraphEventProcessor processor, OutputPublisher publisher,
                       GraphRegistry registry, FrontierMetrics metrics, String topic, BooleanSupplier stopping,
                       ExecutorService partitions, long maxBatchAnswerBytes, int runRecords, long slowBatchMs,
                       Checkpointer checkpointer, CheckpointTopic checkpoints) {
        this.checkpoints = checkpoints == null ? null : new CheckpointTicks(checkpointer);
        this.consumer = consumer;
        this.slowBatchMs = slowBatchMs;
        this.partitions = partitions;
        this.processor = processor;
        this.publisher = publisher;
        this.metrics = metrics;
        this.recovery = checkpoints == null ? new PartitionRecovery(registry, metrics.rebuilds())
                : new PartitionRecovery(registry, metrics.rebuilds(), checkpointer, checkpoints::read);
        this.topic = topic;
        this.stopping = stopping;
        this.poll = new PartitionWork.Poll(processor, recovery, stopping, maxBatchAnswerBytes, runRecords);
    }

    /**
     * Processes one polled batch (after the records the previous one left in hand) and publishes its outputs; then the
     * subscriptions whose answers the batch changed push (published with the batch's outputs). The batch's offsets are committed once the broker acknowledged its
     * outputs ({@link #settle}), which need not happen before the next batch is processed: publishing overlaps with
     * polling and processing, up to {@link #MAX_IN_FLIGHT} batches, and commits follow in batch order.
     */
    void handle(ConsumerRecords<String, byte[]> records) {
        long start = System.currentTimeMillis(), polledNanos = System.nanoTime();
        if (records.isEmpty() && held.isEmpty() && !recovery.hasErrors() && !processor.subscriptionsDue(this::live, start)) {
            settle(false);
            quietCheckpoints();
            return;
        }
        OutputPublisher.Batch batch = publisher.batch();
        Map<TopicPartition, Long> next = new HashMap<>();
        List<AnsweredQuery> answered = new ArrayList<>();
        Set<TopicPartition> touched = new HashSet<>();
        List<PartitionWork> work = new ArrayList<>();
        Set<TopicPartition> polled = new LinkedHashSet<>(held.keySet());
        polled.addAll(records.partitions());
        for (TopicPartition tp : polled) {
            List<ConsumerRecord<String, byte[]>> in = held.remove(tp);   // left by the previous poll: first
            if (in == null) {
                in = records.records(tp);
            } else if (!records.records(tp).isEmpty()) {
                in = new ArrayList<>(in);
                in.addAll(records.records(tp));
            }
            if (awaitingRebuild.contains(tp) || !assigned.contains(tp)) continue;
            work.add(new PartitionWork(poll, tp, in, answerBytesPerRecord.getOrDefault(tp, -1L)));
        }
        long processing = System.nanoTime();
        poll.start(polledNanos);
        PartitionWork.runAll(partitions, work);
        processing = System.nanoTime() - processing;
        List<Outputs> outputs = new ArrayList<>();
        outputs.add(new Outputs(List.of(), recovery.takeErrors(), List.of(), null, List.of()));   // RECORDS_LOST, if any
        for (PartitionWork w : work) {   // outputs in partition order, each partition's in log order
            answerBytesPerRecord.put(w.partition, w.perRecord());
            if (checkpoints != null) checkpoints.applied(w.partition, w.last);
            if (w.stoppedAt >= 0) {   // the rest waits, in hand, for the next round; none of the partition is fetched meanwhile
                held.put(w.partition, w.records.subList(w.stoppedAt, w.records.size()));
                if (holding.add(w.partition)) consumer.pause(List.of(w.partition));
                metrics.pollCut();
                LOG.debug("{}: answers of {} bytes in hand, {} records left for the next round", w.partition, w.answerBytes,
                        w.records.size() - w.stoppedAt);
            } else if (holding.remove(w.partition)) {
                consumer.resume(List.of(w.partition));
            }
            if (w.handled) touched.add(w.partition);
            outputs.addAll(w.outputs);
            answered.addAll(w.answered);
            if (w.next >= 0) next.put(w.partition, w.next);
        }
        batch.addAll(outputs);
        long flushing = System.nanoTime();
        batch.add(processor.flushSubscriptions(this::live, System.currentTimeMillis(), batch::add));
        flushing = System.nanoTime() - flushing;
        // the commits are computed now: the rebuild start they record must describe the graphs as of this batch
        inFlight.add(new InFlight(batch, recovery.commits(next), answered, touched));
        if (checkpoints != null) checkpoints.tick(this::live);
        long settling = System.nanoTime();
        boolean block = stopping.getAsBoolean() || inFlight.size() > MAX_IN_FLIGHT;
        settle(block);
        settling = System.nanoTime() - settling;
        long took = System.currentTimeMillis() - start;
        if (took >= slowBatchMs && LOG.isDebugEnabled()) {
            LOG.debug("batch of {} records took {} ms: processing {} ms, subscriptions {} ms, {} for acknowledgements {} ms", records.count(),
                    took, processing / 1_000_000, flushing / 1_000_000, block ? "waiting" : "checking", settling / 1_000_000);
        }
    }

    /** Batches whose outputs are in flight, oldest first; offsets are committed in this order once acknowledged. */
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    /** Batches processed ahead of their acknowledgements, at most: beyond, the listener waits for the oldest. */
    static final int MAX_IN_FLIGHT = 4;

    /** A processed batch: its outputs' sends, then its queries' latency events, then the commit of its offsets. */
    private static final class InFlight {
        final OutputPublisher.Batch batch;
        final PartitionRecovery.Commits commits;
        final List<AnsweredQuery> answered;
        final Set<TopicPartition> touched;
        boolean latencySent;

        InFlight(OutputPublisher.Batch batch, PartitionRecovery.Commits commits, List<AnsweredQuery> answered,
                 Set<TopicPartition> touched) {
            this.batch = batch;
            this.commits = commits;
            this.answered = answered;
            this.touched = touched;
        }
    }

    /**
     * Whether batches wait for their acknowledgements, or records polled wait in hand: the consumer then polls
     * briefly, to commit the batches soon and go on with the records.
     */
    boolean unsettled() {
        return !inFlight.isEmpty() || !held.isEmpty();
    }

    /**
     * Commits, in order, the batches whose outputs the broker acknowledged (each batch's results first, then its
     * queries' latency events, timed at the results' acknowledgement); with {@code block}, waits for all of them.
     * Publishing that failed rebuilds every partition of the batches still in flight from their committed offsets.
     */
    void settle(boolean block) {
        while (!inFlight.isEmpty()) {
            InFlight f = inFlight.peek();
            if (!block && !f.batch.done()) return;
            try {
                f.batch.await();
                if (!f.latencySent) {
                    f.latencySent = true;
                    if (!f.answered.isEmpty()) {
                        long acknowledged = f.batch.acknowledgedMs() > 0 ? f.batch.acknowledgedMs() : System.currentTimeMillis();
                        for (AnsweredQuery q : f.answered) {   // the end of every answered query's end-to-end time
                            long[] times = f.batch.answerTimes(q.queryId());
                            LatencyEvent latency = q.latencyEvent(acknowledged, times[0], times[1]);
                            f.batch.latency(latency);
                            metrics.query(latency);
                        }
                        if (!block && !f.batch.done()) return;
                        f.batch.await();
                    }
                }
            } catch (Exception e) {
                if (e instanceof InterruptedException) Thread.currentThread().interrupt();
                publishingFailed(e);
                return;
            }
            inFlight.poll();
            publishFailures = 0;
            commit(f.commits, block || inFlight.isEmpty() && stopping.getAsBoolean());
        }
    }

    private void publishingFailed(Exception e) {
        Set<TopicPartition> touched = new HashSet<>();
        for (InFlight f : inFlight) touched.addAll(f.touched);
        touched.retainAll(assigned);
        inFlight.clear();
        int failures = ++publishFailures;
        lastPublishFailure = e.toString();
        long pauseMs = Math.min(MAX_PUBLISH_BACKOFF_MS, 100L << Math.min(10, failures - 1));
        LOG.error("publishing outputs failed ({}; {} in a row); rebuilding partitions {} from their committed offsets after {} ms",
                e.toString(), failures, touched, pauseMs);
        pause(pauseMs);
        for (TopicPartition tp : assigned) {   // pushes of the other partitions were lost too: they push complete
            if (!touched.contains(tp) && live(tp.partition())) processor.rebuilt(tp.partition());
        }
        rebuild(touched);
    }

    /** The longest pause before publishing again after a failure that may pass. */
    static final long MAX_PUBLISH_BACKOFF_MS = 5_000;

    /** Sleeps up to {@code ms}, less when the worker is stopping. */
    private void pause(long ms) {
        long until = System.nanoTime() + ms * 1_000_000L;
        try {
            while (!stopping.getAsBoolean() && System.nanoTime() < until) Thread.sleep(Math.min(50, ms));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Publishing failures (that may pass) in a row, and the last one; 0 and null once a batch is published. */
    int publishFailures() {
        return publishFailures;
    }

    String lastPublishFailure() {
        return publishFailures == 0 ? null : lastPublishFailure;
    }

    /**
     * Drops the pending snapshot versions of live partitions (assigned, rebuilt) that outlived their TTL by the clock,
     * publishes their error events and commits the partitions' positions again, so the commit's rebuild start no
     * longer points at them.
     */
    void expirePending(long nowMs) {
        Set<Integer> live = new HashSet<>();
        for (TopicPartition tp : assigned) if (!awaitingRebuild.contains(tp) && !replaying(tp)) live.add(tp.partition());
        if (live.isEmpty()) return;
        Outputs out = processor.expirePending(topic, live::contains, nowMs);
        if (out.isEmpty()) return;
        settle(true);   // it commits the consumer's positions: everything before them must be acknowledged
        OutputPublisher.Batch batch = publisher.batch();
        batch.add(out);
        try {
            batch.await();
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            LOG.warn("publishing the error events of expired snapshots failed ({}); the commit will carry the expiry", e.toString());
            return;
        }
        try {
            Map<TopicPartition, Long> positions = new HashMap<>();
            for (var e : out.errors()) {
                TopicPartition tp = new TopicPartition(topic, e.getPartition());
                if (assigned.contains(tp)) positions.put(tp, consumer.position(tp));
            }
            commit(recovery.commits(positions));
        } catch (WakeupException e) {
            if (!stopping.getAsBoolean()) throw e;
        } catch (RuntimeException e) {
            LOG.warn("cannot commit after expiring snapshots ({}); the next commit will", e.toString());
        }
    }

    private void commit(PartitionRecovery.Commits commits) {
        commit(commits, true);
    }

    /** A poll without records: checkpoints due are taken; after one, quiet partitions are committed again ({@link CheckpointTicks}). */
    private void quietCheckpoints() {
        if (checkpoints != null) checkpoints.tick(this::live);
        if (checkpoints == null || !inFlight.isEmpty() || !held.isEmpty() || stopping.getAsBoolean()) return;
        try {
            Map<TopicPartition, Long> positions = checkpoints.toRecommit(consumer, assigned, this::live);
            if (!positions.isEmpty()) commit(recovery.commits(positions), false);
        } catch (RuntimeException e) {   // a wakeup (stopping) or the broker away: the next commit records it
            if (e instanceof WakeupException && !stopping.getAsBoolean()) throw e;
        }
    }

    /**
     * Commits, synchronously when {@code sync} (stopping, a rebalance), else asynchronously (the loop goes on; commits
     * are sent in order, and a later one covers an earlier one that failed). A wakeup (the worker stopping) that
     * lands in a synchronous commit is swallowed and the commit retried once: the outputs were acknowledged, so their
     * offsets should be committed before the consumer leaves. A commit that fails (a rebalance took the partition,
     * the broker is away) only means that those records will be delivered again, here or to the partition's next
     * owner: at-least-once holds, so the worker carries on.
     */
    private void commit(PartitionRecovery.Commits all, boolean sync) {
        if (all.offsets().isEmpty()) return;
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>(all.offsets());
        commits.keySet().retainAll(assigned);
        if (commits.isEmpty()) return;
        PartitionRecovery.Commits done = new PartitionRecovery.Commits(commits, all.stamp());
        if (checkpoints != null) checkpoints.committing(commits.keySet(), all.stamp());
        try {
            if (!sync) {
                Set<TopicPartition> which = commits.keySet();
                consumer.commitAsync(commits, (offsets, e) -> {
                    if (e != null) LOG.warn("commit of {} failed ({}); those records will be delivered again", which, e.toString());
                    else recovery.committed(done);
                });
                return;
            }
            try {
                consumer.commitSync(commits);
            } catch (WakeupException e) {
                consumer.commitSync(commits);
            }
            recovery.committed(done);
        } catch (RuntimeException e) {
            LOG.warn("commit of {} failed ({}); those records will be delivered again", commits.keySet(), e.toString());
        }
    }

    /** Whether {@code partition} is assigned and rebuilt: its records are processed live and its outputs published. */
    private boolean live(int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        return assigned.contains(tp) && !awaitingRebuild.contains(tp) && !replaying(tp);
    }

    /** Tries again to rebuild the partitions whose committed offsets were out of reach. */
    void retryRebuilds() {
        if (awaitingRebuild.isEmpty()) return;
        rebuild(new ArrayList<>(awaitingRebuild));
    }

    /** Whether the group assigned this consumer its partitions and each was rebuilt from the log (replay done). */
    boolean ready() {
        if (!joined || !awaitingRebuild.isEmpty()) return false;
        for (TopicPartition tp : assigned) if (replaying(tp)) return false;
        return true;
    }

    Set<TopicPartition> assigned() { return Set.copyOf(assigned); }

    /** Assigned partitions not yet rebuilt: waiting for their committed offset, or replaying their log. */
    Set<TopicPartition> rebuilding() {
        Set<TopicPartition> out = new LinkedHashSet<>(awaitingRebuild);
        for (TopicPartition tp : assigned) if (replaying(tp)) out.add(tp);
        return out;
    }

    private boolean replaying(TopicPartition tp) {
        return recovery.rebuilding(tp);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        joined = true;
        assigned.addAll(partitions);
        if (!partitions.isEmpty()) rebuild(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        drain();   // what was processed and acknowledged is committed before the partitions go
        forget(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        inFlight.clear();   // no commit can reach the group now: the partitions' next owner repeats those records
        forget(partitions);
    }

    /**
     * Waits for every batch in flight and commits it (the consumer is closing, or partitions are being revoked). Never
     * throws: a batch that cannot be committed is delivered again to the partition's owner.
     */
    void drain() {
        try {
            settle(true);
        } catch (RuntimeException e) {
            LOG.warn("could not commit the batches in flight ({}); their records will be delivered again", e.toString());
            inFlight.clear();
        }
    }

    private void forget(Collection<TopicPartition> partitions) {
        assigned.removeAll(partitions);
        if (checkpoints != null) checkpoints.forget(partitions);
        awaitingRebuild.removeAll(partitions);
        recovery.forget(partitions);
        answerBytesPerRecord.keySet().removeAll(partitions);
        held.keySet().removeAll(partitions);
        holding.removeAll(partitions);
    }

    /**
     * Drops what this worker holds for the partitions and seeks each to where its rebuild starts. Never throws (it
     * runs inside the consumer's rebalance callbacks too): when the committed offsets cannot be read, the partitions
     * are paused and tried again before the next poll.
     */
    private void rebuild(Collection<TopicPartition> partitions) {
        recovery.forget(partitions);
        if (checkpoints != null) checkpoints.forget(partitions);
        held.keySet().removeAll(partitions);   // read again from where the rebuild starts
        holding.removeAll(partitions);
        try {
            List<TopicPartition> fromBeginning = new ArrayList<>();
            for (PartitionRecovery.Resume r : recovery.rebuild(partitions, consumer::committed, consumer::beginningOffsets)) {
                if (r.atBeginning()) fromBeginning.add(r.partition());
                else consumer.seek(r.partition(), r.offset());
            }
            if (!fromBeginning.isEmpty()) consumer.seekToBeginning(fromBeginning);
            recovery.registerSubscriptions(in -> processor.process(in, true), processor::rebuilt);
            awaitingRebuild.removeAll(partitions);
            consumer.resume(partitions);
        } catch (WakeupException e) {
            if (!stopping.getAsBoolean()) throw e;
            awaitingRebuild.addAll(partitions);   // stopping: the next owner rebuilds them
        } catch (RuntimeException e) {
            LOG.warn("cannot rebuild partitions {} yet ({}); they wait, paused, and are tried again", partitions, e.toString());
            awaitingRebuild.addAll(partitions);
            consumer.pause(partitions);
        }
    }
}
