package org.frontiergraph.worker.config;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * Topic names and the settings the worker creates them with ({@code frontier.topics.*}). See docs/contract.md.
 */
@ConfigurationProperties("frontier.topics")
public class TopicsConfig {
    /** Snapshots, updates and queries, keyed by graph id: one log per graph gives per-graph ordering. */
    private String graphs = "frontier.graphs";
    private String results = "frontier.results";
    private String latency = "frontier.latency";
    private String errors = "frontier.errors";
    private String status = "frontier.graph-status";
    /**
     * Checkpoints of the resident graphs (compacted, partitioned as the graphs topic; docs/contract.md,
     * "Checkpoints"): a worker's own, read back when it is assigned a partition.
     */
    private String checkpoints = "frontier.checkpoints";
    /** Partitions of the graphs topic: the unit of scale-out (each worker owns whole partitions). */
    private int partitions = 6;
    /**
     * Copies of each partition the worker creates its topics with: 1 suits the embedded single-node broker and a
     * development cluster; a production cluster wants 3 (deploy/k8s sets it), and one that enforces a minimum refuses
     * fewer.
     */
    private short replicationFactor = 1;
    /**
     * {@code min.insync.replicas} of the topics the worker creates (with the producers' {@code acks=all}, a write
     * succeeds only once this many copies have it); 0 leaves the broker's default. At most the replication factor.
     */
    private int minInsyncReplicas = 0;
    /**
     * Retention of the graphs topic. -1 (forever) lets a worker rebuild any graph from the log; a finite retention
     * needs checkpoints ({@code frontier.checkpoints}, retention >= their interval) or publishers that re-send a
     * snapshot within it.
     */
    private long graphsRetentionMs = -1;
    /** Retention of the output topics. */
    private long outputRetentionMs = 7L * 24 * 3600 * 1000;
    /** Largest record the topics accept (Kafka's default, about 1 MB); snapshots and results are chunked under it. */
    private int maxMessageBytes = 1_048_588;
    /** Create missing topics at start-up. */
    private boolean create = true;

    public String getGraphs() { return graphs; }
    public void setGraphs(String graphs) { this.graphs = graphs; }
    public String getResults() { return results; }
    public void setResults(String results) { this.results = results; }
    public String getLatency() { return latency; }
    public void setLatency(String latency) { this.latency = latency; }
    public String getErrors() { return errors; }
    public void setErrors(String errors) { this.errors = errors; }
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
    public String getCheckpoints() { return checkpoints; }
    public void setCheckpoints(String checkpoints) { this.checkpoints = checkpoints; }
    public int getPartitions() { return partitions; }
    public void setPartitions(int partitions) { this.partitions = partitions; }
    public short getReplicationFactor() { return replicationFactor; }
    public void setReplicationFactor(short replicationFactor) { this.replicationFactor = replicationFactor; }
    public int getMinInsyncReplicas() { return minInsyncReplicas; }
    public void setMinInsyncReplicas(int v) { this.minInsyncReplicas = v; }
    public long getGraphsRetentionMs() { return graphsRetentionMs; }
    public void setGraphsRetentionMs(long v) { this.graphsRetentionMs = v; }
    public long getOutputRetentionMs() { return outputRetentionMs; }
    public void setOutputRetentionMs(long v) { this.outputRetentionMs = v; }
    public int getMaxMessageBytes() { return maxMessageBytes; }
    public void setMaxMessageBytes(int v) { this.maxMessageBytes = v; }
    public boolean isCreate() { return create; }
    public void setCreate(boolean create) { this.create = create; }
}
