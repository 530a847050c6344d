package org.frontiergraph.kernels;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The kernels module's import rules, checked on its compiled classes (ArchUnit): each layer uses only the layers
 * below it, from the bottom up
 * <ol>
 *   <li>data: {@code graph} (CSR, updates, the change log), {@code io} (file readers), {@code generate};</li>
 *   <li>engine: {@code engine} (specs, backends, resident graphs as interfaces);</li>
 *   <li>runtimes: {@code cpu}, {@code gpu} (contexts, device buffers, launch code, the device copy);</li>
 *   <li>algorithms: {@code bfs}, {@code sssp}, {@code mst}, {@code apsp}, {@code cc}, each a package of its own;</li>
 *   <li>standing answers: {@code standing} (the life of an answer kept across updates: one SPI, the tree core and
 *       the device trees over the algorithms' launchers, the algorithms' repairs);</li>
 *   <li>registrations: the root package ({@link Algorithms}, {@link Backends}).</li>
 * </ol>
 * and no two packages depend on each other in a circle. An algorithm package uses no other one, except two built on
 * SSSP: APSP (its {@code repeated-sssp} variant and its reference run Dijkstra) and BFS's SUMMARY bursts on the GPU
 * (the batched SSSP with every arc counting 1, {@code BatchSssp}). The module has no Kafka, Avro or
 * Micronaut at all.
 */
class LayeringTest {
    private static final String ROOT = "org.frontiergraph.kernels";
    private static final String[] ALGORITHMS = {"bfs", "sssp", "mst", "apsp", "cc"};

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(true)
                .layer("data").definedBy(ROOT + ".graph..", ROOT + ".io..", ROOT + ".generate..")
                .layer("engine").definedBy(ROOT + ".engine..")
                .layer("runtimes").definedBy(ROOT + ".cpu..", ROOT + ".gpu..")
                .layer("algorithms").definedBy(packages(ALGORITHMS))
                .layer("standing").definedBy(ROOT + ".standing..")
                .layer("registrations").definedBy(ROOT)
                .whereLayer("registrations").mayNotBeAccessedByAnyLayer()
                .whereLayer("standing").mayOnlyBeAccessedByLayers("registrations")
                .whereLayer("algorithms").mayOnlyBeAccessedByLayers("standing", "registrations")
                .whereLayer("runtimes").mayOnlyBeAccessedByLayers("algorithms", "standing", "registrations")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("runtimes", "algorithms", "standing", "registrations")
                .check(CLASSES);
    }

    @Test
    void theRuntimesDoNotKnowEachOther() {
        noClasses().that().resideInAPackage(ROOT + ".cpu..").should().dependOnClassesThat().resideInAPackage(ROOT + ".gpu..")
                .check(CLASSES);
        noClasses().that().resideInAPackage(ROOT + ".gpu..").should().dependOnClassesThat().resideInAPackage(ROOT + ".cpu..")
                .check(CLASSES);
    }

    @Test
    void anAlgorithmUsesNoOtherOneButApspAndBfsUseSssp() {
        for (String a : ALGORITHMS) {
            for (String b : ALGORITHMS) {
                if (a.equals(b) || ((a.equals("apsp") || a.equals("bfs")) && b.equals("sssp"))) continue;
                noClasses().that().resideInAPackage(ROOT + "." + a + "..")
                        .should().dependOnClassesThat().resideInAPackage(ROOT + "." + b + "..")
                        .allowEmptyShould(true)
                        .because(a + " is an algorithm package of its own; what it shares with " + b
                                + " belongs to a lower layer (the runtimes, engine or graph) or to standing, above them")
                        .check(CLASSES);
            }
        }
    }

    @Test
    void noPackagesInACircle() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void noKafkaAvroOrMicronaut() {
        noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("org.apache.kafka..", "org.apache.avro..", "io.micronaut..", "org.frontiergraph.schema..",
                        "org.frontiergraph.worker..")
                .check(CLASSES);
    }

    private static String[] packages(String[] names) {
        String[] p = new String[names.length];
        for (int i = 0; i < names.length; i++) p[i] = ROOT + "." + names[i] + "..";
        return p;
    }
}
