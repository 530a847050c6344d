package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.frontiergraph.kernels.bfs.BfsReference;
import org.frontiergraph.kernels.bfs.BfsResult;
import org.frontiergraph.kernels.bfs.BfsVerifier;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.RepairStreams;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.kernels.sssp.SsspVerifier;
import org.frontiergraph.kernels.standing.BfsRepair;
import org.frontiergraph.kernels.standing.DeviceTrees;
import org.frontiergraph.kernels.standing.SsspRepair;
import org.frontiergraph.kernels.standing.TreeRepair;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The device repair's method ({@link DeviceRepairModel}, the steps of sssp_repair.cu on the host) through the random
 * update streams of {@link RepairStreams}: after every batch the answer equals the reference exactly, its parents pass
 * the verifiers and lead to the source without a cycle, and the DELTA lists exactly the vertices that changed; a
 * vertex whose tight in-arcs all come from vertices of the same value (zero weights) is adopted in rounds, and none is
 * left to the host (which {@link DeviceTrees} would call, as this test's model does).
 */
class DeviceRepairModelTest {
    /** Repairs by the model (the host repair for orphans); counts the outcomes. */
    static final class Model implements RepairStreams.Algorithm<double[][]> {
        final boolean unit;
        final double maxInvalid;
        final int shiftPasses;
        int device, host, recomputed, adopting;
        long shifted;

        Model(boolean unit, double maxInvalid, int shiftPasses) {
            this.unit = unit;
            this.maxInvalid = maxInvalid;
            this.shiftPasses = shiftPasses;
        }

        /** An answer as {values, parents as doubles, {source}}. */
        @Override
        public double[][] reference(CsrGraph g, int source) {
            if (unit) {
                BfsResult b = BfsReference.run(g, source);
                return new double[][] {hopsAsValues(b.hops()), toDoubles(b.parents()), {source}};
            }
            SsspResult r = DijkstraReference.run(g, source);
            return new double[][] {r.distances(), toDoubles(r.parents()), {source}};
        }

        @Override
        public double[][] copy(double[][] a) {
            return new double[][] {a[0].clone(), a[1].clone(), a[2].clone()};
        }

        @Override
        public RepairStreams.View view(double[][] a) {
            return new RepairStreams.View(a[0], toInts(a[1]));
        }

        @Override
        public RepairStreams.Repaired<double[][]> repair(CsrGraph g, double[][] previous, ChangedEdges changes) {
            int n = g.vertexCount(), before = previous[0].length, source = (int) previous[2][0];
            double[] values = Arrays.copyOf(previous[0], n);
            int[] parents = Arrays.copyOf(toInts(previous[1]), n);
            Arrays.fill(values, before, n, Double.POSITIVE_INFINITY);
            Arrays.fill(parents, before, n, -1);
            DeviceRepairModel.Result r = DeviceRepairModel.repair(g, changes, values, parents, source, unit, maxInvalid, shiftPasses);
            shifted += r.shifted();
            if (r.changed() != null) {
                if (r.orphans() > 0) adopting++;
                if (r.recomputed()) recomputed++;
                else device++;
                return new RepairStreams.Repaired<>(new double[][] {values, toDoubles(parents), {source}}, r.changed());
            }
            host++;
            if (unit) {
                BfsResult old = new BfsResult(source, toHops(previous[0]), toInts(previous[1]), null);
                TreeRepair.Repaired<BfsResult> h = BfsRepair.repair(g, old, changes, Long.MAX_VALUE);
                return new RepairStreams.Repaired<>(new double[][] {hopsAsValues(h.result().hops()),
                        toDoubles(h.result().parents()), {source}}, h.changed());
            }
            SsspResult old = new SsspResult(source, previous[0].clone(), toInts(previous[1]), null);
            TreeRepair.Repaired<SsspResult> h = SsspRepair.repair(g, old, changes, Long.MAX_VALUE);
            return new RepairStreams.Repaired<>(new double[][] {h.result().distances(), toDoubles(h.result().parents()),
                    {source}}, h.changed());
        }

        @Override
        public Verification verify(CsrGraph g, int source, double[][] a, double[][] reference) {
            if (unit) {
                return BfsVerifier.verify(g, source, new BfsResult(source, toHops(a[0]), toInts(a[1]), null),
                        new BfsResult(source, toHops(reference[0]), toInts(reference[1]), null));
            }
            return SsspVerifier.verify(g, source, new SsspResult(source, a[0], toInts(a[1]), null),
                    new SsspResult(source, reference[0], toInts(reference[1]), null));
        }

        @Override
        public String toString() {
            return device + " repaired on the device, " + recomputed + " recomputed there, " + host + " on the host; "
                    + adopting + " with orphans adopted; " + shifted + " vertices lowered with a root (" + shiftPasses + " passes)";
        }
    }

    static double[] hopsAsValues(int[] hops) {
        double[] v = new double[hops.length];
        for (int i = 0; i < v.length; i++) v[i] = hops[i] < 0 ? Double.POSITIVE_INFINITY : hops[i];
        return v;
    }

    static int[] toHops(double[] values) {
        int[] h = new int[values.length];
        for (int i = 0; i < h.length; i++) h[i] = values[i] == Double.POSITIVE_INFINITY ? -1 : (int) values[i];
        return h;
    }

    static double[] toDoubles(int[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) d[i] = a[i];
        return d;
    }

    static int[] toInts(double[] a) {
        int[] x = new int[a.length];
        for (int i = 0; i < a.length; i++) x[i] = (int) a[i];
        return x;
    }

    @ParameterizedTest
    @CsvSource({"false, false, MIXED, 1", "true, false, MIXED, 1", "false, false, INTEGER, 1", "true, false, INTEGER, 1",
            "false, false, REAL, 1", "true, false, REAL, 1", "false, true, INTEGER, 1", "true, true, MIXED, 1",
            "false, false, INTEGER, 0", "true, false, INTEGER, 4", "false, true, INTEGER, 4", "true, true, MIXED, 4"})
    void theMethodRepairsExactlyAfterEveryBatch(boolean directed, boolean unit, RepairStreams.Weights weights, int passes) {
        Random rnd = new Random(71 + (directed ? 1 : 0) + (unit ? 2 : 0) + 4 * weights.ordinal());
        CsrGraph start = RepairStreams.graph(rnd, 1_500, directed, weights);
        Model model = new Model(unit, DeviceTrees.MAX_INVALID_FRACTION, passes);
        int[] sizes = {1, 10, 100};
        RepairStreams.Stats stats = RepairStreams.run(model, start, new int[] {0, 700, 1_500 - 3}, sizes, 15, rnd, weights);
        System.out.println("[device model] directed " + directed + ", unit " + unit + ", " + weights + ": " + model + "; " + stats);
        RepairStreams.assertEveryKind(stats);
        for (int size : sizes) assertEquals(0, stats.gaveUp(size), stats.toString());
        assertEquals(0, model.host, "every orphan adopted on the device: " + model);
        if (weights == RepairStreams.Weights.MIXED && !unit) assertTrue(model.adopting > 0, "zero weights made orphans: " + model);
        boolean exactKeys = unit || weights == RepairStreams.Weights.INTEGER;
        if (passes > 0 && exactKeys) assertTrue(model.shifted > 0, "lowered arcs took subtrees down: " + model);
        if (passes == 0 || !exactKeys) assertEquals(0, model.shifted, model.toString());
    }

    @ParameterizedTest
    @CsvSource({"false", "true"})
    void aBudgetOfNoneRecomputesEveryInvalidatingBatch(boolean directed) {
        Random rnd = new Random(81 + (directed ? 1 : 0));
        CsrGraph start = RepairStreams.graph(rnd, 800, directed, RepairStreams.Weights.INTEGER);
        Model model = new Model(false, 0, RepairPolicy.DEFAULTS.shiftPasses());
        RepairStreams.Stats stats = RepairStreams.run(model, start, new int[] {0, 400}, new int[] {1, 10}, 15, rnd,
                RepairStreams.Weights.INTEGER);
        assertTrue(model.recomputed > 0, "recomputed: " + model);
        assertTrue(model.device > 0, "batches that invalidate nothing are still repaired: " + model);
        RepairStreams.assertEveryKind(stats);
    }
}
