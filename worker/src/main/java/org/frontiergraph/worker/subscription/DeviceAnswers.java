package org.frontiergraph.worker.subscription;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.DeviceBfsTrees;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.sssp.DeviceSsspTrees;
import org.frontiergraph.kernels.sssp.DeviceTreeAnswers;
import org.frontiergraph.kernels.sssp.DeviceTrees;
import org.frontiergraph.kernels.sssp.SsspResult;

/**
 * The device side of the standing BFS and SSSP answers of a graph held on the GPU: one tree per answer in device memory
 * ({@link DeviceTreeAnswers}: {@link DeviceSsspTrees}, {@link DeviceBfsTrees}), opened from the answer when it is computed, reset when it is
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
        if (tree instanceof DeviceTreeAnswers.Standing<?> s) DeviceTreeAnswers.resetAny(own(resident, s), result);
    }

    /**
     * {@code tree}'s answer is now {@code result}, which differs from what the device holds at {@code vertices} only
     * (the host repaired it): those entries are written to the device.
     */
    static void patch(ResidentGraph resident, Object tree, Object result, int[] vertices) {
        if (tree instanceof DeviceTreeAnswers.Standing<?> s) DeviceTreeAnswers.patchAny(own(resident, s), result, vertices);
    }

    /** Vertices of a BFS or SSSP answer. */
    static int vertexCountOf(Object result) {
        if (result instanceof SsspResult r) return r.distances().length;
        if (result instanceof BfsResult r) return r.hops().length;
        return 0;
    }

    /** Vertices {@code tree} holds on the device. */
    static int vertexCount(Object tree) {
        return tree instanceof DeviceTreeAnswers.Standing<?> s ? s.tree().vertexCount() : 0;
    }

    /** Frees {@code tree}'s device memory (nothing when the graph's device copy is gone already). */
    static void close(ResidentGraph resident, Object tree) {
        if (tree instanceof DeviceTreeAnswers.Standing<?> s && DeviceTrees.on(resident).filter(t -> t == s.owner().trees()).isPresent()) {
            DeviceTreeAnswers.closeAny(s);
        }
    }

    /** The answer {@code tree} holds on the host (the standing answer itself). */
    static Object result(Object tree) {
        return tree instanceof DeviceTreeAnswers.Standing<?> s ? s.result() : null;
    }

    /**
     * Repairs {@code trees} (of {@code resident}) after {@code changes}, those of one kind together: entry i is tree
     * i's answer (the same object the tree's answer is from now on) and changed vertices.
     */
    static Repaired[] repair(ResidentGraph resident, List<Object> trees, ChangedEdges changes) {
        List<DeviceTreeAnswers.Standing<?>> standing = new ArrayList<>(trees.size());
        for (Object t : trees) {
            if (!(t instanceof DeviceTreeAnswers.Standing<?> s)) throw new IllegalArgumentException("not a standing tree: " + t);
            standing.add(own(resident, s));
        }
        List<DeviceTreeAnswers.Repaired<?>> r = DeviceTreeAnswers.repairAny(standing, changes);
        Repaired[] out = new Repaired[r.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new Repaired(r.get(i).result(), r.get(i).how() == DeviceTrees.How.UNTOUCHED ? null : r.get(i).changed());
        }
        return out;
    }

    /** {@code s}, checked to be a tree of {@code resident}'s device copy. */
    private static DeviceTreeAnswers.Standing<?> own(ResidentGraph resident, DeviceTreeAnswers.Standing<?> s) {
        if (DeviceTrees.on(resident).orElseThrow() != s.owner().trees()) {
            throw new IllegalArgumentException("standing tree from " + s.tree().source() + " is not of this graph's device copy");
        }
        return s;
    }
}
