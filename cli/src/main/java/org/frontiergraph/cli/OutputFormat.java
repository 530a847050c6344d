package org.frontiergraph.cli;

/** How {@code ./frontier query} prints an answer: {@code --format json|csv|dot|geojson}. */
enum OutputFormat {
    /** The whole answer (or the path) as one JSON object: JsonAnswer. */
    JSON,
    /** One row per vertex ({@code vertex,distance|hops,parent}) or per MST edge ({@code u,v,weight}): CsvAnswer. */
    CSV,
    /** A Graphviz graph of the tree, the path or the forest: DotAnswer. */
    DOT,
    /** A GeoJSON FeatureCollection of LineStrings on the vertices' coordinates (needs --coordinates): GeoJsonAnswer. */
    GEOJSON
}
