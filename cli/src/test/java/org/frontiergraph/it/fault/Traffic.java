package org.frontiergraph.it.fault;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.it.Pipeline;
import org.frontiergraph.kernels.engine.Verification;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.kernels.graph.GraphBuilder;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * A steady stream of good traffic over several graphs, and what each query must be answered with: every update
 * names its base version (an update applied on any other version would be rejected), every query expects the version
 * that includes every update published before it. {@link #check} holds the results topic against the expectations.
 * Graphs are small (a few hundred vertices) so that BFS runs on one thread and a re-delivered answer is identical.
 */
final class Traffic {
    /** What one query must be answered with. */
    record Expected(String queryId, String graphId, long version, long publishedNanos) {}

    /** A graph's versions as the test computes them (GraphEdit, the same rules the worker applies). */
    static final class Model {
        final String id;
        final EdgeList snapshot;
        final List<CsrGraph> versions = new ArrayList<>();

        Model(String id, EdgeList snapshot) {
            this.id = id;
            this.snapshot = snapshot;
            versions.add(GraphBuilder.build(snapshot));
        }

        long version() { return versions.size(); }

        CsrGraph at(long version) { return versions.get((int) version - 1); }

        /** Re-weights one existing edge and adds one, on the current version; the model moves to the next. */
        GraphUpdate nextUpdate(Random rnd) {
            CsrGraph g = at(version());
            int u;
            do {
                u = rnd.nextInt(g.vertexCount());
            } while (g.degree(u) == 0);
            int v = g.columns()[g.rowStart(u) + rnd.nextInt(g.degree(u))];
            double w = 1 + rnd.nextInt(100);
            int a = rnd.nextInt(g.vertexCount()), b = (a + 1 + rnd.nextInt(g.vertexCount() - 1)) % g.vertexCount();
            double aw = 1 + rnd.nextInt(100);
            GraphUpdate up = GraphUpdate.newBuilder().setGraphId(id).setBaseVersion(version())
                    .setReweighted(PackedArrays.edgeBatch(new int[] {u}, new int[] {v}, new double[] {w}))
                    .setAdded(PackedArrays.edgeBatch(new int[] {a}, new int[] {b}, new double[] {aw})).build();
            versions.add(GraphEdit.apply(g, new int[0], new int[0], new int[] {u}, new int[] {v}, new double[] {w},
                    new int[] {a}, new int[] {b}, new double[] {aw}));
            return up;
        }
    }

    private final FrontierClient client;
    private final Random rnd;
    private final String prefix;
    private final Map<String, Model> graphs = new LinkedHashMap<>();
    private final Map<String, Expected> queries = new ConcurrentHashMap<>();
    private final AtomicInteger updates = new AtomicInteger();
    private final Algorithm[] algorithms = {Algorithm.BFS, Algorithm.SSSP, Algorithm.MST};
    private int step;

    Traffic(FrontierClient client, String prefix, int graphCount, int vertices, long seed) {
        this.client = client;
        this.prefix = prefix;
        this.rnd = new Random(seed);
        for (int i = 0; i < graphCount; i++) {
            String id = prefix + "-" + i;
            graphs.put(id, new Model(id, UniformRandomGraph.generate(vertices, vertices * 4L, seed + i, 100, i % 2 == 0)));
        }
    }

    Collection<String> graphIds() { return graphs.keySet(); }

    Model model(String graphId) { return graphs.get(graphId); }

    /** Publishes version 1 of every graph. */
    void publishSnapshots() {
        for (Model m : graphs.values()) client.publishSnapshot(m.id, 1, Snapshots.of(m.snapshot), 0, true, null);
    }

    /** One step: an update on one graph every third step, and a query on another. Called from one thread. */
    synchronized void step() {
        List<String> ids = List.copyOf(graphs.keySet());
        if (step % 3 == 0) {
            Model m = graphs.get(ids.get(rnd.nextInt(ids.size())));
            client.publishUpdate(m.nextUpdate(rnd));
            updates.incrementAndGet();
        }
        query(ids.get(step % ids.size()));
        step++;
    }

    /** Publishes a query on a graph, expecting the version its model holds now. */
    /** Steps every {@code periodMs} on {@code pace}; the first failure lands in {@code failure} and stops the pacing. */
    void every(ScheduledExecutorService pace, long periodMs, AtomicReference<Throwable> failure) {
        pace.scheduleAtFixedRate(() -> {
            try {
                step();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                throw e;
            }
        }, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    synchronized Expected query(String graphId) {
        Model m = graphs.get(graphId);
        Algorithm a = algorithms[rnd.nextInt(algorithms.length)];
        GraphQuery q = GraphQuery.newBuilder().setQueryId(prefix + "-q" + queries.size() + "-" + a)
                .setGraphId(graphId).setAlgorithm(a)
                .setSource(a == Algorithm.MST ? null : rnd.nextInt(m.at(m.version()).vertexCount())).build();
        Expected e = new Expected(q.getQueryId(), graphId, m.version(), System.nanoTime());
        queries.put(q.getQueryId(), e);   // before publishing: its answer may arrive before publishQuery returns
        client.publishQuery(q);
        return e;
    }

    int queryCount() { return queries.size(); }

    int updateCount() { return updates.get(); }

    Collection<Expected> expected() { return List.copyOf(queries.values()); }

    /** Whether every query published so far has all its result chunks. */
    boolean allAnswered(OutputLog out) {
        Map<String, List<OutputLog.Arrival<QueryResult>>> by = out.resultsByQuery();
        for (Expected e : queries.values()) if (answeredAt(by.get(e.queryId())) < 0) return false;
        return true;
    }

    /** When the last missing chunk of a query's answer arrived; -1 while incomplete. */
    static long answeredAt(List<OutputLog.Arrival<QueryResult>> chunks) {
        if (chunks == null || chunks.isEmpty()) return -1;
        int count = chunks.get(0).value().getChunkCount();
        Map<Integer, Long> first = new LinkedHashMap<>();
        for (OutputLog.Arrival<QueryResult> a : chunks) first.putIfAbsent(a.value().getChunkIndex(), a.nanos());
        if (first.size() < count) return -1;
        return first.values().stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    /** The verdict on every query: counts, and a line for each failure. */
    record Report(int queries, int answered, int verified, int duplicateChunks, int updates, List<String> failures) {
        @Override
        public String toString() {
            return queries + " queries, " + answered + " answered, " + verified + " answered OK on the expected version and verified, "
                    + duplicateChunks + " identical re-delivered result chunks, " + updates + " updates, "
                    + failures.size() + " failures";
        }
    }

    /**
     * Every query answered exactly once per query id, OK, on the version that includes every update published
     * before it, and verified; a chunk delivered more than once must be identical (a re-delivery), and is counted.
     */
    Report check(OutputLog out) {
        Map<String, List<OutputLog.Arrival<QueryResult>>> by = out.resultsByQuery();
        List<String> failures = new ArrayList<>();
        int answered = 0, verified = 0, duplicates = 0;
        for (Expected e : queries.values()) {
            List<OutputLog.Arrival<QueryResult>> got = by.get(e.queryId());
            if (answeredAt(got) < 0) {
                failures.add(e.queryId() + ": no complete answer (" + (got == null ? 0 : got.size()) + " chunks)");
                continue;
            }
            answered++;
            Map<Integer, QueryResult> chunks = new LinkedHashMap<>();
            boolean conflicting = false;
            for (OutputLog.Arrival<QueryResult> a : got) {
                QueryResult r = a.value();
                QueryResult before = chunks.putIfAbsent(r.getChunkIndex(), r);
                if (before != null) {
                    duplicates++;
                    if (!before.equals(r)) {
                        conflicting = true;
                        failures.add(e.queryId() + ": chunk " + r.getChunkIndex() + " delivered twice with different contents ("
                                + before.getStatus() + " v" + before.getGraphVersion() + " vs " + r.getStatus() + " v" + r.getGraphVersion() + ")");
                    }
                }
            }
            if (conflicting) continue;
            List<QueryResult> answer = chunks.values().stream()
                    .sorted(java.util.Comparator.comparingInt(QueryResult::getChunkIndex)).toList();
            QueryResult h = answer.get(0);
            if (h.getStatus() != ResultStatus.OK) {
                failures.add(e.queryId() + ": status " + h.getStatus() + " (" + h.getError() + ")");
            } else if (h.getGraphVersion() != e.version()) {
                failures.add(e.queryId() + ": answered on version " + h.getGraphVersion() + " of " + e.graphId()
                        + ", published after version " + e.version());
            } else {
                Verification v = Pipeline.verify(answer, graphs.get(e.graphId()).at(e.version()));
                if (v.ok()) verified++;
                else failures.add(e.queryId() + ": " + h.getAlgorithm() + " answer fails verification: " + v.message());
            }
        }
        long strays = by.keySet().stream().filter(id -> id.startsWith(prefix + "-") && !queries.containsKey(id)).count();
        if (strays > 0) failures.add(strays + " results for query ids never published");
        return new Report(queries.size(), answered, verified, duplicates, updates.get(), failures);
    }
}
