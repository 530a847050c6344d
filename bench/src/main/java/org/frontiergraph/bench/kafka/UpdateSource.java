package org.frontiergraph.bench.kafka;

import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.schema.GraphUpdate;

/**
 * Single-edge updates a run publishes, in order, each valid on the version before it (the worker refuses an invalid
 * one with an error event and keeps its version, so the versions the run expects would be wrong), and the graph
 * each version holds, replayed here to check answers against the CPU engine.
 */
interface UpdateSource {
    /** The next update as a record (the worker's version after it: {@link #version()}). */
    GraphUpdate next(String graphId);

    /** The version the worker holds once every update made so far is applied. */
    long version();

    /** The graph at {@code version} (the starting one plus the updates before it); versions must not go back. */
    CsrGraph graphAt(long version);
}
