package org.frontiergraph.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The vertices a query or subscription names on the command line ({@code --source}, {@code --targets}): ids, or a
 * named graph's vertex names (docs/contract.md, "Vertex names"). They are names when {@code --names} is given or
 * when one of them is not an integer; then every one is a name and the answer comes with names.
 */
record VertexArgs(Integer source, String sourceName, List<Integer> targets, List<String> targetNames, boolean byName) {
    static VertexArgs of(String source, List<String> targets, boolean names) {
        boolean byName = names || (source != null && !isId(source)) || targets.stream().anyMatch(t -> !isId(t));
        if (byName) return new VertexArgs(null, source, List.of(), List.copyOf(targets), true);
        List<Integer> ids = new ArrayList<>(targets.size());
        for (String t : targets) ids.add(Integer.parseInt(t));
        return new VertexArgs(source == null ? null : Integer.parseInt(source), null, ids, List.of(), false);
    }

    boolean hasSource() {
        return source != null || sourceName != null;
    }

    boolean hasTargets() {
        return !targets.isEmpty() || !targetNames.isEmpty();
    }

    /**
     * Why one of {@code values} of {@code option} is refused: an integer that is not an int32 (a mistyped id, not a
     * name); null when none is.
     */
    static String badId(String option, List<String> values) {
        for (String s : values) {
            if (s != null && s.strip().matches("-?[0-9]+") && !isId(s)) {
                return option + ": '" + s + "' is not a vertex id (an integer of at most 32 bits)";
            }
        }
        return null;
    }

    static boolean isId(String s) {
        try {
            Integer.parseInt(s.strip());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
