package org.frontiergraph.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.frontiergraph.schema.QueryResult;

/**
 * One client's reader of the results topic, shared by its {@link FrontierClient#query} calls: a thread polls a
 * {@link TopicWatcher} (opened at the topic's end, its position resolved before the constructor returns, so no answer
 * published afterwards is missed) and hands each chunk to the call waiting for its query id. A call registers its id
 * before it publishes the query and deregisters when it is answered or gives up; chunks of ids nobody waits for
 * (another client's queries, subscription pushes, an answer that came too late) are dropped as they are read.
 */
final class ResultsReader implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(100);

    private final TopicWatcher<QueryResult> results;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    /** The chunks of one query's answer as they arrive (written by the reader thread only). */
    private static final class Pending {
        final CompletableFuture<List<QueryResult>> done = new CompletableFuture<>();
        QueryResult[] chunks;
        int arrived;

        void accept(QueryResult r) {
            if (chunks == null) chunks = new QueryResult[Math.max(0, r.getChunkCount())];
            int i = r.getChunkIndex();
            if (i < 0 || i >= chunks.length || chunks[i] != null) return;   // redelivered chunks are dropped
            chunks[i] = r;
            if (++arrived == chunks.length) done.complete(List.of(chunks));
        }
    }

    /** Starts reading {@code results} (opened at the topic's end, its positions resolved) on a daemon thread. */
    ResultsReader(TopicWatcher<QueryResult> results) {
        this.results = results;
        this.thread = new Thread(this::read, "frontier-client-results");
        thread.setDaemon(true);
        thread.start();
    }

    private void read() {
        try {
            while (running) {
                for (QueryResult r : results.poll(POLL)) {
                    Pending p = pending.get(r.getQueryId());
                    if (p != null) p.accept(r);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure = e;
            running = false;
            for (Pending p : pending.values()) p.done.completeExceptionally(e);
        } finally {
            results.close();
        }
    }

    /** Whether the reader still reads (it stops when closed or when polling failed). */
    boolean alive() {
        return running;
    }

    /**
     * Registers {@code queryId}, runs {@code publish}, and waits at most {@code timeout} for every chunk of the answer;
     * empty on timeout. The id is deregistered however this ends.
     */
    Optional<List<QueryResult>> ask(String queryId, Runnable publish, Duration timeout) {
        Pending p = new Pending();
        if (pending.putIfAbsent(queryId, p) != null) {
            throw new IllegalArgumentException("query id '" + queryId + "' is already awaited by this client");
        }
        try {
            if (!running) throw new IllegalStateException("the results reader stopped", failure);
            publish.run();
            return Optional.of(p.done.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading the results topic failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pending.remove(queryId, p);
        }
    }

    /** The query ids awaited now. */
    int pendingCount() {
        return pending.size();
    }

    @Override
    public void close() {
        running = false;
        results.wakeup();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Pending p : pending.values()) p.done.completeExceptionally(new IllegalStateException("the client was closed"));
    }
}
