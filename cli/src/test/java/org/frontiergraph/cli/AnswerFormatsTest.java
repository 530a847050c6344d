package org.frontiergraph.cli;

import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.frontiergraph.client.JsonAnswer;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.PackedArrays;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code query --path-to} and {@code --format csv|dot|geojson} on real worker answers (the worker's services wired
 * without Kafka), read back structurally. The graph (ids 1..6, directed): 1->2 (1.5), 2->3 (2), 1->3 (5), 3->6 (0.25),
 * 4->5 (1); from 1, vertices 4 and 5 are unreachable. Answers come in chunks of two vertices / one edge, so every
 * writer must join chunks.
 */
class AnswerFormatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Services services;

    AnswerFormatsTest() {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(2);
        config.setResultChunkEdges(1);
        services = Fixtures.start(config);
        services.install(List.of(chunk("small", 1, 0, 1, 6, 5, true, 1,
                1, 2, 1.5, 2, 3, 2, 1, 3, 5, 3, 6, 0.25, 4, 5, 1)), 0);
    }

    @AfterEach
    void close() {
        services.close();
    }

    private List<QueryResult> answer(GraphQuery q) {
        List<QueryResult> chunks = services.queries().answer(q).chunks();
        assertEquals(ResultStatus.OK, chunks.get(0).getStatus(), chunks.get(0).getError());
        return chunks;
    }

    private List<QueryResult> sssp() {
        return answer(query("s", "small", Algorithm.SSSP, 1).build());
    }

    private List<QueryResult> bfs() {
        return answer(query("b", "small", Algorithm.BFS, 1).build());
    }

    private List<QueryResult> mst() {
        return answer(query("m", "small", Algorithm.MST, null).build());
    }

    @Test
    void pathFollowsTheParentsFromTheSource() {
        AnswerRows p = AnswerRows.of(sssp()).pathTo(6);
        assertTrue(p.path);
        assertArrayEquals(new int[] {1, 2, 3, 6}, p.vertex, "1 -1.5-> 2 -2-> 3 -0.25-> 6 (3.75) beats 1 -5-> 3 -> 6");
        assertArrayEquals(new double[] {0, 1.5, 3.5, 3.75}, p.value);
        assertArrayEquals(new int[] {1, 1, 2, 3}, p.parent);

        AnswerRows hops = AnswerRows.of(bfs()).pathTo(6);
        assertArrayEquals(new int[] {1, 3, 6}, hops.vertex, "BFS: fewest hops, through the direct arc 1->3");
        assertArrayEquals(new double[] {0, 1, 2}, hops.value);

        assertArrayEquals(new int[] {1}, AnswerRows.of(sssp()).pathTo(1).vertex, "the source's path is itself");
    }

    @Test
    void pathToAnUnreachableOrUnknownVertexFails() {
        CliFailure unreachable = assertThrows(CliFailure.class, () -> AnswerRows.of(sssp()).pathTo(5));
        assertEquals("--path-to 5: not reachable from 1 in graph 'small' version 1", unreachable.getMessage());
        CliFailure outside = assertThrows(CliFailure.class, () -> AnswerRows.of(bfs()).pathTo(7));
        assertEquals("--path-to 7: no such vertex in graph 'small' version 1 (ids 1..6)", outside.getMessage());
    }

    /** A hand-made FULL answer: ids 10..14 (first id 10), source 10; parents given, distances 0 or 1 unless unreachable. */
    private static List<QueryResult> handMade(int[] parents) {
        double[] d = new double[parents.length];
        for (int i = 0; i < d.length; i++) d[i] = parents[i] < 0 ? Double.POSITIVE_INFINITY : i == 0 ? 0 : i;
        return List.of(QueryResult.newBuilder().setQueryId("h").setGraphId("g").setGraphVersion(3)
                .setAlgorithm(Algorithm.SSSP).setStatus(ResultStatus.OK).setVertexCount(parents.length).setFirstVertexId(10)
                .setSource(10).setDistances(PackedArrays.pack(d, 0, d.length))
                .setParents(PackedArrays.pack(parents, 0, parents.length)).build());
    }

    @Test
    void pathOnAKnownParentsArray() {
        // 10 is the source; 12's parent 11, 11's parent 10; 14's parent 12; 13 unreachable
        List<QueryResult> chunks = handMade(new int[] {10, 10, 11, -1, 12});
        assertArrayEquals(new int[] {10, 11, 12, 14}, AnswerRows.of(chunks).pathTo(14).vertex);
        assertArrayEquals(new int[] {10, 11}, AnswerRows.of(chunks).pathTo(11).vertex);
        assertThrows(CliFailure.class, () -> AnswerRows.of(chunks).pathTo(13));
    }

    @Test
    void brokenParentsAreReportedNotLoopedOn() {
        // 11 and 12 are each other's parents: the walk from 12 never reaches the source 10
        List<QueryResult> cycle = handMade(new int[] {10, 12, 11, -1, -1});
        CliFailure e = assertThrows(CliFailure.class, () -> AnswerRows.of(cycle).pathTo(12));
        assertTrue(e.getMessage().contains("do not lead back to 10"), e.getMessage());
        List<QueryResult> outside = handMade(new int[] {10, 99, -1, -1, -1});
        assertTrue(assertThrows(CliFailure.class, () -> AnswerRows.of(outside).pathTo(11)).getMessage().contains("parent 99"));
    }

    @Test
    void jsonPathNamesTargetDistanceAndVertices() throws IOException {
        AnswerRows p = AnswerRows.of(sssp()).pathTo(6);
        StringWriter out = new StringWriter();
        JsonAnswer.writePath(p.head, p.vertex, p.valueName(), p.value[p.value.length - 1], out);
        JsonNode j = JSON.readTree(out.toString());
        assertEquals(6, j.get("target").asInt());
        assertEquals(1, j.get("source").asInt());
        assertEquals(3.75, j.get("distance").asDouble());
        assertEquals(List.of(1, 2, 3, 6), ints(j.get("path")));
        assertFalse(j.has("distances"));
    }

    @Test
    void csvHasOneRowPerVertexWithEmptyFieldsForUnreachable() throws IOException {
        List<String[]> rows = csv(AnswerRows.of(sssp()));
        assertArrayEquals(new String[] {"vertex", "distance", "parent"}, rows.get(0));
        assertEquals(7, rows.size(), "header + 6 vertices from 3 chunks");
        Map<String, String[]> byVertex = new HashMap<>();
        for (String[] r : rows.subList(1, rows.size())) {
            assertEquals(3, r.length, String.join(",", r));
            byVertex.put(r[0], r);
        }
        assertArrayEquals(new String[] {"1", "0", "1"}, byVertex.get("1"));
        assertArrayEquals(new String[] {"3", "3.5", "2"}, byVertex.get("3"));
        assertArrayEquals(new String[] {"6", "3.75", "3"}, byVertex.get("6"));
        assertArrayEquals(new String[] {"5", "", ""}, byVertex.get("5"));

        List<String[]> bfs = csv(AnswerRows.of(bfs()));
        assertArrayEquals(new String[] {"vertex", "hops", "parent"}, bfs.get(0));
        assertArrayEquals(new String[] {"3", "1", "1"}, bfs.get(3));

        List<String[]> path = csv(AnswerRows.of(sssp()).pathTo(6));
        assertEquals(List.of("1", "2", "3", "6"), path.subList(1, path.size()).stream().map(r -> r[0]).toList());

        List<String[]> mst = csv(AnswerRows.of(mst()));
        assertArrayEquals(new String[] {"u", "v", "weight"}, mst.get(0));
        Set<String> edges = new HashSet<>();
        for (String[] r : mst.subList(1, mst.size())) edges.add(r[0] + "-" + r[1] + ":" + r[2]);
        assertEquals(Set.of("1-2:1.5", "2-3:2", "3-6:0.25", "4-5:1"), edges);
    }

    @Test
    void csvOfTargetsListsThemInTheQuerysOrder() throws IOException {
        List<QueryResult> chunks = answer(query("t", "small", Algorithm.SSSP, 1).setResultMode(ResultMode.TARGETS)
                .setTargets(List.of(6, 4, 2)).build());
        List<String[]> rows = csv(AnswerRows.of(chunks));
        assertEquals(List.of("6", "4", "2"), rows.subList(1, rows.size()).stream().map(r -> r[0]).toList());
        assertArrayEquals(new String[] {"4", "", ""}, rows.get(2));
    }

    private static final Pattern ARC = Pattern.compile("^\\s*(\\d+) (->|--) (\\d+)(?: \\[label=\"([^\"]*)\"\\])?;$");

    @Test
    void dotHasTheTreeEdgesWithTheirWeights() throws IOException {
        String dot = write(AnswerRows.of(sssp()), OutputFormat.DOT);
        assertTrue(dot.startsWith("digraph \"small\" {\n") && dot.endsWith("}\n"), dot);
        assertEquals(Map.of("1->2", "1.5", "2->3", "2", "3->6", "0.25"), arcs(dot), "tree edges, unreached 4 and 5 left out");
        assertTrue(dot.contains("  1 [shape=doublecircle];"), dot);

        assertEquals(Map.of("1->3", "", "3->6", ""), arcs(write(AnswerRows.of(bfs()).pathTo(6), OutputFormat.DOT)),
                "a BFS path: its two arcs, no labels");
        String mst = write(AnswerRows.of(mst()), OutputFormat.DOT);
        assertTrue(mst.startsWith("graph \"small\" {"), mst);
        assertEquals(Map.of("1--2", "1.5", "2--3", "2", "3--6", "0.25", "4--5", "1"), arcs(mst));
    }

    @Test
    void dotQuotesTheGraphName() {
        assertEquals("\"a \\\"b\\\" \\\\ c\"", DotAnswer.quote("a \"b\" \\ c"));
    }

    /** A DIMACS .co file for the six vertices: vertex i at (10 + i/10, 50 + i/100) degrees. */
    private Path coordinates(int... missing) throws IOException {
        StringBuilder co = new StringBuilder("c made for AnswerFormatsTest\np aux sp co 6\n");
        for (int v = 1; v <= 6; v++) {
            final int id = v;
            if (java.util.Arrays.stream(missing).anyMatch(m -> m == id)) continue;
            co.append("v ").append(v).append(' ').append(10_000_000 + v * 100_000).append(' ').append(50_000_000 + v * 10_000).append('\n');
        }
        Path file = dir.resolve("small.co");
        Files.writeString(file, co);
        return file;
    }

    @Test
    void geojsonIsAFeatureCollectionOfLineStringsOnTheCoordinates() throws IOException {
        Coordinates co = Coordinates.read(coordinates());
        JsonNode tree = JSON.readTree(geojson(AnswerRows.of(sssp()), co));
        assertEquals("FeatureCollection", tree.get("type").asText());
        Set<String> edges = new HashSet<>();
        for (JsonNode f : tree.get("features")) {
            assertEquals("Feature", f.get("type").asText());
            assertEquals("LineString", f.get("geometry").get("type").asText());
            JsonNode c = f.get("geometry").get("coordinates");
            assertEquals(2, c.size());
            int from = f.get("properties").get("from").asInt(), to = f.get("properties").get("to").asInt();
            assertPosition(from, c.get(0));
            assertPosition(to, c.get(1));
            edges.add(from + "->" + to);
        }
        assertEquals(Set.of("1->2", "2->3", "3->6"), edges);

        JsonNode path = JSON.readTree(geojson(AnswerRows.of(sssp()).pathTo(6), co));
        assertEquals(1, path.get("features").size(), "a path is one LineString");
        JsonNode line = path.get("features").get(0);
        assertEquals("LineString", line.get("geometry").get("type").asText());
        assertEquals(List.of(1, 2, 3, 6), ints(line.get("properties").get("vertices")));
        assertEquals(3.75, line.get("properties").get("distance").asDouble());
        for (int i = 0; i < 4; i++) assertPosition(List.of(1, 2, 3, 6).get(i), line.get("geometry").get("coordinates").get(i));

        JsonNode forest = JSON.readTree(geojson(AnswerRows.of(mst()), co));
        assertEquals(4, forest.get("features").size());
        for (JsonNode f : forest.get("features")) assertEquals("LineString", f.get("geometry").get("type").asText());
    }

    @Test
    void geojsonNamesAVertexWithoutCoordinates() throws IOException {
        Coordinates co = Coordinates.read(coordinates(3));
        CliFailure e = assertThrows(CliFailure.class, () -> geojson(AnswerRows.of(sssp()).pathTo(6), co));
        assertTrue(e.getMessage().startsWith("vertex 3 has no coordinates in "), e.getMessage());
    }

    @Test
    void coordinateFilesAreCheckedLineByLine() throws IOException {
        Path bad = dir.resolve("bad.co");
        Files.writeString(bad, "p aux sp co 2\nv 1 100 200\nv 2 x 3\n");
        CliFailure e = assertThrows(CliFailure.class, () -> Coordinates.read(bad));
        assertTrue(e.getMessage().endsWith("line 3: expected integers in 'v ID X Y', got 'v 2 x 3'"), e.getMessage());
        Path gz = dir.resolve("small.co.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(coordinates()));
        }
        assertArrayEquals(new double[] {10.6, 50.06}, Coordinates.read(gz).at(6), 1e-9);
    }

    /** What {@code query} prints for its options, on a real answer: each format through the command's own dispatch. */
    private String printed(List<QueryResult> chunks, String... options) throws IOException {
        String[] argv = new String[options.length + 3];
        argv[0] = "query";
        argv[1] = "--graph";
        argv[2] = "small";
        System.arraycopy(options, 0, argv, 3, options.length);
        QueryCommand q = (QueryCommand) FrontierCli.commandLine(System.out, System.err).parseArgs(argv)
                .subcommand().commandSpec().userObject();
        q.checkOptions();
        AnswerRows path = q.pathTo == null ? null : AnswerRows.of(chunks).pathTo(Integer.parseInt(q.pathTo));
        StringWriter out = new StringWriter();
        q.write(chunks, path, q.coordinatesFile == null ? null : Coordinates.read(q.coordinatesFile), out);
        return out.toString();
    }

    @Test
    void theQueryCommandPrintsEachFormat() throws IOException {
        String co = coordinates().toString();
        JsonNode full = JSON.readTree(printed(sssp(), "--algorithm", "sssp", "--source", "1"));
        assertEquals(6, full.get("distances").size());
        JsonNode path = JSON.readTree(printed(sssp(), "--algorithm", "sssp", "--source", "1", "--path-to", "6"));
        assertEquals(List.of(1, 2, 3, 6), ints(path.get("path")));
        assertEquals(3.75, path.get("distance").asDouble());
        assertEquals("vertex,hops,parent\n1,0,1\n3,1,1\n6,2,3\n",
                printed(bfs(), "--algorithm", "bfs", "--source", "1", "--path-to", "6", "--format", "csv"));
        assertEquals(Map.of("1--2", "1.5", "2--3", "2", "3--6", "0.25", "4--5", "1"),
                arcs(printed(mst(), "--algorithm", "mst", "--format", "dot")));
        JsonNode geo = JSON.readTree(printed(sssp(), "--algorithm", "sssp", "--source", "1", "--path-to", "3",
                "--format", "geojson", "--coordinates", co));
        assertEquals("LineString", geo.get("features").get(0).get("geometry").get("type").asText());
        assertEquals(3, geo.get("features").get(0).get("geometry").get("coordinates").size());
    }

    /**
     * CC on the small graph (arcs taken as undirected): {1, 2, 3, 6} labeled 1 and {4, 5} labeled 4, in chunks of two
     * vertices: JSON with the counts and a label per vertex, CSV {@code vertex,label}, TARGETS in the order asked,
     * SUMMARY the counts alone.
     */
    @Test
    void ccPrintsLabelsAsJsonAndCsv() throws IOException {
        List<QueryResult> full = answer(query("c", "small", Algorithm.CC, null).build());
        assertEquals(3, full.size(), "6 vertices in chunks of 2");
        JsonNode j = JSON.readTree(printed(full, "--algorithm", "cc"));
        assertEquals("CC", j.get("algorithm").asText());
        assertEquals(2, j.get("components").asInt());
        assertEquals(4, j.get("largestComponent").asInt());
        Map<String, Integer> labels = new HashMap<>();
        j.get("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asInt()));
        assertEquals(Map.of("1", 1, "2", 1, "3", 1, "4", 4, "5", 4, "6", 1), labels);
        assertEquals("vertex,label\n1,1\n2,1\n3,1\n4,4\n5,4\n6,1\n", printed(full, "--algorithm", "cc", "--format", "csv"));

        List<QueryResult> targets = answer(query("t", "small", Algorithm.CC, null).setResultMode(ResultMode.TARGETS)
                .setTargets(List.of(6, 5, 2)).build());
        assertEquals("vertex,label\n6,1\n5,4\n2,1\n",
                printed(targets, "--algorithm", "cc", "--targets", "6,5,2", "--format", "csv"));
        JsonNode t = JSON.readTree(printed(targets, "--algorithm", "cc", "--targets", "6,5,2"));
        assertEquals(List.of("6", "5", "2"), iterable(t.get("labels").fieldNames()));
        assertFalse(t.has("components"), "TARGETS: the labels asked for only");

        JsonNode summary = JSON.readTree(printed(answer(query("s", "small", Algorithm.CC, null)
                .setResultMode(ResultMode.SUMMARY).build()), "--algorithm", "cc", "--mode", "summary"));
        assertEquals(2, summary.get("components").asInt());
        assertEquals(4, summary.get("largestComponent").asInt());
        assertFalse(summary.has("labels"));
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    private static void assertPosition(int vertex, JsonNode lonLat) {
        assertEquals(10 + vertex / 10.0, lonLat.get(0).asDouble(), 1e-9, "longitude of " + vertex);
        assertEquals(50 + vertex / 100.0, lonLat.get(1).asDouble(), 1e-9, "latitude of " + vertex);
    }

    private static String write(AnswerRows rows, OutputFormat format) throws IOException {
        StringWriter out = new StringWriter();
        if (format == OutputFormat.DOT) DotAnswer.write(rows, out);
        else CsvAnswer.write(rows, out);
        return out.toString();
    }

    private static String geojson(AnswerRows rows, Coordinates co) throws IOException {
        StringWriter out = new StringWriter();
        GeoJsonAnswer.write(rows, co, out);
        return out.toString();
    }

    private static List<String[]> csv(AnswerRows rows) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String line : write(rows, OutputFormat.CSV).split("\n", -1)) {
            if (!line.isEmpty()) out.add(line.split(",", -1));
        }
        return out;
    }

    /** "u->v" (or "u--v") to its label ("" when none); fails on a line that is neither an arc nor expected. */
    private static Map<String, String> arcs(String dot) {
        Map<String, String> arcs = new HashMap<>();
        for (String line : dot.split("\n")) {
            Matcher m = ARC.matcher(line);
            if (m.matches()) arcs.put(m.group(1) + m.group(2) + m.group(3), m.group(4) == null ? "" : m.group(4));
            else assertTrue(line.endsWith("{") || line.equals("}") || line.trim().startsWith("//") || line.contains("[shape="), line);
        }
        return arcs;
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        array.forEach(x -> out.add(x.asInt()));
        return out;
    }
}
