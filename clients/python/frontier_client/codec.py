"""The wire format of docs/contract.md, written from the contract alone.

* Avro single-object encoding: ``C3 01``, the 8-byte little-endian CRC-64-AVRO fingerprint of the writer
  schema's Parsing Canonical Form, then the Avro binary body. The fingerprint names the record type.
* Packed arrays: Avro ``bytes`` holding little-endian int32 (4 bytes an element) or float64 (8 bytes).
* Compact arrays (QueryResult's ``compact*`` fields, DELTA pushes): a form byte, the element count as a varint, then
  the elements (contract, "Compact arrays"); :func:`expand_compact` turns them into the packed fields.

The schemas are this package's own copy of ``schemas/src/main/avro`` (``frontier_client/schemas``); a test
checks that the copy equals the originals. Named types defined in ``common/`` are inlined where they are first
used, as the Java classes generated from the same files inline them, so that both sides compute the same
fingerprints.
"""

import io
import json
import struct
from pathlib import Path

import avro.io
import avro.schema
import numpy as np

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
MAGIC = b"\xc3\x01"
HEADER_BYTES = 10

#: The record types of the contract, by simple name.
RECORD_TYPES = ("GraphSnapshotChunk", "GraphUpdate", "GraphQuery", "Subscription", "QueryResult", "LatencyEvent",
                "ErrorEvent", "GraphStatus", "WorkerStatus")

_PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}


class MalformedRecord(ValueError):
    """A value that is not a Frontier record: not single-object encoded, unknown fingerprint, bad body."""


# ---------------------------------------------------------------------------------------------- fingerprints

_CRC64_EMPTY = 0xC15D213AA4D7A795


def _crc64_table():
    table = []
    for i in range(256):
        fp = i
        for _ in range(8):
            fp = (fp >> 1) ^ (_CRC64_EMPTY & -(fp & 1))
        table.append(fp)
    return table


_CRC64_TABLE = _crc64_table()


def crc64_avro(data: bytes) -> int:
    """The CRC-64-AVRO fingerprint (Avro specification, "Schema Fingerprints") of ``data``, as an unsigned int."""
    fp = _CRC64_EMPTY
    for b in data:
        fp = (fp >> 8) ^ _CRC64_TABLE[(fp ^ b) & 0xFF]
    return fp


def _fullname(name, namespace):
    if "." in name or not namespace:
        return name
    return namespace + "." + name


def canonical_form(schema, named, namespace=None, seen=None):
    """Parsing Canonical Form (Avro specification) of a schema given as parsed JSON, as a JSON-able object.

    ``named`` maps full names to the JSON of named types defined in other files (``common/``); a reference to
    one is replaced by its definition the first time it is met and by its full name afterwards, as if the
    definition had been written there. Keeps only name, type, fields, symbols, items, values and size, in that
    order (so doc, default, aliases and namespace go; names become full names).
    """
    if seen is None:
        seen = set()
    if isinstance(schema, str):
        if schema in _PRIMITIVES:
            return schema
        full = _fullname(schema, namespace)
        if full in seen:
            return full
        if full not in named:
            raise ValueError("unknown named type " + full)
        return canonical_form(named[full], named, namespace, seen)
    if isinstance(schema, list):
        return [canonical_form(s, named, namespace, seen) for s in schema]
    t = schema["type"]
    if t in ("record", "error", "enum", "fixed"):
        full = _fullname(schema["name"], schema.get("namespace", namespace))
        if full in seen:
            return full
        seen.add(full)
        inner_ns = full.rpartition(".")[0] or None
        out = {"name": full, "type": t}
        if t in ("record", "error"):
            out["fields"] = [{"name": f["name"], "type": canonical_form(f["type"], named, inner_ns, seen)}
                             for f in schema["fields"]]
        elif t == "enum":
            out["symbols"] = list(schema["symbols"])
        else:
            out["size"] = int(schema["size"])
        return out
    if t == "array":
        return {"type": "array", "items": canonical_form(schema["items"], named, namespace, seen)}
    if t == "map":
        return {"type": "map", "values": canonical_form(schema["values"], named, namespace, seen)}
    # {"type": "int"} or {"type": "SomeNamedType"}
    return canonical_form(t, named, namespace, seen)


def canonical_json(schema, named) -> str:
    return json.dumps(canonical_form(schema, named), separators=(",", ":"), ensure_ascii=False)


# -------------------------------------------------------------------------------------------------- schemas

