package org.frontiergraph.kernels.sssp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every kernel name the SSSP launchers can ask for is an entry point of the .cu sources: a literal
 * {@code kernel("name")}, and for each literal in an {@code entry(...)} (a {@link KeyForm}'s entry point) the
 * entry point of both weight forms ({@link KeyForm#weights}: {@code _i32}, {@code _f64}). The entry points are the
 * {@code extern "C" __global__} functions of every .cu file, those a macro defines expanded at each of its uses. The
 * standing repair's forms ({@code _unit} too) are checked by {@code RepairCountersTest}.
 */
class KernelEntryPointsTest {
    private static final Pattern ENTRY = Pattern.compile(
            "extern \"C\" __global__ void (?:__launch_bounds__\\([^)]*\\)\\s*)?([\\w#]+)\\s*\\(");
    private static final Pattern DEFINE = Pattern.compile("(?m)^#define (\\w+)\\(([^)]*)\\)((?:.*\\\\\\n)*.*)$");
    private static final Pattern LITERAL = Pattern.compile("\"(\\w+)\"");

    /** The extern "C" entry points of every .cu file, macros expanded at their uses. */
    static Set<String> entryPoints() throws IOException {
        Path dir = Files.isDirectory(Path.of("src/main/cuda")) ? Path.of("src/main/cuda") : Path.of("kernels/src/main/cuda");
        Set<String> names = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".cu") || p.toString().endsWith(".cuh")).sorted().toList();
        }
        for (Path file : files) {
            String text = Files.readString(file);
            Map<String, String[]> params = new HashMap<>();
            Map<String, List<String>> templates = new HashMap<>();
            Matcher d = DEFINE.matcher(text);
            StringBuilder outside = new StringBuilder();
            int at = 0;
            while (d.find()) {
                outside.append(text, at, d.start());
                at = d.end();
                List<String> t = new ArrayList<>();
                Matcher e = ENTRY.matcher(d.group(3).replace("\\\n", " "));
                while (e.find()) t.add(e.group(1));
                if (t.isEmpty()) continue;
                params.put(d.group(1), d.group(2).split("\\s*,\\s*"));
                templates.put(d.group(1), t);
            }
            outside.append(text.substring(at));
            Matcher e = ENTRY.matcher(outside);
            while (e.find()) names.add(e.group(1));
            for (var macro : templates.entrySet()) {
                Matcher use = Pattern.compile("(?m)^\\s*" + macro.getKey() + "\\(([^)]*)\\)").matcher(outside);
                while (use.find()) {
                    String[] args = use.group(1).split("\\s*,\\s*", -1);
                    String[] p = params.get(macro.getKey());
                    for (String template : macro.getValue()) {
                        StringBuilder name = new StringBuilder();
                        for (String token : template.split("##")) {
                            int i = List.of(p).indexOf(token.trim());
                            name.append(i >= 0 ? args[i].trim() : token.trim());
                        }
                        names.add(name.toString());
                    }
                }
            }
        }
        return names;
    }

    @Test
    void theEntryPointsAreReadFromTheSources() throws IOException {
        Set<String> names = entryPoints();
        for (String n : List.of("sssp_nearfar_i32", "da2cf_relax_u_plus_f64", "repair_prepare_unit", "sssp_multi_seeded_f64",
                "sssp_async_seeded_slack_i32", "harish_sssp_kernel1_racy_i32", "transpose_fill_f64")) {
            assertTrue(names.contains(n), n + " among " + names);
        }
        assertFalse(names.stream().anyMatch(n -> n.contains("#") || n.startsWith("__")), "every macro use expanded: " + names);
    }

    @Test
    void everyNameTheSsspLaunchersFormIsAnEntryPoint() throws IOException {
        Set<String> names = entryPoints();
        Path dir = Path.of(Files.isDirectory(Path.of("src/main/java")) ? "src/main/java" : "kernels/src/main/java")
                .resolve("org/frontiergraph/kernels/sssp");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        int checked = 0;
        for (Path file : files) {
            String text = Files.readString(file);
            Matcher plain = Pattern.compile("\\.kernel\\(\"(\\w+)\"\\)").matcher(text);
            while (plain.find()) {
                assertTrue(names.contains(plain.group(1)), file.getFileName() + " asks for " + plain.group(1));
                checked++;
            }
            for (String line : text.split("\n")) {
                int e = line.indexOf("entry(");
                if (e < 0 || line.contains("String entry(")) continue;
                Matcher lit = LITERAL.matcher(line.substring(e));
                while (lit.find()) {
                    for (KeyForm f : List.of(KeyForm.weights(true), KeyForm.weights(false))) {
                        String name = f.entry(lit.group(1));
                        assertTrue(names.contains(name), file.getFileName() + " forms " + name + ": " + line.trim());
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked >= 40, "the launchers' names were found (" + checked + ")");
    }

    /**
     * Every name a launcher forms through {@code DeviceCsr.offsetEntry} (the int32-offset entry point, or the same name
     * with {@code _o64} on a graph stored wide), and every plain {@code .kernel("name")} of those launchers, is an
     * entry point; with a weight form's suffix where the line forms one ({@code entry(}).
     */
    @Test
    void everyNameTheWideLaunchersFormIsAnEntryPoint() throws IOException {
        Set<String> names = entryPoints();
        Path root = Path.of(Files.isDirectory(Path.of("src/main/java")) ? "src/main/java" : "kernels/src/main/java")
                .resolve("org/frontiergraph/kernels");
        int wide = 0;
        for (String pkg : List.of("bfs", "sssp", "mst", "cc", "gpu")) {
            List<Path> files;
            try (Stream<Path> s = Files.list(root.resolve(pkg))) {
                files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
            }
            for (Path file : files) {
                String text = Files.readString(file);
                if (text.contains("offsetEntry(") || file.endsWith("WidePages.java")) {   // the wide launchers
                    Matcher plain = Pattern.compile("\\.kernel\\(\"(\\w+)\"\\)").matcher(text);
                    while (plain.find()) assertTrue(names.contains(plain.group(1)), file.getFileName() + " asks for " + plain.group(1));
                }
                for (String line : text.split("\n")) {
                    int e = line.indexOf("offsetEntry(");
                    if (e < 0 || line.contains("String offsetEntry(")) continue;
                    Matcher lit = LITERAL.matcher(line.substring(e));
                    while (lit.find()) {
                        List<String> forms = line.contains("entry(\"") ? List.of(KeyForm.I32.entry(lit.group(1)),
                                KeyForm.F64.entry(lit.group(1))) : List.of(lit.group(1));
                        for (String name : forms) {
                            assertTrue(names.contains(name), file.getFileName() + " forms " + name + ": " + line.trim());
                            assertTrue(names.contains(name + "_o64"), file.getFileName() + " forms " + name + "_o64: " + line.trim());
                            wide++;
                        }
                    }
                }
            }
        }
        assertTrue(wide >= 10, "the wide launchers' names were found (" + wide + ")");
        for (String n : List.of("scatter_i32_o64", "scatter_f64_o64", "cc_init_o64", "cc_compute3", "sssp_nearfar_f64_o64")) {
            assertTrue(names.contains(n), n + " among the entry points");
        }
    }
}
