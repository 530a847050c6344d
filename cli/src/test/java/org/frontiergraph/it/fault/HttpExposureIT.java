package org.frontiergraph.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.frontiergraph.cli.Snapshots;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.kernels.generate.UniformRandomGraph;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Heavy and hostile (issue 27, row 7): HTTP from anywhere. A real worker process with a UI token
 * (FRONTIER_UI_TOKEN): the live view answers loopback callers and callers with the bearer token, and refuses a
 * caller from a non-loopback address of this machine (401; 403 on a worker without a token; 404 with the view
 * off); /health gives that caller the status alone (same HTTP code, no details); a graph beyond
 * frontier.ui.max-draw-edges is refused (413) before any work; a client's drawings are computed one at a time
 * (429) and served from a cache afterwards. Good traffic in between is answered exactly once and verified.
 */
class HttpExposureIT extends FaultTest {
    static final long SEED = 0xFA_0007L;
    static final int PARTITIONS = 2;
    static final String TOKEN = "t0k3n-" + Long.toHexString(SEED);
    static final List<String> UI = List.of("/ui", "/ui/app.js", "/ui/api/overview", "/ui/api/cluster",
            "/ui/api/graphs/good-0/view?algorithm=mst");
    static final List<String> HEALTH = List.of("/health", "/health/liveness", "/health/readiness");

