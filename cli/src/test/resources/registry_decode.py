"""Reads registry-framed records from a Kafka topic with confluent-kafka's own Avro deserializer and schema registry
client (not Frontier's code), and prints the first record whose field FIELD equals VALUE as one line of JSON.

usage: registry_decode.py BOOTSTRAP TOPIC REGISTRY_URL FIELD VALUE
Bytes fields (packed arrays) are printed as hex. Exits 1 when no such record arrives within 60 s."""
import json
import sys
import time

from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.avro.cached_schema_registry_client import CachedSchemaRegistryClient
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer

bootstrap, topic, url, field, value = sys.argv[1:6]
serializer = MessageSerializer(CachedSchemaRegistryClient({"url": url}))
consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "registry-decode", "enable.auto.commit": False})
partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
consumer.assign([TopicPartition(topic, p, 0) for p in partitions])
deadline = time.time() + 60
while time.time() < deadline:
    message = consumer.poll(1.0)
    if message is None or message.error():
        continue
    record = serializer.decode_message(message.value())
    if str(record.get(field)) == value:
        print(json.dumps(record, default=lambda b: b.hex() if isinstance(b, bytes) else str(b)))
        consumer.close()
        sys.exit(0)
consumer.close()
sys.exit(1)
