package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.query.QueryContext;
import org.frontiergraph.worker.registry.GraphEntry;

/** One subscription and what it has pushed. */
final class Subscriber {
    final Subscription spec;
    final SubscriptionService.Origin origin;
    final AnswerKey key;
    final Pending pending = new Pending();
    /** The next push is complete, for this reason (INITIAL, RESYNC); null: updates only. */
    PushReason complete = PushReason.INITIAL;
    /** The sequence number of the last push; -1 before the first. */
    long sequence = -1;
    long lastPushMs = Long.MIN_VALUE / 2;
    QueryResult lastSummary;

    Subscriber(Subscription spec, SubscriptionService.Origin origin) {
        this.spec = spec;
        this.origin = origin;
        StandingForm<?> form = StandingForm.ALL.get(spec.getAlgorithm());
        this.key = new AnswerKey(spec.getAlgorithm(), form != null && !form.fromSource() ? null : spec.getSource());
    }

    boolean waiting() {
        return complete != null || !pending.isEmpty();
    }

    /** Whether an UPDATE push of the changes it holds is due by {@code nowMs} (not a complete push, which is paced). */
    boolean updateDue(long nowMs) {
        return complete == null && !pending.isEmpty() && !pending.all() && nowMs >= dueMs();
    }

    long dueMs() {
        return complete != null ? Long.MIN_VALUE : lastPushMs + spec.getMinIntervalMs();
    }

    QueryContext context(GraphEntry entry, FrontierConfig config, ResultMode mode) {
        return context(entry, config, mode, entry.resident());
    }

    QueryContext context(GraphEntry entry, FrontierConfig config, ResultMode mode, ResidentGraph resident) {
        GraphQuery q = GraphQuery.newBuilder()
                .setQueryId(spec.getSubscriptionId()).setGraphId(spec.getGraphId()).setAlgorithm(spec.getAlgorithm())
                .setSource(spec.getSource()).setTargets(spec.getTargets()).setResultMode(mode).build();
        return new QueryContext(q, entry, resident, config);
    }
}
