package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.GraphSnapshotChunk;
import org.frontiergraph.schema.GraphStatus;
import org.frontiergraph.schema.GraphUpdate;
import org.frontiergraph.schema.LatencyEvent;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.Subscription;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.WorkerStatus;
import org.junit.jupiter.api.Test;

/**
 * docs/contract.md cannot drift from the schemas: its parse order lists every .avsc file and parses them with one
 * parser, in that order; its fingerprint table holds exactly the message types, each with the CRC-64-AVRO
 * fingerprint of its Parsing Canonical Form recomputed here from the files (the header bytes as on the wire, the
 * signed long, the hex FrontierCodec prints), equal to the generated classes' and to what {@link FrontierCodec}
 * writes.
 */
class ContractFingerprintsTest {
    static {
        // FrontierCodec bounds Avro's declared lengths, which Avro reads once, on first use: load it before this
        // class touches Avro, or FrontierCodecTest, later in the same JVM, finds the bounds unset
        FrontierCodec.trust();
    }

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    private static final Path AVRO = ROOT.resolve("src/main/avro");
    private static final Path CONTRACT = ROOT.resolve("../docs/contract.md").normalize();
    private static final String SECTION = "## Schemas: parse order and fingerprints";
    /** {@code | `QueryResult` | `QueryResult.avsc` | `c3 01 ...` | `-123` | `0x...` |} */
    private static final Pattern ROW = Pattern.compile(
            "^\\| `(\\w+)` \\| `([\\w/]+\\.avsc)` \\| `((?:[0-9a-f]{2} ){9}[0-9a-f]{2})` \\| `(-?\\d+)` \\| `([0-9a-f]{16})` \\|$");

    /** The message types: every record that travels alone, by its generated class. */
    private static final Map<String, Schema> GENERATED = Map.of(
            "GraphSnapshotChunk", GraphSnapshotChunk.getClassSchema(), "GraphUpdate", GraphUpdate.getClassSchema(),
            "GraphQuery", GraphQuery.getClassSchema(), "QueryResult", QueryResult.getClassSchema(),
            "LatencyEvent", LatencyEvent.getClassSchema(), "ErrorEvent", ErrorEvent.getClassSchema(),
            "GraphStatus", GraphStatus.getClassSchema(), "Subscription", Subscription.getClassSchema(),
            "WorkerStatus", WorkerStatus.getClassSchema());

    private static String section() throws IOException {
        String doc = Files.readString(CONTRACT, StandardCharsets.UTF_8);
        int at = doc.indexOf(SECTION);
        assertTrue(at >= 0, CONTRACT + " has no section '" + SECTION + "'");
        int end = doc.indexOf("\n## ", at + SECTION.length());
        return doc.substring(at, end < 0 ? doc.length() : end);
    }

    /** The files of the section's first fenced block, in order. */
    private static List<String> documentedParseOrder() throws IOException {
        String s = section();
        int open = s.indexOf("```");
        int body = s.indexOf('\n', open) + 1;
        int close = s.indexOf("```", body);
        assertTrue(open >= 0 && close > body, "the parse order is the section's first ``` block");
        return s.substring(body, close).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    /** The files in the documented order, parsed with one parser: each schema file's own type by file name. */
    private static Map<String, Schema> parseInDocumentedOrder() throws IOException {
        Schema.Parser parser = new Schema.Parser();
        Map<String, Schema> byFile = new LinkedHashMap<>();
        for (String file : documentedParseOrder()) byFile.put(file, parser.parse(AVRO.resolve(file).toFile()));
        return byFile;
    }

    @Test
    void theParseOrderListsEveryFileAndParses() throws IOException {
        Set<String> files;
        try (Stream<Path> all = Files.walk(AVRO)) {
            files = all.filter(p -> p.toString().endsWith(".avsc")).map(p -> AVRO.relativize(p).toString().replace('\\', '/'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        List<String> order = documentedParseOrder();
        assertEquals(files, new TreeSet<>(order), "the documented parse order must list every schema file once");
        assertEquals(files.size(), order.size(), "no file twice");
        int lastCommon = -1, firstMessage = order.size();
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).startsWith("common/")) lastCommon = i; else firstMessage = Math.min(firstMessage, i);
        }
        assertTrue(lastCommon < firstMessage, "common/ first: " + order);
        parseInDocumentedOrder();   // throws SchemaParseException ("undefined name") if a type came before its use
    }

    @Test
    void theFingerprintTableMatchesTheSchemas() throws IOException {
        Map<String, Schema> parsed = parseInDocumentedOrder();
        List<String> expected = new ArrayList<>();
        for (var e : parsed.entrySet()) {
            if (e.getKey().startsWith("common/")) continue;   // named types used inside messages, never alone on the wire
            Schema s = e.getValue();
            long fp = SchemaNormalization.parsingFingerprint64(s);
            assertEquals(fp, SchemaNormalization.parsingFingerprint64(GENERATED.get(s.getName())),
                    s.getName() + ": the file and the generated class differ (rebuild schemas/)");
            expected.add(row(s.getName(), e.getKey(), fp));
        }
        List<String> documented = new ArrayList<>();
        for (String line : section().lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) documented.add(line);
            else assertTrue(!line.startsWith("| `"), "a table row in an unexpected form: " + line);
        }
        assertEquals(expected, documented, "docs/contract.md's fingerprint table; the rows it should hold:\n"
                + String.join("\n", expected) + "\n");
        assertEquals(GENERATED.keySet(), new TreeSet<>(expected.stream().map(r -> r.split("`")[1]).toList()).stream()
                .collect(Collectors.toSet()), "one row per message type");
    }

    @Test
    void theCodecWritesTheDocumentedHeader() {
        GraphQuery q = GraphQuery.newBuilder().setQueryId("q").setGraphId("g").setAlgorithm(Algorithm.MST)
                .setResultMode(ResultMode.SUMMARY).build();
        byte[] message = FrontierCodec.encode(q);
        long fp = SchemaNormalization.parsingFingerprint64(GraphQuery.getClassSchema());
        byte[] header = new byte[10];
        System.arraycopy(message, 0, header, 0, 10);
        assertArrayEquals(headerBytes(fp), header);
    }

    /** {@code C3 01} and the fingerprint's eight bytes, little-endian: the first ten bytes of every message. */
    private static byte[] headerBytes(long fingerprint) {
        return ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0xC3).put((byte) 0x01).putLong(fingerprint).array();
    }

    private static String row(String type, String file, long fp) {
        StringBuilder hex = new StringBuilder();
        for (byte b : headerBytes(fp)) hex.append(hex.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%02x", b));
        return String.format(Locale.ROOT, "| `%s` | `%s` | `%s` | `%d` | `%016x` |", type, file, hex, fp, fp);
    }
}
