package org.frontiergraph.schema.codec;

import java.util.List;
import org.frontiergraph.schema.ComponentChange;
import org.frontiergraph.schema.ComponentChangeKind;
import org.frontiergraph.schema.PushReason;
import org.frontiergraph.schema.QueryResult;
import org.frontiergraph.schema.ResultStatus;

/**
 * Run by {@link FrontierCodecTest} in a JVM without {@code -Dorg.apache.avro.SERIALIZABLE_PACKAGES} (as a client
 * application runs): a push with every nested type of QueryResult decodes; exit 0, else the failure on stderr.
 */
final class UntrustedJvmProbe {
    private UntrustedJvmProbe() {}

    public static void main(String[] args) throws Exception {
        QueryResult r = QueryResult.newBuilder().setQueryId("q").setGraphId("g").setStatus(ResultStatus.OK)
                .setReason(PushReason.UPDATE).setSequence(1L).setDelta(true)
                .setMstEdges(PackedArrays.edgeBatch(new int[] {1}, new int[] {2}, new double[] {1}))
                .setComponentChanges(List.of(new ComponentChange(ComponentChangeKind.SPLIT, 1,
                        PackedArrays.int32Buffer(2).putInt(1).putInt(5).flip())))
                .build();
        QueryResult back = FrontierCodec.decode(FrontierCodec.encode(r), QueryResult.class);
        if (!back.equals(r)) throw new AssertionError("decoded differently: " + back);
    }
}