    /** The first non-loopback address of this machine (IPv4 first), or null when it has none. */
    static InetAddress nonLoopback() throws Exception {
        List<InetAddress> found = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) continue;
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && !a.isLinkLocalAddress() && !a.isAnyLocalAddress()) found.add(a);
            }
        }
        return found.stream().filter(a -> a instanceof Inet4Address).findFirst().orElse(found.isEmpty() ? null : found.get(0));
    }

    @Test
    void theLiveViewAnswersOnlyLoopbackAndTokenCallersAndItsWorkIsBounded() throws Exception {
        long t0 = System.nanoTime();
        String bootstrap = startBroker("http", PARTITIONS);
        Map<String, String> settings = Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS));
        WorkerProcess exposed = start("exposed", bootstrap, settings, Map.of("FRONTIER_UI_TOKEN", TOKEN));
        InetAddress lo = InetAddress.getLoopbackAddress();
        InetAddress remote = nonLoopback();
        Map<String, String> none = Map.of(), bearer = Map.of("Authorization", "Bearer " + TOKEN),
                wrong = Map.of("Authorization", "Bearer " + TOKEN.substring(1));
        List<String> lines = new ArrayList<>();

        try (FrontierClient client = new FrontierClient(bootstrap); OutputLog out = new OutputLog(bootstrap)) {
            Traffic good = new Traffic(client, "good", 2, 300, SEED);
            good.publishSnapshots();
            // a dense graph beyond the edge cap (60,000 > 20,000), and a 5,000-vertex one under it
            client.publishSnapshot("dense", 1, Snapshots.of(UniformRandomGraph.generate(2_000, 60_000, SEED, 100, false)), 0, true, null);
            client.publishSnapshot("wide", 1, Snapshots.of(UniformRandomGraph.generate(5_000, 19_000, SEED + 1, 100, false)), 0, true, null);
            Awaitility.await("graphs loaded").atMost(Duration.ofSeconds(60)).until(() ->
                    good.graphIds().stream().allMatch(g -> out.loaded(g, 1)) && out.loaded("dense", 1) && out.loaded("wide", 1));
            good.step();

            // loopback: the live view without a token
            for (String path : UI) assertEquals(200, exposed.httpGet(lo, path, none).statusCode(), "loopback " + path);
            good.step();

            // the edge cap: refused before any work
            long c0 = System.nanoTime();
            HttpResponse<String> dense = exposed.httpGet(lo, "/ui/api/graphs/dense/view?algorithm=mst", none);
            long denseMs = (System.nanoTime() - c0) / 1_000_000;
            assertEquals(413, dense.statusCode(), dense.body());
            assertTrue(dense.body().contains("frontier.ui.max-draw-edges"), dense.body());
            good.step();

            // one drawing at a time per client: 8 uncached drawings of the 5,000-vertex graph sent side by side
            List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
            for (int s = 0; s < 8; s++) {
                burst.add(exposed.httpGetAsync(lo, "/ui/api/graphs/wide/view?algorithm=sssp&source=" + s, none));
            }
            int ok = 0, busy = 0;
            for (CompletableFuture<HttpResponse<String>> f : burst) {
                HttpResponse<String> r = f.get();
                if (r.statusCode() == 200) ok++;
                else if (r.statusCode() == 429) busy++;
                else throw new AssertionError("a burst drawing answered " + r.statusCode() + ": " + r.body());
            }
            assertTrue(ok >= 1 && busy >= 1, "8 drawings at once from one client: " + ok + " drawn, " + busy + " refused (429)");
            good.step();
            // the cache: a drawing done before comes back without being computed again
            long c1 = System.nanoTime();
            HttpResponse<String> first = exposed.httpGet(lo, "/ui/api/graphs/wide/view?algorithm=mst", none);
            long firstMs = (System.nanoTime() - c1) / 1_000_000;
            long c2 = System.nanoTime();
            HttpResponse<String> again = exposed.httpGet(lo, "/ui/api/graphs/wide/view?algorithm=mst", none);
            long againMs = (System.nanoTime() - c2) / 1_000_000;
            assertEquals(200, first.statusCode(), first.body());
            assertEquals(first.body(), again.body(), "the cached drawing");
            lines.add(String.format(Locale.ROOT, "loopback: live view 200 without a token; dense graph (60,000 edges) refused "
                    + "413 in %d ms; 8 drawings at once: %d drawn, %d refused 429; a 5,000-vertex MST drawing %d ms, "
                    + "again from the cache %d ms", denseMs, ok, busy, firstMs, againMs));

            String loLiveness = exposed.httpBody("/health/liveness");
            assertTrue(loLiveness.contains("\"restarts\":0"), "loopback sees the details: " + loLiveness);

            if (remote != null) {
                int refused = 0;
                for (String path : UI) {
                    HttpResponse<String> r = exposed.httpGet(remote, path, none);
                    assertEquals(401, r.statusCode(), remote + " " + path + ": " + r.body());
                    assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), r.headers().toString());
                    assertEquals(1, r.body().lines().count(), "a one-line reason: " + r.body());
                    assertFalse(r.body().contains("good-0"), r.body());
                    assertEquals(401, exposed.httpGet(remote, path, wrong).statusCode(), "a wrong token: " + path);
                    refused += 2;
                    assertEquals(200, exposed.httpGet(remote, path, bearer).statusCode(), "with the token: " + path);
                }
                assertTrue(exposed.httpGet(remote, "/ui/api/overview", bearer).body().contains("\"good-0\""));
                good.step();
                for (String path : HEALTH) {
                    HttpResponse<String> local = exposed.httpGet(lo, path, none), far = exposed.httpGet(remote, path, none),
                            token = exposed.httpGet(remote, path, bearer);
                    assertEquals(local.statusCode(), far.statusCode(), path + ": the same status code");
                    assertTrue(far.body().contains("\"UP\"") || far.body().contains("\"DOWN\""), far.body());
                    assertFalse(far.body().contains("details") || far.body().contains("frontier-") || far.body().contains("restarts"),
                            path + " from " + remote + " shows details: " + far.body());
                    assertTrue(local.body().contains("frontier-"), path + " from loopback: " + local.body());
                    assertTrue(token.body().contains("frontier-"), path + " with the token: " + token.body());
                }
                assertEquals(200, exposed.httpGet(remote, "/prometheus", none).statusCode(), "Prometheus scrapes from anywhere");
                lines.add(String.format(Locale.ROOT, "from %s: live view %d calls refused 401 (no or a wrong token), 200 with "
                        + "the token; /health status only (same codes), details with the token; /prometheus 200",
                        remote.getHostAddress(), refused));
            } else {
                lines.add("no non-loopback address on this machine: the remote checks were skipped");
            }

            for (int i = 0; i < 20; i++) good.step();
            Awaitility.await("every good query answered").atMost(Duration.ofSeconds(60)).until(() -> good.allAnswered(out));
            Thread.sleep(1_000);   // a duplicate would arrive now
            Traffic.Report report = good.check(out);
            lines.add("good traffic in between: " + report);
            assertTrue(report.failures().isEmpty(), () -> report + "\n" + String.join("\n", report.failures()));
            assertEquals(0, report.duplicateChunks(), "every good query answered exactly once");
            assertTrue(exposed.alive(), "the worker is alive");
            assertEquals(200, exposed.httpStatus("/health/readiness"), "ready");
            assertTrue(exposed.httpBody("/health/liveness").contains("\"restarts\":0"));
        }
        exposed.close();

        // a worker without a token refuses other hosts outright (403); with the view off, nobody gets it (404)
        WorkerProcess open = start("no-token", bootstrap, settings, Map.of());
        for (String path : UI) assertEquals(200, open.httpStatus(path), "loopback " + path);
        if (remote != null) {
            HttpResponse<String> r = open.httpGet(remote, "/ui/api/overview", none);
            assertEquals(403, r.statusCode(), r.body());
            assertTrue(r.body().contains("frontier.ui.token"), r.body());
            assertEquals(403, open.httpGet(remote, "/ui", bearer).statusCode(), "no token configured: none accepted");
        }
        open.close();
        WorkerProcess off = start("ui-off", bootstrap, Map.of("frontier.topics.partitions", Integer.toString(PARTITIONS),
                "frontier.ui.enabled", "false"), Map.of("FRONTIER_UI_TOKEN", TOKEN));
        for (String path : UI) assertEquals(404, off.httpGet(lo, path, bearer).statusCode(), "view off: " + path);
        assertEquals(200, off.httpStatus("/health/liveness"));
        lines.add("a worker without a token: 403 from " + (remote == null ? "(no remote address)" : remote.getHostAddress())
                + ", 200 on loopback; frontier.ui.enabled=false: 404 even with the token, health 200");
        for (String l : lines) System.out.printf(Locale.ROOT, "[heavy 7] %s%n", l);
        System.out.printf(Locale.ROOT, "[heavy 7] total %.1f s%n", FaultSupport.seconds(System.nanoTime() - t0));
        Assumptions.assumeTrue(remote != null, "no non-loopback address: a non-loopback caller could not be tried");
    }

    private WorkerProcess start(String id, String bootstrap, Map<String, String> settings, Map<String, String> env) {
        WorkerProcess w = WorkerProcess.start(id, bootstrap, dir, "256m", settings, env);
        workers.add(w);
        return w.awaitReady(Duration.ofSeconds(90));
    }
}
