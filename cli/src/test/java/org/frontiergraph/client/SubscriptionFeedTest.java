package org.frontiergraph.client;

import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.SubscriptionView;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.processing.InputRecord;
import org.frontiergraph.worker.processing.Outputs;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pushes as a subscriber reads them: made by the worker's processor (no Kafka), through their Avro bytes, grouped
 * into pushes by {@link SubscriptionFeed} and printed by {@link JsonAnswer#writePush} (what {@code ./frontier
 * subscribe} prints), parsed back with Jackson. The graph (ids 1..5, directed): 1->2 (1.5), 2->3 (2), 1->3 (5),
 * 4->5 (1); from 1, vertices 4 and 5 are unreachable. Answers come in chunks of two vertices / one edge, so a
 * complete push is several chunks.
 */
class SubscriptionFeedTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPIC = "frontier.graphs";

    private final Services services;
    private long offset;

    SubscriptionFeedTest() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(2);
        config.setResultChunkEdges(1);
        services = Fixtures.start(config);
        services.install(List.of(chunk("small", 1, 0, 1, 5, 4, true, 1, 1, 2, 1.5, 2, 3, 2, 1, 3, 5, 4, 5, 1)), 0);
        services.install(List.of(chunk("ring", 1, 0, 1, 4, 4, false, 1, 1, 2, 1, 2, 3, 2, 1, 3, 3, 3, 4, 1)), 0);
    }

    @AfterEach
    void close() {
        services.close();
    }

    /** The results of one record, as a consumer decodes them from the topic. */
    private List<QueryResult> feed(String key, SpecificRecord r) {
        return wire(services.processor().process(new InputRecord(TOPIC, 0, offset++, key, FrontierCodec.encode(r), 0), false));
    }

    /** The pushes due at the end of a poll batch. */
    private List<QueryResult> flush() {
        return wire(services.processor().flushSubscriptions(p -> true, System.currentTimeMillis()));
    }

    private static List<QueryResult> wire(Outputs out) {
        List<QueryResult> decoded = new ArrayList<>();
        for (QueryResult r : out.results()) {
            try {
                decoded.add(FrontierCodec.decode(FrontierCodec.encode(r), QueryResult.class));
            } catch (FrontierCodec.MalformedMessageException e) {
                throw new AssertionError(e);
            }
        }
        return decoded;
    }

    private static Subscription.Builder sub(String id, String graph, Algorithm a, Integer source) {
        return Subscription.newBuilder().setSubscriptionId(id).setGraphId(graph).setAlgorithm(a).setSource(source);
    }

    private static GraphUpdate.Builder update(String graph) {
        return GraphUpdate.newBuilder().setGraphId(graph);
    }

    /** Every push the chunks complete, in order. */
    private static List<SubscriptionFeed.Push> pushes(SubscriptionFeed feed, List<QueryResult> chunks) {
        List<SubscriptionFeed.Push> out = new ArrayList<>();
        for (QueryResult c : chunks) {
            SubscriptionFeed.Push p = feed.accept(c);
            if (p != null) out.add(p);
        }
        return out;
    }

    private static SubscriptionFeed.Push only(SubscriptionFeed feed, List<QueryResult> chunks) {
        List<SubscriptionFeed.Push> p = pushes(feed, chunks);
        assertEquals(1, p.size(), "one push: " + p);
        return p.get(0);
    }

    private static JsonNode line(SubscriptionFeed.Push p) throws IOException {
        StringWriter out = new StringWriter();
        JsonAnswer.writePush(p.chunks(), out);
        String s = out.toString();
        assertTrue(s.endsWith("}\n") && s.indexOf('\n') == s.length() - 1, "one line: " + s);
        return JSON.readTree(s);
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /**
     * One subscription id on two graphs is two subscriptions (docs/contract.md, "Subscription"): a view follows one
     * graph's pushes and never applies the other's, though both come keyed by the same id.
     */
    @Test
    void oneIdOnTwoGraphsIsTwoSubscriptionsAndAViewAppliesOnlyItsGraphsPushes() {
        SubscriptionFeed both = new SubscriptionFeed(null, List.of()).follow("small", "spf").follow("ring", "spf");
        SubscriptionFeed smallOnly = new SubscriptionFeed(null, List.of()).follow("small", "spf");
        SubscriptionFeed unnamed = new SubscriptionFeed(null, List.of("spf"));   // bound to the first push's graph
        List<QueryResult> chunks = new ArrayList<>();
        feed("small", sub("spf", "small", Algorithm.SSSP, 1).build());
        feed("ring", sub("spf", "ring", Algorithm.SSSP, 1).build());
        chunks.addAll(flush());
        feed("small", update("small").setReweighted(Fixtures.weighted(2, 3, 10)).build());   // small: 3 now at 5
        feed("ring", update("ring").setReweighted(Fixtures.weighted(1, 3, 0.5)).build());    // ring: 3 at 0.5, 4 at 1.5
        chunks.addAll(flush());
        Set<String> graphs = new HashSet<>();
        for (QueryResult c : chunks) {
            assertEquals("spf", c.getQueryId());
            graphs.add(c.getGraphId());
        }
        assertEquals(Set.of("small", "ring"), graphs, "both graphs pushed under the one id");

        List<SubscriptionFeed.Push> pushes = pushes(both, chunks);
        assertEquals(4, pushes.size(), "INITIAL and UPDATE of each graph: " + pushes);
        pushes.forEach(p -> assertEquals(SubscriptionFeed.Outcome.APPLIED, p.outcome(), p.graphId() + " #" + p.sequence()));
        double inf = Double.POSITIVE_INFINITY;
        double[] small = {0, 1.5, 5, inf, inf}, ring = {0, 1, 0.5, 1.5};
        assertArrayEquals(small, both.view("small", "spf").distances());
        assertArrayEquals(ring, both.view("ring", "spf").distances());
        assertEquals(2, both.view("small", "spf").version());
        assertEquals(2, both.view("ring", "spf").version());
        assertThrows(IllegalArgumentException.class, () -> both.view("spf"), "ambiguous: the graph must be named");

        List<SubscriptionFeed.Push> smallPushes = pushes(smallOnly, chunks);
        assertEquals(2, smallPushes.size());
        smallPushes.forEach(p -> assertEquals("small", p.graphId()));
        assertArrayEquals(small, smallOnly.view("spf").distances(), "the other graph's pushes were never applied");
        assertThrows(IllegalArgumentException.class, () -> smallOnly.view("ring", "spf"));

        List<SubscriptionFeed.Push> first = pushes(unnamed, chunks);
        assertEquals(2, first.size());
        assertEquals(chunks.get(0).getGraphId(), first.get(0).graphId());
        assertArrayEquals(chunks.get(0).getGraphId().equals("small") ? small : ring, unnamed.view("spf").distances());

        // a cancel names its graph and ends that subscription only; the other keeps pushing
        feed("ring", sub("spf", "ring", Algorithm.SSSP, 1).setCancel(true).build());
        SubscriptionFeed.Push end = only(both, flush());
        assertTrue(end.end());
        assertEquals("ring", end.graphId());
        assertTrue(both.view("ring", "spf").ended());
        assertFalse(both.view("small", "spf").ended());
        feed("small", update("small").setReweighted(Fixtures.weighted(2, 3, 1)).build());
        feed("ring", update("ring").setReweighted(Fixtures.weighted(1, 2, 7)).build());
        SubscriptionFeed.Push after = only(both, flush());
        assertEquals("small", after.graphId());
        assertArrayEquals(new double[] {0, 1.5, 2.5, inf, inf}, both.view("small", "spf").distances());
        assertArrayEquals(ring, both.view("ring", "spf").distances(), "the ended one is left as it was");
    }

    @Test
    void ssspDeltaLinesCarryTheWholeAnswerThenOnlyWhatChanged() throws IOException {
        SubscriptionFeed feed = new SubscriptionFeed(null, List.of("spf"));
        feed("small", sub("spf", "small", Algorithm.SSSP, 1).build());
        SubscriptionFeed.Push initial = only(feed, flush());
        assertEquals(3, initial.chunks().size(), "five vertices in chunks of two");
        assertEquals(SubscriptionFeed.Outcome.APPLIED, initial.outcome());
        JsonNode j = line(initial);
        assertEquals(List.of("subscriptionId", "graphId", "reason", "sequence", "graphVersion", "delta", "status", "algorithm",
                "source", "vertexCount", "distances", "parents"), keys(j));
        assertEquals("spf", j.get("subscriptionId").asText());
        assertEquals("INITIAL", j.get("reason").asText());
        assertEquals(0, j.get("sequence").asLong());
        assertEquals(1, j.get("graphVersion").asLong());
        assertFalse(j.get("delta").asBoolean());
        assertEquals("OK", j.get("status").asText());
        assertEquals(5, j.get("vertexCount").asInt());
        assertEquals(List.of("1", "2", "3", "4", "5"), keys(j.get("distances")));
        assertEquals(3.5, j.get("distances").get("3").asDouble());
        assertTrue(j.get("distances").get("4").isNull(), "unreachable: null");
        assertEquals(2, j.get("parents").get("3").asInt());

        // 2->3 slower: vertex 3 is now reached directly from 1; only it is pushed
        feed("small", update("small").setReweighted(Fixtures.weighted(2, 3, 10)).build());
        JsonNode u = line(only(feed, flush()));
        assertEquals("UPDATE", u.get("reason").asText());
        assertEquals(1, u.get("sequence").asLong());
        assertEquals(2, u.get("graphVersion").asLong());
        assertTrue(u.get("delta").asBoolean());
        assertEquals(List.of("3"), keys(u.get("distances")));
        assertEquals(5, u.get("distances").get("3").asInt());
        assertEquals(1, u.get("parents").get("3").asInt());

        // a new vertex 6 behind 3: the graph grows, the push lists the new vertex
        feed("small", update("small").setAddedVertexCount(1).setAdded(Fixtures.weighted(3, 6, 0.5)).build());
        SubscriptionFeed.Push grown = only(feed, flush());
        JsonNode g = line(grown);
        assertEquals(6, g.get("vertexCount").asInt());
        assertEquals(List.of("6"), keys(g.get("distances")));
        assertEquals(5.5, g.get("distances").get("6").asDouble());
        assertArrayEquals(new double[] {0, 1.5, 5, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 5.5},
                feed.view("spf").distances(), "the view, from the pushes alone");
        assertArrayEquals(new int[] {0, 0, 0, -1, -1, 2}, feed.view("spf").parents(), "parents as dense positions");
        assertEquals(3, feed.view("spf").version());

        feed("small", sub("spf", "small", Algorithm.SSSP, 1).setCancel(true).build());
        SubscriptionFeed.Push end = only(feed, flush());
        assertTrue(end.end());
        JsonNode e = line(end);
        assertEquals("END", e.get("reason").asText());
        assertEquals(3, e.get("sequence").asLong());
        assertEquals("OK", e.get("status").asText());
        assertNull(e.get("error"));
        assertNull(e.get("distances"), "an END push carries no answer");
        assertTrue(feed.view("spf").ended());
    }

    @Test
    void bfsTargetsAndSummaryLines() throws IOException {
        SubscriptionFeed feed = new SubscriptionFeed(null, List.of("hops", "reach"));
        feed("small", sub("hops", "small", Algorithm.BFS, 1).setResultMode(ResultMode.TARGETS).setTargets(List.of(3, 5)).build());
        feed("small", sub("reach", "small", Algorithm.SSSP, 1).setResultMode(ResultMode.SUMMARY).build());
        List<SubscriptionFeed.Push> first = pushes(feed, flush());
        assertEquals(2, first.size());
        JsonNode t = line(first.stream().filter(p -> p.subscriptionId().equals("hops")).findFirst().orElseThrow());
        assertEquals(List.of("3", "5"), keys(t.get("hops")), "the targets, in the order asked");
        assertEquals(1, t.get("hops").get("3").asInt());
        assertTrue(t.get("hops").get("5").isNull());
        JsonNode s = line(first.stream().filter(p -> p.subscriptionId().equals("reach")).findFirst().orElseThrow());
        assertEquals(3, s.get("reached").asLong());
        assertEquals(3.5, s.get("maxDistance").asDouble());
        assertNull(s.get("distances"), "a summary has no per-vertex values");
    }

    @Test
    void mstDeltaLinesListTheEdgesThatLeftAndJoinedTheForest() throws IOException {
        SubscriptionFeed feed = new SubscriptionFeed(null, List.of("forest"));
        feed("ring", sub("forest", "ring", Algorithm.MST, null).build());
        JsonNode initial = line(only(feed, flush()));
        assertEquals(4, initial.get("totalWeight").asInt());
        assertEquals(Set.of("1-2:1", "2-3:2", "3-4:1"), edges(initial.get("edges"), true));
        assertNull(initial.get("removedEdges"), "a complete answer removes nothing");

        // 2-3 heavier than 1-3: they swap
        feed("ring", update("ring").setReweighted(Fixtures.weighted(2, 3, 5)).build());
        SubscriptionFeed.Push swap = only(feed, flush());
        JsonNode u = line(swap);
        assertTrue(u.get("delta").asBoolean());
        assertEquals(5, u.get("totalWeight").asInt());
        assertEquals(1, u.get("components").asInt());
        assertEquals(Set.of("1-3:3"), edges(u.get("edges"), true));
        assertEquals(Set.of("2-3"), edges(u.get("removedEdges"), false));
        assertEquals(Set.of(SubscriptionView.key(1, 2), SubscriptionView.key(1, 3), SubscriptionView.key(3, 4)),
                feed.view("forest").forest().keySet(), "the view's forest, from the pushes alone");
    }

    @Test
    void ccDeltaLinesNameTheSplitsAndMergesAndTheViewFollows() throws IOException {
        SubscriptionFeed feed = new SubscriptionFeed(null, List.of("parts"));
        feed("ring", sub("parts", "ring", Algorithm.CC, null).build());
        SubscriptionFeed.Push initial = only(feed, flush());
        assertEquals(2, initial.chunks().size(), "four vertices in chunks of two");
        JsonNode i = line(initial);
        assertEquals(1, i.get("components").asInt());
        assertEquals(4, i.get("largestComponent").asInt());
        assertEquals(List.of("1", "2", "3", "4"), keys(i.get("labels")));
        assertNull(i.get("componentChanges"), "a complete answer names no change");

        // 3-4 goes: 4 is cut off
        feed("ring", update("ring").setRemoved(Fixtures.pairs(3, 4)).build());
        JsonNode cut = line(only(feed, flush()));
        assertTrue(cut.get("delta").asBoolean());
        assertEquals(2, cut.get("components").asInt());
        assertEquals(3, cut.get("largestComponent").asInt());
        assertEquals(List.of("4"), keys(cut.get("labels")));
        assertEquals(4, cut.get("labels").get("4").asInt());
        assertEquals("[{\"split\":1,\"into\":[1,4]}]", cut.get("componentChanges").toString());
        assertArrayEquals(new int[] {0, 0, 0, 3}, feed.view("parts").labels(), "labels as dense positions");

        // a new vertex 5 linked to 4: the two merge, labeled 4
        feed("ring", update("ring").setAddedVertexCount(1).setAdded(Fixtures.weighted(4, 5, 1)).build());
        SubscriptionFeed.Push joined = only(feed, flush());
        JsonNode j = line(joined);
        assertEquals(5, j.get("vertexCount").asInt());
        assertEquals(List.of("5"), keys(j.get("labels")));
        assertEquals("[{\"merged\":4,\"from\":[4,5]}]", j.get("componentChanges").toString());
        SubscriptionView view = feed.view("parts");
        assertArrayEquals(new int[] {0, 0, 0, 3, 3}, view.labels(), "the view, from the pushes alone");
        assertEquals(2L, view.components());
        assertEquals(3L, view.largestComponent());
        assertEquals(1, view.componentChanges().size());
        assertEquals(3, view.version());
    }

    /** Edges of a JSON array as "u-v[:w]", smaller end first. */
    private static Set<String> edges(JsonNode array, boolean weighted) {
        Set<String> out = new HashSet<>();
        for (JsonNode e : array) {
            int a = e.get(0).asInt(), b = e.get(1).asInt();
            out.add(Math.min(a, b) + "-" + Math.max(a, b) + (weighted ? ":" + e.get(2).asInt() : ""));
        }
        return out;
    }

    @Test
    void aFailedSubscriptionEndsWithItsStatusAndError() throws IOException {
        SubscriptionFeed feed = new SubscriptionFeed(null, List.of("lost"));
        feed("nowhere", sub("lost", "nowhere", Algorithm.BFS, 1).build());
        SubscriptionFeed.Push end = only(feed, flush());
        assertTrue(end.end());
        JsonNode j = line(end);
        assertEquals("UNKNOWN_GRAPH", j.get("status").asText());
        assertTrue(j.get("error").asText().contains("nowhere"), j.toString());
        assertEquals("UNKNOWN_GRAPH", end.status().name());
    }

    @Test
    void chunksAreGroupedIntoPushesAndRepeatsGapsAndStrayRecordsAreToldApart() {
        SubscriptionFeed feed = new SubscriptionFeed(null, List.of("spf"));
        feed("small", sub("spf", "small", Algorithm.SSSP, 1).build());
        feed("small", sub("other", "small", Algorithm.BFS, 1).build());
        List<QueryResult> initial = flush();
        List<QueryResult> mine = initial.stream().filter(c -> c.getQueryId().equals("spf")).toList();
        assertEquals(3, mine.size());

        // an incomplete push (its worker died after one chunk) is dropped when the next push of the id starts
        assertNull(feed.accept(mine.get(0)));
        assertNull(feed.accept(mine.get(0)), "a chunk read twice counts once");
        services.processor().rebuilt(0);
        List<QueryResult> resync = flush().stream().filter(c -> c.getQueryId().equals("spf")).toList();
        SubscriptionFeed.Push r = only(feed, resync);
        assertEquals(PushReason.RESYNC, r.reason());
        assertEquals(SubscriptionFeed.Outcome.APPLIED, r.outcome());
        assertEquals(3, r.chunks().size());
        assertEquals(List.of(0, 1, 2), r.chunks().stream().map(QueryResult::getChunkIndex).toList());

        // the pushes of ids not followed, and answers to queries, are not ours
        assertTrue(pushes(feed, initial.stream().filter(c -> !c.getQueryId().equals("spf")).toList()).isEmpty());
        List<QueryResult> answer = feed("small", Fixtures.query("spf", "small", Algorithm.SSSP, 1).build());
        assertEquals(3, answer.size());
        assertTrue(pushes(feed, answer).isEmpty(), "a query's answer with the same id is not a push");

        // a push delivered again is a repeat; the view keeps the later state
        feed("small", update("small").setReweighted(Fixtures.weighted(2, 3, 10)).build());
        List<QueryResult> first = flush().stream().filter(c -> c.getQueryId().equals("spf")).toList();
        assertEquals(SubscriptionFeed.Outcome.APPLIED, only(feed, first).outcome());
        assertEquals(SubscriptionFeed.Outcome.REPEATED, only(feed, first).outcome());
        assertEquals(5, feed.view("spf").distances()[2]);

        // a push missed: the next one is a gap, the view is stale until a complete push
        feed("small", update("small").setReweighted(Fixtures.weighted(1, 3, 1)).build());
        flush();   // lost
        feed("small", update("small").setReweighted(Fixtures.weighted(1, 2, 0.5)).build());
        SubscriptionFeed.Push gap = only(feed, flush().stream().filter(c -> c.getQueryId().equals("spf")).toList());
        assertEquals(SubscriptionFeed.Outcome.GAP, gap.outcome());
        assertTrue(feed.view("spf").stale());
        services.processor().rebuilt(0);
        SubscriptionFeed.Push again = only(feed, flush().stream().filter(c -> c.getQueryId().equals("spf")).toList());
        assertEquals(SubscriptionFeed.Outcome.APPLIED, again.outcome());
        assertFalse(feed.view("spf").stale());
        assertArrayEquals(new double[] {0, 0.5, 1, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY}, feed.view("spf").distances());
    }
}
