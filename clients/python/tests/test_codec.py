"""The wire format without a broker: schemas, fingerprints, packed arrays, result assembly."""

import json
import math
import re
import struct
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import avro.schema  # noqa: E402
import numpy as np  # noqa: E402

from frontier_client import Edges, MalformedRecord, Push, Result, View, as_edges, codec  # noqa: E402

REPO_SCHEMAS = HERE.parents[2] / "schemas" / "src" / "main" / "avro"


class SchemaCopyTest(unittest.TestCase):
    def test_package_schemas_equal_the_repository_schemas(self):
        if not REPO_SCHEMAS.is_dir():
            self.skipTest("not inside the Frontier repository: %s is absent" % REPO_SCHEMAS)
        ours = sorted(p.relative_to(codec.SCHEMA_DIR) for p in codec.SCHEMA_DIR.rglob("*.avsc"))
        theirs = sorted(p.relative_to(REPO_SCHEMAS) for p in REPO_SCHEMAS.rglob("*.avsc"))
        self.assertEqual(theirs, ours, "clients/python/frontier_client/schemas must hold every .avsc of "
                                       "schemas/src/main/avro (the schemas build copies them: mvn -pl schemas generate-resources)")
        for rel in ours:
            self.assertEqual((REPO_SCHEMAS / rel).read_bytes(), (codec.SCHEMA_DIR / rel).read_bytes(),
                             "%s differs from schemas/src/main/avro/%s: build schemas/ (mvn -pl schemas generate-resources)" % (rel, rel))

    def test_every_record_schema_is_known_to_the_codec(self):
        records = {p.stem for p in codec.SCHEMA_DIR.glob("*.avsc")}
        self.assertEqual(records, set(codec.RECORD_TYPES),
                         "a new record schema needs adding to codec.RECORD_TYPES (and the client)")


class FingerprintTest(unittest.TestCase):
    def test_crc64_avro_vectors_of_the_avro_specification_test_data(self):
        # share/test/data/schema-tests.txt of Apache Avro (checked here against Avro Java's SchemaNormalization)
        self.assertEqual(7195948357588979594, struct.unpack("<q", struct.pack("<Q", codec.crc64_avro(b'"null"')))[0])
        self.assertEqual(8247732601305521295, struct.unpack("<q", struct.pack("<Q", codec.crc64_avro(b'"int"')))[0])

    def test_canonical_form_equals_avro_pythons_own(self):
        # an independent implementation: avro's parser with the common types registered first
        for name, t in codec.TYPES.items():
            names = avro.schema.Names()
            for f in sorted((codec.SCHEMA_DIR / "common").glob("*.avsc")):
                avro.schema.make_avsc_object(json.loads(f.read_text()), names)
            top = avro.schema.make_avsc_object(t.source, names)
            self.assertEqual(top.canonical_form, t.canonical, name)

    def test_headers_equal_the_contracts_table(self):
        contract = HERE.parents[2] / "docs" / "contract.md"
        if not contract.is_file():
            self.skipTest("not inside the Frontier repository: %s is absent" % contract)
        table = dict(re.findall(r"^\| `(\w+)` \| `\w+\.avsc` \| `([0-9a-f ]+)` \|", contract.read_text(encoding="utf-8"), re.M))
        self.assertEqual(set(codec.RECORD_TYPES), set(table), "docs/contract.md lists every record type")
        for name, t in codec.TYPES.items():
            self.assertEqual(table[name], t.header.hex(" "), name + ": the header docs/contract.md gives")

    def test_single_object_header(self):
        v = codec.encode("GraphQuery", {"queryId": "q", "graphId": "g", "algorithm": "BFS", "source": 1})
        self.assertEqual(b"\xc3\x01", v[:2])
        self.assertEqual(codec.TYPES["GraphQuery"].fingerprint, struct.unpack("<Q", v[2:10])[0])
        name, rec = codec.decode(v)
        self.assertEqual("GraphQuery", name)
        self.assertEqual({"queryId": "q", "graphId": "g", "algorithm": "BFS", "variant": None, "source": 1,
                          "targets": [], "sourceName": None, "targetNames": [], "withNames": False, "resultMode": "FULL",
                          "backend": None, "deadlineEpochMs": None}, rec)

    def test_malformed_values_are_refused(self):
        good = codec.encode("GraphQuery", {"queryId": "q", "graphId": "g", "algorithm": "SSSP", "source": 7})
        for bad, why in [(b"\x00" + good[1:], "registry"), (b"not avro at all", "C3 01"), (good[:6], "shorter"),
                         (good[:2] + b"\x01" * 8 + good[10:], "unknown schema fingerprint"),
                         (good[:13], "cannot decode")]:
            with self.assertRaisesRegex(MalformedRecord, why):
                codec.decode(bad)


