package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * deploy/compose.yaml: valid for the Compose specification's schema; a single Kafka node in KRaft mode (no ZooKeeper)
 * of the client's Kafka version; one worker on the CPU engine that reaches it, runs as the image's user on a
 * read-only root and starts once the broker is healthy.
 */
class ComposeFileTest {
    static final String FILE = "deploy/compose.yaml";
    private final JsonNode compose = Repo.yaml(FILE);
    private final JsonNode kafka = compose.path("services").path("kafka");
    private final JsonNode worker = compose.path("services").path("worker");

    static String workerImage() {
        return Repo.yaml(FILE).path("services").path("worker").path("image").asText();
    }

    @Test
    void isValidForTheComposeSpecification() {
        List<String> v = Schemas.violations(Schemas.compose(), compose);
        assertTrue(v.isEmpty(), String.join("\n", v));
        ObjectNode typo = compose.deepCopy();
        ((ObjectNode) typo.path("services").path("worker")).put("enviroment", "x");
        assertFalse(Schemas.violations(Schemas.compose(), typo).isEmpty(), "the schema rejects an unknown service field");
    }

    @Test
    void oneKafkaNodeInKraftModeOfTheClientsVersion() {
        assertEquals(2, compose.path("services").size(), "two services: kafka and worker");
        assertEquals("apache/kafka:" + Repo.pomProperty("kafka.version"), kafka.path("image").asText(),
                "the broker runs the Kafka version of the worker's client (kafka.version in pom.xml)");
        JsonNode env = kafka.path("environment");
        assertTrue(env.path("KAFKA_PROCESS_ROLES").asText().contains("controller"), "KRaft: the node is its own controller");
        assertTrue(env.path("KAFKA_PROCESS_ROLES").asText().contains("broker"));
        assertTrue(env.path("KAFKA_CONTROLLER_QUORUM_VOTERS").asText().startsWith(env.path("KAFKA_NODE_ID").asText() + "@"),
                "the node votes for itself");
        List<String> names = new ArrayList<>();
        env.fieldNames().forEachRemaining(names::add);
        assertTrue(names.stream().noneMatch(n -> n.contains("ZOOKEEPER")), "no ZooKeeper");
        Uuid.fromString(env.path("CLUSTER_ID").asText());   // throws unless a Kafka cluster id (base64 UUID)
        assertTrue(kafka.path("healthcheck").has("test"), "a health check the worker waits for");
    }

    @Test
    void oneWorkerOnTheCpuEngineThatReachesTheBroker() {
        JsonNode env = worker.path("environment");
        assertEquals("cpu", env.path("FRONTIER_BACKEND").asText(), "the CPU engine: no GPU needed");
        String bootstrap = env.path("KAFKA_BOOTSTRAP_SERVERS").asText();
        String advertised = kafka.path("environment").path("KAFKA_ADVERTISED_LISTENERS").asText();
        assertTrue(advertised.contains("//" + bootstrap), "the worker's bootstrap " + bootstrap + " is an advertised listener: " + advertised);
        assertEquals("service_healthy", worker.path("depends_on").path("kafka").path("condition").asText());
        assertEquals("deploy/Dockerfile", worker.path("build").path("dockerfile").asText());
        assertEquals("..", worker.path("build").path("context").asText(), "built from the repository root");
        KubernetesManifestsTest.assertImage(worker.path("image").asText());
    }

    @Test
    void theWorkerRunsAsTheImagesUserOnAReadOnlyRoot() {
        assertEquals(DockerfileTest.imageUser() + ":" + DockerfileTest.imageUser(), worker.path("user").asText());
        assertTrue(worker.path("read_only").asBoolean(false), "read_only");
        assertTrue(worker.path("tmpfs").toString().contains("/tmp"), "a writable /tmp");
        assertTrue(worker.path("volumes").toString().contains(":/data"), "a writable /data volume");
        assertTrue(worker.path("cap_drop").toString().contains("ALL"), "cap_drop ALL");
    }
}
