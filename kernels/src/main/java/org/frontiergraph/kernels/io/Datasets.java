package org.frontiergraph.kernels.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the shared real-graph folder ({@code ../shared/datasets} beside the repository). A user's clone has none:
 * callers (tests, benchmarks) then skip. The system property or environment variable {@code FRONTIER_DATASETS}
 * overrides the search.
 */
public final class Datasets {
    public static final String NY = "USA-road-d.NY.gr.gz";
    public static final String ROME = "rome99.gr.gz";
    public static final String LUXEMBOURG = "luxembourg_osm.mtx.gz";
    public static final String ENRON = "email-Enron.txt.gz";
    public static final String FACEBOOK = "facebook_combined.txt.gz";

    private Datasets() {}

    public static Optional<Path> dir() {
        String override = System.getProperty("FRONTIER_DATASETS", System.getenv("FRONTIER_DATASETS"));
        if (override != null && !override.isBlank()) {
            Path p = Path.of(override);
            return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
        }
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared").resolve("datasets");
            if (Files.isDirectory(candidate) && Files.exists(candidate.resolve(ROME))) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    /** The named file when the shared folder is present. */
    public static Optional<Path> file(String name) {
        return dir().map(d -> d.resolve(name)).filter(Files::isRegularFile);
    }
}
