package org.frontiergraph.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * deploy/Dockerfile and its ignore file, read as text (no Docker engine here to build them): a build stage and a
 * runtime stage; the runtime stage runs the worker (not the CLI) as a non-root user with a writable /data; the build
 * context holds every module pom Maven needs and none of the CLI's sources (the embedded broker); and the worker's
 * runtime jars hold no Kafka broker.
 */
class DockerfileTest {
    /** Jars of a Kafka broker: what the image must not ship. */
    static final Pattern BROKER_JAR = Pattern.compile("^kafka_2\\.\\d+-.*|^kafka-(server|raft|storage|metadata|group-coordinator)(-.*)?\\.jar$");

    /** The Dockerfile's instructions, continuation lines joined, comments dropped. */
    static List<String> instructions() {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Repo.read("deploy/Dockerfile").split("\n")) {
            String t = line.strip();
            if (t.startsWith("#") || (t.isEmpty() && current.length() == 0)) continue;
            boolean more = t.endsWith("\\");
            current.append(more ? t.substring(0, t.length() - 1) : t).append(' ');
            if (!more) {
                out.add(current.toString().strip());
                current.setLength(0);
            }
        }
        return out;
    }

    /** The instructions of the last stage (from its FROM on). */
    static List<String> runtimeStage() {
        List<String> all = instructions();
        int last = 0;
        for (int i = 0; i < all.size(); i++) if (all.get(i).startsWith("FROM ")) last = i;
        return all.subList(last, all.size());
    }

    /** The numeric user the image runs as (USER uid:gid). */
    static long imageUser() {
        String user = runtimeStage().stream().filter(i -> i.startsWith("USER ")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("the runtime stage sets no USER")).substring(5).strip();
        assertTrue(user.matches("\\d+(:\\d+)?"), "USER must be numeric (runAsNonRoot checks it), got " + user);
        return Long.parseLong(user.split(":")[0]);
    }

    @Test
    void buildsInOneStageAndRunsInAnother() {
        List<String> from = instructions().stream().filter(i -> i.startsWith("FROM ")).toList();
        assertTrue(from.size() >= 2, "multi-stage: " + from);
        assertTrue(from.get(0).matches("FROM \\S+ AS build"), "the first stage is named build: " + from.get(0));
        assertTrue(instructions().stream().anyMatch(i -> i.startsWith("RUN ") && i.contains("mvn ") && i.contains("-pl worker -am")
                && i.contains("package")), "the build stage packages the worker module (mvn -pl worker -am package)");
        List<String> runtime = runtimeStage();
        assertTrue(runtime.stream().filter(i -> i.startsWith("COPY ")).allMatch(i -> i.startsWith("COPY --from=build ")),
                "the runtime stage copies only from the build stage: " + runtime);
        assertTrue(runtime.stream().noneMatch(i -> i.contains("mvn ") || i.contains("maven")), "no build tools at run time");
    }

    @Test
    void runsTheWorkerAsANonRootUserWithAWritableData() {
        long uid = imageUser();
        assertTrue(uid >= 1000, "a non-root user, got " + uid);
        List<String> runtime = runtimeStage();
        assertTrue(runtime.stream().anyMatch(i -> i.startsWith("RUN ") && i.contains("mkdir -p /data")
                && i.contains("chown " + uid + ":" + uid + " /data")), "/data exists and belongs to the user");
        assertTrue(runtime.contains("WORKDIR /data"), "the working folder is /data");
        String entry = runtime.stream().filter(i -> i.startsWith("ENTRYPOINT ")).findFirst().orElseThrow();
        assertTrue(entry.contains("\"org.frontiergraph.worker.FrontierWorker\""), "runs the worker: " + entry);
        assertFalse(entry.contains("FrontierCli"), "not the CLI (which embeds a broker)");
        assertTrue(entry.startsWith("ENTRYPOINT [\""), "exec form: the JVM is PID 1 and gets SIGTERM");
    }

    @Test
    void theBuildContextHoldsTheReactorButNotTheClisSources() throws IOException {
        DockerIgnore ignore = DockerIgnore.parse(Repo.read("deploy/Dockerfile.dockerignore"));
        assertTrue(ignore.included("pom.xml"), "the root pom");
        for (String module : Repo.pomModules()) {
            assertTrue(ignore.included(module + "/pom.xml"), module + "/pom.xml: Maven reads every module of the reactor");
        }
        for (String needed : List.of("worker/src/main/java/org/frontiergraph/worker/FrontierWorker.java",
                "worker/src/main/resources/application.yml", "kernels/src/main/cuda/build-kernels.sh", "schemas/src/main/avro/GraphQuery.avsc")) {
            assertTrue(Files.exists(Repo.path(needed)), needed + " moved: update this test");
            assertTrue(ignore.included(needed), needed + " must be in the build context");
        }
        try (Stream<Path> cli = Files.walk(Repo.path("cli/src"))) {
            for (Path p : cli.filter(Files::isRegularFile).toList()) {
                assertFalse(ignore.included(Repo.ROOT.relativize(p).toString()), p + " (the CLI, with the embedded broker) is sent to the builder");
            }
        }
        for (String out : List.of("worker/target/lib/x.jar", ".git/config", ".frontier/kafka-9092/meta.properties", "docs/operations.md")) {
            assertFalse(ignore.included(out), out + " is sent to the builder");
        }
    }

    @Test
    void theWorkersRuntimeJarsHoldNoBroker() throws IOException {
        Path lib = Repo.path("worker/target/lib");
        Assumptions.assumeTrue(Files.isDirectory(lib), "worker/target/lib is made by `mvn package` (mvn verify runs it first)");
        try (Stream<Path> jars = Files.list(lib)) {
            List<String> broker = jars.map(p -> p.getFileName().toString()).filter(n -> BROKER_JAR.matcher(n).matches()).toList();
            assertEquals(List.of(), broker, "the worker image would ship a Kafka broker");
        }
        assertTrue(Repo.read("deploy/Dockerfile").contains("the image must not ship a Kafka broker"),
                "the Dockerfile checks the same at build time");
    }

    /** Docker's ignore rules, as far as this file uses them: last matching pattern wins, '!' re-includes, a match on a folder covers what is in it. */
    record DockerIgnore(List<String> patterns) {
        static DockerIgnore parse(String text) {
            return new DockerIgnore(text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList());
        }

        boolean included(String path) {
            boolean included = true;
            for (String p : patterns) {
                boolean negate = p.startsWith("!");
                String glob = (negate ? p.substring(1) : p).replaceAll("/+$", "");
                if (matchesOrParent(glob, path)) included = negate;
            }
            return included;
        }

        private static boolean matchesOrParent(String glob, String path) {
            Pattern re = Pattern.compile(glob.replace(".", "\\.").replace("**", "\u0000").replace("*", "[^/]*")
                    .replace("?", "[^/]").replace("\u0000", ".*"));
            for (String p = path; !p.isEmpty(); p = p.contains("/") ? p.substring(0, p.lastIndexOf('/')) : "") {
                if (re.matcher(p).matches()) return true;
            }
            return false;
        }
    }
}
