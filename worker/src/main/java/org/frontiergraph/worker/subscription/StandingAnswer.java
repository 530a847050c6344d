package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.standing.Standing;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.registry.HeapBudget;

/** One standing answer: the algorithm's form, the subscriptions' key, and the kernels' {@link Standing} that keeps it. */
final class StandingAnswer<A> {
    final StandingForm<A> form;
    final AnswerKey key;
    final Subscriber owner;
    /** The answer kept by the graph's standings; null until it is first computed. */
    Standing<A> kept;

    @SuppressWarnings("unchecked")
    StandingAnswer(StandingForm<?> form, Subscriber owner) {
        this.form = (StandingForm<A>) form;
        this.key = owner.key;
        this.owner = owner;
    }

    /** The answer now. */
    A result() {
        return kept.answer();
    }

    /** Heap reserved for it in the memory model, and where (released when the answer goes). */
    private HeapBudget budget;
    private long reserved;

    void reserved(HeapBudget budget, long bytes) {
        this.budget = budget;
        this.reserved = bytes;
    }

    /** Gives its heap back to the memory model (once). */
    void release() {
        if (reserved > 0) budget.releaseStanding(reserved);
        reserved = 0;
    }

    /** The answer from scratch on {@code engine}, brought up to date ({@code SubscriptionService.engine}). */
    A fresh(Engine engine, FrontierConfig config) {
        return form.compute(owner.context(engine.entry(), config, ResultMode.FULL, engine.resident()));
    }
}