class RecordType:
    """One record type of the contract: its source JSON, canonical form, fingerprint and Avro reader/writer."""

    def __init__(self, name, source_json, named):
        self.name = name
        self.source = source_json
        self.canonical = canonical_json(source_json, named)
        self.fingerprint = crc64_avro(self.canonical.encode("utf-8"))
        self.header = MAGIC + struct.pack("<Q", self.fingerprint)
        # the canonical form is itself a schema: encode and decode with exactly what was fingerprinted
        self.schema = avro.schema.parse(self.canonical)
        self._writer = avro.io.DatumWriter(self.schema)
        self._reader = avro.io.DatumReader(self.schema, self.schema)
        self._defaults = {f["name"]: f["default"] for f in source_json["fields"] if "default" in f}
        self.named = named

    def encode(self, datum: dict) -> bytes:
        """Single-object encoding of ``datum``; fields left out take their schema default."""
        full = dict(self._defaults)
        full.update(datum)
        buf = io.BytesIO()
        buf.write(self.header)
        self._writer.write(full, avro.io.BinaryEncoder(buf))
        return buf.getvalue()

    def with_defaults(self, datum: dict) -> dict:
        """``datum`` with the fields it leaves out at their schema default."""
        full = dict(self._defaults)
        full.update(datum)
        return full

    def decode_body(self, body) -> dict:
        return self._reader.read(avro.io.BinaryDecoder(io.BytesIO(body)))


def _load_schemas(directory=SCHEMA_DIR):
    named = {}
    for f in sorted((directory / "common").glob("*.avsc")):
        j = json.loads(f.read_text(encoding="utf-8"))
        named[_fullname(j["name"], j.get("namespace"))] = j
    types = {}
    for name in RECORD_TYPES:
        j = json.loads((directory / (name + ".avsc")).read_text(encoding="utf-8"))
        types[name] = RecordType(name, j, named)
    return types


TYPES = _load_schemas()
_BY_FINGERPRINT = {t.fingerprint: t for t in TYPES.values()}


def encode(type_name: str, datum: dict) -> bytes:
    """Encodes ``datum`` (a dict of the record's fields; bytes for packed arrays) as ``type_name``."""
    return TYPES[type_name].encode(datum)


def type_of(value: bytes):
    """The record type named by a value's fingerprint (no body decoding), or raises MalformedRecord."""
    if value is None or len(value) < HEADER_BYTES:
        raise MalformedRecord("shorter than the 10-byte single-object header")
    if value[:1] == b"\x00":
        raise MalformedRecord("schema-registry framing (first byte 0x00), not Avro single-object encoding: read it with "
                              "frontier_client.registry.Serde(read='registry', ...)")
    if value[:2] != MAGIC:
        raise MalformedRecord("not Avro single-object encoded (no C3 01 marker)")
    fp = struct.unpack_from("<Q", value, 2)[0]
    t = _BY_FINGERPRINT.get(fp)
    if t is None:
        raise MalformedRecord("unknown schema fingerprint %016x" % fp)
    return t


def decode(value: bytes):
    """Decodes a single-object encoded value: returns ``(type_name, record_dict)``."""
    t = type_of(value)
    try:
        return t.name, t.decode_body(memoryview(value)[HEADER_BYTES:].tobytes())
    except Exception as e:   # truncated or otherwise unreadable body
        raise MalformedRecord("cannot decode %s body: %s" % (t.name, e)) from e


# ---------------------------------------------------------------------------------------------- packed arrays

def pack_int32(values) -> bytes:
    """Packs vertex ids (any int sequence or array) as little-endian int32; rejects values that do not fit."""
    a = np.asarray(values)
    if a.size == 0:
        return b""
    if a.dtype.kind not in "iu":
        if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.all(a == np.floor(a)):
            a = a.astype(np.int64)
        else:
            raise TypeError("vertex ids must be integers, got dtype %s" % a.dtype)
    if a.min() < -2**31 or a.max() >= 2**31:
        raise ValueError("vertex id out of the int32 range")
    return np.ascontiguousarray(a.ravel(), dtype="<i4").tobytes()


def pack_float64(values) -> bytes:
    a = np.asarray(values, dtype="<f8").ravel()
    return a.tobytes()


def unpack_int32(data) -> np.ndarray:
    """A read-only little-endian int32 view of a packed field (None or empty: an empty array)."""
    if not data:
        return np.zeros(0, dtype="<i4")
    if len(data) % 4:
        raise MalformedRecord("packed int32 field of %d bytes is not a whole number of elements" % len(data))
    return np.frombuffer(data, dtype="<i4")


def unpack_float64(data) -> np.ndarray:
    if not data:
        return np.zeros(0, dtype="<f8")
    if len(data) % 8:
        raise MalformedRecord("packed float64 field of %d bytes is not a whole number of elements" % len(data))
    return np.frombuffer(data, dtype="<f8")


