package org.frontiergraph.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.TopicWatcher;
import org.frontiergraph.kernels.graph.CsrGraph;
import org.frontiergraph.kernels.graph.GraphEdit;
import org.frontiergraph.kernels.io.GraphFiles;
import org.frontiergraph.kernels.io.GraphFormat;
import org.frontiergraph.kernels.io.LoadedGraph;
import org.frontiergraph.kernels.sssp.DijkstraReference;
import org.frontiergraph.kernels.sssp.SsspResult;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.codec.PackedArrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The live page (/ui) in a real browser (Debian's headless Chromium): it loads, draws the demo graph with the
 * shortest path between two vertices, and the drawing changes after an update re-weights a road on that path.
 * The path the page shows is checked against Dijkstra on the same version. Without Chromium the test is skipped
 * with the reason ({@link Chromium#assumePresent}).
 */
class LiveViewBrowserIT extends WorkerIT {
    @BeforeEach
    void browser() {
        Chromium.assumePresent();
    }

    @BeforeAll
    static void start() {
        if (!Chromium.available()) return;   // each test is skipped, with the reason (browser())
        startWorker(Map.of("frontier.backend", "cpu",
                "frontier.worker-id", "ui-it", "frontier.topics.partitions", 2, "micronaut.server.port", -1));
    }

    record Answer(String graph, long version, int highlighted, String hash, String summary) {}

    @Test
    void pageDrawsTheDemoGraphAndRedrawsAfterAnUpdate() throws Exception {
        LoadedGraph rome = rome();
        CsrGraph v1 = rome.toCsr();
        int first = 1, source = 1, target = 3000;   // DIMACS ids
        try (TopicWatcher<GraphStatus> status = client.watchStatus()) {
            client.publishSnapshot("rome", 1, Snapshots.of(rome.edges()), first, true, null);
            Pipeline.awaitLoaded(status, "rome", 1);

            String url = "http://localhost:" + worker.context().getBean(EmbeddedServer.class).getPort()
                    + "/ui?graph=rome&algorithm=sssp&source=" + source + "&target=" + target;
            Answer before = render(url, Path.of("target", "ui-before.png"));
            assertEquals("rome", before.graph());
            assertEquals(1, before.version());
            List<int[]> path = path(DijkstraReference.run(v1, source - first), target - first);
            assertEquals(path.size(), before.highlighted(), "the page highlights the shortest path: " + before.summary());
            double length = DijkstraReference.run(v1, source - first).distances()[target - first];
            assertTrue(before.summary().contains("length " + (long) length), before.summary());

            // make the middle road of that path 1000 times slower: the shortest path moves
            int[] arc = path.get(path.size() / 2);
            double w = v1.weights()[v1.findArc(arc[0], arc[1])] * 1000;
            client.publishUpdate(GraphUpdate.newBuilder().setGraphId("rome").setUpdateId("slow-road").setBaseVersion(1L)
                    .setReweighted(PackedArrays.edgeBatch(new int[] {arc[0] + first}, new int[] {arc[1] + first}, new double[] {w})).build());
            Pipeline.awaitLoaded(status, "rome", 2);
            CsrGraph v2 = GraphEdit.reweight(v1, new int[] {arc[0]}, new int[] {arc[1]}, new double[] {w});

            Answer after = render(url, Path.of("target", "ui-after.png"));
            assertEquals(2, after.version(), "the page follows the graph to version 2");
            assertNotEquals(before.hash(), after.hash(), "the drawn path changed");
            SsspResult r2 = DijkstraReference.run(v2, source - first);
            assertEquals(path(r2, target - first).size(), after.highlighted(), after.summary());
            assertTrue(after.summary().contains("length " + (long) r2.distances()[target - first]), after.summary());
        }
    }

    /** Loads the page in headless Chromium until the drawing settles; reads the answer's data attributes. */
    static Answer render(String url, Path screenshot) throws Exception {
        return answer(Chromium.render(url, screenshot));
    }

    /** The drawn answer's data attributes and summary in a rendered page. */
    static Answer answer(String dom) {
        Matcher m = Pattern.compile("<div id=\"answer\" data-graph=\"([^\"]*)\" data-version=\"(\\d*)\" "
                + "data-highlight-count=\"(\\d+)\" data-highlight-hash=\"([0-9a-f]*)\"").matcher(dom);
        assertTrue(m.find(), "the page has no answer element; DOM:\n" + dom.substring(0, Math.min(dom.length(), 3000)));
        Matcher s = Pattern.compile("<div id=\"summary\">([^<]*)</div>").matcher(dom);
        return new Answer(m.group(1), m.group(2).isEmpty() ? -1 : Long.parseLong(m.group(2)), Integer.parseInt(m.group(3)), m.group(4),
                s.find() ? s.group(1) : "");
    }

    /** The arcs (u, v) of the tree path from the source to {@code t}, source first. */
    static List<int[]> path(SsspResult r, int t) {
        List<int[]> arcs = new ArrayList<>();
        for (int v = t; v != r.source(); v = r.parents()[v]) arcs.add(0, new int[] {r.parents()[v], v});
        return arcs;
    }

    static LoadedGraph rome() throws IOException {
        try (InputStream in = LiveViewBrowserIT.class.getResourceAsStream("/demo/rome99.gr.gz")) {
            return GraphFiles.read(in, "rome99.gr.gz", GraphFormat.DIMACS, false);
        }
    }
}
