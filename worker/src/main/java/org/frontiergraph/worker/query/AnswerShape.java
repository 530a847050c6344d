package org.frontiergraph.worker.query;

import org.frontiergraph.schema.codec.AnswerFields.VertexArray;

/**
 * What kind of answer an algorithm sends, so that readers (the CLI's rows, CSV, DOT and GeoJSON writers, its option
 * checks, {@link Answers}) read it without knowing the algorithm: an algorithm whose answer has one of these shapes
 * needs no change in them. Each {@link AnswerEncoder} declares its shape.
 *
 * @param kind what the answer is
 * @param values the per-vertex array holding a vertex's value (a tree's or a labelling's; a matrix's rows), null for
 *        an edge set
 * @param valueName a value's name in a row ({@code hops}, {@code distance}, {@code label}: the CSV column, a path's
 *        JSON field), null for an edge set
 */
public record AnswerShape(Kind kind, VertexArray values, String valueName) {
    /** The kinds of answer. */
    public enum Kind {
        /** A value and a parent per vertex, from the query's source (BFS, SSSP): rows, a path to a vertex, drawn. */
        TREE,
        /** A label per vertex of the whole graph, no parents (CC): rows. */
        LABELS,
        /** A set of weighted edges (MST's forest): rows of edges, drawn. */
        EDGES,
        /** A value for every pair of vertices, in row blocks (APSP): no rows. */
        MATRIX
    }

    /** A tree's value and parent per vertex; {@code values} holds the values. */
    public static AnswerShape tree(VertexArray values, String valueName) {
        return new AnswerShape(Kind.TREE, values, valueName);
    }

    /** A label per vertex in {@code values}. */
    public static AnswerShape labels(VertexArray values, String valueName) {
        return new AnswerShape(Kind.LABELS, values, valueName);
    }

    /** Weighted edges ({@code mstEdges}). */
    public static final AnswerShape EDGES = new AnswerShape(Kind.EDGES, null, null);

    /** A matrix of {@code values} in row blocks. */
    public static AnswerShape matrix(VertexArray values) {
        return new AnswerShape(Kind.MATRIX, values, null);
    }

    /** The answer follows parents from a source (a path can be read off it; a query names a source). */
    public boolean isTree() { return kind == Kind.TREE; }

    /** The answer can be drawn as a graph (a tree or a forest: DOT, GeoJSON). */
    public boolean drawn() { return kind == Kind.TREE || kind == Kind.EDGES; }

    /** The answer is rows (of vertices or of edges), not a matrix. */
    public boolean hasRows() { return kind != Kind.MATRIX; }
}
