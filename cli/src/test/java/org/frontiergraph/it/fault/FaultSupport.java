package org.frontiergraph.it.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.TopicAdmin;

/** What the fault tests share: topic names, the topics themselves, and what the broker says about the group. */
final class FaultSupport {
    static final String GRAPHS = "frontier.graphs";
    static final String RESULTS = "frontier.results";
    static final String ERRORS = "frontier.errors";
    static final String STATUS = "frontier.graph-status";
    static final String GROUP = "frontier-workers";

    private FaultSupport() {}

    /** Creates the worker's topics as a worker would ({@link TopicAdmin#topicsToCreate}), before any worker starts. */
    static void createTopics(String bootstrap, int partitions) throws Exception {
        TopicsConfig t = new TopicsConfig();
        t.setPartitions(partitions);
        try (Admin admin = admin(bootstrap)) {
            admin.createTopics(TopicAdmin.topicsToCreate(t)).all().get(30, TimeUnit.SECONDS);
        }
    }

    static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** The members of the workers' consumer group, by group.instance.id (or member id for dynamic members). */
    static Set<String> groupMembers(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(GROUP)).all().get(30, TimeUnit.SECONDS).get(GROUP);
            return d.members().stream().map(m -> m.groupInstanceId().orElse(m.consumerId())).collect(Collectors.toSet());
        }
    }

    /** The group's committed offset of each partition of the graphs topic (absent: none committed). */
    static Map<TopicPartition, Long> committed(String bootstrap) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            Map<TopicPartition, OffsetAndMetadata> c = admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            return c.entrySet().stream().filter(e -> e.getValue() != null)
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }
    }

    /** The end offset of each partition of the graphs topic. */
    static Map<TopicPartition, Long> endOffsets(String bootstrap, int partitions) throws Exception {
        try (Admin admin = admin(bootstrap)) {
            Map<TopicPartition, OffsetSpec> spec = new java.util.HashMap<>();
            for (int p = 0; p < partitions; p++) spec.put(new TopicPartition(GRAPHS, p), OffsetSpec.latest());
            return admin.listOffsets(spec).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        }
    }

    static Path tempDir(String name) throws IOException {
        return Files.createTempDirectory("frontier-fault-" + name + "-");
    }

    static void deleteQuietly(Path dir) {
        if (dir == null) return;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
