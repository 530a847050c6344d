package org.frontiergraph.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Named vertices numbered densely and named back (computed on by the engine: NamedTopologyTest in cli/). */
class VertexNamesTest {
    @Test
    void namesGetDenseIdsInFirstSeenOrderAndComeBack() {
        VertexNames n = new VertexNames(1);
        assertEquals(1, n.id("core-1"));
        assertEquals(2, n.id("10.0.0.2"));
        assertEquals(1, n.id("core-1"), "the same name, the same id");
        assertEquals(3, n.id("edge-7/eth0"));
        assertEquals(3, n.size());
        assertEquals("10.0.0.2", n.name(2));
        assertEquals(3, n.existingId("edge-7/eth0"));
        assertThrows(IllegalArgumentException.class, () -> n.existingId("nope"));
        assertThrows(IllegalArgumentException.class, () -> n.name(-1), "-1 (unreachable) names nothing");
        assertThrows(IllegalArgumentException.class, () -> n.name(4));
    }
}
