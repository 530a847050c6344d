package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s (the Helm chart's renderings, HelmChartTest): every document is valid for its kind's schema (vendored,
 * strict: unknown fields fail), and the manifests agree with the worker and with each other: KEDA never above the
 * partition count, on the worker's group and topic; a non-root worker on a read-only root with writable /data and
 * /tmp; probes on the health endpoints; a named, versioned image; Services and the ServiceMonitor select the workers;
 * topics created with 3 copies. The checks read the default set (GPU workers, KEDA, ServiceMonitor); the CPU variant
 * and KEDA on a secured cluster differ from it only where they should.
 */
class KubernetesManifestsTest {
    private static final List<Repo.Doc> DOCS = Repo.documents("deploy/k8s");
    /** What {@code kubectl apply} of the default files creates: the GPU workers, KEDA without login, the monitor. */
    private static final List<String> DEFAULT_SET = List.of("deploy/k8s/frontier-worker.yaml", "deploy/k8s/frontier-keda.yaml",
            "deploy/k8s/frontier-servicemonitor.yaml");

    @Test
    void everyDocumentIsValidForItsKind() {
        assertFalse(DOCS.isEmpty(), "no manifests under deploy/k8s");
        List<String> problems = new ArrayList<>();
        for (Repo.Doc d : DOCS) {
            JsonSchema schema = Schemas.kubernetes(d.apiVersion(), d.kind());
            if (schema == null) {
                problems.add(d + ": no schema vendored for " + d.apiVersion() + "/" + d.kind() + " (deploy/schemas/README.md)");
                continue;
            }
            Schemas.violations(schema, d.node()).forEach(v -> problems.add(d + ": " + v));
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theSchemasRejectUnknownFieldsAndWrongTypes() {
        ObjectNode deployment = one("Deployment").node().deepCopy();
        ObjectNode container = (ObjectNode) deployment.at("/spec/template/spec/containers/0");
        container.set("securityContxt", container.get("securityContext"));
        assertRejected(deployment, "securityContxt");

        deployment = one("Deployment").node().deepCopy();
        ((ObjectNode) deployment.at("/spec")).put("replicas", "three");
        assertRejected(deployment, "replicas");

        ObjectNode scaled = one("ScaledObject").node().deepCopy();
        ((ObjectNode) scaled.at("/spec")).put("maxReplicas", 6);
        assertRejected(scaled, "maxReplicas");

        ObjectNode monitor = one("ServiceMonitor").node().deepCopy();
        ((ObjectNode) monitor.at("/spec/endpoints/0")).put("pathh", "/prometheus");
        assertRejected(monitor, "pathh");
    }

    @Test
    void kedaScalesOnTheLagOfTheGraphsTopicNeverAboveThePartitionCount() {
        JsonNode settings = Repo.workerSettings().path("frontier");
        int partitions = settings.path("topics").path("partitions").asInt(-1);
        assertTrue(partitions > 0, "frontier.topics.partitions in application.yml");
        JsonNode spec = one("ScaledObject").node().path("spec");
        int max = spec.path("maxReplicaCount").asInt(-1);
        int min = spec.path("minReplicaCount").asInt(0);
        assertTrue(max >= 1 && max <= partitions, "KEDA maxReplicaCount " + max + " must be 1.." + partitions
                + " (frontier.topics.partitions): a worker owns whole partitions, more would idle");
        assertTrue(min >= 1 && min <= max, "minReplicaCount " + min + ": at least one worker holds the graphs");

        Repo.Doc deployment = one("Deployment");
        assertEquals(deployment.name(), spec.path("scaleTargetRef").path("name").asText(), "KEDA scales the worker Deployment");
        JsonNode triggers = spec.path("triggers");
        assertEquals(1, triggers.size(), "one trigger: the consumer lag");
        JsonNode kafka = triggers.get(0);
        assertEquals("kafka", kafka.path("type").asText());
        JsonNode m = kafka.path("metadata");
        assertEquals(settings.path("topics").path("graphs").asText(), m.path("topic").asText(), "frontier.topics.graphs");
        assertEquals(settings.path("group-id").asText(), m.path("consumerGroup").asText(), "frontier.group-id");
        assertEquals(configMap().path("KAFKA_BOOTSTRAP_SERVERS").asText(), m.path("bootstrapServers").asText(),
                "the same Kafka cluster as the workers' ConfigMap");
        assertFalse(m.path("allowIdleConsumers").asText("false").equals("true"), "idle consumers beyond the partitions");
        assertTrue(m.path("lagThreshold").asText().matches("[1-9][0-9]*"), "lagThreshold: a positive number of records");
    }

    @Test
    void theWorkerRunsAsNonRootOnAReadOnlyRootWithWritableDataAndTmp() {
        JsonNode pod = one("Deployment").node().at("/spec/template/spec");
        JsonNode container = worker();
        JsonNode podSc = pod.path("securityContext");
        JsonNode sc = container.path("securityContext");
        assertTrue(effective(sc, podSc, "runAsNonRoot").asBoolean(false), "runAsNonRoot");
        long uid = effective(sc, podSc, "runAsUser").asLong(0);
        assertEquals(DockerfileTest.imageUser(), uid, "runAsUser is the image's user (deploy/Dockerfile USER)");
        assertTrue(sc.path("readOnlyRootFilesystem").asBoolean(false), "readOnlyRootFilesystem");
        assertFalse(sc.path("allowPrivilegeEscalation").asBoolean(true), "allowPrivilegeEscalation: false");
        assertFalse(sc.path("privileged").asBoolean(false), "privileged");
        assertTrue(sc.path("capabilities").path("drop").toString().contains("\"ALL\""), "capabilities drop ALL");
        assertEquals("RuntimeDefault", effective(sc, podSc, "seccompProfile").path("type").asText(), "seccomp");
        assertEquals(uid, podSc.path("fsGroup").asLong(-1), "fsGroup: the volumes are the user's");
        for (String folder : List.of("/data", "/tmp")) {
            JsonNode mount = stream(container.path("volumeMounts")).filter(v -> v.path("mountPath").asText().equals(folder))
                    .findFirst().orElseThrow(() -> new AssertionError("no volume mounted at " + folder));
            assertFalse(mount.path("readOnly").asBoolean(false), folder + " must be writable");
            JsonNode volume = stream(pod.path("volumes")).filter(v -> v.path("name").asText().equals(mount.path("name").asText()))
                    .findFirst().orElseThrow(() -> new AssertionError("no volume " + mount.path("name")));
            assertTrue(volume.has("emptyDir") || volume.has("persistentVolumeClaim") || volume.has("ephemeral"),
                    folder + ": a writable volume, got " + volume);
        }
        assertFalse(pod.path("automountServiceAccountToken").asBoolean(true), "the worker needs no API token");
    }

    @Test
    void probesPointAtTheHealthEndpoints() {
        JsonNode c = worker();
        assertEquals("/health/readiness", c.at("/readinessProbe/httpGet/path").asText(), "readiness");
        assertEquals("/health/liveness", c.at("/livenessProbe/httpGet/path").asText(), "liveness");
        assertTrue(c.at("/startupProbe/httpGet/path").asText().startsWith("/health/"), "startup probe on a health endpoint");
        List<String> ports = stream(c.path("ports")).flatMap(p -> Stream.of(p.path("name").asText(), p.path("containerPort").asText())).toList();
        for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
            String port = c.path(probe).path("httpGet").path("port").asText();
            assertTrue(ports.contains(port), probe + " port " + port + " is not a container port " + ports);
        }
        assertEquals(8080, stream(c.path("ports")).mapToInt(p -> p.path("containerPort").asInt()).findFirst().orElse(0),
                "the worker's HTTP port (micronaut.server.port)");
    }

    @Test
    void theImageIsNamedAndVersioned() {
        String image = worker().path("image").asText();
        assertImage(image);
        assertEquals(image, ComposeFileTest.workerImage(), "the compose file runs the same image");
        assertTrue(Repo.read("deploy/Dockerfile").contains("-t " + image + " "), "deploy/Dockerfile documents how " + image + " is built");
    }

    /** registry/repository:semver; no latest, no placeholder. */
    static void assertImage(String image) {
        assertTrue(image.matches("[a-z0-9-]+(\\.[a-z0-9-]+)+(:[0-9]+)?/[a-z0-9._/-]+:[0-9]+\\.[0-9]+\\.[0-9]+"),
                "image '" + image + "' must be registry/repository:MAJOR.MINOR.PATCH");
        for (String placeholder : List.of("example.com", "example.org", "changeme", "your-", "registry.local")) {
            assertFalse(image.contains(placeholder), "placeholder in image " + image);
        }
    }

    @Test
    void theServiceTheDisruptionBudgetAndTheMonitorSelectTheWorkers() {
        JsonNode podLabels = one("Deployment").node().at("/spec/template/metadata/labels");
        assertTrue(matches(one("Deployment").node().at("/spec/selector/matchLabels"), podLabels), "Deployment selects its pods");
        Repo.Doc service = one("Service");
        assertTrue(matches(service.node().at("/spec/selector"), podLabels), "Service selects the worker pods");
        assertTrue(matches(one("PodDisruptionBudget").node().at("/spec/selector/matchLabels"), podLabels), "PDB selects the workers");
        JsonNode monitor = one("ServiceMonitor").node().path("spec");
        assertTrue(matches(monitor.at("/selector/matchLabels"), service.node().at("/metadata/labels")), "ServiceMonitor selects the Service");
        List<String> servicePorts = stream(service.node().at("/spec/ports")).map(p -> p.path("name").asText()).toList();
        for (JsonNode e : monitor.path("endpoints")) {
            assertTrue(servicePorts.contains(e.path("port").asText()), "ServiceMonitor port " + e.path("port") + " not in " + servicePorts);
            assertEquals("/prometheus", e.path("path").asText(), "the worker serves metrics at /prometheus");
        }
        assertEquals("/prometheus", one("Deployment").node().at("/spec/template/metadata/annotations").path("prometheus.io/path").asText());
    }

    @Test
    void theConfigMapNamesTheClusterAndValidSettings() {
        JsonNode data = configMap();
        String bootstrap = data.path("KAFKA_BOOTSTRAP_SERVERS").asText();
        assertTrue(bootstrap.matches("[a-z0-9.-]+:[0-9]+(,[a-z0-9.-]+:[0-9]+)*"), "KAFKA_BOOTSTRAP_SERVERS host:port, got " + bootstrap);
        assertTrue(List.of("auto", "gpu", "cpu").contains(data.path("FRONTIER_BACKEND").asText()), "FRONTIER_BACKEND");
        assertTrue(List.of("json", "text").contains(data.path("FRONTIER_LOG_FORMAT").asText("text")), "FRONTIER_LOG_FORMAT");
        assertTrue(stream(worker().path("envFrom")).anyMatch(e -> e.path("configMapRef").path("name").asText()
                .equals(one("ConfigMap").name())), "the worker reads the ConfigMap");
    }

    private static void assertRejected(JsonNode doc, String field) {
        List<String> v = Schemas.violations(Schemas.kubernetes(doc.path("apiVersion").asText(), doc.path("kind").asText()), doc);
        assertFalse(v.isEmpty(), "a manifest with a bad '" + field + "' passed the schema");
        assertTrue(v.stream().anyMatch(s -> s.contains(field)), "the violation names '" + field + "': " + v);
    }

    static Repo.Doc one(String kind) {
        return one(DEFAULT_SET, kind);
    }

    static Repo.Doc one(List<String> files, String kind) {
        List<Repo.Doc> found = DOCS.stream().filter(d -> files.contains(d.file()) && d.kind().equals(kind)).toList();
        assertEquals(1, found.size(), "one " + kind + " in " + files + ", found " + found);
        return found.get(0);
    }

    @Test
    void topicsAreCreatedWithThreeCopiesAndTwoInSync() {
        JsonNode data = configMap();
        assertEquals("3", data.path("FRONTIER_TOPICS_REPLICATION_FACTOR").asText(), "frontier.topics.replication-factor");
        assertEquals("2", data.path("FRONTIER_TOPICS_MIN_INSYNC_REPLICAS").asText(), "frontier.topics.min-insync-replicas");
    }

    @Test
    void theCpuVariantRequestsNoGpuAndIsOtherwiseTheSame() {
        List<String> cpu = List.of("deploy/k8s/frontier-worker-cpu.yaml");
        JsonNode gpuPod = one("Deployment").node().at("/spec/template/spec");
        JsonNode cpuPod = one(cpu, "Deployment").node().at("/spec/template/spec");
        assertFalse(cpuPod.toString().contains("nvidia.com/gpu"), "no GPU request or toleration: " + cpuPod);
        assertEquals("cpu", one(cpu, "ConfigMap").node().at("/data/FRONTIER_BACKEND").asText());
        assertEquals("1", gpuPod.at("/containers/0/resources/limits").path("nvidia.com/gpu").asText(), "the GPU variant: one GPU a pod");
        assertEquals("auto", configMap().path("FRONTIER_BACKEND").asText());
        ObjectNode withoutGpu = gpuPod.deepCopy();
        ((ObjectNode) withoutGpu.at("/containers/0/resources/limits")).remove("nvidia.com/gpu");
        withoutGpu.remove("tolerations");
        assertEquals(withoutGpu, cpuPod, "the CPU pod is the GPU pod less the GPU");
    }

    @Test
    void kedaOnASecuredClusterLogsInThroughATriggerAuthenticationFromASecret() {
        List<String> secured = List.of("deploy/k8s/frontier-keda-secured.yaml");
        Repo.Doc auth = one(secured, "TriggerAuthentication");
        JsonNode trigger = one(secured, "ScaledObject").node().at("/spec/triggers/0");
        assertEquals(auth.name(), trigger.at("/authenticationRef/name").asText(), "the trigger uses the TriggerAuthentication");
        List<String> parameters = stream(auth.node().at("/spec/secretTargetRef")).map(r -> r.path("parameter").asText()).toList();
        assertTrue(parameters.containsAll(List.of("sasl", "username", "password", "tls", "ca")), "SASL and TLS: " + parameters);
        assertTrue(stream(auth.node().at("/spec/secretTargetRef")).allMatch(r -> !r.path("name").asText().isEmpty()),
                "every parameter from a named Secret");
        ObjectNode plain = trigger.deepCopy();
        plain.remove("authenticationRef");
        assertEquals(one("ScaledObject").node().at("/spec/triggers/0"), plain, "otherwise the same trigger as frontier-keda.yaml");
    }

    static JsonNode worker() {
        JsonNode containers = one("Deployment").node().at("/spec/template/spec/containers");
        JsonNode c = stream(containers).filter(n -> n.path("name").asText().equals("worker")).findFirst().orElse(null);
        assertNotNull(c, "a container named worker");
        return c;
    }

    private static JsonNode configMap() {
        return one("ConfigMap").node().path("data");
    }

    private static JsonNode effective(JsonNode container, JsonNode pod, String field) {
        return container.has(field) ? container.get(field) : pod.path(field);
    }

    /** Whether every label of {@code selector} is on {@code labels} (and the selector is not empty). */
    private static boolean matches(JsonNode selector, JsonNode labels) {
        if (selector == null || selector.isEmpty()) return false;
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().equals(labels.get(e.getKey()))) return false;
        }
        return true;
    }

    static Stream<JsonNode> stream(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items.stream();
    }
}
