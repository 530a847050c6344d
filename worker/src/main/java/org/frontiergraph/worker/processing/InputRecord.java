package org.frontiergraph.worker.processing;

/**
 * One record of the graphs topic, as the listener hands it over (no Kafka types past the adapter); {@code polledNanos}:
 * when the poll that fetched it returned ({@link System#nanoTime}), or -1 where no poll did (a checkpoint's record).
 */
public record InputRecord(String topic, int partition, long offset, String key, byte[] value, long timestampMs, long polledNanos) {
    /** A record no poll fetched. */
    public InputRecord(String topic, int partition, long offset, String key, byte[] value, long timestampMs) {
        this(topic, partition, offset, key, value, timestampMs, -1);
    }

    public String where() {
        return topic + "-" + partition + "@" + offset;
    }
}
