import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaFormatter;
import org.apache.avro.SchemaNormalization;

/**
 * A step of the schemas build (schemas/pom.xml runs it with the source launcher, {@code java SchemaCopies.java},
 * before the resources are copied): keeps the schemas' copies and their history in step with
 * {@code src/main/avro}.
 * <ol>
 *   <li><b>History.</b> For every message schema whose fingerprint differs from the one of the last copy made (the
 *       Python client's, which the worker and clients published until now), that copy goes to {@code history/} as
 *       {@code <Type>-<n>.avsc} (the next n; self-contained, named types inlined), unless a history file of that type
 *       has its fingerprint already. FrontierCodec reads every history file, so records written before the change
 *       still decode.</li>
 *   <li><b>Copies.</b> Every {@code .avsc} of {@code src/main/avro} is copied, byte for byte, into the Python client's
 *       {@code frontier_client/schemas/}; copies of files that are gone are removed.</li>
 * </ol>
 * A file is written only when its bytes change, so a second build changes nothing. Where the Python client is not in
 * the tree (an image's build context) there is nothing to compare with or copy to, and these two steps do nothing.
 *
 * <p>It runs before avro-maven-plugin and empties the plugin's output folder when the schemas' fingerprints differ
 * from those the classes there were generated from (noted beside it, in {@code <folder>.fingerprints}): the plugin
 * regenerates only the classes of changed files, but every message class embeds the named types it uses (a new
 * {@code Algorithm} symbol changes {@code GraphQuery}'s class schema too).
 *
 * <p>Arguments: the schemas folder ({@code src/main/avro}), the copies folder, the history folder, the generated
 * classes' folder.
 */
public final class SchemaCopies {
    private static final Pattern HISTORY_FILE = Pattern.compile("(\\w+)-(\\d+)\\.avsc");

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: SchemaCopies AVRO_DIR COPIES_DIR HISTORY_DIR GENERATED_DIR");
        }
        Path avro = Path.of(args[0]), copies = Path.of(args[1]), history = Path.of(args[2]), generated = Path.of(args[3]);
        List<String> changes = new ArrayList<>();
        regenerateWhenChanged(avro, generated, changes);
        if (Files.isDirectory(copies.getParent())) {
            snapshotChanged(avro, copies, history, changes);
            copy(avro, copies, changes);
        } else {
            changes.add(copies.getParent() + " is not here: no copies made, no history kept");
        }
        for (String c : changes) System.out.println("[schemas] " + c);
    }

    /**
     * Empties {@code generated} (avro-maven-plugin's output) unless its classes were generated from schemas of the
     * current fingerprints, and notes those beside it.
     */
    static void regenerateWhenChanged(Path avro, Path generated, List<String> changes) throws IOException {
        StringBuilder now = new StringBuilder();
        for (Map.Entry<String, Schema> e : messages(avro).entrySet()) {
            now.append(String.format("%s %016x%n", e.getKey(), SchemaNormalization.parsingFingerprint64(e.getValue())));
        }
        Path stamp = generated.resolveSibling(generated.getFileName() + ".fingerprints");
        if (Files.exists(stamp) && Files.readString(stamp).contentEquals(now)) return;
        if (Files.isDirectory(generated)) {
            try (Stream<Path> stale = Files.walk(generated)) {
                for (Path p : stale.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
            changes.add("emptied " + generated + ": its classes were generated from other schemas");
        }
        Files.createDirectories(stamp.getParent());
        Files.writeString(stamp, now);
    }

    /** Writes to history/ the last copy of each message schema whose fingerprint changed since. */
    static void snapshotChanged(Path avro, Path copies, Path history, List<String> changes) throws IOException {
        if (!Files.isDirectory(copies)) return;   // no copy yet: nothing was published from here
        Map<String, Schema> now = messages(avro);
        Map<String, Schema> before = messages(copies);
        for (Map.Entry<String, Schema> e : before.entrySet()) {
            Schema current = now.get(e.getKey());
            if (current == null) continue;   // a message type removed: its history stays as it is
            long was = SchemaNormalization.parsingFingerprint64(e.getValue());
            if (was == SchemaNormalization.parsingFingerprint64(current)) continue;
            String type = e.getValue().getName();
            if (historyHas(history, type, was)) continue;
            Files.createDirectories(history);
            Path file = history.resolve(type + "-" + (lastIndex(history, type) + 1) + ".avsc");
            Files.writeString(file, SchemaFormatter.format("json/pretty", e.getValue()), StandardCharsets.UTF_8);
            changes.add(String.format("%s changed fingerprint (was %016x): the previous schema kept as %s", type, was, file));
        }
    }

    /**
     * The message schemas of a schemas folder (its top-level files), parsed as docs/contract.md says: common/ first,
     * then the messages, with one parser.
     */
    static Map<String, Schema> messages(Path dir) throws IOException {
        Schema.Parser parser = new Schema.Parser();
        for (Path common : sorted(dir.resolve("common"))) parser.parse(common.toFile());
        Map<String, Schema> byFile = new LinkedHashMap<>();
        for (Path message : sorted(dir)) byFile.put(message.getFileName().toString(), parser.parse(message.toFile()));
        return byFile;
    }

    private static boolean historyHas(Path history, String type, long fingerprint) throws IOException {
        for (Path f : sorted(history)) {
            Matcher m = HISTORY_FILE.matcher(f.getFileName().toString());
            if (m.matches() && m.group(1).equals(type)
                    && SchemaNormalization.parsingFingerprint64(new Schema.Parser().parse(f.toFile())) == fingerprint) {
                return true;
            }
        }
        return false;
    }

    private static int lastIndex(Path history, String type) throws IOException {
        int last = 0;
        for (Path f : sorted(history)) {
            Matcher m = HISTORY_FILE.matcher(f.getFileName().toString());
            if (m.matches() && m.group(1).equals(type)) last = Math.max(last, Integer.parseInt(m.group(2)));
        }
        return last;
    }

    /** Copies every .avsc of {@code avro} (and its common/) to {@code copies} where the bytes differ; removes strays. */
    static void copy(Path avro, Path copies, List<String> changes) throws IOException {
        TreeSet<String> wanted = new TreeSet<>();
        for (String sub : new String[] {"", "common"}) {
            for (Path f : sorted(avro.resolve(sub))) {
                String rel = sub.isEmpty() ? f.getFileName().toString() : sub + "/" + f.getFileName();
                wanted.add(rel);
                Path to = copies.resolve(rel);
                byte[] bytes = Files.readAllBytes(f);
                if (Files.exists(to) && Arrays.equals(bytes, Files.readAllBytes(to))) continue;
                Files.createDirectories(to.getParent());
                Files.write(to, bytes);
                changes.add("copied " + rel + " to " + copies);
            }
        }
        for (String sub : new String[] {"", "common"}) {
            for (Path f : sorted(copies.resolve(sub))) {
                String rel = sub.isEmpty() ? f.getFileName().toString() : sub + "/" + f.getFileName();
                if (!wanted.contains(rel)) {
                    Files.delete(f);
                    changes.add("removed " + f + " (no such schema any more)");
                }
            }
        }
    }

    /** The .avsc files directly in {@code dir}, by name; none when it does not exist. */
    private static List<Path> sorted(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".avsc") && Files.isRegularFile(p)).sorted().toList();
        }
    }
}
