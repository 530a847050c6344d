package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.TreeAnswer;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.sssp.DeviceMirror;

/**
 * A {@link RepairStreams} run of standing tree answers on a graph held in the wide form, as the worker keeps them:
 * the stream's graph mirrored into {@code mirror} (a wide copy: the GPU engine's host copy, or one standing beside the
 * CPU engine), the answers kept by the device standings ({@link Standings#of} with trees on the device), each batch
 * repaired through them, and every answer they give up on recomputed ({@code recompute}: on the device, from the
 * source) and compared with the previous one ({@link TreeKind#compare}), its DELTA what {@link RepairStreams#check}
 * checks. No answer may keep a tree or take device memory, none may go to the device or fail, and the screen's
 * untouched answers are left as they are.
 */
final class WideStream<R extends TreeAnswer<R>> implements RepairStreams.Batched<R> {
    private final RepairStreams.Algorithm<R> alg;
    private final TreeKind<R> kind;
    private final ResidentGraph engine;
    private final MutableGraph mirror;
    private final BiFunction<Integer, CsrGraph, R> recompute;
    private final Standings standings = Standings.of(RepairPolicy.DEFAULTS, true);
    private final List<Standing<?>> kept = new ArrayList<>();
    int untouched, recomputed;
    long changedVertices;

    /**
     * {@code engine}: the resident graph the answers are kept on (its {@code mutable()} is {@code mirror} on the
     * GPU); {@code recompute}: an answer from a source, on the stream's current (narrow) graph or the engine's copy.
     */
    WideStream(RepairStreams.Algorithm<R> alg, TreeKind<R> kind, ResidentGraph engine, MutableGraph mirror,
               BiFunction<Integer, CsrGraph, R> recompute) {
        this.alg = alg;
        this.kind = kind;
        this.engine = engine;
        this.mirror = mirror;
        this.recompute = recompute;
    }

    @Override public R reference(CsrGraph g, int source) { return alg.reference(g, source); }
    @Override public R copy(R answer) { return alg.copy(answer); }
    @Override public RepairStreams.View view(R answer) { return alg.view(answer); }
    @Override public RepairStreams.Repaired<R> repair(CsrGraph g, R p, ChangedEdges c) { throw new UnsupportedOperationException(); }
    @Override public Verification verify(CsrGraph g, int s, R answer, R ref) { return alg.verify(g, s, answer, ref); }

    @Override
    public List<RepairStreams.Repaired<R>> repairBatch(CsrGraph now, List<R> previous, ChangedEdges changes) {
        if (kept.isEmpty()) {   // on the start version
            long bytes = engine.residentBytes();
            for (R a : previous) {
                Standing<R> s = standings.open(kind, a, engine);
                assertSame(Standing.Placed.HOST, s.placed(), "no tree on a wide graph: " + s.refusal());
                kept.add(s);
            }
            assertEquals(bytes, engine.residentBytes(), "no device memory taken for trees");
        }
        for (int i = 0; i < previous.size(); i++) assertSame(kept.get(i).answer(), previous.get(i), "the answer held");
        DeviceMirror.follow(mirror, now, changes);
        CsrGraph held = mirror.current();
        assertTrue(held.wide(), "the mirror stays wide");
        Standings.Repairs r = standings.repair(kept, new Standings.Batch(held, changes, engine, () -> engine));
        assertEquals(0, r.toDevice(), "nothing repaired on the device");
        assertNull(r.deviceFailure());
        List<RepairStreams.Repaired<R>> out = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            @SuppressWarnings("unchecked") Standing<R> s = (Standing<R>) kept.get(i);
            Standings.Outcome<?> o = r.outcomes().get(i);
            assertTrue(o.intact(), "intact: " + o.failure());
            assertNull(o.failure());
            assertFalse(o.onDevice());
            if (o.repaired() != null) {   // screened out: the answer as it was
                untouched++;
                assertTrue(o.delta().isEmpty());
                out.add(new RepairStreams.Repaired<>(s.answer(), new int[0]));
                continue;
            }
            recomputed++;
            R fresh = recompute.apply(s.answer().source(), now);
            Delta d = kind.compare(s.answer(), fresh);
            standings.reset(s, fresh, engine);
            assertSame(Standing.Placed.HOST, s.placed(), "still no tree");
            changedVertices += d.vertices().length;
            out.add(new RepairStreams.Repaired<>(fresh, d.vertices()));
        }
        return out;
    }

    /** Closes the answers and the engine. */
    void close() {
        for (Standing<?> s : kept) standings.close(s);
        engine.close();
    }

    @Override
    public String toString() {
        return untouched + " untouched, " + recomputed + " recomputed, " + changedVertices + " changed vertices in all";
    }
}
