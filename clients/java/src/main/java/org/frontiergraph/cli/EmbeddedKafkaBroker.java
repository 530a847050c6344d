package org.frontiergraph.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka broker in KRaft mode (combined broker and controller), started in this JVM.
 * {@code ./frontier worker} starts one when no bootstrap server is configured, {@code ./frontier demo} always; the
 * integration tests start one per test class. With a persistent data directory the log survives restarts (the worker
 * then rebuilds its graphs from it).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private final KafkaRaftServer server;
    private final Path dataDir;
    private final boolean deleteOnClose;
    private final String bootstrap;

    private EmbeddedKafkaBroker(KafkaRaftServer server, Path dataDir, boolean deleteOnClose, String bootstrap) {
        this.server = server;
        this.dataDir = dataDir;
        this.deleteOnClose = deleteOnClose;
        this.bootstrap = bootstrap;
    }

    /**
     * The broker of {@code ./frontier worker} without a configured cluster: on localhost:{@code FRONTIER_KAFKA_PORT}
     * (default 9092) with its log in {@code FRONTIER_KAFKA_DIR} or {@code .frontier/kafka-PORT}, kept across restarts;
     * port 0 picks a free port and a temporary log.
     */
    public static EmbeddedKafkaBroker startLocal() {
        String portSetting = System.getenv("FRONTIER_KAFKA_PORT");
        int port = Integer.parseInt(portSetting == null || portSetting.isBlank() ? "9092" : portSetting);
        if (port == 0) return startTemporary();
        String dir = System.getenv("FRONTIER_KAFKA_DIR");
        return start(port, dir == null ? Path.of(".frontier", "kafka-" + port) : Path.of(dir), false);
    }

    /** A broker on a free port with a temporary log directory, deleted on close. */
    public static EmbeddedKafkaBroker startTemporary() {
        try {
            return start(0, Files.createTempDirectory("frontier-kafka-"), true);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temporary directory for the embedded broker", e);
        }
    }

    /**
     * Starts a broker listening on localhost:{@code port} (0: a free port) with its log in {@code dataDir},
     * formatting the directory on first use.
     */
    public static EmbeddedKafkaBroker start(int port, Path dataDir, boolean deleteOnClose) {
        long t0 = System.nanoTime();
        int brokerPort = port == 0 ? freePort() : port;
        int controllerPort = freePort();
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        p.put("listeners", "PLAINTEXT://localhost:" + brokerPort + ",CONTROLLER://localhost:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dataDir.toAbsolutePath().toString());
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        try {
            Files.createDirectories(dataDir);
            if (!Files.exists(dataDir.resolve("meta.properties"))) format(p, dataDir);
            KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p, false), Time.SYSTEM);
            server.startup();
            String bootstrap = "localhost:" + brokerPort;
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, dataDir, deleteOnClose, bootstrap);
            broker.awaitReady();
            LOG.info("embedded Kafka broker (KRaft) ready on {} in {} ms, log in {}", bootstrap,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), dataDir);
            return broker;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the embedded Kafka broker in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    private static void format(Properties p, Path dataDir) throws IOException {
        Path config = dataDir.resolve("server.properties.tmp");
        try (OutputStream out = Files.newOutputStream(config)) {
            p.store(out, "Frontier embedded broker");
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int rc = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()},
                new PrintStream(log, true, StandardCharsets.UTF_8));
        Files.deleteIfExists(config);
        if (rc != 0) {
            throw new IOException("formatting the KRaft log directory failed: " + log.toString(StandardCharsets.UTF_8));
        }
    }

    private void awaitReady() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("embedded Kafka broker on " + bootstrap + " did not become ready: " + e, e);
        }
    }

    public String bootstrapServers() {
        return bootstrap;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        if (deleteOnClose) {
            try (Stream<Path> files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                LOG.debug("could not delete {}", dataDir, e);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free local port", e);
        }
    }
}
