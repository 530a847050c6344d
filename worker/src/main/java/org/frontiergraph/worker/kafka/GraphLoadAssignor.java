package org.frontiergraph.worker.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;

/**
 * The workers' partition assignor: balances the graphs, not only the partitions, over the group. Graph ids are hashed
 * to partitions (their records must stay in one), so a few graphs fall unevenly: twelve over six partitions came as
 * 1, 2, 2, 3, 2, 2 or 5, 4, 1, 2, 0, 0 depending on their names, and an assignor that counts partitions (Kafka's
 * cooperative sticky one) gave one of two workers 7 to 9 of the 12 graphs, which bounds two workers at 1.3-1.7x one.
 * Each member tells the group, in its subscription, how many graphs each partition it owns holds ({@link
 * #WEIGHTS_CONFIG}: a supplier the worker configures); the leader keeps what it learns (a partition between owners is
 * weighed as last reported; an owned one as its owner reports it now) and assigns:
 * <ol>
 *   <li>every partition to its current owner (stickiness: a move costs a rebuild), unowned ones heaviest first to the
 *       least loaded member;</li>
 *   <li>then moves or swaps single partitions from the most to the least loaded member while that lowers the larger
 *       of their two loads (graphs), then moves empty partitions so that partition counts differ by at most one;</li>
 *   <li>cooperatively: a partition that changes owner is left out of this round, its owner gives it up and the group
 *       rebalances again at once, when it goes to its new owner.</li>
 * </ol>
 * Listed before Kafka's cooperative sticky assignor, which the group uses while any member lacks this one (a rolling
 * upgrade). Both are cooperative, so switching between them never stops the whole group.
 */
public final class GraphLoadAssignor implements ConsumerPartitionAssignor, Configurable {
    /** The consumer setting that carries a {@code Supplier<Map<Integer, Integer>>}: graphs per owned partition. */
    public static final String WEIGHTS_CONFIG = "frontier.assignor.graphs-per-partition";
    static final String NAME = "frontier-graph-load";

