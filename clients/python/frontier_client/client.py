"""FrontierClient: publishes snapshots, updates and queries to the graphs topic and reads the workers' answers."""

import time
import uuid
from collections import deque, namedtuple

import numpy as np
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Producer, TopicPartition

from . import codec, registry
from .result import Result
from .subscription import Push

#: Edges per snapshot chunk: 16 bytes an edge packed, so 800 KB, under Kafka's 1 MB default max.message.bytes.
CHUNK_EDGES = 50_000
#: Bits of a clock-chosen snapshot version left to the updates applied to it (docs/contract.md, "Choosing versions").
VERSION_UPDATE_BITS = 20

#: QueryResult.status values (the ResultStatus enum); an error code outside these gets no QueryResult.
RESULT_STATUSES = frozenset(codec.TYPES["QueryResult"].schema.fields_dict["status"].type.symbols)


class Topics(namedtuple("Topics", "graphs results latency errors status")):
    """Topic names; the defaults are the worker's (``frontier.topics.*``)."""

    @classmethod
    def defaults(cls):
        return cls("frontier.graphs", "frontier.results", "frontier.latency", "frontier.errors",
                   "frontier.graph-status")


class FrontierError(Exception):
    """A worker's refusal: ``code`` (the ErrorEvent code or QueryResult status) and its ``reason``.

    ``result`` is the failed query's :class:`Result` (header only) when the worker answered with a status;
    ``event`` the ErrorEvent (a dict) when the refusal came from the errors topic.
    """

    def __init__(self, code, reason, graph_id=None, query_id=None, result=None, event=None):
        super().__init__("%s: %s" % (code, reason))
        self.code = code
        self.reason = reason
        self.graph_id = graph_id
        self.query_id = query_id
        self.result = result
        self.event = event


class PublishError(Exception):
    """Kafka did not acknowledge a record."""


class Edges(namedtuple("Edges", "sources targets weights")):
    """Edges as parallel arrays (lists or numpy arrays) of user vertex ids; ``weights`` None: every weight 1."""

    def __new__(cls, sources, targets, weights=None):
        return super().__new__(cls, sources, targets, weights)


#: What one publish_* call put on the graphs topic: where each record landed, and the version it makes.
Published = namedtuple("Published", "graph_id version partition offsets")

_Sent = namedtuple("_Sent", "kind graph_id version query_id")


def snapshot_version(now_ms=None, current=-1):
    """The version of a snapshot published now by the contract's clock rule (docs/contract.md, "Choosing versions"):
    the clock in milliseconds since the epoch shifted left by 20 bits, so that a later snapshot is newer than any
    version the updates in between reach (each adds 1; it would take 10^9 updates a second to run ahead); or
    ``current + 1`` when the graph's known current version is higher. ``now_ms``: the clock reading (default: now).
    """
    ms = int(time.time() * 1000) if now_ms is None else int(now_ms)
    if ms < 0 or ms > (2**63 - 1) >> VERSION_UPDATE_BITS:
        raise ValueError("a clock reading of %d ms cannot make a version" % ms)
    clock = ms << VERSION_UPDATE_BITS
    return int(current) + 1 if current is not None and int(current) >= clock else clock


def as_edges(edges):
    """Normalizes an edge list to :class:`Edges` of numpy arrays.

    Accepts :class:`Edges`, a dict with ``sources``/``targets``[/``weights``], a list of ``(u, v)`` or
    ``(u, v, w)`` tuples, or an ``(m, 2)`` / ``(m, 3)`` numpy array.
    """
    if isinstance(edges, Edges):
        s, t, w = edges
    elif isinstance(edges, dict):
        s, t, w = edges["sources"], edges["targets"], edges.get("weights")
    else:
        a = np.asarray(edges)
        if a.size == 0:
            return Edges(np.zeros(0, np.int64), np.zeros(0, np.int64), None)
        if a.ndim != 2 or a.shape[1] not in (2, 3):
            raise ValueError("an edge list is (u, v) or (u, v, w) rows; got shape %s" % (a.shape,))
        s, t = a[:, 0], a[:, 1]
        w = a[:, 2].astype(np.float64) if a.shape[1] == 3 else None
    s, t = np.asarray(s), np.asarray(t)
    if s.shape != t.shape or s.ndim != 1:
        raise ValueError("sources and targets must be 1-d and of one length, got %s and %s" % (s.shape, t.shape))
    if w is not None:
        w = np.asarray(w, dtype=np.float64)
        if w.shape != s.shape:
            raise ValueError("weights has %d elements for %d edges" % (w.size, s.size))
    return Edges(s, t, w)


