package org.frontiergraph.kernels.engine;

import java.util.ArrayList;
import java.util.List;
import org.frontiergraph.kernels.graph.CsrGraph;

/**
 * An algorithm's spec: its name and its implementations on every backend, each answering to some variant names.
 * A query's variant text is parsed here once ({@link #choose}) into the implementation that runs it and a typed
 * {@link Variant}; backends then run that implementation without looking at the text again. The spec of each
 * algorithm lives in its package ({@code bfs.Bfs.SPEC}, ...); {@code org.frontiergraph.kernels.Algorithms}
 * lists them all.
 *
 * @param <Q> what a query gives the algorithm
 * @param <R> the algorithm's result
 */
public final class AlgorithmSpec<Q, R> {
    private final String name;
    private final List<Implementation<Q, R>> implementations;

    /** {@code implementations}: per backend, the first listed whose {@link Implementation#isDefaultFor} accepts the
     *  graph is that backend's default. */
    @SafeVarargs
    public AlgorithmSpec(String name, Implementation<Q, R>... implementations) {
        this.name = name;
        this.implementations = List.of(implementations);
    }

    /** "BFS", "SSSP", ...: the name in error messages and in the contract's Algorithm enum. */
    public String name() { return name; }

    public List<Implementation<Q, R>> implementations() { return implementations; }

    /** The implementation and the parsed variant a query names on a backend. */
    public record Choice<Q, R>(Implementation<Q, R> implementation, Variant variant) {}

    /**
     * The implementation that answers {@code variantText} ({@code name[,key=value...]}; null, empty or "default":
     * the backend's default for {@code graph}) on {@code backend}.
     *
     * @throws UnsupportedVariantException when the backend has no implementation of that name (or a malformed option)
     */
    public Choice<Q, R> choose(String backend, String variantText, CsrGraph graph) {
        Variant v = Variant.parse(variantText, () -> unsupported(backend, variantText));
        for (Implementation<Q, R> impl : implementations) {
            if (!impl.backend().equals(backend)) continue;
            if (v.name() == null) {
                if (impl.isDefaultFor(graph)) return new Choice<>(impl, v.named(impl.variants().get(0)));
            } else if (impl.variants().contains(v.name())) {
                return new Choice<>(impl, v);
            }
        }
        throw unsupported(backend, variantText);
    }

    /** Every variant name {@code backend} answers to, defaults first. */
    public List<String> variants(String backend) {
        List<String> names = new ArrayList<>();
        for (Implementation<Q, R> impl : implementations) if (impl.backend().equals(backend)) names.addAll(impl.variants());
        return names;
    }

    private UnsupportedVariantException unsupported(String backend, String variantText) {
        List<String> known = variants(backend);
        if (known.isEmpty()) return new UnsupportedVariantException(name + " is not implemented on backend '" + backend + "'");
        return new UnsupportedVariantException(name, variantText == null ? "default" : variantText, backend, known);
    }

    @Override
    public String toString() { return name; }
}