class PackedArrayTest(unittest.TestCase):
    def test_the_contracts_examples(self):
        self.assertEqual(bytes.fromhex("04000000ffffffff"), codec.pack_int32([4, -1]))
        self.assertEqual(bytes.fromhex("000000000000f03f000000000000f07f"), codec.pack_float64([1.0, math.inf]))
        self.assertEqual([4, -1], codec.unpack_int32(bytes.fromhex("04000000ffffffff")).tolist())

    def test_numpy_and_lists_pack_alike(self):
        for ids in ([1, 2, 3], np.array([1, 2, 3], dtype=np.int64), np.array([1, 2, 3], dtype=">i4"),
                    np.array([1.0, 2.0, 3.0])):
            self.assertEqual(bytes.fromhex("010000000200000003000000"), codec.pack_int32(ids))
        with self.assertRaises(ValueError):
            codec.pack_int32([2**31])
        with self.assertRaises(TypeError):
            codec.pack_int32([1.5])

    def test_lengths_that_are_not_whole_elements_are_malformed(self):
        with self.assertRaises(MalformedRecord):
            codec.unpack_int32(b"\x01\x02\x03")
        with self.assertRaises(MalformedRecord):
            codec.unpack_float64(b"\x00" * 12)

    def test_edge_lists(self):
        for e in ([(1, 2), (3, 4)], np.array([[1, 2], [3, 4]]), Edges([1, 3], [2, 4]),
                  {"sources": [1, 3], "targets": np.array([2, 4])}):
            n = as_edges(e)
            self.assertEqual([1, 3], n.sources.tolist())
            self.assertEqual([2, 4], n.targets.tolist())
            self.assertIsNone(n.weights)
        w = as_edges([(1, 2, 0.5), (3, 4, 2)])
        self.assertEqual([0.5, 2.0], w.weights.tolist())
        self.assertEqual({"sources": codec.pack_int32([1, 3]), "targets": codec.pack_int32([2, 4]),
                          "weights": codec.pack_float64([0.5, 2.0])}, codec.edge_batch(*w))
        with self.assertRaises(ValueError):
            as_edges([(1, 2, 3, 4)])
        with self.assertRaises(ValueError):
            as_edges(Edges([1, 2], [3]))


def chunk(**fields):
    rec = {"queryId": "q", "graphId": "g", "graphVersion": 3, "algorithm": "SSSP", "variant": None, "status": "OK",
           "error": None, "backend": "cpu", "chunkIndex": 0, "chunkCount": 1, "vertexCount": 5, "firstVertexId": 1,
           "source": 1, "offset": 0, "rows": None, "vertices": None, "hops": None, "distances": None,
           "parents": None, "mstEdges": None, "totalWeight": None, "components": None, "reachedCount": None,
           "maxHops": None, "maxDistance": None, "reason": None, "sequence": None, "delta": False,
           "removedEdges": None}
    rec.update(fields)
    # through the codec, as a worker's chunk would come
    return codec.decode(codec.encode("QueryResult", rec))[1]


