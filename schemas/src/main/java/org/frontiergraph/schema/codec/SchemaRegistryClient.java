package org.frontiergraph.schema.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * The two calls of the Confluent Schema Registry REST API that registry framing needs, over {@link HttpClient}:
 * register a schema under a subject ({@code POST /subjects/<subject>/versions}, which returns the existing id when the
 * schema is registered already) and fetch a schema by id ({@code GET /schemas/ids/<id>}). Confluent Schema Registry,
 * Apicurio Registry ({@code .../apis/ccompat/v6}), Karapace and Redpanda serve this API. Both answers are cached for
 * the client's life: an id names one schema forever.
 */
public final class SchemaRegistryClient {
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final String authorization;
    private final Duration timeout;
    private final HttpClient http;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    /**
     * @param url      the registry's base URL ({@code http://registry:8081}, or Apicurio's {@code .../apis/ccompat/v6})
     * @param userInfo {@code user:password} for HTTP basic authentication, or null/empty for none
     * @param timeout  how long one call may take
     */
    public SchemaRegistryClient(String url, String userInfo, Duration timeout) {
        if (url == null || url.isBlank()) throw new IllegalArgumentException("no schema registry URL");
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        URI.create(base);   // refuses a malformed URL now, not at the first record
        this.authorization = userInfo == null || userInfo.isEmpty() ? null
                : "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The registry's base URL. */
    public String url() {
        return base;
    }

    /** The id of {@code schema} under {@code subject}, registering it there if it is not yet. */
    public int register(String subject, Schema schema) {
        String text = schema.toString();
        return ids.computeIfAbsent(subject + '\n' + text, k -> {
            String body = JSON.createObjectNode().put("schema", text).toString();
            JsonNode answer = call(request("/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), "register the schema of " + schema.getFullName()
                    + " under subject " + subject);
            return answer.path("id").asInt();
        });
    }

    /** The schema registered with {@code id}. */
    public Schema schema(int id) {
        return schemas.computeIfAbsent(id, k -> {
            JsonNode answer = call(request("/schemas/ids/" + id).GET().build(), "fetch schema id " + id);
            String type = answer.path("schemaType").asText("AVRO");
            if (!"AVRO".equals(type)) throw new RegistryException("schema id " + id + " is a " + type + " schema, not Avro", 422);
            return new Schema.Parser().parse(answer.path("schema").asText());
        });
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
                .header("Accept", CONTENT_TYPE + ", application/json").header("Content-Type", CONTENT_TYPE);
        if (authorization != null) b.header("Authorization", authorization);
        return b;
    }

    private JsonNode call(HttpRequest request, String what) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RegistryException("cannot " + what + ": the schema registry at " + base + " cannot be reached (" + e + ")", 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryException("interrupted while trying to " + what, 0);
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            answer = null;
        }
        if (response.statusCode() / 100 != 2 || answer == null) {
            String message = answer == null ? response.body() : answer.path("message").asText(response.body());
            throw new RegistryException("cannot " + what + ": the schema registry at " + base + " answered HTTP "
                    + response.statusCode() + (message.isBlank() ? "" : ": " + message), response.statusCode());
        }
        return answer;
    }

    /** The registry refused a call ({@link #status}: its HTTP status) or could not be reached (status 0). */
    public static final class RegistryException extends RuntimeException {
        private final int status;

        public RegistryException(String message, int status) {
            super(message);
            this.status = status;
        }

        /** The registry's HTTP status, 0 when it was not reached. */
        public int status() {
            return status;
        }
    }
}
