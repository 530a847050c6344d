package org.frontiergraph.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.schema.GraphState;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.worker.kafka.GraphPartitioner;

/**
 * The graphs a cluster holds, as its status topic tells: the last GraphStatus of each graph id (a graph's statuses
 * share its key, so one partition, in publication order), those DROPPED left out unless asked for. The partition is
 * the graphs topic's that holds the graph's log: {@link GraphPartitioner} (Kafka's default partitioner), as every Frontier
 * publisher uses (docs/contract.md, "Ordering").
 */
final class GraphTable {
    private static final String[] COLUMNS = {"GRAPH", "VERSION", "UPDATED (UTC)", "VERTICES", "EDGES", "BACKEND", "RESIDENT",
            "PARTITION", "WORKER", "STATE"};

    /** One graph: its last status, and the partition of the graphs topic its log is in (-1: unknown). */
    record Row(GraphStatus status, int partition) {}

    private GraphTable() {}

    /**
     * The last status of each graph, sorted by id (a REJECTED one does not replace the status of the version held
     * before); DROPPED ones, and graphs only ever REJECTED, only when {@code dropped}.
     */
    static List<Row> rows(List<GraphStatus> statuses, boolean dropped, int graphPartitions) {
        Map<String, GraphStatus> last = new LinkedHashMap<>();
        for (GraphStatus s : statuses) {   // a refused version leaves the version held before current
            if (s.getState() != GraphState.REJECTED || !last.containsKey(s.getGraphId())) last.put(s.getGraphId(), s);
        }
        List<Row> rows = new ArrayList<>();
        for (GraphStatus s : last.values()) {
            if ((s.getState() == GraphState.DROPPED || s.getState() == GraphState.REJECTED) && !dropped) continue;
            rows.add(new Row(s, GraphPartitioner.partitionOf(s.getGraphId(), graphPartitions)));
        }
        rows.sort((a, b) -> a.status().getGraphId().compareTo(b.status().getGraphId()));
        return rows;
    }

    /** A table with a header, columns aligned; "no graphs" when empty. */
    static void writeTable(List<Row> rows, Writer out) throws IOException {
        if (rows.isEmpty()) {
            out.write("no graphs\n");
            out.flush();
            return;
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(COLUMNS);
        for (Row r : rows) {
            GraphStatus s = r.status();
            lines.add(new String[] {s.getGraphId(), Long.toString(s.getVersion()), time(s.getTimestampMs()),
                    Integer.toString(s.getVertexCount()), Long.toString(s.getEdgeCount()), s.getBackend(),
                    String.format(Locale.ROOT, "%.1f MB", s.getResidentBytes() / 1e6),
                    r.partition() < 0 ? "?" : Integer.toString(r.partition()), s.getWorker(), s.getState().name()});
        }
        int[] width = new int[COLUMNS.length];
        for (String[] l : lines) for (int i = 0; i < l.length; i++) width[i] = Math.max(width[i], l[i].length());
        for (String[] l : lines) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                if (i > 0) b.append("  ");
                b.append(l[i]);
                if (i < l.length - 1) b.append(" ".repeat(width[i] - l[i].length()));
            }
            out.write(b.append('\n').toString());
        }
        out.flush();
    }

    /** A JSON array, one object per graph: the GraphStatus fields, {@code updated} (ISO-8601) and {@code partition}. */
    static void writeJson(List<Row> rows, Writer out) throws IOException {
        try (JsonGenerator g = JsonAnswer.generator(out)) {
            g.writeStartArray();
            for (Row r : rows) {
                GraphStatus s = r.status();
                g.writeStartObject();
                g.writeStringField("graphId", s.getGraphId());
                g.writeNumberField("version", s.getVersion());
                g.writeStringField("state", s.getState().name());
                g.writeNumberField("timestampMs", s.getTimestampMs());
                g.writeStringField("updated", Instant.ofEpochMilli(s.getTimestampMs()).toString());
                g.writeNumberField("vertexCount", s.getVertexCount());
                g.writeNumberField("edgeCount", s.getEdgeCount());
                g.writeStringField("backend", s.getBackend());
                g.writeNumberField("residentBytes", s.getResidentBytes());
                g.writeNumberField("partition", r.partition());
                g.writeStringField("worker", s.getWorker());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        out.write('\n');
        out.flush();
    }

    private static String time(long ms) {
        return Instant.ofEpochMilli(ms).toString().replace('T', ' ').replaceFirst("\\.\\d+Z$", "").replace("Z", "");
    }
}
