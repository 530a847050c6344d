package org.frontiergraph.client;

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
 * Turns the chunks of a FULL-mode result back into the engine's result types (0-based ids), so that answers that
 * travelled through Kafka can be checked by the same verifiers as the engine's.
 */
public final class Answers {
    private Answers() {}

    public static BfsResult bfs(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int n = head.getVertexCount(), first = head.getFirstVertexId();
        int[] hops = new int[n], parents = new int[n];
        for (QueryResult c : chunks) {
            copyInts(c.getHops(), hops, c.getOffset(), 0);
            copyInts(c.getParents(), parents, c.getOffset(), first);
        }
        return new BfsResult(head.getSource() - first, hops, parents, Timing.NONE);
    }

    public static SsspResult sssp(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int n = head.getVertexCount(), first = head.getFirstVertexId();
        double[] dist = new double[n];
        int[] parents = new int[n];
        for (QueryResult c : chunks) {
            List<Double> d = c.getDistances();
            for (int i = 0; i < d.size(); i++) dist[c.getOffset() + i] = d.get(i);
            copyInts(c.getParents(), parents, c.getOffset(), first);
        }
        return new SsspResult(head.getSource() - first, dist, parents, Timing.NONE);
    }

    /** The MST edges of a result as ids into {@code g.undirectedEdges()}. */
    public static MstResult mst(CsrGraph g, List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int first = head.getFirstVertexId();
        UndirectedEdges ue = g.undirectedEdges();
        int total = chunks.stream().mapToInt(c -> c.getMstEdges() == null ? 0 : c.getMstEdges().getSources().size()).sum();
        int[] ids = new int[total];
        int k = 0;
        for (QueryResult c : chunks) {
            EdgeBatch b = c.getMstEdges();
            if (b == null) continue;
            for (int i = 0; i < b.getSources().size(); i++) {
                int u = b.getSources().get(i) - first, v = b.getTargets().get(i) - first;
                ids[k++] = edgeId(ue, Math.min(u, v), Math.max(u, v));
            }
        }
        Arrays.sort(ids);
        return new MstResult(ids, head.getTotalWeight(), (int) (long) head.getComponents(), Timing.NONE);
    }

    /** Id of undirected edge {a, b} (a < b) by binary search over the (u, v)-ordered list; -1 when absent. */
    private static int edgeId(UndirectedEdges ue, int a, int b) {
        int lo = 0, hi = ue.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = ue.u[mid] != a ? Integer.compare(ue.u[mid], a) : Integer.compare(ue.v[mid], b);
            if (c < 0) lo = mid + 1; else if (c > 0) hi = mid - 1; else return mid;
        }
        return -1;
    }

    private static void copyInts(List<Integer> from, int[] to, int offset, int first) {
        if (from == null) return;
        for (int i = 0; i < from.size(); i++) {
            int x = from.get(i);
            to[offset + i] = x < 0 ? x : x - first;
        }
    }
}
