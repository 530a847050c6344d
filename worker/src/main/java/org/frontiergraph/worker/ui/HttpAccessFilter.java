package org.frontiergraph.worker.ui;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.Locale;
import org.frontiergraph.worker.config.UiConfig;

/**
 * Who may read what over HTTP. The server listens on every interface: /health and /prometheus answer anyone (probes
 * and scrapers come from other hosts). The live view (/ui, its page and its API, which returns every edge of a graph)
 * answers loopback callers, and, when {@code frontier.ui.token} is set, any caller that sends
 * {@code Authorization: Bearer <token>} (compared in constant time); others get 401 (a token is configured) or 403
 * (none is), with a one-line reason; {@code frontier.ui.enabled=false}: 404 for everyone. /health details go to
 * the same trusted callers only: they are marked as authenticated, and {@code endpoints.health.details-visible:
 * AUTHENTICATED} gives everyone else the status alone. The caller is the TCP peer; forwarding headers are not read.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class HttpAccessFilter {
    /** The principal of a trusted caller: {@code loopback} or {@code token}. */
    public record Caller(String name) implements Principal {
        @Override
        public String getName() { return name; }
    }

    private final UiConfig config;
    private final byte[] tokenDigest;

    public HttpAccessFilter(UiConfig config) {
        this.config = config;
        this.tokenDigest = config.hasToken() ? sha256(config.getToken().trim()) : null;
    }

    @RequestFilter
    @Nullable
    public HttpResponse<?> filter(HttpRequest<?> request) {
        String trusted = trusted(request);
        if (trusted != null) request.setUserPrincipal(new Caller(trusted));
        if (!liveView(request)) return null;
        if (!config.isEnabled()) {
            return refuse(HttpStatus.NOT_FOUND, "the live view is off on this worker (frontier.ui.enabled=false)");
        }
        if (trusted != null) return null;
        if (tokenDigest != null) {
            return refuse(HttpStatus.UNAUTHORIZED, "the live view needs Authorization: Bearer <token> (frontier.ui.token)")
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"frontier-ui\"");
        }
        return refuse(HttpStatus.FORBIDDEN, "the live view answers loopback callers only; set frontier.ui.token "
                + "(FRONTIER_UI_TOKEN) and send Authorization: Bearer <token> to use it from elsewhere");
    }

    /** "loopback", "token", or null for a caller that is neither. */
    String trusted(HttpRequest<?> request) {
        if (tokenDigest != null && bearerMatches(request.getHeaders().get(HttpHeaders.AUTHORIZATION))) return "token";
        if (config.isAllowLoopback() && loopback(request.getRemoteAddress())) return "loopback";
        return null;
    }

    private boolean bearerMatches(@Nullable String authorization) {
        if (authorization == null) return false;
        String a = authorization.trim();
        if (a.length() < 7 || !a.substring(0, 7).equalsIgnoreCase("Bearer ")) return false;
        // digests of equal length: the comparison takes the same time whatever the token's length or prefix
        return MessageDigest.isEqual(tokenDigest, sha256(a.substring(7).trim()));
    }

    static boolean loopback(@Nullable InetSocketAddress remote) {
        if (remote == null) return false;
        InetAddress a = remote.getAddress();
        return a != null && a.isLoopbackAddress();
    }

    /** A request for the live view: routed to its controller, or under /ui (also when no route matched). */
    private static boolean liveView(HttpRequest<?> request) {
        if (RouteAttributes.getRouteInfo(request).map(RouteInfo::getDeclaringType)
                .filter(LiveViewController.class::equals).isPresent()) {
            return true;
        }
        String path = request.getPath().toLowerCase(Locale.ROOT);
        return path.equals("/ui") || path.startsWith("/ui/");
    }

    private static io.micronaut.http.MutableHttpResponse<String> refuse(HttpStatus status, String reason) {
        return HttpResponse.<String>status(status).contentType(MediaType.TEXT_PLAIN_TYPE).body(reason + "\n");
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