def named_edges(edges):
    """An edge list whose endpoints are names (``[(a, b), (a, b, w), ...]``), numbered as NetworkX or cuGraph's
    renumbering would: each new name gets the next id from 0, in the order first seen. Returns
    ``(Edges, names)``; publish with ``publish_snapshot(graph_id, version, e, names=names)``.
    """
    ids, names, s, t, w = {}, [], [], [], []
    weighted = False

    def vid(name):
        name = str(name)
        if name not in ids:
            ids[name] = len(names)
            names.append(name)
        return ids[name]

    for e in edges:
        s.append(vid(e[0]))
        t.append(vid(e[1]))
        w.append(float(e[2]) if len(e) > 2 else 1.0)
        weighted = weighted or len(e) > 2
    return Edges(s, t, w if weighted else None), names


def _named_batch(edges, need_weights):
    """A ``NamedEdgeBatch`` of edges by vertex name ``[(a, b), (a, b, w), ...]``."""
    edges = list(edges)
    if need_weights and any(len(e) < 3 for e in edges):
        raise ValueError("re-weighted edges need weights")
    weighted = any(len(e) > 2 for e in edges)
    return {"sources": [str(e[0]) for e in edges], "targets": [str(e[1]) for e in edges],
            "weights": codec.pack_float64([float(e[2]) if len(e) > 2 else 1.0 for e in edges]) if weighted else b""}


def _by_name(x):
    """Whether an edge list names its vertices (its first edge's endpoints are strings)."""
    if x is None or isinstance(x, Edges) or hasattr(x, "shape"):
        return False
    x = list(x) if not isinstance(x, (list, tuple)) else x
    return len(x) > 0 and isinstance(x[0], (list, tuple)) and isinstance(x[0][0], str)


def _consumer_conf(bootstrap, config):
    conf = {"bootstrap.servers": bootstrap,
            "group.id": "frontier-py-" + uuid.uuid4().hex,   # required by the client; never joined or committed
            "enable.auto.commit": False,
            "enable.auto.offset.store": False,
            "allow.auto.create.topics": False}
    conf.update(config or {})
    return conf


def _end_offsets(consumer, topic):
    """``{partition: offset of the next record}`` of a topic (empty if it does not exist).

    Ask with a consumer that is not fetching: on one that is, each request waits behind a fetch long-poll.
    """
    md = consumer.list_topics(topic, timeout=10)
    t = md.topics.get(topic)
    if t is None or t.error is not None:
        return {}
    return {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in sorted(t.partitions)}


