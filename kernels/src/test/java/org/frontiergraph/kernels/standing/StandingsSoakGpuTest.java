package org.frontiergraph.kernels.standing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.frontiergraph.kernels.contract.GpuTests;
import org.frontiergraph.kernels.contract.TestGraphs;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangeLog;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeEdits;
import org.frontiergraph.kernels.graph.MutableGraph;
import org.frontiergraph.kernels.io.Datasets;
import org.frontiergraph.kernels.sssp.DeviceMirror;
import org.frontiergraph.kernels.sssp.Sssp;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The worker's standing SSSP answers under the load of SubscriptionBench, without Kafka: 100 trees from seeded sources
 * on USA-road-d.NY held on the GPU, batches of one or two single-arc re-weights (one batch in eight: three to six, as a
 * consumer that fell behind polls them; a new positive integer weight around the old one), each batch repaired by one {@link Standings#repair} call as the worker makes it (the host first, with
 * the device's budget divisor; the trees it gives up on repaired on the device together; what that gives up on reset
 * from a GPU recompute), for {@code frontier.soak.seconds} (default 20) seconds. Every 25 batches four answers are
 * compared with the GPU engine's answer from scratch, distances exactly.
 *
 * <p>A watchdog ends the JVM (status 3) when one batch takes longer than 60 s, after printing the batch (its
 * re-weights, the trees touched) and every thread's stack: a kernel that never ends cannot be interrupted, and the
 * suite would otherwise wait for it until its own timeout. With {@code CUDA_LAUNCH_BLOCKING=1} the stack names the
 * launch that hangs.
 */
@Tag("gpu")
class StandingsSoakGpuTest extends GpuTests {
    @Test
    void hundredTreesFollowSingleReweightsOnNewYork() {
        Optional<CsrGraph> ny = TestGraphs.real(Datasets.NY);
        assumeTrue(ny.isPresent(), "USA-road-d.NY not in the datasets folder");
        CsrGraph start = ny.get();
        long seconds = Long.getLong("frontier.soak.seconds", 20);
        int divisor = Integer.getInteger("frontier.soak.divisor", 8);
        SplittableRandom rnd = new SplittableRandom(Long.getLong("frontier.soak.seed", 20261129));
        MutableGraph host = new MutableGraph(DeviceMirror.copy(start));   // re-weights in place: not the JVM's shared NY
        ChangeLog.Cursor seen = host.log().cursor(ChangeLog.Detail.EDGES);
        RepairPolicy policy = new RepairPolicy(RepairPolicy.DEFAULTS.deviceFirstArcs(), divisor, RepairPolicy.DEFAULTS.gpuSpeedUp(),
                true, RepairPolicy.DEFAULTS.blocksPerSm(), false, "", RepairPolicy.DEFAULTS.shiftPasses());
        Standings standings = Standings.of(policy, true);
        AtomicLong beat = new AtomicLong(System.nanoTime());
        AtomicReference<String> doing = new AtomicReference<>("opening");
        Thread watchdog = new Thread(() -> watch(beat, doing), "soak-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try (ResidentGraph dev = gpu.load(DeviceMirror.copy(start))) {
            List<Standing<?>> answers = new ArrayList<>();
            for (int s : TestGraphs.sources(start, 100, 29)) answers.add(standings.open(TreeKind.SSSP, Sssp.run(dev, s, null), dev));
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            int batches = 0, toDevice = 0, reset = 0, checked = 0;
            int[] off = start.rowOffsets(), col = start.columns();
            while (System.nanoTime() < end) {
                CsrGraph before = host.current();
                int k = rnd.nextInt(8) == 0 ? 3 + rnd.nextInt(4) : 1 + rnd.nextInt(2);   // now and then a lagging consumer's batch
                int[] u = new int[k], v = new int[k];
                double[] w = new double[k];
                for (int i = 0; i < k; i++) {
                    int arc = rnd.nextInt(start.arcCount());
                    u[i] = rowOf(off, arc);
                    v[i] = col[arc];
                    double old = before.weights()[arc];
                    w[i] = 1 + rnd.nextInt((int) Math.max(1, Math.min(1 << 20, 2 * old)));
                }
                host.apply(EdgeEdits.reweight(u, v, w), 0, Long.MAX_VALUE);
                ChangedEdges changes = seen.read().edges();
                CsrGraph now = host.current();
                DeviceMirror.follow(dev.mutable(), now, changes);
                doing.set("batch " + batches + ": re-weights " + Arrays.toString(u) + " -> " + Arrays.toString(v) + " to " + Arrays.toString(w));
                beat.set(System.nanoTime());
                Standings.Repairs r = standings.repair(answers, new Standings.Batch(now, changes, dev, () -> dev));
                toDevice += r.toDevice();
                for (Standings.Outcome<?> o : r.outcomes()) {
                    if (o.repaired() != null) continue;
                    @SuppressWarnings("unchecked") Standing<SsspResult> s = (Standing<SsspResult>) o.standing();
                    doing.set("batch " + batches + ": recompute from " + s.answer().source());
                    standings.reset(s, Sssp.run(dev, s.answer().source(), null), dev);
                    reset++;
                }
                if (++batches % 25 == 0) {
                    for (int c = 0; c < 4; c++) {
                        SsspResult held = (SsspResult) answers.get(rnd.nextInt(answers.size())).answer();
                        doing.set("batch " + batches + ": check from " + held.source());
                        SsspResult fresh = Sssp.run(dev, held.source(), null);
                        assertArrayEquals(fresh.distances(), held.distances(), "batch " + batches + ", source " + held.source());
                        checked++;
                    }
                }
            }
            System.out.printf("[standings soak] %d batches in %d s (divisor %d): %d trees repaired on the device, %d reset from a recompute, "
                    + "%d answers checked%n", batches, seconds, divisor, toDevice, reset, checked);
            assertTrue(batches > 0 && checked > 0, "the soak ran");
        } finally {
            doing.set(null);
        }
    }

    private static int rowOf(int[] off, int arc) {
        int lo = 0, hi = off.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (off[mid] <= arc) lo = mid; else hi = mid - 1;
        }
        return lo;
    }

    /** Ends the JVM when a step takes longer than 60 s, after printing it and every thread's stack. */
    private static void watch(AtomicLong beat, AtomicReference<String> doing) {
        while (true) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            String what = doing.get();
            if (what == null) return;
            if (System.nanoTime() - beat.get() < 60_000_000_000L) continue;
            StringBuilder b = new StringBuilder("[standings soak] HUNG for 60 s at " + what + "\n");
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                b.append('"').append(e.getKey().getName()).append("\"\n");
                for (StackTraceElement s : e.getValue()) b.append("\tat ").append(s).append('\n');
            }
            System.out.println(b);
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
    }
}
