package org.frontiergraph.worker.kafka;

import io.micronaut.context.annotation.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the worker's topics at start-up, before the listener subscribes (an eager {@code @Context} bean).
 * The graphs topic keeps its log (retention -1 by default) so a worker can rebuild graphs from it; it cannot be
 * compacted because snapshots, updates and queries of one graph share a key. The checkpoint topic is compacted (keyed
 * by graph, slot and chunk: the newest of each key is kept) and has as many partitions as the graphs topic. Existing
 * topics are left as they are, so a worker whose principal may only describe them (Kafka ACLs) starts on topics an
 * operator created; one that may not describe them, or must create one and may not, fails to start with the broker's
 * reason.
 *
 * <p>Then it checks what a rebuild relies on: the checkpoint topic must have at least the graphs topic's partitions
 * (else checkpoints are off, with an ERROR), and a graphs topic with a finite retention ({@code retention.ms}) without
 * checkpoints, or with a retention shorter than their interval, loses graphs: a WARN says so. With {@code
 * frontier.topics.create=false} nothing is created or checked (the operator's topics, docs/operations.md).
 */
@Context
public class TopicAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

    private final boolean checkpointsAvailable;

    public TopicAdmin(TopicsConfig topics, KafkaClientSettings kafka, FrontierConfig config) {
        boolean checkpoints = config.getCheckpoints().isEnabled();
        if (!topics.isCreate()) {   // the operator's topics, not checked: nothing reaches the broker at start-up
            this.checkpointsAvailable = checkpoints;
            return;
        }
        Properties settings = kafka.admin();
        String bootstrap = settings.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        try (Admin admin = Admin.create(settings)) {
            create(admin, topics, checkpoints);
            checkpoints = check(admin, topics, config.getCheckpoints());
        } catch (Exception e) {
            throw new IllegalStateException("cannot create Frontier's topics on " + bootstrap + ": " + e.getMessage(), e);
        }
        this.checkpointsAvailable = checkpoints;
    }

    /** Whether checkpoints are on and their topic can take every partition's (see the class comment). */
    public boolean checkpointsAvailable() {
        return checkpointsAvailable;
    }

    private static void create(Admin admin, TopicsConfig topics, boolean checkpoints) throws Exception {
        Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        List<NewTopic> missing = new ArrayList<>();
        int partitions = existing.contains(topics.getGraphs()) ? partitions(admin, topics.getGraphs()) : topics.getPartitions();
        for (NewTopic t : topicsToCreate(topics, partitions)) {
            if (!checkpoints && t.name().equals(topics.getCheckpoints())) continue;
            if (!existing.contains(t.name())) missing.add(t);
        }
        if (!missing.isEmpty()) {
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            LOG.info("created topics {}", missing.stream().map(NewTopic::name).toList());
        }
    }

    private static int partitions(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
    }

    /** The checks of the class comment; returns whether checkpoints can be written. Never throws. */
    private static boolean check(Admin admin, TopicsConfig topics, FrontierConfig.Checkpoints c) {
        boolean usable = c.isEnabled();
        try {
            if (usable) {
                int graphs = partitions(admin, topics.getGraphs()), cps = partitions(admin, topics.getCheckpoints());
                if (cps < graphs) {
                    LOG.error("checkpoints are off: topic {} has {} partitions, fewer than the {} of {} (a graph's checkpoint "
                            + "goes to the partition number of its own)", topics.getCheckpoints(), cps, graphs, topics.getGraphs());
                    usable = false;
                }
            }
        } catch (Exception e) {
            LOG.error("checkpoints are off: topic {} cannot be described ({})", topics.getCheckpoints(), e.toString());
            usable = false;
        }
        try {
            ConfigResource graphs = new ConfigResource(ConfigResource.Type.TOPIC, topics.getGraphs());
            Config config = admin.describeConfigs(List.of(graphs)).all().get(30, TimeUnit.SECONDS).get(graphs);
            ConfigEntry retention = config == null ? null : config.get(TopicConfig.RETENTION_MS_CONFIG);
            long ms = retention == null || retention.value() == null ? -1 : Long.parseLong(retention.value());
            if (ms >= 0 && !usable) {
                LOG.warn("topic {} keeps records for {} ms (retention.ms) and checkpoints are off: a graph whose snapshot is "
                        + "older is lost at the next rebuild (reported as RECORDS_LOST); turn frontier.checkpoints on, or keep "
                        + "the log (retention.ms=-1)", topics.getGraphs(), ms);
            } else if (ms >= 0 && ms < c.getInterval().toMillis()) {
                LOG.warn("topic {} keeps records for {} ms (retention.ms), less than frontier.checkpoints.interval ({}): "
                        + "records a rebuild needs may go before the next checkpoint; keep retention >= the interval",
                        topics.getGraphs(), ms, c.getInterval());
            }
        } catch (Exception e) {
            LOG.warn("cannot read the retention of topic {} ({}); a finite retention needs checkpoints", topics.getGraphs(), e.toString());
        }
        return usable;
    }

    /**
     * The topics and the settings the worker creates them with (documented in docs/contract.md): partitions,
     * replication factor and {@code min.insync.replicas} from {@code frontier.topics.*}.
     *
     * @throws IllegalArgumentException when the replication settings cannot work together
     */
    public static List<NewTopic> topicsToCreate(TopicsConfig t) {
        return topicsToCreate(t, t.getPartitions());
    }

    /** As {@link #topicsToCreate(TopicsConfig)}, the checkpoint topic with the graphs topic's {@code graphsPartitions}. */
    static List<NewTopic> topicsToCreate(TopicsConfig t, int graphsPartitions) {
        if (t.getReplicationFactor() < 1) {
            throw new IllegalArgumentException("frontier.topics.replication-factor must be at least 1, got " + t.getReplicationFactor());
        }
        if (t.getMinInsyncReplicas() < 0 || t.getMinInsyncReplicas() > t.getReplicationFactor()) {
            throw new IllegalArgumentException("frontier.topics.min-insync-replicas must be 0 (the broker's default) to "
                    + "frontier.topics.replication-factor (" + t.getReplicationFactor() + "), got " + t.getMinInsyncReplicas());
        }
        NewTopic graphs = new NewTopic(t.getGraphs(), t.getPartitions(), t.getReplicationFactor()).configs(settings(t, Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(t.getGraphsRetentionMs()),
                TopicConfig.RETENTION_BYTES_CONFIG, "-1")));
        // segments roll within the hour (or 16 MiB) and are cleaned once a tenth of the log is superseded, so a rebuild
        // reads little beyond the newest checkpoints: the read waits on the bytes (docs/benchmarks.md, "Rebuild stages")
        NewTopic checkpoints = new NewTopic(t.getCheckpoints(), graphsPartitions, t.getReplicationFactor()).configs(settings(t, Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_MS_CONFIG, Long.toString(3_600_000L),
                TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(16 << 20),
                TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.1")));
        List<NewTopic> out = new ArrayList<>(List.of(graphs, checkpoints));
        for (String name : List.of(t.getResults(), t.getLatency(), t.getErrors(), t.getStatus())) {
            out.add(new NewTopic(name, t.getPartitions(), t.getReplicationFactor()).configs(settings(t, Map.of(
                    TopicConfig.RETENTION_MS_CONFIG, Long.toString(t.getOutputRetentionMs())))));
        }
        return out;
    }

    /** A topic's own settings plus those every Frontier topic shares (record size, in-sync replicas when set). */
    private static Map<String, String> settings(TopicsConfig t, Map<String, String> own) {
        Map<String, String> all = new TreeMap<>(own);
        all.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(t.getMaxMessageBytes()));
        if (t.getMinInsyncReplicas() > 0) all.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(t.getMinInsyncReplicas()));
        return all;
    }
}
