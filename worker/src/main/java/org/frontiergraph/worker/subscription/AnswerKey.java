package org.frontiergraph.worker.subscription;

import org.frontiergraph.schema.Algorithm;

/** Standing answers are shared by the subscriptions of one algorithm and source. */
record AnswerKey(Algorithm algorithm, Integer source) {
    @Override
    public String toString() {
        return algorithm + (source == null ? "" : " from " + source);
    }
}
