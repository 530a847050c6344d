package org.frontiergraph.kernels.standing;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.graph.ChangedEdges;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * The life of the standing answers of one graph: opened from an answer computed on the current version, repaired
 * after each batch of updates (one call for all of a graph's answers: the batch's {@link Screen} built once, the host's
 * repairs side by side with a budget, the device's repair of the trees the host gave up on together), reset from a
 * recompute, closed. {@link HostStandings} repairs on the host; {@link DeviceStandings} also keeps the tree answers'
 * trees on the device where the graph lives on the GPU. The caller recomputes what a repair gave up on and resets it.
 */
public interface Standings {
    /** Standings that repair with {@code policy}: their trees on the device where a graph is there and {@code treesOnDevice}. */
    static Standings of(RepairPolicy policy, boolean treesOnDevice) {
        return treesOnDevice ? new DeviceStandings(policy) : new HostStandings(policy);
    }

    /**
     * Starts keeping {@code answer}, exact on the current version of the graph {@code engine} holds (its tree on the
     * device where {@code engine} is there; {@link Standing#placed()} says where it went).
     */
    <A> Standing<A> open(StandingKind<A> kind, A answer, ResidentGraph engine);

    /** {@code s}'s answer is now {@code answer}, recomputed on the current version of {@code engine}'s graph. */
    <A> void reset(Standing<A> s, A answer, ResidentGraph engine);

    /**
     * Brings {@code answers} up to date after {@code batch}: entry i of the outcomes is {@code answers.get(i)}'s. An
     * answer repaired has its new answer ({@link Standing#answer()}); one given up on keeps its previous answer (or
     * one half changed, when not {@link Outcome#intact}) until the caller resets it.
     */
    default Repairs repair(List<Standing<?>> answers, Batch batch) {
        return repair(answers, batch, null);
    }

    /**
     * As {@link #repair(List, Batch)}, and when the host settled some answers but not all (the others wait for the
     * device's repair, or the caller's recompute), {@code settledFirst} is called once, on the calling thread, before
     * the device's repair starts, with the outcomes of the settled ones (entry i: {@code answers.get(i)}'s outcome,
     * final; null where it is not settled yet). Their answers are not touched again in this call, so the caller may
     * read them (and publish what changed) while the heavy ones are still to come. Not called when every answer is
     * settled on the host, or none is; nor when {@code settledFirst} is null.
     */
    Repairs repair(List<Standing<?>> answers, Batch batch, Consumer<List<Outcome<?>>> settledFirst);

    /** Stops keeping {@code s}: its tree on the device freed (it is forgotten even when freeing it fails, which throws). */
    void close(Standing<?> s);

    /**
     * A batch of changes: the current version on the host ({@code graph}), the changes since the previous batch, the
     * resident copy of the graph that the batch was applied to, and that copy brought up to date where it is held
     * (called only before a device repair; another copy than {@code resident} means the graph moved off the device).
     */
    record Batch(CsrGraph graph, ChangedEdges changes, ResidentGraph resident, Supplier<ResidentGraph> synced) {}

    /**
     * What a batch did to one answer: repaired ({@code repaired}, its {@code delta}, on the device or the host), or given
     * up on ({@code repaired} null; {@code failure}: the host's repair threw). {@code intact} false: the answer may be
     * half changed, so what a recompute changes is unknown.
     */
    record Outcome<A>(Standing<A> standing, A repaired, Delta delta, boolean onDevice, boolean intact, RuntimeException failure) {}

    /**
     * The outcomes of a batch, by answer, and where it spent its time: the screen, the host's repairs, the device's (0
     * when no answer went there);
     * {@code touched} answers the batch could change, {@code toDevice} answers handed to the device, and the device
     * repair's failure (its answers then are not intact).
     */
    record Repairs(List<Outcome<?>> outcomes, long screenNanos, long hostNanos, long deviceNanos, int touched, int toDevice,
                   RuntimeException deviceFailure) {}
}
