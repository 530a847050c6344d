package org.frontiergraph.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import org.frontiergraph.client.JsonAnswer;

/**
 * An answer as a GeoJSON {@code FeatureCollection} (RFC 7946) of {@code LineString}s on the vertices' coordinates:
 * a path is one LineString from the source to the target (properties {@code source}, {@code target},
 * {@code distance} or {@code hops}, {@code vertices}); a BFS or SSSP tree one LineString per tree edge
 * {@code parent -> vertex} (properties {@code from}, {@code to} and the vertex's {@code distance} or {@code hops});
 * an MST one per forest edge ({@code u}, {@code v}, {@code weight}). A path of one vertex (the target is the
 * source) is a {@code Point}. Coordinates come from a DIMACS {@code .co} file ({@link Coordinates}).
 */
final class GeoJsonAnswer {
    private GeoJsonAnswer() {}

    static void write(AnswerRows rows, Coordinates coordinates, Writer out) throws IOException {
        var h = rows.head;
        try (JsonGenerator g = JsonAnswer.generator(out)) {
            g.writeStartObject();
            g.writeStringField("type", "FeatureCollection");
            g.writeArrayFieldStart("features");
            if (rows.isForest()) {
                for (int i = 0; i < rows.u.length; i++) {
                    feature(g, coordinates, new int[] {rows.u[i], rows.v[i]});
                    g.writeNumberField("u", rows.u[i]);
                    g.writeNumberField("v", rows.v[i]);
                    JsonAnswer.number(g, "weight", rows.weight[i]);
                    endFeature(g);
                }
            } else if (rows.path) {
                feature(g, coordinates, rows.vertex);
                g.writeNumberField("source", rows.vertex[0]);
                g.writeNumberField("target", rows.vertex[rows.vertex.length - 1]);
                JsonAnswer.number(g, rows.valueName(), rows.value[rows.value.length - 1]);
                g.writeArrayFieldStart("vertices");
                for (int v : rows.vertex) g.writeNumber(v);
                g.writeEndArray();
                endFeature(g);
            } else {
                for (int i = 0; i < rows.vertex.length; i++) {
                    int p = rows.parent[i], v = rows.vertex[i];
                    if (p < 0 || p == v || rows.value[i] == Double.POSITIVE_INFINITY) continue;
                    feature(g, coordinates, new int[] {p, v});
                    g.writeNumberField("from", p);
                    g.writeNumberField("to", v);
                    JsonAnswer.number(g, rows.valueName(), rows.value[i]);
                    endFeature(g);
                }
            }
            g.writeEndArray();
            g.writeObjectFieldStart("properties");   // foreign member, kept by most readers: what the answer is
            g.writeStringField("graphId", h.getGraphId());
            g.writeNumberField("graphVersion", h.getGraphVersion());
            g.writeStringField("algorithm", h.getAlgorithm().name());
            if (h.getSource() != null) g.writeNumberField("source", h.getSource());
            g.writeEndObject();
            g.writeEndObject();
            g.writeRaw('\n');
        }
        out.flush();
    }

    /** Opens a feature with its geometry and opens its properties. */
    private static void feature(JsonGenerator g, Coordinates coordinates, int[] vertices) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", "Feature");
        g.writeObjectFieldStart("geometry");
        if (vertices.length == 1) {
            g.writeStringField("type", "Point");
            g.writeFieldName("coordinates");
            position(g, coordinates.at(vertices[0]));
        } else {
            g.writeStringField("type", "LineString");
            g.writeArrayFieldStart("coordinates");
            for (int v : vertices) position(g, coordinates.at(v));
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeObjectFieldStart("properties");
    }

    private static void endFeature(JsonGenerator g) throws IOException {
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void position(JsonGenerator g, double[] lonLat) throws IOException {
        g.writeStartArray();
        g.writeNumber(lonLat[0]);
        g.writeNumber(lonLat[1]);
        g.writeEndArray();
    }
}
