package org.frontiergraph.worker.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.worker.processing.AnsweredQuery;
import org.frontiergraph.worker.processing.GraphEventProcessor;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;

/**
 * The records of one partition in a poll, processed in log order: replayed records one by one (state only),
 * consecutive live ones handed to the processor together, up to {@code frontier.run-records} (it answers a run of queries
 * in one go). Once the answers in hand reach {@code frontier.max-batch-answer-bytes}, the partition's remaining
 * records wait for the next round (the listener holds them), so a poll of thousands of FULL queries does not hold thousands
 * of answers. Partitions share no graph, so their work may run side by side ({@link #runAll}); the shared
 * services it calls (registry, subscriptions, recovery) are thread-safe.
 */
final class PartitionWork implements Callable<Void> {
    /**
     * The first run of a poll takes at most this many records (a bit-parallel BFS pass takes 64 sources): until then
     * nothing tells how large the answers are; later runs take up to {@code frontier.run-records}, weighed after each run.
     */
    static final int FIRST_RUN_RECORDS = 64;

    private final Poll poll;
    final TopicPartition partition;
    final List<ConsumerRecord<String, byte[]>> records;
    final List<Outputs> outputs = new ArrayList<>();
    final List<AnsweredQuery> answered = new ArrayList<>();
    private final List<InputRecord> run = new ArrayList<>();
    /** The offset to commit next (-1: no live record processed), and of the last record applied, replayed or live. */
    long next = -1, last = -1;
    /** The first record left for the next round (-1: none left). */
    int stoppedAt = -1;
    /** Bytes of the answers in {@link #outputs}, and the live records that produced them. */
    long answerBytes;
    int processed;
    /** Answer bytes per record in this partition's previous poll (-1: none yet): sizes the first run. */
    final long perRecordBefore;
    boolean handled;

    PartitionWork(Poll poll, TopicPartition partition, List<ConsumerRecord<String, byte[]>> records, long perRecordBefore) {
        this.poll = poll;
        this.partition = partition;
        this.records = records;
        this.perRecordBefore = perRecordBefore;
    }

    @Override
    public Void call() {
        for (int i = 0; i < records.size(); i++) {
            if (poll.stopping.getAsBoolean()) break;   // the rest goes to the partition's next owner
            if (poll.answerBytes.get() >= poll.maxBatchAnswerBytes) {   // enough answers in hand: the rest waits for the next round
                stoppedAt = i;
                break;
            }
            ConsumerRecord<String, byte[]> r = records.get(i);
            handled = true;
            InputRecord in = new InputRecord(r.topic(), r.partition(), r.offset(), r.key(), r.value(), r.timestamp(), poll.polledNanos);
            if (!poll.recovery.replaying(partition, r.offset())) {
                run.add(in);
                if (run.size() >= runLimit()) processRun();
                continue;
            }
            processRun();
            outputs.add(poll.recovery.covered(partition, r.key(), r.offset(), r.value()) ? poll.processor.replayCovered(in)
                    : poll.processor.process(in, true));
            last = r.offset();
            if (poll.recovery.replayed(partition, r.offset(), r.key(), r.value())) poll.processor.rebuilt(partition.partition());   // the replay's last record
        }
        processRun();
        return null;
    }

    /**
     * The records the current run may take: as many as still fit under the limit at the answer bytes per record
     * seen so far in this poll (before any, in the partition's previous poll, when it had answers), at least one
     * and at most {@code frontier.run-records}; {@link #FIRST_RUN_RECORDS} (or fewer) when nothing was seen yet. Updates and
     * SUMMARY queries weigh next to nothing and run {@code frontier.run-records} at a time; FULL answers come one or a few a
     * run near the limit, so the run that crosses it crosses it by about one answer.
     */
    int runLimit() {
        long perRecord = processed > 0 ? answerBytes / processed : perRecordBefore;
        if (processed == 0 && perRecord <= 0) return Math.min(FIRST_RUN_RECORDS, poll.runRecords);   // a poll of updates says nothing of queries
        if (perRecord == 0) return poll.runRecords;
        long room = Math.max(0, poll.maxBatchAnswerBytes - poll.answerBytes.get());
        return (int) Math.max(1, Math.min(poll.runRecords, room / perRecord));
    }

    /** Answer bytes per record of this poll, for the partition's next one (-1: no live record processed). */
    long perRecord() {
        return processed > 0 ? answerBytes / processed : perRecordBefore;
    }

    private void processRun() {
        if (run.isEmpty()) return;
        for (Outputs out : poll.processor.processAll(run)) {
            outputs.add(out);
            answerBytes += out.answerBytes();
            poll.answerBytes.addAndGet(out.answerBytes());
            if (out.answered() != null) answered.add(out.answered());
        }
        next = run.get(run.size() - 1).offset() + 1;
        last = next - 1;
        processed += run.size();
        run.clear();
    }

    /**
     * Runs each partition's work: side by side on {@code partitions} (the partition threads; null: none) when there
     * is more than one, else here.
     */
    static void runAll(ExecutorService partitions, List<PartitionWork> work) {
        if (partitions == null || work.size() < 2) {
            for (PartitionWork w : work) w.call();
            return;
        }
        List<Future<Void>> running = new ArrayList<>(work.size());
        for (PartitionWork w : work) running.add(partitions.submit(w));
        RuntimeException failure = null;
        for (Future<Void> f : running) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = new IllegalStateException("interrupted while partitions were processed", e);
            } catch (ExecutionException e) {   // the processor never throws: a fault of the worker itself
                Throwable cause = e.getCause();
                failure = cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
            }
        }
        if (failure != null) throw failure;
    }

    /**
     * What the partitions of one poll share: the processor and the recovery (thread-safe), the stop request, the limits,
     * and the answer bytes they produced so far, all together: once these reach {@code frontier.max-batch-answer-bytes}
     * every partition's remaining records wait for the next round, so a burst of FULL queries over many partitions holds
     * no more answers than one partition's would (the memory model reserves that).
     */
    static final class Poll {
        final GraphEventProcessor processor;
        final PartitionRecovery recovery;
        final BooleanSupplier stopping;
        final long maxBatchAnswerBytes;
        /** {@code frontier.run-records}: live records handed to the processor in one run, at most (at least 1). */
        final int runRecords;
        final AtomicLong answerBytes = new AtomicLong();
        /** When the poll returned ({@link System#nanoTime}): the records' pickup time starts there. */
        volatile long polledNanos = -1;

        Poll(GraphEventProcessor processor, PartitionRecovery recovery, BooleanSupplier stopping, long maxBatchAnswerBytes,
             int runRecords) {
            this.processor = processor;
            this.recovery = recovery;
            this.stopping = stopping;
            this.maxBatchAnswerBytes = maxBatchAnswerBytes;
            this.runRecords = runRecords;
        }

        /** A new poll, returned at {@code polledNanos}: nothing produced yet. */
        void start(long polledNanos) {
            answerBytes.set(0);
            this.polledNanos = polledNanos;
        }
    }
}
