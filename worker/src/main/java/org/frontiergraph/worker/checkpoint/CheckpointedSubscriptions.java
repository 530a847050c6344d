package org.frontiergraph.worker.checkpoint;

import java.util.List;
import org.frontiergraph.worker.registry.GraphRegistry;

/**
 * The standing queries a checkpoint carries with its graph (docs/contract.md, "Checkpoints"): the worker's live
 * subscriptions of the graph, each as the record that registered it was published, so a rebuild installs them as a
 * replay of those records would, and the records themselves are no longer needed (a live subscription no longer holds
 * its partition's rebuild start). Implemented by the subscription service.
 */
public interface CheckpointedSubscriptions {
    /**
     * A subscription as a checkpoint carries it: its graph, the graphs-topic offset of the record that registered it
     * (its error events name it), and that record as published (single-object encoded {@code Subscription}).
     */
    record Carried(String graphId, long offset, byte[] record) {}

    /** The graph's live subscriptions, in the order they were registered (replacements last). */
    List<Carried> carried(String graphId);

    /** A tick that changes whenever the graph's set of subscriptions changes (one registered, replaced, ended). */
    long lastChange(String graphId);

    /**
     * From now on, a subscription whose record lies at or before the offset through which {@code c} holds its graph's
     * current lineage is in a checkpoint: it no longer holds its partition's rebuild start.
     */
    void cover(GraphRegistry.Coverage c);
}
