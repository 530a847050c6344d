package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * deploy/helm/frontier, rendered by Helm itself (helm-java: Helm's Go library for each platform, from Maven Central;
 * no helm binary): it lints clean; every manifest under deploy/k8s is the chart's rendering, byte for byte (one source;
 * {@code -Dfrontier.deploy.write-manifests=true} rewrites them); and every combination of the chart's switches renders
 * documents that pass the same strict schemas as deploy/k8s, with the GPU request, the backend, the Kafka client
 * Secret and KEDA's TriggerAuthentication where the values ask for them and nowhere else.
 */
class HelmChartTest {
    static final Path CHART = Repo.path("deploy/helm/frontier");
    static final String RELEASE = "frontier";
    /** The Kubernetes version of the vendored schemas (deploy/schemas/README.md). */
    static final String KUBE_VERSION = "1.27.0";
    static final List<String> WORKER = List.of("configmap.yaml", "deployment.yaml", "poddisruptionbudget.yaml", "service.yaml");

    /** A committed manifest: the chart's templates it holds, rendered with these {@code --set} values. */
    record Rendering(String file, Map<String, String> values, List<String> templates, String purpose) {}

    static final List<Rendering> RENDERINGS = List.of(
            new Rendering("deploy/k8s/frontier-worker.yaml", Map.of(), WORKER,
                    "Frontier workers, one GPU each (backend auto: the CPU engine where the GPU is missing)"),
            new Rendering("deploy/k8s/frontier-worker-cpu.yaml", Map.of("gpu.enabled", "false"), WORKER,
                    "Frontier workers on the CPU engine, no GPU requested (any node): apply this or frontier-worker.yaml"),
            new Rendering("deploy/k8s/frontier-keda.yaml", Map.of(), List.of("scaledobject.yaml"),
                    "KEDA scales the workers on the consumer lag of frontier.graphs (KEDA 2.10+)"),
            new Rendering("deploy/k8s/frontier-keda-secured.yaml", Map.of("keda.auth.enabled", "true"),
                    List.of("triggerauthentication.yaml", "scaledobject.yaml"),
                    "KEDA on a SASL/TLS cluster, its login from the Secret frontier-keda-kafka: apply this or frontier-keda.yaml"),
            new Rendering("deploy/k8s/frontier-servicemonitor.yaml", Map.of(), List.of("servicemonitor.yaml"),
                    "Prometheus Operator: scrape every worker (needs the monitoring.coreos.com CRDs)"));

    @Test
    void theChartLintsClean() {
        LintResult lint = new Helm(CHART).lint().strict().call();
        assertFalse(lint.isFailed(), "helm lint --strict: " + lint.getMessages());
    }

    @Test
    void everyManifestUnderDeployK8sIsTheChartRendered() throws IOException {
        boolean write = Boolean.getBoolean("frontier.deploy.write-manifests");
        List<String> stale = new ArrayList<>();
        for (Rendering r : RENDERINGS) {
            String expected = manifest(r);
            Path file = Repo.path(r.file());
            if (write) Files.writeString(file, expected);
            if (!Files.exists(file) || !Files.readString(file).equals(expected)) stale.add(r.file());
        }
        assertTrue(stale.isEmpty(), stale + " differ from the chart's rendering: edit deploy/helm/frontier, then rewrite them with "
                + "mvn -pl deploy -am test -Dtest=HelmChartTest -Dfrontier.deploy.write-manifests=true");
        try (var files = Files.list(Repo.path("deploy/k8s"))) {
            List<String> committed = files.map(f -> Repo.ROOT.relativize(f).toString()).sorted().toList();
            assertEquals(RENDERINGS.stream().map(Rendering::file).sorted().toList(), committed,
                    "every file under deploy/k8s comes from the chart");
        }
    }

    @Test
    void everyCombinationOfSwitchesRendersValidDocuments() {
        List<Map<String, String>> combinations = List.of(
                Map.of(),
                Map.of("gpu.enabled", "false"),
                Map.of("keda.enabled", "false", "serviceMonitor.enabled", "false"),
                Map.of("keda.auth.enabled", "true", "kafka.clientConfigSecret", "frontier-kafka-client"),
                Map.of("gpu.enabled", "false", "keda.auth.enabled", "true", "keda.auth.parameters[0]", "sasl",
                        "keda.auth.parameters[1]", "username", "keda.auth.parameters[2]", "password"),
                Map.of("topics.replicationFactor", "1", "topics.minInsyncReplicas", "0", "replicas", "1"));
        for (Map<String, String> values : combinations) {
            List<JsonNode> docs = documents(render(values));
            List<String> problems = new ArrayList<>();
            for (JsonNode d : docs) {
                var schema = Schemas.kubernetes(d.path("apiVersion").asText(), d.path("kind").asText());
                if (schema == null) problems.add(d.path("kind").asText() + ": no schema vendored");
                else Schemas.violations(schema, d).forEach(v -> problems.add(d.path("kind").asText() + ": " + v));
            }
            assertTrue(problems.isEmpty(), values + ":\n" + String.join("\n", problems));
            checkSwitches(values, docs);
        }
    }

