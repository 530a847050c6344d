package org.frontiergraph.worker.query;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.frontiergraph.schema.Algorithm;

/** The one list of the worker's answer encoders, by the contract's algorithm symbol. */
public final class AnswerEncoders {
    private AnswerEncoders() {}

    public static final List<AnswerEncoder<?, ?>> ALL = List.of(new BfsAnswers(), new SsspAnswers(), new MstAnswers(),
            new ApspAnswers());

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
}
