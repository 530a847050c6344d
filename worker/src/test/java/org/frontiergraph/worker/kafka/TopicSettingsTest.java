package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.junit.jupiter.api.Test;

/**
 * The topics the worker creates take their replication from configuration: application.yml's defaults (one copy,
 * the broker's min.insync.replicas) suit the embedded broker; the environment variables deploy/k8s sets
 * (FRONTIER_TOPICS_REPLICATION_FACTOR=3, FRONTIER_TOPICS_MIN_INSYNC_REPLICAS=2) reach every topic; settings that cannot
 * work together are refused with the keys named.
 */
class TopicSettingsTest {

    @Test
    void theDefaultsAreOneCopyAndTheBrokersInSyncMinimum() {
        List<NewTopic> topics = topicsCreatedWith(Map.of());
        assertEquals(List.of("frontier.graphs", "frontier.checkpoints", "frontier.results", "frontier.latency", "frontier.errors",
                "frontier.graph-status"), topics.stream().map(NewTopic::name).toList());
        for (NewTopic t : topics) {
            assertEquals(1, t.replicationFactor(), t.name());
            assertEquals(6, t.numPartitions(), t.name());
            assertFalse(t.configs().containsKey(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG), t.name() + ": the broker's default");
            assertEquals("1048588", t.configs().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG), t.name());
        }
        assertEquals("-1", topics.get(0).configs().get(TopicConfig.RETENTION_MS_CONFIG), "the graphs topic keeps its log");
    }

    @Test
    void theKubernetesSettingsReachEveryTopic() {
        List<NewTopic> topics = topicsCreatedWith(Map.of(
                "FRONTIER_TOPICS_REPLICATION_FACTOR", "3", "FRONTIER_TOPICS_MIN_INSYNC_REPLICAS", "2"));
        for (NewTopic t : topics) {
            assertEquals(3, t.replicationFactor(), t.name());
            assertEquals("2", t.configs().get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG), t.name());
        }
        assertEquals("frontier.graphs", topics.get(0).name());
        assertEquals(TopicConfig.CLEANUP_POLICY_DELETE, topics.get(0).configs().get(TopicConfig.CLEANUP_POLICY_CONFIG));
        assertEquals("frontier.checkpoints", topics.get(1).name());
        assertEquals(TopicConfig.CLEANUP_POLICY_COMPACT, topics.get(1).configs().get(TopicConfig.CLEANUP_POLICY_CONFIG),
                "checkpoints are compacted, with the same replication as the rest");
    }

    @Test
    void replicationSettingsThatCannotWorkAreRefused() {
        TopicsConfig t = new TopicsConfig();
        t.setReplicationFactor((short) 2);
        t.setMinInsyncReplicas(3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TopicAdmin.topicsToCreate(t));
        assertTrue(e.getMessage().contains("frontier.topics.min-insync-replicas") && e.getMessage().contains("(2)"), e.getMessage());
        t.setReplicationFactor((short) 0);
        t.setMinInsyncReplicas(0);
        e = assertThrows(IllegalArgumentException.class, () -> TopicAdmin.topicsToCreate(t));
        assertTrue(e.getMessage().contains("frontier.topics.replication-factor"), e.getMessage());
    }

    /**
     * What the worker's context (application.yml, these environment variables) would create; started on an
     * unreachable cluster with topic creation off, so nothing connects.
     */
    private static List<NewTopic> topicsCreatedWith(Map<String, Object> env) {
        Map<String, Object> props = Map.of("kafka.bootstrap.servers", "localhost:1", "frontier.backend", "cpu",
                "frontier.topics.create", false, "micronaut.server.port", -1);
        try (ApplicationContext ctx = ApplicationContext.builder().banner(false).properties(props)
                .propertySources(PropertySource.of("test-env", env, PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE))
                .start()) {
            return TopicAdmin.topicsToCreate(ctx.getBean(TopicsConfig.class));
        }
    }
}
