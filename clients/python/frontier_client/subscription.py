"""Subscriptions (standing queries, docs/contract.md "Subscription"): one push assembled from its chunks, and a
subscriber's view that applies pushes in order (the rules of the Java client's SubscriptionView)."""

import re

import numpy as np

from . import codec
from .result import MST_EDGE, Result, vertex_names

#: A forest edge that left the forest (MST DELTA): its ends only.
EDGE_PAIR = np.dtype([("source", "<i4"), ("target", "<i4")])


def _push_content():
    """The push content of QueryResult (what a standing form's DELTA push carries beyond vertex arrays and edges: a
    list of records per chunk, such as CC's componentChanges), read from the schema: ``{field: (attribute, record
    fields)}``, the attribute the field's name in snake case."""
    content = {}
    for f in codec.TYPES["QueryResult"].source["fields"]:
        t = f["type"]
        items = [x for x in (t if isinstance(t, list) else [t]) if isinstance(x, dict) and x.get("type") == "array"]
        if items and isinstance(items[0]["items"], dict) and items[0]["items"].get("type") == "record":
            content[f["name"]] = (re.sub(r"(?<!^)(?=[A-Z])", "_", f["name"]).lower(), items[0]["items"]["fields"])
    return content


#: QueryResult's push content fields (see :func:`_push_content`).
PUSH_CONTENT = _push_content()


def _record(fields, r):
    """One record of push content as a tuple of its values in schema order, packed bytes unpacked to a list (float64
    when the field's doc says so, else int32)."""
    out = []
    for f in fields:
        x = r[f["name"]]
        if f["type"] == "bytes":
            x = (codec.unpack_float64(x) if "float64" in f.get("doc", "") else codec.unpack_int32(x)).tolist()
        out.append(x)
    return tuple(out)


class Push:
    """One push of a subscription, every chunk put together.

    Header: ``subscription_id``, ``graph_id``, ``reason`` (``INITIAL``, ``UPDATE``, ``RESYNC``, ``END``),
    ``sequence``, ``graph_version``, ``delta`` (only what changed since the previous push), ``status``, ``error``,
    ``algorithm``, ``vertex_count`` (the graph's, for DELTA pushes too), ``chunks``.

    Payload: BFS/SSSP as in :class:`Result` (``vertices``, ``hops``, ``distances``, ``parents``; a DELTA push lists
    only the vertices that changed); CC ``vertices`` and ``labels`` (a DELTA push: the vertices whose label changed
    and the new ones) and ``largest_component``; MST ``mst_edges`` (joined the forest or changed weight, in a DELTA
    push) and ``removed_edges`` (left it: fields ``source``, ``target``); the summary fields. Push content (a list
    of records in each chunk, :data:`PUSH_CONTENT`) under its field's name in snake case, every chunk's records in
    order, each a tuple of its fields (packed ones as lists), empty when the push has none: CC's
    ``component_changes``, the components that merged or split, in the order of the batches, as
    ``(kind, label, parts)`` in user ids: ``("MERGED", label now, [labels before])`` or ``("SPLIT", label before,
    [labels now])``. A DELTA push in compact arrays (the contract's "Compact arrays") reads the same: its chunks are
    expanded to the packed fields first (:func:`codec.expand_compact`).
    """

    def __init__(self, chunks, mode="DELTA"):
        chunks = [codec.expand_compact(c) for c in chunks]
        h = chunks[0]
        self.chunks = chunks
        self.subscription_id = h["queryId"]
        self.graph_id = h["graphId"]
        self.reason = h.get("reason")
        self.sequence = h.get("sequence") or 0
        self.graph_version = h["graphVersion"]
        self.delta = bool(h.get("delta"))
        self.status = h["status"]
        self.error = h["error"]
        self.algorithm = h["algorithm"]
        self.vertex_count = h["vertexCount"]
        self.first_vertex_id = h["firstVertexId"]
        self.names = vertex_names(chunks)   # {id: name} of a subscription by name (docs/contract.md, "Vertex names")
        self.total_weight = h.get("totalWeight")
        self.components = h.get("components")
        self.largest_component = h.get("largestComponent")
        for field, (name, fields) in PUSH_CONTENT.items():
            setattr(self, name, [_record(fields, r) for chunk in chunks for r in (chunk.get(field) or [])])
        self.reached_count = h.get("reachedCount")
        self.max_hops = h.get("maxHops")
        self.max_distance = h.get("maxDistance")
        self.vertices = self.hops = self.distances = self.parents = self.labels = None
        self.mst_edges = self.removed_edges = None
        if self.status != "OK" or self.reason == "END":
            return
        if self.algorithm == "MST":
            self.mst_edges = _edges(chunks, "mstEdges", True)
            self.removed_edges = _edges(chunks, "removedEdges", False)
        else:
            listed = any(c.get("vertices") is not None for c in chunks)
            r = Result(chunks, "TARGETS" if listed else ("SUMMARY" if mode == "SUMMARY" else "FULL"))
            self.vertices, self.hops, self.distances, self.parents = r.vertices, r.hops, r.distances, r.parents
            self.labels = r.labels

    @property
    def end(self):
        """The last push: cancelled (status OK) or failed (the status and ``error`` say why)."""
        return self.reason == "END"

    def __repr__(self):
        return "Push(%s #%s of %r v%s%s, %s)" % (self.reason, self.sequence, self.subscription_id, self.graph_version,
                                                ", delta" if self.delta else "", self.status)


