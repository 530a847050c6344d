package org.frontiergraph.kernels.engine;

/** The query of a single-source algorithm (BFS, SSSP): the 0-based source vertex, in range (callers validate). */
public record Source(int vertex) {}
