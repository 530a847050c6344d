package org.frontiergraph.worker.processing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.CompactArrays;

/**
 * What processing one record produced, to be published before its offset is committed ({@code ended}: end records
 * of subscriptions, for the graphs topic). {@code answered} is the
 * query the record asked (null for other records): its latency event is made once the results are acknowledged.
 */
public record Outputs(List<QueryResult> results, List<ErrorEvent> errors, List<GraphStatus> statuses, AnsweredQuery answered,
                      List<Subscription> ended, At at) {
    /** Nothing to publish. */
    public static final Outputs NONE = new Outputs(List.of(), List.of(), List.of(), null, List.of());

    /** Where the input record these outputs answer was read (for the error event of an output that cannot be published). */
    public record At(String topic, int partition, long offset) {}

    /** Outputs of no one input record (pushes after a batch). */
    public Outputs(List<QueryResult> results, List<ErrorEvent> errors, List<GraphStatus> statuses, AnsweredQuery answered,
                   List<Subscription> ended) {
        this(results, errors, statuses, answered, ended, null);
    }

    public Outputs {
        results = List.copyOf(results);
        errors = List.copyOf(errors);
        statuses = List.copyOf(statuses);
        ended = List.copyOf(ended);
    }

    /**
     * The bytes of the answers' packed arrays (vertices, hops, distances, parents, MST edges, compact arrays): what holding these
     * outputs until they are published costs, roughly, beyond a few hundred bytes a record.
     */
    public long answerBytes() {
        long bytes = 0;
        for (QueryResult r : results) {
            bytes += remaining(r.getVertices()) + remaining(r.getHops()) + remaining(r.getDistances()) + remaining(r.getParents())
                    + edgeBytes(r.getMstEdges()) + edgeBytes(r.getRemovedEdges()) + CompactArrays.bytes(r);
        }
        return bytes;
    }

    private static long remaining(ByteBuffer b) {
        return b == null ? 0 : b.remaining();
    }

    private static long edgeBytes(EdgeBatch e) {
        return e == null ? 0 : remaining(e.getSources()) + remaining(e.getTargets()) + remaining(e.getWeights());
    }

    public boolean isEmpty() {
        return results.isEmpty() && errors.isEmpty() && statuses.isEmpty() && answered == null && ended.isEmpty();
    }

    static Builder builder() {
        return new Builder();
    }

    /**
     * Collects the outputs of one record. Lists are made on first use, and a GraphStatus is built only when the
     * outputs are ({@link #status(java.util.function.Supplier)}): of a poll's single-edge updates only the last
     * status per graph is published, and building the others' Avro records was a sixth of the work per update.
     */
    static final class Builder {
        private List<QueryResult> results;
        private List<ErrorEvent> errors;
        private List<java.util.function.Supplier<GraphStatus>> statuses;
        private AnsweredQuery answered;
        private List<Subscription> ended;
        private At at;

        /** The input record these outputs answer. */
        Builder at(InputRecord in) {
            at = new At(in.topic(), in.partition(), in.offset());
            return this;
        }

        private static <T> List<T> add(List<T> to, List<? extends T> more) {
            if (more.isEmpty()) return to;
            if (to == null) to = new ArrayList<>(more.size());
            to.addAll(more);
            return to;
        }

        Builder results(List<QueryResult> chunks) {
            results = add(results, chunks);
            return this;
        }

        Builder errors(List<ErrorEvent> es) {
            errors = add(errors, es);
            return this;
        }

        Builder error(ErrorEvent e) {
            errors = add(errors, List.of(e));
            return this;
        }

        /** Whether this record's outputs hold a GraphStatus. */
        boolean hasStatus() {
            return statuses != null && !statuses.isEmpty();
        }

        /** Drops this record's GraphStatus: a later update of the same graph in the run reports a later version. */
        void dropStatuses() {
            statuses = null;
        }

        /** A GraphStatus built when the outputs are (its values captured by the caller when it happened). */
        Builder status(java.util.function.Supplier<GraphStatus> s) {
            if (statuses == null) statuses = new ArrayList<>(1);
            statuses.add(s);
            return this;
        }

        /** Subscriptions the worker ended for an error: their end records go to the graphs topic. */
        Builder ended(List<Subscription> s) {
            ended = add(ended, s);
            return this;
        }

        Builder answered(AnsweredQuery q) {
            answered = q;
            return this;
        }

        Outputs build() {
            List<GraphStatus> built = List.of();
            if (statuses != null && !statuses.isEmpty()) {
                built = new ArrayList<>(statuses.size());
                for (var s : statuses) built.add(s.get());
            }
            return new Outputs(orNone(results), orNone(errors), built, answered, orNone(ended), at);
        }

        private static <T> List<T> orNone(List<T> list) {
            return list == null ? List.of() : list;
        }
    }
}
