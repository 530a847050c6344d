package org.frontiergraph.worker.subscription;

import org.frontiergraph.kernels.engine.ResidentGraph;
import org.frontiergraph.worker.registry.GraphEntry;

/** A graph version and the engine its standing answers are computed on. */
record Engine(GraphEntry entry, ResidentGraph resident) {}