class Follower:
    """Reads one topic without joining a consumer group: every partition assigned, from its end at creation
    (records published later) or from the beginning, decoding Frontier records.

    A topic that does not exist yet is picked up when it appears (from its beginning: all of it is new).
    """

    def __init__(self, bootstrap, topic, from_beginning=False, config=None, serde=None):
        self.topic = topic
        self._serde = serde or registry.Serde()
        self._consumer = Consumer(_consumer_conf(bootstrap, config))
        self._from_beginning = from_beginning
        self._assigned = False
        self._next_try = 0.0
        self._assign()

    def _assign(self):
        if self._assigned or time.monotonic() < self._next_try:
            return self._assigned
        self._next_try = time.monotonic() + 0.5
        ends = _end_offsets(self._consumer, self.topic)   # resolved now: nothing published after this is missed
        if not ends:
            self._from_beginning = True   # created later: everything in it is new to us
            return False
        self._consumer.assign([TopicPartition(self.topic, p, OFFSET_BEGINNING if self._from_beginning else o)
                               for p, o in ends.items()])
        self._assigned = True
        return True

    def poll(self, timeout=0.1):
        """Decoded records that arrived, as ``(type_name, record, message)``; undecodable values are skipped."""
        if not self._assign():
            time.sleep(min(timeout, 0.1))
            return []
        out = []
        for m in self._consumer.consume(num_messages=1000, timeout=timeout):
            if m.error() is not None:
                if m.error().code() == KafkaError._PARTITION_EOF:
                    continue
                if m.error().fatal():
                    raise KafkaException(m.error())
                continue   # transient: librdkafka retries by itself
            try:
                name, rec = self._serde.decode(m.value())
            except codec.MalformedRecord:
                continue   # not ours
            out.append((name, rec, m))
        return out

    def wait_until(self, done, timeout=30.0):
        """Records (dicts) read until ``done(records_so_far)`` holds; raises TimeoutError if it does not in time."""
        seen = []
        deadline = time.monotonic() + timeout
        while not done(seen):
            if time.monotonic() > deadline:
                raise TimeoutError("%s: still waiting after %.0f s (%d records read)" % (self.topic, timeout, len(seen)))
            seen.extend(rec for _, rec, _ in self.poll(0.2))
        return seen

    def wait_for(self, match, timeout=30.0):
        """The first record (a dict) for which ``match(record)`` holds, or raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for _, rec, _ in self.poll(0.2):
                if match(rec):
                    return rec
        raise TimeoutError("no matching record on %s within %.0f s" % (self.topic, timeout))

    def close(self):
        self._consumer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _route_push(subs, rec):
    """Queues a push chunk for its subscription: the pair (graphId, subscription id) it names, never another
    graph's subscription of the same id. Returns whether a subscription of this client took it."""
    sub = subs.get((rec.get("graphId"), rec["queryId"]))
    if sub is None:
        return False
    sub[1].append(rec)
    return True


