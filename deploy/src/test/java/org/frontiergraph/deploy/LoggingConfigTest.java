package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker's logback.xml: with FRONTIER_LOG_FORMAT=json every line is a JSON object with a timestamp; otherwise
 * every line starts with an ISO-8601 date. Configured from the file itself, in a logger context of its own.
 */
class LoggingConfigTest {
    private static final String FILE = "worker/src/main/resources/logback.xml";

    /** What the configuration writes to standard output for an INFO line and a WARN with an exception. */
    private static List<String> log(String format) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            context.putProperty("FRONTIER_LOG_FORMAT", format);   // as the environment variable would
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(Repo.path(FILE).toFile());
            context.start();
            org.slf4j.Logger log = context.getLogger("org.frontiergraph.worker.Probe");
            log.info("graph '{}' version {} loaded: \"quoted\"", "ny", 2);
            log.warn("publishing failed", new IllegalStateException("broker gone"));
        } finally {
            context.stop();
            System.setOut(stdout);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void jsonLinesWithTimestamps() throws Exception {
        long before = System.currentTimeMillis();
        List<String> lines = log("json");
        long after = System.currentTimeMillis();
        assertEquals(2, lines.size(), "one line per event, the stack trace inside it: " + lines);
        JsonNode info = Repo.JSON.readTree(lines.get(0));
        assertTrue(info.path("timestamp").isNumber(), "timestamp: " + lines.get(0));
        long t = info.path("timestamp").asLong();
        assertTrue(t >= before && t <= after, "timestamp " + t + " is now (epoch milliseconds)");
        assertEquals("INFO", info.path("level").asText());
        assertEquals("org.frontiergraph.worker.Probe", info.path("loggerName").asText());
        assertEquals("graph 'ny' version 2 loaded: \"quoted\"", info.path("formattedMessage").asText());
        JsonNode warn = Repo.JSON.readTree(lines.get(1));
        assertEquals("WARN", warn.path("level").asText());
        assertEquals("broker gone", warn.path("throwable").path("message").asText());
    }

    @Test
    void textLinesStartWithADate() throws Exception {
        for (String format : List.of("text", "")) {
            List<String> lines = log(format);
            assertTrue(lines.get(0).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(Z|[+-]\\d{2}:\\d{2}) INFO .*"
                    + "graph 'ny' version 2 loaded.*"), "format '" + format + "': " + lines.get(0));
            assertTrue(lines.stream().anyMatch(l -> l.contains("IllegalStateException: broker gone")), "the stack trace");
        }
    }
}
