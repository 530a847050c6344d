package org.frontiergraph.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.frontiergraph.schema.codec.Framing;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.worker.FrontierWorker;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The Kafka settings of every command that talks to Kafka, as Kafka's own tools take them: {@code --bootstrap},
 * {@code --kafka-config FILE} (a properties file: {@code security.protocol}, {@code sasl.*}, {@code ssl.*} ...,
 * like {@code kafka-topics.sh --command-config}) and repeated {@code --kafka-property KEY=VALUE}.
 *
 * <p>Later wins: the file, then {@code --kafka-property}, then {@code --bootstrap}. Without any bootstrap server the
 * cluster is {@code -Dkafka.bootstrap.servers}, {@code $KAFKA_BOOTSTRAP_SERVERS}, or else {@code localhost:9092}, on
 * port {@code $FRONTIER_KAFKA_PORT} when set (where {@code ./frontier worker} starts its embedded broker).
 *
 * <p>{@code --serialization registry} and {@code --schema-registry URL} (or the settings {@code frontier.serialization.read}
 * / {@code .write}, {@code schema.registry.url}, {@code basic.auth.user.info} in the file) choose the record framing:
 * the client's ({@code FrontierClient}) and, for {@code worker}, the worker's.
 */
final class KafkaOptions {
    static final String DEFAULT_BOOTSTRAP = "localhost:9092";
    /** The port of the embedded broker {@code ./frontier worker} starts, and so of the default bootstrap server. */
    static final String PORT_VARIABLE = "FRONTIER_KAFKA_PORT";

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (default: $KAFKA_BOOTSTRAP_SERVERS, else " + DEFAULT_BOOTSTRAP
                    + ", its port $FRONTIER_KAFKA_PORT when set).")
    String bootstrap;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "Kafka client settings from a properties file (security.protocol, sasl.*, ssl.* ...), "
                    + "as Kafka's tools take --command-config.")
    Path configFile;

    @Option(names = "--kafka-property", paramLabel = "KEY=VALUE", converter = Converters.KafkaProperty.class,
            description = "One Kafka client setting, over the file's (repeatable).")
    List<String[]> properties = new ArrayList<>();

    @Option(names = "--serialization", paramLabel = "FRAMING", defaultValue = "${env:FRONTIER_SERIALIZATION}",
            description = "Record framing, both ways: single-object (default) or registry (the schema registry wire "
                    + "format; reading it takes both framings). Default: $FRONTIER_SERIALIZATION. Finer: the client "
                    + "settings frontier.serialization.read / .write.")
    String serialization;

    @Option(names = "--schema-registry", paramLabel = "URL", defaultValue = "${env:FRONTIER_SCHEMA_REGISTRY}",
            description = "The schema registry for --serialization registry (the client setting schema.registry.url; "
                    + "credentials: basic.auth.user.info=USER:PASSWORD). Default: $FRONTIER_SCHEMA_REGISTRY.")
    String schemaRegistry;

    private Properties settings;

    /** The bootstrap servers named by the options, the file, the JVM or the environment; null when none is. */
    String configuredBootstrap() {
        String fromSettings = settings().getProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        return FrontierWorker.configuredBootstrap(bootstrap != null ? bootstrap : fromSettings);
    }

    /** The bootstrap servers, {@code localhost:9092} (or {@code localhost:$FRONTIER_KAFKA_PORT}) when nothing names any. */
    String bootstrapServers() {
        String b = configuredBootstrap();
        return b == null ? defaultBootstrap(System.getenv(PORT_VARIABLE)) : b;
    }

    /** {@code localhost:PORT} for {@code $FRONTIER_KAFKA_PORT} = {@code port}; {@code localhost:9092} when unset or 0 (a free port). */
    static String defaultBootstrap(String port) {
        if (port == null || port.isBlank() || port.strip().equals("0")) return DEFAULT_BOOTSTRAP;
        try {
            int p = Integer.parseInt(port.strip());
            if (p > 0 && p < 65536) return "localhost:" + p;
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new KafkaReachability.BadSetting("$" + PORT_VARIABLE + "='" + port + "' is not a port number");
    }

    /** Every setting given, with {@code bootstrap.servers} resolved: what FrontierClient and TopicWatcher take. */
    Properties clientProperties() {
        Properties p = settings();
        p.setProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return p;
    }

    /** True when a Kafka client setting was given (beyond the bootstrap address and the framing's settings). */
    boolean hasClientSettings() {
        Properties p = settings();
        for (String framing : List.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, FrontierSerde.READ, FrontierSerde.WRITE,
                FrontierSerde.URL, FrontierSerde.USER_INFO, FrontierSerde.CREDENTIALS_SOURCE)) {
            p.remove(framing);
        }
        return !p.isEmpty();
    }

    /**
     * The settings for a worker, as Micronaut properties: {@code kafka.<key>} (Micronaut Kafka hands every
     * {@code kafka.*} property to the worker's consumer and producers). {@code bootstrap.servers} is left out:
     * {@code FrontierWorker.start} takes it. The framings go to {@code frontier.serialization.*}.
     */
    Map<String, Object> workerProperties() {
        Map<String, Object> out = new HashMap<>();
        settings().forEach((k, v) -> {
            if (FrontierSerde.READ.equals(k) || FrontierSerde.WRITE.equals(k)) out.put((String) k, v);
            else if (!CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG.equals(k)) out.put("kafka." + k, v);
        });
        return out;
    }

    /** The file's settings, then the properties' (no bootstrap resolution); a copy, the file read once. */
    private Properties settings() {
        if (settings == null) settings = read();
        Properties copy = new Properties();
        copy.putAll(settings);
        return copy;
    }

    private Properties read() {
        Properties p = new Properties();
        if (configFile != null) {
            if (!Files.isRegularFile(configFile)) {
                throw new ParameterException(command.commandLine(), "--kafka-config: no such file: " + configFile);
            }
            try (Reader r = Files.newBufferedReader(configFile, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException | IllegalArgumentException e) {
                throw new ParameterException(command.commandLine(), "--kafka-config: cannot read " + configFile + ": " + e.getMessage());
            }
        }
        for (String[] kv : properties) p.setProperty(kv[0], kv[1]);
        if (schemaRegistry != null && !schemaRegistry.isBlank()) p.setProperty(FrontierSerde.URL, schemaRegistry);
        if (serialization != null && !serialization.isBlank()) {
            try {
                String framing = Framing.of(serialization).setting();
                p.setProperty(FrontierSerde.READ, framing);
                p.setProperty(FrontierSerde.WRITE, framing);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(command.commandLine(), "--serialization: " + e.getMessage());
            }
        }
        return p;
    }
}
