package org.frontiergraph.worker.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.frontiergraph.kernels.engine.GraphTooLargeException;
import org.frontiergraph.kernels.engine.UnsupportedVariantException;
import org.frontiergraph.kernels.graph.InvalidGraphException;
import org.frontiergraph.kernels.graph.WideGraphException;
import org.frontiergraph.schema.ErrorEvent;
import org.frontiergraph.schema.ResultStatus;
import org.frontiergraph.schema.codec.FrontierCodec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * One error vocabulary: every code the worker emits is documented in ErrorEvent.code's schema doc and in the
 * contract's table, and a code that fails a query is the ResultStatus of its QueryResult.
 */
class ErrorCodeTest {
    /** Upper-case words of five letters or more (codes; not APSP, GPU or NaN). */
    private static final Pattern CODE_LIKE = Pattern.compile("\\b[A-Z][A-Z_]{4,}\\b");

    private static Set<String> names() {
        return Stream.of(ErrorCode.values()).map(Enum::name).collect(Collectors.toSet());
    }

    @Test
    void theSchemaDocListsEveryCodeAndNoOther() {
        String doc = ErrorEvent.getClassSchema().getField("code").doc();
        for (ErrorCode c : ErrorCode.values()) {
            assertTrue(Pattern.compile("\\b" + c.name() + " \\(").matcher(doc).find(),
                    () -> c + " is not listed with its meaning in ErrorEvent.avsc's doc of code: " + doc);
        }
        Set<String> statuses = Stream.of(ResultStatus.values()).map(Enum::name).collect(Collectors.toSet());
        Matcher m = CODE_LIKE.matcher(doc);
        while (m.find()) {
            String word = m.group();
            assertTrue(names().contains(word) || statuses.contains(word), () -> "the doc names '" + word + "', not an ErrorCode");
        }
    }

    @Test
    void theContractTableListsEveryCodeAndNoOther() throws IOException {
        Path contract = Path.of("../docs/contract.md");
        Assumptions.assumeTrue(Files.isRegularFile(contract), "docs/contract.md not beside the worker module: skipped");
        List<String> rows = Files.readAllLines(contract, StandardCharsets.UTF_8).stream()
                .filter(l -> l.matches("\\| `[A-Z_]+` \\|.*")).toList();
        Set<String> tabled = rows.stream().map(l -> l.substring(3, l.indexOf('`', 3))).collect(Collectors.toSet());
        assertEquals(names(), tabled, "docs/contract.md's error-code table");
        for (String row : rows) {
            ErrorCode c = ErrorCode.valueOf(row.substring(3, row.indexOf('`', 3)));
            String[] cells = row.split("\\|");
            String status = cells[cells.length - 1].trim();
            assertEquals(c.resultStatus().map(s -> "`" + s.name() + "`").orElse(""), status,
                    () -> "the QueryResult.status column of " + c + " in docs/contract.md");
        }
    }

    @Test
    void aCodeThatFailsAQueryIsTheResultStatusOfTheSameName() {
        Set<ResultStatus> reached = EnumSet.noneOf(ResultStatus.class);
        for (ErrorCode c : ErrorCode.values()) {
            c.resultStatus().ifPresent(s -> {
                assertEquals(c.name(), s.name(), () -> c + " fails queries with status " + s);
                reached.add(s);
            });
        }
        assertEquals(EnumSet.complementOf(EnumSet.of(ResultStatus.OK)), reached,
                "every status but OK is the code of some failure");
        for (ErrorCode c : List.of(ErrorCode.UNKNOWN_GRAPH, ErrorCode.INVALID_VERTEX, ErrorCode.INVALID_QUERY,
                ErrorCode.UNSUPPORTED, ErrorCode.GRAPH_TOO_LARGE, ErrorCode.DEADLINE_EXCEEDED, ErrorCode.INTERNAL_ERROR)) {
            assertTrue(c.resultStatus().isPresent(), () -> "QueryService fails queries with " + c);
        }
    }

    @Test
    void theEngineExceptionsMapToTheirCodes() {
        assertEquals(ErrorCode.GRAPH_TOO_LARGE, ErrorCode.of(new GraphTooLargeException("too large")));
        assertEquals(ErrorCode.UNSUPPORTED, ErrorCode.of(new UnsupportedVariantException("BFS", "x", "cpu", List.of("a"))));
        assertEquals(ErrorCode.INVALID_VERTEX, ErrorCode.of(new InvalidGraphException(InvalidGraphException.Kind.INVALID_VERTEX, "v")));
        assertEquals(ErrorCode.INVALID_WEIGHT, ErrorCode.of(new InvalidGraphException(InvalidGraphException.Kind.INVALID_WEIGHT, "w")));
        assertEquals(ErrorCode.GRAPH_TOO_LARGE, ErrorCode.of(new InvalidGraphException(InvalidGraphException.Kind.TOO_LARGE, "t")));
        assertEquals(ErrorCode.GRAPH_TOO_LARGE, ErrorCode.of(new WideGraphException("CsrGraph.columns()", 1L << 31, "read pages()")));
        assertEquals(ErrorCode.INVALID_UPDATE, ErrorCode.of(new InvalidGraphException(InvalidGraphException.Kind.INVALID_EDGE, "e")));
        assertEquals(ErrorCode.MALFORMED_RECORD, ErrorCode.of(new FrontierCodec.MalformedMessageException("bad")));
        assertEquals(ErrorCode.STALE_VERSION, ErrorCode.of(new RejectedException(ErrorCode.STALE_VERSION, "old")));
        assertEquals(ErrorCode.INTERNAL_ERROR, ErrorCode.of(new IllegalStateException("bug")));
        assertEquals(ErrorCode.INTERNAL_ERROR, ErrorCode.of(new NullPointerException()));
    }
}
