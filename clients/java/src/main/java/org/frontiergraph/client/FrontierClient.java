package org.frontiergraph.client;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.frontiergraph.schema.codec.FrontierSerde;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * A producer-side client of the message contract: publishes snapshots (chunked), updates, queries and subscriptions
 * keyed by graph id, and waits for graph status, results, latency and error events, or follows a subscription's
 * pushes ({@link #subscribe}, {@link SubscriptionFeed}). What a pipeline would do, in Java.
 */
public final class FrontierClient implements AutoCloseable {
    /** Edges per snapshot chunk: 16 bytes each packed (two int32, one float64), so a chunk stays under Kafka's 1 MB default. */
    public static final int CHUNK_EDGES = 50_000;

    /**
     * The producer's {@code compression.type} unless the Kafka settings name one: none. Snapshot chunks are packed
     * int32 ids and float64 weights, which lz4 shrinks little, and on a fast link compressing them cost more than it
     * saved: on the 2-core development machine kron20's 268 MB of chunks (lz4: 184 MB) were acknowledged by the
     * embedded broker after 0.63 s uncompressed and 0.90 s with lz4 (medians of 12 and 8 runs), the broker
     * decompressing every batch to validate it and the worker's consumer once more (docs/benchmarks.md, "Snapshot
     * ingestion, stage by stage"; docs/contract.md, "Compression, batches and size limits"). Where the network is
     * slower than a few Gbit/s, set {@code compression.type=lz4} (or zstd) in the settings.
     */
    public static final String DEFAULT_COMPRESSION = "none";

    /** Snapshot chunks encoded ahead of the one being handed to the producer, on other cores. */
    static final int ENCODE_AHEAD = Math.max(2, 2 * Runtime.getRuntime().availableProcessors());

    static {
        FrontierCodec.trust();
    }

    private final Properties kafka;
    private final Topics topics;
    private final KafkaProducer<String, byte[]> producer;
    private final FrontierSerde serde;
    /** The results reader {@link #query} calls share: opened by the first, replaced only if it stopped; guarded by this. */
    private ResultsReader reader;
    private int readersOpened;
    private boolean closed;

    /** Topic names (the worker's defaults unless configured otherwise). */
    public record Topics(String graphs, String results, String latency, String errors, String status) {
        public static Topics defaults() {
            return new Topics("frontier.graphs", "frontier.results", "frontier.latency", "frontier.errors", "frontier.graph-status");
        }
    }

    public FrontierClient(String bootstrap) {
        this(bootstrap, Topics.defaults());
    }

    public FrontierClient(String bootstrap, Topics topics) {
        this(kafka(bootstrap), topics);
    }

    /**
     * A client whose Kafka clients (producer, watchers) all start from {@code kafka}: {@code bootstrap.servers} and
     * whatever else the cluster needs (security.protocol, sasl.*, ssl.*); the client adds its own producer settings.
     * The framing it writes and reads is in the same settings ({@link FrontierSerde#fromClientSettings}:
     * {@code frontier.serialization.write} / {@code .read}, {@code schema.registry.url}, {@code basic.auth.user.info}),
     * single-object encoding when they name none.
     */
    public FrontierClient(Properties kafka, Topics topics) {
        if (kafka.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new IllegalArgumentException("the Kafka settings name no bootstrap.servers");
        }
        this.kafka = new Properties();
        this.kafka.putAll(kafka);
        this.topics = topics;
        this.serde = FrontierSerde.fromClientSettings(kafka);
        this.producer = new KafkaProducer<>(producerSettings(kafka), new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * The producer's {@code linger.ms} unless the Kafka settings name one: 0, so a lone query (or update) leaves as soon
     * as it is handed over; records handed over while a request is in flight still share the next one. Kafka 3.9's
     * default is 0 too, but 4.0's is 5 ms, which would add up to 5 ms to every query of a closed loop.
     */
    public static final String DEFAULT_LINGER_MS = "0";

    /**
     * The producer's settings: {@code kafka} and the client's own; the codec, the linger and {@code max.request.size}
     * are {@code kafka}'s, else none, 0 and 1 MiB (a publisher of larger snapshot chunks, to topics whose
     * {@code max.message.bytes} allows them, raises it). Kafka's {@code batch.size}: a snapshot chunk is a batch of its
     * own under the 1 MB record limit, so batching gains nothing there (docs/benchmarks.md, "Parallel snapshot ingest").
     */
    static Properties producerSettings(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, kafka.getProperty(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(1 << 20)));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, kafka.getProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, DEFAULT_COMPRESSION));
        p.put(ProducerConfig.LINGER_MS_CONFIG, kafka.getProperty(ProducerConfig.LINGER_MS_CONFIG, DEFAULT_LINGER_MS));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        return p;
    }

    /** Kafka settings holding only {@code bootstrap.servers}. */
    public static Properties kafka(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return p;
    }

    /**
     * Kafka settings from a client properties file, the kind Kafka's own tools read with {@code --command-config}
     * ({@code security.protocol}, {@code sasl.*}, {@code ssl.*} ...); {@code bootstrap}, when not null, replaces the
     * file's {@code bootstrap.servers}.
     */
    public static Properties kafka(Path settingsFile, String bootstrap) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(settingsFile, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Kafka settings file " + settingsFile + ": " + e.getMessage(), e);
        }
        if (bootstrap != null) p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return p;
    }

    public String bootstrapServers() { return kafka.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG); }

    /** A copy of the Kafka settings every client of this one starts from. */
    public Properties kafkaSettings() {
        Properties p = new Properties();
        p.putAll(kafka);
        return p;
    }

    public Topics topics() { return topics; }

    /** How this client frames what it writes and reads (its settings' {@code frontier.serialization.*}). */
    public FrontierSerde serde() { return serde; }

    /** Splits a graph into snapshot chunks of at most {@code chunkEdges} edges, ids shifted to the user's ids. */
    public static List<GraphSnapshotChunk> chunks(String graphId, long version, SnapshotEdges edges, int firstVertexId,
                                                  boolean weighted, int chunkEdges) {
        int m = edges.size();
        int[] sources = edges.sources(), targets = edges.targets();
        int count = Math.max(1, (m + chunkEdges - 1) / chunkEdges);
        List<GraphSnapshotChunk> out = new ArrayList<>(count);
        for (int c = 0; c < count; c++) {
            int from = c * chunkEdges, to = Math.min(m, from + chunkEdges);
            ByteBuffer s = PackedArrays.int32Buffer(to - from), t = PackedArrays.int32Buffer(to - from);
            for (int i = from; i < to; i++) {
                s.putInt(sources[i] + firstVertexId);
                t.putInt(targets[i] + firstVertexId);
            }
            ByteBuffer w = weighted ? PackedArrays.pack(edges.weights(), from, to) : PackedArrays.float64Buffer(0);
            out.add(GraphSnapshotChunk.newBuilder()
                    .setGraphId(graphId).setVersion(version).setChunkIndex(c).setChunkCount(count)
                    .setVertexCount(edges.vertexCount()).setEdgeCount(m).setDirected(edges.directed())
                    .setFirstVertexId(firstVertexId).setEdges(new EdgeBatch(s.flip(), t.flip(), w)).build());
        }
        return out;
    }

    /**
     * A named graph's chunks (docs/contract.md, "Vertex names"): {@code names} (one per vertex, position order) spread
     * over them in order, and fewer edges a chunk, so that edges and names together stay about the size of
     * {@code chunkEdges} edges (16 bytes each; a name its UTF-8 bytes and 2). The chunk count never exceeds the edges.
     */
    public static List<GraphSnapshotChunk> chunks(String graphId, long version, SnapshotEdges edges, int firstVertexId,
                                                  boolean weighted, List<String> names, int chunkEdges) {
        if (names.size() != edges.vertexCount()) {
            throw new IllegalArgumentException(names.size() + " names for " + edges.vertexCount() + " vertices");
        }
        long nameBytes = 0;
        for (String n : names) nameBytes += n.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 2;
        long m = edges.size();
        long wanted = (16 * m + nameBytes + 16L * chunkEdges - 1) / (16L * chunkEdges);
        int count = (int) Math.max(1, Math.min(Math.max(1, m), wanted));
        int per = (int) Math.max(1, (m + count - 1) / count);
        List<GraphSnapshotChunk> plain = chunks(graphId, version, edges, firstVertexId, weighted, per);
        List<GraphSnapshotChunk> out = new ArrayList<>(plain.size());
        int k = plain.size();
        for (int c = 0; c < k; c++) {
            int from = (int) ((long) names.size() * c / k), to = (int) ((long) names.size() * (c + 1) / k);
            out.add(GraphSnapshotChunk.newBuilder(plain.get(c)).setNamed(true).setNamesOffset(from)
                    .setNames(names.subList(from, to)).build());
        }
        return out;
    }

    /** Publishes a whole snapshot version and waits until the broker has every chunk; reports edges sent. */
    public void publishSnapshot(String graphId, long version, SnapshotEdges edges, int firstVertexId, boolean weighted,
                                LongConsumer edgesSent) {
        publishChunks(chunks(graphId, version, edges, firstVertexId, weighted, CHUNK_EDGES), edgesSent);
    }

    /**
     * Publishes a named graph's snapshot: vertex {@code firstVertexId + i} is named {@code names.get(i)} (see
     * {@link VertexNames}, which numbers names as they are first seen).
     */
    public void publishSnapshot(String graphId, long version, SnapshotEdges edges, int firstVertexId, boolean weighted,
                                List<String> names, LongConsumer edgesSent) {
        publishChunks(chunks(graphId, version, edges, firstVertexId, weighted, names, CHUNK_EDGES), edgesSent);
    }

    /**
     * Publishes snapshot chunks (in the given order) and waits until the broker has every one. Chunks are encoded
     * {@link #ENCODE_AHEAD} ahead of the one handed to the producer, side by side on the common pool, so the thread
     * handing them over does not encode one (Avro copies its 800 KB twice) before the producer may take the next.
     */
    public void publishChunks(List<GraphSnapshotChunk> chunks, LongConsumer edgesSent) {
        List<Future<RecordMetadata>> sends = new ArrayList<>(chunks.size());
        List<CompletableFuture<byte[]>> encoded = new ArrayList<>(chunks.size());
        long sent = 0;
        for (int c = 0; c < chunks.size(); c++) {
            while (encoded.size() < Math.min(chunks.size(), c + ENCODE_AHEAD)) {
                GraphSnapshotChunk next = chunks.get(encoded.size());
                encoded.add(CompletableFuture.supplyAsync(() -> serde.encode(topics.graphs(), next)));
            }
            GraphSnapshotChunk chunk = chunks.get(c);
            byte[] value;
            try {
                value = encoded.get(c).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            sends.add(producer.send(new ProducerRecord<>(topics.graphs(), chunk.getGraphId(), value)));
            encoded.set(c, null);   // handed over: the producer holds the bytes now
            sent += PackedArrays.intCount(chunk.getEdges().getSources());
            if (edgesSent != null) edgesSent.accept(sent);
        }
        await(sends);
    }

    /**
     * Publishes records of the graphs topic (updates, queries, subscriptions, snapshot chunks), each keyed by its
     * graph id, in this order, and waits until the broker has them all: a burst is handed to the producer at once
     * (and travels in few requests) instead of one record per round trip. Returns where each landed, in order.
     */
    public List<RecordMetadata> publishAll(List<? extends SpecificRecord> records) {
        List<Future<RecordMetadata>> sends = new ArrayList<>(records.size());
        for (SpecificRecord r : records) {
            org.apache.avro.Schema.Field graphId = r.getSchema().getField("graphId");
            if (graphId == null) throw new IllegalArgumentException("a " + r.getSchema().getName() + " does not belong on the graphs topic");
            sends.add(send(String.valueOf(r.get(graphId.pos())), r));
        }
        return await(sends);
    }

    public void publishUpdate(GraphUpdate update) {
        await(List.of(send(update.getGraphId(), update)));
    }

    public void publishQuery(GraphQuery query) {
        await(List.of(send(query.getGraphId(), query)));
    }

    /**
     * Publishes a subscription (a standing query; or, with {@code cancel} set, its end) keyed by its graph id, and
     * waits until the broker has it. Its pushes go to the results topic keyed by the subscription id: read them with
     * a {@link SubscriptionFeed} opened before this call, or use {@link #subscribe}, which does both.
     */
    public void publishSubscription(Subscription subscription) {
        await(List.of(send(subscription.getGraphId(), subscription)));
    }

    /**
     * Subscribes: opens a feed on the results topic at its end, then publishes {@code subscription}, so that no push
     * (the INITIAL one first) is missed. The caller closes the feed; {@link #cancel} ends the subscription.
     */
    public SubscriptionFeed subscribe(Subscription subscription) {
        SubscriptionFeed feed = new SubscriptionFeed(watchResults(), List.of())
                .follow(subscription.getGraphId(), subscription.getSubscriptionId());   // this graph's pushes only
        try {
            publishSubscription(subscription);
        } catch (RuntimeException e) {
            feed.close();
            throw e;
        }
        return feed;
    }

    /**
     * A feed of the pushes of these subscription ids (more can be followed later) from now on: the results topic
     * read from its end. Publish the subscriptions after this returns.
     */
    public SubscriptionFeed follow(Collection<String> subscriptionIds) {
        return new SubscriptionFeed(watchResults(), subscriptionIds);
    }

    /**
     * Ends a subscription: publishes {@code cancel: true} for it, keyed by its graph. The worker answers with a last
     * push (reason END, status OK), or END with UNKNOWN_SUBSCRIPTION (and an error event) when the graph has no such
     * subscription. The record's algorithm is required by the schema but not read for a cancel: BFS is sent.
     */
    public void cancel(String graphId, String subscriptionId) {
        publishSubscription(cancelOf(graphId, subscriptionId));
    }

    private static Subscription cancelOf(String graphId, String subscriptionId) {
        return Subscription.newBuilder().setSubscriptionId(subscriptionId).setGraphId(graphId)
                .setAlgorithm(Algorithm.BFS).setCancel(true).build();
    }

    /**
     * Publishes any record to the graphs topic (a deliberately broken one in a test; {@code value} null: a
     * tombstone, which drops the graph {@code key} names, see {@link #drop}); returns where it landed.
     */
    public RecordMetadata publishRaw(String key, byte[] value) {
        return await(List.of(producer.send(new ProducerRecord<>(topics.graphs(), key, value)))).get(0);
    }

    /**
     * Drops a graph: publishes its tombstone (its id as key, no value). The worker that holds it frees it, ends its
     * subscriptions and publishes a GraphStatus DROPPED; a worker that holds nothing of it answers an error event
     * UNKNOWN_GRAPH at the tombstone's offset, which this returns.
     */
    public RecordMetadata drop(String graphId) {
        return publishRaw(graphId, null);
    }

    /**
     * {@link #cancel(String, String)} waiting at most {@code wait} for the broker: false when it did not acknowledge
     * the cancel in time (a broker that is gone), which may still be sent until {@link #close(Duration)}.
     */
    public boolean cancel(String graphId, String subscriptionId, Duration wait) {
        Future<RecordMetadata> f = send(graphId, cancelOf(graphId, subscriptionId));
        try {
            f.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("publishing to Kafka failed: " + causeMessage(e), e);
        }
    }

    private Future<RecordMetadata> send(String key, SpecificRecord value) {
        return producer.send(new ProducerRecord<>(topics.graphs(), key, serde.encode(topics.graphs(), value)));
    }

    private static List<RecordMetadata> await(List<Future<RecordMetadata>> sends) {
        List<RecordMetadata> done = new ArrayList<>(sends.size());
        try {
            for (Future<RecordMetadata> f : sends) done.add(f.get(60, TimeUnit.SECONDS));
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing to Kafka", e);
        } catch (Exception e) {
            throw new IllegalStateException("publishing to Kafka failed: " + causeMessage(e), e);
        }
    }

    /** The message of what went wrong, without the exception classes that wrap it. */
    private static String causeMessage(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.ExecutionException || t.getMessage() == null) && t.getCause() != null) t = t.getCause();
        if (t instanceof java.util.concurrent.TimeoutException) return "no acknowledgement from the broker within 60 s";
        return t.getMessage() != null ? t.getMessage() : "no acknowledgement from the broker";
    }

    public TopicWatcher<QueryResult> watchResults() {
        return new TopicWatcher<>(kafka, topics.results(), QueryResult.class, false, serde);
    }

    public TopicWatcher<LatencyEvent> watchLatency() {
        return new TopicWatcher<>(kafka, topics.latency(), LatencyEvent.class, false, serde);
    }

    public TopicWatcher<ErrorEvent> watchErrors() {
        return new TopicWatcher<>(kafka, topics.errors(), ErrorEvent.class, false, serde);
    }

    public TopicWatcher<GraphStatus> watchStatus() {
        return new TopicWatcher<>(kafka, topics.status(), GraphStatus.class, true, serde);
    }

    /** Every chunk of one query's result, in chunk order, once all arrived; empty on timeout. */
    public static Optional<List<QueryResult>> awaitResult(TopicWatcher<QueryResult> results, String queryId, Duration timeout) {
        List<QueryResult> seen = results.awaitUntil(l -> complete(l, queryId), timeout);
        if (!complete(seen, queryId)) return Optional.empty();
        List<QueryResult> mine = new ArrayList<>();
        boolean[] have = null;
        for (QueryResult r : seen) {
            if (!r.getQueryId().equals(queryId)) continue;
            if (have == null) have = new boolean[r.getChunkCount()];
            if (r.getChunkIndex() < have.length && !have[r.getChunkIndex()]) {  // redelivered chunks are dropped
                have[r.getChunkIndex()] = true;
                mine.add(r);
            }
        }
        mine.sort(Comparator.comparingInt(QueryResult::getChunkIndex));
        return Optional.of(mine);
    }

    private static boolean complete(List<QueryResult> seen, String queryId) {
        java.util.Set<Integer> idx = new java.util.HashSet<>();
        int count = -1;
        for (QueryResult r : seen) {
            if (r.getQueryId().equals(queryId)) {
                idx.add(r.getChunkIndex());
                count = r.getChunkCount();
            }
        }
        return count > 0 && idx.size() >= count;
    }

    /**
     * Sends a query and waits for all chunks of its result, in chunk order; empty on timeout (a late answer is then
     * dropped). Thread-safe: concurrent calls share the client's one reader of the results topic, opened at its end by
     * the first call (before its query is published) and closed by {@link #close}; each call waits for its own query
     * id, which must not be awaited by another call of this client at the same time.
     */
    public Optional<List<QueryResult>> query(GraphQuery q, Duration timeout) {
        return reader().ask(q.getQueryId(), () -> publishQuery(q), timeout);
    }

    private synchronized ResultsReader reader() {
        if (closed) throw new IllegalStateException("the client is closed");
        if (reader == null || !reader.alive()) {
            if (reader != null) reader.close();
            reader = new ResultsReader(watchResults());
            readersOpened++;
        }
        return reader;
    }

    /** How many results readers {@link #query} opened (one for the client's life unless reading failed). */
    synchronized int resultReadersOpened() {
        return readersOpened;
    }

    /** The query ids {@link #query} calls await now. */
    synchronized int pendingQueries() {
        return reader == null ? 0 : reader.pendingCount();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    /**
     * Closes the results reader of {@link #query} (a call still waiting fails) and the producer, waiting at most
     * {@code timeout} for records still unsent (a broker that is gone).
     */
    public void close(Duration timeout) {
        ResultsReader r;
        synchronized (this) {
            closed = true;
            r = reader;
            reader = null;
        }
        if (r != null) r.close();
        producer.close(timeout);
    }
}
