package org.frontiergraph.worker.subscription;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.DeviceBfsTrees;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.sssp.DeviceSsspTrees;
import org.frontiergraph.kernels.sssp.DeviceTrees;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * The device side of the standing BFS and SSSP answers of a graph held on the GPU: one tree per answer in device memory
 * ({@link DeviceSsspTrees}, {@link DeviceBfsTrees}), opened from the answer when it is computed, reset when it is
 * replaced (a recompute, a RESYNC), patched where the host repaired the answer, repaired there (only the changed
 * vertices copied back into the answer) when the host's repair gives up, and freed when the answer goes. The trees are
 * the kernels module's handles, opaque here.
 */
final class DeviceAnswers {
    private DeviceAnswers() {}

    /** A repaired answer and its changed vertices (null: the batch could not touch it, nothing changed). */
    record Repaired(Object result, int[] changed) {}

    /**
     * A tree on {@code resident} holding {@code result}, the exact answer on its current version; null when the graph
     * is not on the GPU or the answer is not a BFS or SSSP one.
     */
    static Object open(ResidentGraph resident, Object result) {
        if (result instanceof SsspResult r) return DeviceSsspTrees.on(resident).map(t -> (Object) t.open(r)).orElse(null);
        if (result instanceof BfsResult r) return DeviceBfsTrees.on(resident).map(t -> (Object) t.open(r)).orElse(null);
        return null;
    }

    /** {@code tree} (of {@code resident}) made to hold {@code result}, the exact answer on the current version. */
    static void reset(ResidentGraph resident, Object tree, Object result) {
        if (tree instanceof DeviceSsspTrees.Standing s) DeviceSsspTrees.on(resident).orElseThrow().reset(s, (SsspResult) result);
        else if (tree instanceof DeviceBfsTrees.Standing b) DeviceBfsTrees.on(resident).orElseThrow().reset(b, (BfsResult) result);
    }

    /**
     * {@code tree}'s answer is now {@code result}, which differs from what the device holds at {@code vertices} only
     * (the host repaired it): those entries are written to the device.
     */
    static void patch(ResidentGraph resident, Object tree, Object result, int[] vertices) {
        if (tree instanceof DeviceSsspTrees.Standing s) DeviceSsspTrees.on(resident).orElseThrow().patch(s, (SsspResult) result, vertices);
        else if (tree instanceof DeviceBfsTrees.Standing b) DeviceBfsTrees.on(resident).orElseThrow().patch(b, (BfsResult) result, vertices);
    }

    /** Vertices of a BFS or SSSP answer. */
    static int vertexCountOf(Object result) {
        if (result instanceof SsspResult r) return r.distances().length;
        if (result instanceof BfsResult r) return r.hops().length;
        return 0;
    }

    /** Vertices {@code tree} holds on the device. */
    static int vertexCount(Object tree) {
        if (tree instanceof DeviceSsspTrees.Standing s) return s.tree().vertexCount();
        if (tree instanceof DeviceBfsTrees.Standing b) return b.tree().vertexCount();
        return 0;
    }

    /** Frees {@code tree}'s device memory (nothing when the graph's device copy is gone already). */
    static void close(ResidentGraph resident, Object tree) {
        if (tree instanceof DeviceSsspTrees.Standing s) DeviceSsspTrees.on(resident).ifPresent(t -> t.close(s));
        else if (tree instanceof DeviceBfsTrees.Standing b) DeviceBfsTrees.on(resident).ifPresent(t -> t.close(b));
    }

    /** The answer {@code tree} holds on the host (the standing answer itself). */
    static Object result(Object tree) {
        if (tree instanceof DeviceSsspTrees.Standing s) return s.result();
        if (tree instanceof DeviceBfsTrees.Standing b) return b.result();
        return null;
    }

    /**
     * Repairs {@code trees} (of {@code resident}) after {@code changes}, the SSSP trees together, then the BFS trees:
     * entry i is tree i's answer (the same object the tree's answer is from now on) and changed vertices.
     */
    static Repaired[] repair(ResidentGraph resident, List<Object> trees, ChangedEdges changes) {
        Repaired[] out = new Repaired[trees.size()];
        List<Integer> si = new ArrayList<>(), bi = new ArrayList<>();
        List<DeviceSsspTrees.Standing> ss = new ArrayList<>();
        List<DeviceBfsTrees.Standing> bs = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            Object t = trees.get(i);
            if (t instanceof DeviceSsspTrees.Standing s) {
                si.add(i);
                ss.add(s);
            } else if (t instanceof DeviceBfsTrees.Standing b) {
                bi.add(i);
                bs.add(b);
            } else {
                throw new IllegalArgumentException("not a standing tree: " + t);
            }
        }
        if (!ss.isEmpty()) {
            DeviceSsspTrees.Repaired[] r = DeviceSsspTrees.on(resident).orElseThrow().repairAll(ss, changes);
            for (int j = 0; j < r.length; j++) {
                out[si.get(j)] = new Repaired(r[j].result(), r[j].how() == DeviceTrees.How.UNTOUCHED ? null : r[j].changed());
            }
        }
        if (!bs.isEmpty()) {
            DeviceBfsTrees.Repaired[] r = DeviceBfsTrees.on(resident).orElseThrow().repairAll(bs, changes);
            for (int j = 0; j < r.length; j++) {
                out[bi.get(j)] = new Repaired(r[j].result(), r[j].how() == DeviceTrees.How.UNTOUCHED ? null : r[j].changed());
            }
        }
        return out;
    }
}
