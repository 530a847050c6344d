package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.Map;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.junit.jupiter.api.Test;

/**
 * The choice of framing and what is refused without a registry. Registry framing itself is tested against a real
 * registry (cli's RegistryFramingIT).
 */
class FrontierSerdeTest {
    static {
        FrontierCodec.trust();   // before the first record is built: Avro reads the codec's length bounds once
    }

    static final GraphQuery QUERY = GraphQuery.newBuilder().setQueryId("q").setGraphId("g").setAlgorithm(Algorithm.BFS)
            .setSource(0).build();

    @Test
    void framingsAreNamedAsInTheSettings() {
        assertEquals(Framing.REGISTRY, Framing.of(" Registry "));
        assertEquals(Framing.SINGLE_OBJECT, Framing.of("single-object"));
        var e = assertThrows(IllegalArgumentException.class, () -> Framing.of("confluent"));
        assertTrue(e.getMessage().contains("[single-object, registry]"), e.getMessage());
    }

    @Test
    void singleObjectBothWaysNeedsNoRegistry() throws Exception {
        FrontierSerde serde = FrontierSerde.fromClientSettings(Map.of());
        assertSame(FrontierSerde.singleObject(), serde);
        byte[] bytes = serde.encode("frontier.graphs", QUERY);
        assertArrayEquals(FrontierCodec.encode(QUERY), bytes);
        assertEquals(QUERY, serde.decode(bytes, GraphQuery.class));
    }

    @Test
    void registryFramingWithoutARegistryIsRefusedAtOnce() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> FrontierSerde.fromClientSettings(Map.of(FrontierSerde.READ, "registry")));
        assertTrue(e.getMessage().contains("schema.registry.url"), e.getMessage());
        var source = assertThrows(IllegalArgumentException.class, () -> FrontierSerde.of("registry", "registry",
                Map.of(FrontierSerde.URL, "http://registry:8081", FrontierSerde.CREDENTIALS_SOURCE, "SASL_INHERIT")));
        assertTrue(source.getMessage().contains("basic.auth.user.info"), source.getMessage());
    }

    @Test
    void aSingleObjectReaderRefusesRegistryFramingAndSaysWhichSettingReadsIt() {
        byte[] framed = {0, 0, 0, 0, 7, 2, 'q', 2, 'g', 0, 0};
        var e = assertThrows(FrontierCodec.MalformedMessageException.class, () -> FrontierSerde.singleObject().decode(framed));
        assertTrue(e.getMessage().contains("schema-registry framing") && e.getMessage().contains("frontier.serialization.read"),
                e.getMessage());
    }

    @Test
    void aRegistryOutOfReachIsAnErrorThatNamesIt() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }   // closed: nothing listens there
        String url = "http://127.0.0.1:" + port;
        FrontierSerde serde = FrontierSerde.of("registry", "registry", Map.of(FrontierSerde.URL, url));
        var write = assertThrows(SchemaRegistryClient.RegistryException.class, () -> serde.encode("frontier.graphs", QUERY));
        assertTrue(write.getMessage().contains("frontier.graphs-value") && write.getMessage().contains(url), write.getMessage());
        var read = assertThrows(SchemaRegistryClient.RegistryException.class, () -> serde.decode(new byte[] {0, 0, 0, 0, 9, 0}));
        assertTrue(read.getMessage().contains("schema id 9"), read.getMessage());
        // a single-object record needs no registry, whatever the reader's framing
        assertEquals(QUERY, serde.decode(FrontierCodec.encode(QUERY)));
        var shortHeader = assertThrows(FrontierCodec.MalformedMessageException.class, () -> serde.decode(new byte[] {0, 1}));
        assertTrue(shortHeader.getMessage().contains("5-byte"), shortHeader.getMessage());
    }
}
