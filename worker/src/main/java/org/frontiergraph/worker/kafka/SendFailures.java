package org.frontiergraph.worker.kafka;

import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.InvalidRecordException;

/**
 * Which failures of a send are the record's own and would fail again however often it is sent (too large, not
 * authorized on its topic, not serializable, an invalid topic or record), and which may pass (the broker away, a
 * leader moving, a timeout). The first kind is never retried: the output is replaced ({@link OutputPublisher}) and
 * the input's offset committed. The second is retried by publishing the batch again, with backoff; a worker whose
 * publishing keeps failing so reports itself not live ({@link GraphEventListener}). Cluster-wide refusals (the
 * producer's own authorization, a fenced producer) are not the record's: they are retried, and end in a restart.
 */
final class SendFailures {
    private SendFailures() {}

    static boolean deterministic(Throwable e) {
        return e instanceof RecordTooLargeException
                || e instanceof RecordBatchTooLargeException
                || e instanceof TopicAuthorizationException
                || e instanceof SerializationException
                || e instanceof InvalidTopicException
                || e instanceof InvalidRecordException;
    }
}
