package org.frontiergraph.bench;

import java.util.Arrays;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.jgrapht.Graph;
import org.jgrapht.alg.interfaces.ShortestPathAlgorithm.SingleSourcePaths;
import org.jgrapht.alg.interfaces.SpanningTreeAlgorithm;
import org.jgrapht.alg.interfaces.SpanningTreeAlgorithm.SpanningTree;
import org.jgrapht.alg.shortestpath.DijkstraShortestPath;
import org.jgrapht.alg.spanning.KruskalMinimumSpanningTree;
import org.jgrapht.alg.spanning.PrimMinimumSpanningTree;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;
import org.jgrapht.graph.SimpleWeightedGraph;
import org.jgrapht.traverse.BreadthFirstIterator;

/**
 * JGraphT's side of the comparison: the same graph as a JGraphT graph with Integer vertices 0..n-1, and the three
 * algorithms as a JGraphT user would call them. Each call returns JGraphT's complete answer.
 */
final class JGraphTSide {
    /** Which JGraphT MST algorithm to compare with. */
    enum Mst { PRIM, KRUSKAL }

    final Graph<Integer, DefaultWeightedEdge> graph;
    private final Integer[] vertex;

    private JGraphTSide(Graph<Integer, DefaultWeightedEdge> graph, Integer[] vertex) {
        this.graph = graph;
        this.vertex = vertex;
    }

    /**
     * A copy of {@code g}: {@link SimpleDirectedWeightedGraph} when directed, {@link SimpleWeightedGraph} when not
     * (JGraphT's standard graphs; {@code g} has no self-loops or parallel edges, so "simple" loses nothing).
     */
    static JGraphTSide copyOf(CsrGraph g) {
        int n = g.vertexCount();
        Graph<Integer, DefaultWeightedEdge> jg = g.directed()
                ? new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class)
                : new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
        Integer[] vertex = new Integer[n];
        for (int v = 0; v < n; v++) {
            vertex[v] = v;
            jg.addVertex(vertex[v]);
        }
        int[] off = g.rowOffsets(), col = g.columns();
        double[] w = g.weights();
        for (int u = 0; u < n; u++) {
            for (int e = off[u]; e < off[u + 1]; e++) {
                int v = col[e];
                if (!g.directed() && v < u) continue; // an undirected edge once
                DefaultWeightedEdge edge = jg.addEdge(vertex[u], vertex[v]);
                jg.setEdgeWeight(edge, w[e]);
            }
        }
        return new JGraphTSide(jg, vertex);
    }

    /** BFS with {@link BreadthFirstIterator}: the visit order and the iterator, which holds each vertex's depth. */
    Bfs bfs(int source) {
        BreadthFirstIterator<Integer, DefaultWeightedEdge> it = new BreadthFirstIterator<>(graph, vertex[source]);
        int[] order = new int[vertex.length];
        int count = 0;
        while (it.hasNext()) order[count++] = it.next();
        return new Bfs(it, Arrays.copyOf(order, count));
    }

    record Bfs(BreadthFirstIterator<Integer, DefaultWeightedEdge> iterator, int[] order) {}

    /** All shortest paths from {@code source}: {@code new DijkstraShortestPath<>(g).getPaths(source)}. */
    SingleSourcePaths<Integer, DefaultWeightedEdge> sssp(int source) {
        return new DijkstraShortestPath<>(graph).getPaths(vertex[source]);
    }

    SpanningTree<DefaultWeightedEdge> mst(Mst algorithm) {
        SpanningTreeAlgorithm<DefaultWeightedEdge> a = algorithm == Mst.PRIM
                ? new PrimMinimumSpanningTree<>(graph)
                : new KruskalMinimumSpanningTree<>(graph);
        return a.getSpanningTree();
    }

    Integer vertex(int v) { return vertex[v]; }
}
