package org.frontiergraph.kernels;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.kernels.engine.AlgorithmSpec;

/**
 * The algorithms the engine answers: a view of the {@link AlgorithmModule}s found by {@link ServiceLoader} (one per
 * algorithm package, named in {@code META-INF/services/org.frontiergraph.kernels.engine.AlgorithmModule}, in that
 * file's order). Adding an algorithm: a package beside {@code bfs/} with its spec (an {@link AlgorithmSpec} listing
 * its CPU and GPU implementations), result, reference, verifier, launchers and module, its kernels in
 * {@code src/main/cuda/}, and one line in the services file (README, "Adding an algorithm", has the whole recipe).
 */
public final class Algorithms {
    private Algorithms() {}

    /** Every registered algorithm's module, names unique. */
    public static final List<AlgorithmModule<?, ?>> MODULES = load();

    /** The modules' specs, in the same order: what the engines answer. */
    public static final List<AlgorithmSpec<?, ?>> ALL = MODULES.stream().<AlgorithmSpec<?, ?>>map(AlgorithmModule::spec).toList();

    /** The module of the algorithm named {@code name} ("BFS", ...), or empty when none is registered. */
    public static Optional<AlgorithmModule<?, ?>> named(String name) {
        return MODULES.stream().filter(m -> m.spec().name().equals(name)).findFirst();
    }

    /** @throws IllegalStateException when none is found (the services file is not on the class path) or two share a name */
    private static List<AlgorithmModule<?, ?>> load() {
        List<AlgorithmModule<?, ?>> modules = new ArrayList<>();
        for (AlgorithmModule<?, ?> m : ServiceLoader.load(AlgorithmModule.class, AlgorithmModule.class.getClassLoader())) {
            String name = m.spec().name();
            if (modules.stream().anyMatch(other -> other.spec().name().equals(name))) {
                throw new IllegalStateException("two algorithm modules are named " + name + ": " + m.getClass().getName());
            }
            modules.add(m);
        }
        if (modules.isEmpty()) {
            throw new IllegalStateException("no algorithm module found: META-INF/services/" + AlgorithmModule.class.getName()
                    + " is not on the class path");
        }
        return List.copyOf(modules);
    }
}
