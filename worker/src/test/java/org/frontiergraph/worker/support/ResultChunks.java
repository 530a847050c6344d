package org.frontiergraph.worker.support;

import java.util.Arrays;
import java.util.List;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;

/**
 * The tests' reader of FULL-mode result chunks: back to the engine's result types (0-based ids), so the worker's
 * answers are checked by the engine's verifiers. (The client's own reader, {@code org.frontiergraph.client.Answers},
 * lives in frontier-client, which depends on this module.)
 */
public final class ResultChunks {
    private ResultChunks() {}

    public static BfsResult bfs(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int n = head.getVertexCount(), first = head.getFirstVertexId();
        int[] hops = new int[n], parents = new int[n];
        for (QueryResult c : chunks) {
            copy(c.getHops(), hops, c.getOffset(), 0);
            copy(c.getParents(), parents, c.getOffset(), first);
        }
        return new BfsResult(head.getSource() - first, hops, parents, Timing.NONE);
    }

    public static SsspResult sssp(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int n = head.getVertexCount(), first = head.getFirstVertexId();
        double[] dist = new double[n];
        int[] parents = new int[n];
        for (QueryResult c : chunks) {
            for (int i = 0; i < c.getDistances().size(); i++) dist[c.getOffset() + i] = c.getDistances().get(i);
            copy(c.getParents(), parents, c.getOffset(), first);
        }
        return new SsspResult(head.getSource() - first, dist, parents, Timing.NONE);
    }

    /** The MST edges of a result as ids into {@code g.undirectedEdges()} (-1 for an edge the graph lacks). */
    public static MstResult mst(CsrGraph g, List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int first = head.getFirstVertexId();
        UndirectedEdges ue = g.undirectedEdges();
        int[] ids = new int[chunks.stream().mapToInt(c -> c.getMstEdges() == null ? 0 : c.getMstEdges().getSources().size()).sum()];
        int k = 0;
        for (QueryResult c : chunks) {
            EdgeBatch b = c.getMstEdges();
            for (int i = 0; b != null && i < b.getSources().size(); i++) {
                int u = b.getSources().get(i) - first, v = b.getTargets().get(i) - first;
                ids[k++] = edgeId(ue, Math.min(u, v), Math.max(u, v));
            }
        }
        Arrays.sort(ids);
        return new MstResult(ids, head.getTotalWeight(), (int) (long) head.getComponents(), Timing.NONE);
    }

    /** Id of undirected edge {a, b} (a < b) in the (u, v)-ordered list; -1 when absent. */
    private static int edgeId(UndirectedEdges ue, int a, int b) {
        int lo = 0, hi = ue.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = ue.u[mid] != a ? Integer.compare(ue.u[mid], a) : Integer.compare(ue.v[mid], b);
            if (c < 0) lo = mid + 1; else if (c > 0) hi = mid - 1; else return mid;
        }
        return -1;
    }

    private static void copy(List<Integer> from, int[] to, int offset, int first) {
        if (from == null) return;
        for (int i = 0; i < from.size(); i++) to[offset + i] = from.get(i) < 0 ? from.get(i) : from.get(i) - first;
    }
}
