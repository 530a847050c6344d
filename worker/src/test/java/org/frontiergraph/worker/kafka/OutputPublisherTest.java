package org.frontiergraph.worker.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.TopicsConfig;
import org.frontiergraph.worker.processing.Outputs;
import org.junit.jupiter.api.Test;

/**
 * The publisher hands records to the producer in the order of the outputs, whichever way it encodes them (one by one,
 * all side by side, or a large answer's chunks pipelined with their sends), and a batch is done only once the broker
 * answered every send; a failed send fails {@code await} (the listener then does not commit).
 */
class OutputPublisherTest {
    private final TopicsConfig topics = new TopicsConfig();

    private static List<QueryResult> answer(String id, int chunks, int perChunk) {
        List<QueryResult> out = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            double[] d = new double[perChunk];
            int[] p = new int[perChunk];
            for (int i = 0; i < perChunk; i++) {
                d[i] = c * perChunk + i;
                p[i] = -i;
            }
            out.add(QueryResult.newBuilder().setQueryId(id).setGraphId("g").setStatus(ResultStatus.OK).setBackend("cpu")
                    .setChunkIndex(c).setChunkCount(chunks).setOffset(c * perChunk).setVertexCount(chunks * perChunk)
                    .setDistances(PackedArrays.pack(d)).setParents(PackedArrays.pack(p)).build());
        }
        return out;
    }

    private static Outputs outputs(List<QueryResult> results, List<ErrorEvent> errors) {
        return new Outputs(results, errors, List.of(), null, List.of());
    }

    private static ErrorEvent error(String key) {
        return ErrorEvent.newBuilder().setSourceTopic("t").setPartition(0).setOffset(1).setKey(key).setGraphId("g")
                .setCode("X").setReason("r").setTimestampMs(1).build();
    }

    /** Every record the producer got, in order: its topic, key and the record it decodes to. */
    private static void assertSent(MockProducer<String, byte[]> producer, List<Object> expected) throws Exception {
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertEquals(expected.size(), sent.size(), "records sent");
        for (int i = 0; i < sent.size(); i++) assertEquals(expected.get(i), FrontierCodec.decode(sent.get(i).value()), "record " + i);
    }

    @Test
    void aLargeAnswersChunksAreSentInOrderThenTheRest() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(false, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher.Batch batch = new OutputPublisher(producer, topics).batch();
        List<QueryResult> full = answer("q1", 7, 20_000);
        ErrorEvent e = error("k");
        batch.addAll(List.of(outputs(full, List.of()), outputs(List.of(), List.of(e))));
        List<Object> expected = new ArrayList<>(full);
        expected.add(e);
        assertSent(producer, expected);
        assertEquals(topics.getResults(), producer.history().get(0).topic());
        assertEquals("q1", producer.history().get(6).key());
        assertEquals(topics.getErrors(), producer.history().get(7).topic());

        assertFalse(batch.done(), "no send answered yet");
        for (int i = 0; i < 7; i++) assertTrue(producer.completeNext());
        assertFalse(batch.done(), "the error event is not answered yet");
        assertTrue(producer.completeNext());
        assertTrue(batch.done());
        batch.await();
    }

    /** A push of subscription {@code id}: a result with a push reason. */
    private static QueryResult push(String id, long sequence) {
        QueryResult r = answer(id, 1, 5).get(0);
        r.setReason(sequence == 0 ? PushReason.INITIAL : PushReason.UPDATE);
        r.setSequence(sequence);
        return r;
    }

    @Test
    void pushesTakeTheirLaneInOrderAndTheSubscriptionIsBehindUntilAcknowledged() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(false, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher publisher = new OutputPublisher(producer, topics);
        try {
            OutputPublisher.Batch first = publisher.batch(), second = publisher.batch();
            List<QueryResult> answers = answer("q", 1, 5);
            first.addAll(List.of(outputs(List.of(push("s", 0), push("t", 0)), List.of()), outputs(answers, List.of())));
            second.add(outputs(List.of(push("s", 1)), List.of()));
            assertTrue(publisher.behind("s") && publisher.behind("t"), "handed to the lane: behind from then on");
            assertFalse(publisher.behind("q"), "a query's answer is no push");
            await().atMost(Duration.ofSeconds(10)).until(() -> producer.history().size() == 4);
            List<String> keys = producer.history().stream().map(ProducerRecord::key).toList();
            assertEquals("q", keys.get(0), "the answer leaves from the consumer's thread, not behind the pushes");
            assertEquals(List.of("s", "t", "s"), keys.subList(1, 4), "pushes in the order they were made");
            assertEquals(0L, ((QueryResult) FrontierCodec.decode(producer.history().get(1).value())).getSequence());
            assertFalse(first.done() || second.done(), "nothing acknowledged");
            assertTrue(producer.completeNext());   // q
            assertTrue(producer.completeNext());   // s #0
            assertTrue(publisher.behind("s"), "s #1 is still on its way");
            assertTrue(producer.completeNext());   // t #0
            assertFalse(publisher.behind("t"));
            assertTrue(first.done());
            first.await();
            assertFalse(second.done());
            assertTrue(producer.errorNext(new RuntimeException("broker away")));   // s #1
            assertFalse(publisher.behind("s"), "a failed push is no longer on its way (the batch fails: rebuilt, RESYNC)");
            assertThrows(ExecutionException.class, second::await);
        } finally {
            publisher.close();
        }
    }

    @Test
    void manyRecordsAndSingleRecordsKeepTheirOrder() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher.Batch batch = new OutputPublisher(producer, topics).batch();
        List<Outputs> outs = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        for (int q = 0; q < OutputPublisher.SIDE_BY_SIDE_RECORDS + 5; q++) {
            List<QueryResult> one = answer("q" + q, q % 3 == 0 ? 2 : 1, 10);
            outs.add(outputs(one, List.of()));
            expected.addAll(one);
        }
        batch.addAll(outs);
        List<QueryResult> single = answer("alone", 1, 3);
        batch.add(outputs(single, List.of()));
        expected.addAll(single);
        assertSent(producer, expected);
        assertTrue(batch.done());
        batch.await();
    }

    @Test
    void aFailedSendFailsTheBatch() {
        MockProducer<String, byte[]> producer = new MockProducer<>(false, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher.Batch batch = new OutputPublisher(producer, topics).batch();
        batch.addAll(List.of(outputs(answer("q", 3, 1_000), List.of())));
        assertTrue(producer.completeNext());
        assertTrue(producer.errorNext(new RuntimeException("broker said no")));
        assertTrue(producer.completeNext());
        assertTrue(batch.done());
        assertThrows(ExecutionException.class, batch::await);
    }

    @Test
    void aRecordLargerThanTheProducerMaySendIsReplacedNotSent() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher.Batch batch = new OutputPublisher(producer, topics, 64 << 10, new io.micrometer.core.instrument.simple.SimpleMeterRegistry()).batch();
        List<QueryResult> big = answer("big", 2, 10_000);   // 120 KB a chunk, over a 64 KiB max.request.size
        List<QueryResult> small = answer("small", 1, 10);
        batch.addAll(List.of(new Outputs(big, List.of(), List.of(), null, List.of(), new Outputs.At("frontier.graphs", 3, 42)),
                outputs(small, List.of())));
        batch.await();
        assertEquals(2, batch.refused());
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertEquals(5, sent.size(), "two failed chunks with their error events, then the small answer");
        for (int i = 0; i < 4; i += 2) {
            QueryResult failed = FrontierCodec.decode(sent.get(i).value(), QueryResult.class);
            assertEquals("big", failed.getQueryId());
            assertEquals(ResultStatus.RESOURCE_EXHAUSTED, failed.getStatus());
            assertEquals(i / 2, failed.getChunkIndex());
            assertEquals(2, failed.getChunkCount());
            assertTrue(failed.getDistances() == null && failed.getError().contains("max.request.size"), failed.getError());
            ErrorEvent e = FrontierCodec.decode(sent.get(i + 1).value(), ErrorEvent.class);
            assertEquals(topics.getErrors(), sent.get(i + 1).topic());
            assertEquals("RESOURCE_EXHAUSTED", e.getCode());
            assertEquals(3, e.getPartition());
            assertEquals(42, e.getOffset());
            assertEquals("big", e.getQueryId());
        }
        assertEquals(small.get(0), FrontierCodec.decode(sent.get(4).value()));
    }

    @Test
    void aSendRefusedForGoodIsReplacedOnceAndNotRetried() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(false, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher.Batch batch = new OutputPublisher(producer, topics).batch();
        batch.addAll(List.of(outputs(answer("q", 1, 10), List.of())));
        assertTrue(producer.errorNext(new org.apache.kafka.common.errors.TopicAuthorizationException("not authorized on frontier.results")));
        Thread answering = new Thread(() -> {   // the replacements are sent while await waits: answer them
            long until = System.currentTimeMillis() + 10_000;
            int done = 0;
            while (done < 2 && System.currentTimeMillis() < until) {
                if (producer.completeNext()) done++;
                else Thread.onSpinWait();
            }
        });
        answering.start();
        batch.await();   // does not throw: the refusal is the record's own
        answering.join();
        assertEquals(1, batch.refused());
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertEquals(3, sent.size());
        assertEquals(ResultStatus.INTERNAL_ERROR, FrontierCodec.decode(sent.get(1).value(), QueryResult.class).getStatus());
        assertEquals("OUTPUT_REFUSED", FrontierCodec.decode(sent.get(2).value(), ErrorEvent.class).getCode());
    }

    @Test
    void chunksArriveWholeAfterEncoding() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer());
        OutputPublisher.Batch batch = new OutputPublisher(producer, topics).batch();
        List<QueryResult> full = answer("q", 4, 50_000);
        batch.addAll(List.of(outputs(full, List.of())));
        double[] all = new double[4 * 50_000];
        for (ProducerRecord<String, byte[]> r : producer.history()) {
            QueryResult c = FrontierCodec.decode(r.value(), QueryResult.class);
            PackedArrays.copy(c.getDistances(), all, c.getOffset());
        }
        for (int i = 0; i < all.length; i++) assertEquals(i, all[i]);
        assertArrayEquals(PackedArrays.toIntArray(full.get(3).getParents()),
                PackedArrays.toIntArray(FrontierCodec.decode(producer.history().get(3).value(), QueryResult.class).getParents()));
    }
}
