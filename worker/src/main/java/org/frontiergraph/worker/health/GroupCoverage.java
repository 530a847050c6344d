package org.frontiergraph.worker.health;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.ConsumerGroupState;
import org.apache.kafka.common.TopicPartition;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.kafka.KafkaClientSettings;

/**
 * Whether a worker the group gave no partition has none to wait for: the group is stable, every partition of the
 * graphs topic is held by a member (more workers than partitions) and the coordinator too shows this worker with none
 * (else its own consumer has not yet taken what the group just gave it). A joining worker's first assignment is empty under
 * the cooperative protocol (the partitions it will get are first given up by their owner, then handed over in a
 * second rebalance), so an empty assignment alone does not make a worker ready. Asked of the group coordinator with
 * the worker's admin settings (a secured cluster: DESCRIBE on the group and the topic, which READ implies), at most
 * once a second; a failed look is a no.
 */
@Singleton
public class GroupCoverage implements AutoCloseable {
    private static final long RECHECK_MS = 1_000;
    private static final long TIMEOUT_MS = 4_000;

    private final KafkaClientSettings kafka;
    private final String group;
    private final String topic;
    /** This worker's static instance id, or null (a dynamic member: then its client id names it). */
    private final String instanceId;
    /** The client id of this worker's consumer (GraphConsumer.consumerProperties). */
    private final String clientId;
    private Admin admin;
    private long checkedAt = Long.MIN_VALUE;
    private boolean covered;

    public GroupCoverage(KafkaClientSettings kafka, FrontierConfig config, TopicsConfig topics) {
        this.kafka = kafka;
        this.group = config.getGroupId();
        this.topic = topics.getGraphs();
        String worker = config.getWorkerId() == null || config.getWorkerId().isBlank() ? null : config.getWorkerId();
        this.instanceId = config.isStaticMembership() ? worker : null;
        this.clientId = "frontier-" + (config.getWorkerId() != null ? config.getWorkerId() : hostName());
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "worker";
        }
    }

    /** The group stable, with every partition of the graphs topic assigned to some member. */
    public synchronized boolean othersHoldEveryPartition() {
        long now = System.currentTimeMillis();
        if (checkedAt != Long.MIN_VALUE && now - checkedAt < RECHECK_MS) return covered;
        covered = look();
        checkedAt = System.currentTimeMillis();
        return covered;
    }

    private boolean look() {
        try {
            if (admin == null) {
                Properties p = kafka.admin();
                p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT_MS - 1_000));
                p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT_MS));
                admin = Admin.create(p);
            }
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS).get(group);
            if (d.state() != ConsumerGroupState.STABLE) return false;
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .get(topic).partitions().size();
            Set<Integer> held = new HashSet<>();
            boolean self = false;
            for (MemberDescription m : d.members()) {
                boolean mine = instanceId != null ? instanceId.equals(m.groupInstanceId().orElse(null)) : clientId.equals(m.clientId());
                for (TopicPartition tp : m.assignment().topicPartitions()) {
                    if (!tp.topic().equals(topic)) continue;
                    if (mine) return false;   // the group gave this worker a partition its consumer has not taken yet
                    held.add(tp.partition());
                }
                self |= mine;
            }
            return self && held.size() == partitions;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;   // the coordinator unreachable or refusing: not known to be covered
        }
    }

    @Override
    @PreDestroy
    public synchronized void close() {
        if (admin != null) admin.close(Duration.ofSeconds(2));
        admin = null;
    }
}
