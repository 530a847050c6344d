package org.frontiergraph.cli;

import static org.frontiergraph.worker.support.Fixtures.chunk;
import static org.frontiergraph.worker.support.Fixtures.query;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.frontiergraph.schema.Algorithm;
import org.frontiergraph.schema.GraphQuery;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultMode;
import org.frontiergraph.worker.config.FrontierConfig;
import org.frontiergraph.worker.support.Fixtures;
import org.frontiergraph.worker.support.Fixtures.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes {@code query} prints, pinned: every algorithm in every format and mode it prints (JSON FULL, TARGETS,
 * SUMMARY and paths; CSV, DOT and GeoJSON rows, trees, forests and paths) on real worker answers of
 * {@link AnswerFormatsTest}'s graph in chunks of two vertices and one edge, against {@code answer-bytes.txt} (written
 * by the readers before they became generic per answer shape). On a difference the printed text is left in
 * {@code target/answer-bytes.actual} to compare.
 */
class AnswerBytesTest {
    @TempDir
    Path dir;

    @Test
    void everyFormatPrintsTheSameBytes() throws IOException {
        FrontierConfig config = Fixtures.cpuConfig();
        config.setResultChunkVertices(2);
        config.setResultChunkEdges(1);
        StringBuilder printed = new StringBuilder();
        try (Services services = Fixtures.start(config)) {
            services.install(List.of(chunk("small", 1, 0, 1, 6, 5, true, 1,
                    1, 2, 1.5, 2, 3, 2, 1, 3, 5, 3, 6, 0.25, 4, 5, 1)), 0);
            Path co = coordinates();
            for (Algorithm a : List.of(Algorithm.BFS, Algorithm.SSSP, Algorithm.MST, Algorithm.APSP, Algorithm.CC)) {
                String name = a.name().toLowerCase(java.util.Locale.ROOT);
                boolean tree = a == Algorithm.BFS || a == Algorithm.SSSP;
                Integer source = tree ? 1 : null;
                List<QueryResult> full = answer(services, query(name, "small", a, source).build());
                List<QueryResult> targets = answer(services, query(name + "-t", "small", a, source)
                        .setResultMode(ResultMode.TARGETS).setTargets(List.of(6, 5, 2)).build());
                List<QueryResult> summary = answer(services, query(name + "-s", "small", a, source)
                        .setResultMode(ResultMode.SUMMARY).build());
                String[] algo = tree ? new String[] {"--algorithm", name, "--source", "1"} : new String[] {"--algorithm", name};
                add(printed, full, algo);
                if (a != Algorithm.MST && a != Algorithm.APSP) add(printed, targets, with(algo, "--targets", "6,5,2"));
                add(printed, summary, with(algo, "--mode", "summary"));
                if (a == Algorithm.APSP) continue;
                add(printed, full, with(algo, "--format", "csv"));
                if (a != Algorithm.MST) add(printed, targets, with(algo, "--targets", "6,5,2", "--format", "csv"));
                if (a == Algorithm.CC) continue;
                add(printed, full, with(algo, "--format", "dot"));
                add(printed, full, with(algo, "--format", "geojson", "--coordinates", co.toString()));
                if (!tree) continue;
                add(printed, full, with(algo, "--path-to", "6"));
                add(printed, full, with(algo, "--path-to", "6", "--format", "csv"));
                add(printed, full, with(algo, "--path-to", "6", "--format", "dot"));
                add(printed, full, with(algo, "--path-to", "6", "--format", "geojson", "--coordinates", co.toString()));
                add(printed, full, with(algo, "--path-to", "1", "--format", "geojson", "--coordinates", co.toString()));
            }
        }
        String actual = printed.toString().replace(dir.toString(), "DIR");
        String expected;
        try (InputStream in = AnswerBytesTest.class.getResourceAsStream("/answer-bytes.txt")) {
            expected = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!expected.equals(actual)) {
            Path target = Path.of(Files.isDirectory(Path.of("target")) ? "target" : "cli/target");
            Files.writeString(target.resolve("answer-bytes.actual"), actual);
        }
        assertEquals(expected, actual, "the bytes query prints (target/answer-bytes.actual holds them)");
    }

    private static List<QueryResult> answer(Services services, GraphQuery q) {
        return services.queries().answer(q).chunks();
    }

    private static String[] with(String[] algo, String... more) {
        String[] all = java.util.Arrays.copyOf(algo, algo.length + more.length);
        System.arraycopy(more, 0, all, algo.length, more.length);
        return all;
    }

    /** What {@code query} prints for {@code options} on {@code chunks}, after a line naming the options. */
    private static void add(StringBuilder printed, List<QueryResult> chunks, String... options) throws IOException {
        String[] argv = with(new String[] {"query", "--graph", "small"}, options);
        QueryCommand q = (QueryCommand) FrontierCli.commandLine(System.out, System.err).parseArgs(argv)
                .subcommand().commandSpec().userObject();
        q.checkOptions();
        AnswerRows path = q.pathTo == null ? null : AnswerRows.of(chunks).pathTo(Integer.parseInt(q.pathTo));
        StringWriter out = new StringWriter();
        q.write(chunks, path, q.coordinatesFile == null ? null : Coordinates.read(q.coordinatesFile), out);
        printed.append("=== ").append(String.join(" ", options)).append('\n').append(out).append('\n');
    }

    private Path coordinates() throws IOException {
        StringBuilder co = new StringBuilder("c made for AnswerBytesTest\np aux sp co 6\n");
        for (int v = 1; v <= 6; v++) {
            co.append("v ").append(v).append(' ').append(10_000_000 + v * 100_000).append(' ').append(50_000_000 + v * 10_000).append('\n');
        }
        Path file = dir.resolve("small.co");
        Files.writeString(file, co);
        return file;
    }
}
