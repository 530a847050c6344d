package org.frontiergraph.it.fault;

import java.nio.file.Path;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.junit.jupiter.api.AfterEach;

/**
 * What a fault test with one broker and one worker process at a time holds: a scratch folder, the broker, the worker.
 * After each test the worker is killed if it still runs, the broker stopped and the folder deleted.
 */
abstract class FaultTest {
    protected EmbeddedKafkaBroker broker;
    protected WorkerProcess worker;
    protected Path dir;

    @AfterEach
    void stop() {
        if (worker != null) worker.close();
        if (broker != null) broker.close();
        FaultSupport.deleteQuietly(dir);
    }

    /** A scratch folder named after {@code name} and a temporary broker with the worker's topics; its bootstrap servers. */
    protected String startBroker(String name, int partitions) throws Exception {
        dir = FaultSupport.tempDir(name);
        broker = EmbeddedKafkaBroker.startTemporary();
        FaultSupport.createTopics(broker.bootstrapServers(), partitions);
        return broker.bootstrapServers();
    }
}
