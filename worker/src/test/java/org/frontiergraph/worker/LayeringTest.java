package org.frontiergraph.worker;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The worker module's import rules, checked on its compiled classes (ArchUnit). The Kafka adapters ({@code kafka}) and
 * the processing loop ({@code processing}) never import the compute engine: they see records, the registry's graphs
 * and the query and subscription services, never a kernel, a CSR or a device; no worker class names a device type of
 * the engine (the standing answers' device side is the engine's own); and no two packages depend on each other in a
 * circle.
 */
class LayeringTest {
    private static final String ROOT = "org.frontiergraph.worker";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void theKafkaAdaptersAndTheLoopDoNotImportTheEngine() {
        noClasses().that().resideInAnyPackage(ROOT + ".kafka..", ROOT + ".processing..")
                .should().dependOnClassesThat().resideInAPackage("org.frontiergraph.kernels..")
                .because("the Kafka adapters stay thin: the engine is reached through the query and subscription services")
                .check(CLASSES);
    }

    @Test
    void noWorkerClassUsesTheEnginesDeviceTypes() {
        noClasses().should().dependOnClassesThat(resideInAPackage("org.frontiergraph.kernels..").and(simpleNameStartingWith("Device")))
                .because("what lives on the device is the engine's business; the worker holds engine handles only")
                .check(CLASSES);
    }

    @Test
    void noPackagesInACircle() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
