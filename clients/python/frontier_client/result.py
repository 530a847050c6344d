"""The answer to one query, assembled from its QueryResult chunks into numpy arrays."""

import numpy as np

from . import codec

MST_EDGE = np.dtype([("source", "<i4"), ("target", "<i4"), ("weight", "<f8")])

#: How each algorithm's answer is put together from its chunks (a worker's test checks that every algorithm it
#: registers has an entry): ``per_vertex`` (arrays aligned with ``vertices``), ``mst_edges`` (an edge list) or
#: ``distance_matrix`` (whole rows).
ANSWER_SHAPES = {"BFS": "per_vertex", "SSSP": "per_vertex", "MST": "mst_edges", "APSP": "distance_matrix",
                 "CC": "per_vertex"}


def vertex_names(chunks):
    """``{id: name}`` of the chunks' name dictionaries (``nameIds``/``names``: answers asked by name); empty if none."""
    out = {}
    for c in chunks:
        if c.get("nameIds") is not None and c.get("names") is not None:
            out.update(zip(codec.unpack_int32(c["nameIds"]).tolist(), c["names"]))
    return out


def _first(chunks, field):
    for c in chunks:
        if c.get(field) is not None:
            return c[field]
    return None


class Result:
    """One query's answer, every chunk put together (chunks ``0 .. chunkCount-1``, in order).

    Header: ``query_id``, ``graph_id``, ``graph_version`` (the version answered on), ``algorithm``, ``variant``,
    ``status``, ``error``, ``backend``, ``mode`` (as asked), ``vertex_count``, ``first_vertex_id``, ``source``,
    ``chunk_count``.

    Arrays (numpy; None where the answer has none):

    * ``vertices``: int32 user ids the per-vertex arrays are about: every vertex in id order (FULL) or the
      query's targets in the order asked (TARGETS).
    * ``hops`` (BFS, int32, -1 unreachable), ``distances`` (SSSP, float64, +inf unreachable), ``parents``
      (BFS/SSSP, int32 user ids, the source its own parent, -1 unreachable), ``labels`` (CC, int32: the user id of
      the smallest vertex of the vertex's component; equal labels, connected), aligned with ``vertices``.
    * ``mst_edges`` (MST FULL): a structured array with fields ``source``, ``target`` (int32 user ids) and
      ``weight`` (float64).
    * ``distance_matrix`` (APSP): float64, ``vertex_count`` x ``vertex_count``, rows and columns dense ids.

    Scalars: ``total_weight``, ``components`` (MST: trees of the forest; CC: connected components),
    ``largest_component`` (CC), ``reached_count``, ``max_hops``, ``max_distance`` (SUMMARY).

    ``names``: ``{id: name}`` of the vertices the answer mentions when it was asked by name (docs/contract.md,
    "Vertex names"), else empty; :meth:`named` is :meth:`as_dict` by name.
    """

    def __init__(self, chunks, mode="FULL"):
        if not chunks:
            raise ValueError("no chunks")
        chunks = [codec.expand_compact(c) for c in chunks]   # compact arrays (DELTA pushes) as packed ones
        h = chunks[0]
        self.chunks = chunks
        self.mode = mode
        self.query_id = h["queryId"]
        self.graph_id = h["graphId"]
        self.graph_version = h["graphVersion"]
        self.algorithm = h["algorithm"]
        self.variant = h["variant"]
        self.status = h["status"]
        self.error = h["error"]
        self.backend = h["backend"]
        self.vertex_count = h["vertexCount"]
        self.first_vertex_id = h["firstVertexId"]
        self.source = h["source"]
        self.chunk_count = h["chunkCount"]
        self.names = vertex_names(chunks)
        self.total_weight = _first(chunks, "totalWeight")
        self.components = _first(chunks, "components")
        self.largest_component = _first(chunks, "largestComponent")
        self.reached_count = _first(chunks, "reachedCount")
        self.max_hops = _first(chunks, "maxHops")
        self.max_distance = _first(chunks, "maxDistance")
        self.vertices = self.hops = self.distances = self.parents = self.labels = None
        self.mst_edges = self.distance_matrix = None
        if self.status != "OK":
            return
        shape = ANSWER_SHAPES.get(self.algorithm)
        if shape is None:
            raise codec.MalformedRecord("no answer shape for algorithm %r (a newer worker? update frontier_client)"
                                        % self.algorithm)
        getattr(self, "_" + shape)()

    # ---------------------------------------------------------------------------------------------- assembly

    def _per_vertex(self):
        targets = any(c.get("vertices") is not None for c in self.chunks)
        parts = {"hops": (codec.unpack_int32, "<i4"), "distances": (codec.unpack_float64, "<f8"),
                 "parents": (codec.unpack_int32, "<i4"), "labels": (codec.unpack_int32, "<i4")}
        present = [f for f in parts if any(c.get(f) is not None for c in self.chunks)]
        if not present and not targets:
            return   # SUMMARY
        views = []
        for c in self.chunks:
            v = {f: parts[f][0](c.get(f)) for f in present}
            if targets:
                v["vertices"] = codec.unpack_int32(c.get("vertices"))
            lengths = {len(a) for a in v.values()}
            if len(lengths) > 1:
                raise codec.MalformedRecord("chunk %d: arrays of different lengths %s" % (c["chunkIndex"], lengths))
            views.append((c["offset"], lengths.pop() if lengths else 0, v))
        n = self.vertex_count if not targets else sum(k for _, k, _ in views)
        out = {f: np.empty(n, dtype=parts[f][1]) for f in present}
        if targets:
            out["vertices"] = np.empty(n, dtype="<i4")
        covered = np.zeros(n, dtype=bool)
        for off, k, v in views:
            if off < 0 or off + k > n:
                raise codec.MalformedRecord("chunk at offset %d with %d vertices exceeds %d" % (off, k, n))
            for f, a in v.items():
                out[f][off:off + k] = a
            covered[off:off + k] = True
        if not covered.all():
            raise codec.MalformedRecord("chunks leave %d of %d positions uncovered" % ((~covered).sum(), n))
        self.hops = out.get("hops")
        self.distances = out.get("distances")
        self.parents = out.get("parents")
        self.labels = out.get("labels")
        self.vertices = out["vertices"] if targets else \
            np.arange(self.first_vertex_id, self.first_vertex_id + n, dtype="<i4")

    def _mst_edges(self):
        batches = [(c["offset"], c["mstEdges"]) for c in self.chunks if c.get("mstEdges") is not None]
        if not batches:
            return   # SUMMARY
        parts = []
        for off, b in sorted(batches, key=lambda x: x[0]):
            s, t = codec.unpack_int32(b["sources"]), codec.unpack_int32(b["targets"])
            w = codec.unpack_float64(b["weights"])
            if len(w) == 0:
                w = np.ones(len(s))
            if not len(s) == len(t) == len(w):
                raise codec.MalformedRecord("mstEdges arrays differ in length")
            e = np.empty(len(s), dtype=MST_EDGE)
            e["source"], e["target"], e["weight"] = s, t, w
            parts.append((off, e))
        at = 0
        for off, e in parts:
            if off != at:
                raise codec.MalformedRecord("mstEdges chunk at offset %d, expected %d" % (off, at))
            at += len(e)
        self.mst_edges = np.concatenate([e for _, e in parts])

    def _distance_matrix(self):
        n = self.vertex_count
        m = np.full((n, n), np.nan)
        for c in self.chunks:
            d = codec.unpack_float64(c.get("distances"))
            rows = c.get("rows") or (len(d) // n if n else 0)
            m[c["offset"]:c["offset"] + rows, :] = d.reshape(rows, n)
        self.distance_matrix = m

    # ---------------------------------------------------------------------------------------------- helpers

    def _values(self):
        if self.distances is not None:
            return self.distances, lambda x: None if np.isinf(x) else float(x)
        if self.hops is not None:
            return self.hops, lambda x: None if x < 0 else int(x)
        if self.labels is not None:
            return self.labels, int
        return None, None

    def as_dict(self, unreachable=True):
        """The answer keyed by the user's vertex ids.

        SSSP: ``{vertex: distance}``; BFS: ``{vertex: hops}`` (unreachable vertices map to None, or are left out
        with ``unreachable=False``); CC: ``{vertex: label}``; MST: ``{(u, v): weight}``; APSP: ``{u: {v: distance}}``;
        SUMMARY: the summary fields (``reachedCount``, ``maxHops`` / ``maxDistance``, ``totalWeight``,
        ``components``, ``largestComponent``).
        """
        if self.mst_edges is not None:
            return {(int(e["source"]), int(e["target"])): float(e["weight"]) for e in self.mst_edges}
        if self.distance_matrix is not None:
            ids = range(self.first_vertex_id, self.first_vertex_id + self.vertex_count)
            return {u: {v: (None if np.isinf(d) else float(d)) for v, d in zip(ids, row)}
                    for u, row in zip(ids, self.distance_matrix)}
        values, conv = self._values()
        if values is None:
            return self.summary()
        out = {}
        for v, x in zip(self.vertices.tolist(), values.tolist()):
            x = conv(x)
            if x is not None or unreachable:
                out[v] = x
        return out

    def named(self, unreachable=True):
        """:meth:`as_dict` with names for ids: ``{name: value}`` (CC labels, MST edge ends: names too)."""
        if not self.names:
            raise ValueError("this answer carries no names: ask by name (source_name, target_names, with_names)")
        d = self.as_dict(unreachable)
        n = self.names
        if self.mst_edges is not None:
            return {(n[u], n[v]): w for (u, v), w in d.items()}
        if self.labels is not None:
            return {n[v]: n[x] for v, x in d.items()}
        return {n[v]: x for v, x in d.items()}

    def parents_dict(self, unreachable=True):
        """``{vertex: parent}`` in user ids (the source is its own parent; unreachable: None or left out)."""
        out = {}
        for v, p in zip(self.vertices.tolist(), self.parents.tolist()):
            if p >= 0 or unreachable:
                out[v] = p if p >= 0 else None
        return out

    def summary(self):
        """The header and summary fields as a dict (what a SUMMARY answer carries)."""
        s = {"queryId": self.query_id, "graphId": self.graph_id, "graphVersion": self.graph_version,
             "algorithm": self.algorithm, "status": self.status, "backend": self.backend,
             "vertexCount": self.vertex_count}
        for k, v in (("reachedCount", self.reached_count), ("maxHops", self.max_hops),
                     ("maxDistance", self.max_distance), ("totalWeight", self.total_weight),
                     ("components", self.components), ("largestComponent", self.largest_component)):
            if v is not None:
                s[k] = v
        return s

    def index_of(self, vertex):
        """Position of a user vertex id in the per-vertex arrays."""
        if self.mode == "FULL":
            i = int(vertex) - self.first_vertex_id
            if not 0 <= i < len(self.vertices):
                raise KeyError(vertex)
            return i
        hits = np.nonzero(self.vertices == int(vertex))[0]
        if len(hits) == 0:
            raise KeyError(vertex)
        return int(hits[0])

    def path_to(self, vertex):
        """The path ``[source, ..., vertex]`` in user ids following ``parents`` (FULL answers), None if unreachable."""
        if self.mode != "FULL" or self.parents is None:
            raise ValueError("path_to needs a FULL BFS or SSSP answer")
        path = [int(vertex)]
        for _ in range(self.vertex_count):
            p = int(self.parents[self.index_of(path[-1])])
            if p < 0:
                return None
            if p == path[-1]:
                return path[::-1]
            path.append(p)
        raise ValueError("parents form a cycle")

    def __repr__(self):
        return "Result(%s %s on %r v%s, %s, %s)" % (self.algorithm, self.mode, self.graph_id, self.graph_version,
                                                     self.status, self.backend)