    private Supplier<Map<Integer, Integer>> weights = Map::of;
    /** The leader's knowledge: each partition's graphs as its owner last reported. */
    private final Map<TopicPartition, Integer> known = new HashMap<>();

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs) {
        Object w = configs.get(WEIGHTS_CONFIG);
        if (w instanceof Supplier<?> s) weights = (Supplier<Map<Integer, Integer>>) s;
    }

    @Override
    public String name() { return NAME; }

    @Override
    public List<RebalanceProtocol> supportedProtocols() { return List.of(RebalanceProtocol.COOPERATIVE); }

    /** Graphs per partition this member holds, for each subscribed topic: n, then (topic, partition, graphs) n times. */
    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        Map<Integer, Integer> w = weights.get();
        List<byte[]> names = topics.stream().sorted().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
        int size = 4;
        for (byte[] n : names) size += w.size() * (2 + n.length + 8);
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(names.size() * w.size());
        for (byte[] n : names) {
            for (var e : w.entrySet()) b.putShort((short) n.length).put(n).putInt(e.getKey()).putInt(e.getValue());
        }
        return b.flip();
    }

    static Map<TopicPartition, Integer> decode(ByteBuffer data) {
        Map<TopicPartition, Integer> out = new HashMap<>();
        if (data == null || data.remaining() < 4) return out;
        ByteBuffer b = data.duplicate();
        for (int i = b.getInt(); i > 0; i--) {
            byte[] name = new byte[b.getShort()];
            b.get(name);
            out.put(new TopicPartition(new String(name, StandardCharsets.UTF_8), b.getInt()), b.getInt());
        }
        return out;
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription group) {
        Map<String, Subscription> members = new TreeMap<>(group.groupSubscription());
        Map<TopicPartition, String> owner = new HashMap<>();
        for (var m : members.entrySet()) {
            Map<TopicPartition, Integer> reported = decode(m.getValue().userData());
            for (TopicPartition tp : m.getValue().ownedPartitions()) {
                if (owner.putIfAbsent(tp, m.getKey()) == null) known.put(tp, reported.getOrDefault(tp, 0));   // its owner knows best
            }
        }
        Map<String, List<TopicPartition>> target = new TreeMap<>();
        members.keySet().forEach(m -> target.put(m, new ArrayList<>()));
        Map<String, List<TopicPartition>> byTopic = new TreeMap<>();
        for (var m : members.entrySet()) {
            for (String topic : m.getValue().topics()) {
                if (byTopic.containsKey(topic)) continue;
                Integer count = metadata.partitionCountForTopic(topic);
                List<TopicPartition> parts = new ArrayList<>();
                for (int p = 0; count != null && p < count; p++) parts.add(new TopicPartition(topic, p));
                byTopic.put(topic, parts);
            }
        }
        for (var t : byTopic.entrySet()) {
            List<String> subscribed = members.entrySet().stream().filter(m -> m.getValue().topics().contains(t.getKey()))
                    .map(Map.Entry::getKey).toList();
            balance(t.getValue(), subscribed, owner, target);
        }
        Map<String, Assignment> out = new HashMap<>();
        for (var m : target.entrySet()) {
            List<TopicPartition> now = new ArrayList<>();
            for (TopicPartition tp : m.getValue()) {
                String current = owner.get(tp);
                if (current == null || current.equals(m.getKey())) now.add(tp);   // else: revoked first, given next round
            }
            now.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            out.put(m.getKey(), new Assignment(now));
        }
        return new GroupAssignment(out);
    }

    /** Plans {@code parts} over {@code members} (sorted ids) into {@code target}, from who owns what now. */
    private void balance(List<TopicPartition> parts, List<String> members, Map<TopicPartition, String> owner,
                         Map<String, List<TopicPartition>> target) {
        if (members.isEmpty()) return;
        Map<String, List<TopicPartition>> plan = new TreeMap<>();
        members.forEach(m -> plan.put(m, new ArrayList<>()));
        List<TopicPartition> unowned = new ArrayList<>();
        for (TopicPartition tp : parts) {
            String o = owner.get(tp);
            if (o != null && plan.containsKey(o)) plan.get(o).add(tp);
            else unowned.add(tp);
        }
        unowned.sort(Comparator.comparingInt((TopicPartition tp) -> -weight(tp)).thenComparingInt(TopicPartition::partition));
        for (TopicPartition tp : unowned) plan.get(lightest(plan)).add(tp);
        for (int round = 0; round < parts.size() * parts.size() && improve(plan); round++) {
            // each step lowers the heaviest pair's larger load
        }
        evenCounts(plan);
        plan.forEach((m, ps) -> target.get(m).addAll(ps));
    }

    /** One move or swap between the most and the least loaded member that lowers the larger of their loads. */
    private boolean improve(Map<String, List<TopicPartition>> plan) {
        String heavy = heaviest(plan), light = lightest(plan);
        int h = load(plan.get(heavy)), l = load(plan.get(light));
        if (h - l < 2) return false;
        TopicPartition bestFrom = null, bestTo = null;
        int bestGap = h - l;
        for (TopicPartition p : plan.get(heavy)) {
            int gap = Math.abs((h - weight(p)) - (l + weight(p)));
            if (weight(p) > 0 && gap < bestGap) {
                bestGap = gap;
                bestFrom = p;
                bestTo = null;
            }
            for (TopicPartition q : plan.get(light)) {
                int d = weight(p) - weight(q);
                int swapGap = Math.abs((h - d) - (l + d));
                if (d > 0 && swapGap < bestGap) {
                    bestGap = swapGap;
                    bestFrom = p;
                    bestTo = q;
                }
            }
        }
        if (bestFrom == null) return false;
        plan.get(heavy).remove(bestFrom);
        plan.get(light).add(bestFrom);
        if (bestTo != null) {
            plan.get(light).remove(bestTo);
            plan.get(heavy).add(bestTo);
        }
        return true;
    }

    /** Moves partitions without graphs from the member with the most partitions to the one with the fewest. */
    private void evenCounts(Map<String, List<TopicPartition>> plan) {
        while (true) {
            String most = null, fewest = null;
            for (var e : plan.entrySet()) {
                if (most == null || e.getValue().size() > plan.get(most).size()) most = e.getKey();
                if (fewest == null || e.getValue().size() < plan.get(fewest).size()) fewest = e.getKey();
            }
            if (plan.get(most).size() - plan.get(fewest).size() < 2) return;
            TopicPartition empty = plan.get(most).stream().filter(tp -> weight(tp) == 0)
                    .max(Comparator.comparingInt(TopicPartition::partition)).orElse(null);
            if (empty == null) return;
            plan.get(most).remove(empty);
            plan.get(fewest).add(empty);
        }
    }

    private int weight(TopicPartition tp) { return known.getOrDefault(tp, 0); }

    private int load(List<TopicPartition> parts) {
        int sum = 0;
        for (TopicPartition tp : parts) sum += weight(tp);
        return sum;
    }

    /** The member with the fewest graphs, then the fewest partitions, then the first id. */
    private String lightest(Map<String, List<TopicPartition>> plan) {
        String best = null;
        for (var e : plan.entrySet()) {
            if (best == null || compare(e.getValue(), plan.get(best)) < 0) best = e.getKey();
        }
        return best;
    }

    /** The member with the most graphs, then the most partitions, then the first id. */
    private String heaviest(Map<String, List<TopicPartition>> plan) {
        String best = null;
        for (var e : plan.entrySet()) {
            if (best == null || compare(e.getValue(), plan.get(best)) > 0) best = e.getKey();
        }
        return best;
    }

    private int compare(List<TopicPartition> a, List<TopicPartition> b) {
        int c = Integer.compare(load(a), load(b));
        return c != 0 ? c : Integer.compare(a.size(), b.size());
    }
}
