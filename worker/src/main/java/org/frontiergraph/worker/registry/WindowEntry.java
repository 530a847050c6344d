package org.frontiergraph.worker.registry;

/**
 * One update id of a graph's deduplication window ({@code frontier.update-dedup-window}), as a checkpoint carries it:
 * the id, the version its update produced, and whether it was applied on the graph's current snapshot lineage
 * (false: on the lineage the current snapshot replaced, whose ids a new snapshot drops).
 */
public record WindowEntry(String updateId, long version, boolean currentLineage) {}