    /** What each switch must change, and nothing else. */
    private static void checkSwitches(Map<String, String> values, List<JsonNode> docs) {
        boolean gpu = !"false".equals(values.get("gpu.enabled"));
        JsonNode pod = one(docs, "Deployment").at("/spec/template/spec");
        JsonNode worker = pod.at("/containers/0");
        JsonNode config = one(docs, "ConfigMap").path("data");
        assertEquals(gpu ? "auto" : "cpu", config.path("FRONTIER_BACKEND").asText(), values + ": backend");
        assertEquals(gpu, worker.at("/resources/limits").has("nvidia.com/gpu"), values + ": the GPU request");
        assertEquals(gpu, pod.has("tolerations"), values + ": the GPU taint tolerated");
        assertEquals(values.getOrDefault("topics.replicationFactor", "3"), config.path("FRONTIER_TOPICS_REPLICATION_FACTOR").asText());
        assertEquals(values.getOrDefault("topics.minInsyncReplicas", "2"), config.path("FRONTIER_TOPICS_MIN_INSYNC_REPLICAS").asText());

        String secret = values.get("kafka.clientConfigSecret");
        assertEquals(secret != null, config.has("FRONTIER_KAFKA_CONFIG"), values + ": the client properties file");
        if (secret != null) {
            assertEquals("/etc/frontier/kafka/client.properties", config.path("FRONTIER_KAFKA_CONFIG").asText());
            assertTrue(pod.path("volumes").toString().contains("\"secretName\":\"" + secret + "\""), values + ": the Secret mounted");
            assertTrue(worker.path("volumeMounts").toString().contains("\"mountPath\":\"/etc/frontier/kafka\""), values + ": mounted");
        }

        boolean keda = !"false".equals(values.get("keda.enabled"));
        boolean auth = keda && "true".equals(values.get("keda.auth.enabled"));
        assertEquals(keda ? 1L : 0L, count(docs, "ScaledObject"), values + ": ScaledObject");
        assertEquals(auth ? 1L : 0L, count(docs, "TriggerAuthentication"), values + ": TriggerAuthentication");
        assertEquals("false".equals(values.get("serviceMonitor.enabled")) ? 0L : 1L, count(docs, "ServiceMonitor"), values + ": ServiceMonitor");
        if (keda) {
            JsonNode trigger = one(docs, "ScaledObject").at("/spec/triggers/0");
            assertEquals(config.path("KAFKA_BOOTSTRAP_SERVERS").asText(), trigger.at("/metadata/bootstrapServers").asText());
            assertEquals(auth, trigger.has("authenticationRef"), values + ": the trigger's authenticationRef");
        }
        if (auth) {
            JsonNode ta = one(docs, "TriggerAuthentication");
            assertEquals(ta.at("/metadata/name").asText(), one(docs, "ScaledObject").at("/spec/triggers/0/authenticationRef/name").asText());
            List<String> parameters = new ArrayList<>();
            for (JsonNode ref : ta.at("/spec/secretTargetRef")) {
                assertEquals("frontier-keda-kafka", ref.path("name").asText(), "the Secret KEDA reads");
                assertEquals(ref.path("parameter").asText(), ref.path("key").asText(), "one key per parameter, of its name");
                parameters.add(ref.path("parameter").asText());
            }
            List<String> asked = values.keySet().stream().filter(k -> k.startsWith("keda.auth.parameters[")).sorted()
                    .map(values::get).toList();
            assertEquals(asked.isEmpty() ? List.of("sasl", "username", "password", "tls", "ca") : asked, parameters,
                    "the parameters asked for");
        }
    }

    private static long count(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> d.path("kind").asText().equals(kind)).count();
    }

    private static JsonNode one(List<JsonNode> docs, String kind) {
        List<JsonNode> found = docs.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
        assertEquals(1, found.size(), "one " + kind);
        return found.get(0);
    }

    /** {@code helm template frontier deploy/helm/frontier --kube-version 1.27.0 --set ...}. */
    static String render(Map<String, String> values) {
        TemplateCommand template = new Helm(CHART).template().withName(RELEASE).withKubeVersion(KUBE_VERSION);
        values.forEach(template::set);
        return template.call();
    }

    /** The rendering split by template: file name under templates/ to its text (Helm's "# Source:" markers). */
    static Map<String, String> byTemplate(String rendered) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^---\\n# Source: frontier/templates/([^\\n]+)\\n").matcher(rendered);
        List<int[]> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (m.find()) {
            starts.add(new int[] {m.start(), m.end()});
            names.add(m.group(1));
        }
        for (int i = 0; i < names.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : rendered.length();
            out.put(names.get(i), rendered.substring(starts.get(i)[1], end).stripTrailing() + "\n");
        }
        return out;
    }

    /** A committed manifest's text: a header saying where it comes from, then its templates' documents in order. */
    static String manifest(Rendering r) {
        Map<String, String> parts = byTemplate(render(r.values()));
        String set = r.values().entrySet().stream().map(e -> " --set " + e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining());
        StringBuilder text = new StringBuilder()
                .append("# ").append(r.purpose()).append(".\n")
                .append("# Apply: kubectl apply -f ").append(r.file()).append("\n")
                .append("# Rendered from the Helm chart deploy/helm/frontier (helm template ").append(RELEASE)
                .append(" deploy/helm/frontier").append(set).append("); edit the chart, not this file:\n")
                .append("# CI fails when the two differ (HelmChartTest, which rewrites it with -Dfrontier.deploy.write-manifests=true).\n");
        for (String t : r.templates()) {
            String part = parts.get(t);
            assertTrue(part != null, r.file() + ": the chart rendered no " + t + " with " + r.values());
            text.append("---\n# Source: deploy/helm/frontier/templates/").append(t).append('\n').append(part);
        }
        return text.toString();
    }

    /** The non-empty YAML documents of a rendering. */
    static List<JsonNode> documents(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (var it = Repo.YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && !n.isMissingNode() && !n.isEmpty()) docs.add(n);
            }
        } catch (IOException e) {
            throw new AssertionError("the rendering is not YAML: " + e.getMessage() + "\n" + yaml, e);
        }
        return docs;
    }
}
