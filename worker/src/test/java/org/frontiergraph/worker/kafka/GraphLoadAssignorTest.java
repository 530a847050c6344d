package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The assignor balances graphs, not partitions, and stays cooperative: a worker holding six partitions whose graphs
 * fall 5, 4, 1, 2, 0, 0 (twelve ids hashed by Kafka's partitioner) and a worker joining end with six graphs each after
 * the two rounds a cooperative rebalance takes; no partition ever goes to a new owner in the round its owner gives it
 * up; partitions without graphs are spread by count; a balanced group keeps its assignment.
 */
class GraphLoadAssignorTest {
    private static final String TOPIC = "frontier.graphs";
    private static final Node NODE = new Node(1, "localhost", 9092);

    /** A member: graphs per partition it holds (what its registry would say) and the partitions it owns. */
    private static final class Member {
        final GraphLoadAssignor assignor = new GraphLoadAssignor();
        final Map<Integer, Integer> graphs = new HashMap<>();
        List<TopicPartition> owned = new ArrayList<>();

        Member() {
            assignor.configure(Map.of(GraphLoadAssignor.WEIGHTS_CONFIG, (Supplier<Map<Integer, Integer>>) () -> Map.copyOf(graphs)));
        }

        Subscription subscription() {
            return new Subscription(List.of(TOPIC), assignor.subscriptionUserData(Set.of(TOPIC)), owned);
        }
    }

    /** Twelve graphs over six partitions as the ids ny_0 .. ny_11 and ny-0 .. ny-11 fall (Kafka's partitioner). */
    @ParameterizedTest
    @ValueSource(strings = {"5,4,1,2,0,0", "1,2,2,3,2,2"})
    void aJoiningWorkerGetsHalfTheGraphsInTwoCooperativeRounds(String perPartition) {
        int[] graphs = java.util.Arrays.stream(perPartition.split(",")).mapToInt(Integer::parseInt).toArray();
        Member a = new Member(), b = new Member();
        for (int p = 0; p < graphs.length; p++) {
            a.owned.add(new TopicPartition(TOPIC, p));
            if (graphs[p] > 0) a.graphs.put(p, graphs[p]);
        }
        Map<String, Member> group = new TreeMap<>(Map.of("a", a, "b", b));
        Map<String, List<TopicPartition>> first = round(a.assignor, group, graphs);
        assertTrue(first.get("b").isEmpty(), "round one gives nothing that a still owns: " + first);
        Map<String, List<TopicPartition>> second = round(a.assignor, group, graphs);
        assertEquals(6, load(second.get("a"), graphs), second::toString);
        assertEquals(6, load(second.get("b"), graphs), second::toString);
        assertEquals(second, round(a.assignor, group, graphs), "a settled group keeps its assignment");
    }

    @Test
    void partitionsWithoutGraphsAreSpreadByCount() {
        int[] graphs = new int[6];
        Member a = new Member(), b = new Member();
        Map<String, Member> group = new TreeMap<>(Map.of("a", a, "b", b));
        Map<String, List<TopicPartition>> once = round(a.assignor, group, graphs);
        assertEquals(3, once.get("a").size(), once::toString);
        assertEquals(3, once.get("b").size(), once::toString);
        Member c = new Member();
        group.put("c", c);
        round(a.assignor, group, graphs);
        Map<String, List<TopicPartition>> settled = round(a.assignor, group, graphs);
        for (String m : group.keySet()) assertEquals(2, settled.get(m).size(), settled::toString);
    }

    @Test
    void weightsTravelInTheSubscription() {
        Member a = new Member();
        a.graphs.putAll(Map.of(0, 3, 4, 1));
        ByteBuffer data = a.assignor.subscriptionUserData(Set.of(TOPIC));
        assertEquals(Map.of(new TopicPartition(TOPIC, 0), 3, new TopicPartition(TOPIC, 4), 1), GraphLoadAssignor.decode(data));
    }

    /**
     * One rebalance with {@code leader} assigning: checks that it is cooperative and each partition has at most one
     * owner, then applies it (owners give up what they lost; each member's registry holds its partitions' graphs).
     */
    private static Map<String, List<TopicPartition>> round(GraphLoadAssignor leader, Map<String, Member> group, int[] graphs) {
        Map<String, Subscription> subs = new HashMap<>();
        group.forEach((id, m) -> subs.put(id, m.subscription()));
        Map<String, List<TopicPartition>> out = new TreeMap<>();
        leader.assign(cluster(graphs.length), new GroupSubscription(subs)).groupAssignment()
                .forEach((id, as) -> out.put(id, as.partitions()));
        Set<TopicPartition> seen = new HashSet<>();
        for (var e : out.entrySet()) {
            for (TopicPartition tp : e.getValue()) {
                assertTrue(seen.add(tp), tp + " assigned twice: " + out);
                for (var other : group.entrySet()) {
                    if (!other.getKey().equals(e.getKey())) {
                        assertTrue(!other.getValue().owned.contains(tp), tp + " given to " + e.getKey() + " while " + other.getKey() + " owns it");
                    }
                }
            }
        }
        group.forEach((id, m) -> {
            m.owned = new ArrayList<>(out.get(id));
            m.graphs.clear();
            for (TopicPartition tp : m.owned) if (graphs[tp.partition()] > 0) m.graphs.put(tp.partition(), graphs[tp.partition()]);
        });
        return out;
    }

    private static int load(List<TopicPartition> parts, int[] graphs) {
        return parts.stream().mapToInt(tp -> graphs[tp.partition()]).sum();
    }

    private static Cluster cluster(int partitions) {
        List<PartitionInfo> infos = new ArrayList<>();
        for (int p = 0; p < partitions; p++) infos.add(new PartitionInfo(TOPIC, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
        return new Cluster("test", List.of(NODE), infos, Set.of(), Set.of());
    }
}
