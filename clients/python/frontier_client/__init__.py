"""Python client of Frontier's Kafka message contract (docs/contract.md).

Needs confluent-kafka (librdkafka, with lz4), avro and numpy: on Debian, ``apt-get install python3-confluent-kafka
python3-avro python3-numpy``. Nothing is fetched at run time; the Avro schemas are this package's own copy
(``frontier_client/schemas``, kept equal to ``schemas/src/main/avro`` by a test).
"""

from .client import (CHUNK_EDGES, Edges, Follower, FrontierClient, FrontierError, Published, PublishError, Topics,
                     as_edges, named_edges)
from .codec import MalformedRecord, decode, encode
from .result import MST_EDGE, Result
from .subscription import EDGE_PAIR, Push, View

__all__ = ["CHUNK_EDGES", "EDGE_PAIR", "Edges", "Follower", "FrontierClient", "FrontierError", "MST_EDGE",
           "MalformedRecord", "Published", "PublishError", "Push", "Result", "Topics", "View", "as_edges", "decode",
           "encode", "named_edges"]
