package org.frontiergraph.worker.query;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.UndirectedEdges;
import org.frontiergraph.kernels.mst.MstResult;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Turns the chunks of a FULL-mode result back into the engine's result types (0-based ids), so that answers that
 * travelled through Kafka can be checked by the same verifiers as the engine's: the reverse of the algorithms'
 * {@link AnswerEncoder}s, for the CLI, the benchmarks and the tests.
 */
public final class Answers {
    private Answers() {}

    public static BfsResult bfs(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int n = head.getVertexCount(), first = head.getFirstVertexId();
        int[] hops = new int[n], parents = new int[n];
        for (QueryResult c : chunks) {
            if (c.getHops() != null) PackedArrays.copy(c.getHops(), hops, c.getOffset());
            copyIds(c.getParents(), parents, c.getOffset(), first);
        }
        return new BfsResult(head.getSource() - first, hops, parents, Timing.NONE);
    }

    public static SsspResult sssp(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int n = head.getVertexCount(), first = head.getFirstVertexId();
        double[] dist = new double[n];
        int[] parents = new int[n];
        for (QueryResult c : chunks) {
            PackedArrays.copy(c.getDistances(), dist, c.getOffset());
            copyIds(c.getParents(), parents, c.getOffset(), first);
        }
        return new SsspResult(head.getSource() - first, dist, parents, Timing.NONE);
    }

    /** The labels of a CC result (user ids) as 0-based labels; the counts are the labels' own. */
    public static CcResult cc(List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int[] labels = new int[head.getVertexCount()];
        for (QueryResult c : chunks) copyIds(c.getLabels(), labels, c.getOffset(), head.getFirstVertexId());
        return CcResult.of(labels, Timing.NONE);
    }

    /** The MST edges of a result as ids into {@code g.undirectedEdges()}. */
    public static MstResult mst(CsrGraph g, List<QueryResult> chunks) {
        QueryResult head = chunks.get(0);
        int first = head.getFirstVertexId();
        UndirectedEdges ue = g.undirectedEdges();
        int total = chunks.stream().mapToInt(c -> c.getMstEdges() == null ? 0 : PackedArrays.intCount(c.getMstEdges().getSources())).sum();
        int[] ids = new int[total];
        int k = 0;
        for (QueryResult c : chunks) {
            EdgeBatch b = c.getMstEdges();
            if (b == null) continue;
            IntBuffer s = PackedArrays.ints(b.getSources()), t = PackedArrays.ints(b.getTargets());
            for (int i = 0; i < s.limit(); i++) {
                int u = s.get(i) - first, v = t.get(i) - first;
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

    /** Packed user ids into {@code to} from {@code offset}, as 0-based ids; negative values (none) stay. */
    private static void copyIds(ByteBuffer from, int[] to, int offset, int first) {
        if (from == null) return;
        int n = PackedArrays.copy(from, to, offset);
        for (int i = offset; i < offset + n; i++) if (to[i] >= 0) to[i] -= first;
    }
}
