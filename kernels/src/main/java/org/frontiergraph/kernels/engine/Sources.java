package org.frontiergraph.kernels.engine;

/**
 * The query of a batch of single-source runs answered together (BFS and SSSP summaries of the queries one poll
 * batch asked): 0-based source vertices, in range (callers validate), repeats allowed; results come back in this
 * order.
 */
public record Sources(int[] vertices) {
    public Sources {
        if (vertices.length == 0) throw new IllegalArgumentException("a batch needs at least one source");
        vertices = vertices.clone();
    }

    public int count() {
        return vertices.length;
    }
}
