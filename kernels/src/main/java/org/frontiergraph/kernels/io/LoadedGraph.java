package org.frontiergraph.kernels.io;

import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;

/**
 * What a loader read: the edges as in the file (0-based ids; self-loops and duplicate edges kept, for
 * {@link GraphBuilder} to drop and merge), how to map ids back, and counts of what the loader saw.
 *
 * @param edges         every edge line of the file, in file order, ids shifted to 0-based
 * @param firstVertexId the user's id of internal vertex 0 (1 for DIMACS and MatrixMarket, 0 for SNAP)
 * @param format        the format the file was read as
 * @param weighted      true when at least one edge carried a weight in the file; false when every weight is the
 *                      default 1 (MatrixMarket {@code pattern}, SNAP with two columns)
 * @param lines         lines read, including comments and blank lines
 * @param commentLines  comment lines skipped (header lines such as {@code p sp} or {@code %%MatrixMarket} not counted)
 * @param blankLines    empty or whitespace-only lines skipped
 * @param selfLoops     edges u -> u seen (kept in {@code edges}; GraphBuilder drops them)
 */
public record LoadedGraph(EdgeList edges, int firstVertexId, GraphFormat format, boolean weighted,
                          long lines, long commentLines, long blankLines, long selfLoops) {

    /** Vertices (internal ids 0..n-1). */
    public int vertexCount() { return edges.vertexCount(); }

    /** Edge lines kept (self-loops and duplicates included). */
    public int edgeCount() { return edges.size(); }

    /** The CSR graph under Frontier's storage policy: self-loops dropped, duplicates merged to the smallest weight. */
    public CsrGraph toCsr() { return GraphBuilder.build(edges); }

    /** The id the file uses for internal vertex {@code internal}. */
    public long userId(int internal) { return (long) internal + firstVertexId; }

    /**
     * The internal id of the file's vertex {@code userId}.
     *
     * @throws IllegalArgumentException when no such vertex exists
     */
    public int internalId(long userId) {
        long v = userId - firstVertexId;
        if (v < 0 || v >= edges.vertexCount()) {
            throw new IllegalArgumentException("vertex " + userId + " outside " + firstVertexId + ".."
                    + ((long) edges.vertexCount() - 1 + firstVertexId));
        }
        return (int) v;
    }
}
