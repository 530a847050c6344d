package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.engine.WholeGraph;
import org.frontiergraph.kernels.standing.CcKind;
import org.frontiergraph.kernels.standing.Delta;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.ComponentChangeKind;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.AnswerEncoder;
import org.frontiergraph.worker.query.AnswerEncoders;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing CC ("tell me the moment the network splits"): the labels, kept by the kernels' {@link CcKind}. Complete
 * pushes are {@code CcAnswers}'s (FULL labels, SUMMARY count and largest size, TARGETS labels). A DELTA push lists the
 * vertices whose label changed and the new ones ({@code vertices}, in chunks) with their labels now ({@code labels}),
 * the component count and largest size in every chunk, and, in the first chunk, the components that merged or split
 * ({@code componentChanges}, batch after batch in order), packed here straight from the answer's labels.
 */
public final class CcForm implements StandingForm<CcResult> {
    @Override public Algorithm algorithm() { return Algorithm.CC; }

    @Override public CcKind kind() { return CcKind.CC; }

    @Override public boolean fromSource() { return false; }

    /** The labels, and the copy a repair that relabels makes of them (its other scratch is per thread). */
    @Override public long bytesPerVertex() { return 8; }

    @Override
    public boolean supports(ResultMode mode) {
        return true;
    }

    @SuppressWarnings("unchecked")
    private static AnswerEncoder<WholeGraph, CcResult> encoder() {
        return (AnswerEncoder<WholeGraph, CcResult>) AnswerEncoders.of(Algorithm.CC);
    }

    @Override
    public CcResult compute(QueryContext c) {
        AnswerEncoder<WholeGraph, CcResult> e = encoder();
        return c.resident().run(e.spec(), e.query(c), null);
    }

    @Override
    public List<QueryResult> complete(QueryContext c, CcResult result) {
        return encoder().encode(c, result);
    }

    @Override
    public List<QueryResult> delta(QueryContext c, CcResult result, Pending pending) {
        int[] vertices = pending.vertices();
        int first = c.entry().firstVertexId();
        int per = Math.max(1, c.config().getResultChunkVertices());
        int count = Math.max(1, (vertices.length + per - 1) / per);
        List<QueryResult> chunks = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            int from = k * per, to = Math.min(vertices.length, from + per);
            QueryResult chunk = c.header(k, count);
            chunk.setOffset(from);
            chunk.setVertices(TreeForm.listed(vertices, from, to, first));
            chunk.setLabels(TreeForm.userIds(result.labels(), vertices, from, to, first));
            chunk.setComponents((long) result.components());
            chunk.setLargestComponent((long) result.largest());
            if (k == 0) chunk.setComponentChanges(changes(pending.components(), first));
            chunks.add(chunk);
        }
        return chunks;
    }

    /** The component changes in user ids. */
    private static List<ComponentChange> changes(List<Delta.ComponentChange> events, int first) {
        List<ComponentChange> out = new ArrayList<>(events.size());
        for (Delta.ComponentChange e : events) {
            ByteBuffer parts = PackedArrays.int32Buffer(e.parts().length);
            for (int p : e.parts()) parts.putInt(p + first);
            out.add(new ComponentChange(e.merged() ? ComponentChangeKind.MERGED : ComponentChangeKind.SPLIT, e.label() + first,
                    parts.flip()));
        }
        return out;
    }
}
