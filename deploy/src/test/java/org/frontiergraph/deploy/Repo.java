package org.frontiergraph.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's files as the deploy checks read them: paths from the root, YAML and JSON parsed with Jackson. */
final class Repo {
    static final ObjectMapper JSON = JsonMapper.builder().build();
    static final YAMLMapper YAML = new YAMLMapper(new YAMLFactory());
    static final Path ROOT = findRoot();

    private Repo() {}

    /** The repository root: the first folder upwards from the working directory that holds deploy/k8s. */
    private static Path findRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("deploy/k8s")) && Files.exists(p.resolve("pom.xml"))) return p;
        }
        throw new IllegalStateException("no repository root (with deploy/k8s) above " + Path.of("").toAbsolutePath());
    }

    static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    static String read(String relative) {
        try {
            return Files.readString(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String relative) {
        try {
            return JSON.readTree(path(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String relative) {
        try {
            return YAML.readTree(path(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One document of a multi-document YAML file. */
    record Doc(String file, int index, JsonNode node) {
        String kind() { return node.path("kind").asText(); }

        String apiVersion() { return node.path("apiVersion").asText(); }

        String name() { return node.path("metadata").path("name").asText(); }

        @Override
        public String toString() { return file + "#" + index + " (" + kind() + " " + name() + ")"; }
    }

    /** Every document of every .yaml/.yml file under {@code folder}, empty documents skipped. */
    static List<Doc> documents(String folder) {
        List<Doc> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(path(folder))) {
            for (Path f : files.filter(p -> p.toString().matches(".*\\.ya?ml$")).sorted().toList()) {
                String name = ROOT.relativize(f).toString();
                int i = 0;
                try (var it = YAML.readerFor(JsonNode.class).<JsonNode>readValues(f.toFile())) {
                    while (it.hasNext()) {
                        JsonNode n = it.next();
                        if (n != null && !n.isNull() && !n.isMissingNode() && !n.isEmpty()) docs.add(new Doc(name, i, n));
                        i++;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** A property of the root pom.xml ({@code <name>value</name>} under properties). */
    static String pomProperty(String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(read("pom.xml"));
        if (!m.find()) throw new IllegalStateException("pom.xml has no property " + name);
        return m.group(1).trim();
    }

    /** The modules of the root pom.xml. */
    static List<String> pomModules() {
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(read("pom.xml"));
        List<String> modules = new ArrayList<>();
        while (m.find()) modules.add(m.group(1).trim());
        return modules;
    }

    /** The worker's settings: worker/src/main/resources/application.yml. */
    static JsonNode workerSettings() {
        return yaml("worker/src/main/resources/application.yml");
    }
}
