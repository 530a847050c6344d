"""The Python client through a schema registry: publishes a registry-framed update and a SUMMARY query with
frontier_client (confluent-kafka's SchemaRegistryClient registers their schemas) and prints the answer's summary as
one line of JSON, read back in either framing.

usage: registry_client.py CLIENTS_PYTHON_DIR BOOTSTRAP REGISTRY_URL GRAPH_ID"""
import json
import sys

sys.path.insert(0, sys.argv[1])
from frontier_client import FrontierClient  # noqa: E402
from frontier_client.registry import Serde  # noqa: E402

bootstrap, url, graph = sys.argv[2:5]
with FrontierClient(bootstrap, serde=Serde("registry", "registry", {"url": url})) as client:
    client.publish_update(graph, added=[(0, 1, 0.5)])
    answer = client.query(graph, "BFS", source=0, mode="SUMMARY", timeout=60)
    print(json.dumps(answer.summary()))