class FrontierClient:
    """A pipeline's side of docs/contract.md in Python.

    Records are keyed by graph id and partitioned as Java's Kafka producer partitions them (murmur2 of the key),
    so a graph's snapshots, updates and queries share a partition with records of that graph published from Java.
    """

    def __init__(self, bootstrap, topics=None, producer_config=None, consumer_config=None, serde=None):
        """``serde``: a :class:`frontier_client.registry.Serde` for registry framing (default: single-object
        encoding both ways, no registry)."""
        self.bootstrap = bootstrap
        self._serde = serde or registry.Serde()
        self.topics = topics or Topics.defaults()
        conf = {"bootstrap.servers": bootstrap,
                "acks": "all",
                "enable.idempotence": True,
                "compression.type": "lz4",
                "partitioner": "murmur2_random",   # Java's default partitioner for keyed records
                "linger.ms": 5,
                "message.max.bytes": 1 << 20}
        conf.update(producer_config or {})
        self._producer = Producer(conf)
        self._consumer_config = consumer_config or {}
        self._sent = {}          # (partition, offset) on the graphs topic -> _Sent
        self._wanted = {}        # query id -> {chunkIndex: record}
        self._query_records = {}  # query id -> (partition, offset)
        self._query_modes = {}   # query id -> requested mode
        self._subs = {}          # (graph id, subscription id) -> (mode, deque of chunks of its pushes, read in order)
        self._errors = []        # ErrorEvents about records this client published, not yet reported
        self._loaded = {}        # graph id -> [(partition, offset, GraphStatus)] seen on the status topic
        self._rejected = {}      # graph id -> [(partition, offset, GraphStatus)] REJECTED ones
        self._results_f = None
        self._errors_f = None
        self._status_f = None
        self._meta = None        # a consumer that never fetches, for offsets and metadata

    # ------------------------------------------------------------------------------------------------ plumbing

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._producer.flush(10)
        for f in (self._results_f, self._errors_f, self._status_f, self._meta):
            if f is not None:
                f.close()
        self._results_f = self._errors_f = self._status_f = self._meta = None

    def end_offsets(self, topic):
        """``{partition: offset the next record gets}`` of ``'graphs'``, ``'results'``, ... (or a topic name)."""
        if self._meta is None:
            self._meta = Consumer(_consumer_conf(self.bootstrap, self._consumer_config))
        return _end_offsets(self._meta, getattr(self.topics, topic, topic))

    def follow(self, topic, from_beginning=False):
        """A :class:`Follower` of one topic: ``'results'``, ``'latency'``, ``'errors'``, ``'status'`` (or a name)."""
        name = getattr(self.topics, topic, topic)
        return Follower(self.bootstrap, name, from_beginning, self._consumer_config, self._serde)

    def _watch_errors(self):
        # before the first record goes out, so that no error event about it can be missed
        if self._errors_f is None:
            self._errors_f = self.follow("errors")

    def _publish(self, key, values, sent):
        """Publishes values keyed by ``key`` and waits for every acknowledgement; returns (partition, offsets)."""
        self._watch_errors()
        acks = [None] * len(values)

        def delivered(i):
            def cb(err, msg):
                acks[i] = err if err is not None else (msg.partition(), msg.offset())
            return cb

        for i, v in enumerate(values):
            while True:
                try:
                    self._producer.produce(self.topics.graphs, value=v, key=key.encode("utf-8"), on_delivery=delivered(i))
                    break
                except BufferError:   # local queue full: let it drain
                    self._producer.poll(0.1)
        deadline = time.monotonic() + 60
        while any(a is None for a in acks) and time.monotonic() < deadline:
            self._producer.flush(1)
        for a in acks:
            if a is None:
                raise PublishError("Kafka did not acknowledge a record within 60 s")
            if isinstance(a, KafkaError):
                raise PublishError("publishing to %s failed: %s" % (self.topics.graphs, a))
        partitions = {p for p, _ in acks}
        if len(partitions) != 1:
            raise PublishError("records of key %r landed in partitions %s" % (key, sorted(partitions)))
        for i, a in enumerate(acks):
            self._sent[a] = sent[i] if isinstance(sent, list) else sent
        return acks[0][0], [o for _, o in acks]

    def _pump(self, timeout=0.1):
        """Reads what arrived on the results and errors topics (those this client follows)."""
        if self._results_f is not None:
            for name, rec, _ in self._results_f.poll(timeout):
                if name != "QueryResult":
                    continue
                if rec.get("reason") is not None:   # a subscription's push
                    _route_push(self._subs, rec)
                    continue
                chunks = self._wanted.get(rec["queryId"])
                if chunks is not None:
                    chunks.setdefault(rec["chunkIndex"], rec)   # a redelivered chunk is the same answer
            timeout = 0
        if self._errors_f is not None:
            for name, rec, _ in self._errors_f.poll(timeout):
                if name == "ErrorEvent" and rec["sourceTopic"] == self.topics.graphs \
                        and (rec["partition"], rec["offset"]) in self._sent:
                    self._errors.append(rec)

    def _take_error(self, match):
        for i, e in enumerate(self._errors):
            sent = self._sent.get((e["partition"], e["offset"]))
            if sent is not None and match(e, sent):
                del self._errors[i]
                return FrontierError(e["code"], e["reason"], e.get("graphId") or sent.graph_id,
                                     e.get("queryId") or sent.query_id, event=e)
        return None

    # ------------------------------------------------------------------------------------------------ snapshots

    def publish_snapshot(self, graph_id, version, sources, targets=None, weights=None, *, directed=True,
                         first_vertex_id=0, vertex_count=None, chunk_edges=CHUNK_EDGES, wait=False, timeout=60.0,
                         names=None):
        """Publishes a whole graph version as ``GraphSnapshotChunk`` records (``chunk_edges`` edges each).

        ``sources``/``targets``/``weights``: parallel lists or numpy arrays of the user's vertex ids (ids run
        ``first_vertex_id .. first_vertex_id + vertex_count - 1``); or ``sources`` alone as an edge list (see
        :func:`as_edges`). ``weights`` None: every weight is 1. ``vertex_count`` defaults to the largest id used
        plus one, less ``first_vertex_id``. ``version`` must be greater than the version the worker holds; None
        chooses it by the clock (:func:`snapshot_version`), which stays ahead of any number of updates.
        Returns :class:`Published` once Kafka holds every chunk; with ``wait``, also waits until a worker reports
        the version loaded (see :meth:`wait_loaded`).

        ``names``: a named graph (docs/contract.md, "Vertex names"): one distinct name per vertex, in id order
        (:func:`named_edges` numbers an edge list of names); queries, updates and subscriptions may then name
        vertices. The names are spread over the chunks in order.
        """
        if version is None:
            version = snapshot_version()
        e = as_edges(sources) if targets is None else as_edges(Edges(sources, targets, weights))
        m = int(e.sources.size)
        if names is not None:
            names = [str(n) for n in names]
            if vertex_count is None:
                vertex_count = len(names)
        if vertex_count is None:
            if m == 0:
                raise ValueError("vertex_count is needed for a graph without edges")
            vertex_count = int(max(e.sources.max(), e.targets.max())) - first_vertex_id + 1
        if chunk_edges < 1:
            raise ValueError("chunk_edges must be positive")
        if names is not None and len(names) != vertex_count:
            raise ValueError("%d names for %d vertices" % (len(names), vertex_count))
        count = max(1, -(-m // chunk_edges))
        values = []
        for c in range(count):
            lo, hi = c * chunk_edges, min(m, (c + 1) * chunk_edges)
            values.append(self._serde.encode(self.topics.graphs, "GraphSnapshotChunk", {
                "graphId": graph_id, "version": int(version), "chunkIndex": c, "chunkCount": count,
                "vertexCount": int(vertex_count), "edgeCount": m, "directed": bool(directed),
                "firstVertexId": int(first_vertex_id),
                "edges": codec.edge_batch(e.sources[lo:hi], e.targets[lo:hi],
                                          None if e.weights is None else e.weights[lo:hi]),
                "named": names is not None,
                "namesOffset": 0 if names is None else len(names) * c // count,
                "names": [] if names is None else names[len(names) * c // count:len(names) * (c + 1) // count]}))
        after = self._status_marks() if wait else None
        p, offsets = self._publish(graph_id, values, _Sent("snapshot", graph_id, int(version), None))
        if wait:
            self._wait_loaded(graph_id, version, timeout, after)
        return Published(graph_id, int(version), p, offsets)

    def publish_update(self, graph_id, added=None, removed=None, reweighted=None, *, base_version=None,
                       update_id=None, wait=False, timeout=60.0, new_vertices=None):
        """Publishes a ``GraphUpdate``: removals, then re-weights, then additions; the worker makes version
        ``current + 1``. Each batch is an edge list (see :func:`as_edges`); ``removed`` needs no weights.

        On a named graph a batch may name its vertices (``[("alice", "bob", 2.5), ...]``: endpoints that are
        strings), and ``new_vertices`` (a list of new names) appends named vertices first, which the batches may
        name (docs/contract.md, "Vertex names"; a name no vertex has: ``UNKNOWN_NAME``).

        With ``base_version`` the worker rejects the update (``STALE_VERSION``) unless it holds exactly that
        version, and the new version is known: ``base_version + 1`` (``wait`` needs it).
        """
        def batch(x, need_weights):
            if x is None or _by_name(x):
                return None
            e = as_edges(x)
            if need_weights and e.weights is None:
                raise ValueError("re-weighted edges need weights")
            return codec.edge_batch(e.sources, e.targets, e.weights)

        if wait and base_version is None:
            raise ValueError("wait=True needs base_version: the new version is base_version + 1")
        version = None if base_version is None else int(base_version) + 1
        value = self._serde.encode(self.topics.graphs, "GraphUpdate", {
            "graphId": graph_id, "updateId": update_id,
            "baseVersion": None if base_version is None else int(base_version),
            "added": batch(added, False), "removed": batch(removed, False), "reweighted": batch(reweighted, True),
            "addedVertexNames": [str(n) for n in (new_vertices or [])],
            "addedByName": _named_batch(added, False) if _by_name(added) else None,
            "removedByName": _named_batch(removed, False) if _by_name(removed) else None,
            "reweightedByName": _named_batch(reweighted, True) if _by_name(reweighted) else None})
        after = self._status_marks() if wait else None
        p, offsets = self._publish(graph_id, [value], _Sent("update", graph_id, version, None))
        if wait:
            self._wait_loaded(graph_id, version, timeout, after)
        return Published(graph_id, version, p, offsets)

    def wait_loaded(self, graph_id, version, timeout=60.0):
        """Waits until a worker reports ``version`` of ``graph_id``, or a later one, LOADED (a GraphStatus); returns
        that status. (Updates a worker applies together report their last version only: docs/contract.md, GraphStatus.)

        Raises :class:`FrontierError` with the worker's code and reason if it rejected a record this client
        published for that version (a snapshot chunk of it, an update that makes it or an update without
        ``base_version``) or reported the snapshot version REJECTED (code ``GRAPH_TOO_LARGE``), and TimeoutError if
        neither arrives in time. Status is read from the beginning of the
        status topic, so a version loaded before this call (or by another publisher) is found too.
        """
        return self._wait_loaded(graph_id, version, timeout, None)

    def _status(self):
        if self._status_f is None:
            self._status_f = self.follow("status", from_beginning=True)
        return self._status_f

    def _status_marks(self):
        """Where the status topic ends now: a status at or after these offsets was published after this call."""
        self._status()
        return self.end_offsets("status")

    def _wait_loaded(self, graph_id, version, timeout, after):
        version = int(version)
        status = self._status()
        deadline = time.monotonic() + timeout
        while True:
            for name, rec, m in status.poll(0.1):
                if name == "GraphStatus" and rec["state"] in ("LOADED", "REJECTED"):
                    seen = self._loaded if rec["state"] == "LOADED" else self._rejected
                    seen.setdefault(rec["graphId"], []).append((m.partition(), m.offset(), rec))
            for p, o, rec in self._loaded.get(graph_id, ()):
                if rec["version"] >= version and (after is None or o >= after.get(p, 0)):
                    return rec
            for p, o, rec in self._rejected.get(graph_id, ()):
                if rec["version"] == version and (after is None or o >= after.get(p, 0)):
                    # a refused snapshot: its status says why at once (today only GRAPH_TOO_LARGE refuses a version)
                    raise FrontierError("GRAPH_TOO_LARGE", rec.get("reason") or "the worker refused the version",
                                        graph_id=graph_id)
            self._pump(0)
            err = self._take_error(lambda e, s: s.graph_id == graph_id and s.kind in ("snapshot", "update")
                                   and (s.version == version or s.version is None))
            if err is not None:
                raise err
            if time.monotonic() > deadline:
                raise TimeoutError("graph %r version %d not reported loaded within %.0f s" % (graph_id, version, timeout))

    # ------------------------------------------------------------------------------------------------ queries

    def submit(self, graph_id, algorithm, source=None, mode="FULL", targets=None, variant=None, backend=None,
               deadline_epoch_ms=None, query_id=None, source_name=None, target_names=None, with_names=False):
        """Publishes a ``GraphQuery`` and returns its query id (collect the answer with :meth:`result`)."""
        if self._results_f is None:   # before the query goes out, so that no chunk of its answer is missed
            self._results_f = self.follow("results")
        query_id = query_id or "py-" + uuid.uuid4().hex
        mode = mode.upper()
        value = self._serde.encode(self.topics.graphs, "GraphQuery", {
            "queryId": query_id, "graphId": graph_id, "algorithm": algorithm.upper(), "variant": variant,
            "source": None if source is None else int(source),
            "targets": [int(t) for t in (targets if targets is not None else [])],
            "resultMode": mode, "backend": backend,
            "deadlineEpochMs": None if deadline_epoch_ms is None else int(deadline_epoch_ms),
            "sourceName": source_name, "targetNames": [str(t) for t in (target_names or [])],
            "withNames": bool(with_names)})
        self._wanted[query_id] = {}
        self._query_modes[query_id] = mode
        p, offsets = self._publish(graph_id, [value], _Sent("query", graph_id, None, query_id))
        self._query_records[query_id] = (p, offsets[0])
        return query_id

    def result(self, query_id, timeout=60.0):
        """Waits for every chunk of a submitted query's answer; returns a :class:`Result`.

        Raises :class:`FrontierError` when the worker answered with a status other than OK (its code and reason)
        or rejected the query record outright (an error event only), TimeoutError when nothing complete arrived.
        """
        if query_id not in self._wanted:
            raise KeyError("query %r was not submitted by this client" % query_id)
        deadline = time.monotonic() + timeout
        while True:
            chunks = self._wanted[query_id]
            if chunks:
                count = next(iter(chunks.values()))["chunkCount"]
                if all(i in chunks for i in range(count)):
                    break
            err = self._take_error(lambda e, s: s.query_id == query_id and e["code"] not in RESULT_STATUSES)
            if err is not None:
                self._forget(query_id)
                raise err
            if time.monotonic() > deadline:
                raise TimeoutError("no complete answer to query %r within %.0f s (%d chunks seen)"
                                   % (query_id, timeout, len(chunks)))
            self._pump(0.1)
        ordered = [chunks[i] for i in range(count)]
        mode = self._query_modes[query_id]
        self._take_error(lambda e, s: s.query_id == query_id)   # the error event twin of a failed answer, if seen
        self._forget(query_id)
        r = Result(ordered, mode)
        if r.status != "OK":
            raise FrontierError(r.status, r.error, r.graph_id, query_id, result=r)
        return r

    def _forget(self, query_id):
        self._wanted.pop(query_id, None)
        self._query_modes.pop(query_id, None)
        record = self._query_records.pop(query_id, None)
        if record is not None:   # answered: a late error event about it is no longer anyone's business
            self._sent.pop(record, None)
            self._errors = [e for e in self._errors if (e["partition"], e["offset"]) != record]

    def query(self, graph_id, algorithm, source=None, mode="FULL", targets=None, variant=None, backend=None,
              timeout=60.0, deadline_epoch_ms=None, query_id=None, source_name=None, target_names=None,
              with_names=False):
        """Asks one question and waits for the whole answer.

        ``algorithm``: the contract's ``Algorithm`` symbol (``BFS``, ``SSSP``, ...: docs/contract.md lists each with
        its query and answer, e.g. whether it takes a source); ``source`` (BFS, SSSP) and ``targets`` in the user's
        vertex ids; ``mode``: ``FULL``, ``TARGETS`` or ``SUMMARY``; ``variant`` / ``backend`` as in the contract.
        Returns a :class:`Result` (numpy arrays, dict helpers); raises :class:`FrontierError` with the worker's
        status and reason, or TimeoutError.

        A named graph's vertices by name: ``source_name``, ``target_names`` (instead of ``source``, ``targets``);
        ``with_names`` asks for names without naming a vertex. The answer then carries them: ``Result.names``
        (``{id: name}``) and ``Result.named()``. An unknown name raises :class:`FrontierError` ``UNKNOWN_NAME``.
        """
        qid = self.submit(graph_id, algorithm, source, mode, targets, variant, backend, deadline_epoch_ms, query_id,
                          source_name, target_names, with_names)
        return self.result(qid, timeout)

    # ------------------------------------------------------------------------------------------------ subscriptions

    def subscribe(self, graph_id, algorithm, source=None, mode="DELTA", targets=None, min_interval_ms=0,
                  subscription_id=None, source_name=None, target_names=None, with_names=False):
        """Publishes a ``Subscription`` (a standing query) and returns its id; read its pushes with :meth:`pushes`.

        ``algorithm``: the contract's ``Algorithm`` symbol of an algorithm with a standing form (docs/contract.md,
        "Subscriptions": which take a source, and what their DELTA pushes carry, see :class:`Push`); ``mode``:
        ``DELTA`` (the whole answer, then only what changed), ``FULL``, ``TARGETS`` (with ``targets``) or ``SUMMARY``; ``min_interval_ms``: at most one push per interval.
        The results topic is read from where it ended before the subscription goes out, so the first push
        (INITIAL) cannot be missed. Publishing an id again replaces that subscription. ``source_name``,
        ``target_names``, ``with_names``: by name, as :meth:`query` (each push's ``names``).
        """
        if self._results_f is None:
            self._results_f = self.follow("results")
        subscription_id = subscription_id or "py-sub-" + uuid.uuid4().hex
        mode = mode.upper()
        value = self._serde.encode(self.topics.graphs, "Subscription", {
            "subscriptionId": subscription_id, "graphId": graph_id, "algorithm": algorithm.upper(),
            "source": None if source is None else int(source),
            "targets": [int(t) for t in (targets if targets is not None else [])],
            "resultMode": mode, "minIntervalMs": int(min_interval_ms), "cancel": False,
            "sourceName": source_name, "targetNames": [str(t) for t in (target_names or [])],
            "withNames": bool(with_names)})
        self._subs[(graph_id, subscription_id)] = (mode, deque())
        self._publish(graph_id, [value], _Sent("subscription", graph_id, None, subscription_id))
        return subscription_id

    def cancel(self, graph_id, subscription_id):
        """Ends the subscription ``subscription_id`` of graph ``graph_id`` (the same id on another graph is another
        subscription, left standing): the worker answers with a last push, reason ``END`` (status OK)."""
        value = self._serde.encode(self.topics.graphs, "Subscription", {"subscriptionId": subscription_id, "graphId": graph_id,
                                              "algorithm": "BFS", "cancel": True})   # algorithm: required, unread
        self._publish(graph_id, [value], _Sent("subscription", graph_id, None, subscription_id))

    def pushes(self, subscription_id, timeout=60.0, graph_id=None):
        """The pushes of a subscription made by :meth:`subscribe`, as :class:`Push` objects, in order; the
        generator ends after the last one (``END``: cancelled or failed).

        A subscription is its graph and its id: the same id subscribed on two graphs is two subscriptions, each
        with its own pushes (a push of the other graph is never among them); name ``graph_id`` then (KeyError
        otherwise).

        Apply them to a :class:`View` to hold the answer. ``timeout``: the longest wait for the next push
        (TimeoutError); None waits for ever. A push whose chunks stop coming (its worker died) is dropped when the
        next push starts; the next owner pushes the answer complete (RESYNC).
        """
        keys = [k for k in self._subs if k[1] == subscription_id and graph_id in (None, k[0])]
        if not keys:
            raise KeyError("subscription %r%s was not made by this client"
                           % (subscription_id, "" if graph_id is None else " of graph %r" % graph_id))
        if len(keys) > 1:
            raise KeyError("subscription %r was made on graphs %s: name graph_id"
                           % (subscription_id, sorted(k[0] for k in keys)))
        key = keys[0]
        mode, queue = self._subs[key]
        held = {}   # chunk index -> chunk of the push being assembled
        while True:
            deadline = None if timeout is None else time.monotonic() + timeout
            push = None
            while push is None:
                while not queue:
                    if deadline is not None and time.monotonic() > deadline:
                        raise TimeoutError("no push of subscription %r within %.0f s" % (subscription_id, timeout))
                    self._pump(0.1)
                c = queue.popleft()
                if held:
                    h = next(iter(held.values()))
                    if (h.get("sequence"), h.get("reason"), h["graphVersion"], h["chunkCount"]) != \
                            (c.get("sequence"), c.get("reason"), c["graphVersion"], c["chunkCount"]):
                        held = {}   # an incomplete push: dropped
                held.setdefault(c["chunkIndex"], c)
                count = max(1, c["chunkCount"])
                if all(i in held for i in range(count)):
                    push = Push([held[i] for i in range(count)], mode)
                    held = {}
            yield push
            if push.end:   # nothing follows: forget it, and the error events about its records
                self._subs.pop(key, None)
                self._errors = [e for e in self._errors
                                if (getattr(self._sent.get((e["partition"], e["offset"])), "graph_id", None),
                                    getattr(self._sent.get((e["partition"], e["offset"])), "query_id", None)) != key]
                return
