package org.frontiergraph.worker.checkpoint;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.frontiergraph.worker.checkpoint.CheckpointFormat.Meta;
import org.frontiergraph.worker.checkpoint.CheckpointedSubscriptions.Carried;

/**
 * How a checkpoint's subscriptions lie on the checkpoint topic, beside its chunks ({@link CheckpointFormat}):
 * <ul>
 *   <li>Subscription {@code j} of slot {@code s} of graph {@code g}: key {@code g/s/sub-j}, value the subscription
 *       record as published on the graphs topic, header {@link #HEADER} (the checkpoint's covered offset, lineage,
 *       version, partition and slot as {@link CheckpointFormat#HEADER} has them, then {@code j} and the number of
 *       subscriptions), header {@link #ORIGIN} (the graphs-topic offset of the record).</li>
 *   <li>Chunk 0 of the checkpoint carries header {@link #COUNT}: how many subscriptions belong to it (0: none). A
 *       checkpoint is complete only when all of them are there, of the same checkpoint; a chunk 0 without the header
 *       is a checkpoint that carries no subscriptions (written before they were carried): the graph's subscription
 *       records are replayed from the log.</li>
 * </ul>
 * They are written before the chunks, so a writer that dies mid-way leaves an incomplete checkpoint, never one whose
 * subscriptions are missing. Records without {@link CheckpointFormat#HEADER}: a reader that knows no subscriptions
 * skips them.
 */
public final class SubscriptionRecords {
    /** Header of a subscription record: the checkpoint it belongs to, its index and the count (as {@link CheckpointFormat#HEADER}). */
    public static final String HEADER = "frontier.subscription";
    /** Header of a subscription record: the graphs-topic offset of the record that registered the subscription (a long). */
    public static final String ORIGIN = "frontier.origin";
    /** Header of a checkpoint's chunk 0: the number of subscription records of the checkpoint (an int). */
    public static final String COUNT = "frontier.subscriptions";
    /** The last key segment of a subscription record, before its index. */
    static final String KEY_PREFIX = "sub-";

    private SubscriptionRecords() {}

    public static String key(String graphId, int slot, int index) {
        return graphId + "/" + slot + "/" + KEY_PREFIX + index;
    }

    /** Whether {@code key} is a subscription record's (its last segment {@code sub-j}). */
    static boolean isKey(String key) {
        return key.startsWith(KEY_PREFIX, key.lastIndexOf('/') + 1);
    }

    /** The records of {@code carried} for the checkpoint {@code m} (its index and count are the records' own). */
    static List<CheckpointFormat.Out> encode(String graphId, Meta m, List<Carried> carried) {
        List<CheckpointFormat.Out> out = new ArrayList<>(carried.size());
        for (int j = 0; j < carried.size(); j++) {
            Headers h = new RecordHeaders();
            h.add(new RecordHeader(HEADER, CheckpointFormat.header(new Meta(m.offset(), m.lineage(), m.version(), m.partition(),
                    m.slot(), j, carried.size()))));
            h.add(new RecordHeader(ORIGIN, ByteBuffer.allocate(Long.BYTES).putLong(carried.get(j).offset()).array()));
            out.add(new CheckpointFormat.Out(key(graphId, m.slot(), j), carried.get(j).record(), h));
        }
        return out;
    }

    /** Marks chunk 0 of a checkpoint with the number of its subscription records. */
    static void count(CheckpointFormat.Out chunk0, int count) {
        chunk0.headers().add(new RecordHeader(COUNT, ByteBuffer.allocate(Integer.BYTES).putInt(count).array()));
    }

    /** The subscription count chunk 0 declares; -1 when it declares none (a checkpoint without subscriptions). */
    static int count(Headers chunk0) {
        Header h = chunk0.lastHeader(COUNT);
        return h == null || h.value() == null || h.value().length != Integer.BYTES ? -1 : ByteBuffer.wrap(h.value()).getInt();
    }

    /** The checkpoint header of a subscription record, or null. */
    static Meta meta(Headers headers) {
        Header h = headers.lastHeader(HEADER);
        return h == null ? null : CheckpointFormat.meta(h.value());
    }

    /**
     * The subscription of a record of the checkpoint {@code chunk0} holding {@code count} of them: null when the record
     * belongs to another checkpoint, or is not the {@code index}-th.
     */
    static Carried read(String graphId, Meta chunk0, int count, int index, byte[] value, Headers headers) {
        Meta m = meta(headers);
        Header origin = headers.lastHeader(ORIGIN);
        if (m == null || m.offset() != chunk0.offset() || m.lineage() != chunk0.lineage() || m.version() != chunk0.version()
                || m.index() != index || m.count() != count || origin == null || origin.value() == null
                || origin.value().length != Long.BYTES) {
            return null;
        }
        return new Carried(graphId, ByteBuffer.wrap(origin.value()).getLong(), value);
    }
}
