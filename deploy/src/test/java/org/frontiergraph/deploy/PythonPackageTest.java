package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * clients/python installs as a package, as its README says: a scratch virtual environment made from Debian's Python
 * with its packages ({@code --system-site-packages}), {@code pip install --no-build-isolation --no-deps --no-index}
 * of a copy of clients/python (nothing downloaded, nothing written into the checkout), {@code pip check} satisfied
 * by Debian's confluent-kafka, avro and numpy, the schemas installed with the code; then the package's unit tests,
 * run from outside the source tree so that they import the installed package. (The live tests skip here: they run
 * against a worker in PythonClientIT.)
 *
 * <p>Skipped, with the reason, when {@code /usr/bin/python3} ({@code -Dfrontier.python}) is missing or lacks venv,
 * setuptools, confluent_kafka, avro or numpy, unless {@code FRONTIER_IT_PYTHON=required} (.ci/run sets it after
 * installing them), which makes it fail instead.
 */
class PythonPackageTest {
    static final String PYTHON = System.getProperty("frontier.python", "/usr/bin/python3");
    static final String MODULES = "venv, ensurepip, setuptools, confluent_kafka, avro, numpy";

    @Test
    void pipInstallsTheClientIntoAScratchVirtualEnvironmentAndItsTestsPass(@TempDir Path tmp) throws Exception {
        String missing = pythonMissing();
        String required = System.getProperty("frontier.it.python-client", System.getenv("FRONTIER_IT_PYTHON"));
        if (missing != null && "required".equals(required)) {
            throw new AssertionError("the Python package test is required but " + missing
                    + " (apt-get install python3-venv python3-setuptools python3-confluent-kafka python3-avro python3-numpy)");
        }
        if (missing != null) System.out.println("[skipped] Python package test: " + missing);   // on the console too
        assumeTrue(missing == null, () -> missing + ": Python package test skipped");

        Path source = tmp.resolve("frontier-client");
        copy(Repo.path("clients/python"), source);
        Path venv = tmp.resolve("venv");
        run(tmp, PYTHON, "-m", "venv", "--system-site-packages", venv.toString());
        String python = venv.resolve("bin/python").toString();
        String installed = run(tmp, python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                "--no-cache-dir", "--disable-pip-version-check", source.toString());
        assertTrue(installed.contains("Successfully installed frontier-client-"), installed);
        String check = run(tmp, python, "-m", "pip", "check", "--disable-pip-version-check");
        assertTrue(check.contains("No broken requirements found"), "Debian's packages meet the requirements:\n" + check);

        String where = run(tmp, python, "-c", "import importlib.metadata as m, frontier_client as f, pathlib;"
                + "print(f.__file__); print((pathlib.Path(f.__file__).parent / 'schemas' / 'common' / 'Algorithm.avsc').is_file());"
                + "print(sorted(r.split(' ')[0].split('>')[0] for r in m.requires('frontier-client')))");
        List<String> lines = where.lines().toList();
        assertTrue(lines.get(0).startsWith(venv.toString()), "the installed package is imported: " + where);
        assertEquals("True", lines.get(1), "the Avro schemas are installed with the code: " + where);
        assertEquals("['avro', 'confluent-kafka', 'numpy']", lines.get(2), "declared requirements: " + where);

        Path outside = tmp.resolve("run");
        copy(Repo.path("clients/python/tests"), outside.resolve("tests"));
        String out = run(outside, python, "-m", "unittest", "discover", "-v", "-s", "tests", "-t", ".");
        Matcher ran = Pattern.compile("(?m)^Ran (\\d+) tests?").matcher(out);
        assertTrue(ran.find() && Integer.parseInt(ran.group(1)) >= 20, "the package's unit tests ran:\n" + out);
        assertTrue(out.matches("(?s).*\\nOK( \\(skipped=\\d+\\))?\\s*$"), "the package's unit tests pass:\n" + out);
        assertTrue(out.contains("CodecTest") || out.contains("FingerprintTest"), "the codec tests ran:\n" + out);
    }

    /** Null if the interpreter has everything the install needs, else what is missing. */
    static String pythonMissing() throws Exception {
        if (!Files.isExecutable(Path.of(PYTHON))) return "no " + PYTHON;
        Process p = new ProcessBuilder(PYTHON, "-c", "import " + MODULES).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return PYTHON + " did not start in 60 s";
        }
        if (p.exitValue() == 0) return null;
        String[] lines = out.split("\n");
        return PYTHON + " lacks one of " + MODULES + " (" + lines[lines.length - 1] + ")";
    }

    /** Runs a command to its end (5 minutes at most); its output, or an assertion error with it. */
    private static String run(Path dir, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        pb.environment().put("PYTHONNOUSERSITE", "1");
        pb.environment().remove("PYTHONPATH");
        pb.environment().remove("FRONTIER_BOOTSTRAP");
        Files.createDirectories(dir);
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " ran over 5 minutes");
        }
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), () -> String.join(" ", command) + " failed:\n" + out);
        return out;
    }

    /** Copies a folder, leaving out what builds and runs leave behind (caches, build/, *.egg-info, .venv). */
    private static void copy(Path from, Path to) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(from)) {
            files = new ArrayList<>(walk.filter(f -> !from.relativize(f).toString().matches(
                    "(?:.*/)?(?:__pycache__|build|\\.venv|[^/]*\\.egg-info)(?:/.*)?|.*\\.pyc")).toList());
        }
        for (Path f : files) {
            Path target = to.resolve(from.relativize(f).toString());
            try {
                if (Files.isDirectory(f)) Files.createDirectories(target);
                else Files.copy(f, target);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
