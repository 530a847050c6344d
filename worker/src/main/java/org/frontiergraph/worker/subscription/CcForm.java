package org.frontiergraph.worker.subscription;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.cc.CcResult;
import org.frontiergraph.kernels.standing.CcKind;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.ComponentChangeKind;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.codec.AnswerFields.VertexArray;
import org.frontiergraph.schema.codec.CompactArrays;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.query.QueryContext;

/**
 * Standing CC ("tell me the moment the network splits"): the labels, kept by the kernels' {@link CcKind}. Complete
 * pushes are {@code CcAnswers}'s (FULL labels, SUMMARY count and largest size, TARGETS labels). A DELTA push lists the
 * vertices whose label changed and the new ones ({@code vertices}, in chunks) with their labels now ({@code labels}),
 * the component count and largest size in every chunk, and the components that merged or split
 * ({@code componentChanges}, batch after batch in order, spread over the chunks: each chunk holds the next of them,
 * about half a chunk of vertices' worth of parts, so that a chunk stays within the size of a vertex chunk), packed
 * here straight from the answer's labels, the vertices and labels then in the compact fields as a tree's are.
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

    @Override
    public List<QueryResult> delta(QueryContext c, CcResult result, Pending pending) {
        int[] vertices = pending.vertices();
        int first = c.entry().firstVertexId();
        int per = Math.max(1, c.config().getResultChunkVertices());
        List<List<ComponentChange>> changes = changes(pending.content(), first, Math.max(1, per / 2));
        int count = Math.max(1, Math.max((vertices.length + per - 1) / per, changes.size()));
        boolean compact = TreeForm.compactDelta(c);
        return TreeForm.chunks(count, k -> {
            int from = Math.min(vertices.length, k * per), to = Math.min(vertices.length, from + per);
            QueryResult chunk = c.header(k, count);
            chunk.setOffset(from);
            if (compact) {
                int[] ids = TreeForm.listedIds(vertices, from, to, first);
                CompactArrays.putVertices(chunk, ids);
                CompactArrays.putInts(chunk, VertexArray.LABELS, TreeForm.idsAt(result.labels(), vertices, from, to, first), ids);
            } else {
                chunk.setVertices(TreeForm.listed(vertices, from, to, first));
                chunk.setLabels(TreeForm.userIds(result.labels(), vertices, from, to, first));
            }
            chunk.setComponents((long) result.components());
            chunk.setLargestComponent((long) result.largest());
            chunk.setComponentChanges(k < changes.size() ? changes.get(k) : List.of());
            return chunk;
        });
    }

    /**
     * The component changes (the pending {@link CcKind.ComponentChange}s) in user ids, in order, in groups of about
     * {@code partsPerChunk} parts (one change at least).
     */
    private static List<List<ComponentChange>> changes(List<?> content, int first, int partsPerChunk) {
        List<List<ComponentChange>> chunks = new ArrayList<>();
        List<ComponentChange> chunk = new ArrayList<>();
        int parts = 0;
        for (Object o : content) {
            CcKind.ComponentChange e = (CcKind.ComponentChange) o;
            if (!chunk.isEmpty() && parts + e.parts().length > partsPerChunk) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                parts = 0;
            }
            ByteBuffer packed = PackedArrays.int32Buffer(e.parts().length);
            for (int p : e.parts()) packed.putInt(p + first);
            chunk.add(new ComponentChange(e.merged() ? ComponentChangeKind.MERGED : ComponentChangeKind.SPLIT, e.label() + first,
                    packed.flip()));
            parts += e.parts().length;
        }
        if (!chunk.isEmpty()) chunks.add(chunk);
        return chunks;
    }
}
