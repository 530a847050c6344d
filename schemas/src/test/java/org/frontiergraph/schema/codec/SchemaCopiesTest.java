package org.frontiergraph.schema.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schemas build's step ({@code src/main/build/SchemaCopies.java}, run as the build runs it, with the source
 * launcher) on copies of the real folders: it copies the schemas, keeps the previous schema of every message whose
 * fingerprint changes in history/ with the next number, empties the generated classes' folder when they were
 * generated from other schemas (so that every class embedding a changed type is generated again), and a second
 * run changes no file.
 */
class SchemaCopiesTest {
    static {
        FrontierCodec.trust();
    }

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();

    @Test
    void aChangedFingerprintKeepsThePreviousSchemaAndASecondRunChangesNothing(@TempDir Path tmp) throws Exception {
        Path avro = tmp.resolve("avro"), copies = tmp.resolve("client/schemas"), history = tmp.resolve("history");
        copyTree(ROOT.resolve("src/main/avro"), avro);
        copyTree(ROOT.resolve("src/main/resources/org/frontiergraph/schema/history"), history);
        Files.createDirectories(copies.getParent());

        generate(tmp);
        run(avro, copies, history);   // first build: the copies are made, nothing was published before
        assertEquals(files(avro), files(copies));
        assertTrue(Files.notExists(tmp.resolve("generated")), "classes of unknown schemas are generated again");
        generate(tmp);
        Map<String, String> historyBefore = files(history);
        Map<String, String> all = snapshot(tmp);
        run(avro, copies, history);
        assertEquals(all, snapshot(tmp), "a second run changes no file");

        Map<String, Long> published = fingerprints(copies);
        Path algorithm = avro.resolve("common/Algorithm.avsc");
        String text = Files.readString(algorithm);
        assertTrue(text.contains("\"APSP\""), text);
        Files.writeString(algorithm, text.replace("\"APSP\"", "\"APSP\", \"NEW_ONE\""));   // a new symbol

        run(avro, copies, history);
        assertEquals(files(avro), files(copies), "the copies follow the schemas");
        assertTrue(Files.notExists(tmp.resolve("generated")), "the classes are generated again");
        generate(tmp);
        Map<String, String> added = new TreeMap<>(files(history));
        added.keySet().removeAll(historyBefore.keySet());
        // the messages that use Algorithm: the next number of each, holding what was published before
        Map<String, Long> expected = new TreeMap<>();
        for (String type : new String[] {"GraphQuery", "LatencyEvent", "QueryResult", "Subscription"}) {
            int next = (int) historyBefore.keySet().stream().filter(f -> f.startsWith(type + "-")).count() + 1;
            expected.put(type + "-" + next + ".avsc", published.get(type + ".avsc"));
        }
        Map<String, Long> kept = new TreeMap<>();
        for (String f : added.keySet()) kept.put(f, SchemaNormalization.parsingFingerprint64(new Schema.Parser().parse(added.get(f))));
        assertEquals(expected, kept);

        all = snapshot(tmp);
        run(avro, copies, history);
        assertEquals(all, snapshot(tmp), "a second run after the change changes no file");
    }

    private static void run(Path avro, Path copies, Path history) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dslf4j.internal.verbosity=ERROR", "-cp", System.getProperty("java.class.path"),
                ROOT.resolve("src/main/build/SchemaCopies.java").toString(), avro.toString(), copies.toString(), history.toString(),
                avro.resolveSibling("generated").toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }

    /** What avro-maven-plugin does after the step: a class in the generated folder. */
    private static void generate(Path tmp) throws IOException {
        Path generated = Files.createDirectories(tmp.resolve("generated/org/frontiergraph/schema"));
        Files.writeString(generated.resolve("GraphQuery.java"), "// generated");
    }

    /** The fingerprint of each message schema of a schemas folder, by file name. */
    private static Map<String, Long> fingerprints(Path dir) throws IOException {
        Schema.Parser parser = new Schema.Parser();
        try (Stream<Path> common = Files.list(dir.resolve("common"))) {
            for (Path f : common.sorted().toList()) parser.parse(f.toFile());
        }
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> messages = Files.list(dir)) {
            for (Path f : messages.filter(Files::isRegularFile).sorted().toList()) {
                out.put(f.getFileName().toString(), SchemaNormalization.parsingFingerprint64(parser.parse(f.toFile())));
            }
        }
        return out;
    }

    /** Every file under {@code dir}: relative path to content. */
    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) out.put(dir.relativize(f).toString(), Files.readString(f));
        }
        return out;
    }

    /** Every file under {@code dir} with its content and modification time. */
    private static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                out.put(dir.relativize(f).toString(), Files.getLastModifiedTime(f) + " " + Files.readString(f));
            }
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path f : all.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target);
            }
        }
    }
}
