package org.frontiergraph.it;

import java.util.Map;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.AfterAll;

/**
 * What an end-to-end test of a worker group in this JVM holds: a real broker and a client, started by the test class
 * ({@link #startBroker}, in its {@code @BeforeAll}) and closed after its last test, client first; the workers are the
 * test's own ({@link #worker}), joining and leaving the group as it needs, each closed by it.
 */
abstract class GroupIT {
    static TestKafka kafka;
    static FrontierClient client;

    /** A real broker and a client. */
    static void startBroker() {
        kafka = TestKafka.start();
        client = new FrontierClient(kafka.bootstrapServers());
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (client != null) client.close();
        if (kafka != null) kafka.close();
        client = null;
        kafka = null;
    }

    /** Worker {@code id} of group {@code group} (CPU engine, no HTTP server), the topics made with {@code partitions}. */
    static FrontierWorker worker(String id, String group, int partitions) {
        return FrontierWorker.start(kafka.bootstrapServers(), Map.of("frontier.backend", "cpu", "frontier.worker-id", id,
                "frontier.group-id", group, "frontier.topics.partitions", partitions, "micronaut.server.port", -1));
    }
}
