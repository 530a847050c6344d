package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.generate.GridRoadGraph;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.frontiergraph.kernels.graph.EdgeList;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.worker.FrontierWorker;
import org.frontiergraph.worker.ui.ClusterView;
import org.frontiergraph.worker.ui.LiveView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live page of a cluster, in a real browser (Debian's headless Chromium): two workers on one real broker share 50
 * graphs (10 road grids and 40 dense random graphs, both partitions holding some of each). The page of one worker
 * lists every graph of both (from the status topic) in a table whose height stays bounded, so the drawing stays in the
 * window; its filter narrows the rows; it draws the smallest road grid that worker holds when none is asked for, and
 * the graph asked for otherwise. Without Chromium the test is skipped with the reason.
 */
class LiveViewClusterIT {
    static final int PARTITIONS = 2, ROADS_PER_PARTITION = 5, GRAPHS = 50;
    /** The graphs box's max-height (280 px) and its borders. */
    static final int MAX_TABLE_HEIGHT = 300;
    static final Pattern TIME_LABEL = Pattern.compile("\\d\\d:\\d\\d:\\d\\d \\((just now|\\d+ s ago|\\d+ min ago)\\)");

    static TestKafka kafka;
    static FrontierClient client;
    static FrontierWorker a, b;
    /** Graph id -> vertices, of the road grids; the other graphs are dense. */
    static final Map<String, Integer> roads = new LinkedHashMap<>();
    static final List<String> ids = new ArrayList<>();

    static FrontierWorker worker(String id) {
        return FrontierWorker.start(kafka.bootstrapServers(), Map.of("frontier.backend", "cpu", "frontier.worker-id", id,
                "frontier.group-id", "ui-cluster-it", "frontier.topics.partitions", PARTITIONS,
                "frontier.status-interval", "1s", "micronaut.server.port", -1));
    }

    static int partition(String graphId) {
        return Utils.toPositive(Utils.murmur2(graphId.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    @BeforeEach
    void browser() {
        Chromium.assumePresent();
    }

    @BeforeAll
    static void start() throws Exception {
        if (!Chromium.available()) return;   // each test is skipped, with the reason (browser())
        kafka = TestKafka.start();
        client = new FrontierClient(kafka.bootstrapServers());
        a = worker("ui-a");
        // road grids of distinct sizes, five in each partition; dense graphs for the rest
        int[] perPartition = new int[PARTITIONS];
        for (int k = 0; roads.size() < PARTITIONS * ROADS_PER_PARTITION; k++) {
            String id = String.format("road-%02d", k);
            if (perPartition[partition(id)] < ROADS_PER_PARTITION) {
                perPartition[partition(id)]++;
                roads.put(id, (4 + k) * (5 + k));
            }
        }
        ids.addAll(roads.keySet());
        for (int k = 0; ids.size() < GRAPHS; k++) ids.add(String.format("dense-%02d", k));
        long version = System.currentTimeMillis();   // as ./frontier load versions a snapshot: the time
        try (TopicWatcher<GraphStatus> status = client.watchStatus()) {
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i);
                EdgeList e = roads.containsKey(id)
                        ? GridRoadGraph.generate(4 + i, 5 + i, i, 20)
                        : UniformRandomGraph.generate(40 + i, 400, i, 20, false);
                client.publishSnapshot(id, version, Snapshots.of(e), 1, true, null);
            }
            for (String id : ids) Pipeline.awaitLoaded(status, id, version);
        }
        b = worker("ui-b");   // takes one partition from a, rebuilds its graphs from the log
        Awaitility.await("both workers ready, one partition each, all graphs listed").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250)).until(LiveViewClusterIT::settled);
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) client.close();
        if (b != null) b.close();
        if (a != null) a.close();
        if (kafka != null) kafka.close();
    }

    /** a's cluster view shows both workers ready with one partition each and every graph once. */
    @SuppressWarnings("unchecked")
    static boolean settled() {
        Map<String, Object> v = a.context().getBean(ClusterView.class).view();
        List<Map<String, Object>> workers = (List<Map<String, Object>>) v.get("workers");
        boolean ready = workers.size() == 2 && workers.stream().allMatch(w -> Boolean.TRUE.equals(w.get("ready"))
                && ((List<?>) w.get("partitions")).size() == 1);
        return ready && ((List<?>) v.get("graphs")).size() == GRAPHS;
    }

    static String url(String query) {
        return "http://localhost:" + a.context().getBean(EmbeddedServer.class).getPort() + "/ui" + query;
    }

    /** Graph ids of the graphs table's rows, with the worker each is on. */
    static Map<String, String> rows(String dom) {
        Map<String, String> out = new HashMap<>();
        Matcher m = Pattern.compile("<tr [^>]*data-graph=\"([^\"]+)\" data-worker=\"([^\"]+)\"").matcher(dom);
        while (m.find()) out.put(m.group(1), m.group(2));
        return out;
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePageOfOneWorkerShowsTheClusterInABoundedTableAndDrawsTheChosenGraph() throws Exception {
        String dom = Chromium.render(url(""), Path.of("target", "ui-cluster.png"));
        // the cluster view lists both workers and the graphs of both
        assertEquals("ui-a,ui-b", Chromium.attribute(dom, "layout", "data-workers"));
        Map<String, String> rows = rows(dom);
        assertEquals(GRAPHS, rows.size(), "every graph of the cluster is a row");
        assertEquals(String.valueOf(GRAPHS), Chromium.attribute(dom, "layout", "data-graph-rows"));
        long onB = rows.values().stream().filter("ui-b"::equals).count();
        assertTrue(onB > 0 && onB < GRAPHS, onB + " of the graphs listed are b's");
        for (String id : ids) {
            int p = partition(id);
            assertTrue(rows.containsKey(id), id + " listed");
            assertEquals(rows.get(id), ownerOf(p), id + " is listed on the worker that owns partition " + p);
        }
        Matcher version = Pattern.compile("<td title=\"version \\d+\">([^<]*)</td>").matcher(dom);
        assertTrue(version.find(), "a version cell");
        assertTrue(TIME_LABEL.matcher(version.group(1)).matches(), "a time version reads as time and age: " + version.group(1));

        // bounded: 50 graphs scroll inside the table; the drawing stays in the window
        int height = Integer.parseInt(Chromium.attribute(dom, "layout", "data-table-height"));
        assertTrue(height > 0 && height <= MAX_TABLE_HEIGHT, "the graphs table is " + height + " px high");
        int drawingTop = Integer.parseInt(Chromium.attribute(dom, "layout", "data-drawing-top"));
        assertTrue(drawingTop < Chromium.HEIGHT / 2, "the drawing starts at " + drawingTop + " px, in view");

        // the drawing: the smallest road grid a holds (never the first graph alphabetically, a dense one)
        int aPartition = ownerOf(0).equals("ui-a") ? 0 : 1;
        String smallest = roads.entrySet().stream().filter(e -> partition(e.getKey()) == aPartition)
                .min(Map.Entry.comparingByValue()).orElseThrow().getKey();
        Map<String, Object> draw = (Map<String, Object>) a.context().getBean(LiveView.class).overview(null).get("draw");
        assertEquals(smallest, draw.get("graphId"), "the worker's own choice");
        assertEquals(smallest, LiveViewBrowserIT.answer(dom).graph(), "the page drew the smallest road-like graph of a");

        // the filter narrows the rows
        String filter = "road-0";
        String filtered = Chromium.render(url("?filter=" + filter), Path.of("target", "ui-cluster-filtered.png"));
        long expected = ids.stream().filter(id -> id.contains(filter)).count();
        assertEquals(expected, rows(filtered).size(), "rows matching '" + filter + "'");
        assertEquals(String.valueOf(expected), Chromium.attribute(filtered, "layout", "data-graph-rows"));
        assertEquals(String.valueOf(GRAPHS), Chromium.attribute(filtered, "layout", "data-graph-total"));

        // the graph asked for is the one drawn, dense or not
        String dense = ids.stream().filter(id -> !roads.containsKey(id) && partition(id) == aPartition)
                .max(Comparator.naturalOrder()).orElseThrow();
        String asked = Chromium.render(url("?graph=" + dense + "&algorithm=mst"), Path.of("target", "ui-cluster-asked.png"));
        assertEquals(dense, LiveViewBrowserIT.answer(asked).graph());
    }

    /** The worker that owns partition {@code p} in a's cluster view. */
    @SuppressWarnings("unchecked")
    static String ownerOf(int p) {
        for (Map<String, Object> w : (List<Map<String, Object>>) a.context().getBean(ClusterView.class).view().get("workers")) {
            for (Map<String, Object> part : (List<Map<String, Object>>) w.get("partitions")) {
                if (((Number) part.get("partition")).intValue() == p) return (String) w.get("worker");
            }
        }
        throw new AssertionError("no worker owns partition " + p);
    }
}
