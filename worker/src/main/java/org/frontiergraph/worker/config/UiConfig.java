package org.frontiergraph.worker.config;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The live view ({@code /ui}) and who may read it ({@code frontier.ui.*}); docs/operations.md, "HTTP exposure".
 * The HTTP server listens on every interface (health probes and Prometheus come from other hosts), so the live
 * view, which reads every edge of a graph, is answered only to loopback callers unless a token is configured.
 */
@ConfigurationProperties("frontier.ui")
public class UiConfig {
    /** false: the live view (page and API) is off, every /ui path answers 404. */
    private boolean enabled = true;
    /**
     * A bearer token (FRONTIER_UI_TOKEN): when set, any caller sending {@code Authorization: Bearer <token>} may use
     * the live view and sees /health details; others (but loopback) get 401. Blank: not set.
     */
    private String token;
    /** Loopback callers may use the live view and see /health details without the token (false behind a proxy on the same host). */
    private boolean allowLoopback = true;
    /** Largest graph (vertices) the page draws. */
    private int maxDrawVertices = 5_000;
    /** Largest graph (edges of an undirected graph, arcs of a directed one) the page draws; beyond: 413. */
    private int maxDrawEdges = 20_000;
    /** Drawings kept, keyed by graph, version, algorithm, source and target (least recently used dropped). */
    private int viewCacheSize = 16;

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public String getToken() { return token; }
    public void setToken(String token) { this.token = token; }
    /** Whether a token is configured (non-blank). */
    public boolean hasToken() { return token != null && !token.isBlank(); }
    public boolean isAllowLoopback() { return allowLoopback; }
    public void setAllowLoopback(boolean allowLoopback) { this.allowLoopback = allowLoopback; }
    public int getMaxDrawVertices() { return maxDrawVertices; }
    public void setMaxDrawVertices(int v) { this.maxDrawVertices = v; }
    public int getMaxDrawEdges() { return maxDrawEdges; }
    public void setMaxDrawEdges(int v) { this.maxDrawEdges = v; }
    public int getViewCacheSize() { return viewCacheSize; }
    public void setViewCacheSize(int v) { this.viewCacheSize = v; }
}
