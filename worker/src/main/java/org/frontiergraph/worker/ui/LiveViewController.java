package org.frontiergraph.worker.ui;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.frontiergraph.worker.processing.GraphEventProcessor;

/**
 * The live page, read-only: {@code GET /ui} (the page), {@code /ui/app.js}, {@code /ui/api/overview?graph=G} (this
 * worker's graphs, the graph to draw, counts, latency), {@code /ui/api/cluster} (every worker's readiness, partitions,
 * lag and graphs, from the status topic) and
 * {@code /ui/api/graphs/{graphId}/view?algorithm=sssp|bfs|mst&source=S&target=T} (a drawing).
 * Who may call it: {@link HttpAccessFilter}; off with {@code frontier.ui.enabled=false}.
 */
@Controller("/ui")
@Requires(property = "frontier.ui.enabled", notEquals = "false")
public class LiveViewController {
    private final LiveView view;
    private final ClusterView cluster;
    /** How this worker names itself in status events: the page tells its own graphs from the cluster's. */
    private final String worker;
    private final String page;
    private final String script;

    public LiveViewController(LiveView view, ClusterView cluster, GraphEventProcessor processor) {
        this.view = view;
        this.cluster = cluster;
        this.worker = processor.workerId();
        this.page = resource("/ui/index.html");
        this.script = resource("/ui/app.js");
    }

    @Get(produces = MediaType.TEXT_HTML)
    public String page() {
        return page;
    }

    @Get(uri = "/app.js", produces = "application/javascript")
    public String script() {
        return script;
    }

    /** {@code graph}: the graph the page was asked to draw (none: the default, {@link DrawingChoice}). */
    @Get(uri = "/api/overview", produces = MediaType.APPLICATION_JSON)
    public Map<String, Object> overview(@QueryValue(defaultValue = "") String graph) {
        Map<String, Object> out = new LinkedHashMap<>(view.overview(graph));
        out.put("worker", worker);
        return out;
    }

    @Get(uri = "/api/cluster", produces = MediaType.APPLICATION_JSON)
    public Map<String, Object> cluster() {
        return cluster.view();
    }

    @Get(uri = "/api/graphs/{graphId}/view", produces = MediaType.APPLICATION_JSON)
    public HttpResponse<Object> view(HttpRequest<?> request, String graphId, @QueryValue(defaultValue = "sssp") String algorithm,
                                     @QueryValue(defaultValue = "") String source,
                                     @QueryValue(defaultValue = "") String target) {
        try {
            return HttpResponse.ok(view.view(client(request), graphId, algorithm, number(source, "source"), number(target, "target")));
        } catch (LiveView.ViewException e) {
            return HttpResponse.status(io.micronaut.http.HttpStatus.valueOf(e.status())).body(Map.of("error", e.getMessage()));
        }
    }

    /** The caller's address (the TCP peer): drawings are limited per address. */
    private static String client(HttpRequest<?> request) {
        InetSocketAddress remote = request.getRemoteAddress();
        return remote == null || remote.getAddress() == null ? "unknown" : remote.getAddress().getHostAddress();
    }

    private static Integer number(String text, String what) {
        if (text == null || text.isBlank()) return null;
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            throw new LiveView.ViewException(what + " '" + text + "' is not a vertex id");
        }
    }

    private static String resource(String path) {
        try (InputStream in = LiveViewController.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException(path + " missing from the worker jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