class ResultAssemblyTest(unittest.TestCase):
    def test_full_answers_are_put_together_from_chunks_by_offset(self):
        d = [0.0, 2.5, math.inf, 4.0, 1.0]
        p = [1, 5, -1, 2, 1]
        chunks = [chunk(chunkIndex=i, chunkCount=3, offset=o, distances=codec.pack_float64(d[o:o + 2]),
                        parents=codec.pack_int32(p[o:o + 2])) for i, o in enumerate((0, 2, 4))]
        r = Result(chunks)
        self.assertEqual([1, 2, 3, 4, 5], r.vertices.tolist())
        self.assertEqual(d, r.distances.tolist())
        self.assertEqual({1: 0.0, 2: 2.5, 3: None, 4: 4.0, 5: 1.0}, r.as_dict())
        self.assertEqual({1: 0.0, 2: 2.5, 4: 4.0, 5: 1.0}, r.as_dict(unreachable=False))
        self.assertEqual({1: 1, 2: 5, 3: None, 4: 2, 5: 1}, r.parents_dict())
        self.assertEqual([1, 5, 2, 4], r.path_to(4))
        self.assertIsNone(r.path_to(3))

    def test_missing_coverage_is_malformed(self):
        with self.assertRaises(MalformedRecord):
            Result([chunk(distances=codec.pack_float64([0.0, 1.0]), parents=codec.pack_int32([1, 1]))])

    def test_targets_answers_list_the_asked_vertices(self):
        r = Result([chunk(algorithm="BFS", chunkCount=2, vertices=codec.pack_int32([5]), hops=codec.pack_int32([2]),
                          parents=codec.pack_int32([2])),
                    chunk(algorithm="BFS", chunkIndex=1, chunkCount=2, offset=1, vertices=codec.pack_int32([3]),
                          hops=codec.pack_int32([-1]), parents=codec.pack_int32([-1]))], "TARGETS")
        self.assertEqual([5, 3], r.vertices.tolist())
        self.assertEqual({5: 2, 3: None}, r.as_dict())
        self.assertEqual(1, r.index_of(3))

    def test_mst_and_summary(self):
        r = Result([chunk(algorithm="MST", source=None, chunkCount=2, totalWeight=3.5, components=2,
                          mstEdges=codec.edge_batch([1, 2], [2, 3], [1.0, 2.0])),
                    chunk(algorithm="MST", source=None, chunkIndex=1, chunkCount=2, offset=2,
                          mstEdges=codec.edge_batch([4], [5], [0.5]))])
        self.assertEqual([(1, 2, 1.0), (2, 3, 2.0), (4, 5, 0.5)], r.mst_edges.tolist())
        self.assertEqual({(1, 2): 1.0, (2, 3): 2.0, (4, 5): 0.5}, r.as_dict())
        self.assertEqual((3.5, 2), (r.total_weight, r.components))
        s = Result([chunk(algorithm="BFS", reachedCount=4, maxHops=2)], "SUMMARY")
        self.assertIsNone(s.hops)
        self.assertEqual(4, s.as_dict()["reachedCount"])
        self.assertEqual(2, s.as_dict()["maxHops"])

    def test_cc_labels_counts_and_targets(self):
        # components {1, 2, 4} and {3, 5}: labels are the smallest user id of each
        labels = [1, 1, 3, 1, 3]
        r = Result([chunk(algorithm="CC", source=None, chunkIndex=i, chunkCount=3, offset=o, components=2,
                          largestComponent=3, labels=codec.pack_int32(labels[o:o + 2]))
                    for i, o in enumerate((0, 2, 4))])
        self.assertEqual([1, 2, 3, 4, 5], r.vertices.tolist())
        self.assertEqual(labels, r.labels.tolist())
        self.assertEqual({1: 1, 2: 1, 3: 3, 4: 1, 5: 3}, r.as_dict())
        self.assertEqual((2, 3), (r.components, r.largest_component))
        t = Result([chunk(algorithm="CC", source=None, vertices=codec.pack_int32([5, 2]),
                          labels=codec.pack_int32([3, 1]))], "TARGETS")
        self.assertEqual({5: 3, 2: 1}, t.as_dict())
        s = Result([chunk(algorithm="CC", source=None, components=2, largestComponent=3)], "SUMMARY")
        self.assertIsNone(s.labels)
        self.assertEqual((2, 3), (s.as_dict()["components"], s.as_dict()["largestComponent"]))

    def test_an_algorithm_without_an_answer_shape_is_malformed(self):
        c = chunk(algorithm="BFS")
        c["algorithm"] = "NOT_KNOWN_HERE"   # a newer worker's symbol
        with self.assertRaises(MalformedRecord):
            Result([c])

    def test_apsp_rows(self):
        r = Result([chunk(algorithm="APSP", source=None, vertexCount=2, rows=1, offset=i, chunkIndex=i, chunkCount=2,
                          distances=codec.pack_float64(row)) for i, row in enumerate(([0.0, 1.0], [math.inf, 0.0]))])
        self.assertEqual([[0.0, 1.0], [math.inf, 0.0]], r.distance_matrix.tolist())
        self.assertEqual({1: {1: 0.0, 2: 1.0}, 2: {1: None, 2: 0.0}}, r.as_dict())


