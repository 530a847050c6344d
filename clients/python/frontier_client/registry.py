"""Registry framing (docs/contract.md, "Framing"): the schema registry wire format, byte 0x00, the schema's 4-byte
big-endian id in a registry, then the Avro body, as Confluent's serializers write it.

A :class:`Serde` reads and writes in the framing a deployment chose, per direction, as the worker's
``frontier.serialization.read`` / ``.write``: writing ``registry`` registers each record type's schema under the
topic-name strategy's subject ``<topic>-value`` (once; ids are cached); reading ``registry`` takes both framings, as the
first byte tells, so a pipeline can move producer by producer. The registry is spoken to through confluent-kafka's
own ``SchemaRegistryClient`` (Debian's python3-confluent-kafka, which needs python3-requests), configured as
confluent-kafka configures it: ``{"url": ..., "basic.auth.user.info": "user:password"}``.
"""

import io
import json
import struct

import avro.io
import avro.schema

from . import codec

SINGLE_OBJECT = "single-object"
REGISTRY = "registry"
_FRAMINGS = (SINGLE_OBJECT, REGISTRY)


def _inline(schema, named, seen):
    """The JSON schema with each named type it references written out at its first use (as Java's Schema.toString)."""
    if isinstance(schema, str):
        full = schema if "." in schema else "org.frontiergraph.schema." + schema
        if full in named and full not in seen:
            seen.add(full)
            return _inline(named[full], named, seen)
        return schema
    if isinstance(schema, list):
        return [_inline(s, named, seen) for s in schema]
    if isinstance(schema, dict):
        out = dict(schema)
        if out.get("type") == "record":
            seen.add(codec._fullname(out["name"], out.get("namespace")))
            out["fields"] = [dict(f, type=_inline(f["type"], named, seen)) for f in out["fields"]]
        elif out.get("type") in ("array", "map"):
            key = "items" if out["type"] == "array" else "values"
            out[key] = _inline(out[key], named, seen)
        elif isinstance(out.get("type"), (dict, list)):
            out["type"] = _inline(out["type"], named, seen)
        return out
    return schema


class Serde:
    """Encodes and decodes Frontier records in a chosen framing: ``read`` and ``write`` are ``'single-object'``
    (the default: no registry) or ``'registry'``; ``registry`` is confluent-kafka's SchemaRegistryClient configuration
    (``{"url": ...}``), needed when either is ``'registry'``."""

    def __init__(self, read=SINGLE_OBJECT, write=SINGLE_OBJECT, registry=None):
        for name, framing in (("read", read), ("write", write)):
            if framing not in _FRAMINGS:
                raise ValueError("unknown %s serialization %r: expected one of %s" % (name, framing, list(_FRAMINGS)))
        self.read, self.write = read, write
        self._client = None
        if REGISTRY in (read, write):
            if not registry or not registry.get("url"):
                raise ValueError("registry framing needs the schema registry's configuration: {'url': ...}")
            from confluent_kafka.schema_registry import SchemaRegistryClient
            self._client = SchemaRegistryClient(dict(registry))
        self._ids = {}       # (subject, type name) -> schema id
        self._readers = {}   # schema id -> (type name, DatumReader)
        self._full = {}      # type name -> the full schema (defaults included) as JSON text

    def _schema_json(self, name):
        if name not in self._full:
            t = codec.TYPES[name]
            self._full[name] = json.dumps(_inline(t.source, t.named, set()))
        return self._full[name]

    def encode(self, topic, type_name, datum):
        """``datum`` (a dict of the record's fields) as ``type_name``, a record for ``topic``, in the write framing."""
        if self.write == SINGLE_OBJECT:
            return codec.encode(type_name, datum)
        from confluent_kafka.schema_registry import Schema
        key = (topic + "-value", type_name)
        if key not in self._ids:
            self._ids[key] = self._client.register_schema(key[0], Schema(self._schema_json(type_name), "AVRO"))
        buf = io.BytesIO()
        buf.write(b"\x00" + struct.pack(">I", self._ids[key]))
        t = codec.TYPES[type_name]
        avro.io.DatumWriter(t.schema).write(t.with_defaults(datum), avro.io.BinaryEncoder(buf))
        return buf.getvalue()

    def decode(self, value):
        """``(type_name, record_dict)`` of a record in either framing (registry framing only when reading it)."""
        if self.read == SINGLE_OBJECT or value is None or value[:1] != b"\x00":
            return codec.decode(value)
        if len(value) < 5:
            raise codec.MalformedRecord("shorter than the 5-byte schema-registry header")
        schema_id = struct.unpack_from(">I", value, 1)[0]
        if schema_id not in self._readers:
            writer = avro.schema.parse(self._client.get_schema(schema_id).schema_str)
            name = writer.name
            if name not in codec.TYPES:
                raise codec.MalformedRecord("schema id %d is %s, not a Frontier record type" % (schema_id, writer.fullname))
            reader = avro.schema.parse(self._schema_json(name))
            self._readers[schema_id] = (name, avro.io.DatumReader(writer, reader))
        name, reader = self._readers[schema_id]
        try:
            return name, reader.read(avro.io.BinaryDecoder(io.BytesIO(memoryview(value)[5:].tobytes())))
        except Exception as e:   # truncated or otherwise unreadable body
            raise codec.MalformedRecord("cannot decode registry-framed %s body: %s" % (name, e)) from e
