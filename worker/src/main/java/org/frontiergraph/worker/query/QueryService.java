package org.frontiergraph.worker.query;

import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.kernels.engine.AlgorithmSpec;
import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.kernels.engine.Sources;
import org.frontiergraph.kernels.engine.Targets;
import org.frontiergraph.kernels.engine.Timing;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.errors.ErrorCode;
import org.frontiergraph.worker.errors.RejectedException;
import org.frontiergraph.worker.logging.LogSafe;
import org.frontiergraph.worker.registry.EngineService;
import org.frontiergraph.worker.registry.GraphEntry;
import org.frontiergraph.worker.registry.GraphRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers queries on the graphs of the registry: finds the graph version and the backend, then lets the algorithm's
 * {@link AnswerEncoder} validate the query, run it on the engine and turn the result into chunks (ids translated
 * back to the user's own); every failure becomes a QueryResult with its code's status. No Kafka here: the listener
 * calls it.
 */
@Singleton
public class QueryService {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);

    private final GraphRegistry registry;
    private final EngineService engines;
    private final FrontierConfig config;

    public QueryService(GraphRegistry registry, EngineService engines, FrontierConfig config) {
        this.registry = registry;
        this.engines = engines;
        this.config = config;
    }

    /** Answers one query on the graph's current version. */
    public QueryAnswer answer(GraphQuery q) {
        return answerAll(List.of(q)).get(0);
    }

    /**
     * Answers the queries of one run (consecutive queries of a partition, with no update or snapshot between them,
     * so all see the same graph versions), in their order. The SUMMARY queries of an algorithm that answers
     * summaries in batches (BFS, SSSP) and that name no variant are answered together, per resident graph and
     * algorithm, by one engine run over all their sources (on the GPU: several sources per pass, summarized on the
     * device); a TARGETS query of those algorithms without a variant reads the engine's answer at its targets only;
     * a SUMMARY query of an algorithm with a summary encoder (MST) and no variant is computed without its whole answer;
     * every other query alone, except that equal engine queries of the run (MST on the same graph, the same
     * source in another mode) are computed once. A query that fails validation fails alone; an engine failure of a batch
     * fails each of its queries with the failure's code.
     */
    public List<QueryAnswer> answerAll(List<GraphQuery> queries) {
        QueryAnswer[] answers = new QueryAnswer[queries.size()];
        Map<BatchKey, Batch> batches = new LinkedHashMap<>();
        Map<RunKey, Object> computed = new HashMap<>();
        for (int i = 0; i < answers.length; i++) {
            GraphQuery q = queries.get(i);
            GraphEntry entry = registry.get(q.getGraphId()).orElse(null);
            try {
                if (entry == null) throw new RejectedException(ErrorCode.UNKNOWN_GRAPH, registry.whyUnknown(q.getGraphId()));
                if (q.getDeadlineEpochMs() != null && System.currentTimeMillis() > q.getDeadlineEpochMs()) {
                    throw new RejectedException(ErrorCode.DEADLINE_EXCEEDED, "query '" + q.getQueryId() + "' reached the worker after its deadline "
                            + java.time.Instant.ofEpochMilli(q.getDeadlineEpochMs()));
                }
                if (q.getResultMode() == ResultMode.DELTA) {
                    throw new RejectedException(ErrorCode.INVALID_QUERY, "query '" + q.getQueryId()
                            + "' asks for DELTA mode, which only subscriptions have (a query's answer is always complete)");
                }
                entry = registry.synced(entry);   // the updates since the last query reach the device in one step
                ResidentGraph resident = engines.forQuery(entry.resident(), q.getBackend());
                QueryContext c = new QueryContext(q, entry, resident, config);
                AnswerEncoder<?, ?> encoder = AnswerEncoders.of(q.getAlgorithm());
                AnswerEncoder.Summaries<?> summaries = encoder.summaries();
                if (summaries != null && c.summary() && defaultVariant(q.getVariant())) {
                    int source = c.source();   // validated now: an invalid source fails its query alone
                    batches.computeIfAbsent(new BatchKey(resident, q.getAlgorithm()), k -> new Batch(summaries)).add(i, c, source);
                } else if (encoder.atTargets() != null && c.mode() == ResultMode.TARGETS && defaultVariant(q.getVariant())) {
                    answers[i] = runAtTargets(encoder.atTargets(), c);
                } else if (encoder.summaryEncoder() != null && c.summary() && defaultVariant(q.getVariant())) {
                    answers[i] = run(encoder.summaryEncoder(), c, computed);
                } else {
                    answers[i] = run(encoder, c, computed);
                }
            } catch (RuntimeException e) {
                answers[i] = failed(q, entry, e);
            }
        }
        for (Batch b : batches.values()) b.answer(answers);
        return Arrays.asList(answers);
    }

    private static boolean defaultVariant(String variant) {
        return variant == null || variant.isBlank() || variant.equalsIgnoreCase("default");
    }

    /** SUMMARY queries answered by one engine run: per resident graph (identity) and algorithm. */
    private record BatchKey(ResidentGraph resident, Algorithm algorithm) {}

    /** The SUMMARY queries of one batch: their positions in the run and their contexts. */
    private final class Batch {
        final AnswerEncoder.Summaries<?> summaries;
        final List<Integer> positions = new ArrayList<>();
        final List<QueryContext> contexts = new ArrayList<>();
        final List<Integer> sources = new ArrayList<>();

        Batch(AnswerEncoder.Summaries<?> summaries) {
            this.summaries = summaries;
        }

        void add(int position, QueryContext c, int source) {
            positions.add(position);
            contexts.add(c);
            sources.add(source);
        }

        void answer(QueryAnswer[] answers) {
            answer(summaries, answers);
        }

        private <S> void answer(AnswerEncoder.Summaries<S> s, QueryAnswer[] answers) {
            S result;
            long engine = System.nanoTime();
            try {
                result = contexts.get(0).resident().run(s.spec(),
                        new Sources(sources.stream().mapToInt(Integer::intValue).toArray()), null);
                engine = System.nanoTime() - engine;
            } catch (RuntimeException e) {
                for (int j = 0; j < contexts.size(); j++) {
                    QueryContext c = contexts.get(j);
                    answers[positions.get(j)] = failed(c.query(), c.entry(), e);
                }
                return;
            }
            Timing t = s.timing(result);   // each query of the batch waited for all of it
            for (int j = 0; j < contexts.size(); j++) {
                QueryContext c = contexts.get(j);
                long t0 = System.nanoTime();
                QueryResult r = s.summary(c, result, j);
                answers[positions.get(j)] = ok(List.of(r), c.entry(), c.resident(), t, System.nanoTime() - t0, engine);
            }
        }
    }

    /** A query that failed: its code's status, or INTERNAL_ERROR (logged) for a fault of the worker. */
    private QueryAnswer failed(GraphQuery q, GraphEntry entry, RuntimeException e) {
        ErrorCode code = ErrorCode.of(e);
        if (code == ErrorCode.INTERNAL_ERROR || code.resultStatus().isEmpty()) {   // the worker's fault, not the query's
            LOG.error("query {} on graph {} failed", LogSafe.quote(q.getQueryId()), LogSafe.quote(q.getGraphId()), e);
            return failure(q, entry, ErrorCode.INTERNAL_ERROR, "internal error: " + e);
        }
        return failure(q, entry, code, e.getMessage());
    }

    /** A TARGETS query read at its targets by the engine (only their values leave the device). */
    private <T> QueryAnswer runAtTargets(AnswerEncoder.AtTargets<T> a, QueryContext c) {
        int source = c.source();
        long engine = System.nanoTime();
        T result = c.resident().run(a.spec(), new Targets(source, c.targets()), null);
        long t0 = System.nanoTime();
        List<QueryResult> chunks = a.encode(c, result);
        return ok(chunks, c.entry(), c.resident(), a.timing(result), System.nanoTime() - t0, t0 - engine);
    }

    /**
     * An engine run of the queries of one run: the resident graph (identity), the spec, the variant text and the
     * engine's query (a value: a source, the whole graph). Queries with equal keys have equal answers (same version,
     * same computation), so the run computes them once: a burst of MST queries costs one MST.
     */
    private record RunKey(ResidentGraph resident, AlgorithmSpec<?, ?> spec, String variant, Object query) {}

    /** Runs the query's algorithm through its encoder: the engine's query, the result (computed once per run for
     *  equal engine queries), the chunks. */
    @SuppressWarnings("unchecked")
    private <Q, R> QueryAnswer run(Encoding<Q, R> encoder, QueryContext c, Map<RunKey, Object> computed) {
        Q query = encoder.query(c);
        String variant = c.query().getVariant();
        RunKey key = new RunKey(c.resident(), encoder.spec(), variant == null ? "" : variant, query);
        R result = (R) computed.get(key);
        long engine = 0;   // an equal query of the run computed it: this one waited for no engine call
        if (result == null) {
            engine = System.nanoTime();
            result = c.resident().run(encoder.spec(), query, variant);
            engine = System.nanoTime() - engine;
            computed.put(key, result);
        }
        long t0 = System.nanoTime();
        List<QueryResult> chunks = encoder.encode(c, result);
        return ok(chunks, c.entry(), c.resident(), encoder.timing(result), System.nanoTime() - t0, engine);
    }

    private static QueryAnswer ok(List<QueryResult> chunks, GraphEntry entry, ResidentGraph resident, Timing t, long encodeNanos,
                                  long engineNanos) {
        return new QueryAnswer(chunks, null, null, resident.backend(), entry.vertexCount(), entry.edgeCount(),
                t.computeNanos(), t.copyNanos(), encodeNanos, engineNanos);
    }

    /**
     * The answer to a query that failed before it reached this service (a key that differs from its graph id, a
     * fault of the worker): one chunk with the code's status, so a waiting client is not left hanging. A code no
     * query fails with is answered INTERNAL_ERROR.
     */
    public QueryAnswer failed(GraphQuery q, ErrorCode code, String message) {
        return failure(q, null, code.resultStatus().isPresent() ? code : ErrorCode.INTERNAL_ERROR, message);
    }

    private QueryAnswer failure(GraphQuery q, GraphEntry entry, ErrorCode code, String message) {
        ResultStatus status = code.resultStatus().orElseThrow();
        QueryResult r = QueryResult.newBuilder()
                .setQueryId(q.getQueryId())
                .setGraphId(q.getGraphId())
                .setGraphVersion(entry == null ? -1 : entry.version())
                .setAlgorithm(q.getAlgorithm())
                .setVariant(q.getVariant())
                .setStatus(status)
                .setError(message)
                .setBackend(entry == null ? "" : entry.resident().backend())
                .setVertexCount(entry == null ? 0 : entry.vertexCount())
                .setFirstVertexId(entry == null ? 0 : entry.firstVertexId())
                .setSource(q.getSource())
                .build();
        return new QueryAnswer(List.of(r), code, message, r.getBackend(), r.getVertexCount(),
                entry == null ? 0 : entry.edgeCount(), 0, 0, 0, 0);
    }

}
