package org.frontiergraph.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Apache Kafka broker in KRaft mode (combined broker and controller), started in this JVM.
 * {@code ./frontier worker} starts one when no bootstrap server is configured, {@code ./frontier demo} always; the
 * integration tests start one per test class. With a persistent data directory the log survives restarts (the worker
 * then rebuilds its graphs from it).
 *
 * <p>By default the broker is open: one PLAINTEXT listener, no authentication, no authorizer. {@link #startSecured}
 * starts one as a secured cluster is run, for tests: clients log in with SASL (SCRAM-SHA-512), over TLS if asked,
 * and Kafka's {@code StandardAuthorizer} allows nothing that no ACL grants, except to the admin (a super user). Users
 * and ACLs are created through the Admin API ({@link #createUser}, {@link #allow}), as an operator would.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    /** The SASL mechanism of a secured broker's client listener. */
    public static final String SCRAM = "SCRAM-SHA-512";

    private final KafkaRaftServer server;
    private final Path dataDir;
    private final boolean deleteOnClose;
    private final String bootstrap;
    /** Null for the open broker. */
    private final Security security;

    private EmbeddedKafkaBroker(KafkaRaftServer server, Path dataDir, boolean deleteOnClose, String bootstrap, Security security) {
        this.server = server;
        this.dataDir = dataDir;
        this.deleteOnClose = deleteOnClose;
        this.bootstrap = bootstrap;
        this.security = security;
    }

    /**
     * How a secured broker's client listener is protected: SASL with {@value #SCRAM}, over TLS when {@code tls} (a
     * certificate for localhost made at start with the JDK's keytool, trusted through {@code caCertificate}, a PEM
     * file); {@code admin} is the broker's own identity and the authorizer's only super user.
     */
    public record Security(String admin, String adminPassword, boolean tls, Path caCertificate) {
        public Security {
            for (String s : List.of(admin, adminPassword)) {
                if (!s.matches("[A-Za-z0-9._-]+")) throw new IllegalArgumentException("SASL names and passwords here are [A-Za-z0-9._-]+");
            }
        }

        /** The settings of a client of the listener logging in as {@code user} (bootstrap.servers aside). */
        public Properties clientSettings(String user, String password) {
            Properties p = new Properties();
            p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, tls ? "SASL_SSL" : "SASL_PLAINTEXT");
            p.put(SaslConfigs.SASL_MECHANISM, SCRAM);
            p.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + user + "\" password=\"" + password + "\";");
            if (tls) {
                p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
                p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, caCertificate.toAbsolutePath().toString());
            }
            return p;
        }
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
     * A secured broker on a free port with a temporary directory (log, TLS files), deleted on close: SASL
     * ({@value #SCRAM}) on its client listener, over TLS if {@code tls}; an authorizer with {@code admin} as super
     * user. The admin's password is made here: {@link #security()} has it.
     */
    public static EmbeddedKafkaBroker startSecured(String admin, boolean tls) {
        try {
            Path dir = Files.createTempDirectory("frontier-kafka-secured-");
            Path ca = tls ? dir.resolve("tls").resolve("ca.pem") : null;
            return start(0, dir, true, new Security(admin, secret(), tls, ca));
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temporary directory for the embedded broker", e);
        }
    }

    /**
     * Starts a broker listening on localhost:{@code port} (0: a free port) with its log in {@code dataDir},
     * formatting the directory on first use.
     */
    public static EmbeddedKafkaBroker start(int port, Path dataDir, boolean deleteOnClose) {
        return start(port, dataDir, deleteOnClose, null);
    }

    private static EmbeddedKafkaBroker start(int port, Path dataDir, boolean deleteOnClose, Security security) {
        long t0 = System.nanoTime();
        int brokerPort = port == 0 ? freePort() : port;
        int controllerPort = freePort();
        while (controllerPort == brokerPort) controllerPort = freePort();   // the OS may hand the same free port out twice
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        p.put("controller.listener.names", "CONTROLLER");
        if (security == null) {
            p.put("listeners", "PLAINTEXT://localhost:" + brokerPort + ",CONTROLLER://localhost:" + controllerPort);
            p.put("advertised.listeners", "PLAINTEXT://localhost:" + brokerPort);
            p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.put("inter.broker.listener.name", "PLAINTEXT");
        }
        Path logDir = security == null ? dataDir : dataDir.resolve("log");   // a secured one keeps TLS files beside it
        p.put("log.dirs", logDir.toAbsolutePath().toString());
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        try {
            Files.createDirectories(logDir);
            if (security != null) secure(p, security, brokerPort, controllerPort);
            if (!Files.exists(logDir.resolve("meta.properties"))) format(p, logDir, security);
            KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p, false), Time.SYSTEM);
            server.startup();
            String bootstrap = "localhost:" + brokerPort;
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, dataDir, deleteOnClose, bootstrap, security);
            broker.awaitReady();
            LOG.info("embedded Kafka broker (KRaft) ready on {}{} in {} ms, log in {}", bootstrap,
                    security == null ? "" : security.tls() ? " (SASL_SSL, " + SCRAM + ", ACLs)" : " (SASL_PLAINTEXT, " + SCRAM + ", ACLs)",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), dataDir);
            return broker;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the embedded Kafka broker in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The listeners of a secured broker. Clients, and the broker itself, use CLIENT: SASL ({@value #SCRAM}, whose
     * credentials live in the cluster's metadata; the admin's are written at format time), with TLS if asked. The
     * controller listener uses SASL PLAIN with the admin's password in the broker's configuration, since SCRAM
     * credentials cannot be read before the controller runs.
     */
    private static void secure(Properties p, Security s, int brokerPort, int controllerPort) throws IOException {
        p.put("listeners", "CLIENT://localhost:" + brokerPort + ",CONTROLLER://localhost:" + controllerPort);
        p.put("advertised.listeners", "CLIENT://localhost:" + brokerPort);
        p.put("listener.security.protocol.map", "CLIENT:" + (s.tls() ? "SASL_SSL" : "SASL_PLAINTEXT") + ",CONTROLLER:SASL_PLAINTEXT");
        p.put("inter.broker.listener.name", "CLIENT");
        p.put("sasl.mechanism.inter.broker.protocol", SCRAM);
        p.put("listener.name.client.sasl.enabled.mechanisms", SCRAM);
        p.put("listener.name.client." + SCRAM.toLowerCase(Locale.ROOT) + ".sasl.jaas.config",
                s.clientSettings(s.admin(), s.adminPassword()).getProperty(SaslConfigs.SASL_JAAS_CONFIG));
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.put("listener.name.controller.plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"" + s.admin() + "\" password=\"" + s.adminPassword() + "\" user_" + s.admin() + "=\"" + s.adminPassword() + "\";");
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + s.admin());
        p.put("allow.everyone.if.no.acl.found", "false");
        if (s.tls()) {
            String password = secret();
            Path keystore = certificate(s.caCertificate().getParent(), password, s.caCertificate());
            p.put("listener.name.client.ssl.keystore.type", "PKCS12");
            p.put("listener.name.client.ssl.keystore.location", keystore.toString());
            p.put("listener.name.client.ssl.keystore.password", password);
            p.put("listener.name.client.ssl.key.password", password);
            p.put("listener.name.client.ssl.truststore.type", "PEM");   // the broker as its own client (inter-broker)
            p.put("listener.name.client.ssl.truststore.location", s.caCertificate().toString());
        }
    }

    /**
     * A self-signed certificate for localhost (and 127.0.0.1) in a PKCS12 key store in {@code dir}, valid for a
     * week, and the certificate alone in PEM ({@code pem}): what clients trust. Made by the JDK's keytool.
     */
    private static Path certificate(Path dir, String password, Path pem) throws IOException {
        Files.createDirectories(dir);
        Path keystore = dir.resolve("broker.p12");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "7",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", password, "-keypass", password);
        keytool("-exportcert", "-rfc", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", password,
                "-file", pem.toString());
        return keystore;
    }

    private static void keytool(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("keytool " + args[0] + " failed: " + out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }

    private static String secret() {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static void format(Properties p, Path dataDir, Security security) throws IOException {
        Path config = dataDir.resolve("server.properties.tmp");
        try (OutputStream out = Files.newOutputStream(config)) {
            p.store(out, "Frontier embedded broker");
        }
        List<String> args = new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
        if (security != null) {
            args.addAll(List.of("--add-scram", SCRAM + "=[name=" + security.admin() + ",password=" + security.adminPassword() + "]"));
        }
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int rc = StorageTool.execute(args.toArray(String[]::new), new PrintStream(log, true, StandardCharsets.UTF_8));
        Files.deleteIfExists(config);
        if (rc != 0) {
            throw new IOException("formatting the KRaft log directory failed: " + log.toString(StandardCharsets.UTF_8));
        }
    }

    private void awaitReady() {
        try (Admin admin = admin()) {
            admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("embedded Kafka broker on " + bootstrap + " did not become ready: " + e, e);
        }
    }

    public String bootstrapServers() {
        return bootstrap;
    }

    /** How the broker is secured; null for the open broker. */
    public Security security() {
        return security;
    }

    /** The settings of a client of this broker: bootstrap.servers, and on a secured broker the login of {@code user}. */
    public Properties clientSettings(String user, String password) {
        Properties p = security == null ? new Properties() : security.clientSettings(user, password);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return p;
    }

    /** An admin client (on a secured broker: logged in as its super user). */
    public Admin admin() {
        return Admin.create(security == null ? clientSettings(null, null) : clientSettings(security.admin(), security.adminPassword()));
    }

    /**
     * Creates (or sets the password of) a {@value #SCRAM} user of a secured broker, through the Admin API, and
     * returns once the user can log in.
     */
    public void createUser(String user, String password) {
        requireSecured();
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create Kafka user " + user + ": " + e, e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Properties login = clientSettings(user, password);
        login.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        login.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        while (true) {   // the credential reaches the broker's authenticator shortly after the controller stored it
            try (Admin asUser = Admin.create(login)) {
                asUser.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("user " + user + " cannot log in: " + e, e);
                pause();
            }
        }
    }

    /**
     * Allows {@code user} the operations on the resource (a topic, a prefix of topic names, a group ...), through the
     * Admin API, and returns once the broker's authorizer has the ACLs.
     */
    public void allow(String user, ResourcePattern resource, AclOperation... operations) {
        requireSecured();
        List<AclBinding> acls = Arrays.stream(operations).map(op -> new AclBinding(resource,
                new AccessControlEntry("User:" + user, "*", op, AclPermissionType.ALLOW))).toList();
        try (Admin admin = admin()) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS).containsAll(acls)) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("the broker did not apply " + acls);
                pause();
            }
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot create ACLs " + acls + ": " + e, e);
        }
    }

    private void requireSecured() {
        if (security == null) throw new IllegalStateException("the broker on " + bootstrap + " is open: no users, no ACLs");
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
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
