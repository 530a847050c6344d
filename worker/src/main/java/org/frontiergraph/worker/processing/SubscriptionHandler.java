package org.frontiergraph.worker.processing;

import org.frontiergraph.schema.Subscription;
import org.frontiergraph.worker.subscription.SubscriptionService;

/**
 * A subscription (or its cancellation): its vertex names turned into ids, registered with its graph; its answers are pushed when the batch ends. A
 * replay registers it again without pushing (the rebuilt partition then pushes every answer as RESYNC).
 */
final class SubscriptionHandler implements RecordHandler<Subscription> {
    private final SubscriptionService subscriptions;
    private final VertexNaming naming;

    SubscriptionHandler(SubscriptionService subscriptions, VertexNaming naming) {
        this.subscriptions = subscriptions;
        this.naming = naming;
    }

    @Override
    public Class<Subscription> type() { return Subscription.class; }

    @Override
    public String graphId(Subscription s) { return s.getGraphId(); }

    @Override
    public String queryId(Subscription s) { return s.getSubscriptionId(); }

    @Override
    public void handle(Subscription s, InputRecord in, Output out) {
        out.pushed(subscriptions.accept(naming.resolve(s), new SubscriptionService.Origin(in.topic(), in.partition(), in.offset()), out.replay()));
    }
}
