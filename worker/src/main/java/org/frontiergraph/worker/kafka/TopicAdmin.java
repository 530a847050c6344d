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
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the worker's topics at start-up, before the listener subscribes (an eager {@code @Context} bean).
 * The graphs topic keeps its log (retention -1 by default) so a worker can rebuild graphs from it; it cannot be
 * compacted because snapshots, updates and queries of one graph share a key. Existing topics are left as they are, so a
 * worker whose principal may only describe them (Kafka ACLs) starts on topics an operator created; one that may not
 * describe them, or must create one and may not, fails to start with the broker's reason.
 */
@Context
public class TopicAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);

    public TopicAdmin(TopicsConfig topics, KafkaClientSettings kafka) {
        if (!topics.isCreate()) return;
        Properties settings = kafka.admin();
        String bootstrap = settings.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        try (Admin admin = Admin.create(settings)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (NewTopic t : topicsToCreate(topics)) if (!existing.contains(t.name())) missing.add(t);
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
                LOG.info("created topics {}", missing.stream().map(NewTopic::name).toList());
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot create Frontier's topics on " + bootstrap + ": " + e.getMessage(), e);
        }
    }

    /**
     * The topics and the settings the worker creates them with (documented in docs/contract.md): partitions,
     * replication factor and {@code min.insync.replicas} from {@code frontier.topics.*}.
     *
     * @throws IllegalArgumentException when the replication settings cannot work together
     */
    public static List<NewTopic> topicsToCreate(TopicsConfig t) {
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
        List<NewTopic> out = new ArrayList<>(List.of(graphs));
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