def edge_batch(sources, targets, weights=None) -> dict:
    """An EdgeBatch record: parallel packed arrays; ``weights`` None or empty means every weight is 1."""
    s, t = pack_int32(sources), pack_int32(targets)
    if len(s) != len(t):
        raise ValueError("sources and targets differ in length (%d and %d edges)" % (len(s) // 4, len(t) // 4))
    w = b"" if weights is None else pack_float64(weights)
    if w and len(w) // 8 != len(s) // 4:
        raise ValueError("weights has %d elements for %d edges" % (len(w) // 8, len(s) // 4))
    return {"sources": s, "targets": t, "weights": w}


# ---------------------------------------------------------------------------------------------- compact arrays

#: The per-vertex arrays with a compact form: (field, float64?, the values are vertex ids).
COMPACT_ARRAYS = (("hops", False, False), ("labels", False, True), ("distances", True, False), ("parents", False, True))
#: Forms of a compact array (its first byte).
RAW, VALUES, GAPS, FROM_VERTEX = range(4)


def _compact_field(field):
    return "compact" + field[0].upper() + field[1:]


def _varints(data):
    """The unsigned LEB128 varints that fill ``data`` exactly, as a uint64 array."""
    b = np.frombuffer(data, dtype=np.uint8)
    if b.size == 0:
        return np.zeros(0, dtype=np.uint64)
    ends = np.flatnonzero(b < 0x80)
    if ends.size == 0 or ends[-1] != b.size - 1:
        raise MalformedRecord("a compact array ends inside a varint")
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends - starts + 1
    if lengths.max() > 10:
        raise MalformedRecord("a varint longer than 10 bytes in a compact array")
    pos = np.arange(b.size) - np.repeat(starts, lengths)
    parts = (b & 0x7F).astype(np.uint64) << (7 * pos).astype(np.uint64)
    return np.bitwise_or.reduceat(parts, starts)


def _unzigzag(u):
    return (u >> np.uint64(1)).astype(np.int64) ^ -(u & np.uint64(1)).astype(np.int64)


def unpack_compact(data, real, at=None) -> np.ndarray:
    """The elements of a compact array: float64 when ``real``, else int32; ``at``: the vertex at each position
    (needed by the FROM_VERTEX form only)."""
    data = bytes(data)
    if not data:
        raise MalformedRecord("an empty compact array (no form byte)")
    form, p, n, shift = data[0], 1, 0, 0
    while True:
        if p >= len(data) or shift > 63:
            raise MalformedRecord("a compact array's element count is cut short")
        x = data[p]
        p += 1
        n |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            break
    body = data[p:]
    if form == RAW:
        width = 8 if real else 4
        if len(body) != n * width:
            raise MalformedRecord("a raw compact array of %d elements in %d bytes" % (n, len(body)))
        return np.frombuffer(body, dtype="<f8" if real else "<i4").copy()
    if form not in (VALUES, GAPS, FROM_VERTEX) or (real and form == FROM_VERTEX):
        raise MalformedRecord("a compact array of unknown form %d" % form)
    u = _varints(body)
    if u.size != n:
        raise MalformedRecord("a compact array declares %d elements and holds %d" % (n, u.size))
    if real:
        inf = u == 0
        v = _unzigzag(np.where(inf, np.uint64(1), u) - np.uint64(1))
        if form == GAPS:
            v = np.cumsum(np.where(inf, 0, v))
        out = v.astype("<f8")
        out[inf] = np.inf
        return out
    v = _unzigzag(u)
    if form == GAPS:
        v = np.cumsum(v)
    elif form == FROM_VERTEX:
        if at is None or len(at) < n:
            raise MalformedRecord("a compact array relative to its vertices, without them")
        v = v + np.asarray(at[:n], dtype=np.int64)
    if v.size and (v.min() < -2**31 or v.max() >= 2**31):
        raise MalformedRecord("a compact int32 array holds a value out of range")
    return v.astype("<i4")


def expand_compact(chunk: dict) -> dict:
    """``chunk`` (a decoded QueryResult) with its compact fields turned into the packed ones, in place; returned."""
    listed = chunk.get("compactVertices")
    if listed is not None:
        chunk["vertices"] = unpack_compact(listed, False).tobytes()
        chunk["compactVertices"] = None
    at = None
    for field, real, ids in COMPACT_ARRAYS:
        c = chunk.get(_compact_field(field))
        if c is None:
            continue
        if ids and at is None:
            if chunk.get("vertices") is not None:
                at = unpack_int32(chunk["vertices"])
            else:
                at = np.arange(len(c), dtype=np.int64) + chunk.get("firstVertexId", 0) + chunk.get("offset", 0)
        chunk[field] = unpack_compact(c, real, at if ids else None).tobytes()
        chunk[_compact_field(field)] = None
    return chunk
