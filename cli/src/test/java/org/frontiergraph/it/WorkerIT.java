package org.frontiergraph.it;

import java.util.Map;
import org.frontiergraph.client.FrontierClient;
import org.frontiergraph.worker.FrontierWorker;
import org.junit.jupiter.api.AfterAll;

/**
 * What an end-to-end test with one worker in this JVM holds: a real broker, the worker and a client of both, started
 * by the test class ({@link #startWorker}, in its {@code @BeforeAll}) and closed after its last test, client first.
 */
abstract class WorkerIT {
    static TestKafka kafka;
    static FrontierWorker worker;
    static FrontierClient client;

    /** A real broker, one worker with {@code settings} on it, and a client. */
    static void startWorker(Map<String, Object> settings) {
        kafka = TestKafka.start();
        worker = FrontierWorker.start(kafka.bootstrapServers(), settings);
        client = new FrontierClient(kafka.bootstrapServers());
    }

    @AfterAll
    static void stopWorker() throws Exception {
        if (client != null) client.close();
        if (worker != null) worker.close();
        if (kafka != null) kafka.close();
        client = null;
        worker = null;
        kafka = null;
    }
}
