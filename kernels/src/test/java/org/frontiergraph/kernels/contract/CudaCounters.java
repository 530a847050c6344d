package org.frontiergraph.kernels.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a counter-slot enum ({@code enum BfsCounter : int { BFS_LEVELS = 6, ... };}) from a kernel source. */
public final class CudaCounters {
    private CudaCounters() {}

    private static final Pattern CONSTANT = Pattern.compile("^\\s*([A-Z][A-Z0-9_]*)\\s*=\\s*(\\d+)\\s*,?", Pattern.MULTILINE);

    /**
     * The constants of {@code enum <name>} in src/main/cuda/{@code file} (kernels/src/main/cuda/ when run from the
     * repository root, as the GPU machine runs the tests), in source order.
     */
    public static Map<String, Integer> slots(String file, String name) {
        String text;
        try {
            Path dir = Files.isDirectory(Path.of("src/main/cuda")) ? Path.of("src/main/cuda") : Path.of("kernels/src/main/cuda");
            text = Files.readString(dir.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int at = text.indexOf("enum " + name);
        if (at < 0) throw new IllegalStateException("no enum " + name + " in " + file);
        String body = text.substring(text.indexOf('{', at) + 1, text.indexOf("};", at));
        Map<String, Integer> slots = new LinkedHashMap<>();
        Matcher m = CONSTANT.matcher(body);
        while (m.find()) slots.put(m.group(1), Integer.parseInt(m.group(2)));
        return slots;
    }
}
