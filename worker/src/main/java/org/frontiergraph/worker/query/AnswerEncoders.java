package org.frontiergraph.worker.query;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.frontiergraph.kernels.Algorithms;
import org.frontiergraph.kernels.engine.AlgorithmModule;
import org.frontiergraph.schema.Algorithm;

/**
 * The worker's answer encoders by the contract's algorithm symbol: a view of the {@link AnswerEncoder}s found by
 * {@link ServiceLoader} ({@code META-INF/services/org.frontiergraph.worker.query.AnswerEncoder}, in that file's
 * order). Each is paired, by name, with the engine's module of the same algorithm
 * ({@link Algorithms#named}): loading fails when two encoders speak one symbol or an encoder's spec is not the spec
 * of the engine's module of its name.
 */
public final class AnswerEncoders {
    private AnswerEncoders() {}

    public static final List<AnswerEncoder<?, ?>> ALL = load();

    private static final Map<Algorithm, AnswerEncoder<?, ?>> BY_ALGORITHM = new EnumMap<>(Algorithm.class);

    static {
        for (AnswerEncoder<?, ?> e : ALL) BY_ALGORITHM.put(e.algorithm(), e);
    }

    /** The encoder of {@code algorithm}. @throws IllegalStateException when none is registered (a build error) */
    public static AnswerEncoder<?, ?> of(Algorithm algorithm) {
        AnswerEncoder<?, ?> e = BY_ALGORITHM.get(algorithm);
        if (e == null) throw new IllegalStateException("no answer encoder registered for " + algorithm);
        return e;
    }

    /** @throws IllegalStateException for two encoders of one symbol, or one that pairs no engine module of its name */
    private static List<AnswerEncoder<?, ?>> load() {
        List<AnswerEncoder<?, ?>> encoders = new ArrayList<>();
        for (AnswerEncoder<?, ?> e : ServiceLoader.load(AnswerEncoder.class, AnswerEncoder.class.getClassLoader())) {
            Algorithm a = e.algorithm();
            if (encoders.stream().anyMatch(other -> other.algorithm() == a)) {
                throw new IllegalStateException("two answer encoders speak " + a + ": " + e.getClass().getName());
            }
            AlgorithmModule<?, ?> module = Algorithms.named(a.name()).orElseThrow(() -> new IllegalStateException(
                    "answer encoder " + e.getClass().getName() + " speaks " + a + " but the engine registers no algorithm of that name"));
            if (module.spec() != e.spec()) {
                throw new IllegalStateException("answer encoder " + e.getClass().getName() + " runs " + e.spec()
                        + " but the engine's module " + module.getClass().getName() + " registers another spec of that name");
            }
            encoders.add(e);
        }
        return List.copyOf(encoders);
    }
}
