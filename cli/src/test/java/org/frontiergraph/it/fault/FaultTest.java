package org.frontiergraph.it.fault;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.cli.EmbeddedKafkaBroker;
import org.junit.jupiter.api.AfterEach;

/**
 * What a fault test with one broker holds: a scratch folder, the broker, and its worker processes (one at a time in
 * {@code worker}, or several in {@code workers}). After each test the workers still running are killed, the broker
 * stopped and the folder deleted.
 */
abstract class FaultTest {
    protected EmbeddedKafkaBroker broker;
    protected WorkerProcess worker;
    protected final List<WorkerProcess> workers = new ArrayList<>();
    protected Path dir;

    @AfterEach
    void stop() {
        if (worker != null) worker.close();
        workers.forEach(WorkerProcess::close);
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