def _edges(chunks, field, weighted):
    parts = []
    for c in chunks:
        b = c.get(field)
        if b is None:
            continue
        s, t = codec.unpack_int32(b["sources"]), codec.unpack_int32(b["targets"])
        e = np.empty(len(s), dtype=MST_EDGE if weighted else EDGE_PAIR)
        e["source"], e["target"] = s, t
        if weighted:
            w = codec.unpack_float64(b["weights"])
            e["weight"] = w if len(w) else 1.0
        parts.append(e)
    if not parts:
        return None
    return np.concatenate(parts)


class View:
    """What a subscriber holds, from the pushes of one subscription applied in order.

    BFS/SSSP: ``values`` (``{vertex: hops or distance}``, unreachable vertices absent) and ``parents``
    (``{vertex: parent}``), in user ids; CC: ``labels`` (``{vertex: label}``, user ids; the label is the smallest
    vertex of the component); the push content of the last push (``component_changes``, see :class:`Push`); MST:
    ``forest`` (``{(u, v): weight}``, u < v); the summary fields (``reached_count``, ``max_hops``, ``max_distance``,
    ``total_weight``, ``components``, ``largest_component``); ``version`` (the graph version of the last push
    applied), ``sequence``, ``vertex_count``.

    A complete push (INITIAL, RESYNC, or any push with ``delta`` false) replaces what is held; a DELTA push
    overwrites the vertices it lists (values and parents, or labels) or removes and adds forest edges. A push whose sequence is not above the last
    one applied is a redelivery and is ignored; a gap (a push missed) marks the view ``stale`` until the next
    complete push (INITIAL or RESYNC; re-subscribing gets one).
    """

    def __init__(self, graph_id=None):
        #: the graph whose pushes this view applies (None: the graph of the first push applied)
        self.graph_id = graph_id
        self.values = {}
        self.parents = {}
        self.forest = {}
        self.labels = {}
        for name, _ in PUSH_CONTENT.values():
            setattr(self, name, [])
        self.version = -1
        self.sequence = -1
        self.vertex_count = 0
        self.stale = False
        self.ended = False
        self.status = "OK"
        self.error = None
        self.reached_count = self.max_hops = self.max_distance = self.total_weight = self.components = None
        self.largest_component = None

    def apply(self, push):
        """Applies one push; returns False when it was ignored (a redelivery, a gap: see ``stale``; or a push of
        another graph: a subscription is its graph and its id, and the same id on another graph is another one)."""
        if self.graph_id is None:
            self.graph_id = push.graph_id
        elif push.graph_id != self.graph_id:
            return False
        complete = not push.delta and push.reason in ("INITIAL", "RESYNC")
        if complete and push.sequence == 0:
            self.stale = False
        elif push.sequence <= self.sequence and not self.stale:
            return False
        elif push.sequence != self.sequence + 1 or self.stale:
            self.stale = True
            return False
        self.sequence = push.sequence
        self.version = push.graph_version
        self.status, self.error = push.status, push.error
        if push.end:
            self.ended = True
            return True
        self.vertex_count = push.vertex_count
        for k in ("reached_count", "max_hops", "max_distance", "total_weight", "components", "largest_component",
                  *(name for name, _ in PUSH_CONTENT.values())):
            setattr(self, k, getattr(push, k))
        if not push.delta:
            self.values, self.parents, self.forest, self.labels = {}, {}, {}, {}
        if push.labels is not None:
            self.labels.update(zip(push.vertices.tolist(), push.labels.tolist()))
        values = push.distances if push.distances is not None else push.hops
        if values is not None:
            for v, x, p in zip(push.vertices.tolist(), values.tolist(), push.parents.tolist()):
                if (x < 0 if push.hops is not None else np.isinf(x)):
                    self.values.pop(v, None)
                    self.parents.pop(v, None)
                else:
                    self.values[v] = x
                    self.parents[v] = p
        if push.removed_edges is not None:
            for e in push.removed_edges.tolist():
                self.forest.pop((min(e), max(e)), None)
        if push.mst_edges is not None:
            for u, v, w in push.mst_edges.tolist():
                self.forest[(min(u, v), max(u, v))] = w
        return True
