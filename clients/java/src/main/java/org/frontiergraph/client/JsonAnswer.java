package org.frontiergraph.client;

import java.io.IOException;
import java.io.Writer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.List;
import java.util.function.Function;
import org.frontiergraph.schema.EdgeBatch;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.codec.PackedArrays;

/**
 * Writes a result as JSON in the user's vertex ids: {@code {"status":..., "graphVersion":..., "backend":...,
 * "distances": {"<id>": number|null}}} for SSSP, {@code "hops"} for BFS (with {@code "parents"} for both), and
 * {@code "totalWeight"}, {@code "components"}, {@code "edges"} for MST. Unreachable vertices are null.
 */
public final class JsonAnswer {
    private JsonAnswer() {}

    public static void write(List<QueryResult> chunks, Writer out) throws IOException {
        QueryResult h = chunks.get(0);
        out.write("{\"queryId\":" + str(h.getQueryId()) + ",\"graphId\":" + str(h.getGraphId())
                + ",\"status\":" + str(h.getStatus().name()) + ",\"graphVersion\":" + h.getGraphVersion()
                + ",\"backend\":" + str(h.getBackend())
                + ",\"algorithm\":" + (h.getAlgorithm() == null ? "null" : str(h.getAlgorithm().name())));
        if (h.getVariant() != null) out.write(",\"variant\":" + str(h.getVariant()));
        if (h.getSource() != null) out.write(",\"source\":" + h.getSource());
        if (h.getError() != null) out.write(",\"error\":" + str(h.getError()));
        if (h.getReachedCount() != null) out.write(",\"reached\":" + h.getReachedCount());
        if (h.getMaxHops() != null) out.write(",\"maxHops\":" + h.getMaxHops());
        if (h.getMaxDistance() != null) out.write(",\"maxDistance\":" + num(h.getMaxDistance()));
        if (h.getTotalWeight() != null) out.write(",\"totalWeight\":" + num(h.getTotalWeight()));
        if (h.getComponents() != null) out.write(",\"components\":" + h.getComponents());
        if (h.getHops() != null) {
            out.write(",\"hops\":{");
            vertexMap(chunks, out, c -> ids(PackedArrays.ints(c.getHops())));
            out.write('}');
        }
        if (h.getDistances() != null) {
            out.write(",\"distances\":{");
            vertexMap(chunks, out, c -> {
                DoubleBuffer d = PackedArrays.doubles(c.getDistances());
                return i -> num(d.get(i));
            });
            out.write('}');
        }
        if (h.getParents() != null) {
            out.write(",\"parents\":{");
            vertexMap(chunks, out, c -> ids(PackedArrays.ints(c.getParents())));
            out.write('}');
        }
        if (h.getMstEdges() != null) {
            out.write(",\"edges\":[");
            boolean firstEdge = true;
            for (QueryResult c : chunks) {
                EdgeBatch b = c.getMstEdges();
                IntBuffer s = PackedArrays.ints(b.getSources()), t = PackedArrays.ints(b.getTargets());
                DoubleBuffer w = PackedArrays.doubles(b.getWeights());
                for (int i = 0; i < s.limit(); i++) {
                    out.write((firstEdge ? "" : ",") + "[" + s.get(i) + "," + t.get(i) + "," + num(w.get(i)) + "]");
                    firstEdge = false;
                }
            }
            out.write(']');
        }
        out.write("}\n");
        out.flush();
    }

    /** One chunk's values of a vertex-indexed field, as JSON. */
    private interface Column {
        String at(int i);
    }

    /** Hop counts or vertex ids: negative (unreachable, none) is null. */
    private static Column ids(IntBuffer values) {
        return i -> {
            int x = values.get(i);
            return x < 0 ? "null" : Integer.toString(x);
        };
    }

    private static void vertexMap(List<QueryResult> chunks, Writer out, Function<QueryResult, Column> column) throws IOException {
        boolean first = true;
        for (QueryResult c : chunks) {
            int len = c.getParents() != null ? PackedArrays.intCount(c.getParents())
                    : c.getHops() != null ? PackedArrays.intCount(c.getHops()) : PackedArrays.doubleCount(c.getDistances());
            IntBuffer vertices = c.getVertices() == null ? null : PackedArrays.ints(c.getVertices());
            Column values = column.apply(c);
            for (int i = 0; i < len; i++) {
                int id = vertices != null ? vertices.get(i) : c.getFirstVertexId() + c.getOffset() + i;
                out.write((first ? "\"" : ",\"") + id + "\":" + values.at(i));
                first = false;
            }
        }
    }

    static String num(double d) {
        if (Double.isInfinite(d) || Double.isNaN(d)) return "null";
        if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
        return Double.toString(d);
    }

    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) sb.append(String.format("\\u%04x", (int) ch)); else sb.append(ch);
                }
            }
        }
        return sb.append('"').toString();
    }
}
