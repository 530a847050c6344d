package org.frontiergraph.worker.checkpoint;

import java.util.List;
import org.frontiergraph.kernels.graph.CsrAssembly;
import org.frontiergraph.worker.registry.WindowEntry;

/**
 * One graph's state as a checkpoint holds it: the version current after the graphs-topic record at {@code offset} of
 * {@code partition} was applied (every record of the partition up to it, none after), the first-chunk offset of the
 * snapshot the version grew from ({@code lineage}), its edges as chunks of a {@link CsrAssembly} (counted
 * as they were read, so the graph is built with the snapshot path's peak, not a whole edge list's)
 * and the graph's deduplication window; {@code names} the vertex names of a named graph (null: unnamed). {@code validThrough} ({@code >= offset}): a later offset up to which the graph
 * was known unchanged (a validity marker), so the state is also the state after that record. {@code slot}: which of
 * the graph's two slots on the checkpoint topic holds it.
 */
public record Checkpoint(String graphId, int partition, int slot, long offset, long validThrough, long version, long lineage,
                         int firstVertexId, CsrAssembly graph, List<WindowEntry> window, String[] names) {
}
