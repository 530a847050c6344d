package org.frontiergraph.worker.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Ids with line breaks cannot forge log lines: rendered through the worker's own logback.xml (text and JSON), a
 * line that quotes such an id, directly or inside an exception's message, stays one line.
 */
class LogSafeTest {
    static final String FORGED = "2026-01-01T00:00:00.000Z ERROR [main] x - forged";
    static final String HOSTILE_ID = "q1\n" + FORGED;

    /** What the worker's logback.xml writes to standard output for what {@code body} logs. */
    static List<String> render(String format, Consumer<org.slf4j.Logger> body) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            context.putProperty("FRONTIER_LOG_FORMAT", format);
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(LogSafeTest.class.getResource("/logback.xml"));
            context.start();
            body.accept(context.getLogger("org.frontiergraph.worker.processing.GraphEventProcessor"));
        } finally {
            context.stop();
            System.setOut(stdout);
        }
        assertTrue(context.getStatusManager().getCopyOfStatusList().stream().noneMatch(s -> s.getLevel() >= 2),
                () -> "logback.xml has errors: " + context.getStatusManager().getCopyOfStatusList());
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void aQuotedIdWithALineBreakStaysOnOneTextLine() throws Exception {
        List<String> lines = render("text", log ->
                log.warn("query {} on graph {} ({}): {}", LogSafe.quote(HOSTILE_ID), LogSafe.quote("g\r\n"), "t-0@1", "UNKNOWN_GRAPH"));
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(lines.get(0).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) WARN .*"), lines.get(0));
        assertTrue(lines.get(0).contains("query 'q1\\n" + FORGED + "' on graph 'g\\r\\n'"), lines.get(0));
    }

    @Test
    void anUnquotedIdIsEscapedByThePatternToo() throws Exception {
        // a message that forgot LogSafe, and an exception whose message quotes the id: still no forged line
        List<String> lines = render("text", log -> {
            log.warn("rejected (key {}): {}", HOSTILE_ID, "reason naming '" + HOSTILE_ID + "'\u2028\u0085\u001b[31m");
            log.error("failed", new IllegalStateException("no graph '" + HOSTILE_ID + "'",
                    new RuntimeException("cause " + HOSTILE_ID)));
        });
        assertEquals(2, lines.stream().filter(l -> l.matches("\\d{4}-\\d{2}-\\d{2}T.*")).count(), "two events: " + lines);
        for (String l : lines) assertFalse(l.startsWith(FORGED.substring(0, 10)), "a forged line: " + lines);
        for (String l : lines) assertFalse(l.contains("\u2028") || l.contains("\u0085") || l.contains("\u001b"), l);
        assertTrue(lines.get(0).contains("key q1\\n" + FORGED + ")"), lines.get(0));
        assertTrue(lines.get(0).endsWith("\\u2028\\u0085\\u001b[31m"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" - failed"), lines.get(1));
        assertEquals("java.lang.IllegalStateException: no graph 'q1\\n" + FORGED + "'", lines.get(2));
        assertTrue(lines.stream().anyMatch(l -> l.equals("Caused by: java.lang.RuntimeException: cause q1\\n" + FORGED)), lines.toString());
        for (String l : lines.subList(3, lines.size())) {
            assertTrue(l.startsWith("\t") || l.startsWith("Caused by: "), "a stack trace line: " + l);
        }
    }

    @Test
    void jsonKeepsEveryEventOnOneLine() throws Exception {
        List<String> lines = render("json", log -> {
            log.warn("subscription {} on graph {} ends", LogSafe.quote(HOSTILE_ID), LogSafe.quote("g"));
            log.warn("rejected (key {})", HOSTILE_ID, new IllegalStateException("boom " + HOSTILE_ID));
        });
        assertEquals(2, lines.size(), "one line per event: " + lines);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertEquals("subscription 'q1\\n" + FORGED + "' on graph 'g' ends", first.path("formattedMessage").asText());
        JsonNode second = json.readTree(lines.get(1));
        assertEquals("rejected (key " + HOSTILE_ID + ")", second.path("formattedMessage").asText(), "JSON escapes it itself");
        assertEquals("boom " + HOSTILE_ID, second.path("throwable").path("message").asText());
    }

    @Test
    void quoteEscapesAndCuts() {
        assertEquals("'abc'", LogSafe.quote("abc"));
        assertEquals("null", LogSafe.quote(null));
        assertEquals("'a\\nb\\r\\tc\\u0000\\u2028\\'\\\\'", LogSafe.quote("a\nb\r\tc\u0000\u2028'\\"));
        String longId = "x".repeat(600_000);
        String q = LogSafe.quote(longId);
        assertEquals("'" + "x".repeat(LogSafe.MAX_CHARS) + "'...(600000 chars)", q);
        String surrogates = "a".repeat(LogSafe.MAX_CHARS - 1) + "\uD83D\uDE00";   // a code point across the cut
        assertEquals("'" + "a".repeat(LogSafe.MAX_CHARS - 1) + "'...(201 chars)", LogSafe.quote(surrogates));
        String plain = "graph 'ny' version 2";
        assertSame(plain, LogSafe.escapeControls(plain), "nothing to escape: the same string");
        assertEquals("a\tb\\nc", LogSafe.escapeControls("a\tb\nc"), "a tab stays");
    }
}
