package org.frontiergraph.worker.processing;

/** One record of the graphs topic, as the listener hands it over (no Kafka types past the adapter). */
public record InputRecord(String topic, int partition, long offset, String key, byte[] value, long timestampMs) {
    public String where() {
        return topic + "-" + partition + "@" + offset;
    }
}
