package org.frontiergraph.kernels.standing;

import java.util.HashMap;
import java.util.Map;
import org.frontiergraph.kernels.engine.Variant;

/**
 * How standing answers are repaired after a batch: the host's budgets, when the device repairs first, and the device
 * repair's launches. The worker fills it from its configuration ({@code frontier.subscriptions.*},
 * {@code frontier.trees.*}; docs/operations.md); {@link #DEFAULTS} are what benchmarks chose (docs/benchmarks.md has
 * the runs behind each).
 *
 * @param deviceFirstArcs changed arcs from which a batch is repaired on the device first, where at least two touched
 *        answers keep a tree there (0: never; the host tries first below it). RepairBench, 100 trees on
 *        USA-road-d.NY, H100: the device's side-by-side repair beat the host's 16 cores from 100 updates a batch on
 *        (1.4-3.5x) and lost at 10 (27 against 10 ms); on kron20 it lost at 100 and won 5.5x at 10^4
 * @param deviceBudgetDivisor how many times sooner the host gives up on repairing an answer that keeps a tree on the
 *        device (1: as any other): the device then repairs it with the batch's other heavy ones, side by side
 * @param gpuSpeedUp how much faster a recompute runs on the GPU than on one host core (USA-road-d.NY SSSP: 2.4 ms on
 *        an H200, 52 ms on the host): a graph on the GPU repairs on the host with a budget that many times smaller,
 *        shared out over the answers repaired side by side
 * @param sideBySide the trees of a group that share a key form settle in one launch (near-far for up to 32 slices
 *        side by side) instead of one asynchronous settle each; a group of one tree settles alone either way
 * @param blocksPerSm blocks per multiprocessor of the prepare and finish launches (at most what the occupancy
 *        allows): a group's trees share the grid, so their passes over the vertices want it wide. H100, 100 NY
 *        trees, 100 re-weights: prepare 8.2 ms and finish 3.7 ms with 2, 5.2 and 2.2 ms with 4
 * @param phases every device repair prints the device time of its phases (prepare, settle, finish, summed over its
 *        trees; CUDA events) and the host's part to stderr (benchmarks)
 * @param settle the settle's options (the asynchronous SSSP's, e.g. {@code df=256,ahead=16}); empty: its defaults
 * @param shiftPasses passes of the prepare launch's step 6 (sssp_repair.cu; integer and hop keys): a vertex that a
 *        lowered or new arc lowers takes its whole old subtree down with it, and so do the vertices each pass's
 *        relaxation lowers in the next pass, so the settle starts from the edge of those subtrees; 0: the settle
 *        walks them level by level (the same answers)
 */
public record RepairPolicy(int deviceFirstArcs, int deviceBudgetDivisor, int gpuSpeedUp, boolean sideBySide,
                           int blocksPerSm, boolean phases, String settle, int shiftPasses) {
    public static final RepairPolicy DEFAULTS = new RepairPolicy(1024, 32, 20, true, 4, false, "", 1);

    public RepairPolicy {
        if (deviceFirstArcs < 0 || deviceBudgetDivisor < 1 || gpuSpeedUp < 1 || blocksPerSm < 1 || shiftPasses < 0) {
            throw new IllegalArgumentException("repair policy out of range: " + deviceFirstArcs + " device-first arcs, divisor "
                    + deviceBudgetDivisor + ", GPU speed-up " + gpuSpeedUp + ", " + blocksPerSm + " blocks per SM, " + shiftPasses
                    + " shift passes");
        }
        settle = settle == null ? "" : settle;
    }

    /** Whether a batch of {@code arcs} changed arcs goes to the device first. */
    boolean deviceFirst(int arcs) {
        return deviceFirstArcs > 0 && arcs >= deviceFirstArcs;
    }

    /**
     * The budget divisor of the host's repairs of {@code answers} answers of a graph on the GPU ({@code gpu}) or not:
     * a recompute there is about {@link #gpuSpeedUp} times faster than on one core, but the recomputes of several
     * answers run one after another while their repairs run side by side on the host's cores.
     */
    int hostDivisor(boolean gpu, int answers) {
        int parallel = Math.max(1, Math.min(answers, Runtime.getRuntime().availableProcessors()));
        return gpu ? Math.max(1, gpuSpeedUp / parallel) : 1;
    }

    /** The settle's variant ({@link #settle}'s options). */
    Variant settleVariant() {
        Map<String, String> o = new HashMap<>();
        for (String kv : settle.split(",")) {
            int eq = kv.indexOf('=');
            if (eq > 0) o.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        return new Variant("async", o);
    }
}
