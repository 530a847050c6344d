"""The Python client against a real broker and a real worker (FRONTIER_BOOTSTRAP=host:port; skipped without it).

Answers are checked against plain Python references written here (BFS with a deque, Dijkstra with heapq, Kruskal
with union-find, components by search), applied to the graph as the contract's storage policy stores it: self-loops dropped, parallel
edges merged keeping the smallest weight, an undirected edge stored as two arcs.

Optional: FRONTIER_RESULT_CHUNK_VERTICES / FRONTIER_RESULT_CHUNK_EDGES (the worker's result-chunk-vertices /
-edges) make the tests also check how many chunks an answer came in.
"""

import gzip
import heapq
import math
import os
import random
import sys
import time
import unittest
import uuid
from collections import deque
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from frontier_client import FrontierClient, FrontierError, View, named_edges  # noqa: E402

BOOTSTRAP = os.environ.get("FRONTIER_BOOTSTRAP")
ROME = HERE.parents[2] / "cli" / "src" / "main" / "resources" / "demo" / "rome99.gr.gz"
RUN = uuid.uuid4().hex[:8]   # graph ids of this run, so that a rerun on the same broker starts afresh
WAIT = 60.0


# ---------------------------------------------------------------------------------------------- references

class RefGraph:
    """A graph as the worker stores it: ``arcs[u] = {v: w}`` in user ids."""

    def __init__(self, n, first, directed, edges):
        self.n, self.first, self.directed = n, first, directed
        self.arcs = {v: {} for v in range(first, first + n)}
        for u, v, w in edges:
            self.add(u, v, w)

    def _pairs(self, u, v):
        return [(u, v)] if self.directed else [(u, v), (v, u)]

    def add(self, u, v, w):
        if u == v:
            return   # self-loops are dropped
        for a, b in self._pairs(u, v):
            self.arcs[a][b] = min(w, self.arcs[a].get(b, math.inf))

    def remove(self, u, v):
        for a, b in self._pairs(u, v):
            del self.arcs[a][b]

    def reweight(self, u, v, w):
        for a, b in self._pairs(u, v):
            assert b in self.arcs[a]
            self.arcs[a][b] = w

    def arc_count(self):
        return sum(len(a) for a in self.arcs.values())

    def edge_count(self):
        """Edges after the storage policy: arcs of a directed graph, undirected edges counted once."""
        return self.arc_count() if self.directed else self.arc_count() // 2

    def ids(self):
        return range(self.first, self.first + self.n)

    def bfs(self, s):
        hops = {v: -1 for v in self.ids()}
        hops[s] = 0
        q = deque([s])
        while q:
            u = q.popleft()
            for v in self.arcs[u]:
                if hops[v] < 0:
                    hops[v] = hops[u] + 1
                    q.append(v)
        return hops

    def dijkstra(self, s):
        dist = {v: math.inf for v in self.ids()}
        dist[s] = 0.0
        heap = [(0.0, s)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > dist[u]:
                continue
            for v, w in self.arcs[u].items():
                if d + w < dist[v]:
                    dist[v] = d + w
                    heapq.heappush(heap, (d + w, v))
        return dist

    def kruskal(self):
        """Minimum spanning forest of the undirected graph underneath, ties broken by (weight, min id, max id)."""
        und = {}
        for u, out in self.arcs.items():
            for v, w in out.items():
                k = (min(u, v), max(u, v))
                und[k] = min(w, und.get(k, math.inf))
        parent = {v: v for v in self.ids()}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        forest = []
        for (a, b), w in sorted(und.items(), key=lambda kv: (kv[1], kv[0])):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
                forest.append((a, b, w))
        return forest, self.n - len(forest)

    def components(self):
        """Weakly connected components: ``{vertex: smallest user id of its component}`` (a search from each vertex
        in id order over the arcs taken both ways)."""
        both = {v: set() for v in self.ids()}
        for u, out in self.arcs.items():
            for v in out:
                both[u].add(v)
                both[v].add(u)
        label = {}
        for s in self.ids():
            if s in label:
                continue
            label[s] = s
            q = deque([s])
            while q:
                u = q.popleft()
                for v in both[u]:
                    if v not in label:
                        label[v] = s
                        q.append(v)
        return label


def read_dimacs(path):
    n, s, t, w = 0, [], [], []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("p "):
                n = int(line.split()[2])
            elif line.startswith("a "):
                _, a, b, c = line.split()
                s.append(int(a))
                t.append(int(b))
                w.append(float(c))
    return n, np.array(s, dtype=np.int32), np.array(t, dtype=np.int32), np.array(w)


def random_edges(n, m, seed, first=0, max_weight=20):
    """A seeded multigraph as (u, v, w) tuples, self-loops and parallel edges included on purpose."""
    rnd = random.Random(seed)
    edges = [(rnd.randrange(n) + first, rnd.randrange(n) + first, float(rnd.randint(1, max_weight))) for _ in range(m)]
    edges += [(first, first, 1.0), (first + 1, first + 2, 7.0), (first + 2, first + 1, 3.0)]
    return edges


def java_murmur2(data: bytes) -> int:
    """org.apache.kafka.common.utils.Utils.murmur2: what Java producers partition keyed records by."""
    m, r = 0x5BD1E995, 24
    length = len(data)
    h = (0x9747B28C ^ length) & 0xFFFFFFFF
    for i in range(0, length - length % 4, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> r
        k = (k * m) & 0xFFFFFFFF
        h = (h * m) & 0xFFFFFFFF
        h ^= k
    rest = length % 4
    tail = length - rest
    if rest == 3:
        h ^= data[tail + 2] << 16
    if rest >= 2:
        h ^= data[tail + 1] << 8
    if rest >= 1:
        h ^= data[tail]
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    h ^= h >> 15
    return h


def env_int(name):
    v = os.environ.get(name)
    return int(v) if v else None


# ---------------------------------------------------------------------------------------------- the tests

@unittest.skipUnless(BOOTSTRAP, "set FRONTIER_BOOTSTRAP=host:port of a broker with a Frontier worker")
class LiveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = FrontierClient(BOOTSTRAP)
        # Rome, from numpy arrays: DIMACS, directed, ids 1..3353, in chunks of 1,000 edges
        cls.rome_id = "py-rome-" + RUN
        n, s, t, w = read_dimacs(ROME)
        cls.rome = RefGraph(n, 1, True, zip(s.tolist(), t.tolist(), w.tolist()))
        cls.rome_published = cls.client.publish_snapshot(cls.rome_id, 1, s, t, w, directed=True, first_vertex_id=1,
                                                         vertex_count=n, chunk_edges=1000)
        cls.rome_status = cls.client.wait_loaded(cls.rome_id, 1, WAIT)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()

    # ------------------------------------------------------------------------------------------ checks

    def assert_sssp(self, r, g, source):
        ref = g.dijkstra(source)
        self.assertEqual("SSSP", r.algorithm)
        self.assertEqual(list(g.ids()), r.vertices.tolist())
        self.assertEqual([ref[v] for v in g.ids()], r.distances.tolist())   # exact doubles, inf unreachable
        self.assertEqual(r.as_dict(), {v: (None if math.isinf(d) else d) for v, d in ref.items()})
        for v, p in zip(r.vertices.tolist(), r.parents.tolist()):
            if v == source:
                self.assertEqual(source, p, "the source is its own parent")
            elif math.isinf(ref[v]):
                self.assertEqual(-1, p)
            else:
                self.assertEqual(ref[v], ref[p] + g.arcs[p][v], "parent %d of %d is on no shortest path" % (p, v))

    def assert_bfs(self, r, g, source):
        ref = g.bfs(source)
        self.assertEqual([ref[v] for v in g.ids()], r.hops.tolist())
        for v, p in zip(r.vertices.tolist(), r.parents.tolist()):
            if v == source:
                self.assertEqual(source, p)
            elif ref[v] < 0:
                self.assertEqual(-1, p)
            else:
                self.assertIn(v, g.arcs[p])
                self.assertEqual(ref[v] - 1, ref[p])

    def assert_mst(self, r, g):
        forest, components = g.kruskal()
        # the forest is unique under the (weight, edge id) tie-break; it comes as (min, max) pairs in edge id order
        self.assertEqual(sorted(forest), r.mst_edges.tolist())
        self.assertEqual(math.fsum(w for _, _, w in forest), r.total_weight)
        self.assertEqual(components, r.components)

    def assert_chunks(self, r, items, env):
        size = env_int(env)
        if size:
            self.assertEqual(max(1, -(-items // size)), r.chunk_count, "%d items in chunks of %d" % (items, size))

    # ------------------------------------------------------------------------------------------ snapshots

    def test_snapshot_in_chunks_is_loaded(self):
        p = self.rome_published
        self.assertEqual(9, len(p.offsets), "8,870 arcs in chunks of 1,000")
        self.assertEqual(list(range(p.offsets[0], p.offsets[0] + 9)), p.offsets)
        st = self.rome_status
        self.assertEqual((3353, self.rome.edge_count(), "LOADED"), (st["vertexCount"], st["edgeCount"], st["state"]))

    def test_records_are_partitioned_as_java_partitions_them(self):
        # murmur2 of the key, as Java's producers (the worker's included) partition: the worker publishes the
        # graph's status keyed by graph id into the same-numbered partition of the status topic
        partitions = len(self.client.end_offsets("graphs"))
        expected = (java_murmur2(self.rome_id.encode()) & 0x7FFFFFFF) % partitions
        self.assertEqual(expected, self.rome_published.partition)
        with self.client.follow("status", from_beginning=True) as f:
            deadline = time.monotonic() + WAIT
            found = None
            while found is None and time.monotonic() < deadline:
                found = next((m.partition() for _, rec, m in f.poll(0.2) if rec.get("graphId") == self.rome_id), None)
            self.assertEqual(expected, found)
        for i in range(8):
            gid = "py-part-%s-%d" % (RUN, i)
            p = self.client.publish_snapshot(gid, 1, [0], [1])
            self.assertEqual((java_murmur2(gid.encode()) & 0x7FFFFFFF) % partitions, p.partition, gid)

    def test_default_chunks_near_the_message_size_limit(self):
        # 120,000 random edges: three chunks of up to 50,000 edges (800 KB packed each)
        gid = "py-big-" + RUN
        rng = np.random.default_rng(11)
        n, m = 40_000, 120_000
        s, t = rng.integers(0, n, m), rng.integers(0, n, m)
        w = rng.random(m) * 1000
        p = self.client.publish_snapshot(gid, 1, s, t, w, directed=False, vertex_count=n, wait=True, timeout=WAIT)
        self.assertEqual(3, len(p.offsets))
        g = RefGraph(n, 0, False, zip(s.tolist(), t.tolist(), w.tolist()))
        self.assertEqual(g.edge_count(), self.client.wait_loaded(gid, 1)["edgeCount"])
        r = self.client.query(gid, "BFS", source=0, mode="SUMMARY", timeout=WAIT)
        ref = g.bfs(0)
        self.assertEqual(sum(1 for h in ref.values() if h >= 0), r.reached_count)
        self.assertEqual(max(ref.values()), r.max_hops)
        r = self.client.query(gid, "BFS", source=0, timeout=WAIT)
        self.assert_bfs(r, g, 0)
        self.assert_chunks(r, n, "FRONTIER_RESULT_CHUNK_VERTICES")

    # ------------------------------------------------------------------------------------------ queries

    def test_sssp_full(self):
        r = self.client.query(self.rome_id, "SSSP", source=1, timeout=WAIT)
        self.assertEqual((self.rome_id, 1, "OK", "FULL"), (r.graph_id, r.graph_version, r.status, r.mode))
        self.assertEqual((3353, 1, 1), (r.vertex_count, r.first_vertex_id, r.source))
        self.assert_sssp(r, self.rome, 1)
        self.assert_chunks(r, 3353, "FRONTIER_RESULT_CHUNK_VERTICES")
        path = r.path_to(3353)
        self.assertEqual((1, 3353), (path[0], path[-1]))
        self.assertEqual(r.as_dict()[3353], math.fsum(self.rome.arcs[a][b] for a, b in zip(path, path[1:])))

    def test_bfs_full(self):
        r = self.client.query(self.rome_id, "BFS", source=3353, timeout=WAIT)
        self.assert_bfs(r, self.rome, 3353)
        self.assertEqual({v: (None if h < 0 else h) for v, h in self.rome.bfs(3353).items()}, r.as_dict())

    def test_mst_full(self):
        r = self.client.query(self.rome_id, "MST", timeout=WAIT)
        self.assert_mst(r, self.rome)
        self.assert_chunks(r, len(r.mst_edges), "FRONTIER_RESULT_CHUNK_EDGES")

    def test_targets_mode(self):
        targets = [3353, 2, 1, 2]
        r = self.client.query(self.rome_id, "SSSP", source=1, mode="TARGETS", targets=targets, timeout=WAIT)
        ref = self.rome.dijkstra(1)
        self.assertEqual(targets, r.vertices.tolist())
        self.assertEqual([ref[v] for v in targets], r.distances.tolist())
        self.assertEqual({v: ref[v] for v in targets}, r.as_dict())
        b = self.client.query(self.rome_id, "BFS", source=5, mode="TARGETS", targets=np.array([10, 5]), timeout=WAIT)
        hops = self.rome.bfs(5)
        self.assertEqual([hops[10], 0], b.hops.tolist())
        self.assertEqual(5, b.parents_dict()[5])

    def test_summary_mode(self):
        bfs = self.client.query(self.rome_id, "BFS", source=1, mode="SUMMARY", timeout=WAIT)
        hops = self.rome.bfs(1)
        self.assertIsNone(bfs.hops)
        self.assertEqual(sum(1 for h in hops.values() if h >= 0), bfs.reached_count)
        self.assertEqual(max(hops.values()), bfs.max_hops)
        sssp = self.client.query(self.rome_id, "SSSP", source=1, mode="SUMMARY", timeout=WAIT)
        dist = self.rome.dijkstra(1)
        self.assertIsNone(sssp.distances)
        self.assertEqual(max(d for d in dist.values() if not math.isinf(d)), sssp.max_distance)
        self.assertEqual(sum(1 for d in dist.values() if not math.isinf(d)), sssp.reached_count)
        mst = self.client.query(self.rome_id, "MST", mode="SUMMARY", timeout=WAIT)
        forest, components = self.rome.kruskal()
        self.assertIsNone(mst.mst_edges)
        self.assertEqual({"totalWeight": math.fsum(w for *_, w in forest), "components": components},
                         {k: mst.as_dict()[k] for k in ("totalWeight", "components")})

    def test_apsp_on_a_small_graph(self):
        gid = "py-small-" + RUN
        edges = random_edges(40, 90, seed=5, first=1)
        self.client.publish_snapshot(gid, 1, edges, directed=True, vertex_count=40, first_vertex_id=1, wait=True)
        g = RefGraph(40, 1, True, edges)
        r = self.client.query(gid, "APSP", timeout=WAIT)
        self.assertEqual([[g.dijkstra(u)[v] for v in g.ids()] for u in g.ids()], r.distance_matrix.tolist())

    def test_cc_in_each_mode(self):
        gid = "py-parts-" + RUN
        edges = random_edges(600, 380, seed=11, first=1)
        self.client.publish_snapshot(gid, 1, edges, directed=True, vertex_count=600, first_vertex_id=1, wait=True)
        label = RefGraph(600, 1, True, edges).components()
        sizes = {}
        for v, l in label.items():
            sizes[l] = sizes.get(l, 0) + 1
        self.assertGreater(len(sizes), 20, "several components")
        r = self.client.query(gid, "CC", timeout=WAIT)
        self.assertEqual(label, r.as_dict())
        self.assertEqual((len(sizes), max(sizes.values())), (r.components, r.largest_component))
        s = self.client.query(gid, "CC", mode="SUMMARY", timeout=WAIT)
        self.assertIsNone(s.labels)
        self.assertEqual({"components": len(sizes), "largestComponent": max(sizes.values())},
                         {k: s.as_dict()[k] for k in ("components", "largestComponent")})
        targets = [600, 1, 2, 1]
        t = self.client.query(gid, "CC", mode="TARGETS", targets=targets, timeout=WAIT)
        self.assertEqual(targets, t.vertices.tolist())
        self.assertEqual([label[v] for v in targets], t.labels.tolist())
        rome = self.client.query(self.rome_id, "CC", mode="SUMMARY", timeout=WAIT)
        self.assertEqual((1, 3353), (rome.components, rome.largest_component))

    def test_latency_event_for_each_query(self):
        with self.client.follow("latency") as f:
            r = self.client.query(self.rome_id, "BFS", source=7, timeout=WAIT)
            e = f.wait_for(lambda x: x["queryId"] == r.query_id, WAIT)
        self.assertEqual(("OK", "BFS", self.rome_id, 3353), (e["status"], e["algorithm"], e["graphId"], e["vertexCount"]))
        self.assertGreaterEqual(e["endToEndMicros"], e["computeMicros"])

    # ------------------------------------------------------------------------------------------ updates

    def test_update_then_query_is_answered_on_the_new_version(self):
        gid = "py-rand-" + RUN
        n = 500
        edges = random_edges(n, 2000, seed=7)   # a list of (u, v, w) tuples, undirected, ids 0..499
        g = RefGraph(n, 0, False, edges)
        self.client.publish_snapshot(gid, 1, edges, directed=False, vertex_count=n, wait=True, timeout=WAIT)
        self.assert_sssp(self.client.query(gid, "SSSP", source=0, timeout=WAIT), g, 0)

        some = sorted((u, v) for u in g.arcs for v in g.arcs[u] if u < v)
        removed = [(v, u) for u, v in some[:3]]   # (v, u) names the edge (u, v) of an undirected graph
        rw = some[10]
        added = [(some[20][0], some[20][1], 0.5), (0, n - 1, 1.0), (3, 4, 2.0)]   # an existing edge keeps the smaller weight
        self.client.publish_update(gid, removed=removed, reweighted=[(rw[0], rw[1], 100.0)], added=added, base_version=1)
        for u, v in removed:
            g.remove(u, v)
        g.reweight(rw[0], rw[1], 100.0)
        for u, v, w in added:
            g.add(u, v, w)
        # no wait: the query follows the update in the graph's partition, so it is answered on version 2
        r = self.client.query(gid, "SSSP", source=0, timeout=WAIT)
        self.assertEqual(2, r.graph_version)
        self.assert_sssp(r, g, 0)
        m = self.client.query(gid, "MST", timeout=WAIT)
        self.assertEqual(2, m.graph_version)
        self.assert_mst(m, g)
        self.assertEqual(g.edge_count(), self.client.wait_loaded(gid, 2, WAIT)["edgeCount"])

        # a re-weight-only update through wait=True, then one without base_version
        self.client.publish_update(gid, reweighted=[(rw[0], rw[1], 1.0)], base_version=2, wait=True, timeout=WAIT)
        g.reweight(rw[0], rw[1], 1.0)
        self.client.publish_update(gid, added=[(5, 6, 3.0)])
        g.add(5, 6, 3.0)
        b = self.client.query(gid, "BFS", source=5, timeout=WAIT)
        self.assertEqual(4, b.graph_version)
        self.assert_bfs(b, g, 5)

    # ------------------------------------------------------------------------------------------ subscriptions

    def assert_sssp_view(self, view, g, source):
        ref = g.dijkstra(source)
        self.assertEqual({v: d for v, d in ref.items() if not math.isinf(d)}, view.values)
        for v, p in view.parents.items():
            if v == source:
                self.assertEqual(source, p)
            else:
                self.assertEqual(ref[v], ref[p] + g.arcs[p][v], "parent %d of %d is on no shortest path" % (p, v))

    def assert_mst_view(self, view, g):
        forest, components = g.kruskal()
        self.assertEqual({(a, b): w for a, b, w in forest}, view.forest)
        self.assertEqual((math.fsum(w for _, _, w in forest), components), (view.total_weight, view.components))

    def test_subscriptions_push_what_changed_and_end_when_cancelled(self):
        gid = "py-subs-" + RUN
        n = 300
        edges = random_edges(n, 1500, seed=23)
        g = RefGraph(n, 0, True, edges)
        self.client.publish_snapshot(gid, 1, edges, directed=True, vertex_count=n, wait=True, timeout=WAIT)
        spf = self.client.subscribe(gid, "SSSP", source=0)   # DELTA
        mst = self.client.subscribe(gid, "MST", mode="DELTA")
        spf_pushes, mst_pushes = self.client.pushes(spf, WAIT), self.client.pushes(mst, WAIT)
        spf_view, mst_view = View(), View()
        first = next(spf_pushes)
        self.assertEqual(("INITIAL", 0, False, 1, spf), (first.reason, first.sequence, first.delta, first.graph_version,
                                                         first.subscription_id))
        self.assertTrue(spf_view.apply(first))
        self.assertTrue(mst_view.apply(next(mst_pushes)))
        self.assert_sssp_view(spf_view, g, 0)
        self.assert_mst_view(mst_view, g)

        # one update: an arc of the shortest-path tree and a forest edge (both directions) get slower
        v = max((x for x in spf_view.parents if x != 0), key=lambda x: spf_view.values[x])
        changes = {(spf_view.parents[v], v): g.arcs[spf_view.parents[v]][v] + 50.0}
        a, b = next(iter(mst_view.forest))
        for x, y in ((a, b), (b, a)):
            if y in g.arcs[x]:
                changes[(x, y)] = max(changes.get((x, y), 0.0), g.arcs[x][y] + 100.0)
        self.client.publish_update(gid, reweighted=[(x, y, w) for (x, y), w in changes.items()], base_version=1)
        for (x, y), w in changes.items():
            g.reweight(x, y, w)
        for pushes, view in ((spf_pushes, spf_view), (mst_pushes, mst_view)):
            p = next(pushes)
            self.assertEqual(("UPDATE", 1, True, 2), (p.reason, p.sequence, p.delta, p.graph_version), repr(p))
            self.assertTrue(view.apply(p))
        self.assertIn(v, spf_view.values, "still reached")
        self.assert_sssp_view(spf_view, g, 0)
        self.assert_mst_view(mst_view, g)
        fresh = self.client.query(gid, "SSSP", source=0, timeout=WAIT)
        self.assertEqual(fresh.as_dict(unreachable=False), spf_view.values, "the view equals a fresh query")

        for sid, pushes, view in ((spf, spf_pushes, spf_view), (mst, mst_pushes, mst_view)):
            self.client.cancel(gid, sid)
            end = next(pushes)
            self.assertEqual(("END", "OK", 2), (end.reason, end.status, end.sequence), repr(end))
            self.assertTrue(view.apply(end) and view.ended)
            with self.assertRaises(StopIteration):
                next(pushes)

    def test_a_failed_subscription_ends_with_its_status(self):
        sid = self.client.subscribe(self.rome_id, "BFS", source=999_999)
        end = next(self.client.pushes(sid, WAIT))
        self.assertEqual(("END", "INVALID_VERTEX"), (end.reason, end.status))
        self.assertIn("999999", end.error)

    # ------------------------------------------------------------------------------------------ names

    def test_named_vertices_through_load_query_update_and_subscribe(self):
        """A graph of names (docs/contract.md, "Vertex names"): loaded by name, asked and followed by name, updated
        by name with a new vertex; answers in names against Dijkstra on the integer graph mapped through the names;
        an unknown name is UNKNOWN_NAME."""
        gid = "py-names-" + RUN
        roads = [("Main & 1st", "Main & 2nd", 4.0), ("Main & 2nd", "Oak & 2nd", 3.0), ("Main & 1st", "Oak & 1st", 10.0),
                 ("Oak & 1st", "Oak & 2nd", 2.0), ("Oak & 2nd", "Elm, North", 6.0), ("Elm, North", "router-7", 1.0)]
        e, names = named_edges(roads)
        self.client.publish_snapshot(gid, 1, e, names=names, wait=True, timeout=WAIT)

        def reference(edges, source):
            ids = {}
            for a, b, _ in edges:
                for x in (a, b):
                    ids.setdefault(x, len(ids))
            g = RefGraph(len(ids), 0, True, [(ids[a], ids[b], w) for a, b, w in edges])
            by_id = {i: n for n, i in ids.items()}
            return {by_id[v]: (None if math.isinf(d) else d) for v, d in g.dijkstra(ids[source]).items()}

        r = self.client.query(gid, "SSSP", source_name="Main & 1st", timeout=WAIT)
        self.assertEqual(reference(roads, "Main & 1st"), r.named())
        self.assertEqual("Main & 1st", r.names[r.source])
        t = self.client.query(gid, "BFS", source_name="Oak & 1st", mode="TARGETS", target_names=["router-7"], timeout=WAIT)
        self.assertEqual({"router-7": 3}, t.named())

        sid = self.client.subscribe(gid, "SSSP", source_name="Main & 1st")
        pushes = self.client.pushes(sid, WAIT)
        initial = next(pushes)
        self.assertEqual("INITIAL", initial.reason)
        self.assertEqual(set(names), set(initial.names.values()))
        self.client.publish_update(gid, new_vertices=["Harbor Gate"], added=[("router-7", "Harbor Gate", 2.0)],
                                   reweighted=[("Main & 2nd", "Oak & 2nd", 9.0)], base_version=1, wait=True, timeout=WAIT)
        after = roads[:1] + [("Main & 2nd", "Oak & 2nd", 9.0)] + roads[2:] + [("router-7", "Harbor Gate", 2.0)]
        push = next(pushes)
        self.assertEqual(("UPDATE", 2), (push.reason, push.graph_version))
        changed = {push.names[v]: d for v, d in zip(push.vertices.tolist(), push.distances.tolist())}
        expected = reference(after, "Main & 1st")
        self.assertEqual({n: expected[n] for n in changed}, changed)
        self.assertIn("Harbor Gate", changed)
        self.assertEqual(expected, self.client.query(gid, "SSSP", source_name="Main & 1st", timeout=WAIT).named())
        self.client.cancel(gid, sid)

        e = self.assert_refused("UNKNOWN_NAME", "'Nowhere'", graph_id=gid, algorithm="BFS", source_name="Nowhere")
        self.assertIn(gid, e.reason)
        with self.assertRaises(FrontierError) as cm:
            self.client.publish_update(gid, removed=[("Main & 1st", "Nowhere")], base_version=2, wait=True, timeout=WAIT)
        self.assertEqual("UNKNOWN_NAME", cm.exception.code)

    # ------------------------------------------------------------------------------------------ refusals

    def assert_refused(self, code, text=None, **query):
        with self.assertRaises(FrontierError) as cm:
            self.client.query(**query, timeout=WAIT)
        e = cm.exception
        self.assertEqual(code, e.code, str(e))
        self.assertEqual(code, e.result.status)
        self.assertTrue(e.reason)
        if text:
            self.assertIn(text, e.reason)
        return e

    def test_bad_queries_are_answered_with_the_documented_status(self):
        with self.client.follow("errors") as errors:
            g = self.rome_id
            refused = [
                self.assert_refused("INVALID_VERTEX", "1..3353", graph_id=g, algorithm="SSSP", source=3354),
                self.assert_refused("INVALID_VERTEX", None, graph_id=g, algorithm="BFS", source=0),
                self.assert_refused("INVALID_VERTEX", None, graph_id=g, algorithm="BFS", source=1, mode="TARGETS",
                                    targets=[2, 9999]),
                self.assert_refused("UNKNOWN_GRAPH", None, graph_id="py-nowhere-" + RUN, algorithm="BFS", source=1),
                self.assert_refused("INVALID_QUERY", None, graph_id=g, algorithm="BFS"),
                self.assert_refused("INVALID_QUERY", None, graph_id=g, algorithm="SSSP", source=1, mode="TARGETS"),
                self.assert_refused("INVALID_QUERY", None, graph_id=g, algorithm="SSSP", source=1, backend="abacus"),
                self.assert_refused("UNSUPPORTED", None, graph_id=g, algorithm="SSSP", source=1, variant="no-such"),
                self.assert_refused("INVALID_QUERY", "whole graph", graph_id=g, algorithm="CC", source=1),
            ]
            with self.assertRaises(FrontierError) as cm:
                self.client.query(g, "BFS", source=1, deadline_epoch_ms=int(time.time() * 1000) - 60_000, timeout=WAIT)
            self.assertEqual("DEADLINE_EXCEEDED", cm.exception.code)
            refused.append(cm.exception)
            # every failed query also has its error event, with the same code
            ids = {e.query_id for e in refused}
            seen = errors.wait_until(lambda l: ids <= {x["queryId"] for x in l}, WAIT)
            events = {x["queryId"]: x for x in seen if x["queryId"] in ids}
            for e in refused:
                self.assertEqual((e.code, e.reason, self.client.topics.graphs, e.graph_id),
                                 tuple(events[e.query_id][k] for k in ("code", "reason", "sourceTopic", "graphId")))
        # and the worker goes on answering
        self.assert_bfs(self.client.query(self.rome_id, "BFS", source=1, timeout=WAIT), self.rome, 1)

    def test_rejected_snapshots_and_updates_raise_with_the_workers_code(self):
        def refused(code, fn):
            with self.assertRaises(FrontierError) as cm:
                fn()
            self.assertEqual(code, cm.exception.code, str(cm.exception))
            self.assertTrue(cm.exception.reason)

        c, gid = self.client, "py-bad-" + RUN
        refused("INVALID_WEIGHT", lambda: c.publish_snapshot(gid + "-neg", 1, [(0, 1, -1.0)], wait=True, timeout=WAIT))
        refused("INVALID_WEIGHT", lambda: c.publish_snapshot(gid + "-nan", 1, [(0, 1, math.nan)], wait=True, timeout=WAIT))
        refused("INVALID_VERTEX", lambda: c.publish_snapshot(gid + "-range", 1, [(0, 5)], vertex_count=3, wait=True,
                                                              timeout=WAIT))
        c.publish_snapshot(gid, 5, [(0, 1, 1.0), (1, 2, 1.0)], wait=True, timeout=WAIT)
        refused("STALE_VERSION", lambda: c.publish_snapshot(gid, 5, [(0, 1, 1.0)], wait=True, timeout=WAIT))
        refused("STALE_VERSION", lambda: c.publish_update(gid, added=[(2, 0)], base_version=4, wait=True, timeout=WAIT))
        refused("INVALID_UPDATE", lambda: c.publish_update(gid, removed=[(2, 0)], base_version=5, wait=True,
                                                           timeout=WAIT))
        refused("UNKNOWN_GRAPH", lambda: c.publish_update(gid + "-none", added=[(0, 1)], base_version=1, wait=True,
                                                          timeout=WAIT))
        # the graph kept version 5
        self.assertEqual(5, c.query(gid, "BFS", source=0, timeout=WAIT).graph_version)

    def test_update_rejections_name_user_ids(self):
        """An update's rejection reason names the user's ids, as a snapshot's does ("outside 1..3" for the edge
        (3, 4) of a graph with ids 1..3)."""
        gid = "py-ids-" + RUN
        self.client.publish_snapshot(gid, 1, [(1, 2, 1.0), (2, 3, 1.0)], first_vertex_id=1, wait=True, timeout=WAIT)
        with self.assertRaises(FrontierError) as cm:
            self.client.publish_update(gid, added=[(3, 4, 2.0)], base_version=1, wait=True, timeout=WAIT)
        self.assertEqual("INVALID_VERTEX", cm.exception.code)
        self.assertIn("1..3", cm.exception.reason)


if __name__ == "__main__":
    unittest.main()