def push(reason, sequence, delta=False, **fields):
    return chunk(queryId="s", reason=reason, sequence=sequence, delta=delta, **fields)


class SubscriptionTest(unittest.TestCase):
    def test_subscription_records_and_pushes_go_through_the_codec(self):
        v = codec.encode("Subscription", {"subscriptionId": "spf-17", "graphId": "isp", "algorithm": "SSSP", "source": 17})
        name, rec = codec.decode(v)
        self.assertEqual("Subscription", name)
        self.assertEqual({"subscriptionId": "spf-17", "graphId": "isp", "algorithm": "SSSP", "source": 17, "targets": [],
                          "sourceName": None, "targetNames": [], "withNames": False,
                          "resultMode": "DELTA", "minIntervalMs": 0, "cancel": False, "endedBy": None}, rec)
        c = chunk(reason="UPDATE", sequence=4, delta=True, algorithm="MST", source=None,
                  mstEdges=codec.edge_batch([1], [3], [3.0]), removedEdges=codec.edge_batch([2], [3]))
        self.assertEqual(("UPDATE", 4, True), (c["reason"], c["sequence"], c["delta"]))
        self.assertEqual([2], codec.unpack_int32(c["removedEdges"]["sources"]).tolist())
        answer = chunk()
        self.assertEqual((None, None, False, None), (answer["reason"], answer["sequence"], answer["delta"],
                                                     answer["removedEdges"]), "a query's answer: no push fields")

    def test_a_view_applies_complete_and_delta_pushes_in_order(self):
        view = View()
        d = [0.0, 2.5, math.inf, 4.0, 1.0]
        p = [1, 5, -1, 2, 1]
        initial = Push([push("INITIAL", 0, chunkIndex=i, chunkCount=3, offset=o, distances=codec.pack_float64(d[o:o + 2]),
                             parents=codec.pack_int32(p[o:o + 2])) for i, o in enumerate((0, 2, 4))])
        self.assertEqual(("INITIAL", 0, False, 5), (initial.reason, initial.sequence, initial.delta, initial.vertex_count))
        self.assertTrue(view.apply(initial))
        self.assertEqual({1: 0.0, 2: 2.5, 4: 4.0, 5: 1.0}, view.values, "unreachable vertices are absent")
        # vertex 3 reached, 4 cut off; the graph grew to 6 vertices
        delta = Push([push("UPDATE", 1, True, vertexCount=6, graphVersion=4, vertices=codec.pack_int32([3, 4]),
                           distances=codec.pack_float64([7.0, math.inf]), parents=codec.pack_int32([5, -1]))])
        self.assertEqual([3, 4], delta.vertices.tolist())
        self.assertTrue(view.apply(delta))
        self.assertEqual({1: 0.0, 2: 2.5, 3: 7.0, 5: 1.0}, view.values)
        self.assertEqual({1: 1, 2: 5, 3: 5, 5: 1}, view.parents)
        self.assertEqual((4, 1, 6), (view.version, view.sequence, view.vertex_count))
        self.assertFalse(view.apply(delta), "a redelivery is ignored")
        self.assertFalse(view.stale)
        self.assertFalse(view.apply(Push([push("UPDATE", 3, True, vertices=codec.pack_int32([]),
                                              distances=codec.pack_float64([]), parents=codec.pack_int32([]))])))
        self.assertTrue(view.stale, "#2 was missed")
        self.assertTrue(view.apply(Push([push("RESYNC", 0, distances=codec.pack_float64([0.0]), parents=codec.pack_int32([1]),
                                              vertexCount=1)])))
        self.assertEqual(({1: 0.0}, False), (view.values, view.stale))
        end = Push([push("END", 1, status="OK")])
        self.assertTrue(end.end)
        self.assertTrue(view.apply(end))
        self.assertTrue(view.ended)

    def test_compact_delta_pushes_read_as_plain_ones(self):
        # docs/contract.md's example ("Compact arrays"): vertices 1000, 1001, 1005 as gaps; distances 0, 12, unreachable
        # as varints; parents 1000, 1000, -1 from their vertices (the Java CompactArraysTest writes these bytes)
        c = {"compactVertices": bytes([2, 3, 0xD0, 0x0F, 2, 8]), "compactDistances": bytes([1, 3, 1, 0x19, 0]),
             "compactParents": bytes([3, 3, 0, 1, 0xDB, 0x0F])}
        delta = Push([push("UPDATE", 1, True, vertexCount=1006, firstVertexId=0, **c)])
        self.assertEqual([1000, 1001, 1005], delta.vertices.tolist())
        self.assertEqual([0.0, 12.0, math.inf], delta.distances.tolist())
        self.assertEqual([1000, 1000, -1], delta.parents.tolist())
        name, rec = codec.decode(codec.encode("QueryResult", push("UPDATE", 1, True, **c)))
        self.assertEqual([1000, 1001, 1005], codec.unpack_int32(codec.expand_compact(rec)["vertices"]).tolist(),
                         "through Avro bytes")
        self.assertEqual([3, -7, 2**31 - 1, -2**31], codec.unpack_compact(bytes([1, 4, 6, 13, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F,
                                                                                0xFF, 0xFF, 0xFF, 0xFF, 0x0F]), False).tolist())
        for bad in (b"", bytes([9, 0]), bytes([1, 3, 2]), bytes([1, 1, 0x80]), bytes([0, 1, 1, 2]), bytes([3, 1, 0])):
            with self.assertRaises(MalformedRecord):
                codec.unpack_compact(bad, False)

    def test_one_id_on_two_graphs_is_two_subscriptions(self):
        from collections import deque
        from frontier_client.client import _route_push

        def full(graph, seq, reason, d, p):
            return push(reason, seq, graphId=graph, vertexCount=len(d), distances=codec.pack_float64(d),
                        parents=codec.pack_int32(p))

        def delta(graph, seq, vertices, d, p):
            return push("UPDATE", seq, True, graphId=graph, vertices=codec.pack_int32(vertices),
                        distances=codec.pack_float64(d), parents=codec.pack_int32(p))

        # pushes of subscription "s" on graphs "a" and "b", interleaved as the results topic holds them
        chunks = [full("a", 0, "INITIAL", [0.0, 1.0, 2.0], [1, 1, 2]), full("b", 0, "INITIAL", [0.0, 5.0], [1, 1]),
                  delta("a", 1, [3], [1.5], [1]), delta("b", 1, [2], [4.0], [1]), delta("b", 2, [2], [3.0], [1])]
        subs = {("a", "s"): ("DELTA", deque()), ("b", "s"): ("DELTA", deque())}
        for c in chunks:
            self.assertTrue(_route_push(subs, c))
        self.assertFalse(_route_push(subs, full("c", 0, "INITIAL", [0.0], [1])), "a graph not subscribed")
        self.assertEqual(["a", "a"], [c["graphId"] for c in subs[("a", "s")][1]])
        self.assertEqual(["b", "b", "b"], [c["graphId"] for c in subs[("b", "s")][1]])

        views = {"a": View("a"), "b": View("b")}
        for c in chunks:
            p = Push([c])
            self.assertTrue(views[p.graph_id].apply(p))
            other = views["b" if p.graph_id == "a" else "a"]
            before = (dict(other.values), other.sequence, other.stale)
            self.assertFalse(other.apply(p), "a push of another graph is never applied")
            self.assertEqual(before, (dict(other.values), other.sequence, other.stale))
        self.assertEqual({1: 0.0, 2: 1.0, 3: 1.5}, views["a"].values)
        self.assertEqual({1: 0.0, 2: 3.0}, views["b"].values)
        self.assertEqual((1, 2), (views["a"].sequence, views["b"].sequence))
        unnamed = View()   # bound to the graph of the first push it applies
        for c in chunks:
            unnamed.apply(Push([c]))
        self.assertEqual(("a", {1: 0.0, 2: 1.0, 3: 1.5}), (unnamed.graph_id, unnamed.values))

    def test_mst_deltas_remove_then_add_forest_edges(self):
        view = View()
        view.apply(Push([push("INITIAL", 0, algorithm="MST", source=None, totalWeight=4.0, components=1,
                              mstEdges=codec.edge_batch([1, 2, 3], [2, 3, 4], [1.0, 2.0, 1.0]))]))
        self.assertEqual({(1, 2): 1.0, (2, 3): 2.0, (3, 4): 1.0}, view.forest)
        # a DELTA push in two chunks: one edge joined, one left (chunks of one edge)
        swap = Push([push("UPDATE", 1, True, algorithm="MST", source=None, totalWeight=5.0, components=1, chunkCount=1,
                          mstEdges=codec.edge_batch([3], [1], [3.0]), removedEdges=codec.edge_batch([3], [2]))])
        self.assertEqual([(3, 1, 3.0)], swap.mst_edges.tolist())
        self.assertEqual([(3, 2)], swap.removed_edges.tolist())
        self.assertTrue(view.apply(swap))
        self.assertEqual({(1, 2): 1.0, (1, 3): 3.0, (3, 4): 1.0}, view.forest)
        self.assertEqual((5.0, 1), (view.total_weight, view.components))

    def test_cc_deltas_overwrite_labels_and_name_the_splits_and_merges(self):
        view = View()
        view.apply(Push([push("INITIAL", 0, algorithm="CC", source=None, vertexCount=5, components=2,
                              largestComponent=3, labels=codec.pack_int32([1, 1, 1, 4, 4]))]))
        self.assertEqual({1: 1, 2: 1, 3: 1, 4: 4, 5: 4}, view.labels)
        self.assertEqual([], view.component_changes)
        # the bridge 2-3 goes (3 is cut off), then 3 is linked to 5, coalesced into one push of two chunks: the
        # changes spread over the chunks in order
        head = dict(algorithm="CC", source=None, vertexCount=5, components=2, largestComponent=3, chunkCount=2)
        d = Push([push("UPDATE", 1, True, vertices=codec.pack_int32([3, 4, 5]), labels=codec.pack_int32([3, 3, 3]),
                       componentChanges=[{"kind": "SPLIT", "label": 1, "parts": codec.pack_int32([1, 3])}], **head),
                  push("UPDATE", 1, True, chunkIndex=1, offset=3, vertices=codec.pack_int32([]),
                       labels=codec.pack_int32([]),
                       componentChanges=[{"kind": "MERGED", "label": 3, "parts": codec.pack_int32([3, 4])}], **head)])
        self.assertEqual([("SPLIT", 1, [1, 3]), ("MERGED", 3, [3, 4])], d.component_changes)
        self.assertEqual([3, 3, 3], d.labels.tolist())
        self.assertTrue(view.apply(d))
        self.assertEqual({1: 1, 2: 1, 3: 3, 4: 3, 5: 3}, view.labels)
        self.assertEqual((2, 3), (view.components, view.largest_component))
        self.assertEqual(d.component_changes, view.component_changes)


if __name__ == "__main__":
    unittest.main()
