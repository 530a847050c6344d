package org.frontiergraph.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Asks the cluster to describe itself before a command publishes anything, so that a stopped broker is reported in
 * seconds: a Kafka producer would wait {@code max.block.ms} (30 s) for metadata, and the command another 30 s for its
 * topics. Uses the same settings as the command's clients, so a wrong password fails here too.
 */
final class KafkaReachability {
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    private KafkaReachability() {}

    /** A Kafka setting the client refuses (an unknown protocol, a malformed number): the user's to fix. */
    static final class BadSetting extends RuntimeException {
        BadSetting(String message) {
            super(message);
        }
    }

    /**
     * Returns when a broker of the cluster answered within {@code timeout}.
     *
     * @throws CliFailure when none did, or it refused the client (authentication, authorization)
     * @throws BadSetting when the Kafka client rejects the settings themselves
     */
    static void check(Properties kafka, Duration timeout) {
        String where = kafka.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        int ms = (int) timeout.toMillis();
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "frontier-cli-check");
        Admin admin;
        try {
            admin = Admin.create(p);
        } catch (ConfigException e) {
            throw new BadSetting("invalid Kafka setting: " + e.getMessage());
        } catch (KafkaException e) {   // e.g. no resolvable bootstrap address
            throw new CliFailure("cannot reach Kafka at " + where + ": " + rootMessage(e) + " (--bootstrap)");
        }
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes().get(ms + 1000L, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw unreachable(where, timeout);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof AuthenticationException || cause instanceof AuthorizationException) {
                throw new CliFailure("Kafka at " + where + " refused this client: " + cause.getMessage()
                        + " (check --kafka-config / --kafka-property)");
            }
            if (cause instanceof org.apache.kafka.common.errors.TimeoutException) throw unreachable(where, timeout);
            throw new CliFailure("cannot reach Kafka at " + where + ": " + rootMessage(cause));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted while connecting to Kafka at " + where);
        } finally {
            admin.close(Duration.ofSeconds(1));
        }
    }

    private static CliFailure unreachable(String where, Duration timeout) {
        return new CliFailure(String.format(Locale.ROOT, "cannot reach Kafka at %s within %d s (is the broker running? --bootstrap)",
                where, timeout.toSeconds()));
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
