package org.frontiergraph.worker.kafka;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.worker.checkpoint.Checkpointer;

/**
 * The listener's side of checkpoints, on the consumer's thread: what each partition applied last (a checkpoint taken
 * now covers up to there), and which commit stamp each partition's last commit carried (a quiet partition is committed
 * again once a newer checkpoint exists, so its rebuild start moves forward without new records).
 */
final class CheckpointTicks {
    private final Checkpointer checkpointer;
    /** Per assigned partition: the last offset whose record was applied (replayed or live). */
    private final Map<TopicPartition, Long> lastApplied = new HashMap<>();
    /** Per assigned partition: the checkpoint stamp its last commit was computed at. */
    private final Map<TopicPartition, Long> commitStamps = new HashMap<>();

    CheckpointTicks(Checkpointer checkpointer) {
        this.checkpointer = checkpointer;
    }

    /** The record at {@code offset} of {@code tp} was applied (the last of its poll). */
    void applied(TopicPartition tp, long offset) {
        if (offset >= 0) lastApplied.put(tp, offset);
    }

    /** Commits computed at {@code stamp} were sent for these partitions. */
    void committing(Set<TopicPartition> partitions, long stamp) {
        partitions.forEach(tp -> commitStamps.merge(tp, stamp, Math::max));
    }

    /** Hands the checkpointer the {@code live} partitions (assigned, rebuilt) with the last offset each applied. */
    void tick(IntPredicate live) {
        Map<Integer, Long> offsets = new HashMap<>();
        lastApplied.forEach((tp, offset) -> {
            if (live.test(tp.partition())) offsets.put(tp.partition(), offset);
        });
        checkpointer.tick(offsets, System.currentTimeMillis());
    }

    /**
     * The positions of the live partitions among {@code assigned} whose last commit predates the newest checkpoint: a
     * checkpoint moves a quiet partition's rebuild start forward only once a commit records it. The caller commits them
     * with nothing in flight (everything before a position is processed and committed).
     */
    Map<TopicPartition, Long> toRecommit(Consumer<?, ?> consumer, Collection<TopicPartition> assigned, IntPredicate live) {
        long stamp = checkpointer.stamp();
        Map<TopicPartition, Long> out = new HashMap<>();
        for (TopicPartition tp : assigned) {
            if (live.test(tp.partition()) && commitStamps.getOrDefault(tp, 0L) < stamp) out.put(tp, consumer.position(tp));
        }
        return out;
    }

    void forget(Collection<TopicPartition> partitions) {
        lastApplied.keySet().removeAll(partitions);
        commitStamps.keySet().removeAll(partitions);
    }
}
