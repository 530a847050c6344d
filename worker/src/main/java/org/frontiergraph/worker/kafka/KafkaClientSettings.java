package org.frontiergraph.worker.kafka;

import io.micronaut.configuration.kafka.config.KafkaDefaultConfiguration;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.frontiergraph.worker.config.FrontierConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one source of the worker's Kafka client settings. Every client the worker creates starts from micronaut-kafka's
 * {@code kafka.*} settings ({@link KafkaDefaultConfiguration}): the graphs consumer (through micronaut's consumer
 * configuration), the output producer (a {@code @KafkaClient}, through micronaut's producer configuration), the
 * health check's admin client, and the admin clients here ({@link #admin()}: topic creation, leaving the group).
 *
 * <p>Before any client is configured, this completes {@code kafka.*} (it listens for the bean's creation):
 * <ul>
 *   <li>the client properties file named by {@code frontier.kafka-config} ({@code FRONTIER_KAFKA_CONFIG}), the format
 *       Kafka's own tools read with {@code --command-config}, adds its settings where {@code kafka.*} has none: a
 *       setting given in application.yml, an environment variable or a system property wins over the file;</li>
 *   <li>the other spellings Micronaut derives from an environment variable ({@code KAFKA_SASL_JAAS_CONFIG} gives
 *       {@code sasl.jaas.config} and also {@code sasl-jaas-config}, {@code sasl.jaas-config} ...) are dropped, so
 *       clients see only Kafka's names.</li>
 * </ul>
 */
@Singleton
public class KafkaClientSettings implements BeanCreatedEventListener<KafkaDefaultConfiguration> {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaClientSettings.class);
    /**
     * Settings passed to a client even when its configuration does not name them: login modules, callback handlers
     * and SSL engine factories read keys of their own under these prefixes.
     */
    static final List<String> SECURITY_PREFIXES = List.of("security.", "sasl.", "ssl.");

    private final BeanProvider<KafkaDefaultConfiguration> kafka;
    private final FrontierConfig config;

    public KafkaClientSettings(BeanProvider<KafkaDefaultConfiguration> kafka, FrontierConfig config) {
        this.kafka = kafka;
        this.config = config;
    }

    @Override
    public KafkaDefaultConfiguration onCreated(BeanCreatedEvent<KafkaDefaultConfiguration> event) {
        Properties settings = event.getBean().getConfig();
        dropEnvironmentSpellings(settings);
        String file = config.getKafkaConfig();
        if (file != null && !file.isBlank()) {
            Properties fromFile = read(Path.of(file));
            Set<String> overridden = merge(settings, fromFile);
            LOG.info("Kafka client settings {} from {}{}", new TreeSet<>(fromFile.stringPropertyNames()), file,
                    overridden.isEmpty() ? "" : "; kafka.* overrides " + overridden);
        }
        return event.getBean();
    }

    /** The settings of an admin client: the {@code kafka.*} settings an admin client knows, and every security setting. */
    public Properties admin() {
        return forClient(kafka.get().getConfig(), AdminClientConfig.configNames());
    }

    /** The settings of a producer of the worker's own (checkpoints): those of {@code kafka.*} a producer knows, and security. */
    public Properties producer() {
        return forClient(kafka.get().getConfig(), ProducerConfig.configNames());
    }

    /**
     * The settings of a consumer outside the group (reading checkpoints, the live view's reader of the status topic):
     * those of {@code kafka.*} a consumer knows, and security.
     */
    public Properties consumer() {
        return forClient(kafka.get().getConfig(), ConsumerConfig.configNames());
    }

    /** The settings among {@code kafka} a client whose configuration names {@code known} takes, security ones always. */
    static Properties forClient(Properties kafka, Set<String> known) {
        Properties p = new Properties();
        for (Map.Entry<Object, Object> e : kafka.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (known.contains(key) || SECURITY_PREFIXES.stream().anyMatch(key::startsWith)) p.put(key, e.getValue());
        }
        return p;
    }

    /** Adds the file's settings that {@code settings} lacks; returns the keys both set (the file's value is ignored). */
    static Set<String> merge(Properties settings, Properties fromFile) {
        Set<String> overridden = new TreeSet<>();
        for (String key : fromFile.stringPropertyNames()) {
            if (settings.containsKey(key)) overridden.add(key);
            else settings.setProperty(key, fromFile.getProperty(key));
        }
        return overridden;
    }

    /**
     * Drops a setting whose name has a '-' where the same name with '.' holds the same value: the variants Micronaut
     * derives from one environment variable. Kafka's own setting names have no '-'.
     */
    static void dropEnvironmentSpellings(Properties settings) {
        for (String key : settings.stringPropertyNames()) {
            if (!key.contains("-")) continue;
            String dotted = key.replace('-', '.');
            if (settings.getProperty(key).equals(settings.getProperty(dotted))) settings.remove(key);
        }
    }

    /** Reads a Kafka client properties file (Java properties: {@code security.protocol=SASL_SSL} ...). */
    static Properties read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the Kafka client settings file " + file
                    + " (frontier.kafka-config, FRONTIER_KAFKA_CONFIG): " + e, e);
        }
        return p;
    }
}
